"""``bleucli rank REF... -i SYS1 SYS2 ...``: rank systems in significance clusters.

A thin layer: the inputs are opened as ``compare`` opens them (references or
``-t``/``-l``), every metric of ``-m`` is scored through the engine, and the
numbers come from :func:`bleucli.significance.ranking.rank_systems`; the
output from :mod:`bleucli.render.ranking`.
"""

from __future__ import annotations

import os
from typing import Any

import click

from ..clikit import report
from ..clikit.comparison import comparison_inputs
from ..clikit.metric_options import metric_options
from ..clikit.output import emit
from ..clikit.report import ExitCode
from ..clikit.significance import resample_unit_option
from ..metrics import registry
from ..options import MAX_JOBS, MAX_RESAMPLES, MAX_WIDTH, RUN_DEFAULTS
from ..render.ranking import FORMATS
from ..significance.ranking import CORRECTIONS, DEFAULT_ALPHA


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@comparison_inputs(
    systems_metavar="SYS...",
    systems_help="System output files (two or more), one per system, line-aligned with the references.",
    docids_help="The document id of each segment, one a line, for --resample-unit document "
                "[default with -t: the test set's doc ids].")
@click.option("-pbs", "--paired-bs", "paired_bs", is_flag=True,
              help="Test every pair with paired bootstrap resampling (the default).")
@click.option("-par", "--paired-ar", "paired_ar", is_flag=True,
              help="Test every pair with paired approximate randomization (rank ranges still come from the "
                   "bootstrap).")
@click.option("-pbsn", "--paired-bs-n", type=click.IntRange(1, MAX_RESAMPLES), default=None,
              help="Bootstrap resamples [default: 1000, or more when the number of pairs needs it].")
@click.option("-parn", "--paired-ar-n", type=click.IntRange(1, MAX_RESAMPLES), default=None,
              help="Approximate randomization trials [default: 10000, or more when the number of pairs needs it].")
@click.option("--seed", default=None, metavar="N|none",
              help="Random seed of the tests [default: BLEUCLI_SEED or 12345]; 'none' for unseeded.")
@resample_unit_option
@click.option("--alpha", type=click.FloatRange(min=0, max=1, min_open=True, max_open=True), default=DEFAULT_ALPHA,
              show_default=True, help="Significance level: a pair is significant when its adjusted p <= alpha.")
@click.option("--correction", type=click.Choice(CORRECTIONS), default="holm", show_default=True,
              help="Adjustment of the p-values for testing every pair: Holm's method, or none.")
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output format (latex: booktabs tables as WMT prints its rankings).")
@click.option("-w", "--width", type=click.IntRange(0, MAX_WIDTH), default=1, show_default=True,
              help="Decimals of the scores and deltas.")
@click.option("--short", is_flag=True, help="Short signatures.")
@click.option("-j", "--jobs", type=click.IntRange(0, MAX_JOBS), default=RUN_DEFAULTS.jobs, show_default=True,
              help="Worker processes (0: one per CPU); the numbers are identical for any value.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings on stderr.")
@metric_options
def rank(**flags: Any) -> int:
    """Rank systems: every pair tested, Holm-adjusted, clusters and rank ranges as in WMT's findings.

    Give the references before -i, or a standard test set with -t NAME -l PAIR. Each pair's
    p-value is the one -pbs/-par gives for it (same seed); a delta of exactly 0 is never
    significant. Next to each delta, the estimated accuracy with human judgments (Kocmi et al.
    2024) for the metrics with a published fit.
    """
    with report.library_warnings(flags["quiet"]):
        return _rank(flags)


def _rank(flags: dict[str, Any]) -> int:
    from ..clikit.progress import progress, stderr_is_a_terminal
    from ..clikit.scoring import Notices, open_inputs
    from ..engine.pipeline import input_segments
    from ..engine.progress import phase, ranking_units
    from ..engine.streaming import stream_rows
    from ..options import resolve_seed
    from ..render.ranking import render_ranking
    from ..significance.ranking import rank_systems
    from ..testsets import cli as tscli
    from .cli import _options

    if flags["paired_bs"] and flags["paired_ar"]:
        raise click.UsageError("choose one test: -pbs (paired bootstrap) or -par (approximate randomization)")
    if len(flags["inputs"]) < 2:
        raise click.UsageError("rank needs at least two systems: -i SYS1 SYS2...")
    if "-" in flags["inputs"]:
        raise click.UsageError("rank reads systems from files, not stdin")
    test = "ar" if flags["paired_ar"] else "bs"
    seed_text = flags["seed"] if flags["seed"] is not None else os.environ.get("BLEUCLI_SEED")
    seed = resolve_seed(seed_text)
    options = _options({**flags, "paired_bs_n": flags["paired_bs_n"] or 1, "paired_ar_n": flags["paired_ar_n"] or 1})
    data = tscli.test_data_for(options)
    if data is None and not options.inputs.refs:
        raise click.UsageError("give reference files before -i, or a test set with -t NAME -l PAIR")
    signature_fields = data.signature_fields() if data is not None else None
    target = data.target_language if data is not None else options.testset.target_language
    metrics = registry.build_metrics(options.metrics, None, target, signature_fields)
    notices = Notices(flags["quiet"])
    streams = open_inputs(options, data, notices)
    bar = progress if stderr_is_a_terminal() else None
    with phase(bar, "Scoring", lambda: input_segments(streams)):
        rows = stream_rows(metrics, streams, options.jobs)
    documents = _documents(flags, options, data, notices, len(rows[0][0]) if rows and rows[0] else 0)
    notices.flush()
    nrefs = len(streams.references)
    n = flags["paired_ar_n"] if test == "ar" else flags["paired_bs_n"]
    with phase(bar, "Ranking", len(metrics) * ranking_units(test, len(streams.systems))):
        rankings = [rank_systems(metric, per_metric, list(streams.system_names), test=test, n=n,
                                 n_bootstrap=flags["paired_bs_n"], seed=seed, alpha=flags["alpha"],
                                 correction=flags["correction"], jobs=options.jobs, nrefs=nrefs,
                                 documents=documents)
                    for metric, per_metric in zip(metrics, rows)]
    emit(render_ranking(rankings, flags["fmt"], flags["width"], flags["short"]))
    return ExitCode.OK


def _documents(flags: dict[str, Any], options: Any, data: Any, notices: Any, segments: int) -> list[list[int]] | None:
    """The segments of each document with ``--resample-unit document`` (doc ids from ``--docids`` or ``-t``)."""
    from ..clikit.documents import document_ids
    from ..significance.units import document_index

    if flags["resample_unit"] != "document":
        if flags["docids"]:
            raise click.UsageError("--docids applies to --resample-unit document")
        return None
    ids, name = document_ids(options, data, notices, flags["docids"] or None)
    if ids is None:
        raise click.UsageError("--resample-unit document needs each segment's document id: --docids FILE, "
                               "or a test set with doc ids (-t)")
    return document_index(ids, segments, name or "doc ids")


__all__ = ["rank"]
