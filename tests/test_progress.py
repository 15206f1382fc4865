"""Progress bars of long jobs: click's bar on stderr when it is a terminal, nothing otherwise.

The commands run as real processes with stderr on a pseudo-terminal (what a
user's shell gives them) or on a pipe (a CI log). ``BLEUCLI_PROGRESS_DELAY=0``
draws the bar at once, so a test need not run for the default two seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from datasets import DATA, read
from terminal import HIDE, REPO, SHOW, bleucli_with_stderr_on_a_terminal


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def environment(delay: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "BLEUCLI_PROGRESS_DELAY": delay}
    env.pop("BLEUCLI_FORMAT", None)
    return env


@pytest.fixture
def compare_args(tmp_path: Path) -> list[str]:
    """``compare`` on 2,037 segments of wmt22-en-de (two systems), writing a page."""
    folder = DATA / "wmt22-en-de"
    ref = write(tmp_path / "ref.de", read(folder / "ref.de.gz"))
    systems = [write(tmp_path / f"{name}.de", read(folder / "sys" / f"{name}.de.gz"))
               for name in ("Online-A", "Online-B")]
    return ["compare", ref, "-i", *systems, "-pbsn", "100", "--html", str(tmp_path / "report.html"), "-q"]


@pytest.mark.slow  # a compare of 2,037 segments on a pty
def test_compare_draws_clicks_bar_on_a_terminal(compare_args, tmp_path):
    code, out, tty = bleucli_with_stderr_on_a_terminal(compare_args, environment("0"), tmp_path)
    assert code == 0, tty
    assert b"Comparing" in tty and b"100%" in tty, tty
    assert tty.rindex(SHOW) > tty.rindex(HIDE), tty  # the cursor is shown again
    assert out == b""


@pytest.mark.slow  # a compare of 2,037 segments
def test_compare_draws_nothing_when_stderr_is_not_a_terminal(compare_args, tmp_path):
    done = subprocess.run([sys.executable, "-m", "bleucli", *compare_args], capture_output=True,
                          env=environment("0"), cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b"" and done.stdout == b""
    assert (tmp_path / "report.html").read_text(encoding="utf-8").endswith("</html>\n")


def test_a_short_job_draws_nothing_on_a_terminal(tmp_path):
    """Under the default delay (two seconds) nothing is drawn: a quick compare leaves the terminal alone."""
    folder = DATA / "wmt22-en-de"
    ref = write(tmp_path / "ref.de", read(folder / "ref.de.gz")[:50])
    systems = [write(tmp_path / f"{name}.de", read(folder / "sys" / f"{name}.de.gz")[:50])
               for name in ("Online-A", "Online-B")]
    env = environment("60")
    code, _, tty = bleucli_with_stderr_on_a_terminal(["compare", ref, "-i", *systems, "-pbsn", "100", "--json",
                                                  str(tmp_path / "r.json"), "-q"], env, tmp_path)
    assert code == 0 and tty == b"", tty


def test_the_helper_is_silent_off_a_terminal_and_finishes_its_bar(capsys):
    from bleucli.clikit.progress import Progress, progress

    with progress("Working", 10) as advance:  # pytest's stderr is not a terminal
        for _ in range(10):
            advance(1)
    assert capsys.readouterr().err == ""

    class Terminal:
        text = ""

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    bar = Progress("Working", 4, stream=terminal)
    bar._delay = 0.0
    for _ in range(4):
        bar.advance(1)
    bar.close()
    assert "Working" in terminal.text and "100%" in terminal.text


@pytest.mark.slow  # Self-BLEU of 2,037 lines on a pty, and off it
def test_self_bleu_draws_a_bar_on_a_terminal_only_and_prints_the_same(tmp_path):
    lines = write(tmp_path / "out.de", read(DATA / "wmt22-en-de" / "sys" / "Online-A.de.gz"))
    code, out, tty = bleucli_with_stderr_on_a_terminal(["self-bleu", lines], environment("0"), tmp_path)
    assert code == 0, tty
    assert b"Self-BLEU" in tty and b"100%" in tty and tty.rindex(SHOW) > tty.rindex(HIDE), tty
    plain = subprocess.run([sys.executable, "-m", "bleucli", "self-bleu", lines], capture_output=True,
                           env=environment("0"), cwd=REPO, timeout=300)
    assert plain.returncode == 0 and plain.stderr == b"" and plain.stdout == out
