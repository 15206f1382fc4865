"""Reading hypothesis and reference text exactly as sacreBLEU does, but failing loudly.

sacreBLEU splits files on ``\\n`` only and ``rstrip()``s every line; we do the
same for files *and* stdin (sacreBLEU's stdin uses universal newlines, so a
lone ``\\r`` scores differently there). What sacreBLEU does silently or with a
traceback is an :class:`~bleucli.errors.InputError` here, naming the file and
line: undecodable bytes, NUL bytes (binary or UTF-16 input), an empty input.
A UTF-8 byte order mark is kept, as sacreBLEU keeps it (published scores
depend on that), but reported through ``notices`` so the CLI can warn.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .errors import InputError

STDIN_NAME = "<stdin>"
_BOM = "\ufeff"


@dataclass
class TextSource:
    """The decoded text of one input and what is worth telling the user about it."""

    name: str
    text: str
    notices: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The lines as sacreBLEU scores them: split on ``\\n``, ``rstrip()``ped."""
        return split_lines(self.text)

    def raw_lines(self) -> list[str]:
        """The lines before stripping (for splitting tab-separated columns)."""
        return split_raw_lines(self.text)


def read_bytes(path: str) -> bytes:
    """The raw content of ``path`` (``.gz`` decompressed), or an InputError naming it."""
    try:
        if path.endswith(".gz"):
            import gzip

            with gzip.open(path, "rb") as handle:
                return handle.read()
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise InputError("no such file", source=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=path) from None
    except PermissionError:
        raise InputError("permission denied", source=path) from None
    except (OSError, EOFError) as exc:  # gzip errors, I/O errors
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"cannot read: {reason}", source=path) from None


def decode_source(data: bytes, name: str, encoding: str = "utf-8") -> TextSource:
    """Decode raw bytes strictly, pointing at the file and line of any bad byte."""
    if b"\x00" in data and encoding.lower().replace("_", "-") in ("utf-8", "utf8", "ascii", "latin-1"):
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise InputError("contains a NUL byte: binary or UTF-16 input? (see --encoding)", name, line)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        raise InputError(
            f"not valid {encoding}: byte {data[exc.start:exc.start + 1]!r} at column "
            f"{exc.start - line_start + 1} (byte offset {exc.start}); see --encoding",
            name, line,
        ) from None
    except LookupError:
        raise InputError(f"unknown encoding '{encoding}'", name) from None
    source = TextSource(name, text)
    if text.startswith(_BOM):
        source.notices.append(
            f"{name} starts with a UTF-8 byte order mark; it is kept as part of the first "
            "token, as sacreBLEU does, which lowers the score if the other side lacks it"
        )
    return source


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only (a final newline ends the last line), then ``rstrip()``ped."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def split_raw_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only, *not* stripped (for tab-separated columns)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_source(path: str, encoding: str = "utf-8") -> TextSource:
    """Read a file (``-`` is not handled here: the CLI owns stdin)."""
    if os.path.isdir(path):
        raise InputError("is a directory, not a file", source=path)
    return decode_source(read_bytes(path), path, encoding)


def split_columns(source: TextSource, count: int | None, what: str) -> list[list[str]]:
    """Split tab-separated lines into ``count`` columns (``None``: the first line decides).

    Splitting happens *before* stripping, so an empty last field is an empty
    column rather than a missing one (sacreBLEU strips first and then reports
    the wrong field count). As in sacreBLEU, the last column may itself hold
    tabs when ``count`` is given.
    """
    columns: list[list[str]] = []
    for number, line in enumerate(source.raw_lines(), 1):
        fields = line.split("\t") if count is None else line.split("\t", count - 1)
        if count is None:
            count = len(fields)
        if len(fields) != count:
            raise InputError(f"expected {count} tab-separated {what}, found {len(fields)}", source.name, number)
        if not columns:
            columns = [[] for _ in range(count)]
        for column, value in zip(columns, fields):
            column.append(value.rstrip())
    return columns
