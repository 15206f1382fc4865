"""Small box-drawing and LaTeX table renderers (tabulate's fancy_grid/latex_booktabs shapes).

Written here to avoid a dependency for two table styles; cells may span
several lines.
"""

from __future__ import annotations

from collections.abc import Sequence


def _align(text: str, width: int, how: str) -> str:
    if how == "right":
        return text.rjust(width)
    if how == "center":
        return text.center(width)
    return text.ljust(width)


def fancy_grid(headers: Sequence[str], rows: Sequence[Sequence[str]], aligns: Sequence[str]) -> str:
    """A table framed with box-drawing characters, one padded space around each cell."""
    cells = [[str(c).split("\n") for c in row] for row in [list(headers), *rows]]
    widths = [max(len(part) for row in cells for part in row[i]) for i in range(len(headers))]

    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def render(row: list[list[str]]) -> list[str]:
        height = max(len(c) for c in row)
        out = []
        for k in range(height):
            parts = [
                " " + _align(c[k] if k < len(c) else "", w, a) + " "
                for c, w, a in zip(row, widths, aligns)
            ]
            out.append("│" + "│".join(parts) + "│")
        return out

    lines = [rule("╒", "═", "╤", "╕"), *render(cells[0]), rule("╞", "═", "╪", "╡")]
    for i, row in enumerate(cells[1:]):
        if i:
            lines.append(rule("├", "─", "┼", "┤"))
        lines.extend(render(row))
    lines.append(rule("╘", "═", "╧", "╛"))
    return "\n".join(lines)


def latex_booktabs(headers: Sequence[str], rows: Sequence[Sequence[str]], aligns: Sequence[str]) -> str:
    """A booktabs tabular environment."""
    spec = "".join({"right": "r", "center": "c"}.get(a, "l") for a in aligns)
    widths = [max(len(str(r[i])) for r in [list(headers), *rows]) for i in range(len(headers))]

    def render(row: Sequence[str]) -> str:
        return " & ".join(_align(str(c), w, a) for c, w, a in zip(row, widths, aligns)) + " \\\\"

    return "\n".join(
        [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", render(headers), "\\midrule",
         *(render(r) for r in rows), "\\bottomrule", "\\end{tabular}"]
    )
