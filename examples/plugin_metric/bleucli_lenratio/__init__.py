"""bleucli-lenratio: a toy metric plugin for bleucli (the registry entry).

bleucli imports this module at every start-up, through the entry point in
``pyproject.toml``, to learn the metric's name, options, flags and signature
keys, so it imports nothing heavy: the metric itself lives in
:mod:`bleucli_lenratio.metric`, imported only when ``-m lenratio`` is used.
"""

from __future__ import annotations

from bleucli.frozen import Frozen
from bleucli.metrics.registry import Flag, MetricEntry, StatisticsSchema

#: how ``--lenratio-tokenize`` counts length: whitespace-separated words, or non-space characters
TOKENIZERS = ("split", "chars")


class LenRatioOptions(Frozen):
    """The metric's options; the defaults here are the metric's defaults (and the CLI's)."""

    tokenize: str = "split"


ENTRY = MetricEntry(
    name="lenratio",
    metric="bleucli_lenratio.metric:LenRatio",
    options=LenRatioOptions,
    signature_family="LenRatio",
    signature_keys={"tok": "t", "ref": "r"},
    # [hypothesis length, closest reference length]: two non-negative integers. No invariant ties them
    # (a reference may be empty), so no check= (BLEU's: matches never exceed the n-gram counts).
    statistics=StatisticsSchema(columns=lambda options: 2),
    help_section="LenRatio (plugin bleucli-lenratio: 100 x hypothesis length / closest reference length)",
    flags=(
        Flag(("--lenratio-tokenize",), "tokenize", kind="choice", choices=TOKENIZERS,
             help="Count whitespace-separated words (split) or non-space characters (chars)."),
    ),
)
