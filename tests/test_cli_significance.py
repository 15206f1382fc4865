"""-ci, -pbs and -par through the CLI: sacreBLEU's exact output and the mode checks.

Expected text was printed by sacreBLEU 2.6.0 (`-nc`) on examples/ (first 100
lines of WMT22 en-de), seed 12345; only the version differs.
"""

from __future__ import annotations

import json

import pytest

from bleucli import __version__
from conftest import EXAMPLES, invoke

REF = str(EXAMPLES / "ref.de")
SYS_A = str(EXAMPLES / "Online-B.de")
SYS_B = str(EXAMPLES / "Lan-Bridge.de")

SACREBLEU_CI = ("BLEU|nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 38.6 "
                "(μ = 38.6 ± 3.4) 66.8/44.4/31.6/23.6 (BP = 1.000 ratio = 1.023 hyp_len = 2079 ref_len = 2033)")
SACREBLEU_PBS_TABLE = """\
╒═══════════════════════╤═════════════════════╕
│                System │  BLEU (μ ± 95% CI)  │
╞═══════════════════════╪═════════════════════╡
│ Baseline: Online-B.de │  38.6 (38.6 ± 3.4)  │
├───────────────────────┼─────────────────────┤
│         Lan-Bridge.de │  39.3 (39.3 ± 3.5)  │
│                       │    (p = 0.1479)     │
╘═══════════════════════╧═════════════════════╛"""


@pytest.fixture(autouse=True)
def _in_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES)  # systems are named by the path given, as in sacreBLEU
    monkeypatch.delenv("BLEUCLI_SEED", raising=False)


def test_confidence_interval_matches_sacrebleu() -> None:
    result = invoke(["ref.de", "-i", "Online-B.de", "-ci", "-f", "text"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.replace(f"version:{__version__}", "version:2.6.0") == SACREBLEU_CI + "\n"
    data = json.loads(invoke(["ref.de", "-i", "Online-B.de", "-ci"]).stdout)
    assert data["signature"].startswith("nrefs:1|bs:1000|seed:12345|")


def test_paired_bootstrap_matches_sacrebleu() -> None:
    result = invoke(["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-pbs", "-f", "text"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(SACREBLEU_PBS_TABLE + "\n")
    assert "Paired bootstrap resampling test with 1000 resampling trials" in result.stdout
    assert f"nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:{__version__}" in result.stdout


def test_paired_json_carries_signatures_and_unrounded_numbers() -> None:
    data = json.loads(invoke(["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-par"]).stdout)
    assert [entry["system"] for entry in data] == ["Baseline: Online-B.de", "Lan-Bridge.de"]
    other = data[1]["BLEU"]
    assert 0 < other["p_value"] < 1 and other["signature"].startswith("nrefs:1|ar:10000|seed:12345|")
    assert data[0]["BLEU"]["p_value"] is None


def test_seed_sources_and_jobs() -> None:
    args = ["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-pbs", "-pbsn", "200"]
    default = invoke(args).stdout
    assert invoke([*args, "--seed", "12345"]).stdout == default
    assert invoke(args, env={"BLEUCLI_SEED": "12345"}).stdout == default
    assert invoke([*args, "-j", "2"]).stdout == default
    other = invoke([*args, "--seed", "0"]).stdout
    assert other != default and '"seed:0' not in other and "|seed:0|" in other
    assert "|seed:none|" in invoke([*args, "--seed", "none"]).stdout
    assert invoke([*args, "--seed", "x"]).exit_code == 2


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["-i", "Online-B.de", "-pbs"], "several systems"),
        (["-i", "Online-B.de", "Lan-Bridge.de", "-ci"], "one system"),
        (["-i", "Online-B.de", "Lan-Bridge.de", "-pbs", "-par"], "cannot be used together"),
        (["-i", "Online-B.de", "-sl", "-ci"], "sentence-level"),
        (["-i", "Online-B.de", "-ci", "-cin", "0"], "confidence-n"),
    ],
)
def test_mode_errors(args: list[str], fragment: str) -> None:
    result = invoke(["ref.de", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and fragment in result.stderr


SACREBLEU_TABLE = """\
╒═══════════════╤════════╕
│        System │  BLEU  │
╞═══════════════╪════════╡
│   Online-B.de │  53.2  │
├───────────────┼────────┤
│ Lan-Bridge.de │  53.2  │
╘═══════════════╧════════╛

-----------------
Metric signatures
-----------------
 - BLEU       nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0
"""
SACREBLEU_LATEX = """\
\\begin{tabular}{rc}
\\toprule
        System &  BLEU  \\\\
\\midrule
   Online-B.de &  53.2  \\\\
 Lan-Bridge.de &  53.2  \\\\
\\bottomrule
\\end{tabular}
"""


@pytest.mark.parametrize("fmt, expected", [("text", SACREBLEU_TABLE), ("latex", SACREBLEU_LATEX)])
def test_multi_system_table_matches_sacrebleu(fmt: str, expected: str) -> None:
    result = invoke(["ref.de", "ref2.de", "-i", "Online-B.de", "Lan-Bridge.de", "-f", fmt])
    out = result.stdout.replace(f"version:{__version__}", "version:2.6.0")
    assert out.startswith(expected)
