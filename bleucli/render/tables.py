"""Box-drawing and LaTeX (booktabs) tables, shaped exactly like tabulate's.

sacreBLEU prints its multi-system and significance tables with tabulate's
``fancy_grid`` and ``latex_booktabs`` formats. bleucli reproduces those two
shapes here rather than depending on tabulate for them. The layout rules
matched (and checked against tabulate in the tests) are:

* every cell is stripped of surrounding whitespace (whole cell, not per line);
* a column is as wide as its widest cell line, and at least its header plus 2;
* ``center`` puts the odd space on the right (``str.format``'s ``^``);
* one space of padding on each side of every cell;
* a cell may span several lines (``\\n``): in ``fancy_grid`` each line is
  aligned on its own and shorter cells are padded with blank lines below; in
  ``latex_booktabs`` (which has no multi-line rows) the lines are joined with
  a space;
* LaTeX special characters are escaped *after* padding, so an escaped cell is
  wider than its neighbours (tabulate does the same; LaTeX does not care);
* widths count code points, ignoring ANSI colour codes (tabulate without the
  optional ``wcwidth`` package, which sacreBLEU does not require).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: tabulate's rule: a header gets at least this much room beyond its own width.
MIN_HEADER_PADDING = 2

ALIGNMENTS = ("left", "right", "center")

_ANSI = re.compile(r"\x1b\[[0-9;]*m")

#: LaTeX special characters and their escaped forms (a fact of LaTeX, same map as tabulate's).
LATEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}


def visible_width(text: str) -> int:
    """Width of one line on a terminal: code points, not counting colour codes."""
    return len(_ANSI.sub("", text))


def _pad(text: str, width: int, align: str) -> str:
    extra = width - visible_width(text)
    if extra <= 0:
        return text
    if align == "right":
        return " " * extra + text
    if align == "center":
        left = extra // 2
        return " " * left + text + " " * (extra - left)
    return text + " " * extra


def _check(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str]) -> None:
    if len(aligns) != len(headers):
        raise ValueError(f"{len(aligns)} alignments given for {len(headers)} columns")
    for align in aligns:
        if align not in ALIGNMENTS:
            raise ValueError(f"unknown alignment {align!r} (choose from: {', '.join(ALIGNMENTS)})")
    for i, row in enumerate(rows):
        if len(row) != len(headers):
            raise ValueError(f"row {i + 1} has {len(row)} cells for {len(headers)} columns")


def _column_widths(headers: list[list[str]], rows: list[list[list[str]]]) -> list[int]:
    widths = []
    for col, header in enumerate(headers):
        width = max(visible_width(line) for line in header) + MIN_HEADER_PADDING
        for row in rows:
            for line in row[col]:
                width = max(width, visible_width(line))
        widths.append(width)
    return widths


def _cell_lines(cell: object) -> list[str]:
    text = str(cell).strip()
    return text.splitlines() if text else [""]


def fancy_grid(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str]) -> str:
    """A table framed with box-drawing characters (tabulate's ``fancy_grid``).

    ``aligns`` gives ``left``/``right``/``center`` per column and applies to
    the header as well. Returns the lines joined by ``\\n``, without a final
    newline.
    """
    _check(headers, rows, aligns)
    head = [str(h).splitlines() or [""] for h in headers]
    body = [[_cell_lines(c) for c in row] for row in rows]
    widths = _column_widths(head, body)

    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def render(row: list[list[str]]) -> list[str]:
        height = max(len(cell) for cell in row)
        out = []
        for k in range(height):
            parts = [
                " " + _pad(cell[k] if k < len(cell) else "", width, align) + " "
                for cell, width, align in zip(row, widths, aligns)
            ]
            out.append("│" + "│".join(parts) + "│")
        return out

    lines = [rule("╒", "═", "╤", "╕"), *render(head), rule("╞", "═", "╪", "╡")]
    for i, row in enumerate(body):
        if i:
            lines.append(rule("├", "─", "┼", "┤"))
        lines.extend(render(row))
    lines.append(rule("╘", "═", "╧", "╛"))
    return "\n".join(lines)


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters."""
    return "".join(LATEX_ESCAPES.get(ch, ch) for ch in text)


def latex_booktabs(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str]) -> str:
    """A booktabs ``tabular`` environment (tabulate's ``latex_booktabs``).

    Multi-line cells are joined with a space (a tabular row is one line).
    Returns the lines joined by ``\\n``, without a final newline.
    """
    _check(headers, rows, aligns)
    head = [[" ".join(str(h).splitlines())] for h in headers]
    body = [[[" ".join(_cell_lines(c))] for c in row] for row in rows]
    widths = _column_widths(head, body)
    spec = "".join({"left": "l", "right": "r", "center": "c"}[a] for a in aligns)

    def render(row: list[list[str]]) -> str:
        cells = [latex_escape(" " + _pad(cell[0], width, align) + " ")
                 for cell, width, align in zip(row, widths, aligns)]
        return ("&".join(cells) + "\\\\").rstrip()

    return "\n".join([
        f"\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        render(head),
        "\\midrule",
        *(render(row) for row in body),
        "\\bottomrule",
        "\\end{tabular}",
    ])
