"""``bleucli [score] REF... [-i SYS...]``: the sacreBLEU-compatible scoring command."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import click

from ..clikit import report
from ..clikit.help import GroupedCommand
from ..clikit.metric_options import metric_options
from ..clikit.output import emit, emit_when_complete
from ..clikit.significance import significance_options
from ..metrics import registry
from ..options import (
    FORMATS,
    INPUT_DEFAULTS,
    OUTPUT_DEFAULTS,
    RUN_DEFAULTS,
    RunOptions,
)
from ..testsets.cli import testset_options
from ..version import __version__

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterator

    from ..engine.pipeline import Inputs, RunResult


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``bleucli X.Y.Z``, and a notice when the pure-Python n-gram matchers are in use (same scores, slower)."""
    if not value or ctx.resilient_parsing:
        return
    from ..metrics.compiled import implementation

    line = f"bleucli {__version__}"
    if implementation() == "python":
        line += " (pure-Python n-gram matchers: the C extension is not built, or BLEUCLI_PURE_PYTHON is set)"
    click.echo(line)
    ctx.exit()


@click.command(cls=GroupedCommand, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("refs", nargs=-1, metavar="REF...")
@click.option("-i", "--input", "inputs", multiple=True, metavar="FILE...",
              help="System output file(s); several make a table. '-' is stdin. Default: stdin.")
@click.option("-nr", "--num-refs", type=click.IntRange(min=1), default=INPUT_DEFAULTS.num_refs, show_default=True,
              help="Split the single reference file on tabs into this many references.")
@click.option("-e", "--encoding", default=INPUT_DEFAULTS.encoding, show_default=True,
              help="Encoding of reference and hypothesis input (decoded strictly).")
@click.option("--tsv/--no-tsv", default=None,
              help="stdin: one system per tab-separated column (the default, as in sacreBLEU; lines whose "
                   "number of tabs differs are an error), or --no-tsv: one system whose lines may hold tabs.")
@click.option("--max-line-bytes", type=click.IntRange(min=0), default=INPUT_DEFAULTS.max_line_bytes, show_default=True,
              help="Refuse an input line longer than this many bytes (exit 3) as it arrives; 0: no limit.")
@click.option("--aligned", metavar="FILE", default=None, type=click.Path(dir_okay=False, allow_dash=False),
              help="Read hypotheses and references from one file: TSV, or JSON lines when FILE ends in .jsonl "
                   "(.gz too). With -j/--dask the workers read it in partitions. Replaces REF... and -i.")
@click.option("--columns", metavar="HYP,REF[,REF...]", default=None,
              help="Where --aligned keeps the hypothesis and the references: field numbers from 1 for TSV "
                   "[default: 1,2], keys for JSON lines [default: hyp,ref].")
@click.option("-sl", "--sentence-level", is_flag=True,
              help="One score per segment (effective order on, as in sacreBLEU).")
@click.option("-j", "--jobs", "--paired-jobs", type=click.IntRange(min=0), default=RUN_DEFAULTS.jobs, show_default=True,
              help="Worker processes for scoring (0: one per CPU); the result is identical for any value.")
@click.option("--dask", metavar="local:N|ADDRESS", default=None,
              help="Score on a Dask cluster: local:N starts N worker processes here; or a scheduler address "
                   "such as tcp://HOST:PORT. Needs the dask extra. The result is identical.")
@click.option("-f", "--format", "output_format", type=click.Choice(FORMATS, case_sensitive=False),
              envvar="BLEUCLI_FORMAT", default=None,
              help="Output format [default: json; text for --sentence-level and -d]. "
                   "Env: BLEUCLI_FORMAT, else SACREBLEU_FORMAT.")
@click.option("-b", "--score-only", is_flag=True, help="Print only the score(s).")
@click.option("-d", "--detail", is_flag=True,
              help="With -t: the score of each original language and domain/country subset after the "
                   "score (sacreBLEU's breakdown; text output).")
@click.option("-nc", "--no-color", is_flag=True,
              help="No colours (p-values, headers) even on a terminal; NO_COLOR=1 does the same.")
@click.option("-w", "--width", type=click.IntRange(0, 30), default=OUTPUT_DEFAULTS.width, show_default=True,
              help="Decimal places of printed scores (JSON 'score' too, as in sacreBLEU; 'unrounded_score' is exact).")
@click.option("-sh", "--short", is_flag=True, help="Abbreviated signature keys.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings on stderr.")
@click.option("--expect-signature", metavar="SIG", default=None,
              help="Fail with exit code 7 if the signature differs from SIG "
                   "(a value of '*' matches anything, e.g. version:*).")
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version (and whether the compiled n-gram matcher is in use) and exit.")
@testset_options
@significance_options
@metric_options
def score(**options: Any) -> int:
    """Score hypotheses against reference files REF... with BLEU, chrF or TER.

    Hypotheses come from stdin (one segment per line; tab-separated columns are
    several systems) or -i FILE...; give the references before -i, or score
    against a standard test set with -t NAME -l PAIR.
    """
    return run_score(options)


def run_score(flags: dict[str, Any]) -> int:
    """Collect warnings from the library and show them unless ``--quiet``."""
    with report.library_warnings(flags["quiet"]):
        return _score(flags)


def _score(flags: dict[str, Any]) -> int:
    from ..engine.pipeline import expected_signature_fields, run
    from ..testsets import cli as tscli

    code = tscli.early_action(flags)
    if code is not None:
        return code
    options = _options(flags)
    _check_conflicts(options)
    data = tscli.test_data_for(options)
    notices = Notices(options.output.quiet)
    bleu = options.metrics.bleu
    if bleu.smooth_value is not None and bleu.smooth_method in ("exp", "none") \
            and "bleu" in registry.metric_names(options.metrics.requested):
        notices.show(f"--smooth-value is ignored by the {bleu.smooth_method} smoothing method")
    # every option is validated (by building the metrics) before any input is read
    models = {"cache_dir": options.testset.cache_dir, "offline": options.testset.offline,
              "registry": options.testset.registry}  # where spBLEU models are cached
    metrics = registry.build_metrics(options.metrics, None, options.testset.target_language,
                                     data.signature_fields() if data is not None else None, models)
    if options.sentence_level and len(metrics) > 1:
        raise click.UsageError("--sentence-level takes one metric (-m)")
    if options.expect_signature is not None:  # a malformed expectation is a usage error, before any work
        expected_signature_fields(options.expect_signature, [m.name for m in metrics])
    full: list[list[str]] = []  # -d: every system's hypotheses before the --origlang/--subset filter
    inputs = _open_inputs(options, data, notices, full if options.output.detail else None)
    result = run(options, metrics, inputs)
    detail = None
    if options.output.detail and result.mode in ("corpus", "ci"):
        if len(result.system_names) > 1:
            notices.show("--detail breaks down one system's score: ignored with several systems")
        else:
            detail = tscli.detail_rows(options, data, metrics, full[0] if full else [])
    finish(options, result, notices, tscli.json_extra(data) if data is not None else None, detail)
    return 0


def _options(flags: dict[str, Any]) -> RunOptions:
    """The run's typed options; significance flags that make no sense together are usage errors."""
    from ..options import resolve_seed

    if flags["paired_bs"] and flags["paired_ar"]:
        raise click.UsageError("--paired-bs and --paired-ar cannot be used together")
    if flags["confidence"] and (flags["paired_bs"] or flags["paired_ar"]):
        raise click.UsageError("--confidence is for one system; paired tests report intervals themselves")
    seed_text = flags["seed"] if flags["seed"] is not None else os.environ.get("BLEUCLI_SEED")
    fmt = flags["output_format"] or _sacrebleu_format()
    if flags["detail"] and fmt in (None, "json"):
        fmt = "text"  # sacreBLEU: "the translationese info will interfere with JSON output"
    metrics = registry.metric_options_from_flags(flags, bool(flags["sentence_level"]))
    return RunOptions.from_cli({**flags, "output_format": fmt}, metrics, seed=resolve_seed(seed_text),
                               color=_use_color(flags["no_color"]))


def _sacrebleu_format() -> str | None:
    """``SACREBLEU_FORMAT`` when it names one of sacreBLEU's formats (any case), as sacreBLEU reads it.

    Only consulted when neither ``-f`` nor ``BLEUCLI_FORMAT`` is given: a flag
    wins over a variable in bleucli (in sacreBLEU the variable wins).
    """
    value = os.environ.get("SACREBLEU_FORMAT", "").lower()
    return value if value in ("json", "text", "latex") else None


def _use_color(no_color: bool) -> bool:
    """sacreBLEU's colours: only on a terminal (colorama strips them otherwise), off with -nc or NO_COLOR."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (ValueError, OSError):
        return False


def _open_inputs(options: RunOptions, data: Any, notices: Notices, full: list[list[str]] | None = None) -> Inputs:
    """The run's streams; with ``full`` (a list to fill) and a test set, each system's unfiltered lines too."""
    from ..engine.pipeline import Inputs
    from ..input.sources import open_references, open_system
    from ..testsets import cli as tscli

    if options.inputs.aligned is not None:
        from ..input.aligned import AlignedFile, open_aligned

        source = AlignedFile.build(options.inputs.aligned, options.inputs.columns, options.inputs.encoding,
                                   options.inputs.max_line_bytes)
        hyp_column, ref_columns = open_aligned(source, notices.pending)
        return Inputs(source.system_names, hyp_column, source.reference_names, ref_columns)
    if data is not None:
        reference_names, references = tscli.reference_names(data), data.references
    else:
        reference_names, references = open_references(options.inputs.refs, options.inputs.num_refs,
                                                      options.inputs.encoding, notices.pending,
                                                      max_line_bytes=options.inputs.max_line_bytes)
    system_names: list[str] = []
    systems: list[Any] = []
    for path in options.inputs.systems or ("-",):
        stdin = _stdin_stream() if path == "-" else None
        names, streams = open_system(path, options.inputs.encoding, notices.pending, stdin, options.inputs.tsv,
                                     max_line_bytes=options.inputs.max_line_bytes)
        if options.sentence_level and len(names) > 1:
            raise click.UsageError(f"--sentence-level scores one system, but stdin has {len(names)} tab-separated "
                                   "columns (--no-tsv: one system whose lines may hold tabs)")
        system_names.extend(names)
        systems.extend(streams)
    if data is not None:
        if full is not None:
            systems = [list(stream) for stream in systems]
            full.extend(systems)
        systems = tscli.filter_systems(data, system_names, systems)
    return Inputs(system_names, systems, reference_names, references,
                  from_stdin=options.inputs.systems in ((), ("-",)))


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


def _check_conflicts(options: RunOptions) -> None:
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
    duplicates = sorted({p for p in systems if systems.count(p) > 1})
    if duplicates:
        raise click.UsageError(f"system file given twice: {duplicates[0]}")


def _stdin_stream() -> Any:
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


__all__ = ["score", "run_score", "finish"]
