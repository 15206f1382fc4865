"""Reading untrusted JSON and files within bounds: nesting depth, size, regular files only.

Python's JSON parser recurses once per nesting level, so a line of 1,000
``[`` is a ``RecursionError`` (an internal error) rather than bad data;
:func:`loads` refuses anything nested deeper than ``max_depth`` first, as a
``ValueError`` the caller turns into an :class:`~bleucli.errors.InputError`
naming its file and line. :func:`read_regular` reads a file only if it is a
regular file no larger than a cap, so ``/dev/zero``, ``/dev/urandom``, a FIFO
(which would block) or a directory are refused at once.
"""

from __future__ import annotations

import json
import os
import re
import stat
from typing import Any

from ..errors import InputError

#: Deeper than any document bleucli reads (shards nest 5 levels, aligned JSON lines 2).
DEFAULT_MAX_DEPTH = 64

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def nesting_depth(text: str) -> int:
    """How deep JSON ``text`` nests (brackets inside strings do not count)."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRINGS.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads(text: str, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """``json.loads(text)``, or ``ValueError`` for a document nested deeper than ``max_depth``."""
    opened = text.count("[") + text.count("{")
    if opened > max_depth and nesting_depth(text) > max_depth:
        raise ValueError(f"JSON nested more than {max_depth} levels deep")
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - the depth check above comes first
        raise ValueError(f"JSON nested more than {max_depth} levels deep") from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` (a JSON ``\\ud800`` escape decodes to one), else None.

    Text read from a file never holds one (UTF-8 is decoded strictly); a string that does is not Unicode
    text, and a tokenizer handing it to C (MeCab) fails with a TypeError.
    """
    found = _SURROGATE.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def read_regular(path: str, max_bytes: int, what: str = "file", hint: str = "") -> bytes:
    """The bytes of the regular file ``path``, refused (InputError naming it) if it is anything else or too big.

    ``hint`` ends the message of a file over the cap (how to raise it).
    The file is opened without blocking (a FIFO swapped in after a check cannot hang
    the read) and checked on the open descriptor.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError(f"is a directory, not a {what}", path) from None
    except PermissionError:
        raise InputError("permission denied", path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    status = os.fstat(descriptor)
    problem = None
    if stat.S_ISDIR(status.st_mode):
        problem = f"is a directory, not a {what}"
    elif not stat.S_ISREG(status.st_mode):
        problem = f"is not a regular file (a device, FIFO or socket), not a {what}"
    elif status.st_size > max_bytes:
        problem = f"is larger than the limit of {max_bytes} bytes for a {what}{hint}"
    if problem is not None:
        os.close(descriptor)
        raise InputError(problem, path)
    os.set_blocking(descriptor, True)
    with os.fdopen(descriptor, "rb") as handle:
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    if len(data) > max_bytes:
        raise InputError(f"is larger than the limit of {max_bytes} bytes for a {what}{hint}", path)
    return data


__all__ = ["DEFAULT_MAX_DEPTH", "nesting_depth", "loads", "read_regular"]
