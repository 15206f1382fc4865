"""Where work runs: the one place that spreads chunks of scoring over processes.

Plain scoring, ``--jobs`` on plain files, significance tests and resampled
scoring all go through :class:`Workers`: a task is ``task(context, *args)``,
where ``context`` (the metrics, or the matrices to score) reaches each worker
once and the arguments (a chunk of segments, a line range, an index) travel
with each task. Results come back in submission order, with at most two tasks
per worker in flight, so memory stays flat however long the corpus is.

The backend is a :class:`concurrent.futures.Executor`:

* ``jobs == 1`` (the default): no executor, tasks run in this process;
* ``jobs > 1``: a :class:`~concurrent.futures.ProcessPoolExecutor` whose
  workers receive the context through their initializer (inherited by
  ``fork`` where the platform has it, so the context need not be picklable);
* any other executor passed in (a cluster's, for instance): the context is
  sent with every task and must be picklable.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import OptionError

if TYPE_CHECKING:  # pragma: no cover - imported when a pool is started (keeps start-up light)
    from concurrent.futures import Executor, Future, ProcessPoolExecutor

#: Segments per task (one chunk: big enough to amortise sending it, small enough to bound memory).
CHUNK_SEGMENTS = 2000

Result = TypeVar("Result")
Task = Callable[..., Result]

#: The context of the tasks run in this worker process (set by the pool's initializer).
_installed_context: Any = None


def resolve_jobs(jobs: int, tasks: int | None = None) -> int:
    """Worker processes to use: ``0`` means one per CPU this process may run on; never more than ``tasks``."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise OptionError(f"the number of jobs must be 0 (all CPUs) or a positive integer, got {jobs!r}")
    if jobs == 0:
        try:
            jobs = len(os.sched_getaffinity(0))
        except AttributeError:  # pragma: no cover - not Linux
            jobs = os.cpu_count() or 1
    return max(1, jobs if tasks is None else min(jobs, tasks))


def _install(context: Any) -> None:
    global _installed_context
    _installed_context = context


def _run_installed(task: Callable[..., Any], arguments: tuple[Any, ...]) -> Any:
    return task(_installed_context, *arguments)


def _run_with(task: Callable[..., Any], context: Any, arguments: tuple[Any, ...]) -> Any:
    return task(context, *arguments)


class Workers:
    """Runs ``task(context, *args)`` for many ``args``, in order, on the chosen backend.

    Use as a context manager; a process pool is started on entry only when
    ``jobs`` (resolved by :func:`resolve_jobs`, capped by ``tasks``) is above 1.
    """

    def __init__(self, context: Any, jobs: int = 1, tasks: int | None = None,
                 executor: Executor | None = None) -> None:
        self.context = context
        self.workers = resolve_jobs(jobs, tasks) if executor is None else max(1, jobs)
        self._executor = executor
        self._owned: ProcessPoolExecutor | None = None

    @property
    def parallel(self) -> bool:
        """Whether tasks run outside this process."""
        return self._executor is not None or self.workers > 1

    def __enter__(self) -> Workers:
        if self._executor is None and self.workers > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            methods = multiprocessing.get_all_start_methods()
            start = multiprocessing.get_context("fork" if "fork" in methods else None)
            self._owned = ProcessPoolExecutor(self.workers, mp_context=start, initializer=_install,
                                              initargs=(self.context,))
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._owned is not None:
            self._owned.shutdown(wait=True, cancel_futures=True)
            self._owned = None

    def map(self, task: Callable[..., Result], arguments: Iterable[tuple[Any, ...]]) -> Iterator[Result]:
        """``task(context, *args)`` for each of ``arguments``, results in order.

        At most two tasks per worker are in flight, so a lazy ``arguments``
        (chunks read from a file) is consumed only as fast as results return.
        """
        if self._owned is None and self._executor is None:
            for args in arguments:
                yield task(self.context, *args)
            return
        submit: Callable[[tuple[Any, ...]], Future[Result]]
        if self._owned is not None:
            pool = self._owned
            submit = lambda args: pool.submit(_run_installed, task, args)  # noqa: E731
        else:
            executor, context = self._executor, self.context
            assert executor is not None
            submit = lambda args: executor.submit(_run_with, task, context, args)  # noqa: E731
        pending: deque[Future[Result]] = deque()
        for args in arguments:
            pending.append(submit(args))
            if len(pending) >= 2 * self.workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


@contextmanager
def dask_executor(address: str) -> Iterator[tuple[Executor, int]]:
    """A Dask cluster as an executor, and its number of worker threads (for the tasks in flight).

    ``address`` is ``local:N`` (a ``LocalCluster`` of N single-threaded worker
    processes, started and stopped here) or a scheduler address such as
    ``tcp://127.0.0.1:8786``. Needs the ``dask`` extra (``pip install 'bleucli[dask]'``).
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise OptionError("--dask needs Dask: pip install 'bleucli[dask]'") from None
    cluster = None
    if address.startswith("local:"):
        count = address.split(":", 1)[1]
        if not count.isdigit() or int(count) < 1:
            raise OptionError(f"--dask local:N needs a number of workers >= 1, got '{address}'")
        cluster = LocalCluster(n_workers=int(count), threads_per_worker=1, processes=True,
                               dashboard_address=None, host="127.0.0.1")
        target: Any = cluster
    elif "://" in address:
        target = address
    else:
        raise OptionError(f"--dask takes local:N or a scheduler address like tcp://HOST:PORT, got '{address}'")
    try:
        client = Client(target, timeout=30, set_as_default=False)
    except OSError as error:
        if cluster is not None:
            cluster.close()
        raise OptionError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        threads = sum(client.nthreads().values()) or 1
        yield client.get_executor(), threads
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


__all__ = ["Workers", "resolve_jobs", "CHUNK_SEGMENTS", "dask_executor"]
