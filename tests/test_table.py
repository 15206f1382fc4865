"""bleucli.render.tables: literal expected tables, and tabulate (when installed) as an oracle."""

from __future__ import annotations

import random

import pytest

from bleucli.render.tables import fancy_grid, latex_booktabs, latex_escape, visible_width


def test_fancy_grid_literal() -> None:
    table = fancy_grid(["System", "BLEU"], [["hyp", "45.1"], ["hyp3", "35.8"]], ["right", "center"])
    assert table == "\n".join([
        "╒══════════╤════════╕",
        "│   System │  BLEU  │",
        "╞══════════╪════════╡",
        "│      hyp │  45.1  │",
        "├──────────┼────────┤",
        "│     hyp3 │  35.8  │",
        "╘══════════╧════════╛",
    ])


def test_fancy_grid_multiline_cells_are_aligned_per_line_and_padded_below() -> None:
    table = fancy_grid(["A", "Metric"], [["x", "12.3 (12.0 ± 1.0)\n(p = 0.0010)*"], ["long name", "1"]],
                       ["left", "center"])
    assert table == "\n".join([
        "╒═══════════╤═══════════════════╕",
        "│ A         │      Metric       │",
        "╞═══════════╪═══════════════════╡",
        "│ x         │ 12.3 (12.0 ± 1.0) │",
        "│           │   (p = 0.0010)*   │",
        "├───────────┼───────────────────┤",
        "│ long name │         1         │",
        "╘═══════════╧═══════════════════╛",
    ])


def test_cells_are_stripped_and_centering_puts_the_odd_space_right() -> None:
    table = fancy_grid(["H"], [["  ab  "]], ["center"])
    assert table.splitlines()[3] == "│ ab  │"


def test_latex_booktabs_literal_with_escaping_after_padding() -> None:
    table = latex_booktabs(["System", "BLEU (95% CI)"], [["a_b", "1.0\n(p = 0.5)"]], ["right", "center"])
    assert table == "\n".join([
        r"\begin{tabular}{rc}",
        r"\toprule",
        r"   System &  BLEU (95\% CI)  \\",
        r"\midrule",
        r"      a\_b &  1.0 (p = 0.5)  \\",
        r"\bottomrule",
        r"\end{tabular}",
    ])


def test_latex_escape_covers_the_specials() -> None:
    assert latex_escape("&%$#_^{}~\\<>") == (
        r"\&\%\$\#\_\^{}\{\}\textasciitilde{}\textbackslash{}\ensuremath{<}\ensuremath{>}"
    )


def test_ansi_codes_do_not_count_towards_width() -> None:
    assert visible_width("\x1b[31mabc\x1b[0m") == 3
    plain = fancy_grid(["H"], [["abc"]], ["left"])
    colored = fancy_grid(["H"], [["\x1b[31mabc\x1b[0m"]], ["left"])
    assert colored.replace("\x1b[31m", "").replace("\x1b[0m", "") == plain


@pytest.mark.parametrize("bad", [
    dict(headers=["a"], rows=[["x", "y"]], aligns=["left"]),
    dict(headers=["a"], rows=[["x"]], aligns=["left", "left"]),
    dict(headers=["a"], rows=[["x"]], aligns=["middle"]),
])
def test_shape_errors(bad: dict) -> None:
    with pytest.raises(ValueError):
        fancy_grid(**bad)
    with pytest.raises(ValueError):
        latex_booktabs(**bad)


def _random_table(rnd: random.Random, multiline: bool) -> tuple[list[str], list[list[str]], list[str]]:
    alphabet = "ab μ±%&_xyz{}#$\\~<>^ 0.12"
    ncol, nrow = rnd.randint(1, 4), rnd.randint(1, 5)

    def text(lines: int) -> str:
        return "\n".join("".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12))) for _ in range(lines))

    headers = ["H" + text(1) for _ in range(ncol)]
    rows = [["x" + text(rnd.randint(1, 3) if multiline else 1) + "y" for _ in range(ncol)] for _ in range(nrow)]
    aligns = [rnd.choice(["left", "right", "center"]) for _ in range(ncol)]
    return headers, rows, aligns


def test_against_tabulate() -> None:
    tabulate = pytest.importorskip("tabulate")
    rnd = random.Random(20240601)
    for _ in range(500):
        multiline = rnd.random() < 0.5
        headers, rows, aligns = _random_table(rnd, multiline)
        expected = tabulate.tabulate(rows, headers=headers, tablefmt="fancy_grid", colalign=aligns,
                                     disable_numparse=True)
        assert fancy_grid(headers, rows, aligns) == expected
        if not multiline:  # tabulate's latex has no multi-line rows
            expected = tabulate.tabulate(rows, headers=headers, tablefmt="latex_booktabs", colalign=aligns,
                                         disable_numparse=True)
            assert latex_booktabs(headers, rows, aligns) == expected
