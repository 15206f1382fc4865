"""Spreading segment scoring over worker processes, with bounded memory.

Segments are read by the parent (so input errors and warnings stay in one
place), cut into chunks and summed by workers; at most two chunks per worker
are in flight, so memory stays constant however long the corpus is. Workers
receive the metric once, when they start (inherited through ``fork`` where
the platform has it).
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


def sum_in_workers(
    metric: Any,
    segments: Iterable[Any],
    n_systems: int,
    workers: int,
    summer: Callable[[Any, Iterable[Any], int], Any],
    add: Callable[[Any, Any], Any],
) -> Any:
    """``summer(metric, segments, n_systems)`` computed chunk by chunk in ``workers`` processes."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    total: Any = None
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                             initargs=(metric, summer)) as pool:
        pending: deque[Future[Any]] = deque()
        for chunk in _chunks(segments, CHUNK_SEGMENTS):
            pending.append(pool.submit(_sum_chunk, chunk, n_systems))
            if len(pending) >= 2 * workers:
                total = _combine(add, total, pending.popleft().result())
        while pending:
            total = _combine(add, total, pending.popleft().result())
    return total if total is not None else summer(metric, [], n_systems)


def _combine(add: Callable[[Any, Any], Any], total: Any, part: Any) -> Any:
    return part if total is None else add(total, part)
