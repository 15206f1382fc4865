"""Pairwise matrices: every cell equals the sentence score of its pair (sacreBLEU's, and bleucli's own)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from bleucli.errors import InputError
from bleucli.metrics.bleu import BLEU
from bleucli.metrics.chrf import CHRF
from bleucli.metrics.ter import TER
from conftest import invoke
from datasets import hypotheses, references

#: Real segments: 15 system outputs and 15 references of wmt22-en-de (German, 13a), with an empty line.
HYPS = list(hypotheses("wmt22-en-de", "Online-B")[:14]) + [""]
REFS = list(references("wmt22-en-de")[0][20:34]) + ["ein kurzer Satz ."]

SETTINGS = [
    ("bleu", {}),
    ("bleu", {"effective_order": True}),
    ("bleu", {"effective_order": True, "tokenize": "char", "lowercase": True}),
    ("bleu", {"smooth_method": "floor", "smooth_value": 0.2, "max_ngram_order": 3}),
    ("bleu", {"smooth_method": "add-k", "tokenize": "intl"}),
    ("bleu", {"smooth_method": "none", "effective_order": True}),
    ("bleu", {"smooth_method": "floor", "effective_order": True, "smooth_value": 0.0}),
    ("chrf", {}),
    ("chrf", {"word_order": 2}),
    ("chrf", {"lowercase": True, "whitespace": True, "beta": 3, "eps_smoothing": True}),
]


def _build(module: object, name: str, options: dict) -> object:
    cls = getattr(module, "BLEU" if name == "bleu" else "CHRF")
    return cls(**options)


@pytest.mark.parametrize(("name", "options"), SETTINGS, ids=lambda v: str(v))
def test_every_cell_equals_bleucli_sentence_score(name: str, options: dict, matcher: str) -> None:
    metric = (BLEU if name == "bleu" else CHRF)(**options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [[metric.sentence_score(h, [r]).score for r in REFS] for h in HYPS]
    assert metric.pairwise_scores(HYPS, REFS) == expected


@pytest.mark.oracle
@pytest.mark.parametrize(("name", "options"), SETTINGS, ids=lambda v: str(v))
def test_every_cell_equals_sacrebleu_sentence_score(name: str, options: dict) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    oracle = _build(sacrebleu, name, options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [[oracle.sentence_score(h, [r]).score for r in REFS] for h in HYPS]  # type: ignore[attr-defined]
        ours = (BLEU if name == "bleu" else CHRF)(**options)
    assert ours.pairwise_scores(HYPS, REFS) == expected


@pytest.mark.oracle
def test_mbr_square_matrix_equals_sacrebleu() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    samples = HYPS[:10]
    oracle = sacrebleu.BLEU(effective_order=True)
    expected = [[oracle.sentence_score(h, [r]).score for r in samples] for h in samples]
    assert BLEU(effective_order=True).pairwise_scores(samples, samples) == expected


def test_other_metrics_use_sentence_score() -> None:
    ter = TER()
    assert ter.pairwise_scores(HYPS[:3], REFS[:4]) == [[ter.sentence_score(h, [r]).score for r in REFS[:4]]
                                                       for h in HYPS[:3]]


@pytest.mark.parametrize(("hyps", "refs"), [("a b", ["x"]), (["a"], []), ([], ["x"]), (["a", 3], ["x"])])
def test_bad_shapes_are_input_errors(hyps: object, refs: object) -> None:
    with pytest.raises(InputError):
        BLEU().pairwise_scores(hyps, refs)  # type: ignore[arg-type]


def test_cli_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"hypotheses": HYPS[:4], "references": REFS[:3]}) + "\n\n"
                    + json.dumps({"hypotheses": HYPS[4:7]}) + "\n", encoding="utf-8")
    result = invoke(["pairwise", str(path)])
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    metric = BLEU(effective_order=True)
    assert rows[0]["scores"] == metric.pairwise_scores(HYPS[:4], REFS[:3])
    assert rows[1]["scores"] == metric.pairwise_scores(HYPS[4:7], HYPS[4:7])
    assert rows[0]["signature"].startswith("nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|")
    chrf = invoke(["pairwise", "--metric", "chrf", "-cw", "2", str(path)])
    assert json.loads(chrf.stdout.splitlines()[0])["scores"] == CHRF(word_order=2).pairwise_scores(HYPS[:4], REFS[:3])


@pytest.mark.parametrize(("content", "message"), [
    ('{"hypotheses": ["a"]}\n{"hyp\n', ":2: not valid JSON"),
    ('["a"]\n', ':1: each line must be a JSON object with a "hypotheses" list'),
    ('{"hypotheses": ["a"], "references": []}\n', ':1: "references" must be a non-empty list of strings'),
    ("\n", ": no segments in the input"),
])
def test_cli_bad_input_names_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    result = invoke(["pairwise", str(path)])
    assert result.exit_code == 3
    assert result.stderr == f"bleucli: error: {path}{message}" + result.stderr.split(message, 1)[1]
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(("name", "options"), [s for s in SETTINGS if s[0] == "bleu"], ids=lambda v: str(v))
def test_short_sentences_with_missing_orders(name: str, options: dict) -> None:
    """Hypotheses shorter than the order (no 3- or 4-grams) with and without matches, and empty ones."""
    short = ["a", "a b", "a b c", "b a", "", "c c c c c"]
    metric = BLEU(**options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [[metric.sentence_score(h, [r]).score for r in short] for h in short]
    assert metric.pairwise_scores(short, short) == expected
