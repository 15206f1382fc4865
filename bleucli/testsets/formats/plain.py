"""Plain text: one segment per line, source and references in aligned files.

sacreBLEU copies each line with trailing whitespace removed; nothing else changes.
"""

from __future__ import annotations

from ..registry import Location, PairSpec, TestSet
from . import ProcessedPair, Reader, ref_field_names
from ._text import decode, lines_keepends


def read_lines(read: Reader, location: Location) -> list[str]:
    where = location.path or location.file
    return [line.rstrip() for line in lines_keepends(decode(read(location), where))]


def process(testset: TestSet, pair: PairSpec, read: Reader) -> ProcessedPair:
    assert pair.src is not None
    names = ref_field_names(len(pair.ref_locations))
    fields = {"src": read_lines(read, pair.src)}
    for name, location in zip(names, pair.ref_locations):
        fields[name] = read_lines(read, location)
    return ProcessedPair(fields=fields, scoring_refs=names)
