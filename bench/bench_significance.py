"""Paired significance tests, bleucli vs sacreBLEU 2.6, end to end, side by side in one run.

    python bench/bench_significance.py [--repeat 3] [--tests bs,ar] [--tokenize 13a] [--jobs 1]

On the 16 WMT17 en-de systems (baseline LIUM-NMT.4900; shared data in
``../shared/data`` or ``BLEUCLI_SHARED_DATA``), each tool runs in a fresh
subprocess that reads the files, computes the statistics, runs the test with
its defaults (1000 bootstrap resamples / 10000 AR trials, seed 12345) and
prints JSON:

* sacreBLEU: its CLI, ``python -m sacrebleu REF -i SYS... -pbs|-par -f json``;
* bleucli: its CLI when it has ``--paired-bs`` (``python -m bleucli ...``),
  otherwise this script's ``--run-api`` mode, which does the same steps with
  the library API (read, ``corpus_statistics``, ``paired_test``, render JSON).

Prints the median wall time of each, the speed-up, and checks that both give
the same p-values.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLEUCLI_SHARED_DATA", REPO.parent / "shared" / "data"))
DATA = SHARED / "wmt17-en-de"
BASELINE = "LIUM-NMT.4900.de"


def system_files() -> list[str]:
    names = sorted(p.name for p in (DATA / "sys").iterdir())
    names.remove(BASELINE)
    return [f"sys/{n}" for n in [BASELINE, *names]]


def run_api(test: str, tokenize: str, jobs: int, ref: str, inputs: list[str]) -> None:
    """What the CLI will do for -pbs/-par -f json, through the library API."""
    sys.path.insert(0, str(REPO))
    from bleucli.metrics.bleu import BLEU
    from bleucli.render.significance import render_paired
    from bleucli.significance import paired_system_names, paired_test, system_statistics

    def read(path: str) -> list[str]:
        with open(path, encoding="utf-8", newline="\n") as handle:
            return [line.rstrip() for line in handle]

    metric = BLEU(tokenize=tokenize, references=[read(ref)])
    stats = system_statistics(metric, [read(path) for path in inputs], jobs)
    result = paired_test(test, metric, stats[0], stats[1:], names=paired_system_names(inputs), jobs=jobs)
    print(render_paired([result], "json"))


def bleucli_has_paired_cli() -> bool:
    proc = subprocess.run([sys.executable, "-m", "bleucli", "--help"], cwd=REPO, capture_output=True, text=True)
    return proc.returncode == 0 and "--paired-bs" in proc.stdout


def commands(test: str, tokenize: str, jobs: int, use_cli: bool) -> dict[str, list[str]]:
    inputs = system_files()
    flag = "-pbs" if test == "bs" else "-par"
    sacre = [sys.executable, "-m", "sacrebleu", "ref.de", "-i", *inputs, flag, "-tok", tokenize, "-q", "-f", "json"]
    if jobs != 1:
        sacre += ["-j", str(jobs)]
    if use_cli:
        ours = [sys.executable, "-m", "bleucli", "ref.de", "-i", *inputs, flag, "-tok", tokenize, "-q", "-f", "json",
                "-j", str(jobs)]
    else:
        ours = [sys.executable, str(Path(__file__).resolve()), "--run-api", test, "--tokenize", tokenize,
                "--jobs", str(jobs), "ref.de", *inputs]
    return {"sacreBLEU": sacre, "bleucli": ours}


def timed(command: list[str]) -> tuple[float, str]:
    env = {**os.environ, "SACREBLEU_SEED": "12345", "BLEUCLI_SEED": "12345", "PYTHONPATH": str(REPO)}
    env.pop("SACREBLEU_FORMAT", None)
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=DATA, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, proc.stdout


def p_values(output: str) -> list[float | None]:
    return [entry["BLEU"]["p_value"] for entry in json.loads(output)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tests", default="bs,ar")
    parser.add_argument("--tokenize", default="13a")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--run-api", choices=["bs", "ar"], help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run_api:
        run_api(args.run_api, args.tokenize, args.jobs, args.files[0], args.files[1:])
        return

    use_cli = bleucli_has_paired_cli()
    print(f"data: {DATA} ({len(system_files())} systems), tokenize={args.tokenize}, jobs={args.jobs}, "
          f"repeat={args.repeat}; bleucli via {'its CLI' if use_cli else 'the library API in a subprocess'}")
    print(f"{'test':<6}{'sacreBLEU s':>14}{'bleucli s':>12}{'speed-up':>10}  p-values")
    for test in args.tests.split(","):
        times: dict[str, list[float]] = {"sacreBLEU": [], "bleucli": []}
        outputs: dict[str, str] = {}
        for _ in range(args.repeat):
            for tool, command in commands(test, args.tokenize, args.jobs, use_cli).items():
                seconds, outputs[tool] = timed(command)
                times[tool].append(seconds)
        sacre, ours = (statistics.median(times[t]) for t in ("sacreBLEU", "bleucli"))
        same = p_values(outputs["sacreBLEU"]) == p_values(outputs["bleucli"])
        print(f"{test:<6}{sacre:>14.2f}{ours:>12.2f}{sacre / ours:>9.1f}x  {'identical' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
