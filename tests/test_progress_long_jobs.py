"""Progress bars of the scoring command and ``rank``: on a terminal only, and never a different output.

The engine reports its phases (``Scoring`` the segments, then the resamples
of ``-pbs``/``-par`` or of a ranking) through :mod:`bleucli.engine.progress`;
the commands draw them with click's bar when stderr is a terminal. Each run
here is made twice, with stderr on a pseudo-terminal and on a pipe: the bar is
drawn on the first only, and stdout is byte for byte the same.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from datasets import DATA, read
from terminal import HIDE, REPO, SHOW, bleucli_with_stderr_on_a_terminal
from test_progress import environment, write

SYSTEMS = ("Online-A", "Online-B", "Online-G")


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[str, list[str]]:
    """wmt22-en-de (2,037 segments): the reference and three systems, as plain files."""
    folder = DATA / "wmt22-en-de"
    ref = write(tmp_path / "ref.de", read(folder / "ref.de.gz"))
    return ref, [write(tmp_path / f"{name}.de", read(folder / "sys" / f"{name}.de.gz")) for name in SYSTEMS]


def on_a_terminal_and_on_a_pipe(args: list[str], tmp_path: Path) -> tuple[bytes, bytes]:
    """Run ``args`` both ways; both succeed, the pipe gets nothing on stderr, stdout is the same: (stdout, tty)."""
    code, out, tty = bleucli_with_stderr_on_a_terminal(args, environment("0"), tmp_path)
    assert code == 0, tty
    plain = subprocess.run([sys.executable, "-m", "bleucli", *args], capture_output=True, env=environment("0"),
                           cwd=REPO, timeout=300)
    assert plain.returncode == 0, plain.stderr
    assert plain.stderr == b""
    assert plain.stdout == out
    assert tty.rindex(SHOW) > tty.rindex(HIDE), tty  # the cursor is shown again
    return out, tty


@pytest.mark.slow  # TER of 2,037 segments, twice
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ter_scoring_draws_a_bar_on_a_terminal_only(corpus, tmp_path, jobs):
    ref, systems = corpus
    out, tty = on_a_terminal_and_on_a_pipe([ref, "-i", systems[0], "-m", "ter", "-j", jobs], tmp_path)
    assert b"Scoring" in tty and b"100%" in tty, tty
    assert b'"name": "TER"' in out


@pytest.mark.slow  # sentence TER of 2,037 segments, twice
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sentence_level_ter_draws_a_bar_on_a_terminal_only(corpus, tmp_path, jobs):
    ref, systems = corpus
    out, tty = on_a_terminal_and_on_a_pipe([ref, "-i", systems[0], "-m", "ter", "-sl", "-j", jobs], tmp_path)
    assert b"Scoring" in tty and b"100%" in tty, tty
    assert out.count(b"\n") == 2037 and out.startswith(b"TER"), out[:200]


@pytest.mark.slow  # -ci of two metrics on 2,037 segments, twice
def test_a_confidence_interval_draws_its_phases_on_a_terminal_only(corpus, tmp_path):
    ref, systems = corpus
    out, tty = on_a_terminal_and_on_a_pipe([ref, "-i", systems[0], "-m", "bleu", "ter", "-ci", "-cin", "200",
                                            "-f", "text"], tmp_path)
    assert tty.index(b"Scoring") < tty.index(b"Bootstrap"), tty
    assert tty.count(b"100%") >= 2, tty
    assert b"TER" in out and "±".encode() in out, out


@pytest.mark.slow  # -pbs of three systems on 2,037 segments, twice
def test_paired_bootstrap_of_several_systems_draws_its_phases_on_a_terminal_only(corpus, tmp_path):
    ref, systems = corpus
    out, tty = on_a_terminal_and_on_a_pipe([ref, "-i", *systems, "-m", "bleu", "chrf", "-pbs", "-pbsn", "200",
                                            "-f", "text"], tmp_path)
    assert tty.index(b"Scoring") < tty.index(b"Paired bootstrap"), tty
    assert tty.count(b"100%") >= 2, tty
    assert b"Online-G" in out


@pytest.mark.slow  # a ranking of three systems with -par on two processes, twice
def test_rank_draws_its_phases_on_a_terminal_only(corpus, tmp_path):
    ref, systems = corpus
    out, tty = on_a_terminal_and_on_a_pipe(["rank", ref, "-i", *systems, "-par", "-parn", "200", "-j", "2"],
                                           tmp_path)
    assert tty.index(b"Scoring") < tty.index(b"Ranking"), tty
    assert tty.count(b"100%") >= 2, tty
    assert b"Rank" in out


def test_a_run_of_unknown_length_draws_nothing(corpus, tmp_path):
    """Hypotheses on stdin: the length is unknown, and a bar that cannot say how far the run is is not drawn."""
    ref, systems = corpus
    with open(systems[0], "rb") as stdin:
        code, out, tty = bleucli_with_stderr_on_a_terminal([ref, "-b"], environment("0"), tmp_path, stdin=stdin)
    assert code == 0 and tty == b"", tty
    assert out.strip()
