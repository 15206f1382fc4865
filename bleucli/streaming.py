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
from .reading import FileLines, bom_notice

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
    workers = resolve_jobs(jobs)
    if workers > 1 and _plain_files([*systems, *references]):
        sums = _sum_files_in_workers(metrics, systems, references, system_names, reference_names, workers)  # type: ignore[arg-type]
    else:
        observed: list[Iterable[str]] = list(systems)
        for metric in metrics:
            observed = [metric._observe(s) for s in observed]
        segments = aligned_segments(observed, references, system_names, reference_names)
        if workers == 1:
            sums = _sum_segments(metrics, segments, len(systems))
        else:
            from .parallel import sum_in_workers

            sums = sum_in_workers(metrics, segments, len(systems), workers, _sum_segments, _add_metric_sums)
    for metric in metrics:
        metric.expect_references(len(references))
    return [[metric.score_from_statistics(per_metric[k]) for metric, per_metric in zip(metrics, sums)]  # type: ignore[arg-type]
            for k in range(len(systems))]


#: Lines per range when workers read files themselves (a task takes one or more ranges).
RANGE_LINES = 1000
MAX_TASK_LINES = 20_000


def _plain_files(streams: Sequence[Iterable[str]]) -> bool:
    """Whether every stream is a file that workers can read ranges of, all in one encoding."""
    return (all(isinstance(s, FileLines) and s.seekable() for s in streams)
            and len({s.encoding for s in streams}) == 1)  # type: ignore[union-attr]


def _sum_files_in_workers(
    metrics: Sequence[Metric[Any]],
    systems: Sequence[FileLines],
    references: Sequence[FileLines],
    system_names: Sequence[str],
    reference_names: Sequence[str],
    workers: int,
) -> list[list[list[Any] | None]]:
    """:func:`_sum_segments` over whole files, each worker reading its own line ranges.

    The parent counts lines first, so unequal lengths and empty inputs are
    reported before any scoring, with the same messages as when streaming.
    """
    from .file_ranges import aligned_ranges, index_lines
    from .parallel import sum_ranges_in_workers

    files = [*systems, *references]
    indexes = [index_lines(f.path, RANGE_LINES) for f in files]
    counts = [index.lines for index in indexes]
    n_systems = len(systems)
    if len(set(counts)) > 1:
        _report_lengths(counts, [*system_names, *reference_names], n_systems)
    if counts[0] == 0:
        raise InputError(f"is empty (and so is {reference_names[0]})", system_names[0])
    for source, index in zip(files, indexes):
        if index.has_bom and source.notices is not None:
            source.notices.append(bom_notice(source.path))
    steps_per_task = max(1, min(MAX_TASK_LINES, counts[0] // (8 * workers)) // RANGE_LINES)
    tasks = aligned_ranges(indexes, steps_per_task)
    sums, suspicious = sum_ranges_in_workers(metrics, tasks, n_systems, workers, files[0].encoding,
                                             _sum_segments, _add_metric_sums)
    for metric, per_system in zip(metrics, suspicious):
        for count in per_system:
            metric.report_suspicious(count)
    return sums  # type: ignore[no-any-return]


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
    _report_lengths(counts, names, n_systems)


def _report_lengths(counts: Sequence[int], names: Sequence[str], n_systems: int) -> None:
    """Raise the error for streams of unequal length (the first reference is the yardstick)."""
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
