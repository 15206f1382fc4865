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

tabulate is imported when the first table is drawn, not with ``bleucli.render``,
and not at all for the common ``fancy_grid`` of plain text (see
:func:`_plain_grid`): importing tabulate (which reads its own version through
``importlib.metadata``) is about 4% of the instructions of a ``-pbs`` run over
eight systems.
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
    newline. A table of plain text is drawn here, any other by tabulate: the
    same bytes either way (``tests/test_tables_plain_grid.py`` compares them).
    """
    _check(headers, rows, aligns)
    drawn = _plain_grid(headers, rows, aligns)
    return drawn if drawn is not None else _tabulate(headers, rows, aligns, "fancy_grid")


#: Characters whose width is one column for tabulate with or without ``wcwidth``, and that
#: no rule of tabulate treats specially: printable ASCII, the line feed that splits a cell
#: into lines, and the two non-ASCII characters bleucli's own cells hold (``μ ± 95% CI``).
_PLAIN = re.compile(r"[\x20-\x7e\nμ±]*\Z")


def _plain_grid(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str]) -> str | None:
    """tabulate's ``fancy_grid`` (``disable_numparse``, one alignment per column) for plain text, else None.

    Why not always tabulate: its import is about 4% of a ``-pbs`` run over eight
    systems. Why this is still tabulate's layout: only cells of :data:`_PLAIN`
    characters are drawn here, where tabulate's rules reduce to these: every
    cell and header is a ``str``, a cell is stripped of surrounding whitespace, a
    column is as wide as its widest line or its header plus two, a cell's lines
    are aligned one by one and the rows' lines are padded at the bottom with
    blanks. Anything else (wide or zero-width characters, colour codes, tabs,
    other line breaks, non-string cells, an empty table) returns None, and
    tabulate draws it.
    """
    if not rows or not all(type(h) is str and _PLAIN.match(h) for h in headers):
        return None
    table: list[list[str]] = []
    for row in rows:
        cells = [cell for cell in row if type(cell) is str and _PLAIN.match(cell)]
        if len(cells) != len(row):
            return None
        table.append([cell.strip() for cell in cells])
    multiline = any("\n" in text for text in headers) or any("\n" in str(cell) for row in rows for cell in row)

    def width(text: str) -> int:
        return max(map(len, text.split("\n"))) if multiline else len(text)

    def pad(text: str, align: str, column_width: int) -> str:
        return "\n".join(format(line, _FORMATS[align] + str(column_width)) for line in text.split("\n"))

    widths = [max(max(width(row[k]) for row in table), width(header) + 2) for k, header in enumerate(headers)]
    header_row = [pad(header, align, w) for header, align, w in zip(headers, aligns, widths)]
    body = [["\n".join(format(line, _FORMATS[align] + str(w)) for line in cell.splitlines())
             for cell, align, w in zip(row, aligns, widths)] for row in table]

    def rule(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    def draw(cells: Sequence[str]) -> list[str]:
        lines = [cell.splitlines() for cell in cells]
        height = max(map(len, lines)) if multiline else 1  # tabulate draws no line for a row of empty lines
        return [("│" + "│".join(" " + (cell_lines[i] if i < len(cell_lines) else " " * w) + " "
                                 for cell_lines, w in zip(lines, widths)) + "│").rstrip()
                for i in range(height)]

    out = [rule("╒", "═", "╤", "╕"), *draw(header_row), rule("╞", "═", "╪", "╡")]
    for i, cells in enumerate(body):
        if i:
            out.append(rule("├", "─", "┼", "┤"))
        out += draw(cells)
    out.append(rule("╘", "═", "╧", "╛"))
    return "\n".join(out)


#: tabulate's padding of a cell's line (``_padright``/``_padleft``/``_padboth``): ``format`` with these
#: (centring puts an odd space on the right, as ``format`` does and ``str.center`` does not always).
_FORMATS = {"left": "<", "right": ">", "center": "^"}


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
