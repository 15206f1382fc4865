"""A seeded bootstrap run by the C extension from the draws to the p-values, without numpy.

Importing numpy costs about 0.1 s of CPU, a third of a ``-pbs`` run over 8
systems with BLEU and chrF. The numbers a seeded bootstrap needs are simple
enough to compute without it, bit for bit as the numpy path computes them
(which stays the reference, and the path whenever anything here says no):

* the draws: numpy's ``default_rng(seed)`` stream, made and counted by the
  extension's ``count_seeded_draws`` from the state :mod:`.pcg64` computes
  (:func:`seeded_count_buffer`; the counts are kept for the next call of the
  run, whichever path uses them);
* the float32 sums: ``resample_sums``, exact integers in any order (else
  numpy's path sums them);
* the scores: the metric's :meth:`~bleucli.metrics.base.Metric.resampled_scores_in_c`;
* the mean and CI, and the p-values: ``bootstrap_interval`` and
  ``bootstrap_p_value``, with numpy's pairwise summation, sort and
  float32 comparisons.

Buffers are ``bytearray``\\ s seen through ``memoryview``\\ s; scores and deltas
are ``array.array``\\ s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.rows import RowMatrix
from ..metrics.compiled import compiled_matcher
from .pcg64 import pcg64_state

if TYPE_CHECKING:  # pragma: no cover - loaded where first used: -par never needs the module
    from array import array

#: numpy major versions whose ``Generator.integers`` stream the C draws reproduce (PCG64 and Lemire's
#: bounded integers; seen equal with numpy 1.26.4, 2.0.2 and 2.4.6, and tests/test_seeded_draws.py
#: checks it against the installed numpy).
#: numpy does not promise that stream across versions, so a later one is left to draw itself.
C_STREAM_NUMPY_MAJORS = (1, 2)
#: The C stream takes PCG64's 128-bit state and increment as two 64-bit halves each.
_MASK64 = 2**64 - 1
#: Seeded resample counts are kept for the next call up to this many elements (float32: 4 bytes each).
COUNTS_CACHE_ELEMENTS = 8_000_000
#: (seed, segments, resamples) -> the counts (float32, resamples x segments), at most one entry
counts_cache: dict[tuple[int, int, int], bytearray] = {}


def c_draws_match(version: str | None) -> bool:
    """Whether the C extension's seeded draws are numpy ``version``'s stream (else numpy draws)."""
    major = (version or "").split(".", 1)[0]
    return major.isdigit() and int(major) in C_STREAM_NUMPY_MAJORS


def float32_view(buffer: bytearray, rows: int, columns: int) -> Any:
    """``buffer`` as a float32 matrix (rows x columns) the extension reads and writes."""
    return memoryview(buffer).cast("f", (rows, columns))


def keep_counts(key: tuple[int, int, int], buffer: bytearray) -> None:
    """Keep the counts of ``key`` for the next call of the run (the last ones only, if small enough)."""
    counts_cache.clear()
    if len(buffer) // 4 <= COUNTS_CACHE_ELEMENTS:
        counts_cache[key] = buffer


def seeded_count_buffer(seed: int, n_seg: int, n_samples: int) -> bytearray | None:
    """How often each segment is drawn in each seeded resample (float32 bytes, resamples x segments).

    The kept counts of the same draws if any, else the extension's draws; None when the extension
    cannot make numpy's stream here (then numpy draws, and its counts are kept with :func:`keep_counts`).
    """
    key = (seed, n_seg, n_samples)
    cached = counts_cache.get(key)
    if cached is not None:
        return cached
    from ..metrics.resampled import numpy_version  # here: -par never needs it

    compiled = compiled_matcher()
    if compiled is None or not hasattr(compiled, "count_seeded_draws") or not c_draws_match(numpy_version()):
        return None
    buffer = bytearray(4 * n_samples * n_seg)
    state, inc = pcg64_state(seed)
    compiled.count_seeded_draws(state >> 64, state & _MASK64, inc >> 64, inc & _MASK64,
                                float32_view(buffer, n_samples, n_seg))
    keep_counts(key, buffer)
    return buffer


def row_views(stats: Sequence[Any]) -> list[memoryview] | None:
    """Each system's rows as an int64 matrix view, when all are non-empty and of one shape: the
    compiled metrics' :class:`RowMatrix` es, read in place, or lists of rows of ints (the pure-Python
    metrics' rows), packed. Else None, and numpy reads (and checks) them."""
    if not stats:
        return None
    packed = [_int64_rows(rows) for rows in stats]
    if any(part is None for part in packed):
        return None
    shape = packed[0][1:]  # type: ignore[index]
    if shape[0] == 0 or any(part[1:] != shape for part in packed):  # type: ignore[index]
        return None
    return [memoryview(part[0]).cast("B").cast("q", shape) for part in packed]  # type: ignore[index]


def _int64_rows(rows: Any) -> tuple[Any, int, int] | None:
    """``(int64 buffer, rows, width)`` of a RowMatrix or a list of equally long lists of ints, else None."""
    if type(rows) is RowMatrix:
        return rows.data, len(rows), rows.width
    if type(rows) is not list or not rows or any(type(row) is not list for row in rows):
        return None
    width = len(rows[0])
    if width == 0 or any(len(row) != width for row in rows):
        return None
    from array import array

    try:  # ints only: a float, a huge int or anything else leaves the rows to numpy
        data = array("q", [value if type(value) is int else _not_an_int() for row in rows for value in row])
    except (TypeError, OverflowError):
        return None
    return data, len(rows), width


def _not_an_int() -> int:
    raise TypeError("not an int")


def available() -> bool:
    """Whether the extension here has the functions of this path (else numpy's path runs at once)."""
    compiled = compiled_matcher()
    return compiled is not None and hasattr(compiled, "resample_sums")


def column_sums(view: memoryview) -> list[int] | None:
    """Each column's exact sum of an int64 matrix view (the corpus totals), or None beyond int64."""
    compiled = compiled_matcher()
    return None if compiled is None else compiled.column_sums(view)


def seeded_sums(views: Sequence[memoryview], seed: int, n_samples: int) -> Any:
    """The float32 sums of every matrix's rows in each seeded resample, side by side (resamples x
    widths), or None (no C draws here, or sums that are not exact float32 integers)."""
    compiled = compiled_matcher()
    if compiled is None or not hasattr(compiled, "resample_sums"):
        return None
    n_seg = views[0].shape[0]  # type: ignore[index]
    if n_samples * n_seg > COUNTS_CACHE_ELEMENTS:
        return None  # numpy's path streams the draws of big corpora in blocks
    counts = seeded_count_buffer(seed, n_seg, n_samples)
    if counts is None:
        return None
    width = 0
    for view in views:
        width += view.shape[1]  # type: ignore[index]
    sums = float32_view(bytearray(4 * n_samples * width), n_samples, width)
    if not compiled.resample_sums(float32_view(counts, n_samples, n_seg), views, sums):
        return None
    return sums


def interval(scores: array) -> tuple[float, float] | None:
    """numpy's ``(mean, half-width of the 95% CI)`` of the sorted scores (``_estimate``), or None."""
    compiled = compiled_matcher()
    return None if compiled is None else compiled.bootstrap_interval(scores)


def p_value(system: array, baseline: array, observed: float) -> tuple[float, array] | None:
    """``(p-value, deltas)`` of a system against the baseline on the same resamples, or None.

    The deltas are ``system - baseline``; the p-value is ``(c + 1) / (N + 1)``, c counting the
    resamples whose centred |delta| exceeds ``observed``.
    """
    from array import array

    compiled = compiled_matcher()
    if compiled is None:
        return None
    deltas = array(system.typecode, bytes(len(system) * system.itemsize))
    count = compiled.bootstrap_p_value(system, baseline, observed, deltas)
    if count is None:
        return None
    return (count + 1) / (len(system) + 1), deltas


__all__ = ["available", "c_draws_match", "column_sums", "interval", "keep_counts", "p_value", "row_views",
           "seeded_count_buffer", "seeded_sums"]
