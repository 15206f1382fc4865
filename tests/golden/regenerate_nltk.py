"""Freeze NLTK 3.10's BLEU (``nltk.translate.bleu_score``) into tests/golden/nltk_bleu.json.

Run from the repository root with ``nltk>=3.10,<3.11`` installed (the ``nltk``
extra): ``python tests/golden/regenerate_nltk.py``. The cases are the ones
tests/test_nltk_bleu.py replays through ``bleucli.family.nltk``: corpus BLEU of
ted-sk-en's tokenized sys1 against its reference (every smoothing method,
several weight tuples, auto_reweigh), the sentence BLEU of its first 120
lines, and the issue's toy sentence. Floats are stored with ``repr`` (exact).
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import nltk  # noqa: E402
from nltk.translate import bleu_score  # noqa: E402

from datasets import DATA, lines  # noqa: E402

OUT = Path(__file__).resolve().parent / "nltk_bleu.json"

WEIGHTS = [
    [0.25, 0.25, 0.25, 0.25],
    [1.0], [0.5, 0.5], [1 / 3, 1 / 3, 1 / 3],
    [0, 0, 0, 1], [0, 1], [0.1, 0.2, 0.3, 0.4],
    [0.2, 0.2, 0.2, 0.2, 0.2],
]
SMOOTHINGS = [None, *(f"method{n}" for n in range(8))]
PARAMETERS = [{}, {"epsilon": 0.5, "alpha": 3, "k": 2}, {"epsilon": 1, "alpha": 0.5, "k": 0.7}]


def ted_tokens() -> tuple[list[list[str]], list[list[str]]]:
    refs = [line.split() for line in lines(DATA / "ted-sk-en" / "tok" / "ref.en.gz")]
    hyps = [line.split() for line in lines(DATA / "ted-sk-en" / "tok" / "sys1.en.gz")]
    return refs, hyps


def score(function, *args, smoothing, parameters, **kwargs):  # type: ignore[no-untyped-def]
    method = None if smoothing is None else getattr(bleu_score.SmoothingFunction(**parameters), smoothing)
    try:
        value = function(*args, smoothing_function=method, **kwargs)
    except (AssertionError, IndexError, ZeroDivisionError, ValueError) as error:
        return {"error": type(error).__name__}
    return {"value": repr(value) if not isinstance(value, list) else [repr(v) for v in value]}


def main() -> None:
    warnings.simplefilter("ignore")
    refs, hyps = ted_tokens()
    cases = []
    for smoothing in SMOOTHINGS:
        for parameters in PARAMETERS if smoothing not in (None, "method0", "method2", "method3") else [{}]:
            cases.append({"level": "corpus", "smoothing": smoothing, "parameters": parameters,
                          "weights": WEIGHTS, "auto_reweigh": False,
                          **score(bleu_score.corpus_bleu, [[r] for r in refs], hyps, weights=WEIGHTS,
                                  smoothing=smoothing, parameters=parameters)})
    sentences = []
    for smoothing in SMOOTHINGS:
        values = [score(bleu_score.sentence_bleu, [r], h, smoothing=smoothing, parameters={},
                        weights=WEIGHTS[:4], auto_reweigh=True)
                  for r, h in zip(refs[:120], hyps[:120])]
        sentences.append({"smoothing": smoothing, "weights": WEIGHTS[:4], "auto_reweigh": True, "results": values})
    toy = {m: repr(bleu_score.sentence_bleu(["the cat is on the mat".split()], "the cat sat on the mat".split(),
                                            smoothing_function=getattr(bleu_score.SmoothingFunction(), m)))
           for m in SMOOTHINGS[1:]}
    OUT.write_text(json.dumps({"nltk": nltk.__version__, "corpus": cases, "sentences": sentences, "toy": toy},
                              indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
