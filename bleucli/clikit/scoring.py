"""What the commands that score (``score``, ``stats``, ``merge``, ``compare``) share around the library.

Inputs are opened by the library (:func:`bleucli.input.sources.open_inputs`); here stdin is taken from the
terminal's side, a test set's references are handed over, and usage errors become click's.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from . import report
from .output import emit, emit_when_complete

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Executor

    from ..engine.pipeline import RunResult
    from ..input.sources import Streams
    from ..options import RunOptions


class Notices:
    """Notices about the input (BOM, tabs...) gathered while reading, shown on stderr unless ``-q``."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.pending: list[str] = []

    def show(self, message: str) -> None:
        if not self.quiet:
            report.warning(message)

    def flush(self) -> None:
        for notice in self.pending:
            self.show(notice)
        self.pending.clear()


def open_inputs(options: RunOptions, data: Any, notices: Notices, full: list[list[str]] | None = None) -> Streams:
    """The run's streams (:func:`bleucli.input.sources.open_inputs`), against the test set ``data`` if any.

    With ``full`` (a list to fill) and a test set, each system's unfiltered lines too.
    """
    from ..input.sources import TestSetReferences
    from ..input.sources import open_inputs as open_streams

    test_set = None
    if data is not None:
        from ..testsets import cli as tscli

        test_set = TestSetReferences(tscli.reference_names(data), data.references, data.filter_hypotheses)
    reads_stdin = options.inputs.aligned is None and "-" in (options.inputs.systems or ("-",))
    streams = open_streams(options.inputs, notices.pending, stdin=stdin_stream() if reads_stdin else None,
                           test_set=test_set, full=full)
    if options.sentence_level and len(streams.system_names) > 1:
        raise click.UsageError(f"--sentence-level scores one system, but stdin has {len(streams.system_names)} "
                               "tab-separated columns (--no-tsv: one system whose lines may hold tabs)")
    return streams


def check_conflicts(options: RunOptions) -> None:
    """Input options that make no sense together are usage errors, before anything is read."""
    systems = options.inputs.systems
    if options.inputs.columns and options.inputs.aligned is None:
        raise click.UsageError("--columns describes an --aligned file")
    if options.inputs.aligned is not None:
        given = [flag for flag, used in (("REF...", options.inputs.refs), ("-i", systems),
                                         ("-t", options.testset.test_set), ("--tsv", options.inputs.tsv),
                                         ("-nr", options.inputs.num_refs != 1)) if used]
        if given:
            raise click.UsageError(f"--aligned holds the hypotheses and references: {given[0]} cannot be used with it")
    if options.sentence_level and len(systems) > 1:
        raise click.UsageError("--sentence-level scores one system: give a single -i file")
    if options.sentence_level and options.inputs.tsv:
        raise click.UsageError("--sentence-level scores one system: --tsv cannot be used with it")
    if options.sentence_level and options.significance.test is not None:
        raise click.UsageError("statistical tests are unavailable in sentence-level mode (-sl)")
    if options.inputs.tsv is not None and systems and "-" not in systems:
        flag = "--tsv" if options.inputs.tsv else "--no-tsv"
        raise click.UsageError(f"{flag} applies to stdin, but hypotheses come from -i files")
    if options.output.human_accuracy and options.significance.test not in ("bs", "ar"):
        raise click.UsageError("--human-accuracy needs -pbs or -par: it estimates the accuracy of each system's "
                               "delta to the baseline, shown after their table")
    duplicates = sorted({p for p in systems if systems.count(p) > 1})
    if duplicates:
        raise click.UsageError(f"system file given twice: {duplicates[0]}")


def stdin_stream() -> Any:
    """stdin as bytes, or ``None`` when it is closed; a terminal is refused rather than waited on."""
    stream = sys.stdin
    if stream is None or getattr(stream, "closed", False):
        return None
    try:
        if stream.isatty():
            raise click.UsageError("no hypotheses: pipe them into stdin or give -i FILE")
    except (ValueError, OSError):
        return None
    return sys.stdin.buffer  # the bytes under stdin (CliRunner gives one too)


def finish(options: RunOptions, result: RunResult, notices: Notices, test_set: dict[str, Any] | None,
           detail: list[tuple[str, int, list[Any]]] | None = None) -> None:
    """The final step of every mode: the expected signature, then the rendering, then stdout.

    ``detail`` (``-d``) is printed after a single system's scores, as sacreBLEU does.
    """
    from .. import render
    from ..engine.pipeline import check_expected_signature

    output = options.output
    if result.sentences is not None:
        check_expected_signature(options.expect_signature, result.signatures)

        def lines() -> Iterator[str]:
            for score in result.sentences or ():
                yield render.sentence(score, output)
                notices.flush()  # stderr: as they arise

        emit_when_complete(lines())  # nothing on stdout unless every segment is scored
        notices.flush()
        return
    notices.flush()
    check_expected_signature(options.expect_signature, result.signatures)
    if result.mode == "corpus":
        emit(render.corpus(result.system_names, result.scores, output, test_set))
    elif result.mode == "ci":
        emit(render.confidence(result.confidence, output, test_set))
    else:
        emit(render.paired(result.paired, output))
    if detail is not None:
        emit(render.detail(detail, output))


__all__ = ["Notices", "open_inputs", "check_conflicts", "stdin_stream", "finish"]


@contextmanager
def backend(options: RunOptions) -> Iterator[tuple[RunOptions, Executor | None]]:
    """Where a command's tasks run: here (no executor: ``-j`` local processes), or on the Dask cluster of
    ``--dask`` (:mod:`bleucli.dask`), open until the command has written its output (sentence scores are
    computed as they are printed). The options given back count the cluster's threads as ``jobs``."""
    if options.dask is None:
        yield options, None
        return
    from ..dask import dask_executor

    with dask_executor(options.dask) as (executor, threads):
        yield options._replace(jobs=threads), executor
