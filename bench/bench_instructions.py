"""Instructions executed by bleucli and sacreBLEU 2.6 on the same command lines, side by side.

    python bench/bench_instructions.py [--chrf] [--modes] [--pbs] [--before CHECKOUT] [--no-sacrebleu]

CPU time on a shared VM varies by up to 2x between identical runs, which hides
changes of 5-10%. The number of instructions a run executes does not:
``valgrind --tool=cachegrind --cache-sim=no`` counts them, reproducibly to a
fraction of a percent (Python's hash randomisation moves it a little). It is
a proxy, not a time: it ignores cache misses and branch mispredictions, so
ratios of instructions and of CPU time agree only roughly. Each command runs
once per tool in a fresh process (start-up included), about 50x slower than
natively (``--pbs`` with sacreBLEU's column: about ten minutes for sacreBLEU's
run alone). Needs ``valgrind`` on the PATH and sacreBLEU installed.

``--before CHECKOUT`` adds a column for another checkout of bleucli (an older
commit in a ``git worktree``, its extension built in place), run with the same
interpreter through ``PYTHONPATH``: a change's cost or gain in instructions.
Both trees' bytecode is compiled first (``compileall``), and every command runs
from a scratch directory, so that neither tree is found through the current
directory and ``PYTHONDONTWRITEBYTECODE`` does not count compiling sources.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import SHARED, print_matcher


def instructions(command: list[str], tree: Path | None = None) -> int:
    """Instructions executed by ``python command...`` (cachegrind's ``I refs``), with bleucli from ``tree``."""
    # one BLAS thread: numpy's (the resampling tests') idle threads spin for a varying number of
    # instructions, which made -ci/-pbs/-par counts differ by 10x from one run to the next
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={Path(scratch) / 'out'}",
             sys.executable, *command],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True, cwd=scratch, env=env,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chrf", action="store_true", help="also chrF and chrF++ on one system")
    parser.add_argument("--before", type=Path, help="another bleucli checkout to compare with (its own column)")
    parser.add_argument("--no-sacrebleu", action="store_true", help="leave sacreBLEU's column out")
    parser.add_argument("--modes", action="store_true",
                        help="also TER, -sl, -ci, -pbs and -par on the first 1,000 lines (sacreBLEU's flags)")
    parser.add_argument("--pbs", action="store_true",
                        help="also bench_metrics.py's -pbs: 8 systems of WMT22 en-de x BLEU and chrF (1,000 resamples)")
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
    if args.pbs:
        wmt22 = SHARED / "wmt22-en-de"
        eight = sorted(str(p) for p in (wmt22 / "sys").iterdir())[:8]
        rows.append(("wmt22-en-de, 8 systems -pbs, BLEU+chrF", [str(wmt22 / "ref.de"), "-i", *eight, "-m", "bleu",
                                                                "chrf", "-pbs", "-f", "text"]))
    if args.modes:
        scratch = Path(tempfile.mkdtemp(prefix="bleucli-bench-"))
        short = []
        for path in (ref, systems[0], systems[1]):
            with open(path, encoding="utf-8") as handle:
                lines = [next(handle) for _ in range(1000)]
            target = scratch / f"{len(short)}-{Path(path).name}"
            target.write_text("".join(lines), encoding="utf-8")
            short.append(str(target))
        ref1k, sys1k, other1k = short
        rows += [("1,000 lines, TER", [ref1k, "-i", sys1k, "-b", "-m", "ter"]),
                 ("1,000 lines, -sl", [ref1k, "-i", sys1k, "-sl"]),
                 ("1,000 lines, -ci (100)", [ref1k, "-i", sys1k, "-ci", "--confidence-n", "100"]),
                 ("1,000 lines, 2 systems -pbs (100)", [ref1k, "-i", sys1k, other1k, "-pbs", "-pbsn", "100"]),
                 ("1,000 lines, 2 systems -par (100)", [ref1k, "-i", sys1k, other1k, "-par", "-parn", "100"])]
    here = Path(__file__).resolve().parent.parent
    for tree in (here, args.before):
        if tree is not None:
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "bleucli")], check=True)
    header = f"{'command':<40}"
    if args.before:
        header += f" {'before':>16} {'bleucli':>16} {'change':>7}"
    else:
        header += f" {'bleucli':>16}"
    if not args.no_sacrebleu:
        header += f" {'sacreBLEU':>16} {'ratio':>7}"
    print(header)
    for name, arguments in rows:
        ours = instructions(["-m", "bleucli", *arguments], here)
        line = f"{name:<40}"
        if args.before:
            before = instructions(["-m", "bleucli", *arguments], args.before.resolve())
            line += f" {before:>16,} {ours:>16,} {100 * (ours - before) / before:>+6.1f}%"
        else:
            line += f" {ours:>16,}"
        if not args.no_sacrebleu:
            theirs = instructions(["-m", "sacrebleu", *arguments])
            line += f" {theirs:>16,} {theirs / ours:>6.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
