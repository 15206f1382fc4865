"""``-m/--metrics`` and the options of each metric, and building the metric objects from them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

#: sacreBLEU prints metrics in this order whatever order they were asked in.
METRIC_ORDER = ("bleu", "chrf", "ter")


def metric_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """sacreBLEU's chrF and TER flags (BLEU's own flags are declared with the scoring command)."""
    options = [
        click.option("-m", "--metrics", multiple=True, type=click.Choice(METRIC_ORDER, case_sensitive=False),
                     metavar="METRIC...", help="Metrics to compute: bleu, chrf, ter [default: bleu]."),
        click.option("-cc", "--chrf-char-order", type=int, default=6, show_default=True,
                     help="chrF character n-gram order."),
        click.option("-cw", "--chrf-word-order", type=int, default=0, show_default=True,
                     help="chrF word n-gram order (2 gives chrF++)."),
        click.option("--chrf-beta", type=int, default=2, show_default=True, help="chrF recall weight β."),
        click.option("--chrf-whitespace", is_flag=True, help="Keep whitespace in chrF character n-grams."),
        click.option("--chrf-lowercase", is_flag=True, help="Case-insensitive chrF."),
        click.option("--chrf-eps-smoothing", is_flag=True,
                     help="chrF++.py/NLTK/Moses-style epsilon smoothing instead of effective order."),
        click.option("--ter-case-sensitive", is_flag=True, help="Case-sensitive TER (TER lowercases by default)."),
        click.option("--ter-asian-support", is_flag=True, help="TER support for Asian scripts (with normalization/no-punct)."),
        click.option("--ter-no-punct", is_flag=True, help="Remove punctuation before TER."),
        click.option("--ter-normalized", is_flag=True, help="Tercom normalisation before TER."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def requested_metrics(o: dict[str, Any]) -> list[str]:
    """The metric names asked for, once each, in sacreBLEU's printing order."""
    asked = {name.lower() for name in o["metrics"]} or {"bleu"}
    return [name for name in METRIC_ORDER if name in asked]


def build_metrics(o: dict[str, Any], references: list[list[str]] | None, trg_lang: str) -> list[Any]:
    """Metric objects for the requested metrics, references cached when given."""
    metrics: list[Any] = []
    for name in requested_metrics(o):
        if name == "bleu":
            from ..metrics.bleu import BLEU

            metrics.append(BLEU(
                lowercase=o["lowercase"], force=o["force"], tokenize=o["tokenize"],
                smooth_method=o["smooth_method"], smooth_value=o["smooth_value"],
                max_ngram_order=o["max_order"], effective_order=o["sentence_level"],
                trg_lang=trg_lang, references=references,
            ))
        elif name == "chrf":
            from ..metrics.chrf import CHRF

            metrics.append(CHRF(
                char_order=o["chrf_char_order"], word_order=o["chrf_word_order"], beta=o["chrf_beta"],
                lowercase=o["chrf_lowercase"], whitespace=o["chrf_whitespace"],
                eps_smoothing=o["chrf_eps_smoothing"], references=references,
            ))
        else:
            from ..metrics.ter import TER

            metrics.append(TER(
                normalized=o["ter_normalized"], no_punct=o["ter_no_punct"],
                asian_support=o["ter_asian_support"], case_sensitive=o["ter_case_sensitive"],
                references=references,
            ))
    return metrics
