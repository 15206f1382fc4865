"""ja-mecab / ko-mecab corpus BLEU: bleucli and sacreBLEU side by side on the shared sets.

Run: ``python bench/bench_mecab.py [--repeat 3]`` (needs ``.[oracle,ja,ko]``).
Library rows: every system of the set scored with one metric object (the
references tokenized once), median CPU seconds of this process. CLI rows:
wall-clock medians of ``bleucli REF -i SYS... -l en-xx`` with ``-j 1`` and
``-j 2``, and ``sacrebleu`` on the same files, with each command's peak RSS
(``ru_maxrss`` of the child).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import SHARED, median_time, print_table, read_lines  # noqa: E402

SETS = {"wmt22-en-ja": ("ja", "ja-mecab"), "wmt21-en-ja": ("ja", "ja-mecab"), "wmt24pp-en-ko": ("ko", "ko-mecab")}


def _hypothesis_files(folder: Path) -> list[Path]:
    systems = sorted((folder / "sys").glob("*")) if (folder / "sys").is_dir() else []
    return systems or [folder / f"ref2.{folder.name.rsplit('-', 1)[1]}"]


def _command_time(command: list[str], repeat: int) -> tuple[float, int]:
    times, peak = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return statistics.median(times), peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from sacrebleu.metrics import BLEU as SacreBLEU

    from bleucli import BLEU

    rows = []
    for name, (lang, tok) in SETS.items():
        folder = SHARED / name
        ref_path = folder / f"ref.{lang}"
        refs = [read_lines(ref_path)]
        hyps = [read_lines(p) for p in _hypothesis_files(folder)]

        def ours(refs: list[list[str]] = refs, hyps: list[list[str]] = hyps, tok: str = tok) -> None:
            metric = BLEU(tokenize=tok, force=True, references=refs)
            for h in hyps:
                metric.corpus_score(h)

        def theirs(refs: list[list[str]] = refs, hyps: list[list[str]] = hyps, tok: str = tok) -> None:
            metric = SacreBLEU(tokenize=tok, force=True, references=refs)
            for h in hyps:
                metric.corpus_score(h, None)

        label = f"{name} {tok} library, {len(hyps)} systems"
        rows.append((label, median_time(ours, args.repeat), median_time(theirs, args.repeat)))
    print_table(rows)
    print()
    print(f"{'CLI (wall clock, median)':<44} {'seconds':>10} {'peak RSS MiB':>13}")
    for name, (lang, _tok) in SETS.items():
        folder = SHARED / name
        files = [str(p) for p in _hypothesis_files(folder)]
        ref = str(folder / f"ref.{lang}")
        env_python = sys.executable
        for label, command in (
            ("bleucli -j 1", [env_python, "-m", "bleucli", ref, "-i", *files, "-l", f"en-{lang}", "-j", "1"]),
            ("bleucli -j 2", [env_python, "-m", "bleucli", ref, "-i", *files, "-l", f"en-{lang}", "-j", "2"]),
            ("sacrebleu", [env_python, "-m", "sacrebleu", ref, "-i", *files, "-l", f"en-{lang}"]),
        ):
            seconds, _ = _command_time(command, args.repeat)
            rss = _peak_rss(command)
            print(f"{name + ' ' + label:<44} {seconds:>10.3f} {rss / 1024:>13.1f}", flush=True)


def _peak_rss(command: list[str]) -> int:
    """Peak RSS (KiB) of one run of ``command``, measured in a fresh child so earlier runs do not count."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL, check=True); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True,
                         env=dict(os.environ))
    return int(out.stdout.strip())


if __name__ == "__main__":
    main()
