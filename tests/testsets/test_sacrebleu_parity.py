"""Same data as sacreBLEU: bleucli's processing of the toy sets equals what sacreBLEU 2.6.0's own
dataset classes and filters produce from the same raw files (frozen in
tests/golden/testsets_sacrebleu.json by tests/golden/regenerate_testsets.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bleucli import testsets as ts

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "golden" / "testsets_sacrebleu.json").read_text())


def digest(lines: list[str]) -> dict:
    return {"sha256": hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest(), "lines": len(lines)}


CASES = [(name, pair) for name in sorted(GOLDEN) for pair in sorted(GOLDEN[name])]


@pytest.mark.parametrize(("name", "pair"), CASES)
def test_fields_echo_and_references_match_sacrebleu(env, name, pair):
    golden = GOLDEN[name][pair]
    assert sorted(ts.fields(name, pair)) == golden["fields"]
    for field, want in golden["echo"].items():
        assert digest(ts.echo(name, pair, [field])) == want, field
    refs = sorted((digest(r) for r in ts.get_references(name, pair)), key=lambda d: d["sha256"])
    assert refs == golden["refs"]
    for key, want in golden["filtered"].items():
        origlang, subset = (None if v == "None" else v for v in key.split("|"))
        assert digest(ts.get_source(name, pair, origlang=origlang, subset=subset)) == want, key


@pytest.mark.oracle
@pytest.mark.skipif(__import__("importlib").util.find_spec("sacrebleu") is None, reason="needs sacrebleu")
def test_golden_file_is_current(tmp_path):
    """Differential: regenerating with the live oracle gives exactly the frozen file."""
    import os
    import subprocess
    import sys

    out = tmp_path / "golden.json"
    script = Path(__file__).resolve().parents[1] / "golden" / "regenerate_testsets.py"
    subprocess.run([sys.executable, str(script)], check=True, capture_output=True,
                   env={**os.environ, "BLEUCLI_GOLDEN_OUT": str(out)})
    assert json.loads(out.read_text()) == GOLDEN
