"""The command line end to end, bleucli vs sacreBLEU 2.6: time and peak memory, side by side.

    python bench/bench_cli.py [--repeat 3] [--sizes 100000,1000000] [--jobs 2] [--skip-large]

Every run is a fresh process (``python -m bleucli`` / ``python -m sacrebleu``,
scores printed with ``-b``), measured from a small wrapper process: wall
time, CPU time (user + system, all worker processes included) and peak RSS of
the largest process. Medians over ``--repeat`` runs; the scores of both tools
must be equal. bleucli's modules are byte-compiled first, as an installed package's are. Rows:

* one 3,004-line WMT17 en-de system (13a), and all 16 WMT17 systems with ``-i``;
* the large corpus of unique lines (see ``common.build_large_corpus``) at each
  ``--sizes``: bleucli single-process and with ``--jobs``, sacreBLEU (which
  has no parallel scoring). Peak RSS shows whether memory grows with the input.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys

from common import REPO, SHARED, build_large_corpus, print_matcher

_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True, text=True)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_kb": usage.ru_maxrss,
                  "out": done.stdout.split()}))
"""


def measure(command: list[str], repeat: int) -> dict[str, float | list[str]]:
    runs = []
    for _ in range(repeat):
        result = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True,
                                check=True, cwd=REPO)
        runs.append(json.loads(result.stdout))
    return {
        "wall": statistics.median(r["wall"] for r in runs),
        "cpu": statistics.median(r["cpu"] for r in runs),
        "rss_mb": max(r["rss_kb"] for r in runs) / 1024,
        "out": runs[0]["out"],
    }


def _scores(words: list[str]) -> list[str]:
    """The numbers in ``-b`` output; with several systems both print the systems' JSON table, whose
    ``"BLEU"`` values are compared (bleucli's records carry more numbers, after sacreBLEU's keys)."""
    if words[:1] == ["["]:
        return [str(record["BLEU"]) for record in json.loads(" ".join(words))]
    return [w.strip('",') for w in words if re.fullmatch(r'"?\d+\.\d+"?,?', w)]


def bleucli(*args: str) -> list[str]:
    return [sys.executable, "-m", "bleucli", *args, "-b"]


def sacrebleu(*args: str) -> list[str]:
    return [sys.executable, "-m", "sacrebleu", *args, "-b"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    print_matcher()
    # An installed bleucli has its bytecode (pip compiles it), as sacreBLEU has; a checkout run with
    # PYTHONDONTWRITEBYTECODE=1 would compile its modules in every run (~40 ms of start-up).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "bleucli")], check=True,
                   stdout=subprocess.DEVNULL)

    wmt17 = SHARED / "wmt17-en-de"
    ref = str(wmt17 / "ref.de")
    systems = sorted(str(p) for p in (wmt17 / "sys").iterdir())
    rows: list[tuple[str, dict, dict]] = []

    measured: dict[tuple[str, ...], dict] = {}

    def row(name: str, ours: list[str], theirs: list[str], repeat: int) -> None:
        mine = measure(ours, repeat)
        if tuple(theirs) not in measured:  # the -j row reuses sacreBLEU's single-process run
            measured[tuple(theirs)] = measure(theirs, repeat)
        other = measured[tuple(theirs)]
        assert _scores(mine["out"]) == _scores(other["out"]), (name, mine["out"], other["out"])
        rows.append((name, mine, other))
        print(f"  {name}: bleucli cpu {mine['cpu']:.2f} s wall {mine['wall']:.2f} s rss {mine['rss_mb']:.0f} MB; "
              f"sacreBLEU cpu {other['cpu']:.2f} s wall {other['wall']:.2f} s rss {other['rss_mb']:.0f} MB",
              file=sys.stderr, flush=True)

    row("wmt17-en-de, 1 system (3,004 lines)", bleucli(ref, "-i", systems[0]), sacrebleu(ref, "-i", systems[0]),
        args.repeat)
    row("wmt17-en-de, 16 systems (-i)", bleucli(ref, "-i", *systems), sacrebleu(ref, "-i", *systems), args.repeat)
    if not args.skip_large:
        for size in (int(s) for s in args.sizes.split(",")):
            hyp_path, ref_path = build_large_corpus(size)
            repeat = 1 if size >= 500_000 else args.repeat
            theirs = sacrebleu(str(ref_path), "-i", str(hyp_path))
            row(f"{size:,} lines", bleucli(str(ref_path), "-i", str(hyp_path)), theirs, repeat)
            row(f"{size:,} lines, bleucli -j {args.jobs}",
                bleucli(str(ref_path), "-i", str(hyp_path), "-j", str(args.jobs)), theirs, repeat)

    print(f"{'benchmark':<40} {'bleucli cpu/wall s':>19} {'sacreBLEU cpu/wall s':>21} "
          f"{'cpu x':>6} {'wall x':>7} {'RSS MB (ours/theirs)':>21}")
    for name, mine, other in rows:
        print(f"{name:<40} {mine['cpu']:>9.2f}/{mine['wall']:<9.2f} {other['cpu']:>10.2f}/{other['wall']:<10.2f} "
              f"{other['cpu'] / mine['cpu']:>5.2f}x {other['wall'] / mine['wall']:>6.2f}x "
              f"{mine['rss_mb']:>10.0f}/{other['rss_mb']:<10.0f}")
    # Issue 23's figures: lines per second of CPU in one process (start-up included), and what -j gives in
    # wall time, as lines per second and as a speed-up over the one process.
    timings = {name: mine for name, mine, _ in rows}
    for size in ([] if args.skip_large else [int(s) for s in args.sizes.split(",")]):
        one, jobs = timings[f"{size:,} lines"], timings[f"{size:,} lines, bleucli -j {args.jobs}"]
        print(f"{size:,} lines: one process {one['cpu']:.3f} s CPU / {one['wall']:.3f} s wall = "
              f"{size / one['cpu']:,.0f} lines/s of CPU; -j {args.jobs} {jobs['wall']:.3f} s wall = "
              f"{size / jobs['wall']:,.0f} lines/s, {one['wall'] / jobs['wall']:.3f}x the one process's wall time")


if __name__ == "__main__":
    main()
