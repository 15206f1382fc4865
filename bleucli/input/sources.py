"""Opening references and systems as line streams, with sacreBLEU's conventions.

The CLI is a thin layer over these functions. Everything is a lazy stream of
lines so that corpora of any size are scored in constant memory; tab-separated
columns (``-nr N`` references in one file, systems on stdin) become
one stream per column. Problems raise :class:`~bleucli.errors.InputError`
naming the file and line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, tee
from typing import BinaryIO

from ..errors import InputError, OptionError
from .reading import DEFAULT_MAX_LINE_BYTES, STDIN_NAME, FileLines, iter_lines


def open_references(
    paths: Sequence[str], num_refs: int = 1, encoding: str = "utf-8", notices: list[str] | None = None,
    *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> tuple[list[str], list[Iterable[str]]]:
    """Reference streams: one per file, or ``num_refs`` tab-separated columns of one file."""
    if not paths:
        raise OptionError("no references: give reference files before -i")
    if num_refs < 1:
        raise OptionError(f"--num-refs must be at least 1, got {num_refs}")
    if num_refs > 1:
        if len(paths) != 1:
            raise OptionError("--num-refs splits one reference file on tabs: give exactly one reference file")
        lines = iter_lines(paths[0], encoding=encoding, notices=notices, strip=False, max_line_bytes=max_line_bytes)
        streams: list[Iterable[str]] = list(columns(lines, paths[0], num_refs, "references (--num-refs)"))
        return [f"{paths[0]} (column {k + 1})" for k in range(num_refs)], streams
    return list(paths), [FileLines(p, encoding, notices, max_line_bytes) for p in paths]


def open_system(
    path: str,
    encoding: str = "utf-8",
    notices: list[str] | None = None,
    stdin: BinaryIO | None = None,
    tsv: bool | None = None,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> tuple[list[str], list[Iterable[str]]]:
    """The system stream(s) of one input: a file, or stdin (``-``), whose tab-separated columns are systems.

    stdin follows sacreBLEU: when its lines hold tabs, each column is a system
    (``System 1``, ``System 2``...). ``tsv=None`` (the default) and
    ``tsv=True`` both split; a line whose number of fields differs from the
    first line's is an :class:`InputError` naming the line, never a silently
    wrong score. ``tsv=False`` reads stdin as one system whose hypotheses may
    contain tabs (as whitespace). Files are always one system.
    """
    if path != "-":
        return [path], [FileLines(path, encoding, notices, max_line_bytes)]
    if stdin is None:
        raise InputError("standard input is closed; give hypotheses with -i FILE", STDIN_NAME)
    if tsv is False:
        return [STDIN_NAME], [iter_lines(STDIN_NAME, stdin, encoding, notices, max_line_bytes=max_line_bytes)]
    lines = iter_lines(STDIN_NAME, stdin, encoding, notices, strip=False, max_line_bytes=max_line_bytes)
    streams: list[Iterable[str]] = list(columns(lines, STDIN_NAME, None, "systems"))
    if len(streams) == 1:
        return [STDIN_NAME], streams
    return [f"System {k + 1}" for k in range(len(streams))], streams


def columns(lines: Iterator[str], name: str, count: int | None, what: str) -> list[Iterator[str]]:
    """Split raw lines on tabs into ``count`` column streams (``None``: the first line decides).

    Splitting happens *before* stripping, so an empty last field is an empty
    column rather than a missing one (sacreBLEU strips first and then reports
    a wrong field count). As in sacreBLEU, the last column may hold tabs when
    ``count`` is given (``-nr``); with ``count=None`` (systems on stdin) every line
    must have exactly as many fields as the first. The columns are consumed in lockstep, so ``tee``
    buffers at most a line or two.

    Stripping follows sacreBLEU: references (``count`` given) lose trailing
    whitespace at the end of the *line* only (sacreBLEU ``rstrip()``s the line
    and then splits it), so ``'a b \tab'`` keeps the space of ``'a b '`` that
    chrF's ``--chrf-whitespace`` counts; systems lose it at the end of every
    field (sacreBLEU ``rstrip()``s each system's sentence).
    """
    fixed = count is not None
    first = next(lines, None)
    if first is None:
        return [iter(()) for _ in range(count or 1)]
    if count is None:
        count = len(first.split("\t"))

    maxsplit = count - 1 if fixed else -1

    def rows() -> Iterator[list[str]]:
        for number, line in enumerate(chain([first], lines), 1):
            fields = line.split("\t", maxsplit)
            if len(fields) != count:
                if fixed:
                    raise InputError(f"expected {count} tab-separated {what}, found {len(fields)}", name, number)
                raise InputError(
                    f"{len(fields)} tab-separated fields where line 1 has {count}: every line holds one "
                    f"hypothesis per system (--no-tsv: one system whose lines may contain tabs)", name, number)
            if fixed:
                fields[-1] = fields[-1].rstrip()
                yield fields
            else:
                yield [field.rstrip() for field in fields]

    return [_column(copy, k) for k, copy in enumerate(tee(rows(), count))]


def _column(rows: Iterator[list[str]], index: int) -> Iterator[str]:
    for row in rows:
        yield row[index]
