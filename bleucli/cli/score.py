"""``bleucli [score] REF... [-i SYS...]``: the sacreBLEU-compatible scoring command."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from ..clikit import report
from ..clikit.help import GroupedCommand
from ..clikit.metric_options import metric_options
from ..clikit.significance import significance_options
from ..metrics import registry
from ..options import (
    FORMATS,
    INPUT_DEFAULTS,
    MAX_JOBS,
    MAX_WIDTH,
    OUTPUT_DEFAULTS,
    RUN_DEFAULTS,
    RunOptions,
)
from ..testsets.cli import testset_options
from ..version import __version__


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
@click.option("--aligned", metavar="FILE", default=None, type=click.Path(allow_dash=False),  # a directory: exit 3
              help="Read hypotheses and references from one file: TSV, or JSON lines when FILE ends in .jsonl "
                   "(.gz too). With -j/--dask the workers read it in partitions. Replaces REF... and -i.")
@click.option("--columns", metavar="HYP,REF[,REF...]", default=None,
              help="Where --aligned keeps the hypothesis and the references: field numbers from 1 for TSV "
                   "[default: 1,2], keys for JSON lines [default: hyp,ref].")
@click.option("-sl", "--sentence-level", is_flag=True,
              help="One score per segment (effective order on, as in sacreBLEU).")
@click.option("-j", "--jobs", "--paired-jobs", type=click.IntRange(0, MAX_JOBS), default=RUN_DEFAULTS.jobs,
              show_default=True,
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
@click.option("--human-accuracy", "human_accuracy", is_flag=True,
              help="With -pbs/-par (text, latex): after sacreBLEU's table, the estimated accuracy with human "
                   "judgments of each delta to the baseline (Kocmi et al. 2024), for metrics with a published fit.")
@click.option("-nc", "--no-color", is_flag=True,
              help="No colours (p-values, headers) even on a terminal; NO_COLOR=1 does the same.")
@click.option("-w", "--width", type=click.IntRange(0, MAX_WIDTH), default=OUTPUT_DEFAULTS.width, show_default=True,
              help="Decimal places of printed scores (JSON 'score' too, as in sacreBLEU; 'unrounded_score' is exact).")
@click.option("-sh", "--short", is_flag=True, help="Abbreviated signature keys.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings on stderr.")
@click.option("--expect-signature", metavar="SIG", default=None,
              help="Fail with exit code 7 if the signature differs from SIG "
                   "(a value of '*' matches anything, e.g. version:*).")
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Print 'bleucli VERSION' and exit. A note follows it when the C extension is not in use (not "
                   "built, or BLEUCLI_PURE_PYTHON set) and the pure-Python n-gram matchers run.")
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
    from ..clikit.scoring import Notices, backend, check_conflicts, finish, open_inputs
    from ..engine.pipeline import expected_signature_fields, run
    from ..testsets import cli as tscli

    code = tscli.early_action(flags)
    if code is not None:
        return code
    options = _options(flags)
    check_conflicts(options)
    data = tscli.test_data_for(options)
    notices = Notices(options.output.quiet)
    bleu = options.metrics.bleu
    if bleu.smooth_value is not None and bleu.smooth_method in ("exp", "none") \
            and "bleu" in registry.metric_names(options.metrics.requested):
        notices.show(f"--smooth-value is ignored by the {bleu.smooth_method} smoothing method")
    # every option is validated (by building the metrics) before any input is read
    models = {"cache_dir": options.testset.cache_dir, "offline": options.testset.offline,
              "registry": options.testset.registry}  # where spBLEU models are cached
    target = data.target_language if data is not None else options.testset.target_language
    metrics = registry.build_metrics(options.metrics, None, target,
                                     data.signature_fields() if data is not None else None, models)
    if options.sentence_level and len(metrics) > 1:
        raise click.UsageError("--sentence-level takes one metric (-m)")
    if options.expect_signature is not None:  # a malformed expectation is a usage error, before any work
        expected_signature_fields(options.expect_signature, [m.name for m in metrics])
    _check_segment_options(options)
    filter_segment_scores(metrics, data)
    documents = _documents(options, data, notices)
    full: list[list[str]] = []  # -d: every system's hypotheses before the --origlang/--subset filter
    inputs = open_inputs(options, data, notices, full if options.output.detail else None)
    with backend(options) as (on_backend, executor):
        result = run(on_backend, metrics, inputs, executor, documents, progress=_bar())
        detail = None
        if options.output.detail and result.mode in ("corpus", "ci"):
            if len(result.system_names) > 1:
                notices.show("--detail breaks down one system's score: ignored with several systems")
            else:
                detail = tscli.detail_rows(options, data, metrics, full[0] if full else [])
        finish(options, result, notices, tscli.json_extra(data) if data is not None else None, detail)
    return 0


def _check_segment_options(options: RunOptions) -> None:
    """Segment scores and document resampling: the combinations that make no sense are usage errors."""
    given = options.metrics.segment_scores
    if given and options.sentence_level:
        raise click.UsageError("--segment-scores cannot be used with --sentence-level (-sl)")
    if given and not options.inputs.systems and options.inputs.aligned is None:
        raise click.UsageError("--segment-scores needs the systems as -i files (one score file per system)")
    for metric in given:
        count = len(options.inputs.systems) if options.inputs.systems else 1
        if len(metric.files) != count:
            raise click.UsageError(f"--segment-scores {metric.name}: {len(metric.files)} file(s) for {count} "
                                   "system(s); give one score file per system, in -i order")
    significance = options.significance
    if significance.unit == "document" and significance.test is None:
        raise click.UsageError("--resample-unit document applies to -ci, -pbs and -par")
    if significance.docids is not None and significance.unit != "document":
        raise click.UsageError("--docids is read by --resample-unit document")


def filter_segment_scores(metrics: Any, data: Any) -> None:
    """With ``-t --origlang/--subset``, segment-score files hold the whole set: filter them as the hypotheses."""
    keep = getattr(data, "keep", None)
    for metric in metrics:
        if keep is not None and hasattr(metric, "system_rows"):
            metric.keep = keep


def _documents(options: RunOptions, data: Any, notices: Any) -> list[str] | None:
    """Each segment's document id for ``--resample-unit document``: ``--docids FILE``, else the test set's."""
    if options.significance.unit != "document":
        return None
    from ..clikit.documents import document_ids

    documents, _name = document_ids(options, data, notices, options.significance.docids)
    if documents is None and data is None:
        raise click.UsageError("--resample-unit document needs each segment's document id: --docids FILE, "
                               "or a test set with doc ids (-t)")
    if documents is None:
        raise click.UsageError(f"the test set {data.test} has no doc ids: give them with --docids FILE")
    return documents


def _bar() -> Any:
    """The engine's progress reporter: click's bar on stderr when it is a terminal (after a delay), else None.

    The terminal test comes first, so that a run in a pipe (most runs) does not import the bar's module.
    """
    import sys

    try:
        if sys.stderr is None or not sys.stderr.isatty():
            return None
    except (ValueError, OSError):
        return None
    from ..clikit.progress import progress

    return progress


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


__all__ = ["score", "run_score"]
