"""Regenerate tests/golden/bleu.json from the oracle, sacreBLEU 2.6.0.

Run from the repository root with sacrebleu 2.6.0 installed
(``pip install -e .[test,oracle]``):

    python tests/golden/regenerate_bleu.py

It scores every set, system and tokenizer of tests/data with one and with all
references, then a grid of smoothing / lowercase / max-order settings and
sentence-level scores on a few systems, and freezes scores (as exact floats),
statistics and signatures. The tests compare bleucli against this file, so the
suite needs no oracle; tests/test_oracle_differential.py re-checks live when
sacrebleu is installed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

import sacrebleu  # noqa: E402
from sacrebleu.metrics import BLEU  # noqa: E402

import datasets  # noqa: E402  (tests/datasets.py)

TOKENIZERS = ["13a", "intl", "char", "none"]
GRID = [
    {"smooth_method": "none"},
    {"smooth_method": "floor"},
    {"smooth_method": "floor", "smooth_value": 0.5},
    {"smooth_method": "add-k"},
    {"smooth_method": "add-k", "smooth_value": 2},
    {"smooth_method": "exp", "effective_order": True},
    {"smooth_method": "none", "effective_order": True},
    {"lowercase": True},
    {"lowercase": True, "tokenize": "intl"},
    {"max_ngram_order": 1},
    {"max_ngram_order": 2},
    {"max_ngram_order": 6},
    {"max_ngram_order": 9},
]
SENTENCE_SETTINGS = [
    {"effective_order": True},
    {"effective_order": True, "smooth_method": "floor"},
    {"effective_order": True, "smooth_method": "add-k"},
    {"effective_order": True, "smooth_method": "none"},
    {"effective_order": True, "tokenize": "char", "lowercase": True},
    {"effective_order": False},
]
SENTENCE_LINES = 150


def systems_of(name: str) -> dict[str, list[str]]:
    found = datasets.systems(name)
    if not found:  # wmt24pp-en-ko: the unedited translation scored against the post-edit
        found = {"ref2-as-hypothesis": datasets.references(name)[1]}
    return found


def reference_sets(name: str) -> dict[str, list[list[str]]]:
    refs = datasets.references(name)
    if not datasets.systems(name):
        return {"1": refs[:1]}
    return {"1": refs[:1], "all": refs} if len(refs) > 1 else {"1": refs}


def record(score, metric, **key) -> dict:
    return {
        **key,
        "score": score.score,
        "counts": list(score.counts),
        "totals": list(score.totals),
        "precisions": list(score.precisions),
        "bp": score.bp,
        "sys_len": score.sys_len,
        "ref_len": score.ref_len,
        "signature": str(metric.get_signature()).rsplit("|version:", 1)[0],
    }


def main() -> None:
    corpus, grid, sentence = [], [], []
    for name in datasets.sets():
        systems = systems_of(name)
        tokenizers = TOKENIZERS + (["zh"] if datasets.target_language(name) == "zh" else [])
        for refs_key, refs in reference_sets(name).items():
            for tok in tokenizers:
                metric = BLEU(tokenize=tok, force=True, references=refs)
                for system, hyps in systems.items():
                    corpus.append(record(metric.corpus_score(hyps, None), metric, set=name, system=system,
                                         refs=refs_key, options={"tokenize": tok}))
            print(name, refs_key, "done", flush=True)
        refs = list(reference_sets(name).values())[-1]
        refs_key = list(reference_sets(name))[-1]
        for system in list(systems)[:2]:
            for options in GRID:
                metric = BLEU(force=True, **options)
                grid.append(record(metric.corpus_score(systems[system], refs), metric, set=name,
                                   system=system, refs=refs_key, options=options))
        first = list(systems)[0]
        hyps = systems[first][:SENTENCE_LINES]
        for options in SENTENCE_SETTINGS:
            metric = BLEU(**options)
            scores = [metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
            sentence.append({"set": name, "system": first, "refs": refs_key, "options": options,
                             "lines": SENTENCE_LINES, "scores": scores,
                             "signature": str(metric.get_signature()).rsplit("|version:", 1)[0]})
    out = {"oracle": f"sacrebleu {sacrebleu.__version__}", "corpus": corpus, "grid": grid, "sentence": sentence}
    (HERE / "bleu.json").write_text(json.dumps(out, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(corpus)} corpus, {len(grid)} grid and {len(sentence)} sentence records")


if __name__ == "__main__":
    main()
