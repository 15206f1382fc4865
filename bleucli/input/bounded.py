"""Reading untrusted JSON and files within bounds: nesting depth, size, regular files only.

Python's JSON parser recurses once per nesting level, so a line of 1,000
``[`` is a ``RecursionError`` (an internal error) rather than bad data;
:func:`loads` refuses anything nested deeper than ``max_depth`` first, as a
``ValueError`` the caller turns into an :class:`~bleucli.errors.InputError`
naming its file and line. It also refuses an object holding a key twice
(:class:`DuplicateKeyError`): Python's parser keeps the last value silently, so
``{"score": 0.3, "score": 99}`` would score 99 where another reader takes 0.3.
:func:`read_regular` reads a file only if it is a
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


class DuplicateKeyError(json.JSONDecodeError):
    """A JSON object holds a key twice; ``msg`` names its JSON path (``metrics[0].offset``), ``lineno`` its line.

    A :class:`json.JSONDecodeError`, so every reader reports it as it reports any other invalid JSON.
    """

    def __init__(self, path: str, text: str, position: int) -> None:
        super().__init__(f"duplicated key {path} (a key may appear once in an object)", text, position)
        self.path = path


class _Repeated(Exception):
    """Raised inside the parser at the first object found to hold a key twice (its position is found after)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of ``pairs``; a repeated key stops the parse (one ``dict`` and a length test per object)."""
    made = dict(pairs)
    if len(made) != len(pairs):
        raise _Repeated
    return made


#: Made once: ``json.loads(text, object_pairs_hook=...)`` builds a decoder per call (twice the time of a line).
_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys)


def loads(text: str, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """``json.loads(text)``, or ``ValueError`` for a document nested deeper than ``max_depth`` or
    :class:`DuplicateKeyError` (a ``ValueError`` too) for an object that holds a key twice.

    Every reader of JSON in bleucli parses through here, so the rules are the same for shards,
    segment scores, ``--aligned`` and ``pairwise`` lines and the cache's manifests.
    """
    opened = text.count("[") + text.count("{")
    if opened > max_depth and nesting_depth(text) > max_depth:
        raise ValueError(f"JSON nested more than {max_depth} levels deep")
    try:
        return _DECODER.decode(text)
    except _Repeated:
        raise _first_repeated_key(text) from None
    except RecursionError:  # pragma: no cover - the depth check above comes first
        raise ValueError(f"JSON nested more than {max_depth} levels deep") from None


_SPACE = re.compile(r"[ \t\n\r]*")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _first_repeated_key(text: str) -> DuplicateKeyError:
    """The error for the first repeated key in ``text`` (in reading order), walked again with paths.

    Only run once the parser has met a repeated key, so the speed of valid input is the parser's: the text
    up to the end of that object is valid JSON, and the first repetition lies within it.
    """
    decoder = json.JSONDecoder()
    scan_string = json.decoder.scanstring  # type: ignore[attr-defined]

    def skip(position: int) -> int:
        return _SPACE.match(text, position).end()  # type: ignore[union-attr]

    def value(position: int, path: str) -> int | DuplicateKeyError:
        position = skip(position)
        opening = text[position:position + 1]
        if opening == "{":
            seen: set[str] = set()
            position = skip(position + 1)
            if text[position:position + 1] == "}":
                return position + 1
            while True:
                start = position
                key, position = scan_string(text, position + 1)
                inner = f"{path}.{key}" if _PLAIN_KEY.match(key) else f"{path}[{json.dumps(key)}]"
                inner = inner.removeprefix(".")
                if key in seen:
                    return DuplicateKeyError(inner, text, start)
                seen.add(key)
                position = skip(skip(position) + 1)  # past the ':'
                end = value(position, inner)
                if isinstance(end, DuplicateKeyError):
                    return end
                position = skip(end)
                if text[position:position + 1] != ",":
                    return position + 1  # '}'
                position = skip(position + 1)
        if opening == "[":
            position = skip(position + 1)
            if text[position:position + 1] == "]":
                return position + 1
            index = 0
            while True:
                end = value(position, f"{path}[{index}]")
                if isinstance(end, DuplicateKeyError):
                    return end
                position = skip(end)
                if text[position:position + 1] != ",":
                    return position + 1  # ']'
                position, index = position + 1, index + 1
        return decoder.raw_decode(text, position)[1]

    found = value(0, "")
    if isinstance(found, DuplicateKeyError):
        return found
    return DuplicateKeyError("(unknown)", text, 0)  # pragma: no cover - the parser met a repeated key


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


__all__ = ["DEFAULT_MAX_DEPTH", "DuplicateKeyError", "nesting_depth", "loads", "read_regular"]
