"""Self-BLEU: Texygen's numbers (frozen from its own SelfBleu), and the fast algorithm equal to the quadratic loop."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from bleucli.family.self_bleu import closest_other_lengths, self_bleu, texygen_self_bleu
from bleucli.metrics.bleu import BLEU
from conftest import invoke, run_subprocess
from datasets import DATA, lines
from golden.regenerate_self_bleu import CASES, random_corpus

GOLDEN = json.loads((Path(__file__).parent / "golden" / "self_bleu_texygen.json").read_text())["scores"]
TED_TOK_SYS1 = DATA / "ted-sk-en" / "tok" / "sys1.en.gz"
#: The issue's anchors: Texygen S-BLEU-2..5 on the first 500 lines of ted-sk-en/tok sys1, whitespace tokens.
ANCHORS = {2: 0.5934208762032083, 3: 0.34922152666141026, 4: 0.20275462190066332, 5: 0.13127792203230337}


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_texygen_equals_frozen_texygen_run(case: str) -> None:
    text = CASES[case]()
    for order, expected in GOLDEN[case].items():
        assert texygen_self_bleu(text, max_order=int(order)).score == expected, (case, order)


@pytest.mark.parametrize("order", sorted(ANCHORS))
def test_texygen_anchor_figures_of_the_issue(order: int) -> None:
    assert texygen_self_bleu(lines(TED_TOK_SYS1), max_order=order).score == ANCHORS[order]


def _quadratic_sacrebleu_style(text: list[str], metric: BLEU) -> list[float]:
    """The definition: every sentence's sentence_score against all the others (bleucli's sacreBLEU-exact BLEU)."""
    return [metric.sentence_score(text[i], text[:i] + text[i + 1:]).score for i in range(len(text))]


METRIC_SETTINGS = [
    {"effective_order": True},
    {"effective_order": False, "smooth_method": "floor", "smooth_value": 0.3},
    {"effective_order": True, "lowercase": True, "max_ngram_order": 2},
    {"effective_order": True, "smooth_method": "add-k", "tokenize": "char", "max_ngram_order": 6},
    {"effective_order": False, "smooth_method": "none", "tokenize": "none"},
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("settings", METRIC_SETTINGS, ids=lambda s: "-".join(f"{k}={v}" for k, v in s.items()))
@pytest.mark.parametrize("source", ["random", "real"])
def test_fast_equals_quadratic_definition(settings: dict, source: str) -> None:
    text = random_corpus(7, 60, 6) + ["", "", "w1 w1 w1 w1"] if source == "random" else lines(TED_TOK_SYS1)[:70]
    metric = BLEU(force=True, **settings)
    fast = self_bleu(text, metric)
    quadratic = _quadratic_sacrebleu_style(text, metric)
    assert list(fast.sentence_scores) == quadratic
    total = 0.0
    for value in quadratic:
        total += value
    assert fast.score == total / len(text)
    assert fast.signature.to_dict()["nrefs"] == str(len(text) - 1)


@pytest.mark.oracle
@pytest.mark.parametrize("source", ["random", "real"])
def test_sacrebleu_style_equals_sacrebleu_sentence_score_loop(source: str) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    text = random_corpus(11, 50, 8) if source == "random" else lines(TED_TOK_SYS1)[100:160]
    oracle = sacrebleu.BLEU(effective_order=True)
    expected = [oracle.sentence_score(text[i], text[:i] + text[i + 1:]).score for i in range(len(text))]
    assert list(self_bleu(text).sentence_scores) == expected


@pytest.mark.oracle
@pytest.mark.parametrize("order", [1, 2, 4])
def test_texygen_equals_nltk_loop_on_every_line(order: int) -> None:
    """All lines (no 500 cut), repeated n-grams and empty lines: each sentence equals NLTK's sentence_bleu."""
    bleu_score = pytest.importorskip("nltk.translate.bleu_score")
    text = random_corpus(5, 80, 4) + ["", "w0", "w0 w0 w0 w0 w0 w0"]
    tokens = [line.split() for line in text]
    weights = tuple(1.0 / order for _ in range(order))
    smoothing = bleu_score.SmoothingFunction().method1
    expected = [bleu_score.sentence_bleu(tokens[:i] + tokens[i + 1:], tokens[i], weights, smoothing_function=smoothing)
                for i in range(len(tokens))]
    assert list(texygen_self_bleu(text, max_order=order, sample_size=None).sentence_scores) == expected


def test_closest_other_length_excludes_the_sentence_itself_and_prefers_shorter() -> None:
    assert closest_other_lengths([5, 5, 9]) == [5, 5, 5]
    assert closest_other_lengths([3, 5, 7]) == [5, 3, 5]  # 5: 3 and 7 tie, the shorter wins
    assert closest_other_lengths([0, 10]) == [10, 0]
    rng = random.Random(3)
    for _ in range(200):
        lengths = [rng.randint(0, 8) for _ in range(rng.randint(2, 9))]
        brute = [min(lengths[:i] + lengths[i + 1:], key=lambda r, h=h: (abs(r - h), r)) for i, h in enumerate(lengths)]
        assert closest_other_lengths(lengths) == brute


def test_texygen_keeps_the_first_500_lines() -> None:
    text = lines(TED_TOK_SYS1)[:700]
    assert texygen_self_bleu(text, max_order=2).score == ANCHORS[2]
    assert texygen_self_bleu(text, max_order=2, sample_size=None).score != ANCHORS[2]


def _write(tmp_path: Path, name: str, text: list[str]) -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in text), encoding="utf-8")
    return str(path)


def test_cli_texygen_json(tmp_path: Path) -> None:
    path = tmp_path / "ted.en.gz"
    path.write_bytes(gzip.compress("".join(t + "\n" for t in lines(TED_TOK_SYS1)[:600]).encode()))
    result = invoke(["self-bleu", "--texygen", "--max-order", "3", str(path)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["unrounded_score"] == ANCHORS[3]
    assert data["score"] == round(ANCHORS[3], 4)
    assert "mode:texygen" in data["signature"] and "order:3" in data["signature"] and "sample:500" in data["signature"]
    assert data["sentences"] == 500


def test_cli_sacrebleu_style_text(tmp_path: Path) -> None:
    text = lines(TED_TOK_SYS1)[:40]
    result = invoke(["self-bleu", "-f", "text", "-w", "6", _write(tmp_path, "h.txt", text)])
    assert result.exit_code == 0, result.stderr
    expected = self_bleu(text, BLEU(effective_order=True, force=True)).score
    assert result.stdout == f"Self-BLEU|nrefs:39|mode:sacrebleu|case:mixed|eff:yes|tok:13a|smooth:exp|" \
                            f"version:{result.stdout.split('version:')[1].split(' ')[0]} = {expected:.6f}\n"


@pytest.mark.parametrize("content", ["", "one line\n"])
def test_cli_too_few_lines_is_a_data_error_naming_the_file(tmp_path: Path, content: str) -> None:
    path = tmp_path / "few.txt"
    path.write_text(content)
    result = invoke(["self-bleu", str(path)])
    assert result.exit_code == 3
    assert result.stderr.startswith(f"bleucli: error: {path}:") and "at least 2 lines" in result.stderr
    assert result.stderr.count("\n") == 1


def test_cli_bad_utf8_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b"fine\nbad \xff byte\n")
    result = invoke(["self-bleu", str(path)])
    assert result.exit_code == 3
    assert str(path) in result.stderr and "Traceback" not in result.stderr


def test_subprocess_reads_stdin() -> None:
    text = lines(TED_TOK_SYS1)[:30]
    proc = run_subprocess(["self-bleu", "--texygen", "-"], stdin="".join(t + "\n" for t in text).encode())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["unrounded_score"] == texygen_self_bleu(text).score


@pytest.mark.parametrize("args", [["--texygen", "-lc"], ["--texygen", "-s", "floor"], ["--all-lines"],
                                  ["--texygen", "--no-effective-order"]])
def test_cli_options_of_the_other_mode_are_usage_errors(tmp_path: Path, args: list[str]) -> None:
    result = invoke(["self-bleu", *args, _write(tmp_path, "h.txt", ["a b", "b c"])])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
