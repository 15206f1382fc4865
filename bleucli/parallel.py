"""Spreading segment scoring over worker processes, with bounded memory.

When every input is a plain file, workers read their own line ranges of it
(:func:`sum_ranges_in_workers`; the parent only counts lines). Otherwise
(stdin, gzip, tab-separated columns) segments are read by the parent, cut
into chunks and sent to the workers (:func:`sum_in_workers`). Either way at
most two tasks per worker are in flight, so memory stays constant however
long the corpus is, and workers receive the metrics once, when they start
(inherited through ``fork`` where the platform has it).
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from .metrics.base import _chunks

CHUNK_SEGMENTS = 2000  # segments per task sent to a worker

_worker_metric: Any = None
_worker_sum: Callable[..., Any] | None = None


def _start_worker(metric: Any, summer: Callable[..., Any]) -> None:
    global _worker_metric, _worker_sum
    _worker_metric, _worker_sum = metric, summer


def _sum_chunk(chunk: list[Any], n_systems: int) -> Any:
    assert _worker_sum is not None
    return _worker_sum(_worker_metric, chunk, n_systems)


def _results_in_order(
    metric: Any, summer: Callable[..., Any], workers: int, task: Callable[..., Any], arguments: Iterable[tuple]
) -> Iterator[Any]:
    """``task(*args)`` for each of ``arguments`` in worker processes, results in order.

    At most two tasks per worker are in flight, so memory stays bounded
    whatever the number of tasks.
    """
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                             initargs=(metric, summer)) as pool:
        pending: deque[Future[Any]] = deque()
        for args in arguments:
            pending.append(pool.submit(task, *args))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def sum_in_workers(
    metric: Any,
    segments: Iterable[Any],
    n_systems: int,
    workers: int,
    summer: Callable[[Any, Iterable[Any], int], Any],
    add: Callable[[Any, Any], Any],
) -> Any:
    """``summer(metric, segments, n_systems)`` computed chunk by chunk in ``workers`` processes."""
    total: Any = None
    chunks = ((chunk, n_systems) for chunk in _chunks(segments, CHUNK_SEGMENTS))
    for part in _results_in_order(metric, summer, workers, _sum_chunk, chunks):
        total = _combine(add, total, part)
    return total if total is not None else summer(metric, [], n_systems)


def _sum_ranges(ranges: list[Any], n_systems: int, encoding: str) -> tuple[Any, list[list[int]]]:
    from .file_ranges import read_range

    assert _worker_sum is not None
    columns = [read_range(line_range, encoding) for line_range in ranges]
    systems = columns[:n_systems]
    suspicious = [[metric.count_suspicious(hyps) for hyps in systems] for metric in _worker_metric]
    segments = zip(zip(*systems), zip(*columns[n_systems:]))
    return _worker_sum(_worker_metric, segments, n_systems), suspicious


def sum_ranges_in_workers(
    metrics: Any,
    tasks: Iterable[list[Any]],
    n_systems: int,
    workers: int,
    encoding: str,
    summer: Callable[[Any, Iterable[Any], int], Any],
    add: Callable[[Any, Any], Any],
) -> tuple[Any, list[list[int]]]:
    """Sums over line ranges that the workers read themselves, and each metric's suspicious counts per system.

    ``tasks`` holds, per task, the aligned :class:`~bleucli.file_ranges.LineRange`
    of every system file and then of every reference file.
    """
    total: Any = None
    suspicious = [[0] * n_systems for _ in metrics]
    arguments = ((ranges, n_systems, encoding) for ranges in tasks)
    for part, counts in _results_in_order(metrics, summer, workers, _sum_ranges, arguments):
        total = _combine(add, total, part)
        for per_metric, more in zip(suspicious, counts):
            per_metric[:] = [a + b for a, b in zip(per_metric, more)]
    return (total if total is not None else summer(metrics, [], n_systems)), suspicious


def _combine(add: Callable[[Any, Any], Any], total: Any, part: Any) -> Any:
    return part if total is None else add(total, part)
