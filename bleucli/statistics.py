"""Sufficient statistics: what a metric computes per segment, and the one way they are summed.

Every metric here (BLEU, chrF, TER) scores a corpus from the element-wise sum
of per-segment statistics, as sacreBLEU does (its ``sum_of_lists``: each
column accumulated left to right, ``total[i] += row[i]``). So a corpus can be
cut into chunks anywhere, each chunk counted on its own (in a worker process,
on another machine, in a shard file) and the parts added up: :class:`Statistics`
is that part, and :func:`sum_rows` and :meth:`Statistics.__add__` are the only
places where statistics are added.

Summing policy, so that any split gives the single run's score bit for bit:

* integer columns (all of BLEU's and chrF's, TER's edit counts) are summed
  exactly, in any grouping;
* float columns (TER's average reference length, ``len / nrefs``) are kept
  as the sequence of per-segment values, in corpus order, and summed once at
  the end, left to right, exactly as sacreBLEU's loop does. A float sum
  grouped by chunks can differ in the last bit (three references give
  thirds), and since Python 3.12 the built-in ``sum`` of floats is
  compensated, so neither is used for them. The cost is 8 bytes a segment,
  for TER only.

Per-segment rows (what resampling tests draw from) of the compiled BLEU and
chrF come as a :class:`RowMatrix`: one contiguous block of int64 per system,
read by numpy in place. A list per row and an int object per cell cost more
to make, to turn into a numpy array and to walk for the garbage collector than
the statistics cost to compute; the block is still a sequence of rows to
everything else.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from functools import reduce
from operator import add
from typing import Any

from .errors import InputError

#: What the compiled batch functions (``bleu_statistics``, ``bleu_systems``, ``chrf_statistics``,
#: ``chrf_systems``) give for their ``rows`` argument: each system's column sums, a list per row, or
#: one ``bytes`` of int64 rows (a :class:`RowMatrix`'s ``data``).
ROWS_SUMS, ROWS_LISTS, ROWS_MATRIX = 0, 1, 2

#: A statistic: an int for BLEU and chrF; TER's average reference length is a float;
#: resampling tests hand numpy scalars to the metrics.
Number = int | float | Any


def sum_rows(rows: Iterable[Sequence[Number]]) -> list[Number]:
    """Element-wise sum of statistics rows, each column left to right (sacreBLEU's order).

    Float columns are accumulated one value after the other (``reduce``, not
    the built-in ``sum``, whose float path is compensated since Python 3.12);
    other columns use ``sum``, exact for integers. Raises :class:`InputError`
    when there is no row: a corpus without segments has no score.
    """
    if isinstance(rows, RowMatrix):
        if not len(rows):
            raise InputError("nothing to score: the corpus has no segments")
        return list(rows.column_sums())
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        raise InputError("nothing to score: the corpus has no segments")
    return [reduce(add, column, 0) if type(column[0]) is float else sum(column) for column in zip(*rows)]


class Statistics:
    """The statistics of one system under one metric over ``segments`` consecutive segments.

    This is what a chunk of work returns and what a shard file holds: adding
    two of them (the earlier segments first) gives the statistics of both
    parts. ``ordered`` keeps, for each float column, its per-segment values in
    corpus order; :meth:`totals` sums them. Immutable by convention (a plain
    class: a frozen dataclass costs more at import than the whole class is worth).
    """

    __slots__ = ("values", "segments", "ordered")

    def __init__(self, values: tuple[Number, ...], segments: int,
                 ordered: dict[int, array[float]] | None = None) -> None:
        self.values = values
        self.segments = segments
        self.ordered = ordered or {}

    @classmethod
    def of_rows(cls, rows: Sequence[Sequence[Number]]) -> Statistics:
        """The statistics of the segments whose per-segment rows are given, in order."""
        if not rows:
            raise InputError("nothing to score: the corpus has no segments")
        if isinstance(rows, RowMatrix):  # integers only: no float column to keep
            return cls(tuple(rows.column_sums()), len(rows))
        first = rows[0]
        floats = [i for i, value in enumerate(first) if type(value) is float]
        ordered = {i: array("d", [row[i] for row in rows]) for i in floats}
        return cls(tuple(sum_rows(rows)), len(rows), ordered)

    def __add__(self, other: Statistics) -> Statistics:
        """These segments followed by ``other``'s."""
        if not isinstance(other, Statistics):
            return NotImplemented
        if len(other.values) != len(self.values) or set(other.ordered) != set(self.ordered):
            raise ValueError(f"cannot add statistics of {len(self.values)} and {len(other.values)} values")
        ordered = {i: self.ordered[i] + other.ordered[i] for i in self.ordered}
        return Statistics(tuple(sum_rows([self.values, other.values])), self.segments + other.segments, ordered)

    def totals(self) -> list[Number]:
        """The summed statistics to score: float columns summed over every segment, left to right."""
        values = list(self.values)
        for i, sequence in self.ordered.items():
            values[i] = reduce(add, sequence, 0)
        return values

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Statistics):
            return NotImplemented
        return (self.values, self.segments, self.ordered) == (other.values, other.segments, other.ordered)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Statistics(values={self.values!r}, segments={self.segments})"


class RowMatrix(Sequence[list[int]]):
    """Integer statistics rows of consecutive segments, as one block of native int64 (rows x ``width``).

    What the compiled BLEU and chrF give for per-segment rows: ``data`` is the
    ``bytes`` the extension filled, row after row. It is a read-only sequence of
    rows (``matrix[i]`` is a list of ints, as the pure-Python metrics' rows are),
    numpy reads it in place (``numpy.asarray(matrix)``: an int64 array sharing
    the bytes), and equal to any sequence of the same rows. Chunks are joined
    with :func:`concatenate_rows`. Pickles as its bytes (cheap between processes).
    """

    __slots__ = ("data", "width")

    def __init__(self, data: bytes, width: int) -> None:
        if width <= 0 or len(data) % (8 * width):
            raise ValueError(f"{len(data)} bytes are not rows of {width} int64")
        self.data = data
        self.width = width

    def _cells(self) -> memoryview:
        return memoryview(self.data).cast("q")

    def __len__(self) -> int:
        return len(self.data) // (8 * self.width)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            stop = max(start, stop)
            return RowMatrix(self.data[8 * self.width * start:8 * self.width * stop], self.width)
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("row index out of range")
        first = index * self.width
        return self._cells()[first:first + self.width].tolist()

    def __iter__(self) -> Iterator[list[int]]:
        return iter(self.tolist())

    def tolist(self) -> list[list[int]]:
        """Every row as a list of ints (numpy's name, which the significance code asks for)."""
        if not len(self):
            return []
        rows: list[list[int]] = self._cells().cast("B").cast("q", (len(self), self.width)).tolist()  # type: ignore[assignment]
        return rows

    def column_sums(self) -> list[int]:
        """Each column's sum (exact: Python ints)."""
        cells = self._cells()
        return [sum(cells[c::self.width]) for c in range(self.width)]

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        import numpy

        matrix = numpy.frombuffer(self.data, dtype=numpy.int64).reshape(len(self), self.width)
        return matrix if dtype is None else matrix.astype(dtype)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RowMatrix):
            return self.width == other.width and self.data == other.data
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == len(self) and self.tolist() == [list(row) for row in other]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return RowMatrix, (self.data, self.width)

    def __repr__(self) -> str:
        return f"RowMatrix({len(self)} rows x {self.width})"


def concatenate_rows(parts: Sequence[Sequence[Sequence[Number]]]) -> Sequence[Sequence[Number]]:
    """The rows of consecutive parts, in order: one :class:`RowMatrix` when every part is one (of one
    width), else a list of rows."""
    if len(parts) == 1:
        return parts[0]
    if parts and all(type(part) is RowMatrix for part in parts) \
            and len({part.width for part in parts}) == 1:  # type: ignore[attr-defined]
        return RowMatrix(b"".join(part.data for part in parts), parts[0].width)  # type: ignore[attr-defined]
    return [row for part in parts for row in part]


def total(parts: Iterable[Statistics | None]) -> Statistics | None:
    """The sum of consecutive parts in order (``None`` entries are skipped); ``None`` if there is none.

    One pass: the float sequences are copied once, not once per addition.
    """
    values: list[tuple[Number, ...]] = []
    segments = 0
    ordered: dict[int, array[float]] = {}
    for part in parts:
        if part is None:
            continue
        if values and (len(part.values) != len(values[0]) or set(part.ordered) != set(ordered)):
            raise ValueError("cannot add statistics of different metrics")
        values.append(part.values)
        segments += part.segments
        for i, sequence in part.ordered.items():
            ordered.setdefault(i, array("d")).extend(sequence)
    if not values:
        return None
    return Statistics(tuple(sum_rows(values)), segments, ordered)


__all__ = ["Statistics", "RowMatrix", "ROWS_SUMS", "ROWS_LISTS", "ROWS_MATRIX", "concatenate_rows", "sum_rows",
           "total", "Number"]
