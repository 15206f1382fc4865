"""Raw test-set formats, one module each, turning raw bytes into per-field lines.

Every module exposes ``process(testset, pair, read) -> ProcessedPair`` where
``read(location) -> bytes`` returns a location's raw bytes (gunzipped when the
file name ends in ``.gz``, as sacreBLEU's ``smart_open`` does). The lines are
exactly the lines sacreBLEU writes to its processed text files, so that
``-t NAME -l PAIR`` gives the same data in both tools.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

from ..registry import Location, PairSpec, TestSet

Reader = Callable[[Location], bytes]

_MODULES = {
    "wmt-sgml": "sgml",
    "iwslt-xml": "sgml",
    "wmt-xml": "wmtxml",
    "plain": "plain",
    "tsv": "tsv",
}


@dataclass
class ProcessedPair:
    """All fields of one (set, pair): visible fields in order, scoring refs, filter data.

    ``filter`` holds one JSON-encoded line per segment with what ``--origlang``
    and ``--subset`` need (empty when the format supports neither).
    """

    fields: dict[str, list[str]]
    scoring_refs: list[str]
    filter: list[str] = field(default_factory=list)


def process(testset: TestSet, pair: PairSpec, read: Reader) -> ProcessedPair:
    """Dispatch to the module of the set's format."""
    module = importlib.import_module(f"{__name__}.{_MODULES[testset.format]}")
    result: ProcessedPair = module.process(testset, pair, read)
    return result


def ref_field_names(count: int) -> list[str]:
    """``ref`` for a single reference, else ``ref:0``, ``ref:1``... (sacreBLEU's names)."""
    return ["ref"] if count == 1 else [f"ref:{i}" for i in range(count)]


def source_and_references(pair: PairSpec, read_field: Callable[[Location], list[str]]) -> ProcessedPair:
    """Fields of a format whose source and references are each one file (or column) of lines."""
    assert pair.src is not None
    names = ref_field_names(len(pair.ref_locations))
    fields = {"src": read_field(pair.src)}
    for name, location in zip(names, pair.ref_locations):
        fields[name] = read_field(location)
    if pair.docid is not None:
        fields["docid"] = read_field(pair.docid)
    return ProcessedPair(fields=fields, scoring_refs=names)
