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


# -- reference aggregation (Vamvas & Sennrich 2024) --------------------------------------------

def _aggregate_by_definition(metric: CHRF, hyp: str, refs: list[str]) -> float:
    """chrF against expected n-gram counts, with exact rationals: the definition, computed the slow way."""
    from collections import Counter
    from fractions import Fraction

    def grams(line: str) -> list[Counter]:
        chars = metric._chars(line)
        out = [Counter(chars[i:i + n] for i in range(len(chars) - n + 1)) for n in range(1, metric.char_order + 1)]
        words = metric._words(line) if metric.word_order else []
        out += [Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))
                for n in range(1, metric.word_order + 1)]
        return out

    ref_grams = [grams(r) for r in refs]
    hyp_grams = grams(hyp)
    factor = metric.beta ** 2
    avg_prec = avg_rec = 0.0
    effective = 0
    for n, counts in enumerate(hyp_grams):
        expected = Counter()
        for rg in ref_grams:
            for gram, count in rg[n].items():
                expected[gram] += Fraction(count, len(refs))
        ref_total = sum(expected.values())
        hyp_total = sum(counts.values())
        if ref_total == 0 or hyp_total == 0:
            continue
        matched = sum(min(Fraction(c), expected[g]) for g, c in counts.items())
        avg_prec += float(matched / hyp_total)
        avg_rec += float(matched / ref_total)
        effective += 1
    if effective == 0:
        return 0.0
    avg_prec /= effective
    avg_rec /= effective
    if not avg_prec + avg_rec:
        return 0.0
    return 100 * ((1 + factor) * avg_prec * avg_rec / ((factor * avg_prec) + avg_rec))


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"lowercase": True, "beta": 1, "char_order": 3}])
def test_aggregate_equals_its_definition(options: dict) -> None:
    from bleucli.metrics.pairwise import aggregate_chrf_scores

    metric = CHRF(**options)
    refs = REFS[:9] + ["", "Ja"]
    assert aggregate_chrf_scores(metric, HYPS, refs) == [_aggregate_by_definition(metric, h, refs) for h in HYPS]


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"whitespace": True, "eps_smoothing": True}])
def test_aggregate_of_one_reference_is_the_pairwise_column(options: dict) -> None:
    from bleucli.metrics.pairwise import aggregate_chrf_scores

    metric = CHRF(**options)
    for ref in REFS[:4]:
        assert aggregate_chrf_scores(metric, HYPS, [ref]) == [row[0] for row in metric.pairwise_scores(HYPS, [ref])]


@pytest.mark.oracle
@pytest.mark.parametrize(("ours", "theirs"), [
    ({}, {}), ({"whitespace": True}, {"remove_whitespace": False}), ({"eps_smoothing": True}, {"eps_smoothing": True}),
    ({"beta": 3, "char_order": 4}, {"beta": 3.0, "char_order": 4}),
])
def test_aggregate_equals_fastchrf(ours: dict, theirs: dict) -> None:
    fastchrf = pytest.importorskip("fastchrf")
    from bleucli.metrics.pairwise import aggregate_chrf_scores

    refs = REFS + ["ab", ""]
    assert aggregate_chrf_scores(CHRF(**ours), HYPS, refs) == fastchrf.aggregate_chrf([HYPS], [refs], **theirs)[0]


def test_aggregate_refuses_bleu() -> None:
    from bleucli.metrics.pairwise import aggregate_chrf_scores

    with pytest.raises(InputError):
        aggregate_chrf_scores(BLEU(), HYPS, REFS)


def test_cli_aggregate(tmp_path: Path) -> None:
    from bleucli.metrics.pairwise import aggregate_chrf_scores

    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"hypotheses": HYPS[:5], "references": REFS[:7]}) + "\n", encoding="utf-8")
    result = invoke(["pairwise", "--metric", "chrf", "--aggregate", str(path)])
    assert result.exit_code == 0, result.stderr
    row = json.loads(result.stdout)
    assert row["scores"] == aggregate_chrf_scores(CHRF(), HYPS[:5], REFS[:7]) and row["aggregate"] is True
    assert row["signature"].startswith("nrefs:7|")
    assert invoke(["pairwise", "--aggregate", str(path)]).exit_code == 2
