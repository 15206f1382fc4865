"""Scoring any number of systems against references read in lockstep, in constant memory.

sacreBLEU reads every file into memory before scoring. Here the references
and all systems are consumed one segment at a time: each segment's reference
statistics are computed once and reused for every system, and only running
sums are kept, so memory does not grow with the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat, zip_longest
from operator import is_
from typing import Any

from .errors import InputError, LengthMismatchError
from .metrics.base import CHUNK_SEGMENTS, Metric, Score, _chunks

_END = object()


def aligned_segments(
    systems: Sequence[Iterable[str]],
    references: Sequence[Iterable[str]],
    system_names: Sequence[str],
    reference_names: Sequence[str],
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """``(hypotheses, references)`` of each segment; unequal or empty streams are errors."""
    iterators = [iter(s) for s in systems] + [iter(r) for r in references]
    names = [*system_names, *reference_names]
    n_systems = len(systems)
    count = 0
    for row in zip_longest(*iterators, fillvalue=_END):
        if any(map(is_, row, repeat(_END))):
            _length_error(row, count, iterators, names, n_systems)
        count += 1
        yield row[:n_systems], row[n_systems:]
    if count == 0:
        raise InputError(f"is empty (and so is {reference_names[0]})", system_names[0])


def score_streams(
    metric: Metric[Any],
    systems: Sequence[Iterable[str]],
    references: Sequence[Iterable[str]],
    system_names: Sequence[str],
    reference_names: Sequence[str],
    jobs: int = 1,
) -> list[Score]:
    """Corpus scores of every system under one metric (see :func:`score_streams_multi`)."""
    scores = score_streams_multi([metric], systems, references, system_names, reference_names, jobs)
    return [row[0] for row in scores]


def score_streams_multi(
    metrics: Sequence[Metric[Any]],
    systems: Sequence[Iterable[str]],
    references: Sequence[Iterable[str]],
    system_names: Sequence[str],
    reference_names: Sequence[str],
    jobs: int = 1,
) -> list[list[Score]]:
    """Corpus scores ``[system][metric]``, reading all streams once, one segment at a time.

    Each segment's references are prepared once for all systems and only
    running sums are kept, so memory does not grow with the corpus. With
    ``jobs`` > 1 (0: one per CPU), chunks of segments are scored in worker
    processes and their sums added up; the statistics are integers, so the
    result is identical for every ``jobs``.
    """
    observed: list[Iterable[str]] = list(systems)
    for metric in metrics:
        observed = [metric._observe(s) for s in observed]
    segments = aligned_segments(observed, references, system_names, reference_names)
    workers = resolve_jobs(jobs)
    if workers == 1:
        sums = _sum_segments(metrics, segments, len(systems))
    else:
        from .parallel import sum_in_workers

        sums = sum_in_workers(metrics, segments, len(systems), workers, _sum_segments, _add_metric_sums)
    for metric in metrics:
        metric.expect_references(len(references))
    return [[metric.score_from_statistics(per_metric[k]) for metric, per_metric in zip(metrics, sums)]  # type: ignore[arg-type]
            for k in range(len(systems))]


def resolve_jobs(jobs: int) -> int:
    """``0`` means one worker per CPU; negative values are an error."""
    if jobs < 0:
        from .errors import OptionError

        raise OptionError(f"--jobs must be 0 (all CPUs) or a positive number, got {jobs}")
    if jobs == 0:
        import os

        return os.cpu_count() or 1
    return jobs


def _sum_segments(
    metrics: Sequence[Metric[Any]], segments: Iterable[tuple[tuple[str, ...], tuple[str, ...]]], n_systems: int
) -> list[list[list[Any] | None]]:
    """Summed statistics ``[metric][system]`` of the given segments."""
    sums: list[list[list[Any] | None]] = [[None] * n_systems for _ in metrics]
    for chunk in _chunks(segments, CHUNK_SEGMENTS):
        systems = [list(column) for column in zip(*(hyps for hyps, _ in chunk))]
        refs = [refs for _, refs in chunk]
        sums = [add_sums(total, metric.chunk_statistics(systems, refs))  # type: ignore[arg-type]
                for total, metric in zip(sums, metrics)]
    return sums


def _add_metric_sums(left: list[Any], right: list[Any]) -> list[Any]:
    return [add_sums(a, b) for a, b in zip(left, right)]


def add_sums(left: list[list[Any] | None], right: list[list[Any] | None]) -> list[list[Any] | None]:
    """Element-wise sum of two per-system lists of statistics (``None``: nothing yet)."""
    return [b if a is None else a if b is None else [x + y for x, y in zip(a, b)] for a, b in zip(left, right)]


def sentence_scores(
    metric: Metric[Any],
    system: Iterable[str],
    references: Sequence[Iterable[str]],
    system_name: str,
    reference_names: Sequence[str],
) -> Iterator[Score]:
    """One score per segment, produced as the input is read (so ``| head`` stops early)."""
    metric.expect_references(len(references))
    for (hyp,), refs in aligned_segments([system], references, [system_name], reference_names):
        yield metric.score_from_statistics(metric.single_use_statistics(hyp, refs))


def _length_error(row: tuple, done: int, iterators: list[Iterator[str]], names: Sequence[str], n_systems: int) -> None:
    """Count what is left of every stream so the message can give full line counts."""
    counts = [done + (0 if item is _END else 1 + sum(1 for _ in it)) for item, it in zip(row, iterators)]
    reference_count = counts[n_systems]
    reference_name = names[n_systems]
    for name, lines in zip(names, counts):
        if lines != reference_count:
            if lines == 0:
                raise InputError(f"is empty, but reference {reference_name} has {reference_count} lines", name)
            kind = "hypothesis" if names.index(name) < n_systems else "reference"
            raise LengthMismatchError(
                f"{kind} {name} has {lines} lines but reference {reference_name} has {reference_count}"
            )
    raise AssertionError("streams of equal length reported as different")  # pragma: no cover
