"""Running a command with its stdout or its stderr on a pseudo-terminal: what a user's shell gives it.

A real subprocess then sees ``isatty()`` true, as it would in a terminal: the
tests of sacreBLEU's terminal colours put stdout there, the tests of progress
bars stderr (click draws its bar only on a terminal).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parent.parent
#: click hides the cursor while it draws a bar, and shows it again when the bar is finished
HIDE, SHOW = b"\x1b[?25l", b"\x1b[?25h"


def _received(master: int) -> bytes:
    """Everything the terminal's other end receives until the child closes it; ``master`` is closed."""
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return b"".join(chunks)


def run_in_pty(argv: list[str], env: dict[str, str], tmp_path: Path, cwd: Path | None = None) -> tuple[int, bytes]:
    """Run ``argv`` with stdout on a pseudo-terminal (a real TTY to the process); its bytes, CRLF undone."""
    import pty

    master, slave = pty.openpty()
    with open(tmp_path / "stderr", "wb") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=err, env=env,
                                cwd=cwd)
    os.close(slave)
    received = _received(master)
    return proc.wait(), received.replace(b"\r\n", b"\n")


def bleucli_with_stderr_on_a_terminal(args: list[str], env: dict[str, str], tmp_path: Path, *,
                                      stdin: IO[bytes] | None = None, timeout: float = 300) -> tuple[int, bytes, bytes]:
    """``python -m bleucli ARGS`` with stderr on a pty: (exit code, stdout, what the terminal received).

    stdin is ``stdin`` (default: nothing); stdout goes to a file in ``tmp_path``.
    """
    import pty

    master, slave = pty.openpty()
    out_path = tmp_path / "stdout"
    with out_path.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "bleucli", *args],
                                stdin=subprocess.DEVNULL if stdin is None else stdin, stdout=out, stderr=slave,
                                env=env, cwd=REPO)
        os.close(slave)
        received = _received(master)
        code = proc.wait(timeout=timeout)
    return code, out_path.read_bytes(), received
