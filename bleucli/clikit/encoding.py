"""``-e/--encoding`` checked as it is parsed: an unknown name is a usage error (exit 2) naming the option.

It was found only when the first file was decoded, as bad data (exit 3); the data is not at fault.
"""

from __future__ import annotations

from typing import Any

import click


def check_encoding(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Click's callback for ``-e``: the name if Python can decode text with it, else ``click.BadParameter``."""
    if value is None:
        return value
    from ..input.reading import encoding_problem

    problem = encoding_problem(value)
    if problem is not None:
        raise click.BadParameter(problem, ctx=ctx, param=param)
    return value


__all__ = ["check_encoding"]
