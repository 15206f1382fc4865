"""The CLI of another bleucli checkout ("before") against this one ("after"), on the large corpus.

    python bench/bench_before_after.py BEFORE_DIR [--repeat 3] [--lines 200000] [-- ARGS...]

``BEFORE_DIR`` holds an older bleucli (``git archive <commit> | tar -x -C DIR``, its
extension built in place: ``cc -shared -fPIC -O3 -I<python include> bleucli/_speedups.c -o
bleucli/_speedups<EXT_SUFFIX>``). Each configuration (one per ``--config``, e.g. ``"-tok
intl"``, ``"-m chrf"``, ``"PURE"`` for ``BLEUCLI_PURE_PYTHON=1``, ``"-j 2"``) runs both
versions alternately in fresh processes (the older one from its own directory, so that the
current directory does not shadow it) and prints CPU and wall-time medians and peak RSS; the
outputs must be equal. With both ``""`` and ``"-j 2"`` it also prints ``-j 2``'s speed-up over
one process in wall time, for each version.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from common import REPO, build_large_corpus

_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True, text=True)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "rss": usage.ru_maxrss / 1024,
                  "out": done.stdout.strip()}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--config", action="append", default=None,
                        help='extra CLI arguments of one configuration ("" for 13a; "PURE ..." for pure Python)')
    args = parser.parse_args()
    hyp_path, ref_path = build_large_corpus(args.lines)
    wall_medians: dict[str, dict[str, float]] = {}
    for config in args.config or [""]:
        extra = config.split()
        environment = dict(os.environ)
        if extra[:1] == ["PURE"]:
            environment["BLEUCLI_PURE_PYTHON"] = "1"
            extra = extra[1:]
        runs: dict[str, list[dict]] = {"before": [], "after": []}
        for _ in range(args.repeat):
            for which in runs:
                env = dict(environment, PYTHONPATH=args.before) if which == "before" else environment
                command = [sys.executable, "-m", "bleucli", str(ref_path), "-i", str(hyp_path), "-b", *extra]
                done = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True,
                                      env=env, check=True, cwd=args.before if which == "before" else REPO)
                runs[which].append(json.loads(done.stdout))
        assert runs["before"][0]["out"] == runs["after"][0]["out"], (config, runs)
        before, after = (statistics.median(r["cpu"] for r in runs[w]) for w in ("before", "after"))
        walls = {w: statistics.median(r["wall"] for r in runs[w]) for w in runs}
        rss = "/".join(f"{max(r['rss'] for r in runs[w]):.0f}" for w in ("before", "after"))
        print(f"{config or '13a':<12} before {before:6.2f} s  after {after:6.2f} s  {before / after:5.2f}x  "
              f"wall {walls['before']:.3f} -> {walls['after']:.3f} s  peak RSS {rss} MB  ({runs['after'][0]['out']})",
              flush=True)
        wall_medians[config] = walls
    if "" in wall_medians and "-j 2" in wall_medians:  # issue 23: -j 2's speed-up over one process, wall time
        print("-j 2 speed-up in wall time: " + ", ".join(
            f"{w} {wall_medians[''][w] / wall_medians['-j 2'][w]:.3f}x" for w in ("before", "after")))


if __name__ == "__main__":
    main()
