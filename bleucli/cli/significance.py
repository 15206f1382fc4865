"""Options and dispatch for ``-ci``, ``-pbs`` and ``-par`` (confidence and significance).

A thin layer over :mod:`bleucli.significance` and :mod:`bleucli.significance_render`:
it checks that the mode makes sense (sacreBLEU's checks, in its order), loads
every segment (resampling needs the whole statistics matrix) and prints.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import click

from .output import emit


def significance_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The sacreBLEU-compatible flags of confidence intervals and paired tests."""
    options = [
        click.option("-ci", "--confidence", is_flag=True,
                     help="Bootstrap 95% confidence interval of a single system."),
        click.option("-cin", "--confidence-n", type=click.IntRange(min=1), default=1000, show_default=True,
                     help="Bootstrap resamples for --confidence."),
        click.option("-pbs", "--paired-bs", is_flag=True,
                     help="Paired bootstrap resampling test; the first system is the baseline."),
        click.option("-pbsn", "--paired-bs-n", type=click.IntRange(min=1), default=1000, show_default=True,
                     help="Resamples for --paired-bs."),
        click.option("-par", "--paired-ar", is_flag=True,
                     help="Paired approximate randomization test; the first system is the baseline."),
        click.option("-parn", "--paired-ar-n", type=click.IntRange(min=1), default=10000, show_default=True,
                     help="Trials for --paired-ar."),
        click.option("--seed", default=None, metavar="N|none",
                     help="Random seed of resampling tests [default: BLEUCLI_SEED or 12345]; 'none' for unseeded."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def requested(o: dict[str, Any]) -> bool:
    return bool(o["confidence"] or o["paired_bs"] or o["paired_ar"])


def check_mode(o: dict[str, Any]) -> None:
    """Mode errors that need no input (usage errors, exit code 2)."""
    if o["paired_bs"] and o["paired_ar"]:
        raise click.UsageError("--paired-bs and --paired-ar cannot be used together")
    if o["sentence_level"] and requested(o):
        raise click.UsageError("statistical tests are unavailable in sentence-level mode (-sl)")
    if o["confidence"] and (o["paired_bs"] or o["paired_ar"]):
        raise click.UsageError("--confidence is for one system; paired tests report intervals themselves")


def run(
    o: dict[str, Any],
    build_metrics: Callable[[list[list[str]]], list[Any]],
    systems: Sequence[Any],
    references: Sequence[Any],
    system_names: list[str],
    reference_names: list[str],
) -> None:
    """Load every segment, compute the test for each metric, print the result."""
    from ..significance import (
        confidence_interval, default_system_names, paired_system_names, paired_test, resolve_seed,
        system_statistics,
    )
    from ..significance_render import align_on_equals, confidence_json, confidence_line, render_paired
    from ..streaming import aligned_segments

    paired = o["paired_bs"] or o["paired_ar"]
    if paired and len(systems) < 2:
        raise click.UsageError("paired tests need several systems: give the baseline and the others with -i")
    if o["confidence"] and len(systems) > 1:
        raise click.UsageError("--confidence takes one system; use --paired-bs or --paired-ar for several")
    seed = resolve_seed(o["seed"] if o["seed"] is not None else os.environ.get("BLEUCLI_SEED"))

    rows = list(aligned_segments(systems, references, system_names, reference_names))
    hyps = [[row[0][k] for row in rows] for k in range(len(systems))]
    refs = [[row[1][k] for row in rows] for k in range(len(references))]
    metrics = build_metrics(refs)
    fmt = (o["output_format"] or "json").lower()

    if o["confidence"]:
        results = [confidence_interval(m, m.corpus_statistics(hyps[0]), o["confidence_n"], seed) for m in metrics]
        if fmt == "json" and not o["score_only"]:
            emit(confidence_json(results))
        else:
            lines = [confidence_line(r, o["width"], o["score_only"], o["short"]) for r in results]
            emit("\n".join(lines if o["score_only"] else align_on_equals(lines)))
        return

    test = "bs" if o["paired_bs"] else "ar"
    n = o["paired_bs_n"] if test == "bs" else o["paired_ar_n"]
    from_stdin_columns = list(o["inputs"]) in ([], ["-"])
    names = default_system_names(len(systems)) if from_stdin_columns else paired_system_names(system_names)
    paired_results = []
    for metric in metrics:
        stats = system_statistics(metric, hyps, o["jobs"])
        paired_results.append(paired_test(test, metric, stats[0], stats[1:], n, seed, names=names, jobs=o["jobs"]))
    emit(render_paired(paired_results, fmt, width=o["width"], short=o["short"]))
