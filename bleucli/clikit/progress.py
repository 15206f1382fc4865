"""Progress of a long job: click's progress bar on stderr when stderr is a terminal, nothing otherwise.

One helper for every command (``compare``, Self-BLEU...): the library never
imports click, so it reports progress through a callable (``advance(n)``) that
a command makes here. The bar appears only once the job has run for
:data:`DEFAULT_DELAY` seconds (``BLEUCLI_PROGRESS_DELAY``; 0: at once), so a
short run draws nothing; a pipe, a file or a CI log never get a bar (click
would print its label there), and the bar is finished when the job ends or
fails, so the terminal gets its cursor back.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

#: Seconds a job runs before its bar appears (``BLEUCLI_PROGRESS_DELAY`` overrides it).
DEFAULT_DELAY = 2.0


def stderr_is_a_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (ValueError, OSError):
        return False


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("BLEUCLI_PROGRESS_DELAY", DEFAULT_DELAY)))
    except ValueError:
        return DEFAULT_DELAY


class Progress:
    """``advance(n)`` moves a bar of ``length`` units; drawn on a terminal once the job has run a while."""

    def __init__(self, label: str, length: int | Callable[[], int | None], stream: Any = None) -> None:
        self.label = label
        #: a callable length is asked only when the bar is drawn (counting an input's lines costs a read)
        self._length = length
        self.length = max(0, length) if isinstance(length, int) else 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = stderr_is_a_terminal() if stream is None else True
        self._delay = _delay()
        self._start = time.monotonic()
        self._done = 0
        self._bar: Any = None

    def advance(self, units: int = 1) -> None:
        if not self.enabled:
            return
        self._done += units
        try:
            if self._bar is None:
                if time.monotonic() - self._start < self._delay:
                    return
                import click

                if callable(self._length):
                    self.length = max(0, self._length() or 0)
                if not self.length:  # an unknown size (stdin): no bar rather than one that says nothing true
                    self.enabled = False
                    return
                self._bar = click.progressbar(length=self.length, label=self.label, file=self.stream, width=30,
                                              show_eta=True, show_percent=True)
                self._bar.__enter__()
                self._bar.update(self._done)
            else:
                self._bar.update(units)
        except (OSError, ValueError):  # stderr closed under us: progress is not worth an error
            self.enabled, self._bar = False, None

    def close(self, complete: bool = False) -> None:
        """Finish the bar (its line ended, the cursor shown again), if one was drawn; ``complete``: at 100%."""
        bar, self._bar = self._bar, None
        if bar is not None:
            with contextlib.suppress(OSError, ValueError):
                if complete and self.length and self._done < self.length:
                    bar.update(self.length - self._done)
                bar.render_finish()


@contextlib.contextmanager
def progress(label: str, length: int | Callable[[], int | None]) -> Iterator[Callable[[int], None]]:
    """``with progress("Comparing", n) as advance: ... advance(1)``: the bar is finished however the job ends.

    This is a :class:`bleucli.engine.progress.Reporter`: a command hands it to the engine's runs.
    """
    bar = Progress(label, length)
    complete = False
    try:
        yield bar.advance
        complete = True
    finally:
        bar.close(complete)


__all__ = ["DEFAULT_DELAY", "Progress", "progress", "stderr_is_a_terminal"]
