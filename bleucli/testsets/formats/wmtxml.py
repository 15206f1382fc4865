"""The WMT XML format (WMT21 onwards): source, references and system outputs in one file.

Read with the standard library's ElementTree (expat: no external entities are
fetched and "billion laughs" expansions are refused). The semantics follow
sacreBLEU's reader:

* documents with a ``testsuite`` attribute are skipped;
* segments are taken in increasing integer ``id`` order, and a segment is
  dropped when no reference has text for it;
* fields: ``src``; ``ref:<translator>`` per translator (``ref`` when the
  attribute is missing); ``docid``; ``origlang``; one field per system
  (``<hyp system=...>``); ``domain`` if the last kept segment's document has one;
* every value is stripped and has whitespace runs collapsed.

Differences, on purpose: references are ordered by first appearance (sacreBLEU
iterates a ``set``, so its order varies between runs), and a system missing
from a document yields empty lines instead of shifting all later lines
(sacreBLEU would misalign that system's output).
"""

from __future__ import annotations

import json
from typing import Any

from ...errors import InputError
from ..registry import PairSpec, TestSet
from . import ProcessedPair, Reader
from ._text import clean


def ref_field(translator: str | None) -> str:
    return f"ref:{translator}" if translator else "ref"


def _segments(element: Any, path: str) -> dict[int, str]:
    return {int(seg.get("id")): seg.text or "" for seg in element.findall(path)}


def unwrap(data: bytes, where: str) -> tuple[dict[str, list[str]], list[str]]:
    """Fields (uncleaned) and per-segment filter records of one WMT XML file."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise InputError(f"invalid WMT XML ({exc})", source=where) from None
    src_langs = {doc.get("lang") for doc in root.iter("src")}
    translators: list[str | None] = []
    ref_langs = set()
    systems: list[str] = []
    for ref in root.iter("ref"):
        ref_langs.add(ref.get("lang"))
        if ref.get("translator") not in translators:
            translators.append(ref.get("translator"))
    for hyp in root.iter("hyp"):
        if hyp.get("system") not in systems:
            systems.append(hyp.get("system") or "")
    if len(src_langs) != 1 or len(ref_langs) != 1:
        raise InputError(f"expected one source and one reference language, found {len(src_langs)} and "
                         f"{len(ref_langs)}", source=where)
    src: list[str] = []
    refs: dict[str, list[str]] = {ref_field(t): [] for t in translators}
    hyps: dict[str, list[str]] = {s: [] for s in systems}
    docids: list[str] = []
    origlangs: list[str] = []
    domains: list[str | None] = []
    records: list[str] = []
    seen_domain = False
    try:
        for doc in root.iter("doc"):
            if "testsuite" in doc.attrib:
                continue
            src_segs = _segments(doc, ".//src//seg")
            by_translator = {ref.get("translator"): _segments(ref, ".//seg") for ref in doc.findall(".//ref")}
            by_system = {hyp.get("system"): _segments(hyp, ".//seg") for hyp in doc.findall(".//hyp")}
            for seg_id in sorted(src_segs):
                if not any(segs.get(seg_id, "") for segs in by_translator.values()):
                    continue
                for translator in translators:
                    refs[ref_field(translator)].append(by_translator.get(translator, {}).get(seg_id, ""))
                src.append(src_segs[seg_id])
                for system in systems:
                    hyps[system].append(by_system.get(system, {}).get(seg_id, ""))
                docids.append(doc.get("id", ""))
                origlangs.append(doc.get("origlang", ""))
                domains.append(doc.get("domain"))
                seen_domain = doc.get("domain") is not None
                records.append(json.dumps([True, doc.get("origlang"), doc.get("domain")], ensure_ascii=False))
    except (TypeError, ValueError) as exc:
        raise InputError(f"invalid WMT XML segment id ({exc})", source=where) from None
    fields: dict[str, list[str]] = {"src": src, **refs, "docid": docids, "origlang": origlangs}
    for system in systems:
        if system not in fields:
            fields[system] = hyps[system]
    if seen_domain:
        fields["domain"] = [d or "" for d in domains]
    return fields, records


def process(testset: TestSet, pair: PairSpec, read: Reader) -> ProcessedPair:
    assert pair.path is not None
    where = pair.path.path or pair.path.file
    raw, records = unwrap(read(pair.path), where)
    fields = {name: [clean(v) for v in values] for name, values in raw.items()}
    labels = pair.refs if pair.refs is not None else testset.refs
    allowed = [ref_field(label) for label in labels]
    scoring = [name for name in allowed if name in fields]
    return ProcessedPair(fields=fields, scoring_refs=scoring, filter=records)
