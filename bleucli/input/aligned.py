"""Aligned input: one file whose every line holds a segment's hypothesis and references.

``--aligned FILE`` reads a TSV file (tab-separated fields) or, when the name
ends in ``.jsonl`` (``.jsonl.gz``), JSON lines; ``--columns HYP,REF[,REF...]``
says where the hypothesis and the references are: 1-based field numbers for
TSV (default ``1,2``), keys for JSON lines (default ``hyp,ref``). Data sets for
filtering and cluster jobs come like this, and one file keeps the segments
aligned by construction.

The rows are read with the same byte-level rules as plain files (split on
``\\n`` only, strict decoding, NUL bytes and overlong lines refused); TSV fields
are split before they are ``rstrip()``ped, as ``--num-refs`` does, so an empty
last field is an empty reference, not a missing one. A bad row is an
:class:`~bleucli.errors.InputError` naming the file and line.

Parallel runs (``-j N``, ``--dask``) do not send the text from this process:
each task reads its own line range of the file (:mod:`bleucli.input.ranges`),
the partitions of a cluster job.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import tee
from typing import Any

from ..errors import InputError, OptionError
from ..frozen import Frozen
from .reading import DEFAULT_MAX_LINE_BYTES, FileLines, iter_lines


class AlignedFile(Frozen):
    """Where the segments of an aligned file are: the file, its kind, and the hypothesis and reference columns."""

    path: str
    kind: str  # "tsv" or "jsonl"
    columns: tuple[str, ...]  # the hypothesis column, then one per reference
    encoding: str = "utf-8"
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES

    @classmethod
    def build(cls, path: str, columns: Sequence[str] = (), encoding: str = "utf-8",
              max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> AlignedFile:
        """Check ``columns`` (OptionError) for the kind of file ``path`` names."""
        kind = "jsonl" if path.removesuffix(".gz").endswith(".jsonl") else "tsv"
        chosen = tuple(columns) or (("hyp", "ref") if kind == "jsonl" else ("1", "2"))
        if len(chosen) < 2 or any(not c for c in chosen):
            raise OptionError("--columns takes the hypothesis column, then at least one reference column "
                              f"(comma-separated), got '{','.join(chosen)}'")
        if kind == "tsv" and not all(c.isdigit() and int(c) >= 1 for c in chosen):
            raise OptionError(f"--columns of a TSV file are field numbers from 1, got '{','.join(chosen)}'")
        if len(set(chosen)) != len(chosen):
            raise OptionError(f"--columns names a column twice: '{','.join(chosen)}'")
        return cls(path, kind, chosen, encoding, max_line_bytes)

    @property
    def system_names(self) -> list[str]:
        return [self._name(self.columns[0])]

    @property
    def reference_names(self) -> list[str]:
        return [self._name(c) for c in self.columns[1:]]

    def _name(self, column: str) -> str:
        return f"{self.path} (column {column})" if self.kind == "tsv" else f"{self.path} (key {column})"

    def seekable(self) -> bool:
        """Whether workers can read line ranges of the file themselves."""
        return FileLines(self.path, self.encoding).seekable()

    def rows(self, lines: Iterable[str], first_line: int = 1) -> Iterator[list[str]]:
        """``[hypothesis, reference...]`` of each raw (unstripped) line."""
        if self.kind == "tsv":
            fields = [int(c) - 1 for c in self.columns]
            needed = max(fields) + 1
            for number, line in enumerate(lines, first_line):
                parts = line.split("\t")
                if len(parts) < needed:
                    raise InputError(f"expected at least {needed} tab-separated fields, found {len(parts)}",
                                     self.path, number)
                yield [parts[i].rstrip() for i in fields]
            return
        from .bounded import loads, lone_surrogate

        for number, line in enumerate(lines, first_line):
            try:
                record: Any = loads(line)
            except ValueError as exc:
                raise InputError(f"invalid JSON ({exc})", self.path, number) from None
            if not isinstance(record, dict):
                raise InputError("expected a JSON object", self.path, number)
            row = []
            for key in self.columns:
                value = record.get(key)
                if not isinstance(value, str):
                    state = "missing" if key not in record else f"a {type(value).__name__}, not a string"
                    raise InputError(f"key '{key}' is {state}", self.path, number)
                if "\\u" in line and (surrogate := lone_surrogate(value)) is not None:
                    raise InputError(f"key '{key}' holds a lone surrogate ({surrogate}): not Unicode text",
                                     self.path, number)
                row.append(value.rstrip())
            yield row


class AlignedColumn:
    """One column of an aligned file as a line stream (the columns are read in lockstep)."""

    def __init__(self, source: AlignedFile, rows: Iterator[list[str]], index: int) -> None:
        self.source = source
        self._rows = rows
        self._index = index

    def __iter__(self) -> Iterator[str]:
        index = self._index
        for row in self._rows:
            yield row[index]


def open_aligned(source: AlignedFile,
                 notices: list[str] | None = None) -> tuple[list[AlignedColumn], list[AlignedColumn]]:
    """The hypothesis column and the reference columns of ``source``, read once, in lockstep."""
    lines = iter_lines(source.path, encoding=source.encoding, notices=notices, strip=False,
                       max_line_bytes=source.max_line_bytes)
    copies = tee(source.rows(lines), len(source.columns))
    columns = [AlignedColumn(source, copy, k) for k, copy in enumerate(copies)]
    return columns[:1], columns[1:]


def aligned_source(streams: Sequence[Iterable[str]]) -> AlignedFile | None:
    """The aligned file behind every one of ``streams``, or ``None``."""
    sources = {s.source for s in streams if isinstance(s, AlignedColumn)}
    if len(sources) == 1 and all(isinstance(s, AlignedColumn) for s in streams):
        return sources.pop()
    return None
