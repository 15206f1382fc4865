"""``bleucli stats`` and ``bleucli merge``: score shards anywhere, merge them into the single run's output.

``stats`` takes the scoring command's options (it shares its parameters) and
writes a shard (:mod:`bleucli.shards.format`); ``merge`` adds shards up and prints
exactly what ``bleucli`` prints for the whole corpus, through the same final
step (:func:`bleucli.clikit.scoring.finish`). The scoring command hands its
parameters to :func:`stats_command` (this module does not import the CLI).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from ..clikit import report
from ..clikit.output import emit
from ..clikit.significance import significance_options
from ..metrics import registry
from ..options import FORMATS, MAX_JOBS, OUTPUT_DEFAULTS, OutputOptions, RunOptions, SignificanceOptions

#: Scoring options that make no sense for a shard (it holds sums, not printed scores).
_NOT_FOR_SHARDS = {"sentence_level", "confidence", "confidence_n", "paired_bs", "paired_bs_n", "paired_ar",
                   "paired_ar_n", "seed", "output_format", "score_only", "width", "short", "expect_signature",
                   "echo", "list_sets", "citation", "download", "version", "human_accuracy", "detail",
                   # segment scores are not text statistics; documents are chosen when merging
                   "segment_scores", "lower_is_better", "resample_unit", "docids"}


def _stats(score: click.Command, flags: dict[str, Any]) -> int:
    from ..clikit.scoring import Notices, backend, check_conflicts, open_inputs
    from ..engine.streaming import stream_rows, stream_statistics
    from ..testsets import cli as tscli
    from .format import file_sha256, shard_document, to_text

    context = click.get_current_context()
    for param in score.params:  # the scoring options a shard does not take keep their defaults
        if param.name is not None and param.name not in flags:
            # get_default, not .default: click 8.5 keeps an UNSET sentinel there, which is truthy
            default = param.get_default(context, call=True)
            flags[param.name] = False if default is None and getattr(param, "is_flag", False) else default
    if flags["offset"] < 0:
        raise click.UsageError("--offset is the shard's first segment: 0 or more")
    options = RunOptions.from_cli(flags, registry.metric_options_from_flags(flags, bool(flags["sentence_level"])))
    check_conflicts(options)
    data = tscli.test_data_for(options)
    notices = Notices(options.output.quiet)
    target = data.target_language if data is not None else options.testset.target_language
    metrics = registry.build_metrics(options.metrics, None, target,
                                     data.signature_fields() if data is not None else None)
    inputs = open_inputs(options, data, notices)
    compute = stream_rows if flags["per_segment"] else stream_statistics
    with backend(options) as (on_backend, executor):
        computed: Any = compute(metrics, inputs, on_backend.jobs, executor)
    rows, sums = (computed, None) if flags["per_segment"] else (None, computed)
    notices.flush()
    resolved = options.metrics
    from ..metrics.bleu import BLEU

    for metric in metrics:  # record the tokenizer chosen from the target language, not "default"
        if isinstance(metric, BLEU):
            resolved = resolved._replace(bleu=resolved.bleu._replace(tokenize=metric.tokenize))
    files = [*inputs.system_names, *inputs.reference_names] if data is None else list(inputs.system_names)
    if options.inputs.aligned is not None:
        files = [options.inputs.aligned]
    document = shard_document(
        resolved, data.signature_fields() if data is not None else None, metrics, sums, inputs.system_names,
        inputs.reference_names, len(inputs.references), flags["offset"],
        {name: file_sha256(name) for name in files}, tscli.json_extra(data) if data is not None else None,
        segments=len(rows[0][0]) if rows is not None else None)
    _write(to_text(document, rows), flags["output"])
    return 0


def _write(text: str, path: str | None) -> None:
    """stdout, or ``path`` written whole or not at all (a temporary file renamed into place)."""
    if path is None or path == "-":
        emit(text)
        return
    from ..clikit.output import write_whole

    # a device or FIFO (-o /dev/null) is written in place: a rename would replace it with a regular file
    write_whole(path, [text, "\n"], prefix=".bleucli-stats-")


def stats_command(score: click.Command) -> click.Command:
    """``bleucli stats``: the scoring command ``score``'s options but those a shard has no use for, and its own."""

    def callback(**flags: Any) -> int:
        with report.library_warnings(flags["quiet"]):
            return _stats(score, flags)

    return click.Command(
        name="stats",
        callback=callback,
        params=[p for p in score.params if p.name not in _NOT_FOR_SHARDS] + [
            click.Option(["-o", "--output"], default=None, metavar="FILE",
                         help="Write the shard to FILE (whole or not at all) instead of stdout."),
            click.Option(["--offset"], type=int, default=0, show_default=True, metavar="N",
                         help="The shard's first segment in the whole corpus (0-based), so that merge can put "
                              "shards in order."),
            click.Option(["--per-segment"], is_flag=True,
                         help="Keep every segment's statistics (JSON lines), so that `bleucli merge` can run "
                              "-ci, -pbs and -par on the merged corpus."),
        ],
        help="Write the sufficient statistics of a shard (JSON) for `bleucli merge`.\n\n"
             "Takes the scoring options. Split a corpus anywhere (e.g. `split -l`), run `bleucli stats` on each "
             "piece with --offset set to its first line, and merge: the result is the single run's, exactly.",
        context_settings={"help_option_names": ["-h", "--help"]},
    )


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("shards", nargs=-1, required=True, metavar="SHARD...")
@click.option("-f", "--format", "output_format", type=click.Choice(FORMATS, case_sensitive=False),
              envvar="BLEUCLI_FORMAT", default=None, help="Output format [default: json].")
@click.option("-b", "--score-only", is_flag=True, help="Print only the score(s).")
@click.option("-w", "--width", type=click.IntRange(0, 30), default=OUTPUT_DEFAULTS.width, show_default=True,
              help="Decimal places of printed scores.")
@click.option("-sh", "--short", is_flag=True, help="Abbreviated signature keys.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings on stderr.")
@click.option("--expect-signature", metavar="SIG", default=None,
              help="Fail with exit code 7 if the signature differs from SIG.")
@click.option("-j", "--jobs", type=click.IntRange(0, MAX_JOBS), default=1, show_default=True,
              help="Worker processes for the resampling tests (0: one per CPU).")
@click.option("--max-shard-bytes", type=click.IntRange(min=1), default=512 << 20, show_default=True, metavar="N",
              help="Refuse (exit 3) a shard larger than N bytes (512 MiB by default; decompressed size for .gz).")
@significance_options
def merge(shards: tuple[str, ...], output_format: str | None, score_only: bool, width: int, short: bool,
          quiet: bool, expect_signature: str | None, jobs: int, max_shard_bytes: int, **significance: Any) -> int:
    """Add up shards written by `bleucli stats` and print what `bleucli` prints for the whole corpus.

    Shards may be given in any order; they must have the same options, signatures,
    systems and bleucli version, and cover the corpus from its first segment (offset 0) without gaps or
    overlaps.

    A shard is data, checked whole before anything is added (exit 3 naming the
    shard and the JSON path of the bad field): regular files or stdin (-) only,
    at most --max-shard-bytes (512 MiB) each, JSON nested at most 32 levels,
    written by this bleucli version. Nothing named in a shard is opened or
    downloaded (a SentencePiece model, a MeCab dictionary): merging needs only
    the statistics.
    """
    from ..clikit.scoring import Notices, finish
    from ..engine.pipeline import RunResult
    from .format import merge as merge_shards
    from .format import read_shard, read_shard_bytes

    documents = []
    for path in shards:
        try:
            stdin = getattr(sys.stdin, "buffer", None) if path == "-" else None
            text = read_shard_bytes(path, max_shard_bytes, stdin).decode("utf-8")
        except UnicodeDecodeError:
            from .format import ShardError

            raise ShardError("not a bleucli statistics shard (not UTF-8)", path) from None
        documents.append((path, read_shard(path, text)))
    metrics, names, sums = merge_shards(documents)
    nrefs = documents[0][1]["nrefs"]
    options = RunOptions(output=OutputOptions(output_format, width, short, score_only, quiet),
                         significance=_significance(significance), jobs=jobs, expect_signature=expect_signature)
    if options.mode == "corpus":
        scores = [[metric.score_from_statistics(per_metric[k].totals(), nrefs)
                   for metric, per_metric in zip(metrics, sums)] for k in range(len(names))]
        result = RunResult("corpus", [s.signature for s in scores[0]], names, scores=scores)
    else:
        from ..engine.pipeline import run_on_rows
        from .format import merged_rows

        result = run_on_rows(options, metrics, merged_rows(documents), names, nrefs,
                             documents=_document_ids(options.significance, max_shard_bytes))
    finish(options, result, Notices(quiet), documents[0][1]["test_set"])
    return 0


def _significance(flags: dict[str, Any]) -> SignificanceOptions:
    from ..options import resolve_seed

    if sum(bool(flags[name]) for name in ("confidence", "paired_bs", "paired_ar")) > 1:
        raise click.UsageError("give one of --confidence, --paired-bs and --paired-ar")
    test = "ci" if flags["confidence"] else "bs" if flags["paired_bs"] else "ar" if flags["paired_ar"] else None
    seed = flags["seed"] if flags["seed"] is not None else os.environ.get("BLEUCLI_SEED")
    unit = flags.get("resample_unit") or "segment"
    if unit == "document" and test is None:
        raise click.UsageError("--resample-unit document applies to -ci, -pbs and -par")
    if flags.get("docids") is not None and unit != "document":
        raise click.UsageError("--docids is read by --resample-unit document")
    if unit == "document" and flags.get("docids") is None:
        raise click.UsageError("--resample-unit document needs each segment's document id: --docids FILE")
    return SignificanceOptions(test, flags["confidence_n"], flags["paired_bs_n"],  # type: ignore[arg-type]
                               flags["paired_ar_n"], resolve_seed(seed), unit, flags.get("docids"))


def _document_ids(significance: SignificanceOptions, max_line_bytes: int) -> list[str] | None:
    """The ``--docids`` file of the whole corpus (one id per merged segment), for document resampling."""
    if significance.unit != "document" or significance.docids is None:
        return None
    from ..input.reading import FileLines

    return list(FileLines(significance.docids, max_line_bytes=max_line_bytes))


__all__ = ["stats_command", "merge"]
