"""The Dask wing: scoring on a Dask cluster (``--dask local:N`` or a scheduler address).

The engine runs its tasks on any :class:`concurrent.futures.Executor` it is
given (:func:`bleucli.engine.pipeline.run`'s ``executor``); this wing makes one
from a Dask cluster, so nothing in the core knows Dask. The commands that take
``--dask`` (``score``, ``stats``) open it with :func:`dask_executor` around the
run. Needs the ``dask`` extra.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Executor


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


__all__ = ["dask_executor"]
