"""Tab-separated values (MTNT): each field is one column of a TSV file.

sacreBLEU removes only the line's ``\\n`` before splitting on TAB (an empty
column is a valid empty segment), and takes the 0-based column the registry names.
"""

from __future__ import annotations

from ...errors import InputError
from ..registry import Location, PairSpec, TestSet
from . import ProcessedPair, Reader, source_and_references
from ._text import decode, lines_keepends


def read_column(read: Reader, location: Location) -> list[str]:
    where = location.path or location.file
    assert location.column is not None
    out = []
    for number, line in enumerate(lines_keepends(decode(read(location), where)), 1):
        columns = line.rstrip("\n").split("\t")
        if location.column >= len(columns):
            raise InputError(f"no column {location.column} (the line has {len(columns)})", source=where,
                             line=number)
        out.append(columns[location.column])
    return out


def process(testset: TestSet, pair: PairSpec, read: Reader) -> ProcessedPair:
    return source_and_references(pair, lambda location: read_column(read, location))
