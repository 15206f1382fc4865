"""Writing results to stdout as UTF-8 whatever the locale (sacreBLEU 1.x broke under LC_ALL=C)."""

from __future__ import annotations

import errno
import sys
from collections.abc import Iterable
from typing import BinaryIO

#: Held output stays in memory up to this size, then goes to a temporary file.
HOLD_IN_MEMORY_BYTES = 8 << 20
_COPY_BYTES = 1 << 20


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
        write_all(buffer, data)
        buffer.flush()
    else:  # a text-only stream (some embedding environments)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def write_all(stream: BinaryIO, data: bytes) -> None:
    """Write every byte of ``data`` or raise ``OSError``.

    With ``PYTHONUNBUFFERED=1`` stdout's binary layer is a raw ``FileIO`` whose
    ``write`` returns how many bytes the kernel took: on a nearly full disk
    that is fewer than asked, with no error. Writing the rest makes the kernel
    say why (ENOSPC, EFBIG); a write that takes nothing at all is reported as
    a short write, so a truncated result never ends with exit 0.
    """
    view = memoryview(data)
    while view:
        written = stream.write(view)
        if written is None:  # a non-blocking stream that would block: nothing was written
            raise OSError(errno.EAGAIN, "standard output would block")
        if written <= 0:
            raise OSError(errno.EIO, f"short write: {len(view)} bytes of the result were not written")
        if written >= len(view):
            return
        view = view[written:]


def emit_when_complete(lines: Iterable[str]) -> None:
    """Write ``lines`` to stdout only once all of them have been produced.

    For ``-sl``: a segment that fails late (a line-count mismatch, a byte that
    does not decode, a TER segment over ``--ter-max-words``) must not leave a
    pipe with thousands of scores followed by exit 3. The lines are held in a
    spooled temporary file (memory up to ``HOLD_IN_MEMORY_BYTES``, then disk),
    so memory stays bounded for any corpus; if producing them raises, nothing
    is written. The price: the first line appears when the last is computed.
    """
    import tempfile

    with tempfile.SpooledTemporaryFile(max_size=HOLD_IN_MEMORY_BYTES) as held:
        for text in lines:
            held.write((text + "\n").encode("utf-8"))
        held.seek(0)
        if sys.stdout is None:
            raise OSError(errno.EBADF, "standard output is closed")
        buffer = getattr(sys.stdout, "buffer", None)
        sys.stdout.flush()
        while block := held.read(_COPY_BYTES):
            if buffer is not None:
                write_all(buffer, block)
            else:  # a text-only stream (some embedding environments)
                sys.stdout.write(block.decode("utf-8"))
        (buffer if buffer is not None else sys.stdout).flush()


def write_whole(path: str, pieces: Iterable[str], prefix: str = ".bleucli-") -> None:
    """Write the pieces to ``path`` whole or not at all: a regular file (or a new one) through a temporary
    file in its folder renamed into place, so a full disk or ``ulimit -f`` never leaves half a page or
    shard under the name; anything else (``/dev/null``, a FIFO, ``/dev/stdout``) is written in place, never
    replaced by a rename. A write error is an ``OSError`` naming ``path``.
    """
    import os
    import stat
    import tempfile

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OSError(exc.errno or errno.EIO, f"{path}: {exc.strerror or exc}") from None
    in_place = mode is not None and not stat.S_ISREG(mode)
    temporary = None
    try:
        if in_place:
            handle = open(path, "w", encoding="utf-8", newline="\n")
        else:
            descriptor, temporary = tempfile.mkstemp(prefix=prefix, dir=os.path.dirname(os.path.abspath(path)))
            handle = os.fdopen(descriptor, "w", encoding="utf-8", newline="\n")
        with handle:
            for piece in pieces:
                handle.write(piece)
        if temporary is not None:
            if mode is not None:
                os.chmod(temporary, stat.S_IMODE(mode))  # the file replaced keeps its permissions
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(temporary, 0o666 & ~umask)  # as open() would have made it
            os.replace(temporary, path)
            temporary = None
    except OSError as exc:
        raise OSError(exc.errno or errno.EIO, f"{path}: {exc.strerror or exc}") from None
    finally:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)
