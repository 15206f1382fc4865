"""The flags of ``-ci``, ``-pbs`` and ``-par`` (confidence and significance).

They become :class:`bleucli.options.SignificanceOptions`; the run itself is
:func:`bleucli.engine.pipeline.run`, the output :mod:`bleucli.render`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..options import DEFAULT_AR_TRIALS, DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED, MAX_RESAMPLES, RESAMPLE_UNITS


def resample_unit_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--resample-unit {segment,document}``: what a resample draws (``-ci``, ``-pbs``, ``-par``, ``compare``)."""
    return click.option("--resample-unit", "resample_unit", type=click.Choice(RESAMPLE_UNITS), default="segment",
                        show_default=True,
                        help="What a resample draws: single segments (sacreBLEU), or whole documents (their "
                             "segments' statistics summed first; doc ids from -t or --docids; signature "
                             "unit:doc).")(function)


def significance_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The sacreBLEU-compatible flags of confidence intervals and paired tests."""
    options: list[Callable[[Any], Any]] = [
        click.option("-ci", "--confidence", is_flag=True,
                     help="Bootstrap 95% confidence interval of a single system."),
        click.option("-cin", "--confidence-n", type=click.IntRange(1, MAX_RESAMPLES), default=DEFAULT_BOOTSTRAP_SAMPLES,
                     show_default=True,
                     help="Bootstrap resamples for --confidence."),
        click.option("-pbs", "--paired-bs", is_flag=True,
                     help="Paired bootstrap resampling test; the first system is the baseline."),
        click.option("-pbsn", "--paired-bs-n", type=click.IntRange(1, MAX_RESAMPLES), default=DEFAULT_BOOTSTRAP_SAMPLES,
                     show_default=True,
                     help="Resamples for --paired-bs."),
        click.option("-par", "--paired-ar", is_flag=True,
                     help="Paired approximate randomization test; the first system is the baseline."),
        click.option("-parn", "--paired-ar-n", type=click.IntRange(1, MAX_RESAMPLES), default=DEFAULT_AR_TRIALS,
                     show_default=True,
                     help="Trials for --paired-ar."),
        click.option("--seed", default=None, metavar="N|none",
                     help=f"Random seed of resampling tests [default: BLEUCLI_SEED or {DEFAULT_SEED}]; "
                          "'none' for unseeded."),
        resample_unit_option,
        click.option("--docids", metavar="FILE", default=None,
                     help="The document id of each segment, one a line, for --resample-unit document "
                          "[default with -t: the test set's doc ids]. A document is every segment of its id, "
                          "contiguous or not."),
    ]
    for option in reversed(options):
        function = option(function)
    return function
