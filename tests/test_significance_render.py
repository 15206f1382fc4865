"""Rendering of paired tests and CIs: sacreBLEU's CLI output, frozen, character for character."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import datasets
import sigdata
from bleucli.metrics.bleu import BLEU
from bleucli.render.significance import (
    confidence_data,
    confidence_json,
    confidence_line,
    confidence_score,
    format_p_value,
    paired_cell,
    paired_data,
    paired_explanation,
    paired_json,
    paired_table,
    render_paired,
    signatures_block,
)
from bleucli.render.text import align_on_equals
from bleucli.signature import Signature
from bleucli.significance import (
    PairedResult,
    SystemResult,
    confidence_interval,
    default_system_names,
    paired_system_names,
    paired_test,
)

pytest.importorskip("numpy")

RENDER = Path(__file__).parent / "golden" / "significance_render"


def frozen(name: str, metric: BLEU) -> str:
    """A frozen sacreBLEU output, with its version replaced by bleucli's in signatures."""
    version = metric.signature().to_dict()["version"]
    return (RENDER / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n").replace(
        "version:2.6.0", f"version:{version}")


def excerpt() -> tuple[BLEU, list, list[str]]:
    refs = [stream[:300] for stream in datasets.references(sigdata.WMT21)]
    names = sigdata.WMT21_SYSTEMS[:3]
    metric = BLEU()
    stats = [metric.corpus_statistics(datasets.system(sigdata.WMT21, n)[:300], refs) for n in names]
    return metric, stats, names


@pytest.mark.parametrize("test", ["bs", "ar"])
@pytest.mark.parametrize("fmt", ["text", "latex"])
def test_paired_output_matches_sacrebleu(test: str, fmt: str) -> None:
    metric, stats, names = excerpt()
    result = paired_test(test, metric, stats[0], stats[1:], names=paired_system_names(names))
    assert render_paired([result], fmt) == frozen(f"{test}.{fmt}", metric)


def test_width_2() -> None:
    metric, stats, names = excerpt()
    result = paired_test("bs", metric, stats[0], stats[1:], names=paired_system_names(names))
    assert render_paired([result], "text", width=2) == frozen("bs_w2.text", metric)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_json_is_sacrebleus_plus_signatures(test: str) -> None:
    metric, stats, names = excerpt()
    result = paired_test(test, metric, stats[0], stats[1:], names=paired_system_names(names))
    ours = json.loads(render_paired([result], "json"))
    signatures = {entry["BLEU"].pop("signature") for entry in ours}
    assert signatures == {result.signature.format()}
    # bleucli's other addition: each candidate's human accuracy (tests/test_ranking.py checks its values)
    accuracies = [entry["BLEU"].pop("human_accuracy") for entry in ours]
    assert accuracies[0] is None
    assert [a["delta"] for a in accuracies[1:]] == [row.score - result.baseline.score for row in result.systems]
    assert ours == json.loads(frozen(f"{test}.json", metric))
    assert paired_json([result]) == render_paired([result], "json")
    assert paired_data([result])[0]["system"] == f"Baseline: {names[0]}"


def test_confidence_line_matches_sacrebleu() -> None:
    metric, stats, names = excerpt()
    result = confidence_interval(metric, stats[1])
    assert confidence_line(result) == frozen("ci.text", metric)


# -- literal shapes -------------------------------------------------------------------------------
def _sig(test: str) -> Signature:
    base = Signature.build("BLEU", {"case": "mixed"}, nrefs=1, version="9")
    return base.with_fields(**{test: 10, "seed": "12345"})


def _result(test: str, metric: str = "BLEU", p: tuple[float, ...] = (0.0123, 0.5)) -> PairedResult:
    sig = _sig(test)
    bs = test == "bs"
    base = SystemResult("Baseline", metric, 30.04, 30.0 if bs else None, 1.26 if bs else None, None, sig, True)
    rows = tuple(
        SystemResult(name, metric, 31.0 + i, 31.1 if bs else None, 1.0 if bs else None, pv, sig)
        for i, (name, pv) in enumerate(zip(default_system_names(3)[1:], p))
    )
    return PairedResult(test, metric, 10, 12345, sig, base, rows)  # type: ignore[arg-type]


def test_p_value_marks() -> None:
    assert format_p_value(0.05) == "(p = 0.0500)*"
    assert format_p_value(0.0500001) == "(p = 0.0500)"
    assert format_p_value(0.2, color=True) == "\x1b[31m(p = 0.2000)\x1b[0m"
    assert format_p_value(0.001, color=True) == "(p = 0.0010)*"


def test_cells() -> None:
    bs, ar = _result("bs"), _result("ar")
    assert paired_cell(bs.baseline) == "30.0 (30.0 ± 1.3)"
    assert paired_cell(bs.systems[0], width=2) == "31.00 (31.10 ± 1.00)\n(p = 0.0123)*"
    assert paired_cell(ar.systems[1], multiline=False) == "32.0 (p = 0.5000)"


def test_two_metric_table_and_blocks() -> None:
    table = paired_table([_result("bs"), _result("bs", "chrF2", (0.9, 0.01))])
    assert table == "\n".join([
        "╒══════════╤═════════════════════╤══════════════════════╕",
        "│   System │  BLEU (μ ± 95% CI)  │  chrF2 (μ ± 95% CI)  │",
        "╞══════════╪═════════════════════╪══════════════════════╡",
        "│ Baseline │  30.0 (30.0 ± 1.3)  │  30.0 (30.0 ± 1.3)   │",
        "├──────────┼─────────────────────┼──────────────────────┤",
        "│ System 1 │  31.0 (31.1 ± 1.0)  │  31.0 (31.1 ± 1.0)   │",
        "│          │    (p = 0.0123)*    │     (p = 0.9000)     │",
        "├──────────┼─────────────────────┼──────────────────────┤",
        "│ System 2 │  32.0 (31.1 ± 1.0)  │  32.0 (31.1 ± 1.0)   │",
        "│          │    (p = 0.5000)     │    (p = 0.0100)*     │",
        "╘══════════╧═════════════════════╧══════════════════════╛",
    ])
    explanation = paired_explanation("ar", 10000, "Baseline: x").splitlines()
    assert explanation[:4] == [
        "-------------------------------------------------------",
        "Paired approximate randomization test with 10000 trials",
        "-------------------------------------------------------",
        " - Each system is pairwise compared to Baseline: x.",
    ]
    assert signatures_block([("BLEU", "nrefs:1|v:9"), ("chrF2", "x")]) == (
        "-----------------\nMetric signatures\n-----------------\n - BLEU       nrefs:1|v:9\n - chrF2      x"
    )


def test_short_signatures_and_mismatched_results() -> None:
    text = render_paired([_result("ar")], "text", short=True)
    assert text.endswith(" - BLEU       #:1|ar:10|rs:12345|c:mixed|v:9")
    with pytest.raises(ValueError):
        render_paired([_result("ar"), _result("bs")])
    with pytest.raises(ValueError):
        render_paired([_result("ar")], "yaml")


def test_confidence_shapes() -> None:
    metric, stats, _ = excerpt()
    result = confidence_interval(metric, stats[0], 50, 3)
    line = confidence_line(result, width=2)
    assert line.startswith("BLEU|nrefs:3|bs:50|seed:3|case:mixed|eff:no|tok:13a|smooth:exp|version:")
    assert f" = {result.score:.2f} (μ = {result.mean:.2f} ± {result.ci:.2f}) " in line
    assert line.endswith(result.corpus.details())
    assert confidence_line(result, score_only=True) == confidence_score(result)
    assert confidence_line(result, short=True).startswith("BLEU|#:3|bs:50|rs:3|")
    data = confidence_data(result, width=2)
    assert (data["unrounded_score"], data["mean"], data["ci"], data["seed"]) == \
        (result.score, result.mean, result.ci, "3")
    assert (data["score"], data["confidence_mean"], data["confidence_var"]) == \
        (round(result.score, 2), round(result.mean, 2), round(result.ci, 2))
    assert data["confidence"] == f"μ = {result.mean:.2f} ± {result.ci:.2f}"
    assert data["signature"] == result.signature.format()
    assert json.loads(confidence_json([result], width=2)) == json.loads(json.dumps(data))
    assert isinstance(json.loads(confidence_json([result, result])), list)


def test_align_on_equals() -> None:
    assert align_on_equals(["BLEU|a = 1", "TER|abcd = 2"]) == ["  BLEU|a = 1", "TER|abcd = 2"]
    assert align_on_equals(["x = 1"]) == ["x = 1"]
