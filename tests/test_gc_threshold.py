"""The command line collects cycles less often than CPython's default; the library leaves the collector alone."""

from __future__ import annotations

import subprocess
import sys

from bleucli.cli import COLLECTION_THRESHOLD

PROBE = ("import atexit, gc, sys\n"
         "atexit.register(lambda: sys.stderr.write(f'threshold {gc.get_threshold()[0]}\\n'))\n")


def test_the_command_line_raises_the_young_threshold() -> None:
    code = PROBE + "from bleucli.cli import main\nmain(['--version'])\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"threshold {COLLECTION_THRESHOLD}\n" in done.stderr


def test_the_library_leaves_the_collector_alone() -> None:
    code = PROBE + ("import bleucli\n"
                    "print(bleucli.BLEU().corpus_score(['a b c d'], [['a b c d']]).score)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) > 99.9
    assert "threshold 700\n" in done.stderr
