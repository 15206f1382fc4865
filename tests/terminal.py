"""Running a command with its stdout on a pseudo-terminal: what a user's shell gives it.

Used by the tests of sacreBLEU's terminal colours (issue 16.4): a real
subprocess sees ``isatty()`` true, as it would in a terminal.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def run_in_pty(argv: list[str], env: dict[str, str], tmp_path: Path, cwd: Path | None = None) -> tuple[int, bytes]:
    """Run ``argv`` with stdout on a pseudo-terminal (a real TTY to the process); its bytes, CRLF undone."""
    import pty

    master, slave = pty.openpty()
    with open(tmp_path / "stderr", "wb") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=err, env=env,
                                cwd=cwd)
    os.close(slave)
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
    return proc.wait(), b"".join(chunks).replace(b"\r\n", b"\n")
