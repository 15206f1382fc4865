"""``--ref-length {closest,shortest}``: BLEU's brevity penalty against NIST mteval-v13a and mteval-v11b.

Goldens: tests/golden/mteval_bp.json (tests/golden/regenerate_mteval.py ran the
Perl scripts of moses-smt/mosesdecoder). mteval prints four decimals, so those
are compared; the statistics are checked directly on a constructed case.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bleucli.errors import OptionError
from bleucli.metrics.bleu import BLEU
from conftest import invoke

sys.path.insert(0, str(Path(__file__).parent / "golden"))
from regenerate_mteval import data  # noqa: E402

GOLDEN = json.loads((Path(__file__).parent / "golden" / "mteval_bp.json").read_text(encoding="utf-8"))
MTEVAL_RUN = {"v13a-closest": "closest", "v13a-shortest": "shortest", "v11b": "shortest"}


@pytest.mark.parametrize("subset", ["all", "ascii-space"])
def test_four_decimals_of_mteval(subset: str) -> None:
    refs, systems = data(subset)
    checked = 0
    for system, runs in GOLDEN["scores"][subset].items():
        for run, expected in runs.items():
            score = BLEU(tokenize="13a", ref_length=MTEVAL_RUN[run]).corpus_score(systems[system], refs)
            assert f"{score.score / 100:.4f}" == expected, (system, run)
            checked += 1
    assert checked == (12 if subset == "all" else 18)


def test_goldens_show_the_two_rules_differ() -> None:
    runs = GOLDEN["scores"]["all"]["UEdin-cut"]
    assert runs["v13a-closest"] != runs["v13a-shortest"]


def test_shortest_takes_the_shortest_reference_per_segment() -> None:
    refs = [["a b c d e f g h"], ["a b c"], ["a b c d e f"]]
    hyp = ["a b c d e f g"]
    assert BLEU(ref_length="shortest").corpus_score(hyp, refs).ref_len == 3
    assert BLEU().corpus_score(hyp, refs).ref_len == 6


def test_signature_field_only_when_not_the_default(tmp_path: Path) -> None:
    assert "reflen" not in str(BLEU().signature(1))
    assert str(BLEU(ref_length="shortest").signature(1)).endswith("|smooth:exp|reflen:shortest|version:"
                                                                  + str(BLEU().signature(1)).rsplit(":", 1)[1])
    with pytest.raises(OptionError, match="unknown reference length"):
        BLEU(ref_length="average")
    for name, text in (("r1", "a b c d e f g h\n"), ("r2", "a b c\n"), ("h", "a b c d e f g\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    files = [str(tmp_path / "r1"), str(tmp_path / "r2")]
    plain = invoke([*files, "-i", str(tmp_path / "h"), "-f", "text"])
    short = invoke([*files, "-i", str(tmp_path / "h"), "-f", "text", "--ref-length", "shortest", "-sh"])
    assert plain.exit_code == 0 and "reflen" not in plain.stdout and "ref_len = 8" in plain.stdout
    assert short.exit_code == 0 and "|rl:shortest|" in short.stdout and "ref_len = 3" in short.stdout
    bad = invoke([*files, "-i", str(tmp_path / "h"), "--ref-length", "longest"])
    assert bad.exit_code == 2
