"""Exceptions and warnings raised by the bleucli library, and the exit code of each kind.

The library never prints and never exits: it raises one of these (or warns
with :func:`warn`), and the CLI (``bleucli.clikit.report``) alone decides the
message format. Each class says *what kind* of failure happened so that a
caller can react to the kind (bad data vs. bad option) without parsing
messages, and carries the documented exit code of that kind
(``exit_code``, one of :class:`ExitCode`): this module is the one table of
exit codes, which the CLI reads and ``--help`` lists.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from enum import IntEnum


class ExitCode(IntEnum):
    """Documented exit codes of the ``bleucli`` command (the README lists them)."""

    OK = 0
    INTERNAL = 1  # a bug in bleucli: please report it
    USAGE = 2  # bad option, bad option value, conflicting options
    DATA = 3  # bad input data: missing/unreadable file, decoding, line counts, empty input
    NETWORK = 4  # a download failed (after retries)
    INTEGRITY = 5  # checksum/size mismatch, corrupt cache that cannot be repaired offline
    UNSAFE = 6  # unsafe archive or invalid test-set registry
    SIGNATURE_MISMATCH = 7  # --expect-signature / `signature diff` found differences
    WORSE = 8  # `compare --fail-if-worse`: a system is significantly worse than the baseline
    WORKER = 9  # a worker process died (killed by a signal: the OOM killer, kill -9)
    MEMORY = 10  # out of memory: an allocation failed (MemoryError), e.g. under ulimit -v
    OUTPUT = 74  # the result could not be written (EX_IOERR: disk full, closed stdout)
    INTERRUPTED = 130  # Ctrl-C (SIGINT)
    TERMINATED = 143  # SIGTERM (128 + 15, as a death by the signal would report)
    BROKEN_PIPE = 141  # stdout closed early (e.g. `| head`), as a SIGPIPE death would report


class BleucliWarning(UserWarning):
    """A condition worth telling the user about that does not stop scoring."""


def install_hint(extra: str) -> str:
    """How to install an optional extra, in the two forms that work: the package name (from an index,
    or ``--find-links`` a folder of wheels) and the path of a checkout (bleucli installed from a
    source tree, where ``bleucli[...]`` names nothing pip can find)."""
    return f"pip install 'bleucli[{extra}]' (from a checkout of bleucli: pip install '.[{extra}]')"


def warn(message: str) -> None:
    """Library-side notice; the CLI shows these on stderr (unless ``-q``)."""
    warnings.warn(BleucliWarning(message), stacklevel=3)


class BleucliError(Exception):
    """Base class of every error bleucli raises on purpose."""

    #: The CLI's exit code for this kind of failure (subclasses override it)
    exit_code: ExitCode = ExitCode.DATA


class WorkerError(BleucliError):
    """A worker process died before it sent its result (killed by a signal, such as the OOM killer's SIGKILL).

    ``signal`` is the number of the signal that killed it, ``None`` when it exited without a result.
    """

    exit_code = ExitCode.WORKER

    def __init__(self, message: str, signal: int | None = None) -> None:
        self.signal = signal
        super().__init__(message)

    @classmethod
    def killed(cls, number: int) -> WorkerError:
        """The error for a worker killed by signal ``number``, in one line that names it."""
        import signal

        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        hint = "; out of memory?" if number == signal.SIGKILL else ""
        return cls(f"a worker process was killed by signal {number} ({name}{hint})", number)


class ClusterError(BleucliError):
    """The Dask scheduler of ``--dask`` cannot be reached, or was lost during the run."""

    exit_code = ExitCode.NETWORK


class Terminated(BaseException):  # noqa: N818 - named as the event, like KeyboardInterrupt
    """Raised in the main thread by the CLI's SIGTERM handler, so that worker processes are stopped on the way out.

    A ``BaseException``, as :class:`KeyboardInterrupt`: no ``except Exception`` swallows it.
    """


class OptionError(BleucliError, ValueError):
    """An option value is invalid (unknown tokenizer, NaN smoothing value...)."""

    exit_code = ExitCode.USAGE


class InputError(BleucliError, ValueError):
    """Input data cannot be scored as given.

    ``source`` names the file (or ``<stdin>``) and ``line`` the 1-based line
    when the problem is tied to one, so the message can point at it.
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.message}" if where else self.message


class LengthMismatchError(InputError):
    """Hypothesis and reference streams have different numbers of segments."""


class ReferenceShapeError(InputError, TypeError):
    """Python arguments of the wrong shape: a string where a list is expected, transposed or ragged references.

    Both bleucli's :class:`InputError` (same exit code) and a :class:`TypeError`, so that
    code written against sacreBLEU (which fails there with a ``TypeError`` or silently
    truncates) catches it too. The message names the likely cause in one line.
    """


class AssertionInputError(InputError, AssertionError):
    """Input NLTK's own functions refuse with an ``assert`` (its BLEU's smoothing method 6 without
    a trigram match, its GLEU's hypotheses and lists of references of different lengths).

    Both bleucli's :class:`InputError` and an :class:`AssertionError`, so that code written
    against NLTK catches it as before.
    """


class IndexOptionError(OptionError, IndexError):
    """An option NLTK's functions fail on with an ``IndexError`` (its BLEU's smoothing method 6
    with fewer than three n-gram orders indexes the trigram precision).

    Both bleucli's :class:`OptionError` and an :class:`IndexError`, so that code written against
    NLTK catches it as before, with a message that says what to change.
    """


class StreamLengthError(LengthMismatchError, ReferenceShapeError):
    """Streams of different lengths given to the Python API: a length mismatch and a shape error."""


class SegmentTooLongError(InputError):
    """A segment is too long for a metric whose cost grows faster than its length (TER's shifts).

    The metric knows the segment only by its place in the chunk it was given
    (``segment``, 0-based; ``system``: which hypothesis stream, ``None`` for a
    reference; ``reference``: which reference stream); the streaming layer,
    which knows where the chunk starts, turns that into a file and line (:meth:`at`).
    """

    def __init__(self, message: str, segment: int = 0, system: int | None = None, reference: int = 0) -> None:
        self.segment = segment
        self.system = system
        self.reference = reference
        super().__init__(message)

    def at(self, system_names: Sequence[str], reference_names: Sequence[str], first_line: int) -> InputError:
        """The same error naming the file and line, for a chunk whose first segment is line ``first_line``."""
        names = system_names if self.system is not None else reference_names
        index = self.system if self.system is not None else self.reference
        source = names[index] if 0 <= index < len(names) else None
        return InputError(self.message, source, first_line + self.segment)


class SignatureMismatchError(BleucliError):
    """The computed signature differs from the one the caller expected."""

    exit_code = ExitCode.SIGNATURE_MISMATCH

    def __init__(self, differences: list[tuple[str, str | None, str | None]]) -> None:
        self.differences = differences
        listed = ", ".join(
            f"{key}: expected {exp if exp is not None else '(absent)'}, got {got if got is not None else '(absent)'}"
            for key, exp, got in differences
        )
        super().__init__(f"signature mismatch ({listed})")


# --- Test sets, downloads and the cache -------------------------------------
# Each kind has its own CLI exit code (see the README): a CI script
# can tell "the network is down" (retry later) from "the data is corrupt"
# (investigate) from "the archive is hostile" (do not retry).


class TestSetError(BleucliError):
    """Base class for test-set problems (registry, download, cache).

    No ``exit_code`` of its own, so that an unknown test set or language pair
    (also :class:`OptionError`) keeps the usage code.
    """

    __test__ = False  # not a pytest test class despite the name


class UnknownTestSetError(TestSetError, OptionError):
    """The requested test set is not in the registry; ``suggestions`` holds close names."""

    def __init__(self, name: str, suggestions: list[str] | None = None) -> None:
        self.name = name
        self.suggestions = list(suggestions or [])
        hint = f" (did you mean: {', '.join(self.suggestions)}?)" if self.suggestions else ""
        super().__init__(f"unknown test set '{name}'{hint}; run with --list to see the available test sets")


class UnknownLanguagePairError(TestSetError, OptionError):
    """The test set has no such language pair; ``available`` lists the ones it has."""

    def __init__(self, testset: str, pair: str, available: list[str]) -> None:
        self.testset = testset
        self.pair = pair
        self.available = list(available)
        super().__init__(f"test set '{testset}' has no language pair '{pair}' "
                         f"(available: {', '.join(self.available)})")


class UnknownFieldError(TestSetError, OptionError):
    """``--echo`` asked for a field the test set does not have."""

    def __init__(self, testset: str, pair: str, field: str, available: list[str]) -> None:
        self.testset = testset
        self.pair = pair
        self.field = field
        self.available = list(available)
        super().__init__(f"no field '{field}' in test set {testset} for language pair {pair} "
                         f"(available: {', '.join(self.available)})")


class RegistryError(TestSetError):
    """The registry file (testsets.yaml) is unreadable or violates the schema.

    The message names the file, and the test set and field when the problem is tied to one.
    """

    exit_code = ExitCode.UNSAFE


class DownloadError(TestSetError):
    """A file could not be downloaded (network failure, HTTP error, timeout, size cap)."""

    exit_code = ExitCode.NETWORK

    def __init__(self, message: str, url: str | None = None) -> None:
        self.url = url
        super().__init__(message)


class RedirectError(DownloadError):
    """A server redirected to a scheme bleucli refuses (file://, ftp://, https -> http)."""

    exit_code = ExitCode.UNSAFE


class IntegrityError(TestSetError):
    """Downloaded or cached data does not match its checksum.

    ``expected`` and ``actual`` are the two digests; nothing unverified is kept
    under a final name when this is raised.
    """

    exit_code = ExitCode.INTEGRITY

    def __init__(self, message: str, url: str | None = None, expected: str | None = None,
                 actual: str | None = None) -> None:
        self.url = url
        self.expected = expected
        self.actual = actual
        super().__init__(message)


class NotCachedError(TestSetError):
    """Offline mode was requested and the data is not (or no longer validly) cached."""

    exit_code = ExitCode.INTEGRITY


class UnsafeArchiveError(TestSetError):
    """An archive member would escape the extraction directory or is not a plain file, or a test-set
    file is hostile (an XML file declaring entities: XXE, entity bombs)."""

    exit_code = ExitCode.UNSAFE

    def __init__(self, message: str, member: str | None = None) -> None:
        self.member = member
        super().__init__(message)


class CacheError(TestSetError):
    """The cache directory itself is unusable (a file, not writable when it must be)."""

    exit_code = ExitCode.DATA
