"""Per-segment statistics rows as one block of int64 per system: what the compiled metrics give resampling tests.

``-ci``, ``-pbs``, ``-par``, ``rank`` and ``compare`` draw from every segment's
statistics row. Made as a list per row and an int object per cell, those rows
cost more to build, to turn into a numpy array and to walk for the cyclic
garbage collector than the compiled BLEU and chrF take to compute them. Here
the extension fills one ``bytes`` of native int64 per system (``rows`` mode
:data:`~bleucli.metrics.compiled.ROWS_MATRIX` of ``bleu_statistics``, ``bleu_systems``,
``chrf_statistics`` and ``chrf_systems``), and :class:`RowMatrix` makes it a
read-only sequence of rows that numpy reads in place.

A module of its own, imported only where rows are made or joined, so that
runs that never keep rows (corpus scores, ``-sl``) do not load it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any


class RowMatrix:
    """Integer statistics rows of consecutive segments, as one block of native int64 (rows x ``width``).

    What the compiled BLEU and chrF give for per-segment rows: ``data`` is the
    ``bytes`` the extension filled, row after row. It is a read-only sequence of
    rows (``matrix[i]`` is a list of ints, as the pure-Python metrics' rows are),
    numpy reads it in place (``numpy.asarray(matrix)``: an int64 array sharing
    the bytes), and equal to any sequence of the same rows. Chunks are joined
    with :func:`concatenate_rows`. Pickles as its bytes (cheap between processes). Not a subclass of
    ``collections.abc.Sequence``: building an ABC costs every run's start-up more than the class itself.
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
        if dtype is not None and numpy.dtype(dtype) != matrix.dtype:
            return matrix.astype(dtype)
        return matrix.copy() if copy else matrix  # a view of the bytes (read-only) unless a copy is asked for

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


def concatenate_rows(parts: Sequence[Any]) -> Any:
    """The rows of consecutive parts (each a sequence of rows), in order: one :class:`RowMatrix` when every
    part is one (of one width), else a list of rows."""
    if len(parts) == 1:
        return parts[0]
    if parts and all(type(part) is RowMatrix for part in parts) and len({part.width for part in parts}) == 1:
        return RowMatrix(b"".join(part.data for part in parts), parts[0].width)
    return [row for part in parts for row in part]


__all__ = ["RowMatrix", "concatenate_rows"]
