"""The test-set registry: ``testsets.yaml`` loaded safely into frozen, typed objects.

Why so strict: the registry decides which bytes a published score is computed
against. A silently dropped duplicate key, a language code that YAML 1.1 reads
as a boolean (``no`` -> False), a version read as a float (``1.10`` -> 1.1) or
a YAML tag that constructs Python objects would each turn a typo into a wrong
score or worse. So: PyYAML's *safe* loader (never ``yaml.load``), duplicate
keys and aliases rejected, unknown keys rejected, and every value type-checked
here with errors naming the file, the test set and the field.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import RegistryError, UnknownLanguagePairError, UnknownTestSetError

SCHEMA_VERSION = 1
FORMATS = ("wmt-sgml", "iwslt-xml", "wmt-xml", "plain", "tsv")
UNPACK_KINDS = ("none", "gzip", "tar", "zip")
META_FIELDS = ("docid", "genre", "origlang")
#: Where a test set comes from: sacreBLEU's list (the default), or bleucli's own additions (``--list`` marks them).
ORIGINS = ("sacrebleu", "bleucli")

_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*(?:/[A-Za-z0-9][A-Za-z0-9.-]*)*")
_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_LANG = r"[A-Za-z]{2,8}(?:_[A-Za-z0-9]+)?"
_PAIR_RE = re.compile(rf"{_LANG}-{_LANG}")
_LANG_RE = re.compile(_LANG)
_MD5_RE = re.compile(r"[0-9a-f]{32}")
_SHA256_RE = re.compile(r"[0-9a-f]{64}")
_LABEL_RE = re.compile(r"[A-Za-z0-9._-]*")
_FILE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class Download:
    """One file to fetch: where from, how to verify it, and how to unpack it."""

    id: str
    url: str
    md5: str | None
    sha256: str | None
    unpack: str
    size: int | None = None

    @property
    def basename(self) -> str:
        """The URL's last path component (used to decide gzip decoding, like sacreBLEU)."""
        from urllib.parse import urlparse

        return os.path.basename(urlparse(self.url).path) or self.id


@dataclass(frozen=True)
class Location:
    """Where one field's raw text lives: a download, a member inside it, a TSV column."""

    file: str
    path: str | None = None
    column: int | None = None
    format: str | None = None  # "plain" overrides the set's format (extra plain-text refs)


@dataclass(frozen=True)
class PairSpec:
    """One language pair of a test set.

    For ``wmt-xml`` everything comes from ``path`` and ``refs`` lists the
    translator labels used for scoring (``None``: the set's default). For the
    other formats ``src`` and ``refs`` are locations.
    """

    name: str
    src: Location | None = None
    ref_locations: tuple[Location, ...] = ()
    path: Location | None = None
    refs: tuple[str, ...] | None = None
    #: plain/tsv sets: a file of document ids, one per segment (``--echo docid``)
    docid: Location | None = None

    @property
    def source_language(self) -> str:
        return self.name.split("-", 1)[0]

    @property
    def target_language(self) -> str:
        return self.name.split("-", 1)[1]

    def locations(self) -> tuple[Location, ...]:
        if self.path is not None:
            return (self.path,)
        assert self.src is not None
        return (self.src, *self.ref_locations, *((self.docid,) if self.docid is not None else ()))


@dataclass(frozen=True)
class TestSet:
    """A named test set: its description, citation, format and language pairs."""

    __test__ = False  # not a pytest test class

    name: str
    description: str
    format: str
    files: tuple[str, ...]
    pairs: Mapping[str, PairSpec]
    citation: str | None = None
    meta: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()
    subsets: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: ``sacrebleu`` (one of sacreBLEU's sets) or ``bleucli`` (bleucli's own addition)
    origin: str = "sacrebleu"
    #: the data's licence, shown by ``--citation``
    license: str | None = None
    #: a caution about using the set, shown by ``--citation`` and ``--list -t``
    note: str | None = None
    #: short language codes (``de``) -> the set's codes they may stand for (``[deu]``), for ``-l en-de``
    languages: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))

    def pair(self, name: str) -> PairSpec:
        """The pair spec (``name`` may use the set's short codes, see :meth:`resolve_pair`), or
        :class:`UnknownLanguagePairError` listing the available pairs."""
        return self.pairs[self.resolve_pair(name)]

    def resolve_pair(self, name: str) -> str:
        """The set's own name of the pair ``name``.

        A pair the set has is itself. Otherwise each side may be a short code of
        the set's ``languages`` table (``en-de`` -> ``eng-deu`` in NTREX): the
        pair is used if exactly one of the set's pairs matches, and a pair that
        matches several is :class:`AmbiguousLanguagePairError` listing them.
        """
        if name in self.pairs:
            return name
        src, sep, tgt = name.partition("-")
        if self.languages and sep:
            sources = self.languages.get(src, (src,))
            targets = self.languages.get(tgt, (tgt,))
            found = [f"{s}-{t}" for s in sources for t in targets if f"{s}-{t}" in self.pairs]
            if len(found) == 1:
                return found[0]
            if found:
                raise AmbiguousLanguagePairError(self.name, name, found)
        raise UnknownLanguagePairError(self.name, name, list(self.pairs))

    def language_code(self, code: str) -> str:
        """The short code a language of the set is known by (``zho_CN`` -> ``zh``), else ``code`` itself.

        Used to pick the default tokenizer of a target language as for WMT sets.
        """
        for short, codes in self.languages.items():
            if code in codes:
                return short
        return code

    @property
    def langpairs(self) -> Mapping[str, PairSpec]:
        """sacreBLEU's name for :attr:`pairs` (``DATASETS[name].langpairs``)."""
        return self.pairs

    @property
    def dirname(self) -> str:
        """The set's directory name in the cache (``/`` cannot appear in one path component)."""
        return self.name.replace("/", "+")


class AmbiguousLanguagePairError(UnknownLanguagePairError):
    """A short pair (``-l en-zh``) that stands for several of the set's pairs; ``available`` lists them."""

    def __init__(self, testset: str, pair: str, candidates: list[str]) -> None:
        super().__init__(testset, pair, candidates)
        self.args = (f"language pair '{pair}' of test set '{testset}' is ambiguous: give one of "
                     f"{', '.join(candidates)}",)

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class ModelSpec:
    """One model of the registry: where it comes from and what it must hash to (when known)."""

    name: str
    url: str
    file: str
    signature: str
    md5: str | None = None
    sha256: str | None = None
    size: int | None = None


@dataclass(frozen=True)
class Registry:
    """All test sets and downloads of one registry file."""

    path: str
    testsets: Mapping[str, TestSet]
    downloads: Mapping[str, Download]
    #: SentencePiece models for spBLEU (the optional ``models:`` section; fetched by ``models.py``)
    models: Mapping[str, ModelSpec] = field(default_factory=lambda: MappingProxyType({}))

    def get(self, name: str) -> TestSet:
        """The named test set, or :class:`UnknownTestSetError` with close-name suggestions."""
        try:
            return self.testsets[name]
        except KeyError:
            raise UnknownTestSetError(name, suggest(name, list(self.testsets))) from None

    def names(self) -> list[str]:
        return list(self.testsets)


def suggest(name: str, candidates: list[str], limit: int = 3) -> list[str]:
    """Close names for a typo (``wmt2`` -> ``wmt20, wmt21, wmt22``), best first."""
    import difflib

    lowered = {c.lower(): c for c in candidates}
    found = difflib.get_close_matches(name.lower(), list(lowered), n=limit, cutoff=0.6)
    return [lowered[f] for f in found]


# --------------------------------------------------------------------------- loading

def _safe_loader_class() -> type:
    """A SafeLoader (C-accelerated when available) that rejects duplicate keys and aliases.

    Built lazily so that PyYAML is imported only when a registry is read.
    Aliases are refused because the registry never needs them and a nested
    alias "billion laughs" would make validation exponential.
    """
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class StrictLoader(base):  # type: ignore[misc, valid-type]
        def construct_object(self, node: Any, deep: bool = False) -> Any:
            if node in self.constructed_objects or node in self.recursive_objects:
                raise yaml.constructor.ConstructorError(
                    None, None, "YAML aliases (*name) are not allowed in a registry", node.start_mark)
            return super().construct_object(node, deep=deep)

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                seen: set[Any] = set()
                for key_node, _ in node.value:
                    key = self.construct_object(key_node, deep=True)
                    try:
                        duplicate = key in seen
                    except TypeError:
                        raise yaml.constructor.ConstructorError(
                            None, None, f"unhashable mapping key {key!r}", key_node.start_mark) from None
                    if duplicate:
                        raise yaml.constructor.ConstructorError(
                            "while constructing a mapping", node.start_mark,
                            f"duplicate key {key!r}", key_node.start_mark)
                    seen.add(key)
                # construct_object marks each key node as constructed; forget that
                # so the base class can construct the keys again without tripping
                # the alias check above.
                for key_node, _ in node.value:
                    self.constructed_objects.pop(key_node, None)
            return super().construct_mapping(node, deep=deep)

    return StrictLoader


def parse_yaml(text: str, source: str) -> Any:
    """Parse registry text with the strict safe loader; errors become :class:`RegistryError`."""
    import yaml

    try:
        return yaml.load(text, Loader=_safe_loader_class())  # noqa: S506 - strict SafeLoader subclass
    except yaml.YAMLError as exc:
        raise RegistryError(f"invalid registry {source}: {exc}") from None


class _Checker:
    """Type checks that produce error messages naming the registry, set and field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> RegistryError:
        return RegistryError(f"invalid registry {self.source}: {where}: {message}")

    def mapping(self, value: Any, where: str, allowed: set[str], required: set[str] = frozenset()) -> dict:  # type: ignore[assignment]
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a mapping, got {_describe(value)}")
        for key in value:
            if not isinstance(key, str):
                raise self.fail(where, f"keys must be strings, got {_describe(key)}")
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise self.fail(where, f"unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})")
        missing = sorted(required - set(value))
        if missing:
            raise self.fail(where, f"missing key(s) {', '.join(missing)}")
        return value

    def string(self, value: Any, where: str, pattern: re.Pattern[str] | None = None,
               choices: tuple[str, ...] | None = None) -> str:
        # bool is rejected on purpose: YAML 1.1 reads `no`, `off`, `yes` as booleans.
        if not isinstance(value, str):
            hint = " (quote it: YAML reads unquoted no/yes/on/off as booleans and 1.10 as a number)" \
                if isinstance(value, (bool, int, float)) else ""
            raise self.fail(where, f"expected a string, got {_describe(value)}{hint}")
        if pattern is not None and not pattern.fullmatch(value):
            raise self.fail(where, f"invalid value {value!r}")
        if choices is not None and value not in choices:
            raise self.fail(where, f"invalid value {value!r} (choose from: {', '.join(choices)})")
        return value

    def integer(self, value: Any, where: str, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(where, f"expected an integer >= {minimum}, got {_describe(value)}")
        return value

    def string_list(self, value: Any, where: str, pattern: re.Pattern[str] | None = None,
                    choices: tuple[str, ...] | None = None) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {_describe(value)}")
        items = tuple(self.string(v, f"{where}[{i}]", pattern, choices) for i, v in enumerate(value))
        if len(set(items)) != len(items):
            raise self.fail(where, "duplicate entries")
        return items


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"[:80]


def _check_member_path(check: _Checker, value: Any, where: str) -> str:
    path = check.string(value, where)
    parts = path.split("/")
    if (not path or path.startswith("/") or "\\" in path or "\0" in path or ":" in parts[0]
            or any(p in ("", ".", "..") for p in parts)):
        raise check.fail(where, f"member path {path!r} must be relative, without '..', '.', empty parts or backslashes")
    return path


def _validate_download(check: _Checker, ident: str, raw: Any) -> Download:
    where = f"downloads.{ident}"
    data = check.mapping(raw, where, {"url", "md5", "sha256", "unpack", "size"}, {"url", "unpack"})
    url = check.string(data["url"], f"{where}.url")
    if not re.match(r"https?://[^/\s]+", url) or any(c.isspace() for c in url):
        raise check.fail(f"{where}.url", f"only http(s) URLs are allowed, got {url!r}")
    md5 = check.string(data["md5"], f"{where}.md5", _MD5_RE) if "md5" in data else None
    sha256 = check.string(data["sha256"], f"{where}.sha256", _SHA256_RE) if "sha256" in data else None
    if md5 is None and sha256 is None:
        raise check.fail(where, "needs a checksum (sha256 or md5)")
    size = check.integer(data["size"], f"{where}.size", 1) if "size" in data else None
    unpack = check.string(data["unpack"], f"{where}.unpack", choices=UNPACK_KINDS)
    return Download(id=ident, url=url, md5=md5, sha256=sha256, unpack=unpack, size=size)


def _validate_location(check: _Checker, raw: Any, where: str, files: tuple[str, ...],
                       downloads: Mapping[str, Download], tsv: bool, allow_plain: bool) -> Location:
    if isinstance(raw, str):
        if len(files) != 1:
            raise check.fail(where, "a bare path is only allowed when the set has exactly one file; "
                                    "use {file: ID, path: ...}")
        raw = {"file": files[0], "path": raw}
    data = check.mapping(raw, where, {"file", "path", "column", "format"}, {"file"})
    file = check.string(data["file"], f"{where}.file", _ID_RE)
    if file not in files:
        raise check.fail(f"{where}.file", f"'{file}' is not listed in the set's files")
    download = downloads[file]
    path = _check_member_path(check, data["path"], f"{where}.path") if "path" in data else None
    archive = download.unpack in ("tar", "zip")
    if archive and path is None:
        raise check.fail(where, f"'{file}' is an archive: a member path is required")
    if not archive and path is not None:
        raise check.fail(where, f"'{file}' is not an archive: it has no member paths")
    column = None
    if "column" in data:
        if not tsv:
            raise check.fail(f"{where}.column", "columns are only used by the tsv format")
        column = check.integer(data["column"], f"{where}.column")
    elif tsv:
        raise check.fail(where, "tsv locations need a column")
    fmt = None
    if "format" in data:
        if not allow_plain:
            raise check.fail(f"{where}.format", "a format override is only allowed for references of SGML sets")
        fmt = check.string(data["format"], f"{where}.format", choices=("plain",))
    return Location(file=file, path=path, column=column, format=fmt)


def _validate_testset(check: _Checker, name: str, raw: Any, downloads: Mapping[str, Download]) -> TestSet:
    where = f"testsets.{name}"
    if not _NAME_RE.fullmatch(name) or len(name) > 100:
        raise check.fail(where, f"invalid test set name {name!r}")
    data = check.mapping(raw, where, {"description", "citation", "format", "files", "meta", "refs",
                                      "subsets", "pairs", "origin", "license", "note", "languages"},
                         {"description", "format", "files", "pairs"})
    description = check.string(data["description"], f"{where}.description")
    citation = check.string(data["citation"], f"{where}.citation") if "citation" in data else None
    origin = check.string(data.get("origin", "sacrebleu"), f"{where}.origin", choices=ORIGINS)
    license_ = check.string(data["license"], f"{where}.license") if "license" in data else None
    note = check.string(data["note"], f"{where}.note") if "note" in data else None
    fmt = check.string(data["format"], f"{where}.format", choices=FORMATS)
    files = check.string_list(data["files"], f"{where}.files", _ID_RE)
    if not files:
        raise check.fail(f"{where}.files", "at least one file is required")
    for i, f in enumerate(files):
        if f not in downloads:
            raise check.fail(f"{where}.files[{i}]", f"unknown download '{f}'")
    sgml_like = fmt in ("wmt-sgml", "iwslt-xml")
    meta: tuple[str, ...] = ()
    if "meta" in data:
        if not sgml_like:
            raise check.fail(f"{where}.meta", "metadata fields are declared only for SGML/IWSLT sets")
        meta = check.string_list(data["meta"], f"{where}.meta", choices=META_FIELDS)
    refs: tuple[str, ...] = ()
    if "refs" in data:
        if fmt != "wmt-xml":
            raise check.fail(f"{where}.refs", "reference labels are only used by the wmt-xml format")
        refs = check.string_list(data["refs"], f"{where}.refs", _LABEL_RE)
    subsets: dict[str, str] = {}
    if "subsets" in data:
        if fmt != "wmt-sgml":
            raise check.fail(f"{where}.subsets", "subset annotations are only used by the wmt-sgml format")
        raw_subsets = check.mapping(data["subsets"], f"{where}.subsets", set(data["subsets"] or {}))
        subsets = {k: check.string(v, f"{where}.subsets.{k}") for k, v in raw_subsets.items()}
    raw_pairs = data["pairs"]
    if not isinstance(raw_pairs, dict) or not raw_pairs:
        raise check.fail(f"{where}.pairs", "expected a non-empty mapping of language pairs")
    pairs: dict[str, PairSpec] = {}
    for pair_name, raw_pair in raw_pairs.items():
        pwhere = f"{where}.pairs.{pair_name}"
        check.string(pair_name, f"{where}.pairs (key)", _PAIR_RE)
        if fmt == "wmt-xml":
            pdata = check.mapping(raw_pair, pwhere, {"path", "refs"}, {"path"})
            path = _validate_location(check, pdata["path"], f"{pwhere}.path", files, downloads, False, False)
            prefs = check.string_list(pdata["refs"], f"{pwhere}.refs", _LABEL_RE) if "refs" in pdata else None
            pairs[pair_name] = PairSpec(name=pair_name, path=path, refs=prefs)
        else:
            pdata = check.mapping(raw_pair, pwhere, {"src", "refs", "docid"}, {"src", "refs"})
            tsv = fmt == "tsv"
            docid = None
            if "docid" in pdata:
                if fmt not in ("plain", "tsv"):
                    raise check.fail(f"{pwhere}.docid", "a document-id location is only used by the plain and "
                                                        "tsv formats (SGML/XML sets carry their own)")
                docid = _validate_location(check, pdata["docid"], f"{pwhere}.docid", files, downloads, tsv, False)
            src = _validate_location(check, pdata["src"], f"{pwhere}.src", files, downloads, tsv, False)
            if not isinstance(pdata["refs"], list) or not pdata["refs"]:
                raise check.fail(f"{pwhere}.refs", "expected a non-empty list of locations")
            ref_locs = tuple(
                _validate_location(check, r, f"{pwhere}.refs[{i}]", files, downloads, tsv, fmt == "wmt-sgml")
                for i, r in enumerate(pdata["refs"]))
            pairs[pair_name] = PairSpec(name=pair_name, src=src, ref_locations=ref_locs, docid=docid)
    languages: dict[str, tuple[str, ...]] = {}
    if "languages" in data:
        raw_languages = check.mapping(data["languages"], f"{where}.languages",
                                      set(data["languages"]) if isinstance(data["languages"], dict) else set())
        codes = {side for p in pairs for side in p.split("-", 1)}
        for short, raw_codes in raw_languages.items():
            lwhere = f"{where}.languages.{short}"
            check.string(short, lwhere, _LANG_RE)
            if short in codes:
                raise check.fail(lwhere, f"'{short}' is already a language of the set's pairs")
            targets = check.string_list(raw_codes, lwhere, _LANG_RE)
            unknown = [c for c in targets if c not in codes]
            if not targets or unknown:
                raise check.fail(lwhere, f"expected codes used by the set's pairs, got {', '.join(unknown) or 'none'}")
            languages[short] = targets
    return TestSet(name=name, description=description, format=fmt, files=files,
                   pairs=MappingProxyType(pairs), citation=citation, meta=meta, refs=refs,
                   subsets=MappingProxyType(subsets), origin=origin, license=license_, note=note,
                   languages=MappingProxyType(languages))


def validate_models(check: _Checker, raw: Any) -> Mapping[str, ModelSpec]:
    """The ``models:`` section of a registry (see testsets.yaml's header for its keys)."""
    if raw is None:
        return MappingProxyType({})
    if not isinstance(raw, dict):
        raise check.fail("models", f"expected a mapping, got {type(raw).__name__}")
    models: dict[str, ModelSpec] = {}
    for name, entry in raw.items():
        check.string(name, "models (key)", _FILE_RE)
        where = f"models.{name}"
        data = check.mapping(entry, where, {"url", "file", "signature", "md5", "sha256", "size", "note"},
                             {"url", "signature"})
        url = check.string(data["url"], f"{where}.url")
        if not re.match(r"https?://[^/\s]+", url) or any(c.isspace() for c in url):
            raise check.fail(f"{where}.url", f"only http(s) URLs are allowed, got {url!r}")
        default_file = url.rstrip("/").rsplit("/", 1)[-1]
        file = check.string(data.get("file", default_file), f"{where}.file", _FILE_RE)
        models[name] = ModelSpec(
            name=name, url=url, file=file,
            signature=check.string(data["signature"], f"{where}.signature"),
            md5=check.string(data["md5"], f"{where}.md5", _MD5_RE) if "md5" in data else None,
            sha256=check.string(data["sha256"], f"{where}.sha256", _SHA256_RE) if "sha256" in data else None,
            size=check.integer(data["size"], f"{where}.size", 1) if "size" in data else None,
        )
        if "note" in data:
            check.string(data["note"], f"{where}.note")
    return MappingProxyType(models)


def validate(data: Any, source: str) -> Registry:
    """Turn parsed YAML into a :class:`Registry`, or raise :class:`RegistryError`."""
    check = _Checker(source)
    top = check.mapping(data, "top level", {"schema", "downloads", "testsets", "models"},
                        {"schema", "downloads", "testsets"})
    if isinstance(top["schema"], bool) or top["schema"] != SCHEMA_VERSION:
        raise check.fail("schema", f"unsupported schema {top['schema']!r} (this bleucli reads schema {SCHEMA_VERSION})")
    raw_downloads = top["downloads"]
    if not isinstance(raw_downloads, dict):
        raise check.fail("downloads", f"expected a mapping, got {_describe(raw_downloads)}")
    downloads: dict[str, Download] = {}
    urls: dict[str, str] = {}
    for ident, raw in raw_downloads.items():
        check.string(ident, "downloads (key)", _ID_RE)
        download = _validate_download(check, ident, raw)
        if download.url in urls:
            raise check.fail(f"downloads.{ident}.url", f"same URL as downloads.{urls[download.url]}; "
                                                       "declare a shared file once")
        urls[download.url] = ident
        downloads[ident] = download
    raw_sets = top["testsets"]
    if not isinstance(raw_sets, dict):
        raise check.fail("testsets", f"expected a mapping, got {_describe(raw_sets)}")
    testsets: dict[str, TestSet] = {}
    dirnames: dict[str, str] = {}
    for name, raw in raw_sets.items():
        check.string(name, "testsets (key)")
        testset = _validate_testset(check, name, raw, downloads)
        clash = dirnames.get(testset.dirname.lower())
        if clash is not None:
            raise check.fail(f"testsets.{name}", f"name collides with '{clash}' in the cache (case-insensitive)")
        dirnames[testset.dirname.lower()] = name
        testsets[name] = testset
    return Registry(path=source, testsets=MappingProxyType(testsets), downloads=MappingProxyType(downloads),
                    models=validate_models(check, top.get("models")))


def load_registry_file(path: str | os.PathLike[str]) -> Registry:
    """Read and validate one registry file."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RegistryError(f"cannot read registry {source}: {exc}") from None
    return validate(parse_yaml(text, source), source)


def default_registry_path() -> Path:
    """``$BLEUCLI_TESTSETS``, else the copy shipped in the wheel, else the checkout's top-level file."""
    env = os.environ.get("BLEUCLI_TESTSETS")
    if env:
        return Path(env).expanduser()
    package_dir = Path(__file__).resolve().parent.parent
    shipped = package_dir / "testsets.yaml"
    if shipped.is_file():
        return shipped
    return package_dir.parent / "testsets.yaml"


_CACHE: dict[tuple[str, int, int], Registry] = {}


def load_registry(path: str | os.PathLike[str] | None = None) -> Registry:
    """The registry at ``path`` (default: :func:`default_registry_path`), parsed once per process.

    Re-read when the file's size or mtime changes, so a long-lived process
    (or a test) that rewrites the file sees the new content.
    """
    resolved = Path(path) if path is not None else default_registry_path()
    try:
        st = resolved.stat()
    except OSError as exc:
        raise RegistryError(f"cannot read registry {resolved}: {exc}") from None
    key = (str(resolved.resolve()), st.st_mtime_ns, st.st_size)
    registry = _CACHE.get(key)
    if registry is None:
        registry = load_registry_file(resolved)
        _CACHE.clear()
        _CACHE[key] = registry
    return registry
