"""BLEU's variants side by side with the loops people run today, in one run.

* Self-BLEU on N sentences (default 10,000): bleucli's ``texygen_self_bleu`` on
  every line vs the Texygen-style NLTK loop (``sentence_bleu(all others, sentence,
  uniform weights, method1)`` for each sentence). The loop is O(N²); it is
  timed on ``--sample`` sentences (each against all N-1 others, the loop's real
  per-sentence cost) and extrapolated linearly to N, and those sentences'
  scores are checked equal to bleucli's. Also bleucli's sacreBLEU-style
  Self-BLEU vs sacreBLEU's ``sentence_score`` loop (the same extrapolation), and
  bleucli alone on ``--large`` sentences (default 100,000).
* Pairwise: an H×H matrix (default 100×100) of sentence BLEU and chrF,
  ``metric.pairwise_scores`` vs looping over sacreBLEU's ``sentence_score``,
  every cell checked equal.
* fast-bleu's ``SelfBLEU`` (C++, if installed) on the same N sentences.

CPU-time medians of ``--repeat`` runs; peak Python memory (tracemalloc) of one
extra run each. Sentences are the system outputs of the shared data, in order.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import data_sets, median_time, print_matcher, read_lines  # noqa: E402


def sentences(count: int) -> list[str]:
    pool: list[str] = []
    for folder in data_sets():
        for system in sorted((folder / "sys").iterdir()):
            pool.extend(line for line in read_lines(system))
    if count > len(pool):
        pool = pool * (count // len(pool) + 1)
    return pool[:count]


def peak_mib(function: Callable[[], object]) -> float:
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def timed_per_item(function: Callable[[int], object], items: list[int]) -> float:
    """CPU seconds per item (median over the items)."""
    times = []
    for item in items:
        start = time.process_time()
        function(item)
        times.append(time.process_time() - start)
    return statistics.median(times)


def bench_self_bleu(count: int, sample: int, repeat: int, order: int) -> list[str]:
    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    from bleucli.family.self_bleu import self_bleu, texygen_self_bleu
    from bleucli.metrics.bleu import BLEU

    text = sentences(count)
    tokens = [line.split() for line in text]
    weights = tuple(1.0 / order for _ in range(order))
    method1 = SmoothingFunction().method1
    ours = texygen_self_bleu(text, max_order=order, sample_size=None)
    picks = list(range(0, count, count // sample))[:sample]

    def nltk_one(i: int) -> float:
        return sentence_bleu(tokens[:i] + tokens[i + 1:], tokens[i], weights, smoothing_function=method1)

    for i in picks:
        assert nltk_one(i) == ours.sentence_scores[i], i
    bleucli_s = median_time(lambda: texygen_self_bleu(text, max_order=order, sample_size=None), repeat)
    nltk_s = timed_per_item(nltk_one, picks) * count
    rows = [f"| Self-BLEU Texygen/NLTK, {count:,} sentences, order {order} | {bleucli_s:.2f} | "
            f"{nltk_s:,.0f} (extrapolated from {len(picks)} sentences) | {nltk_s / bleucli_s:,.0f}x | "
            f"{peak_mib(lambda: texygen_self_bleu(text, max_order=order, sample_size=None)):.0f} |"]

    metric = BLEU(effective_order=True, force=True)
    oracle = sacrebleu.BLEU(effective_order=True)
    ours_sb = self_bleu(text, metric)

    def sacrebleu_one(i: int) -> float:
        return oracle.sentence_score(text[i], text[:i] + text[i + 1:]).score

    few = picks[: max(2, len(picks) // 4)]
    for i in few:
        assert sacrebleu_one(i) == ours_sb.sentence_scores[i], i
    bleucli_s = median_time(lambda: self_bleu(text, metric), repeat)
    sacre_s = timed_per_item(sacrebleu_one, few) * count
    rows.append(f"| Self-BLEU sacreBLEU-style, {count:,} sentences | {bleucli_s:.2f} | {sacre_s:,.0f} "
                f"(extrapolated from {len(few)} sentences) | {sacre_s / bleucli_s:,.0f}x | "
                f"{peak_mib(lambda: self_bleu(text, metric)):.0f} |")
    return rows


def bench_fast_bleu(count: int, order: int) -> list[str]:
    """fast-bleu's SelfBLEU (C++, threads) on the same sentences, if it is installed."""
    try:
        from fast_bleu import SelfBLEU
    except ImportError:
        return ["| fast-bleu: not installed | - | - | - | - |"]
    import resource

    from bleucli.family.self_bleu import texygen_self_bleu

    text = sentences(count)
    ours = texygen_self_bleu(text, max_order=order, sample_size=None)
    bleucli_s = median_time(lambda: texygen_self_bleu(text, max_order=order, sample_size=None), 3)
    weights = {"w": tuple(1.0 / order for _ in range(order))}
    tokens = [line.split() for line in text]
    before = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter()
    theirs = SelfBLEU(tokens, weights).get_score()["w"]
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    equal = sum(a == b for a, b in zip(ours.sentence_scores, theirs))
    worst = max(abs(a - b) for a, b in zip(ours.sentence_scores, theirs))
    return [f"| fast-bleu SelfBLEU (C++), {count:,} sentences, order {order} | {bleucli_s:.2f} | {cpu:.2f} CPU, "
            f"{wall:.2f} wall | {cpu / bleucli_s:.1f}x | - | (fast-bleu: {equal:,}/{count:,} sentence scores "
            f"bit-equal to Texygen/NLTK's, max difference {worst:.1e})"]


def bench_large(count: int, order: int) -> list[str]:
    from bleucli.family.self_bleu import self_bleu, texygen_self_bleu
    from bleucli.metrics.bleu import BLEU

    text = sentences(count)
    rows = []
    start = time.process_time()
    texygen_self_bleu(text, max_order=order, sample_size=None)
    rows.append(f"| Self-BLEU Texygen, {count:,} sentences, order {order} | {time.process_time() - start:.2f} "
                f"| - | - | - |")
    start = time.process_time()
    self_bleu(text, BLEU(effective_order=True, force=True))
    rows.append(f"| Self-BLEU sacreBLEU-style, {count:,} sentences | {time.process_time() - start:.2f} | - | - | - |")
    return rows


def bench_pairwise(size: int, repeat: int) -> list[str]:
    import sacrebleu

    from bleucli.metrics.bleu import BLEU
    from bleucli.metrics.chrf import CHRF

    text = sentences(size)
    rows = []
    for name, ours, oracle in (("BLEU", BLEU(effective_order=True), sacrebleu.BLEU(effective_order=True)),
                               ("chrF2", CHRF(), sacrebleu.CHRF())):
        def loop(oracle: object = oracle) -> list[list[float]]:
            return [[oracle.sentence_score(h, [r]).score for r in text] for h in text]  # type: ignore[attr-defined]

        assert ours.pairwise_scores(text, text) == loop()
        bleucli_s = median_time(lambda ours=ours: ours.pairwise_scores(text, text), repeat)
        sacre_s = median_time(loop, repeat)
        rows.append(f"| pairwise {name}, {size}x{size} | {bleucli_s:.3f} | {sacre_s:.3f} | {sacre_s / bleucli_s:.1f}x "
                    f"| {peak_mib(lambda ours=ours: ours.pairwise_scores(text, text)):.1f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sentences", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=20, help="sentences the O(N^2) loops are timed on")
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--order", type=int, default=4)
    parser.add_argument("--pairwise", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--parts", default="pairwise,self,fast-bleu,large",
                        help="comma-separated: pairwise, self, fast-bleu, large")
    args = parser.parse_args()
    parts = args.parts.split(",")
    print_matcher()
    print("| benchmark | bleucli CPU s | other CPU s | speed-up | bleucli peak MiB |")
    print("|---|---|---|---|---|")
    runs = {
        "pairwise": lambda: bench_pairwise(args.pairwise, args.repeat),
        "self": lambda: bench_self_bleu(args.sentences, args.sample, args.repeat, args.order),
        "fast-bleu": lambda: bench_fast_bleu(args.sentences, args.order),
        "large": lambda: bench_large(args.large, args.order),
    }
    for part in parts:
        for row in runs[part]():
            print(row, flush=True)


if __name__ == "__main__":
    main()
