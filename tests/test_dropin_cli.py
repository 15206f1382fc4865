"""Issue 16's command-line drop-in items: what a sacreBLEU user's script passes or expects.

Each test fails on the bleucli before the fix; ``oracle`` tests run sacreBLEU
2.6.0 itself on the same files and compare the output.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, invoke, run_subprocess

HAS_SACREBLEU = importlib.util.find_spec("sacrebleu") is not None
needs_sacrebleu = pytest.mark.skipif(not HAS_SACREBLEU, reason="needs sacrebleu 2.6.0 (the oracle extra)")


def sacrebleu(args: list[str], stdin: bytes | None = None, cwd: Path | None = None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """sacreBLEU 2.6.0's command line, as a real process (no colours, no format variable)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "NO_COLOR")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "sacrebleu", *args], input=stdin, capture_output=True,
                          cwd=cwd, env=environ)


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ 16: -nr N strips the end of the line only

def test_num_refs_keeps_trailing_spaces_inside_a_line(tmp_path: Path) -> None:
    """sacreBLEU rstrip()s the line, then splits it: 'a b ' keeps its space for --chrf-whitespace."""
    refs = write(tmp_path / "refs.tsv", ["a b \tab"])
    hyp = write(tmp_path / "hyp", ["a b"])
    result = invoke([refs, "-nr", "2", "-i", hyp, "-m", "chrf", "--chrf-whitespace", "-b", "-w", "4"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "68.8623\n"  # sacreBLEU 2.6.0; bleucli printed 100.0000


@pytest.mark.oracle
@needs_sacrebleu
@pytest.mark.parametrize("lines", [["a b \tab"], ["a b\t a b "], ["x  \t\ty \t z  \t"], ["a\tb c \r"]])
def test_num_refs_whitespace_matches_sacrebleu(tmp_path: Path, lines: list[str]) -> None:
    refs = write(tmp_path / "refs.tsv", lines)
    nrefs = str(lines[0].rstrip().count("\t") + 1)
    hyp = write(tmp_path / "hyp", ["a b"])
    args = [refs, "-nr", nrefs, "-i", hyp, "-m", "chrf", "bleu", "--chrf-whitespace", "-b", "-w", "6"]
    theirs = sacrebleu(args)
    assert theirs.returncode == 0, theirs.stderr
    ours = invoke(args)
    assert ours.exit_code == 0, ours.stderr
    assert json.loads(ours.stdout) == json.loads(theirs.stdout)
