"""Scoring past one process: one process vs ``-j 2`` vs a 2-worker Dask LocalCluster vs shards + merge.

    python bench/bench_scale.py [--sizes 100000,1000000] [--repeat 1] [--metrics bleu] [--aligned]

Each row is a fresh ``python -m bleucli`` process, watched from here with
psutil: wall time; CPU time (user + system) of the whole process tree, the
``-j`` workers and the cluster's nanny and worker processes included (from the
kernel's accounting of reaped children, so nothing is missed between samples);
and the peak of the **summed** RSS of every process in the tree, sampled every
20 ms (a process that lives less than that can be missed; shared pages are
counted once per process, so the sum is an upper bound). All rows must print
the same score. The shard row runs ``bleucli stats`` on two halves one after
the other (as two machines would in parallel) and ``bleucli merge``; its wall
time is the slower half plus the merge, its CPU the sum, its RSS the largest
tree. The load average is printed before and after: on a shared machine the
wall times move with it. Needs the ``dask`` extra (for the cluster and psutil).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import REPO, build_large_corpus, print_matcher

SAMPLE_SECONDS = 0.02


def _tree_rss(process: object) -> int:
    """Summed RSS (bytes) of a psutil process and all its descendants alive now."""
    import psutil

    assert isinstance(process, psutil.Process)
    total = 0
    try:
        members = [process, *process.children(recursive=True)]
    except psutil.Error:
        return 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            pass
    return total


def _run_once(command: list[str]) -> dict[str, object]:
    import psutil

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO, text=True)
    watched = psutil.Process(child.pid)
    peak = 0
    while child.poll() is None:
        peak = max(peak, _tree_rss(watched))
        time.sleep(SAMPLE_SECONDS)
    out = child.stdout.read() if child.stdout is not None else ""
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if child.returncode != 0:
        sys.exit(f"failed ({child.returncode}): {' '.join(command)}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rss_mb": peak / 2**20, "out": out.split()}


def measure(command: list[str], repeat: int) -> dict[str, object]:
    """Medians of wall and CPU over ``repeat`` runs, the largest peak tree RSS, the first run's output."""
    runs = [_run_once(command) for _ in range(repeat)]
    return {"wall": statistics.median(r["wall"] for r in runs),  # type: ignore[misc]
            "cpu": statistics.median(r["cpu"] for r in runs),  # type: ignore[misc]
            "rss_mb": max(r["rss_mb"] for r in runs),  # type: ignore[type-var]
            "out": runs[0]["out"]}


def _row(name: str, wall: float, cpu: float, rss: float, out: object) -> None:
    print(f"{name:<44} {wall:>8.2f} {cpu:>8.2f} {rss:>14.0f}  {' '.join(out)}", flush=True)  # type: ignore[arg-type]


def aligned_corpus(hyp: Path, ref: Path) -> Path:
    """The same segments as one TSV file (hypothesis, reference), next to the corpus."""
    path = hyp.with_name(hyp.name.replace("hyp.", "aligned.", 1) + ".tsv")
    if not path.exists():
        with open(hyp, encoding="utf-8") as hyps, open(ref, encoding="utf-8") as refs, \
                open(path, "w", encoding="utf-8") as out:
            for h, r in zip(hyps, refs):
                out.write(f"{h.rstrip()}\t{r.rstrip()}\n")
    return path


def bench_size(lines: int, metrics: list[str], repeat: int, aligned: bool) -> set[str]:
    hyp, ref = build_large_corpus(lines)
    base = [sys.executable, "-m", "bleucli", str(ref), "-i", str(hyp), "-m", *metrics, "-b"]
    rows = [("one process", base), ("-j 2", [*base, "-j", "2"]), ("--dask local:2", [*base, "--dask", "local:2"])]
    if aligned:
        tsv = [sys.executable, "-m", "bleucli", "--aligned", str(aligned_corpus(hyp, ref)), "-m", *metrics, "-b"]
        rows += [("--aligned TSV, one process", tsv), ("--aligned TSV, -j 2", [*tsv, "-j", "2"]),
                 ("--aligned TSV, --dask local:2", [*tsv, "--dask", "local:2"])]
    scores = set()
    for name, command in rows:
        result = measure(command, repeat)
        scores.add(" ".join(result["out"]))  # type: ignore[arg-type]
        _row(f"{lines:,} lines, {name}", result["wall"], result["cpu"], result["rss_mb"], result["out"])  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        texts = [hyp.read_text(encoding="utf-8").splitlines(), ref.read_text(encoding="utf-8").splitlines()]
        half = len(texts[0]) // 2
        halves = []
        for k, (start, stop) in enumerate([(0, half), (half, len(texts[0]))]):
            h, r = folder / f"hyp{k}", folder / f"ref{k}"
            h.write_text("".join(x + "\n" for x in texts[0][start:stop]), encoding="utf-8")
            r.write_text("".join(x + "\n" for x in texts[1][start:stop]), encoding="utf-8")
            halves.append((h, r, start))
        timings = []
        for k, (h, r, start) in enumerate(halves):
            command = [sys.executable, "-m", "bleucli", "stats", str(r), "-i", str(h), "-m", *metrics,
                       "--offset", str(start), "-o", str(folder / f"shard{k}.json")]
            timings.append(measure(command, repeat))
        merged = measure([sys.executable, "-m", "bleucli", "merge", str(folder / "shard0.json"),
                          str(folder / "shard1.json"), "-b"], repeat)
        wall = max(t["wall"] for t in timings) + merged["wall"]  # type: ignore[operator]
        cpu = sum(t["cpu"] for t in timings) + merged["cpu"]  # type: ignore[misc]
        rss = max(t["rss_mb"] for t in [*timings, merged])  # type: ignore[type-var]
        scores.add(" ".join(merged["out"]))  # type: ignore[arg-type]
        _row(f"{lines:,} lines, 2 shards + merge", wall, cpu, rss, merged["out"])  # type: ignore[arg-type]
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000000", help="comma-separated corpus sizes in lines")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--metrics", default="bleu")
    parser.add_argument("--aligned", action="store_true",
                        help="also read the corpus as one --aligned TSV file (partitions read by the workers)")
    args = parser.parse_args()
    print_matcher()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(f"{'run':<44} {'wall s':>8} {'CPU s':>8} {'tree RSS MB':>14}  score")
    for size in (int(s) for s in args.sizes.split(",")):
        scores = bench_size(size, args.metrics.split(","), args.repeat, args.aligned)
        if len(scores) != 1:
            sys.exit(f"the runs disagree at {size:,} lines: {scores}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("all runs of each size printed the same score")


if __name__ == "__main__":
    main()
