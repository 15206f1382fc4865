"""Scoring any number of systems against references read in lockstep, in constant memory.

sacreBLEU reads every file into memory before scoring. Here the references
and all systems are consumed one segment at a time: each segment's reference
statistics are computed once and reused for every system, and only running
sums are kept, so memory does not grow with the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..input.sources import Streams
from ..metrics.base import Metric, Score
from ..statistics import Statistics, total
from .partition import aligned_chunks, aligned_segments, read_aligned_range, run_parts

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Executor


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
    executor: Executor | None = None,
) -> list[list[Score]]:
    """Corpus scores ``[system][metric]``, reading all streams once, one segment at a time.

    See :func:`stream_statistics`; the scores do not depend on ``jobs``.
    """
    streams = Streams(system_names, systems, reference_names, references)
    sums = stream_statistics(metrics, streams, jobs, executor)
    nrefs = len(references)
    return [[metric.score_from_statistics(per_metric[k].totals(), nrefs) for metric, per_metric in zip(metrics, sums)]
            for k in range(len(systems))]


def stream_statistics(
    metrics: Sequence[Metric[Any]], streams: Streams, jobs: int = 1, executor: Executor | None = None
) -> list[list[Statistics]]:
    """Summed :class:`Statistics` ``[metric][system]`` of whole streams, in constant memory.

    Each segment's references are prepared once for all systems and only running sums are kept. The input
    is cut as :func:`~bleucli.engine.partition.partition` decides and the parts run on
    :class:`~bleucli.engine.executor.Workers` (``jobs`` processes, or ``executor``); :class:`Statistics`
    add exactly in any grouping, so the result does not depend on the cut.
    """
    text, given = _split(metrics)
    collected: list[list[list[Statistics]]] = [[[] for _ in streams.systems] for _ in text]
    for part in run_parts([metrics[i] for i in text], streams, "sums", jobs, executor):
        for mine, theirs in zip(collected, part):
            for per_system, statistics in zip(mine, theirs):
                per_system.append(statistics)
    # not None: the input has at least one segment (empty input is an error)
    sums = [[total(per_system) for per_system in per_metric] for per_metric in collected]
    if not given:
        return sums  # type: ignore[return-value]
    counts = [s.segments for s in sums[0]] if sums else _count_segments(streams)  # type: ignore[union-attr]
    out: list[list[Statistics]] = [[] for _ in metrics]
    for position, index in enumerate(text):
        out[index] = sums[position]  # type: ignore[assignment]
    for index in given:
        out[index] = [Statistics.of_rows(rows) for rows in _given_rows(metrics[index], counts)]
    return out


def _split(metrics: Sequence[Metric[Any]]) -> tuple[list[int], list[int]]:
    """The positions of the metrics that score text, and of those whose rows are given (segment scores)."""
    given = [i for i, metric in enumerate(metrics) if callable(getattr(metric, "system_rows", None))]
    return [i for i in range(len(metrics)) if i not in given], given


def _given_rows(metric: Any, counts: Sequence[int]) -> list[list[list[Any]]]:
    """Every system's rows of a metric given as segment scores, one per hypothesis (else exit 3)."""
    metric.check_systems(len(counts))
    return [metric.system_rows(k, n) for k, n in enumerate(counts)]


def _count_segments(streams: Streams) -> list[int]:
    """Each system's number of segments, when no metric reads the text (only given segment scores)."""
    from ..metrics.base import check_stream_lengths

    systems = [list(system) for system in streams.systems]
    references = [list(stream) for stream in streams.references]
    for hypotheses in systems:
        check_stream_lengths(hypotheses, references)
    return [len(hypotheses) for hypotheses in systems]


def stream_rows(
    metrics: Sequence[Metric[Any]], streams: Streams, jobs: int = 1, executor: Executor | None = None
) -> list[list[Any]]:
    """Per-segment statistics rows ``[metric][system][segment]`` (what resampling tests need).

    The same parts and executor as :func:`stream_statistics` (plain files read by the workers themselves
    included), keeping every row instead of their sums. A system's rows are a sequence of rows: a
    :class:`~bleucli.engine.rows.RowMatrix` (one int64 block) from the compiled BLEU and chrF, else a list.
    """
    from .rows import concatenate_rows

    text, given = _split(metrics)
    parts: list[list[list[Any]]] = [[[] for _ in streams.systems] for _ in text]
    for part in run_parts([metrics[i] for i in text], streams, "rows", jobs, executor):
        for mine, theirs in zip(parts, part):
            for system_parts, more in zip(mine, theirs):
                system_parts.append(more)
    rows: list[list[Any]] = [[] for _ in metrics]
    text_rows = [[concatenate_rows(system_parts) for system_parts in per_metric] for per_metric in parts]
    for position, index in enumerate(text):
        rows[index] = text_rows[position]
    if given:
        counts = [len(system_rows) for system_rows in text_rows[0]] if text else _count_segments(streams)
        for index in given:
            rows[index] = _given_rows(metrics[index], counts)
    return rows


def sentence_scores(
    metric: Metric[Any],
    system: Iterable[str],
    references: Sequence[Iterable[str]],
    system_name: str,
    reference_names: Sequence[str],
) -> Iterator[Score]:
    """One score per segment, produced as the input is read (the CLI holds them until the last one is in)."""
    streams = Streams([system_name], [system], list(reference_names), references)
    return parallel_sentence_scores(metric, streams)


def parallel_sentence_scores(
    metric: Metric[Any], streams: Streams, jobs: int = 1, executor: Executor | None = None
) -> Iterator[Score]:
    """:func:`sentence_scores` computed by workers (``jobs`` processes or ``executor``), in input order.

    The input is cut as for :func:`stream_statistics` (plain files and an aligned file read in partitions
    by the tasks themselves when several processes work). Each segment's statistics are computed as one
    process computes them, and scored here, so every number is the same as in one process.
    """
    nrefs = len(streams.references)
    for rows in run_parts([metric], streams, "sentences", jobs, executor):
        for statistics in rows:
            yield metric.score_from_statistics(statistics, nrefs)


__all__ = ["Streams", "aligned_segments", "aligned_chunks", "read_aligned_range", "score_streams",
           "score_streams_multi", "stream_statistics", "stream_rows", "sentence_scores", "parallel_sentence_scores"]
