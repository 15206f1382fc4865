"""Progress of the engine's long loops, told to whoever asked for it (a command's bar); nothing by default.

The core never prints nor imports click, yet a command wants a bar while a
long TER run or a ``-pbs`` over many systems works. A caller passes a
:class:`Reporter` (``reporter(label, length)``: a context manager giving an
``advance(units)`` callable, which is what :func:`bleucli.clikit.progress.progress`
is); :func:`phase` installs its ``advance`` for the duration of one phase of
the run, and the loops that know when a unit of work is done (a part of the
input scored, a matrix of resamples scored) call :func:`advance`. Without a
reporter :func:`advance` is one thread-local lookup per part or matrix, so
a run that nobody watches pays nothing measurable, and no loop needs a new
parameter.

Units are counted in the process that runs the command: parts computed by
worker processes (``-j N``) are counted as their results come back (a forked
worker forgets the phase it inherited, :func:`unwatch`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # pragma: no cover - the types only: every run imports this module, at no cost
    from contextlib import AbstractContextManager
    from typing import TypeAlias

    #: Called with the units of work just done.
    Advance: TypeAlias = Callable[[int], None]
    #: A phase's length in units, or a callable giving it (asked only when a bar is drawn: counting lines
    #: costs a read).
    Length: TypeAlias = int | Callable[[], int | None]
    #: ``with reporter("Scoring", length) as advance: ...``: shows (or not) the progress of one phase.
    Reporter: TypeAlias = Callable[[str, Length], AbstractContextManager[Advance]]


class _Slot(threading.local):
    """The watched phase's ``advance`` of this thread (None: nothing watched), as a context variable would
    hold it, without importing :mod:`contextvars` into every run: ``set`` returns what ``reset`` restores.

    Per thread, so that a thread pool's workers (a Dask cluster's threads) never draw on the command's bar.
    """

    value: Advance | None = None

    def get(self) -> Advance | None:
        return self.value

    def set(self, value: Advance | None) -> Advance | None:
        previous, self.value = self.value, value
        return previous

    def reset(self, previous: Advance | None) -> None:
        self.value = previous


_current = _Slot()
T = TypeVar("T")


@contextlib.contextmanager
def phase(reporter: Reporter | None, label: str, length: Length) -> Iterator[None]:
    """Within this block, :func:`advance` moves ``reporter``'s ``label`` bar (or nothing if ``reporter`` is None)."""
    if reporter is None:
        yield
        return
    with reporter(label, length) as forward:
        token = _current.set(forward)
        try:
            yield
        finally:
            _current.reset(token)


def phase_of(reporter: Reporter | None, label: str, length: Length, items: Iterator[T]) -> Iterator[T]:
    """``items`` (a lazy run, such as ``-sl``'s sentence scores) consumed within :func:`phase`: the bar
    opens at the first item asked for and is finished when the last is given (or the consumer stops)."""
    if reporter is None:
        return items
    return _in_phase(reporter, label, length, items)


def _in_phase(reporter: Reporter, label: str, length: Length, items: Iterator[T]) -> Iterator[T]:
    with phase(reporter, label, length):
        yield from items


def advance(units: int = 1) -> None:
    """``units`` more of the current phase are done (nothing when no phase is being watched)."""
    forward = _current.get()
    if forward is not None:
        forward(units)


@contextlib.contextmanager
def standing_for(parts: int) -> Iterator[list[int]]:
    """Within this block, each unit this process advances counts ``parts`` times; the list yielded holds
    the units so advanced.

    For work cut into ``parts`` equal parts running side by side, of which this process runs one (forked
    children the others, :meth:`~bleucli.engine.executor.Workers.split`): its own progress is the best
    estimate of the whole's, which would otherwise stand still until the children's results came back.
    """
    forward = _current.get()
    counted = [0]
    if forward is None:
        yield counted
        return

    def scaled(units: int) -> None:
        counted[0] += units * parts
        forward(units * parts)

    token = _current.set(scaled)
    try:
        yield counted
    finally:
        _current.reset(token)


def watched() -> bool:
    """Whether a phase is being watched in this process (a worker process never is: :func:`unwatch`)."""
    return _current.get() is not None


def unwatch() -> None:
    """Forget the watched phase: a forked worker inherits it, but only the process that draws may advance it."""
    _current.set(None)


def paired_units(test: str, n_systems: int, seeded: bool) -> int:
    """The matrices of resampled statistics one ``-pbs``/``-par`` of ``n_systems`` (baseline included) scores.

    A seeded bootstrap draws one set of resamples for all (one matrix per system); an unseeded one draws
    the baseline's and then a pair per other system; approximate randomization scores a pair per other system.
    """
    others = max(0, n_systems - 1)
    if test == "ar":
        return 2 * others
    return 1 + others if seeded else 1 + 2 * others


def ranking_units(test: str, n_systems: int) -> int:
    """The matrices :func:`bleucli.significance.ranking.rank_systems` scores: one bootstrap matrix per
    system, and with ``ar`` a pair for every pair of systems."""
    return n_systems + (n_systems * (n_systems - 1) if test == "ar" else 0)


__all__ = ["advance", "standing_for", "paired_units", "phase", "phase_of", "ranking_units", "unwatch", "watched"]
