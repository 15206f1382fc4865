"""-m bleu chrf ter through the CLI: sacreBLEU's exact text, JSON, tables and option errors.

Expected text was printed by sacreBLEU 2.6.0 on examples/ (WMT22 en-de, 100 lines).
"""

from __future__ import annotations

import json

import pytest

import datasets
from bleucli import CHRF, TER, __version__
from conftest import EXAMPLES, invoke

SACREBLEU_THREE = """\
        BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 53.2 79.3/60.1/46.5/36.3 (BP = 1.000 ratio = 1.019 hyp_len = 2079 ref_len = 2040)
      chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 71.5
TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 40.4
"""
SACREBLEU_TABLE = """\
╒═══════════════╤════════╤═════════╤═══════╕
│        System │  BLEU  │  chrF2  │  TER  │
╞═══════════════╪════════╪═════════╪═══════╡
│   Online-B.de │  53.2  │  71.5   │ 40.4  │
├───────────────┼────────┼─────────┼───────┤
│ Lan-Bridge.de │  53.2  │  71.7   │ 39.6  │
╘═══════════════╧════════╧═════════╧═══════╛

-----------------
Metric signatures
-----------------
 - BLEU       nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0
 - chrF2      nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0
 - TER        nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0
"""


@pytest.fixture(autouse=True)
def _in_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES)


def oracle_version(text: str) -> str:
    return text.replace(f"version:{__version__}", "version:2.6.0")


def lines(name: str) -> list[str]:
    return datasets.lines(EXAMPLES / name)


@pytest.mark.parametrize("order", [["bleu", "chrf", "ter"], ["ter", "bleu", "chrf"]])
def test_three_metrics_in_sacrebleu_order(order: list[str]) -> None:
    result = invoke(["ref.de", "ref2.de", "-i", "Online-B.de", "-m", *order, "-f", "text"])
    assert result.exit_code == 0, result.stderr
    assert oracle_version(result.stdout) == SACREBLEU_THREE


def test_multi_system_multi_metric_table() -> None:
    result = invoke(["ref.de", "ref2.de", "-i", "Online-B.de", "Lan-Bridge.de", "-m", "bleu", "chrf", "ter",
                     "-f", "text"])
    assert oracle_version(result.stdout) == SACREBLEU_TABLE


def test_json_list_with_exact_scores() -> None:
    data = json.loads(invoke(["ref.de", "ref2.de", "-i", "Online-B.de", "-m", "chrf", "ter"]).stdout)
    refs = [lines("ref.de"), lines("ref2.de")]
    hyps = lines("Online-B.de")
    assert [d["name"] for d in data] == ["chrF2", "TER"]
    assert data[0]["unrounded_score"] == CHRF().corpus_score(hyps, refs).score
    assert data[1]["unrounded_score"] == TER().corpus_score(hyps, refs).score
    assert data[1]["signature_fields"]["tok"] == "tercom"


def test_sentence_level_ter_matches_sacrebleu() -> None:
    out = invoke(["ref.de", "-i", "Online-B.de", "-m", "ter", "-sl"]).stdout.splitlines()
    assert [oracle_version(x) for x in out[:2]] == [
        "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 14.3",
        "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 22.2",
    ]


def test_chrf_beta_is_in_the_signature_when_not_2() -> None:
    data = json.loads(invoke(["ref.de", "-i", "Online-B.de", "-m", "chrf", "--chrf-beta", "3", "-cw", "2"]).stdout)
    assert data["name"] == "chrF3++" and data["signature_fields"]["beta"] == "3"


def test_paired_test_with_several_metrics() -> None:
    data = json.loads(invoke(["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-m", "chrf", "ter", "-pbs",
                              "-pbsn", "100"]).stdout)
    assert set(data[1]) == {"system", "chrF2", "TER"} and 0 < data[1]["TER"]["p_value"] <= 1


def test_expect_signature_selects_the_named_metric() -> None:
    sig = "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:*"
    assert invoke(["ref.de", "-i", "Online-B.de", "-m", "bleu", "ter", "--expect-signature", sig]).exit_code == 0
    bad = invoke(["ref.de", "-i", "Online-B.de", "-m", "bleu", "ter", "--expect-signature",
                  sig.replace("case:lc", "case:mixed")])
    assert bad.exit_code == 7 and "case" in bad.stderr


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["-m", "chrf", "--chrf-beta", "0"], "beta"),
        (["-m", "chrf", "-cc", "-1"], "order"),
        (["-m", "chrf", "-cw", "-1"], "order"),
        (["-m", "meteor"], "meteor"),
        (["-m", "bleu", "chrf", "-sl"], "one metric"),
    ],
)
def test_bad_metric_options(args: list[str], fragment: str) -> None:
    result = invoke(["ref.de", "-i", "Online-B.de", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and fragment in result.stderr.lower()
