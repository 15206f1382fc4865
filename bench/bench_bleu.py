"""Corpus BLEU speed, bleucli vs sacreBLEU 2.6, side by side in one run.

    python bench/bench_bleu.py [--repeat 3] [--lines 200000] [--tokenizers 13a,intl,char,none]
        [--sentences 10000] [--sentence-tokenize 13a]

For every shared WMT set: all systems scored against the first reference with
reference statistics computed once (both tools cache them), per tokenizer.
Then a large corpus of unique lines (built from the shared data) scored in one
call. Prints median CPU seconds and the speed-up; also checks the scores agree.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial

from common import REPO, build_large_corpus, data_sets, median_time, print_matcher, print_table, read_lines, references

sys.path.insert(0, str(REPO))

from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

from bleucli import BLEU  # noqa: E402


def corpus_score(cls, tokenize: str, hyps: list[str], refs: list[list[str]]) -> object:
    return cls(tokenize=tokenize, force=True).corpus_score(hyps, refs)


def score_all(cls, tokenize: str, refs: list[list[str]], systems: list[list[str]]) -> list[float]:
    metric = cls(tokenize=tokenize, force=True, references=refs)
    return [metric.corpus_score(hyps, None).score if cls is SacreBLEU else metric.corpus_score(hyps).score
            for hyps in systems]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--tokenizers", default="13a,intl,char,none")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: every shared set)")
    parser.add_argument("--sentences", type=int, default=10_000,
                        help="pairs for the sentence-level rows (0: skip them)")
    parser.add_argument("--sentence-tokenize", default="13a", help="the tokenizer of the sentence-level rows")
    args = parser.parse_args()
    print_matcher()
    rows = []
    for tokenize in args.tokenizers.split(","):
        wanted = set(filter(None, args.sets.split(",")))
        for folder in [f for f in data_sets() if not wanted or f.name in wanted]:
            refs = [read_lines(references(folder)[0])]
            systems = [read_lines(p) for p in sorted((folder / "sys").iterdir())]
            ours = score_all(BLEU, tokenize, refs, systems)
            theirs = score_all(SacreBLEU, tokenize, refs, systems)
            assert ours == theirs, (folder.name, tokenize)
            rows.append((
                f"{folder.name} ({len(systems)} sys, {tokenize})",
                median_time(partial(score_all, BLEU, tokenize, refs, systems), args.repeat),
                median_time(partial(score_all, SacreBLEU, tokenize, refs, systems), args.repeat),
            ))
            _progress(rows[-1])
        hyp_path, ref_path = build_large_corpus(args.lines)
        hyps, refs = read_lines(hyp_path), [read_lines(ref_path)]
        assert BLEU(tokenize=tokenize, force=True).corpus_score(hyps, refs).score == \
            SacreBLEU(tokenize=tokenize, force=True).corpus_score(hyps, refs).score
        rows.append((
            f"{args.lines:,}-line corpus ({tokenize})",
            median_time(partial(corpus_score, BLEU, tokenize, hyps, refs), args.repeat),
            median_time(partial(corpus_score, SacreBLEU, tokenize, hyps, refs), args.repeat),
        ))
        _progress(rows[-1])
    if args.sentences:
        rows.extend(sentence_rows(args.sentences, args.repeat, args.sentence_tokenize))
    print_table(rows)


def sentence_rows(count: int, repeat: int, tokenize: str = "13a") -> list[tuple[str, float, float]]:
    """Sentence-level BLEU (effective order) on ``count`` pairs of the large corpus, one call per pair.

    Also the batch API: every hypothesis of a 100-line window scored against one
    reference set, as MBR decoding does (sacreBLEU can only call ``sentence_score``).
    """
    import warnings

    warnings.simplefilter("ignore")
    hyp_path, ref_path = build_large_corpus(max(count, 30_000))
    hyps, refs = read_lines(hyp_path)[:count], read_lines(ref_path)[:count]
    ours, theirs = BLEU(effective_order=True, tokenize=tokenize), SacreBLEU(effective_order=True, tokenize=tokenize)
    assert [ours.sentence_score(h, [r]).score for h, r in zip(hyps, refs)] == \
        [theirs.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
    name = "" if tokenize == "13a" else f" ({tokenize})"
    rows = [(
        f"sentence_score x {count:,}{name}",
        median_time(lambda: [ours.sentence_score(h, [r]) for h, r in zip(hyps, refs)], repeat),
        median_time(lambda: [theirs.sentence_score(h, [r]) for h, r in zip(hyps, refs)], repeat),
    )]
    _progress(rows[-1])
    window = hyps[:100]
    batch_refs = refs[: count // 100]
    assert [s.score for s in ours.sentence_scores(window, [batch_refs[0]])] == \
        [theirs.sentence_score(h, [batch_refs[0]]).score for h in window]
    rows.append((
        f"{len(batch_refs)} x 100 hyps vs 1 ref (batch API){name}",
        median_time(lambda: [ours.sentence_scores(window, [r]) for r in batch_refs], repeat),
        median_time(lambda: [[theirs.sentence_score(h, [r]) for h in window] for r in batch_refs], repeat),
    ))
    _progress(rows[-1])
    return rows


def _progress(row: tuple[str, float, float]) -> None:
    print(f"  {row[0]}: bleucli {row[1]:.3f} s, sacreBLEU {row[2]:.3f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
