"""Turning scores into the text and JSON the CLI prints (pure functions, no I/O).

Text output follows sacreBLEU's shapes so that existing log parsers keep
working; JSON keeps scores unrounded and always carries the signature, both as
the string and as an object of fields built from the same Signature object.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from .metrics.base import Score


#: exp(log(100)) is 100.00000000000004 in floating point: a perfect score may
#: exceed 100 by rounding, exactly as in sacreBLEU, and that is not an error.
_ROUNDING_SLACK = 1e-9


def check_finite(score: Score) -> None:
    """Never print nan/inf: a non-finite or out-of-range score is a bug, not a result."""
    upper = float("inf") if score.name == "TER" else 100.0 + _ROUNDING_SLACK
    if not math.isfinite(score.score) or not (0.0 <= score.score <= upper):
        raise RuntimeError(f"{score.name} came out as {score.score!r}")


def score_dict(score: Score) -> dict[str, Any]:
    """The JSON object for one score."""
    check_finite(score)
    return score.to_dict()


def to_json(data: Any) -> str:
    """JSON as bleucli prints it: one-space indent like sacreBLEU, UTF-8, no NaN ever."""
    return json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False)


def text_lines(scores: Sequence[Score], width: int, short: bool) -> list[str]:
    """sacreBLEU's text lines, right-aligned on ``=`` when several metrics are shown."""
    lines = []
    for score in scores:
        check_finite(score)
        lines.append(score.format(width=width, short=short))
    if len(lines) > 1:
        widest = max(line.index(" = ") for line in lines)
        lines = [" " * (widest - line.index(" = ")) + line for line in lines]
    return lines


def systems_table(
    names: Sequence[str], scores: Sequence[Sequence[Score]], width: int, short: bool, latex: bool = False
) -> str:
    """The multi-system table followed by the signature block, as sacreBLEU prints it."""
    from .table import fancy_grid, latex_booktabs

    metrics = [score.name for score in scores[0]]
    headers = ["System", *metrics]
    rows = []
    for name, system_scores in zip(names, scores):
        for score in system_scores:
            check_finite(score)
        rows.append([name, *(f"{s.score:.{width}f}" for s in system_scores)])
    if latex:
        table = latex_booktabs(headers, rows, ["right", *["center"] * len(metrics)])
    else:
        table = fancy_grid(headers, rows, ["right", *["center"] * len(metrics)])
    signatures = [f" - {s.name:<10} {s.signature.format(short)}" for s in scores[0]]
    return "\n".join([table, "", "-----------------", "Metric signatures", "-----------------", *signatures])


def systems_json(names: Sequence[str], scores: Sequence[Sequence[Score]]) -> str:
    """A list with one entry per system; every score carries its own signature."""
    entries = []
    for name, system_scores in zip(names, scores):
        entry: dict[str, Any] = {"system": name}
        for score in system_scores:
            entry[score.name] = score_dict(score)
        entries.append(entry)
    return to_json(entries)
