"""Paired tests with chrF and TER equal sacreBLEU 2.6's, float32 quirks included (frozen values).

The golden file comes from tests/golden/regenerate_significance_chrf_ter.py.
sacreBLEU sums resampled statistics in float32 and, for these two metrics,
keeps the scores (and so their mean, interval and differences) in float32.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import datasets
import sigdata
from bleucli import CHRF, TER
from bleucli.significance import paired_test

GOLDEN = json.loads((Path(__file__).parent / "golden" / "significance_chrf_ter.json").read_text(encoding="utf-8"))
CLASSES = {"CHRF": CHRF, "TER": TER}


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['metric']}-{c['test']}")
def test_paired_tests_equal_sacrebleu(case: dict) -> None:
    lines, names = GOLDEN["lines"], GOLDEN["systems"]
    refs = [s[:lines] for s in datasets.references(sigdata.WMT21)[: GOLDEN["nrefs"]]]
    metric = CLASSES[case["class"]](**case["kwargs"])
    stats = [metric.corpus_statistics(datasets.system(sigdata.WMT21, n)[:lines], refs) for n in names]
    result = paired_test(case["test"], metric, stats[0], stats[1:], case["n"], GOLDEN["seed"], names=names)
    got = [{"score": r.score, "mean": r.mean, "ci": r.ci, "p_value": r.p_value} for r in result.rows]
    assert got == case["rows"]
