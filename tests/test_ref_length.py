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
from bleucli.tokenizers import get_tokenizer
from conftest import invoke

sys.path.insert(0, str(Path(__file__).parent / "golden"))
from regenerate_mteval import data  # noqa: E402

GOLDEN = json.loads((Path(__file__).parent / "golden" / "mteval_bp.json").read_text(encoding="utf-8"))
#: mteval run -> bleucli's (tokenizer, reference length)
MTEVAL_RUN = {"v13a-closest": ("13a", "closest"), "v13a-shortest": ("13a", "shortest"), "v11b": ("11b", "shortest")}
FAST_CASE = ("wmt21-en-de", "all")
CASES = [pytest.param(test_set, subset, marks=[] if (test_set, subset) == FAST_CASE else [pytest.mark.slow])
         for test_set, runs in GOLDEN["scores"].items() for subset in runs]


@pytest.mark.parametrize("test_set, subset", CASES)
def test_four_decimals_of_mteval(test_set: str, subset: str) -> None:
    refs, systems = data(test_set, subset)
    checked = 0
    for system, runs in GOLDEN["scores"][test_set][subset].items():
        for run, expected in runs.items():
            tokenize, ref_length = MTEVAL_RUN[run]
            score = BLEU(tokenize=tokenize, ref_length=ref_length).corpus_score(systems[system], refs)
            assert f"{score.score / 100:.4f}" == expected, (system, run)
            checked += 1
    assert checked == 3 * len(systems)


def test_v11b_differs_from_13a_only_through_non_ascii_spaces() -> None:
    """The goldens hold a case where mteval-v11b's number is not mteval-v13a-shortest's: bytes, not UTF-8."""
    runs = GOLDEN["scores"]["wmt21-en-de"]
    assert runs["all"]["Online-W"]["v11b"] != runs["all"]["Online-W"]["v13a-shortest"]
    assert all(r["v11b"] == r["v13a-shortest"] for r in runs["ascii-space"].values())


@pytest.mark.parametrize("text, tokens", [
    ("Das kostet 10\u00a0000 Euro.", ["Das", "kostet", "10\u00a0000", "Euro", "."]),
    ("3.5\u00a0%, a\u3000b", ["3.5\u00a0", "%", ",", "a\u3000b"]),
    ("x\x1cy &amp; <skipped>z", ["x\x1cy", "&", "z"]),
    ("plain, ASCII 1.5-2", ["plain", ",", "ASCII", "1.5", "-", "2"]),
])
def test_11b_splits_on_ascii_whitespace_only(text: str, tokens: list[str]) -> None:
    assert get_tokenizer("11b").tokens(text) == tokens
    assert get_tokenizer("13a").tokens(text.replace("\u00a0", " ").replace("\u3000", " ").replace("\x1c", " ")) \
        == [part for token in tokens for part in token.replace("\u00a0", " ").replace("\u3000", " ")
            .replace("\x1c", " ").split()]


def test_cli_reproduces_mteval_v11b(tmp_path: Path) -> None:
    refs, systems = data("wmt21-en-de")
    files = []
    for i, ref in enumerate(refs):
        files.append(tmp_path / f"ref{i}")
        files[-1].write_text("\n".join(ref) + "\n", encoding="utf-8")
    hyp = tmp_path / "hyp"
    hyp.write_text("\n".join(systems["Online-W"]) + "\n", encoding="utf-8")
    result = invoke([*map(str, files), "-i", str(hyp), "-tok", "11b", "--ref-length", "shortest", "-f", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert f"{record['unrounded_score'] / 100:.4f}" == GOLDEN["scores"]["wmt21-en-de"]["all"]["Online-W"]["v11b"]
    assert "|tok:11b|" in record["signature"] and "|reflen:shortest|" in record["signature"]


def test_goldens_show_the_two_rules_differ() -> None:
    runs = GOLDEN["scores"]["wmt21-en-de"]["all"]["UEdin-cut"]
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
