"""Freeze NLTK 3.10's Google-BLEU (``nltk.translate.gleu_score``) into tests/golden/google_bleu_nltk.json.

Each case tokenizes the lines on whitespace (``str.split``) as the tests do and
calls NLTK's ``corpus_gleu`` (and ``sentence_gleu`` for the per-sentence
cases). Usage: python tests/golden/regenerate_google_bleu.py (NLTK 3.10
installed: ``pip install -e ".[nltk]"``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from datasets import DATA, lines  # noqa: E402


def cases() -> dict[str, tuple[list[str], list[list[str]], int, int]]:
    """name -> (hypotheses, reference streams, min_len, max_len)."""
    ted_hyp = lines(DATA / "ted-sk-en" / "tok" / "sys1.en.gz")
    ted_ref = lines(DATA / "ted-sk-en" / "tok" / "ref.en.gz")
    wmt = DATA / "wmt21-en-de"
    wmt_hyp = lines(sorted((wmt / "sys").glob("*.gz"))[0])[:400]
    wmt_refs = [lines(wmt / f"{name}.de.gz")[:400] for name in ("ref", "ref2", "ref3")]
    return {
        "ted-tok-sys1": (ted_hyp, [ted_ref], 1, 4),
        "ted-tok-sys1-orders-2-3": (ted_hyp, [ted_ref], 2, 3),
        "ted-tok-sys1-orders-1-1": (ted_hyp, [ted_ref], 1, 1),
        "wmt21-en-de-3refs": (wmt_hyp, wmt_refs, 1, 4),
        "wmt21-en-de-3refs-orders-1-6": (wmt_hyp, wmt_refs, 1, 6),
    }


def main() -> None:
    import nltk
    from nltk.translate.gleu_score import corpus_gleu, sentence_gleu

    out: dict[str, dict[str, object]] = {}
    for name, (hyps, refs, low, high) in cases().items():
        tokens_h = [h.split() for h in hyps]
        tokens_r = [[r.split() for r in seg] for seg in zip(*refs)]
        out[name] = {"corpus": corpus_gleu(tokens_r, tokens_h, low, high),
                     "sentences_first_100": [sentence_gleu(r, h, low, high) for r, h in
                                             zip(tokens_r[:100], tokens_h[:100])]}
        print(name, repr(out[name]["corpus"]))
    data = {"oracle": f"nltk {nltk.__version__} nltk.translate.gleu_score", "cases": out}
    (HERE / "google_bleu_nltk.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
