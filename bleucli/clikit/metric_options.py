"""``-m/--metrics`` and the chrF and TER options (their defaults come from :mod:`bleucli.options`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..options import CHRF_DEFAULTS, METRIC_NAMES, TER_DEFAULTS


def metric_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """sacreBLEU's chrF and TER flags (BLEU's own flags are declared with the scoring command)."""
    options = [
        click.option("-m", "--metrics", multiple=True, type=click.Choice(METRIC_NAMES, case_sensitive=False),
                     metavar="METRIC...", help="Metrics to compute: bleu, chrf, ter [default: bleu]."),
        click.option("-cc", "--chrf-char-order", type=int, default=CHRF_DEFAULTS.char_order, show_default=True,
                     help="chrF character n-gram order."),
        click.option("-cw", "--chrf-word-order", type=int, default=CHRF_DEFAULTS.word_order, show_default=True,
                     help="chrF word n-gram order (2 gives chrF++)."),
        click.option("--chrf-beta", type=int, default=CHRF_DEFAULTS.beta, show_default=True,
                     help="chrF recall weight β."),
        click.option("--chrf-whitespace", is_flag=True, help="Keep whitespace in chrF character n-grams."),
        click.option("--chrf-lowercase", is_flag=True, help="Case-insensitive chrF."),
        click.option("--chrf-eps-smoothing", is_flag=True,
                     help="chrF++.py/NLTK/Moses-style epsilon smoothing instead of effective order."),
        click.option("--ter-case-sensitive", is_flag=True, help="Case-sensitive TER (TER lowercases by default)."),
        click.option("--ter-asian-support", is_flag=True,
                     help="TER support for Asian scripts (with normalization/no-punct)."),
        click.option("--ter-no-punct", is_flag=True, help="Remove punctuation before TER."),
        click.option("--ter-normalized", is_flag=True, help="Tercom normalisation before TER."),
        click.option("--ter-max-words", type=click.IntRange(min=0), default=TER_DEFAULTS.max_words,
                     show_default=True,
                     help="Refuse (exit 3) a TER segment with more words than this; TER's time grows "
                          "faster than quadratically with segment length. 0: no limit."),
    ]
    for option in reversed(options):
        function = option(function)
    return function
