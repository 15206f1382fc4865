"""WMT "SGML" (up to WMT20) and IWSLT XML, read line by line as sacreBLEU does.

The files are not parsed as SGML/XML: a line starting with ``<seg `` is a
segment, whose text is what lies between the first ``>`` and the last
``</seg>`` on the line, stripped and with whitespace runs collapsed. Entities
are *not* unescaped (sacreBLEU does not either). Metadata fields (docid,
genre, origlang) are projected from the latest ``<doc `` line of the source
onto each of its segments. A reference with ``format: plain`` (the extra
Google/Microsoft references) is copied line by line instead.

``--origlang``/``--subset`` use their own, slightly different reading of the
``<doc`` line (sacreBLEU's ``filter_subset``): the *last* `` origlang="..."``
attribute preceded by a space, and segments before any ``<doc`` line are never
selected. Those values go into the filter data so both readings are exact.
"""

from __future__ import annotations

import json
import re

from ..registry import PairSpec, TestSet
from . import ProcessedPair, Reader, ref_field_names
from ._text import clean, decode, lines_keepends

_SEG = re.compile(r"<seg.*?>(.*)</seg>.*?")
_FILTER_ORIGLANG = re.compile(r'.* origlang="([^"]+)".*\n')
_FILTER_DOCID = re.compile(r'.* docid="([^"]+)".*\n')


def segments(lines: list[str]) -> list[str]:
    return [clean(_SEG.sub(r"\1", line)) for line in lines if line.startswith("<seg ")]


def meta_values(lines: list[str], attribute: str) -> list[str]:
    pattern = re.compile(rf'{re.escape(attribute)}="(.*?)"')
    value = ""
    out = []
    for line in lines:
        if line.startswith("<doc "):
            match = pattern.search(line)
            if match is not None:
                value = match.group(1)
        elif line.startswith("<seg "):
            out.append(clean(value))
    return out


def filter_records(lines: list[str]) -> list[str]:
    """Per segment: ``[in_doc, origlang or null, docid or null]`` as sacreBLEU's filter reads them.

    A ``<doc`` line without the attribute gives ``null``: sacreBLEU then
    compares the whole line, which never equals a language code.
    """
    in_doc, origlang, docid = False, None, None
    out = []
    for line in lines:
        if line.startswith("<doc "):
            in_doc = True
            o = _FILTER_ORIGLANG.sub(r"\1", line)
            origlang = None if o == line else o
            d = _FILTER_DOCID.sub(r"\1", line)
            docid = None if d == line else d
        if line.startswith("<seg "):
            out.append(json.dumps([in_doc, origlang, docid], ensure_ascii=False))
    return out


def process(testset: TestSet, pair: PairSpec, read: Reader) -> ProcessedPair:
    assert pair.src is not None
    src_lines = lines_keepends(decode(read(pair.src), pair.src.path or pair.src.file))
    fields: dict[str, list[str]] = {"src": segments(src_lines)}
    names = ref_field_names(len(pair.ref_locations))
    for name, location in zip(names, pair.ref_locations):
        lines = lines_keepends(decode(read(location), location.path or location.file))
        if location.format == "plain":
            fields[name] = [line.rstrip() for line in lines]
        else:
            fields[name] = segments(lines)
    for attribute in testset.meta:
        fields[attribute] = meta_values(src_lines, attribute)
    records = filter_records(src_lines) if testset.format == "wmt-sgml" else []
    return ProcessedPair(fields=fields, scoring_refs=names, filter=records)
