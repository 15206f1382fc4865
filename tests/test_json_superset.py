"""Every JSON output is a strict superset of sacreBLEU 2.6.0's for the same command.

Same keys (in sacreBLEU's order), same types, same values, except the
version; bleucli's own keys come after sacreBLEU's. Checked against frozen
sacreBLEU output (tests/golden/sacrebleu_json.json, made by
tests/golden/regenerate_sacrebleu_json.py) and, when sacreBLEU is installed,
against a live run. Also: the types of the shared keys are the same for BLEU,
chrF and TER.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bleucli import __version__
from conftest import EXAMPLES, invoke
from json_commands import COMMANDS

GOLDEN = json.loads((Path(__file__).parent / "golden" / "sacrebleu_json.json").read_text(encoding="utf-8"))


def _ours(arguments: list[str]) -> Any:
    result = invoke(arguments)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def assert_superset(ours: Any, theirs: Any, where: str = "$") -> None:
    """``ours`` holds everything ``theirs`` does, with the same types and values (the version aside)."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), where
        missing = [key for key in theirs if key not in ours]
        assert not missing, f"{where}: keys {missing} missing"
        assert [key for key in ours if key in theirs] == list(theirs), f"{where}: sacreBLEU's key order"
        for key, value in theirs.items():
            assert_superset(ours[key], value, f"{where}.{key}")
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), where
        for i, (mine, their) in enumerate(zip(ours, theirs)):
            assert_superset(mine, their, f"{where}[{i}]")
    else:
        if isinstance(theirs, str):
            theirs = theirs.replace("version:2.6.0", f"version:{__version__}")
            if where.endswith(".version"):
                theirs = __version__
        assert type(ours) is type(theirs) and ours == theirs, f"{where}: {ours!r} != sacreBLEU's {theirs!r}"


@pytest.fixture(autouse=True)
def _in_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES)  # systems are named by the path given, as in sacreBLEU
    for name in ("BLEUCLI_SEED", "SACREBLEU_FORMAT"):
        monkeypatch.delenv(name, raising=False)


#: Signature fields bleucli adds on purpose (README: sacreBLEU's chrF signature cannot tell chrF2
#: from chrF3): removed from our strings before comparing; the field stays in our JSON as an extra key.
DELIBERATE_SIGNATURE_ADDITIONS = {"chrf-beta3": "|beta:3"}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_json_is_a_superset_of_frozen_sacrebleu_output(name: str) -> None:
    ours = _ours(COMMANDS[name])
    if name in DELIBERATE_SIGNATURE_ADDITIONS:
        addition = DELIBERATE_SIGNATURE_ADDITIONS[name]
        assert addition in ours["signature"]
        ours["signature"] = ours["signature"].replace(addition, "")
    assert_superset(ours, GOLDEN[name])


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["bleu", "three-metrics", "ci-metrics", "systems", "systems-score-only", "paired-bs"])
def test_json_is_a_superset_of_live_sacrebleu_output(name: str) -> None:
    pytest.importorskip("sacrebleu")
    done = subprocess.run([sys.executable, "-m", "sacrebleu", *COMMANDS[name]], capture_output=True, text=True,
                          cwd=EXAMPLES, check=True)
    assert_superset(_ours(COMMANDS[name]), json.loads(done.stdout))


def test_the_superset_check_can_fail() -> None:
    golden = GOLDEN["bleu"]
    with pytest.raises(AssertionError):
        assert_superset({**golden, "nrefs": 1}, golden)  # an int where sacreBLEU has a string
    with pytest.raises(AssertionError):
        assert_superset({k: v for k, v in golden.items() if k != "tok"}, golden)
    with pytest.raises(AssertionError):
        assert_superset(dict(reversed(list(golden.items()))), golden)


def test_shared_keys_have_one_type_for_every_metric() -> None:
    records = _ours(["ref.de", "ref2.de", "-i", "Online-B.de", "-m", "bleu", "chrf", "ter"])
    records += _ours(["ref.de", "-i", "Online-B.de", "-m", "bleu", "chrf", "ter", "-ci", "-cin", "10"])
    types: dict[str, set[str]] = {}
    for record in records:
        for key, value in record.items():
            types.setdefault(key, set()).add(type(value).__name__)
    assert {key: kinds for key, kinds in types.items() if len(kinds) > 1} == {}
    assert types["nrefs"] == {"str"} and types["score"] == {"float"} and types["unrounded_score"] == {"float"}
    assert all(isinstance(value, str) for record in records for value in record["signature_fields"].values())


def test_json_never_holds_nan(tmp_path: Path) -> None:
    """An empty reference makes chrF's recall undefined: the JSON has numbers, never NaN."""
    ref, hyp = tmp_path / "ref", tmp_path / "hyp"
    ref.write_text("\n\n", encoding="utf-8")
    hyp.write_text("a\n\n", encoding="utf-8")
    for metric in ("bleu", "chrf", "ter"):
        result = invoke([str(ref), "-i", str(hyp), "-m", metric])
        assert result.exit_code == 0, result.stderr
        assert "NaN" not in result.stdout and "Infinity" not in result.stdout
        json.loads(result.stdout)
