"""``-m/--metrics`` and every metric's own flags, made into click options from the metric registry.

The flags are data in :mod:`bleucli.metrics.registry` (a plugin's too), so a
command that takes metric options (``score``, ``stats``, ``compare``) gets
every registered metric's, with the defaults of its options record.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import click

from ..metrics import registry
from . import report


def _choices(flag: registry.Flag) -> list[str]:
    if isinstance(flag.choices, str):  # "module:function" returning the choices
        module, _, function = flag.choices.partition(":")
        return list(getattr(importlib.import_module(module), function)())
    return list(flag.choices)


def _option(flag: registry.Flag, defaults: Any) -> Callable[[Any], Any]:
    default = getattr(defaults, flag.field)
    settings: dict[str, Any] = {"help": flag.help}
    if flag.kind == "flag":
        settings["is_flag"] = True
    else:
        if flag.kind == "choice":
            settings["type"] = click.Choice(_choices(flag))
        elif flag.kind == "int":
            bounded = flag.minimum is not None or flag.maximum is not None
            settings["type"] = click.IntRange(flag.minimum, flag.maximum) if bounded else int
        elif flag.kind == "float":
            settings["type"] = float
        elif flag.kind == "path":
            settings["type"] = click.Path()  # the reader refuses a directory (exit 3, as for -i DIR)
        settings["default"] = default
        settings["show_default"] = default is not None
        if flag.metavar:
            settings["metavar"] = flag.metavar
    return click.option(*flag.spellings, flag.name, **settings)


def metric_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """``-m`` (every registered metric's name) and each metric's flags, in registry order."""
    # a plugin that cannot be registered is told with the command's warnings (none with -q)
    names = list(registry.entries(warn=False))
    report.defer_warnings(f"{message}; it is left out" for message in registry.refused().values())
    # a plugin that could not be registered stays a choice, so that asking for it says why it cannot run
    choices = [*names, *registry.refused()]
    options = [click.option("-m", "--metrics", multiple=True, type=click.Choice(choices, case_sensitive=False),
                            metavar="METRIC...", help=f"Metrics to compute: {', '.join(names)} [default: bleu]."),
               click.option("--segment-scores", "segment_scores", multiple=True, default=(), metavar="NAME FILE...",
                            help="A metric given as segment scores, one file per system in -i order (a number a "
                                 "line, JSON lines with 'score', or COMET's --to_json output); its score is "
                                 "their mean, scored after -m's metrics. Repeat for more metrics."),
               click.option("--lower-is-better", "lower_is_better", multiple=True, default=(), metavar="NAME",
                            help="A --segment-scores metric for which lower scores are better.")]
    for entry in registry.entries().values():
        defaults = entry.options()
        options.extend(_option(flag, defaults) for flag in entry.flags)
    for option in reversed(options):
        function = option(function)
    return function


def metric_help_sections() -> list[tuple[str, list[str]]]:
    """``(section title, parameter names)`` of each metric with flags, for the grouped ``--help``."""
    return [(entry.help_section or entry.name, [flag.name for flag in entry.flags])
            for entry in registry.entries().values() if entry.flags]
