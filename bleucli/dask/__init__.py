"""The Dask wing: scoring on a Dask cluster (``--dask local:N`` or a scheduler address).

The engine runs its tasks on any :class:`concurrent.futures.Executor` it is
given (:func:`bleucli.engine.pipeline.run`'s ``executor``); this wing makes one
from a Dask cluster, so nothing in the core knows Dask. The commands that take
``--dask`` (``score``, ``stats``) open it with :func:`dask_executor` around the
run. Needs the ``dask`` extra.

Failures are bleucli's one-line errors: a scheduler that cannot be reached
within :data:`CONNECT_TIMEOUT` seconds, or that is lost during the run, is a
:class:`~bleucli.errors.ClusterError` (exit 4); an error raised by a task on a
worker (bad data) reaches the caller as it would without Dask. Distributed's
own log lines are silenced (in this process, and in the worker processes of
``local:N``), and ``local:N``'s workers leave Ctrl-C to
this process.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import ClusterError, OptionError, install_hint

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Executor

#: Seconds to reach the scheduler of ``--dask ADDRESS`` (and to start ``local:N``'s) before exit 4.
CONNECT_TIMEOUT = 5


@contextmanager
def _quiet_distributed() -> Iterator[None]:
    """Distributed's log lines silenced: in this process (every ``distributed`` logger, some of which have a
    level of their own, for the rest of the process: its event loop may still log once the cluster is closed,
    such as a lost scheduler's reconnection), and in worker processes started meanwhile
    (``DASK_LOGGING__DISTRIBUTED``, read by Dask's configuration when they start)."""
    names = [name for name in list(logging.root.manager.loggerDict) if name.split(".")[0] == "distributed"]
    for name in {"distributed", *names}:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    variable = os.environ.get("DASK_LOGGING__DISTRIBUTED")
    os.environ["DASK_LOGGING__DISTRIBUTED"] = "critical"
    try:
        yield
    finally:
        if variable is None:
            os.environ.pop("DASK_LOGGING__DISTRIBUTED", None)
        else:  # pragma: no cover - set by the caller
            os.environ["DASK_LOGGING__DISTRIBUTED"] = variable


#: The sentinel of a cluster's start: SIGINT at its default (a Ctrl-C ends it, as a signal), it says so
#: (one byte), then waits for the end of its stdin, which this process closes once the cluster is up (or dies).
_SENTINEL = "import os, signal; signal.signal(signal.SIGINT, signal.SIG_DFL); os.write(1, b'.'); os.read(0, 1)"


class _Interrupted:
    """Whether a Ctrl-C came while SIGINT was ignored (:func:`_without_sigint`)."""

    came = False


@contextmanager
def _without_sigint() -> Iterator[_Interrupted]:
    """SIGINT ignored while ``local:N``'s worker processes are started: they inherit it, so Ctrl-C in a
    terminal (sent to the whole process group) reaches this process alone, which closes the cluster.

    A Ctrl-C in those seconds is not lost: a sentinel process in the same process group, with SIGINT at
    its default, dies of it; the ``came`` of what this yields then says so (the caller closes the cluster
    and raises :class:`KeyboardInterrupt`). The sentinel is ready before SIGINT is ignored here, so no
    moment is left in which a Ctrl-C reaches neither. (Blocking SIGINT instead is no way: the workers
    inherit the mask, and one that unblocks it prints a KeyboardInterrupt traceback.)
    """
    interrupted = _Interrupted()
    if threading.current_thread() is not threading.main_thread():
        yield interrupted
        return
    import subprocess
    import sys

    try:
        sentinel = subprocess.Popen([sys.executable, "-S", "-E", "-c", _SENTINEL], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:  # pragma: no cover - no process to spare: a Ctrl-C while starting is lost, as it was
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            yield interrupted
        finally:
            signal.signal(signal.SIGINT, previous)
        return
    try:
        assert sentinel.stdout is not None
        sentinel.stdout.read(1)  # ready (a Ctrl-C until now is this process's KeyboardInterrupt)
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except BaseException:
        sentinel.kill()
        sentinel.wait()
        raise
    try:
        yield interrupted
    finally:
        signal.signal(signal.SIGINT, previous)
        interrupted.came = _sentinel_died_of_sigint(sentinel)


def _sentinel_died_of_sigint(sentinel: Any) -> bool:
    """End the sentinel (its stdin closed) and tell whether SIGINT had ended it first."""
    import subprocess

    for pipe in (sentinel.stdin, sentinel.stdout):
        try:
            pipe.close()
        except OSError:  # pragma: no cover - it is gone already
            pass
    try:
        code = sentinel.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process holding its stdin open
        sentinel.kill()
        code = sentinel.wait()
    return bool(code == -signal.SIGINT)


def _local_cluster(address: str) -> Any:
    from distributed import LocalCluster

    from ..options import MAX_JOBS

    count = address.split(":", 1)[1]
    if not count.isdigit() or int(count) < 1:
        raise OptionError(f"--dask local:N needs a number of workers >= 1, got '{address}'")
    if int(count) > MAX_JOBS:  # as -j: local:10**20 started processes until killed
        raise OptionError(f"--dask local:N takes at most {MAX_JOBS} workers, got '{address}'")
    with _without_sigint() as interrupted:
        cluster = LocalCluster(n_workers=int(count), threads_per_worker=1, processes=True,
                               dashboard_address=None, host="127.0.0.1")
    if interrupted.came:  # a Ctrl-C while the cluster started
        cluster.close()
        raise KeyboardInterrupt
    return cluster


@contextmanager
def dask_executor(address: str) -> Iterator[tuple[Executor, int]]:
    """A Dask cluster as an executor, and its number of worker threads (for the tasks in flight).

    ``address`` is ``local:N`` (a ``LocalCluster`` of N single-threaded worker
    processes, started and stopped here) or a scheduler address such as
    ``tcp://127.0.0.1:8786``. Needs the ``dask`` extra (:func:`bleucli.errors.install_hint`).
    """
    try:
        from distributed import Client
    except ImportError:
        raise OptionError(f"--dask needs Dask: {install_hint('dask')}") from None
    if not address.startswith("local:") and "://" not in address:
        raise OptionError(f"--dask takes local:N or a scheduler address like tcp://HOST:PORT, got '{address}'")
    with _quiet_distributed():
        cluster = _local_cluster(address) if address.startswith("local:") else None
        target: Any = cluster if cluster is not None else address
        try:
            client = Client(target, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except ValueError as error:  # distributed's parse of a malformed address ('tcp://', 'tcp://[::1')
            if cluster is not None:
                cluster.close()
            raise OptionError(f"--dask: not a scheduler address: {address} ({error})") from None
        except (OSError, TimeoutError) as error:
            if cluster is not None:
                cluster.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {address} (tried for {CONNECT_TIMEOUT} s): "
                               f"{error}") from None
        try:
            threads = sum(client.nthreads().values()) or 1
            yield client.get_executor(), threads
        except CancelledError:  # the scheduler went away: its tasks are cancelled
            raise ClusterError(f"lost the Dask scheduler at {address} during the run "
                               f"(its tasks were cancelled)") from None
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


__all__ = ["dask_executor", "CONNECT_TIMEOUT"]
