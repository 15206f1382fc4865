"""Instructions executed by bleucli and sacreBLEU 2.6 on the same command lines, side by side.

    python bench/bench_instructions.py [--chrf]

CPU time on a shared VM varies by up to 2x between identical runs, which hides
changes of 5-10%. The number of instructions a run executes does not:
``valgrind --tool=cachegrind --cache-sim=no`` counts them, reproducibly to a
fraction of a percent (Python's hash randomisation moves it a little). It is
a proxy, not a time: it ignores cache misses and branch mispredictions, so
ratios of instructions and of CPU time agree only roughly. Each command runs
once per tool in a fresh process (start-up included), about 50x slower than
natively. Needs ``valgrind`` on the PATH and sacreBLEU installed.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import SHARED, print_matcher


def instructions(command: list[str]) -> int:
    """Instructions executed by ``python command...`` (cachegrind's ``I refs``)."""
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={Path(scratch) / 'out'}",
             sys.executable, *command],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chrf", action="store_true", help="also chrF and chrF++ on one system")
    args = parser.parse_args()
    print_matcher()
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions.py needs valgrind on the PATH")
    folder = SHARED / "wmt17-en-de"
    ref = str(folder / "ref.de")
    systems = sorted(str(p) for p in (folder / "sys").iterdir())
    rows = [
        ("wmt17-en-de, 1 system (13a)", [ref, "-i", systems[0], "-b"]),
        ("wmt17-en-de, 16 systems (-i)", [ref, "-i", *systems, "-b"]),
        ("start-up (--version)", ["--version"]),
    ]
    if args.chrf:
        rows += [("wmt17-en-de, 1 system, chrF2", [ref, "-i", systems[0], "-b", "-m", "chrf"]),
                 ("wmt17-en-de, 1 system, chrF2++", [ref, "-i", systems[0], "-b", "-m", "chrf", "-cw", "2"])]
    print(f"{'command':<40} {'bleucli':>16} {'sacreBLEU':>16} {'ratio':>7}")
    for name, arguments in rows:
        ours = instructions(["-m", "bleucli", *arguments])
        theirs = instructions(["-m", "sacrebleu", *arguments])
        print(f"{name:<40} {ours:>16,} {theirs:>16,} {theirs / ours:>6.2f}x", flush=True)


if __name__ == "__main__":
    main()
