"""Access to the real WMT data in tests/data (gzip-compressed copies of the shared sets).

Lines are read the way sacreBLEU's CLI reads files: split on "\\n" only, each
line rstrip()ped. This module does not use bleucli, so the golden-value script
can feed identical lines to the oracle.
"""

from __future__ import annotations

import csv
import gzip
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"


def sets() -> list[str]:
    return sorted(p.name for p in DATA.iterdir() if p.is_dir())


def target_language(name: str) -> str:
    return name.rsplit("-", 1)[1]


@cache
def read(path: Path) -> tuple[str, ...]:
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return tuple(line.rstrip() for line in lines)


def reference_paths(name: str) -> list[Path]:
    return sorted((DATA / name).glob("ref*.gz"), key=lambda p: (len(p.name), p.name))


def references(name: str) -> list[list[str]]:
    return [list(read(p)) for p in reference_paths(name)]


def system_paths(name: str) -> list[Path]:
    folder = DATA / name / "sys"
    return sorted(folder.glob("*.gz")) if folder.is_dir() else []


def system_name(path: Path) -> str:
    return path.name[: -len(".gz")].rsplit(".", 1)[0]


def systems(name: str) -> dict[str, list[str]]:
    return {system_name(p): list(read(p)) for p in system_paths(name)}


def tsv_rows(name: str, file: str) -> list[dict[str, str]]:
    path = DATA / name / file
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))
