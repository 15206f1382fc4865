"""Sufficient statistics: what a metric computes per segment, and the one way they are summed.

Every metric here (BLEU, chrF, TER) scores a corpus from the element-wise sum
of per-segment statistics vectors, as sacreBLEU does (its ``sum_of_lists``:
each column summed left to right from 0). So a corpus can be cut into chunks
anywhere, each chunk scored on its own (in a worker process, or later on
another machine) and the parts added up: :class:`Statistics` is that part,
and :func:`sum_rows` is the only place where statistics are added.

For BLEU and chrF the statistics are integers and any grouping of the sum is
exact. TER's second statistic (an average reference length) is a float, so
chunk sums grouped differently can differ from sacreBLEU's in the last bit;
see the notes in ``docs/architecture.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import InputError

#: A statistic: an int for BLEU and chrF; TER's average reference length is a float;
#: resampling tests hand numpy scalars to the metrics.
Number = int | float | Any


def sum_rows(rows: Iterable[Sequence[Number]]) -> list[Number]:
    """Element-wise sum of statistics rows, each column left to right from 0 (sacreBLEU's order).

    Raises :class:`InputError` when there is no row: a corpus without
    segments has no score.
    """
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        raise InputError("nothing to score: the corpus has no segments")
    return list(map(sum, zip(*rows)))


class Statistics:
    """The summed statistics of one system under one metric over ``segments`` segments.

    This is what a chunk of work returns and what a shard would hold: adding
    two of them gives the statistics of both parts. Immutable by convention
    (a plain class: a frozen dataclass would cost more at import than the
    whole class is worth).
    """

    __slots__ = ("values", "segments")

    def __init__(self, values: tuple[Number, ...], segments: int) -> None:
        self.values = values
        self.segments = segments

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Statistics):
            return NotImplemented
        return self.values == other.values and self.segments == other.segments

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Statistics(values={self.values!r}, segments={self.segments})"

    @classmethod
    def of_rows(cls, rows: Sequence[Sequence[Number]]) -> Statistics:
        """The statistics of the segments whose per-segment rows are given."""
        return cls(tuple(sum_rows(rows)), len(rows))

    def __add__(self, other: Statistics) -> Statistics:
        if not isinstance(other, Statistics):
            return NotImplemented
        if len(other.values) != len(self.values):
            raise ValueError(f"cannot add statistics of {len(self.values)} and {len(other.values)} values")
        return Statistics(tuple(sum_rows([self.values, other.values])), self.segments + other.segments)


def total(parts: Iterable[Statistics | None]) -> Statistics | None:
    """The sum of the parts in order (``None`` entries stand for "nothing yet" and are skipped)."""
    result: Statistics | None = None
    for part in parts:
        if part is not None:
            result = part if result is None else result + part
    return result


__all__ = ["Statistics", "sum_rows", "total", "Number"]
