"""sacreBLEU's text shapes for scores: one line per score, and the table of several systems.

Text output follows sacreBLEU's shapes character for character so that
existing log parsers keep working. Pure functions, no I/O. A score's own line
(sacreBLEU's ``Score.format``, :func:`sacrebleu_format`) is the core's
(:mod:`bleucli.metrics.formatting`), so that ``str(score)`` needs nothing from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..metrics.formatting import sacrebleu_format
from .records import check_finite

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.base import Score


#: sacreBLEU's colours (colorama's Fore codes), used only when writing to a terminal.
COLORS = {"red": "\x1b[31m", "green": "\x1b[32m", "yellow": "\x1b[33m", "cyan": "\x1b[36m"}
RESET = "\x1b[0m"

#: What sacreBLEU prints for ``--detail`` when the data has no original languages.
NO_DETAIL = "No subset information found. Consider using --origlang argument."


def paint(text: str, color: str, enabled: bool) -> str:
    """``text`` in a colour (sacreBLEU's ``Color.format``), or unchanged when colours are off."""
    return f"{COLORS[color]}{text}{RESET}" if enabled else text


def score_line(score: Score, width: int = 1, score_only: bool = False, short: bool = False) -> str:
    """``NAME|signature = score[ details]`` (or just the score)."""
    return sacrebleu_format(score, width, score_only, score.signature.format(short))


def align_on_equals(lines: Sequence[str]) -> list[str]:
    """Right-align lines on their first `` = `` (sacreBLEU's layout for several metrics)."""
    cuts = [line.index(" = ") if " = " in line else None for line in lines]
    widths = [c for c in cuts if c is not None]
    if len(lines) < 2 or not widths:
        return list(lines)
    width = max(widths)
    return [line if cut is None else " " * (width - cut) + line for line, cut in zip(lines, cuts)]


def text_lines(scores: Sequence[Score], width: int, short: bool) -> list[str]:
    """sacreBLEU's text lines, right-aligned on ``=`` when several metrics are shown."""
    for score in scores:
        check_finite(score)
    return align_on_equals([score_line(score, width=width, short=short) for score in scores])


def systems_table(
    names: Sequence[str], scores: Sequence[Sequence[Score]], width: int, short: bool, latex: bool = False,
    color: bool = False,
) -> str:
    """The multi-system table followed by the signature block, as sacreBLEU prints it (headers cyan on a TTY)."""
    from .tables import fancy_grid, latex_booktabs

    metrics = [score.name for score in scores[0]]
    headers = [paint(h, "cyan", color and not latex) for h in ["System", *metrics]]
    rows = []
    for name, system_scores in zip(names, scores):
        for score in system_scores:
            check_finite(score)
        rows.append([name, *(f"{s.score:.{width}f}" for s in system_scores)])
    table = (latex_booktabs if latex else fancy_grid)(headers, rows, ["right", *["center"] * len(metrics)])
    return f"{table}\n\n{signatures_block([(s.name, s.signature.format(short)) for s in scores[0]])}"


def signatures_block(signatures: Sequence[tuple[str, str]]) -> str:
    """``Metric signatures`` under a dashed header, one `` - NAME      signature`` line each."""
    lines = ["-----------------", "Metric signatures", "-----------------"]
    lines += [f" - {name:<10} {signature}" for name, signature in signatures]
    return "\n".join(lines)


def detail_lines(rows: Sequence[tuple[str, int, Sequence[Score]]], width: int, color: bool = False) -> list[str]:
    """sacreBLEU's ``--detail`` lines: ``origlang=en domain=ALL : sentences=40     BLEU = 33.1``.

    Labels are padded to the longest plus one (yellow on a terminal), sentence
    counts to six, metric names to the longest; one line per group and metric.
    """
    if not rows:
        return [NO_DETAIL]
    left = max(len(label) for label, _, _ in rows) + 1
    name_width = max(len(score.name) for score in rows[0][2])
    lines = []
    for label, count, scores in rows:
        key = paint(f"{label:<{left}}", "yellow", color)
        for score in scores:
            check_finite(score)
            lines.append(f"{key}: sentences={count:<6} {score.name:<{name_width}} = {score.score:.{width}f}")
    return lines
