"""Plain-text ``fancy_grid`` tables are drawn without tabulate, byte for byte as tabulate draws them.

bleucli draws a table of plain text itself (tabulate's import is a large part of a
``-pbs`` run) and hands every other table to tabulate. These tests compare the two
on many random tables of the characters drawn here (empty cells, cells of spaces,
multi-line cells and headers, trailing line feeds, every alignment), with tabulate
in its wide-character mode and without it, and check that the characters left to
tabulate still reach it.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
import tabulate

from bleucli.render.tables import _plain_grid, fancy_grid

ALPHABET = ["a", "Z", "0", "9", ".", "-", " ", " ", "(", "*", "=", "%", "μ", "±", "\n", "~", "|"]


def _text(rng: random.Random, multiline: bool) -> str:
    chars = [c for c in ALPHABET if multiline or c != "\n"]
    return "".join(rng.choice(chars) for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 13, 30])))


def _tabulates(headers: list[str], rows: list[list[str]], aligns: list[str]) -> str:
    return tabulate.tabulate(rows, headers=headers, tablefmt="fancy_grid", colalign=aligns, disable_numparse=True)


#: tabulate counts widths with wcwidth when it is installed (its wide-character mode): the tables drawn
#: here must be the same in both modes, so both are compared where wcwidth is installed.
WIDE_MODES = [False, True] if tabulate.wcwidth is not None else [False]


@pytest.fixture(params=WIDE_MODES, ids=["narrow", "widechars"][:len(WIDE_MODES)])
def wide_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setattr(tabulate, "WIDE_CHARS_MODE", request.param)
    return bool(request.param)


@pytest.mark.parametrize("seed", range(40))
def test_random_plain_tables_are_tabulates(seed: int, wide_mode: bool) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        multiline = rng.random() < 0.5
        n_columns = rng.randint(1, 4)
        headers = [_text(rng, multiline and rng.random() < 0.3) for _ in range(n_columns)]
        rows = [[_text(rng, multiline) for _ in range(n_columns)] for _ in range(rng.randint(1, 5))]
        aligns = [rng.choice(["left", "right", "center"]) for _ in range(n_columns)]
        drawn = _plain_grid(headers, rows, aligns)
        assert drawn is not None
        assert drawn == _tabulates(headers, rows, aligns), (headers, rows, aligns)


@pytest.mark.parametrize("rows", [
    [["", ""]], [["", "\n"], ["x", ""]], [[" ", "  "]], [["\n\n", "a\n"]], [["a\n\nb", " c \n d "]],
    [["38.2 (38.2 ± 0.9)\n(p = 0.0010)*", "64.3"]], [["1.0", "2"], ["True", "False"]],
])
def test_edge_cells_are_tabulates(rows: list[list[str]], wide_mode: bool) -> None:
    for headers in (["System", "BLEU (μ ± 95% CI)"], ["", ""], ["a\n", "b"], ["  x  ", "\ny"]):
        for aligns in (["right", "center"], ["left", "left"], ["center", "right"]):
            assert _plain_grid(headers, rows, aligns) == _tabulates(headers, rows, aligns)


@pytest.mark.parametrize("cell", ["中文", "e\u0301", "x\ty", "x\ry", "\x1b[31mred\x1b[0m", "x\x0by", "é", "\x01"])
def test_other_characters_are_left_to_tabulate(cell: str) -> None:
    headers, rows, aligns = ["System", "BLEU"], [[cell, "1.0"], ["b", "2.0"]], ["right", "center"]
    assert _plain_grid(headers, rows, aligns) is None
    assert fancy_grid(headers, rows, aligns) == _tabulates(headers, rows, aligns)


def test_non_strings_and_empty_tables_are_left_to_tabulate() -> None:
    assert _plain_grid(["a", "b"], [["x", 1.5]], ["left", "left"]) is None
    assert _plain_grid(["a", "b"], [], ["left", "left"]) is None
    assert fancy_grid(["a", "b"], [["x", 1.5]], ["left", "left"]) == _tabulates(["a", "b"], [["x", 1.5]],  # type: ignore[list-item]
                                                                               ["left", "left"])


def test_a_plain_paired_table_does_not_import_tabulate() -> None:
    code = ("import sys\n"
            "from bleucli.render.tables import fancy_grid\n"
            "print(fancy_grid(['System', 'BLEU (μ ± 95% CI)'], [['a.de', '38.2 (38.2 ± 0.9)\\n(p = 0.0010)*']],"
            " ['right', 'center']))\n"
            "print('tabulate' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.endswith("False\n")
    assert out.startswith("╒═")
