"""Tables are drawn by tabulate, as sacreBLEU draws them (issue 16.18).

bleucli's own copy of tabulate's layout split cells on every line boundary
``str.splitlines`` knows (vertical tab, U+001C, U+2028...) and counted OSC 8
hyperlinks as visible text; tabulate splits on ``\\n`` only and hides them. A
system file named ``Online\\x0bB.de`` gave a table different from sacreBLEU's.
The expected table was frozen from sacreBLEU 2.6.0's output for the same
command; the ``oracle`` test reruns sacreBLEU.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleucli.render.tables import fancy_grid, latex_booktabs
from conftest import invoke
from datasets import EXAMPLES

ODD_NAME = "Online\x0bB.de"
#: ``sacrebleu ref.de -i 'Online\x0bB.de' Lan-Bridge.de -m bleu chrf -f text``, its first seven lines
SACREBLEU_TABLE = (
    "╒═══════════════╤════════╤═════════╕\n"
    "│        System │  BLEU  │  chrF2  │\n"
    "╞═══════════════╪════════╪═════════╡\n"
    "│   Online\x0bB.de │  38.6  │  66.3   │\n"
    "├───────────────┼────────┼─────────┤\n"
    "│ Lan-Bridge.de │  39.3  │  66.7   │\n"
    "╘═══════════════╧════════╧═════════╛\n"
)


@pytest.fixture
def odd_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(EXAMPLES / "ref.de", tmp_path / "ref.de")
    shutil.copy(EXAMPLES / "Online-B.de", tmp_path / ODD_NAME)
    shutil.copy(EXAMPLES / "Lan-Bridge.de", tmp_path / "Lan-Bridge.de")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_system_table_with_an_odd_file_name_is_sacrebleus(odd_files: Path) -> None:
    result = invoke(["ref.de", "-i", ODD_NAME, "Lan-Bridge.de", "-m", "bleu", "chrf", "-f", "text"])
    assert result.exit_code == 0, result.stderr
    assert "".join(line + "\n" for line in result.stdout.split("\n")[:7]) == SACREBLEU_TABLE


@pytest.mark.parametrize("cell", ["x\u2028y", "x\x0by", "x\x1cy", "\x1b]8;;https://example.org\x1b\\link\x1b]8;;\x1b\\"])
def test_cells_are_tabulates(cell: str) -> None:
    import tabulate

    for headers, rows in ((["System", "BLEU"], [[cell, "1.0"], ["b", "2.0"]]), ([cell, "BLEU"], [["a", "1.0"]]),
                          (["System\n", "BLEU"], [[cell, "1.0"]])):
        aligns = ["right", "center"]
        assert fancy_grid(headers, rows, aligns) == tabulate.tabulate(
            rows, headers=headers, tablefmt="fancy_grid", colalign=aligns, disable_numparse=True)
    assert latex_booktabs(["System", "BLEU"], [[cell, "1.0"]], ["right", "center"]) == tabulate.tabulate(
        [[cell, "1.0"]], headers=["System", "BLEU"], tablefmt="latex_booktabs", colalign=["right", "center"],
        disable_numparse=True)


@pytest.mark.oracle
@pytest.mark.slow  # sacreBLEU's CLI in a subprocess: about a second
def test_system_table_against_sacrebleu(odd_files: Path) -> None:
    pytest.importorskip("sacrebleu")
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", "ref.de", "-i", ODD_NAME, "Lan-Bridge.de", "-m", "bleu",
                             "chrf", "-f", "text"], capture_output=True, check=True, cwd=odd_files).stdout.decode()
    assert "".join(line + "\n" for line in theirs.split("\n")[:7]) == SACREBLEU_TABLE
