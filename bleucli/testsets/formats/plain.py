"""Plain text: one segment per line, source and references in aligned files.

sacreBLEU copies each line with trailing whitespace removed; nothing else changes.
"""

from __future__ import annotations

from ..registry import Location, PairSpec, TestSet
from . import ProcessedPair, Reader, source_and_references
from ._text import decode, lines_keepends


def read_lines(read: Reader, location: Location) -> list[str]:
    where = location.path or location.file
    return [line.rstrip() for line in lines_keepends(decode(read(location), where))]


def process(testset: TestSet, pair: PairSpec, read: Reader) -> ProcessedPair:
    return source_and_references(pair, lambda location: read_lines(read, location))
