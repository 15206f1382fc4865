"""Scoring past one process: one process vs ``-j 2`` vs a 2-worker Dask LocalCluster vs shards + merge.

    python bench/bench_scale.py [--lines 1000000] [--repeat 3] [--metrics bleu]

Each row is a fresh ``python -m bleucli`` process measured from a small wrapper
(``bench_cli.measure``): wall time, CPU time of the whole process tree (the
``-j`` workers and the cluster's worker processes included) and the peak RSS
of its largest process. All rows must print the same score. The shard row
runs ``bleucli stats`` on two halves one after the other (as two machines
would in parallel) and ``bleucli merge``; its wall time is the slower half
plus the merge. Needs the ``dask`` extra.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bench_cli import measure
from common import build_large_corpus, print_matcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--metrics", default="bleu")
    args = parser.parse_args()
    print_matcher()
    hyp, ref = build_large_corpus(args.lines)
    base = [sys.executable, "-m", "bleucli", str(ref), "-i", str(hyp), "-m", *args.metrics.split(","), "-b"]
    rows = [("one process", base), ("-j 2", [*base, "-j", "2"]), ("--dask local:2", [*base, "--dask", "local:2"])]
    print(f"{'run':<28} {'wall s':>8} {'CPU s':>8} {'peak RSS MB':>12}  score")
    scores = set()
    for name, command in rows:
        result = measure(command, args.repeat)
        scores.add(" ".join(result["out"]))  # type: ignore[arg-type]
        print(f"{name:<28} {result['wall']:>8.2f} {result['cpu']:>8.2f} {result['rss_mb']:>12.0f}  {result['out']}",
              flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        lines = [hyp.read_text(encoding="utf-8").splitlines(), ref.read_text(encoding="utf-8").splitlines()]
        half = len(lines[0]) // 2
        halves = []
        for k, (start, stop) in enumerate([(0, half), (half, len(lines[0]))]):
            h, r = folder / f"hyp{k}", folder / f"ref{k}"
            h.write_text("".join(x + "\n" for x in lines[0][start:stop]), encoding="utf-8")
            r.write_text("".join(x + "\n" for x in lines[1][start:stop]), encoding="utf-8")
            halves.append((h, r, start))
        timings = []
        for k, (h, r, start) in enumerate(halves):
            command = [sys.executable, "-m", "bleucli", "stats", str(r), "-i", str(h), "-m", *args.metrics.split(","),
                       "--offset", str(start), "-o", str(folder / f"shard{k}.json")]
            timings.append(measure(command, args.repeat))
        merged = measure([sys.executable, "-m", "bleucli", "merge", str(folder / "shard0.json"),
                          str(folder / "shard1.json"), "-b"], args.repeat)
        wall = max(t["wall"] for t in timings) + merged["wall"]  # type: ignore[operator]
        cpu = sum(t["cpu"] for t in timings) + merged["cpu"]  # type: ignore[misc]
        rss = max(t["rss_mb"] for t in [*timings, merged])  # type: ignore[type-var]
        scores.add(" ".join(merged["out"]))  # type: ignore[arg-type]
        print(f"{'2 shards + merge':<28} {wall:>8.2f} {cpu:>8.2f} {rss:>12.0f}  {merged['out']}")
    if len(scores) != 1:
        sys.exit(f"the runs disagree: {scores}")
    print("all runs printed the same score")


if __name__ == "__main__":
    main()
