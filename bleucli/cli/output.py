"""Writing results to stdout as UTF-8 whatever the locale (sacreBLEU 1.x broke under LC_ALL=C)."""

from __future__ import annotations

import errno
import sys


def emit(text: str) -> None:
    """Write ``text`` and a newline to stdout as UTF-8 bytes."""
    if not text:
        return
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    data = (text + "\n").encode("utf-8")
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        sys.stdout.flush()
        buffer.write(data)
        buffer.flush()
    else:  # a text-only stream (some embedding environments)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
