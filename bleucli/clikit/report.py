"""Exit codes and the one-line messages the CLI writes to stderr.

This module is the only place that knows which failure maps to which exit
code, so scripts can rely on them (they are listed in the README). Library
code raises typed exceptions; :func:`exit_code_for` classifies them.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum

from ..errors import BleucliError, InputError, OptionError, SignatureMismatchError


class ExitCode(IntEnum):
    """Documented exit codes of the ``bleucli`` command."""

    OK = 0
    INTERNAL = 1  # a bug in bleucli: please report it
    USAGE = 2  # bad option, bad option value, conflicting options
    DATA = 3  # bad input data: missing/unreadable file, decoding, line counts, empty input
    NETWORK = 4  # a download failed (after retries)
    INTEGRITY = 5  # checksum/size mismatch, corrupt cache that cannot be repaired offline
    UNSAFE = 6  # unsafe archive or invalid test-set registry
    SIGNATURE_MISMATCH = 7  # --expect-signature / `signature diff` found differences
    WORSE = 8  # `compare --fail-if-worse`: a system is significantly worse than the baseline
    OUTPUT = 74  # the result could not be written (EX_IOERR: disk full, closed stdout)
    INTERRUPTED = 130  # Ctrl-C
    BROKEN_PIPE = 141  # stdout closed early (e.g. `| head`), as a SIGPIPE death would report


#: What each exit code means, for ``--help`` (the README's table says the same at length).
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
    ExitCode.OUTPUT: "the result could not be written (disk full, closed stdout)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
    ExitCode.BROKEN_PIPE: "stdout closed early (| head): bleucli stops quietly",
}

#: Exception classes added by later features register their exit code here
#: (checked in order, most specific first).
_CODES: list[tuple[type[BaseException], ExitCode]] = [
    (SignatureMismatchError, ExitCode.SIGNATURE_MISMATCH),
    (OptionError, ExitCode.USAGE),
    (InputError, ExitCode.DATA),
]


def register(exception: type[BaseException], code: ExitCode) -> None:
    """Map a library exception class to an exit code (most recent registrations win)."""
    _CODES.insert(0, (exception, code))


def exit_code_for(error: BaseException) -> ExitCode:
    """The exit code for an expected failure; anything unknown is an internal error."""
    for exception, code in _CODES:
        if isinstance(error, exception):
            return code
    return ExitCode.DATA if isinstance(error, BleucliError) else ExitCode.INTERNAL


@contextmanager
def library_warnings(quiet: bool) -> Iterator[None]:
    """Collect the library's warnings while a command runs; show them on stderr afterwards unless ``quiet``."""
    from ..metrics.base import BleucliWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BleucliWarning)
        try:
            yield
        finally:
            if not quiet:
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
