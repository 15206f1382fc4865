"""How long TER's segment limit could be at the worst-case time of the pure-Python search.

    python bench/bench_ter_limit.py [--limit 2000] [--sizes 2000,4000,8000,16000] [--vocabularies 2,10,100,1000]

The default ``--ter-max-words`` (2,000) was set from the pure-Python search's
worst case: random words at the limit. This script measures that worst case
(one hypothesis/reference pair of ``--limit`` random words for each vocabulary
size, hypothesis and reference drawn independently, CPU time of
``shift_edit_distance``), then times the compiled ``ter_edits`` on the same kind
of pairs at each of ``--sizes`` and prints the longest size whose worst case
stays within the pure path's. Both results are checked equal at ``--limit``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def pair(size: int, vocabulary: int, seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed * 1_000_003 + size * 31 + vocabulary)
    return ([f"w{rng.randrange(vocabulary)}" for _ in range(size)],
            [f"w{rng.randrange(vocabulary)}" for _ in range(size)])


def cpu(fn, *args) -> tuple[float, object]:
    start = time.process_time()
    result = fn(*args)
    return time.process_time() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=2000)
    parser.add_argument("--sizes", default="2000,4000,8000,16000,32000")
    parser.add_argument("--vocabularies", default="2,10,100,1000")
    args = parser.parse_args()
    from bleucli.metrics.compiled import compiled_matcher
    from bleucli.metrics.ter_edit import shift_edit_distance

    module = compiled_matcher()
    if module is None or not hasattr(module, "ter_edits"):
        raise SystemExit("the C extension is not built (or BLEUCLI_PURE_PYTHON is set)")
    vocabularies = [int(v) for v in args.vocabularies.split(",")]
    worst_pure = 0.0
    for vocabulary in vocabularies:
        hyp, ref = pair(args.limit, vocabulary, 0)
        t_pure, d_pure = cpu(shift_edit_distance, hyp, ref)
        t_c, d_c = cpu(module.ter_edits, hyp, [ref])
        assert d_pure == d_c, (vocabulary, d_pure, d_c)
        worst_pure = max(worst_pure, t_pure)
        print(f"{args.limit:>6} words, vocabulary {vocabulary:>5}: pure {t_pure:8.3f} s, C {t_c:8.4f} s "
              f"(x{t_pure / max(t_c, 1e-9):,.0f}), edits {d_c}", flush=True)
    print(f"pure-Python worst case at {args.limit:,} words: {worst_pure:.3f} s CPU", flush=True)
    best = 0
    for size in (int(s) for s in args.sizes.split(",")):
        worst = 0.0
        for vocabulary in vocabularies:
            hyp, ref = pair(size, vocabulary, 0)
            t_c, _ = cpu(module.ter_edits, hyp, [ref])
            worst = max(worst, t_c)
            print(f"{size:>6} words, vocabulary {vocabulary:>5}: C {t_c:8.3f} s", flush=True)
        print(f"C worst case at {size:,} words: {worst:.3f} s CPU", flush=True)
        if worst <= worst_pure:
            best = size
    print(f"longest size measured within the pure path's worst case ({worst_pure:.2f} s): {best:,} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
