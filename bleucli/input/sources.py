"""Opening references and systems as line streams, with sacreBLEU's conventions.

The CLI is a thin layer over these functions. Everything is a lazy stream of
lines so that corpora of any size are scored in constant memory; tab-separated
columns (``-nr N`` references in one file, systems on stdin) become
one stream per column. Problems raise :class:`~bleucli.errors.InputError`
naming the file and line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, tee
from typing import TYPE_CHECKING, BinaryIO

from ..errors import InputError, OptionError
from ..frozen import Frozen
from .reading import DEFAULT_MAX_LINE_BYTES, STDIN_NAME, FileLines, encoding_problem, iter_lines

if TYPE_CHECKING:  # pragma: no cover
    from ..options import InputOptions


class Streams(Frozen):
    """Opened input streams and their names (files, stdin columns or a test set's fields)."""

    system_names: Sequence[str]
    systems: Sequence[Iterable[str]]
    reference_names: Sequence[str]
    references: Sequence[Iterable[str]]
    #: the systems came from stdin columns (paired tables then use sacreBLEU's Baseline, System 1...)
    from_stdin: bool = False


class TestSetReferences(Frozen):
    """References resolved elsewhere (a standard test set, ``-t``), and the filter its hypotheses go through.

    ``keep(lines, source=name)`` checks that a system covers the full set(s) and keeps the lines of the
    chosen ``--origlang``/``--subset`` (:meth:`bleucli.testsets.TestData.filter_hypotheses`).
    """

    names: Sequence[str]
    references: Sequence[Iterable[str]]
    keep: Callable[..., list[str]]


def open_inputs(
    options: InputOptions,
    notices: list[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    test_set: TestSetReferences | None = None,
    full: list[list[str]] | None = None,
) -> Streams:
    """The streams of a run as ``options`` describe them, for every command alike.

    An ``--aligned`` file; or references (files, ``-nr`` tab columns of one file, or ``test_set``) and
    systems (files, or ``stdin`` whose tab columns are systems unless ``options.tsv`` is ``False``), every
    file decoded with ``options.encoding`` and refused past ``options.max_line_bytes``. With a test set,
    the systems are filtered as its references are; ``full`` (a list to fill) then receives each system's
    unfiltered lines. Notices about the input (BOM...) are appended to ``notices``.
    """
    problem = encoding_problem(options.encoding)
    if problem is not None:  # the caller's mistake, not the data's: before any file is opened
        raise OptionError(f"--encoding: {problem}")
    limit = options.max_line_bytes
    if options.aligned is not None:
        from .aligned import AlignedFile, open_aligned

        source = AlignedFile.build(options.aligned, options.columns, options.encoding, limit)
        hyp_column, ref_columns = open_aligned(source, notices)
        return Streams(source.system_names, hyp_column, source.reference_names, ref_columns)
    if test_set is not None:
        reference_names, references = list(test_set.names), test_set.references
    else:
        reference_names, references = open_references(options.refs, options.num_refs, options.encoding, notices,
                                                      max_line_bytes=limit)
    system_names: list[str] = []
    systems: list[Iterable[str]] = []
    for path in options.systems or ("-",):
        names, streams = open_system(path, options.encoding, notices, stdin if path == "-" else None, options.tsv,
                                     max_line_bytes=limit)
        system_names.extend(names)
        systems.extend(streams)
    if test_set is not None:
        if full is not None:
            systems = [list(stream) for stream in systems]
            full.extend(systems)  # type: ignore[arg-type]  # lists
        systems = [test_set.keep(list(stream), source=name) for name, stream in zip(system_names, systems)]
    return Streams(system_names, systems, reference_names, references, from_stdin=options.systems in ((), ("-",)))


def open_references(
    paths: Sequence[str], num_refs: int = 1, encoding: str = "utf-8", notices: list[str] | None = None,
    *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> tuple[list[str], list[Iterable[str]]]:
    """Reference streams: one per file, or ``num_refs`` tab-separated columns of one file."""
    if not paths:
        raise OptionError("no references: give reference files before -i")
    if num_refs < 1:
        raise OptionError(f"--num-refs must be at least 1, got {num_refs}")
    if num_refs > 1:
        if len(paths) != 1:
            raise OptionError("--num-refs splits one reference file on tabs: give exactly one reference file")
        lines = iter_lines(paths[0], encoding=encoding, notices=notices, strip=False, max_line_bytes=max_line_bytes)
        streams: list[Iterable[str]] = list(columns(lines, paths[0], num_refs, "references (--num-refs)"))
        return [f"{paths[0]} (column {k + 1})" for k in range(num_refs)], streams
    return list(paths), [FileLines(p, encoding, notices, max_line_bytes) for p in paths]


def open_system(
    path: str,
    encoding: str = "utf-8",
    notices: list[str] | None = None,
    stdin: BinaryIO | None = None,
    tsv: bool | None = None,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> tuple[list[str], list[Iterable[str]]]:
    """The system stream(s) of one input: a file, or stdin (``-``), whose tab-separated columns are systems.

    stdin follows sacreBLEU: when its lines hold tabs, each column is a system
    (``System 1``, ``System 2``...). ``tsv=None`` (the default) and
    ``tsv=True`` both split; a line whose number of fields differs from the
    first line's is an :class:`InputError` naming the line, never a silently
    wrong score. ``tsv=False`` reads stdin as one system whose hypotheses may
    contain tabs (as whitespace). Files are always one system.
    """
    if path != "-":
        return [path], [FileLines(path, encoding, notices, max_line_bytes)]
    if stdin is None:
        raise InputError("standard input is closed; give hypotheses with -i FILE", STDIN_NAME)
    if tsv is False:
        return [STDIN_NAME], [iter_lines(STDIN_NAME, stdin, encoding, notices, max_line_bytes=max_line_bytes)]
    lines = iter_lines(STDIN_NAME, stdin, encoding, notices, strip=False, max_line_bytes=max_line_bytes)
    streams: list[Iterable[str]] = list(columns(lines, STDIN_NAME, None, "systems"))
    if len(streams) == 1:
        return [STDIN_NAME], streams
    return [f"System {k + 1}" for k in range(len(streams))], streams


def columns(lines: Iterator[str], name: str, count: int | None, what: str) -> list[Iterator[str]]:
    """Split raw lines on tabs into ``count`` column streams (``None``: the first line decides).

    Splitting happens *before* stripping, so an empty last field is an empty
    column rather than a missing one (sacreBLEU strips first and then reports
    a wrong field count). As in sacreBLEU, the last column may hold tabs when
    ``count`` is given (``-nr``); with ``count=None`` (systems on stdin) every line
    must have exactly as many fields as the first. The columns are consumed in lockstep, so ``tee``
    buffers at most a line or two.

    Stripping follows sacreBLEU: references (``count`` given) lose trailing
    whitespace at the end of the *line* only (sacreBLEU ``rstrip()``s the line
    and then splits it), so ``'a b \tab'`` keeps the space of ``'a b '`` that
    chrF's ``--chrf-whitespace`` counts; systems lose it at the end of every
    field (sacreBLEU ``rstrip()``s each system's sentence).
    """
    fixed = count is not None
    first = next(lines, None)
    if first is None:
        return [iter(()) for _ in range(count or 1)]
    if count is None:
        count = len(first.split("\t"))

    maxsplit = count - 1 if fixed else -1
    if fixed and first.count("\t") + 1 < count:  # at once, before tee() builds `count` iterators (-nr 10**20)
        raise InputError(f"expected {count} tab-separated {what}, found {first.count(chr(9)) + 1}", name, 1)

    def rows() -> Iterator[list[str]]:
        for number, line in enumerate(chain([first], lines), 1):
            fields = line.split("\t", maxsplit)
            if len(fields) != count:
                if fixed:
                    raise InputError(f"expected {count} tab-separated {what}, found {len(fields)}", name, number)
                raise InputError(
                    f"{len(fields)} tab-separated fields where line 1 has {count}: every line holds one "
                    f"hypothesis per system (--no-tsv: one system whose lines may contain tabs)", name, number)
            if fixed:
                fields[-1] = fields[-1].rstrip()
                yield fields
            else:
                yield [field.rstrip() for field in fields]

    return [_column(copy, k) for k, copy in enumerate(tee(rows(), count))]


def _column(rows: Iterator[list[str]], index: int) -> Iterator[str]:
    for row in rows:
        yield row[index]
