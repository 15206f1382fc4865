"""The inputs of the commands that set systems side by side (``rank``, ``compare``): one declaration.

Both read references (``REF...`` or ``-t``/``-l``), two or more ``-i`` files,
each segment's document id (``--docids``) and, for ``compare``, its source.
What differs is only how each command describes its systems and its doc ids,
so the options are declared here once, as click's own pattern for shared
options: a function returning the stacked decorators.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..options import INPUT_DEFAULTS

#: The test-set options of ``rank`` and ``compare``: scoring against ``-t``/``-l`` (no --echo, --list...).
COMPARISON_TESTSET_KEYS = ("test_set", "langpair", "origlang", "subset", "cache_dir", "offline", "mirrors",
                           "testsets_registry")


def comparison_inputs(*, systems_metavar: str, systems_help: str, docids_help: str,
                      source_help: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``REF...``, ``-i``, ``--source`` (when ``source_help`` is given), ``--docids``, ``-nr``, ``-e``,
    ``--max-line-bytes`` and the test-set options, in that order, as one decorator."""
    from ..testsets.cli import testset_options

    options: list[Callable[[Any], Any]] = [
        click.argument("refs", nargs=-1, metavar="REF..."),
        click.option("-i", "--input", "inputs", multiple=True, metavar=systems_metavar, help=systems_help),
    ]
    if source_help is not None:
        options.append(click.option("--source", metavar="FILE", default=None, help=source_help))
    options += [
        click.option("--docids", metavar="FILE", default=None, help=docids_help),
        click.option("-nr", "--num-refs", type=click.IntRange(min=1), default=INPUT_DEFAULTS.num_refs,
                     show_default=True, help="Split the single reference file on tabs into this many references."),
        click.option("-e", "--encoding", default=INPUT_DEFAULTS.encoding, show_default=True,
                     help="Encoding of every input file."),
        click.option("--max-line-bytes", type=click.IntRange(min=0), default=INPUT_DEFAULTS.max_line_bytes,
                     show_default=True,
                     help="Refuse an input line longer than this many bytes (exit 3) as it arrives; 0: no limit."),
    ]

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        command = testset_options(command, COMPARISON_TESTSET_KEYS)
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


__all__ = ["COMPARISON_TESTSET_KEYS", "comparison_inputs"]
