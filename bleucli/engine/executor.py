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
  ``fork`` where the platform has it, so the context need not be picklable),
  started on the first :meth:`Workers.map`;
* :meth:`Workers.split` (work cut into exactly one part per worker, such as
  line ranges of plain files): where ``fork`` exists, this process runs the
  first part and forked children the others, with no pool to start (about
  30 ms saved) and no process idling while the others work;
* any other executor passed in (a cluster's, for instance): the context is
  sent with every task and must be picklable.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import OptionError, WorkerError
from ..options import MAX_JOBS

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
    if jobs > MAX_JOBS:
        raise OptionError(f"the number of jobs must be at most {MAX_JOBS}, got {jobs}")
    if jobs == 0:
        try:
            jobs = len(os.sched_getaffinity(0))
        except AttributeError:  # pragma: no cover - not Linux
            jobs = os.cpu_count() or 1
    return max(1, jobs if tasks is None else min(jobs, tasks))


def _install(context: Any, parent: int | None = None) -> None:
    global _installed_context
    _as_worker(parent)
    _installed_context = context


def _as_worker(parent: int | None) -> None:  # pragma: no cover - runs in worker processes
    """A worker process's signals: Ctrl-C is the parent's to handle (it stops the workers), SIGTERM kills
    (not the parent's handler, inherited by ``fork``), and on Linux the worker dies with its parent
    (``PR_SET_PDEATHSIG``), even a parent killed by SIGKILL. Progress is the parent's to count."""
    from .progress import unwatch

    unwatch()
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if hasattr(signal, "SIGCHLD"):
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    except ValueError:  # not the main thread of the worker: nothing to change
        return
    if parent is None or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no prctl
        return
    if os.getppid() != parent:  # the parent died before prctl: nobody will read the result
        os._exit(1)


class _Children:
    """The forked children of one :meth:`Workers.split`, watched for a death by a signal (``SIGCHLD``).

    While installed (main thread only), a child killed by a signal (the OOM killer) raises
    :class:`~bleucli.errors.WorkerError` in this process at once, even while it runs its own part.
    """

    def __init__(self) -> None:
        self.running: set[int] = set()
        self.status: dict[int, int] = {}
        self._previous: Any = None
        self._installed = False

    def install(self) -> None:
        try:
            if signal.getsignal(signal.SIGCHLD) in (signal.SIG_DFL, None):
                self._previous = signal.signal(signal.SIGCHLD, self._reap)
                self._installed = True
        except (ValueError, AttributeError):  # not the main thread, or no SIGCHLD
            pass

    def uninstall(self) -> None:
        if self._installed:
            self._installed = False
            signal.signal(signal.SIGCHLD, self._previous)

    def _reap(self, number: int, frame: Any) -> None:
        for pid in sorted(self.running):
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # pragma: no cover - reaped elsewhere
                self.running.discard(pid)
                continue
            if done:
                self.running.discard(pid)
                self.status[pid] = status
                if os.WIFSIGNALED(status):
                    self.uninstall()
                    raise WorkerError.killed(os.WTERMSIG(status))

    def wait(self, pid: int) -> int:
        """The wait status of ``pid``, reaped here or by the handler."""
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = self.status.get(pid, 0)
        self.running.discard(pid)
        return self.status.setdefault(pid, status)


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
        return self

    def _start_pool(self) -> None:
        """The process pool, started when :meth:`map` first needs it (:meth:`split` does without)."""
        if self._owned is None and self._executor is None and self.workers > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            methods = multiprocessing.get_all_start_methods()
            start = multiprocessing.get_context("fork" if "fork" in methods else None)
            self._owned = ProcessPoolExecutor(self.workers, mp_context=start, initializer=_install,
                                              initargs=(self.context, os.getpid()))

    @property
    def forks(self) -> bool:
        """Whether :meth:`split` runs its parts in forked children (several workers, no executor, ``fork``)."""
        return self._executor is None and self.workers > 1 and hasattr(os, "fork")

    def split(self, task: Callable[..., Result], arguments: Sequence[tuple[Any, ...]]) -> list[Result]:
        """``task(context, *args)`` for each of ``arguments`` (one part per worker, say), results in order.

        Where :attr:`forks`, every part but the first runs in a child forked
        now (it inherits the context and everything built so far), while this
        process runs the first; each child sends back its pickled result (or
        error) through a pipe. An error is raised as :meth:`map` raises it:
        the first failed part's, once the parts before it are in. Otherwise
        this is :meth:`map`.
        """
        if not self.forks:
            return list(self.map(task, arguments))
        if len(arguments) < 2:  # nothing to fork for
            return [task(self.context, *args) for args in arguments]
        for stream in (sys.stdout, sys.stderr):  # a child must not write out what the parent buffered
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):  # pragma: no cover - closed or replaced streams
                pass
        import gc
        import pickle  # noqa: F401 - imported once here rather than in every child (it sends its result)

        children: list[tuple[int, int]] = []
        watch = _Children()
        parent = os.getpid()
        # As the gc module's documentation advises before fork() without exec(): the objects of this
        # process move to the collector's permanent generation, so that no collection, here or in a
        # child, walks them again (in a child, that would copy every page they are on).
        gc.freeze()
        try:
            watch.install()
            for args in arguments[1:]:
                read_end, write_end = os.pipe()
                pid = os.fork()
                if pid == 0:  # pragma: no cover - the child (coverage is not collected there)
                    os.close(read_end)
                    _as_worker(parent)
                    _run_child(task, self.context, args, write_end)
                os.close(write_end)
                children.append((pid, read_end))
                watch.running.add(pid)
            watch._reap(signal.SIGCHLD, None)  # one killed before the handler saw it
            results = [task(self.context, *arguments[0])]
            while children:
                pid, read_end = children[0]
                data = _read_all(read_end)  # a sibling killed meanwhile raises here (SIGCHLD), this one is still open
                children.pop(0)
                os.close(read_end)
                results.append(_child_result(data, watch.wait(pid)))
            return results
        finally:
            watch.uninstall()
            gc.unfreeze()
            for pid, read_end in children:  # left when a part failed: stop the rest
                try:
                    os.close(read_end)
                except OSError:  # pragma: no cover - closed just before the error
                    pass
                try:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                except (ProcessLookupError, ChildProcessError):  # pragma: no cover - already gone
                    pass

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._owned is not None:
            pool, self._owned = self._owned, None
            if kind is not None:  # an error, Ctrl-C, SIGTERM: the workers stop now, not after their tasks
                for process in list((getattr(pool, "_processes", None) or {}).values()):
                    try:
                        process.kill()
                    except (OSError, ValueError, AttributeError):  # pragma: no cover - already gone
                        pass
            pool.shutdown(wait=True, cancel_futures=True)

    def map(self, task: Callable[..., Result], arguments: Iterable[tuple[Any, ...]]) -> Iterator[Result]:
        """``task(context, *args)`` for each of ``arguments``, results in order.

        At most two tasks per worker are in flight, so a lazy ``arguments``
        (chunks read from a file) is consumed only as fast as results return.
        """
        self._start_pool()
        if self._owned is None and self._executor is None:
            for args in arguments:
                yield task(self.context, *args)
            return
        submit: Callable[[tuple[Any, ...]], Future[Result]]
        result: Callable[[Future[Result]], Result] = lambda future: future.result()  # noqa: E731
        if self._owned is not None:
            pool = self._owned
            submit = lambda args: pool.submit(_run_installed, task, args)  # noqa: E731
            seen: dict[int, Any] = {}  # the pool's processes, kept: a broken pool may forget them
            result = lambda future: _pool_result(pool, future, seen)  # noqa: E731
        else:
            executor, context = self._executor, self.context
            assert executor is not None
            submit = lambda args: executor.submit(_run_with, task, context, args)  # noqa: E731
        pending: deque[Future[Result]] = deque()
        for args in arguments:
            pending.append(submit(args))
            if len(pending) >= 2 * self.workers:
                yield result(pending.popleft())
        while pending:
            yield result(pending.popleft())


def _run_child(task: Callable[..., Any], context: Any, args: tuple[Any, ...],
               write_end: int) -> None:  # pragma: no cover - runs in a forked child
    """A forked child's life: run the task, send ``(True, result)`` or ``(False, error)``, exit at once.

    ``os._exit``: no ``atexit`` handlers or buffered output of the parent run twice.
    """
    import pickle

    status = 0
    try:
        try:
            payload: tuple[bool, Any] = (True, task(context, *args))
        except BaseException as error:  # noqa: BLE001 - every error goes back to the parent
            payload = (False, error)
        try:
            data = pickle.dumps(payload, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # noqa: BLE001 - an unpicklable result or error: say so
            data = pickle.dumps((False, RuntimeError(f"a worker's result cannot be sent back: {error!r}")))
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(data)
    except BaseException:  # noqa: BLE001
        status = 1
    finally:
        os._exit(status)


def _pool_result(pool: ProcessPoolExecutor, future: Future[Result], seen: dict[int, Any]) -> Result:
    """A pool task's result; a worker that died (SIGKILL: the OOM killer) is a :class:`WorkerError` naming it."""
    from concurrent.futures.process import BrokenProcessPool

    seen.update(getattr(pool, "_processes", None) or {})
    try:
        return future.result()
    except BrokenProcessPool:
        import time

        seen.update(getattr(pool, "_processes", None) or {})
        deadline = time.monotonic() + 2  # the pool's own thread may be reaping them: their codes come then
        while True:
            codes = [process.exitcode for process in list(seen.values())]
            killed = [-code for code in codes if code is not None and code < 0]
            if killed or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        # the pool terminates the others (SIGTERM) once one died: the first other signal is the cause
        first = next((number for number in killed if number != signal.SIGTERM), killed[0] if killed else None)
        if first is not None:
            raise WorkerError.killed(first) from None
        raise WorkerError("a worker process ended abruptly without a result") from None


def _read_all(descriptor: int) -> bytes:
    """Everything written to a pipe until its writer closed it (or died)."""
    parts: list[bytes] = []
    while True:
        part = os.read(descriptor, 1 << 20)
        if not part:
            return b"".join(parts)
        parts.append(part)


def _child_result(data: bytes, status: int) -> Any:
    """What a forked child sent (its result, or its error raised here), given its wait ``status``."""
    import pickle

    if not data:
        if os.WIFSIGNALED(status):
            raise WorkerError.killed(os.WTERMSIG(status))
        raise WorkerError(f"a worker process ended without a result (exit status {os.waitstatus_to_exitcode(status)})")
    ok, value = pickle.loads(data)
    if not ok:
        raise value
    return value


__all__ = ["Workers", "resolve_jobs", "CHUNK_SEGMENTS"]
