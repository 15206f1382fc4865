"""The WMT XML format (WMT21 onwards): source, references and system outputs in one file.

Read with the standard library's ElementTree after a check of the prolog: a
document that declares any entity is refused (:class:`UnsafeArchiveError`,
exit 6). WMT XML files have no DTD; an entity declaration is how a hostile
file reads local files or URLs (XXE) or expands without bound ("billion
laughs"), and expat refuses those expansions only from version 2.4.1 on, which
depends on how Python was built. An external DTD named by a DOCTYPE is never
loaded. The semantics follow sacreBLEU's reader:

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

from ...errors import InputError, UnsafeArchiveError
from ..registry import PairSpec, TestSet
from . import ProcessedPair, Reader
from ._text import clean


def ref_field(translator: str | None) -> str:
    return f"ref:{translator}" if translator else "ref"


def _segments(element: Any, path: str) -> dict[int, str]:
    return {int(seg.get("id")): seg.text or "" for seg in element.findall(path)}


class _RootReached(Exception):
    """The prolog (where every entity declaration must be) has been read without finding one."""


def refuse_entity_declarations(data: bytes, where: str) -> None:
    """Raise :class:`UnsafeArchiveError` if the document declares an entity (internal, external or parameter).

    Declarations can only stand in the DTD, before the root element, so expat
    reads the prolog alone and stops at the first element: the check costs
    nothing on a real test set and runs before anything is expanded. Syntax
    errors are left to the real parse, which reports them as bad input.
    """
    from xml.parsers import expat

    def declared(name: str, is_parameter: int, value: str | None, base: str | None, system_id: str | None,
                 *_rest: Any) -> None:
        kind = "external" if system_id else "internal"
        sign = "%" if is_parameter else "&"
        raise UnsafeArchiveError(
            f"{where}: refusing an XML test set that declares the {kind} entity {sign}{name}; (test sets have no "
            "DTD; entities can read local files or URLs, or expand without bound)", member=where)

    def root(*_args: Any) -> None:
        raise _RootReached

    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = declared
    parser.StartElementHandler = root
    try:
        parser.Parse(data, True)
    except (_RootReached, expat.ExpatError):
        return


def unwrap(data: bytes, where: str) -> tuple[dict[str, list[str]], list[str]]:
    """Fields (uncleaned) and per-segment filter records of one WMT XML file."""
    import xml.etree.ElementTree as ET

    refuse_entity_declarations(data, where)
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
