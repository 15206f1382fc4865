"""Box-drawing and LaTeX (booktabs) tables: tabulate's ``fancy_grid`` and ``latex_booktabs``.

sacreBLEU prints its multi-system and significance tables with tabulate, so
bleucli calls tabulate too: the same bytes as sacreBLEU's in the same
environment (wide characters count double when tabulate finds ``wcwidth``, for
both), with no layout code of its own. What is added here:

* the shape is checked first (tabulate pads short rows silently);
* numbers are never reformatted (``disable_numparse``: ``"45.10"`` stays so);
* ``latex_booktabs`` joins a multi-line cell's lines (split on ``\n``, as
  tabulate splits them) with a space, as a tabular row is one line
  (tabulate's LaTeX formats have no multi-line rows).

tabulate is imported when the first table is drawn, not with ``bleucli.render``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

ALIGNMENTS = ("left", "right", "center")

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible_width(text: str) -> int:
    """Width of one line on a terminal without colour codes, in code points."""
    return len(_ANSI.sub("", text))


def _check(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str]) -> None:
    if len(aligns) != len(headers):
        raise ValueError(f"{len(aligns)} alignments given for {len(headers)} columns")
    for align in aligns:
        if align not in ALIGNMENTS:
            raise ValueError(f"unknown alignment {align!r} (choose from: {', '.join(ALIGNMENTS)})")
    for i, row in enumerate(rows):
        if len(row) != len(headers):
            raise ValueError(f"row {i + 1} has {len(row)} cells for {len(headers)} columns")


def _tabulate(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str], fmt: str) -> str:
    from tabulate import tabulate

    return tabulate([list(row) for row in rows], headers=list(headers), tablefmt=fmt, colalign=list(aligns),
                    disable_numparse=True)


def fancy_grid(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str]) -> str:
    """A table framed with box-drawing characters (tabulate's ``fancy_grid``).

    ``aligns`` gives ``left``/``right``/``center`` per column and applies to
    the header as well. Returns the lines joined by ``\\n``, without a final
    newline.
    """
    _check(headers, rows, aligns)
    return _tabulate(headers, rows, aligns, "fancy_grid")


def simple_table(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str]) -> str:
    """A table with a dashed rule under the header and no frame (tabulate's ``simple``): long tables stay readable."""
    _check(headers, rows, aligns)
    return _tabulate(headers, rows, aligns, "simple")


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters as tabulate's ``latex_booktabs`` does."""
    from tabulate import LATEX_ESCAPE_RULES

    return "".join(LATEX_ESCAPE_RULES.get(ch, ch) for ch in text)


def latex_booktabs(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str]) -> str:
    """A booktabs ``tabular`` environment (tabulate's ``latex_booktabs``).

    Multi-line cells are joined with a space (a tabular row is one line).
    Returns the lines joined by ``\\n``, without a final newline.
    """
    _check(headers, rows, aligns)

    def one_line(cell: object) -> str:
        lines = str(cell).split("\n")  # tabulate's line breaks: "\n" only, not every str.splitlines boundary
        return " ".join(lines[:-1] if len(lines) > 1 and not lines[-1] else lines)

    return _tabulate([one_line(h) for h in headers], [[one_line(str(c).strip()) for c in row] for row in rows],
                     aligns, "latex_booktabs")
