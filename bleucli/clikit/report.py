"""Exit codes and the one-line messages the CLI writes to stderr.

Library code raises typed exceptions, each carrying its documented exit code
(:mod:`bleucli.errors`, the one table, listed in the README, so scripts can
rely on them); :func:`exit_code_for` reads it, and this module says what each
code means for ``--help``.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from ..errors import BleucliError, BleucliWarning, ExitCode

__all__ = ["ExitCode", "EXIT_CODE_MEANINGS", "exit_code_for", "library_warnings", "one_line", "error",
           "out_of_memory", "set_quiet", "warning"]

#: What each exit code means, for ``--help`` (the README's table says the same at length).
#: The codes themselves, and which error class gets which, are :mod:`bleucli.errors`' (``exit_code``).
EXIT_CODE_MEANINGS: dict[ExitCode, str] = {
    ExitCode.OK: "success",
    ExitCode.INTERNAL: "internal error: a bug in bleucli (BLEUCLI_DEBUG=1 shows the traceback)",
    ExitCode.USAGE: "usage: unknown or invalid option, conflicting options",
    ExitCode.DATA: "bad input data (file, line, encoding, line counts, tab fields) or an unusable cache",
    ExitCode.NETWORK: "a download failed",
    ExitCode.INTEGRITY: "checksum mismatch, or test-set data not cached while --offline",
    ExitCode.UNSAFE: "unsafe archive, refused redirect or invalid test-set registry",
    ExitCode.SIGNATURE_MISMATCH: "signature mismatch (--expect-signature, signature diff)",
    ExitCode.WORSE: "compare --fail-if-worse: a system is significantly worse than the baseline",
    ExitCode.WORKER: "a worker process died: killed by a signal (the OOM killer, kill -9)",
    ExitCode.MEMORY: "out of memory: an allocation failed (fewer resamples, systems or -j need less)",
    ExitCode.OUTPUT: "the result could not be written (disk full, closed stdout)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
    ExitCode.TERMINATED: "terminated (SIGTERM); worker processes are stopped too",
    ExitCode.BROKEN_PIPE: "stdout closed early (| head): bleucli stops quietly",
}


def exit_code_for(error: BaseException) -> ExitCode:
    """The exit code for an expected failure (its class's ``exit_code``); anything unknown is an internal error."""
    if isinstance(error, BleucliError):
        return ExitCode(error.exit_code)
    return ExitCode.INTERNAL


def out_of_memory(error: MemoryError, needing_less: str | None = None) -> str:
    """The message for an allocation that failed: what could not be had (numpy names the size and
    shape; Python's own MemoryError has no text) and what asks for less. Not "internal error": the
    run was valid, the machine (or ``ulimit -v``) smaller than it needs.

    ``needing_less`` names what asks for less in the command that ran, from its own options (gleu's
    resamples are ``--iterations``; most commands draw none); without it, the scoring command's."""
    what = str(error) or "an allocation failed"
    advice = needing_less or "fewer resamples (-cin, -pbsn, -parn), systems or -j workers"
    return f"out of memory: {what}; {advice} need less"


#: Library warnings given before a command ran (building the commands), shown with the command's own.
_deferred: list[str] = []


def defer_warnings(messages: Iterable[str]) -> None:
    """Keep warnings given before any command runs, for :func:`library_warnings` to show (unless ``-q``)."""
    _deferred.extend(messages)


@contextmanager
def library_warnings(quiet: bool) -> Iterator[None]:
    """Collect the library's warnings while a command runs; show them on stderr afterwards unless ``quiet``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BleucliWarning)
        try:
            yield
        finally:
            if not quiet:
                for message in _deferred:
                    warning(message)
                for item in caught:
                    if issubclass(item.category, BleucliWarning):
                        warning(str(item.message))


def one_line(text: str) -> str:
    """Messages are single lines so that CI logs and `grep` stay readable."""
    return " ".join(str(text).split())


def error(message: str) -> None:
    """Write ``bleucli: error: <message>`` to stderr."""
    _write_stderr(f"bleucli: error: {one_line(message)}")


#: ``bleucli -q COMMAND`` for a command without a ``-q`` of its own: no warnings for this run.
_quiet = False


def set_quiet(quiet: bool) -> None:
    """Silence (or restore) :func:`warning` for the rest of this run; errors are always written."""
    global _quiet
    _quiet = quiet


def warning(message: str) -> None:
    """Write ``bleucli: warning: <message>`` to stderr (unless ``-q`` came before a subcommand)."""
    if not _quiet:
        _write_stderr(f"bleucli: warning: {one_line(message)}")


def _write_stderr(line: str) -> None:
    stream = sys.stderr
    if stream is None:  # closed stderr: nowhere to report, the exit code still tells
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass
