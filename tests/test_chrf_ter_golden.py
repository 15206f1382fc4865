"""chrF, chrF++ and TER on real WMT data, against values frozen from sacreBLEU 2.6.0.

Every shared set (two systems each, full files for the defaults, the first
lines for option variants), with the first and with all references, plus
sentence-level scores and the organisers' published chrF. Scores must be equal
as floats. Regenerate with ``tests/golden/regenerate_chrf_ter.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleucli import CHRF, TER
from datasets import hypotheses, set_file
from fast_subset import CHRF_TER_SET
from matchers import MATCHERS, select_matcher

GOLDEN = json.loads((Path(__file__).parent / "golden" / "chrf_ter.json").read_text(encoding="utf-8"))


def _case_id(case: dict) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(case["options"].items())) or "default"
    return f"{case['set']}/{case['system']}/{case['metric']}[{opts}]/{len(case['refs'])}ref/{case['lines'] or 'all'}"


def _metric(case: dict):
    return (CHRF if case["metric"] == "chrf" else TER)(**case["options"])


def _data(case: dict, n: int | None):
    hyps = list(hypotheses(case["set"], case["system"]))
    refs = [list(set_file(case["set"], r)) for r in case["refs"]]
    if n is not None:
        hyps, refs = hyps[:n], [r[:n] for r in refs]
    return hyps, refs


def _params(cases):
    """Every case once per implementation (compiled, pure Python): the n-gram matcher, TER's edit distance.

    Full-file cases are slow; so are the cases of every set but the fast subset's.
    """
    return [pytest.param(c, matcher, id=f"{_case_id(c)}/{matcher}",
                         marks=[pytest.mark.slow] if c["lines"] is None or c["set"] != CHRF_TER_SET else [])
            for c in cases for matcher in MATCHERS]


def test_golden_file_covers_every_shared_set():
    sets = {c["set"] for c in GOLDEN["corpus"]}
    assert len(sets) == 15
    for name in sets:
        metrics = {(c["metric"], bool(c["options"])) for c in GOLDEN["corpus"] if c["set"] == name}
        assert metrics == {("chrf", False), ("chrf", True), ("ter", False), ("ter", True)}
    asian = {c["set"] for c in GOLDEN["corpus"] if c["options"].get("asian_support")}
    assert asian == {"wmt21-en-ja", "wmt22-en-ja", "wmt22-en-zh"}


@pytest.mark.parametrize("case, matcher_name", _params(GOLDEN["corpus"]))
def test_corpus_score(case, matcher_name, monkeypatch):
    select_matcher(monkeypatch, matcher_name)
    hyps, refs = _data(case, case["lines"])
    metric = _metric(case)
    rows = metric.corpus_statistics(hyps, refs)
    total = metric.aggregate(rows)
    assert total == case["statistics"]
    score = metric.score_from_statistics(total)
    assert score.score == case["score"]
    assert score.name == case["name"]
    fields = score.signature.to_dict()
    # bleucli adds `beta` when it is not 2; everything else is sacreBLEU's signature
    beta = case["options"].get("beta", 2)
    assert fields.pop("beta", None) == (str(beta) if beta != 2 else None)
    fields.pop("version")
    expected = dict(part.split(":", 1) for part in case["signature"].split("|"))
    expected.pop("version")
    assert list(fields.items()) == list(expected.items())


@pytest.mark.parametrize("case, matcher_name", _params(GOLDEN["sentence"]))
def test_sentence_scores(case, matcher_name, monkeypatch):
    select_matcher(monkeypatch, matcher_name)
    hyps, refs = _data(case, case["lines"])
    metric = _metric(case)
    ours = [metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    assert ours == case["scores"]


@pytest.mark.slow
@pytest.mark.parametrize("row", GOLDEN["published_chrf"],
                         ids=[f"{r['set']}/{r['system']}/{r['row']}" for r in GOLDEN["published_chrf"]])
def test_published_organiser_chrf(row, matcher):
    """The WMT organisers' chrF (PUBLISHED_SCORES.tsv), reproduced from the text."""
    hyps = list(hypotheses(row["set"], row["system"]))
    refs = [list(set_file(row["set"], r)) for r in row["refs"]]
    score = CHRF().corpus_score(hyps, refs).score
    assert score == row["oracle"]
    assert abs(score - row["published"]) < 1e-9


def test_published_rows_cover_every_set_that_has_them():
    assert len({r["set"] for r in GOLDEN["published_chrf"]}) == 12
