"""The download bar is click's ``progressbar``, drawn on a real terminal (issue 16.18).

bleucli's library reports progress through a callback; the CLI injects one that
draws ``click.progressbar`` when stderr is a terminal. The tests run bleucli
with stderr on a pseudo-terminal (stdout in a file), against the local server.
click hides the cursor while it draws, so the bar must be finished (cursor
shown again) also when the download fails.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from terminal import HIDE, REPO, SHOW, bleucli_with_stderr_on_a_terminal


def run_on_a_tty(env, tmp_path: Path, args: list[str], extra: dict[str, str] | None = None) -> tuple[int, bytes, bytes]:
    """``python -m bleucli ARGS`` against the local server, stderr on a pty: (exit code, stdout, terminal)."""
    return bleucli_with_stderr_on_a_terminal(args, {**env.environ, "PYTHONPATH": str(REPO), **(extra or {})},
                                             tmp_path, timeout=60)


@pytest.mark.slow  # a subprocess on a pty
def test_download_draws_clicks_bar_on_a_terminal(env, corpus, tmp_path):
    code, out, tty = run_on_a_tty(env, tmp_path, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"])
    assert code == 0, tty
    assert out.decode().splitlines() == [s.rstrip() for s in corpus.src]
    assert b"Downloading mtnt.tar.gz" in tty and b"100%" in tty, tty  # click's label and percentage
    size = len(corpus.files["mtnt.tar.gz"])
    assert f"{size / 1e6:.1f}/{size / 1e6:.1f} MB".encode() in tty
    assert tty.rindex(SHOW) > tty.rindex(HIDE), tty  # the cursor is shown again


@pytest.mark.slow  # a subprocess on a pty
def test_a_failed_download_gives_the_cursor_back(env, tmp_path):
    env.server.script("mtnt.tar.gz", *["trunc_cl"] * 10)  # half the body, every time: gives up
    code, out, tty = run_on_a_tty(env, tmp_path, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"])
    assert code == 4 and out == b"", tty
    assert HIDE in tty and tty.rindex(SHOW) > tty.rindex(HIDE), tty
    assert b"gave up after 4 attempts" in tty.split(SHOW)[-1], tty  # the error after the bar, on its own line
    for line in tty.split(b"\n"):  # each retry notice on a line of its own, not after the bar
        assert b"bleucli: warning:" not in line or line.startswith(b"bleucli: warning:"), tty


def test_no_bar_when_stderr_is_not_a_terminal(env, corpus):
    result = subprocess.run([sys.executable, "-m", "bleucli", "-t", "toy-tsv", "-l", "en-de", "--echo", "src"],
                            capture_output=True, env={**env.environ, "PYTHONPATH": str(REPO)}, cwd=REPO, timeout=60)
    assert result.returncode == 0 and result.stderr == b"", result.stderr
