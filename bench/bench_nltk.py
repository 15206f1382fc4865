"""Time bleucli.family.nltk against NLTK 3.10's own BLEU, side by side, on the same token lists.

Usage::

    python bench/bench_nltk.py [--runs 5]

Corpora (shared data, ``BLEUCLI_SHARED_DATA`` or ``../shared/data``):

* ``ted-sk-en tok``: the tokenized sys1 against its reference (2445 segments,
  the issue's anchor corpus), whitespace-split;
* ``wmt21-en-de x3``: UEdin-like system 1 against three references, 13a tokens
  from sacreBLEU's tokenizer (several references exercise the max-count clipping).

Rows: ``corpus_bleu`` with the default (method0) and with method7 (the
Fraction path), and one ``sentence_bleu`` per segment with method1. Runs of
the two libraries alternate; medians of process CPU time; the ratio
NLTK/bleucli; every bleucli score is checked equal (==) to NLTK's; peak
memory of one call of each (tracemalloc, Python allocations) is printed too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import SHARED, read_lines  # noqa: E402


def corpora() -> dict[str, tuple[list[list[list[str]]], list[list[str]]]]:
    ted = SHARED / "ted-sk-en" / "tok"
    refs = [[line.split()] for line in read_lines(ted / "ref.en")]
    hyps = [line.split() for line in read_lines(ted / "sys" / "sys1.en")]
    from bleucli.tokenizers import get_tokenizer

    tok = get_tokenizer("13a").tokens
    wmt = SHARED / "wmt21-en-de"
    ref_files = sorted(wmt.glob("ref*.de"), key=lambda p: (len(p.name), p.name))
    wrefs = [list(map(tok, row)) for row in zip(*(read_lines(p) for p in ref_files))]
    whyps = [tok(line) for line in read_lines(sorted((wmt / "sys").glob("*.de"))[0])]
    return {"ted-sk-en tok": (refs, hyps), f"wmt21-en-de x{len(ref_files)}": (wrefs, whyps)}


def cpu(function: Callable[[], object]) -> tuple[float, object]:
    start = time.process_time()
    result = function()
    return time.process_time() - start, result


def peak_kib(function: Callable[[], object]) -> float:
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    import nltk
    from nltk.translate import bleu_score as oracle

    from bleucli.family import nltk as ours
    from bleucli.metrics.compiled import implementation

    print(f"NLTK {nltk.__version__}; bleucli.family.nltk as {ours.NLTK_VERSION}; n-gram matcher: {implementation()}")
    print(f"{'corpus':<18} {'call':<26} {'NLTK s':>8} {'bleucli s':>9} {'ratio':>6} {'NLTK KiB':>9} "
          f"{'bleucli KiB':>11}  equal")
    for name, (refs, hyps) in corpora().items():
        cases = {
            "corpus_bleu method0": lambda m, r=refs, h=hyps: m.corpus_bleu(r, h),
            "corpus_bleu method7": lambda m, r=refs, h=hyps: m.corpus_bleu(
                r, h, smoothing_function=m.SmoothingFunction().method7),
            "sentence_bleu x N method1": lambda m, r=refs, h=hyps: [
                m.sentence_bleu(rs, hy, smoothing_function=m.SmoothingFunction().method1) for rs, hy in zip(r, h)],
        }
        for label, call in cases.items():
            theirs_t, ours_t = [], []
            equal = True
            for _ in range(args.runs):
                t, expected = cpu(lambda c=call: c(oracle))
                theirs_t.append(t)
                t, got = cpu(lambda c=call: c(ours))
                ours_t.append(t)
                equal = equal and got == expected
            a, b = statistics.median(theirs_t), statistics.median(ours_t)
            mem_a, mem_b = peak_kib(lambda c=call: c(oracle)), peak_kib(lambda c=call: c(ours))
            print(f"{name:<18} {label:<26} {a:8.3f} {b:9.4f} {a / b:5.1f}x {mem_a:9.0f} {mem_b:11.0f}  {equal}")


if __name__ == "__main__":
    main()
