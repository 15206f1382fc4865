"""The one loader for the tests' data: every test and golden-value script reads files through it.

``tests/data/<set>/`` holds gzip-compressed copies of real WMT (and TED) sets:
references ``ref.<tl>.gz``, ``ref2.<tl>.gz``, ... and system outputs
``sys/<system>.<tl>.gz``; ``tests/testsets/data/`` holds a few plain excerpts
and ``examples/`` the README's. Any file is read the way sacreBLEU's CLI and
bleucli (:mod:`bleucli.input.reading`) read files: ``.gz`` decompressed, decoded as
strict UTF-8 (a bad byte raises), split on "\\n" only (a final newline ends the
last line), each line ``rstrip()``ped. This module does not use bleucli, so the
golden-value scripts feed the oracle exactly the lines the tests score.
"""

from __future__ import annotations

import csv
import gzip
import json
from functools import cache
from pathlib import Path

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data"
#: Plain-text WMT22 excerpts the test-set tests build archives from (see tests/data/README.md).
TESTSET_DATA = TESTS / "testsets" / "data"
#: The README's small uncompressed excerpt (wmt22-en-de, first 100 lines).
EXAMPLES = TESTS.parent / "examples"

#: The hypothesis name of sets without system outputs: their second reference is scored.
REF2_AS_HYPOTHESIS = "ref2-as-hypothesis"


def raw_bytes(path: Path) -> bytes:
    """A file's bytes, ``.gz`` decompressed (to write plain copies for the CLI to read)."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def lines(path: Path | str) -> list[str]:
    """The lines of any file (``.gz`` decompressed), split on "\\n" only and ``rstrip()``ped."""
    lines = raw_bytes(Path(path)).decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


@cache
def read(path: Path) -> tuple[str, ...]:
    """:func:`lines`, read once per run (for the data under tests/data, which never changes)."""
    return tuple(lines(path))


# --------------------------------------------------------------------------- tests/data/<set>

def sets() -> list[str]:
    return sorted(p.name for p in DATA.iterdir() if p.is_dir())


def target_language(name: str) -> str:
    return name.rsplit("-", 1)[1]


def set_file(name: str, rel: str) -> tuple[str, ...]:
    """The lines of ``tests/data/<name>/<rel>.gz`` (``rel`` such as ``ref2.de`` or ``sys/UEdin.de``)."""
    return read(DATA / name / f"{rel}.gz")


def reference_paths(name: str) -> list[Path]:
    return sorted((DATA / name).glob("ref*.gz"), key=lambda p: (len(p.name), p.name))


def references(name: str) -> list[list[str]]:
    return [list(read(p)) for p in reference_paths(name)]


def system_paths(name: str) -> list[Path]:
    folder = DATA / name / "sys"
    return sorted(folder.glob("*.gz")) if folder.is_dir() else []


def system_name(path: Path) -> str:
    return path.name[: -len(".gz")].rsplit(".", 1)[0]


def system(name: str, system: str) -> list[str]:
    """One system's output."""
    return list(read(DATA / name / "sys" / f"{system}.{target_language(name)}.gz"))


def systems(name: str) -> dict[str, list[str]]:
    return {system_name(p): list(read(p)) for p in system_paths(name)}


def hypotheses(name: str, system_or_ref2: str) -> tuple[str, ...]:
    """A system's output, or for :data:`REF2_AS_HYPOTHESIS` the set's second reference."""
    if system_or_ref2 == REF2_AS_HYPOTHESIS:
        return set_file(name, f"ref2.{target_language(name)}")
    return set_file(name, f"sys/{system_or_ref2}.{target_language(name)}")


def provenance(name: str) -> dict:
    """The set's PROVENANCE.json: where each file was copied from."""
    return json.loads((DATA / name / "PROVENANCE.json").read_text(encoding="utf-8"))


def tsv_rows(name: str, file: str) -> list[dict[str, str]]:
    path = DATA / name / file
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))
