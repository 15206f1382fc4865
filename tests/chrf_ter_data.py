"""Shared loader for the chrF/TER real-data tests (tests/data/<set>/*.gz)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
GOLDEN = Path(__file__).parent / "golden" / "chrf_ter.json"


@cache
def lines(set_name: str, rel: str) -> tuple[str, ...]:
    """A data file's lines, split on LF only (as the golden script reads them)."""
    text = gzip.decompress((DATA / set_name / f"{rel}.gz").read_bytes()).decode("utf-8")
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return tuple(out)


def hypotheses(set_name: str, system: str) -> tuple[str, ...]:
    """A system's output; ``ref2-as-hypothesis`` is wmt24pp-en-ko's second reference."""
    if system == "ref2-as-hypothesis":
        return lines(set_name, "ref2.ko")
    lang = next((DATA / set_name).glob("ref.*.gz")).name.split(".")[1]
    return lines(set_name, f"sys/{system}.{lang}")


@cache
def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))
