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

Per-segment rows of the compiled BLEU and chrF come as a
:class:`bleucli.engine.rows.RowMatrix` (one block of int64 per system), which
:func:`sum_rows` and :meth:`Statistics.of_rows` sum in place.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from functools import reduce
from operator import add
from typing import Any

from .errors import InputError

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
    column_sums = getattr(rows, "column_sums", None)  # a RowMatrix (bleucli.engine.rows): summed in place
    if column_sums is not None:
        if not len(rows):  # type: ignore[arg-type]
            raise InputError("nothing to score: the corpus has no segments")
        return list(column_sums())
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
        if hasattr(rows, "column_sums"):  # a RowMatrix: integers only, no float column to keep
            return cls(tuple(sum_rows(rows)), len(rows))
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


__all__ = ["Statistics", "sum_rows", "total", "Number"]
