"""Public API for test sets: list, describe, download, read fields, filter, score against.

Every function takes the same keyword options:

* ``cache_dir``: the cache root (default ``$BLEUCLI_CACHE_DIR`` or the user cache dir);
* ``offline``: never open a socket (default ``$BLEUCLI_OFFLINE``); missing data
  raises :class:`~bleucli.errors.NotCachedError`;
* ``progress``: ``progress(url, bytes_done, bytes_total_or_None)`` called while
  downloading (the CLI draws a bar on a TTY; the library never prints);
* ``registry``: a :class:`~bleucli.testsets.registry.Registry` or a path to a
  registry file (default ``$BLEUCLI_TESTSETS`` or the shipped ``testsets.yaml``).

Lines are returned as sacreBLEU's CLI uses them (trailing whitespace removed),
so ``-t NAME -l PAIR`` scores exactly what sacreBLEU scores.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError, LengthMismatchError, OptionError, UnknownFieldError
from ..input.bounded import loads as json_loads  # records are JSON lists; the one JSON reader all the same
from .cache import offline_requested, resolve_cache_root
from .downloader import ProgressCallback
from .formats import ref_field_names
from .prepare import CacheContext, PairData, load_pair, mirror_sources, pair_dir
from .registry import Registry, TestSet, load_registry

RegistryLike = Registry | str | os.PathLike[str] | None


def _registry(registry: RegistryLike) -> Registry:
    if isinstance(registry, Registry):
        return registry
    return load_registry(registry)


def _context(cache_dir: str | os.PathLike[str] | None, offline: bool | None,
             progress: ProgressCallback | None, mirrors: Sequence[str] | None = None) -> CacheContext:
    return CacheContext(root=resolve_cache_root(cache_dir), offline=offline_requested(offline),
                        progress=progress, mirrors=mirror_sources(mirrors))


def split_test_sets(test_sets: str | Sequence[str]) -> list[str]:
    """``"wmt17,wmt16"`` or a list -> names (a comma list concatenates sets, as in sacreBLEU)."""
    names = [n.strip() for n in test_sets.split(",")] if isinstance(test_sets, str) else list(test_sets)
    if not names or any(not n for n in names):
        raise OptionError(f"invalid test set list {test_sets!r}")
    return names


# --------------------------------------------------------------------------- registry queries

def list_testsets(pair: str | None = None, *, registry: RegistryLike = None) -> list[tuple[str, str]]:
    """``(name, description)`` of every test set, sorted by name.

    With ``pair``, only sets having that pair *in either direction* (sacreBLEU's
    ``--list -l`` behaviour; note that some sets, e.g. mtedx, are directional).
    """
    reg = _registry(registry)
    out = []
    for name, testset in reg.testsets.items():
        if pair is not None:
            reverse = "-".join(reversed(pair.split("-", 1)))
            if not _has_pair(testset, pair) and not _has_pair(testset, reverse):
                continue
        out.append((name, testset.description))
    return sorted(out)


def _has_pair(testset: TestSet, pair: str) -> bool:
    """Whether ``pair`` names one or more of the set's pairs (short codes such as ``en-de`` included)."""
    from ..errors import UnknownLanguagePairError
    from .registry import AmbiguousLanguagePairError

    try:
        testset.resolve_pair(pair)
    except AmbiguousLanguagePairError:
        return True
    except UnknownLanguagePairError:
        return False
    return True


def describe(name: str, *, registry: RegistryLike = None) -> TestSet:
    """The registry entry of a test set (raises UnknownTestSetError with suggestions)."""
    return _registry(registry).get(name)


def language_pairs(name: str, *, registry: RegistryLike = None) -> list[str]:
    """The language pairs of a test set, in registry order."""
    return list(describe(name, registry=registry).pairs)


def citation(name: str, *, registry: RegistryLike = None) -> str | None:
    """The BibTeX citation of a test set, or ``None`` when the registry has none."""
    return describe(name, registry=registry).citation


def _static_fields(testset: TestSet, pair: str) -> list[str] | None:
    """Field names known without the data (every format but wmt-xml, whose systems vary)."""
    spec = testset.pair(pair)
    if testset.format == "wmt-xml":
        return None
    return ["src", *ref_field_names(len(spec.ref_locations)), *testset.meta,
            *(["docid"] if spec.docid is not None else [])]


def _load(name: str, pair: str, needed: list[str] | None, cache_dir: Any, offline: bool | None,
          progress: ProgressCallback | None, registry: RegistryLike,
          mirrors: Sequence[str] | None = None) -> tuple[TestSet, PairData, dict[str, list[str]]]:
    reg = _registry(registry)
    testset = reg.get(name)
    pair = testset.resolve_pair(pair)
    data, lines = load_pair(_context(cache_dir, offline, progress, mirrors), reg, testset, pair, needed)
    return testset, data, lines


def processed_pair(name: str, pair: str, *, cache_dir: Any = None, offline: bool | None = None,
                   progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> PairData:
    """The verified processed pair, downloaded and built if needed (its files back ``get_source_file``...)."""
    return _load(name, pair, [], cache_dir, offline, progress, registry, mirrors)[1]


def fields(name: str, pair: str, *, cache_dir: Any = None, offline: bool | None = None,
           progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> list[str]:
    """The echoable fields of a (set, pair): src, references, metadata, system outputs.

    Known from the registry for all formats except WMT XML, which needs the
    data (it lists the systems in the file).
    """
    static = _static_fields(_registry(registry).get(name), pair)
    if static is not None:
        return static
    _, data, _ = _load(name, pair, [], cache_dir, offline, progress, registry, mirrors)
    return data.field_names


def reference_fields(name: str, pair: str, *, cache_dir: Any = None, offline: bool | None = None,
                     progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> list[str]:
    """The reference fields used for scoring by default (WMT XML: the registry's labels)."""
    testset = _registry(registry).get(name)
    if testset.format != "wmt-xml":
        return ref_field_names(len(testset.pair(pair).ref_locations))
    _, data, _ = _load(name, pair, [], cache_dir, offline, progress, registry, mirrors)
    return data.scoring_refs


def download(name: str, pair: str | None = None, *, cache_dir: Any = None, offline: bool | None = None,
             progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> list[Path]:
    """Download and process a test set (all pairs, or one); returns the processed pair directories."""
    reg = _registry(registry)
    testset = reg.get(name)
    pairs = [pair] if pair is not None else list(testset.pairs)
    ctx = _context(cache_dir, offline, progress, mirrors)
    out = []
    for p in pairs:
        p = testset.resolve_pair(p)
        load_pair(ctx, reg, testset, p, None)
        out.append(pair_dir(ctx, testset, p))
    return out


# --------------------------------------------------------------------------- fields and filters

def _resolve_field(testset: TestSet, pair: str, data: PairData, requested: str) -> str:
    names = data.field_names
    if requested == "ref" and "ref" not in names:
        refs = [n for n in names if n.startswith("ref")]
        if refs:
            return min(refs)  # sacreBLEU's backwards-compatible 'ref'
    if requested not in names:
        raise UnknownFieldError(testset.name, pair, requested, names)
    return requested


def _mask(testset: TestSet, pair: str, records: list[str] | None, origlang: str | None,
          subset: str | None) -> list[bool]:
    """Which segments ``--origlang``/``--subset`` keep, with sacreBLEU's exact semantics."""
    if testset.format not in ("wmt-sgml", "wmt-xml") or records is None:
        raise OptionError(f"--origlang and --subset need a WMT SGML or WMT XML test set; "
                          f"{testset.name} is {testset.format}")
    if subset is not None and subset.startswith("country:"):
        subset = subset[len("country:"):]
    if subset is not None and testset.format == "wmt-sgml" and not testset.subsets:
        raise OptionError(f"no subset annotation available for test set {testset.name}")
    try:
        pattern = re.compile(subset) if subset is not None else None
    except re.error as exc:
        raise OptionError(f"invalid --subset regular expression {subset!r}: {exc}") from None
    keep = []
    for record in records:
        in_doc, doc_origlang, third = json_loads(record)
        if not in_doc:
            keep.append(False)
            continue
        if origlang is None:
            include = True
        elif origlang.startswith("non-"):
            include = doc_origlang != origlang[4:]
        else:
            include = doc_origlang == origlang
        if pattern is not None:
            target = testset.subsets.get(third or "", "") if testset.format == "wmt-sgml" else third
            if target is None or not pattern.search(target):
                include = False
        keep.append(include)
    return keep


def _filtered(lines: list[str], keep: list[bool] | None) -> list[str]:
    return lines if keep is None else [line for line, k in zip(lines, keep) if k]


def get_field_lines(name: str, pair: str, field_name: str, *, origlang: str | None = None,
                    subset: str | None = None, cache_dir: Any = None, offline: bool | None = None,
                    progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> list[str]:
    """The lines of one field (``src``, ``ref``, ``ref:A``, ``docid``, a system name...).

    ``origlang`` (``xx`` or ``non-xx``) and ``subset`` (a regex) select
    segments as sacreBLEU's ``--origlang``/``--subset`` do.
    """
    return echo_fields(name, pair, [field_name], origlang=origlang, subset=subset, cache_dir=cache_dir,
                       offline=offline, progress=progress, registry=registry,
        mirrors=mirrors)[0]


def echo_fields(name: str, pair: str, requested: Sequence[str], *, origlang: str | None = None,
                subset: str | None = None, cache_dir: Any = None, offline: bool | None = None,
                progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> list[list[str]]:
    """Several fields of one set at once (one verified read); ``["all"]`` means every field."""
    testset, data, _ = _load(name, pair, [], cache_dir, offline, progress, registry, mirrors)
    if "all" in requested:
        if len(requested) != 1:
            raise OptionError("'all' cannot be combined with other fields")
        requested = data.field_names
    resolved = [_resolve_field(testset, pair, data, r) for r in requested]
    filtering = origlang is not None or subset is not None
    needed = list(dict.fromkeys(resolved + ([".filter"] if filtering else [])))
    testset, data, lines = _load(name, pair, needed, cache_dir, offline, progress, registry, mirrors)
    keep = _mask(testset, pair, lines.get(".filter"), origlang, subset) if filtering else None
    return [_filtered([line.rstrip() for line in lines[r]], keep) for r in resolved]


def echo(test_sets: str | Sequence[str], pair: str, requested: Sequence[str], *, origlang: str | None = None,
         subset: str | None = None, cache_dir: Any = None, offline: bool | None = None,
         progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> list[str]:
    """``--echo``: the requested fields of each set, tab-joined per segment, sets concatenated."""
    out: list[str] = []
    for name in split_test_sets(test_sets):
        columns = echo_fields(name, pair, list(requested), origlang=origlang, subset=subset,
                              cache_dir=cache_dir, offline=offline, progress=progress, registry=registry,
        mirrors=mirrors)
        out.extend("\t".join(values) for values in zip(*columns))
    return out


@dataclass(frozen=True)
class DetailGroup:
    """One line of sacreBLEU's ``--detail``: its label and which segments of the full set(s) it keeps."""

    #: ``origlang=en domain=ALL``, ``origlang=en domain=news``, ``origlang=de country=US``...
    key: str
    #: one flag per segment of the concatenated sets, unfiltered (as hypotheses are given)
    keep: tuple[bool, ...]


def _subset_label(subset: str | None) -> str:
    if subset is None:
        return "domain=ALL"
    if subset.startswith("country:"):
        return f"country={subset[len('country:'):]}"
    return f"domain={subset}"


def detail_groups(test_sets: str | Sequence[str], pair: str, *, origlang: str | None = None,
                  subset: str | None = None, cache_dir: Any = None, offline: bool | None = None,
                  progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> list[DetailGroup]:
    """sacreBLEU's ``--detail`` breakdown (``print_subset_results``): one group per original language
    and per domain (or ``country:``) subset, in its order, empty groups left out.

    The original languages are the documents' (sorted), or ``origlang`` alone
    when given; each is taken whole (``domain=ALL``) and then per subset:
    ``subset`` alone when given, otherwise every domain of a WMT XML set and
    every ``country:XX`` and domain of an SGML set's subset annotations
    (sorted). Segments are selected exactly as by ``--origlang``/``--subset``.
    An empty list means the set(s) carry no original language (sacreBLEU
    then says "No subset information found"). Documents without an
    ``origlang`` attribute form no group (sacreBLEU makes one of the whole
    ``<doc ...>`` line).
    """
    reg = _registry(registry)
    names = split_test_sets(test_sets)
    loaded: list[tuple[TestSet, list[str] | None]] = []
    origlangs: set[str] = set()
    subsets: set[str] = set()
    for name in names:
        testset = reg.get(name)
        testset.pair(pair)
        records = None
        if testset.format in ("wmt-sgml", "wmt-xml"):
            records = _load(name, pair, [".filter"], cache_dir, offline, progress, reg, mirrors)[2][".filter"]
        loaded.append((testset, records))
        for record in records or ():
            _, doc_origlang, third = json_loads(record)
            if doc_origlang is not None:
                origlangs.add(doc_origlang)
            if testset.format == "wmt-xml" and third is not None:
                subsets.add(third)
        if testset.format == "wmt-sgml":
            for annotation in testset.subsets.values():
                country, _, domain = annotation.partition("-")  # "GB-politics": country GB, domain politics
                subsets.add(f"country:{country}")
                if domain:
                    subsets.add(domain.split("-")[0])
    wanted = [origlang] if origlang else sorted(origlangs)
    groups = []
    for lang in wanted:
        for sub in [None, *([subset] if subset is not None else sorted(subsets))]:
            keep: list[bool] = []
            for testset, records in loaded:
                keep.extend(_mask(testset, pair, records, lang, sub))
            if any(keep):
                groups.append(DetailGroup(f"origlang={lang} {_subset_label(sub)}", tuple(keep)))
    return groups


def get_source(name: str, pair: str, **kwargs: Any) -> list[str]:
    """The source lines of a (set, pair)."""
    return get_field_lines(name, pair, "src", **kwargs)


def get_document_ids(name: str, pair: str, **kwargs: Any) -> list[str]:
    """The document id of each segment of a (set, pair), for document-level resampling.

    Takes the keyword options of :func:`get_field_lines`; a set without document
    ids raises :class:`~bleucli.errors.UnknownFieldError`.
    """
    return get_field_lines(name, pair, "docid", **kwargs)


def resolve_pair(name: str, pair: str, *, registry: RegistryLike = None) -> str:
    """The set's own name of ``pair`` (``ntrex128``: ``en-de`` -> ``eng-deu``); see ``TestSet.resolve_pair``."""
    return describe(name, registry=registry).resolve_pair(pair)


def get_references(name: str, pair: str, *, origlang: str | None = None, subset: str | None = None,
                   cache_dir: Any = None, offline: bool | None = None, progress: ProgressCallback | None = None,
                   registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> list[list[str]]:
    """The default scoring references as streams: ``refs[k][i]`` is reference k of segment i."""
    data = load_test_data(name, pair, origlang=origlang, subset=subset, cache_dir=cache_dir, offline=offline,
                          progress=progress, registry=registry,
        mirrors=mirrors)
    return data.references


def default_tokenizer(pair: str) -> str:
    """The BLEU tokenizer sacreBLEU uses by default for the pair's target language."""
    from ..tokenizers import default_tokenizer_for

    return default_tokenizer_for(pair.split("-", 1)[1] if "-" in pair else None)


# --------------------------------------------------------------------------- scoring data

@dataclass(frozen=True)
class TestData:
    """References of one or more concatenated test sets, ready for scoring.

    ``references`` are already filtered by ``origlang``/``subset``; hypotheses
    must cover the *full* sets (``full_length`` lines) and go through
    :meth:`filter_hypotheses`, which checks the length before filtering (so a
    short hypothesis file is an error, not a silently truncated score).
    """

    __test__ = False

    test_sets: tuple[str, ...]
    pair: str
    references: list[list[str]]
    full_length: int
    keep: tuple[bool, ...] | None
    data_hash: str
    reference_fields: tuple[tuple[str, ...], ...]
    origlang: str | None = None
    subset: str | None = None
    #: the target language as the tokenizer defaults know it (``zho_CN`` in NTREX -> ``zh``)
    target_language: str = ""

    @property
    def test(self) -> str:
        return ",".join(self.test_sets)

    @property
    def default_tokenizer(self) -> str:
        from ..tokenizers import default_tokenizer_for

        return default_tokenizer_for(self.target_language or self.pair.split("-", 1)[-1])

    def signature_fields(self) -> dict[str, str | None]:
        """Keyword arguments for ``Signature.build``/``with_fields``: test, lang, origlang, subset."""
        return {"test": self.test, "lang": self.pair, "origlang": self.origlang, "subset": self.subset}

    def filter_hypotheses(self, lines: Sequence[str], source: str = "hypotheses") -> list[str]:
        """Check that ``lines`` covers the full test set(s), then apply the subset filter."""
        if len(lines) != self.full_length:
            raise LengthMismatchError(f"{source} has {len(lines)} lines but test set {self.test} ({self.pair}) "
                                      f"has {self.full_length}")
        return list(lines) if self.keep is None else [line for line, k in zip(lines, self.keep) if k]


def load_test_data(test_sets: str | Sequence[str], pair: str, *, origlang: str | None = None,
                   subset: str | None = None, cache_dir: Any = None, offline: bool | None = None,
                   progress: ProgressCallback | None = None, registry: RegistryLike = None,
        mirrors: Sequence[str] | None = None) -> TestData:
    """Everything needed to score against ``-t test_sets -l pair`` (see :class:`TestData`)."""
    reg = _registry(registry)
    names = split_test_sets(test_sets)
    for name in names:
        reg.get(name).pair(pair)  # fail fast on an unknown set or pair before any download
    first = reg.get(names[0])
    pair = first.resolve_pair(pair)  # the set's own name (-l en-de may stand for eng-deu)
    target_language = first.language_code(pair.split("-", 1)[1])
    filtering = origlang is not None or subset is not None
    streams: list[list[str]] | None = None
    keep_all: list[bool] = []
    full_length = 0
    digest = hashlib.sha256()
    ref_fields = []
    for name in names:
        testset, data, _ = _load(name, pair, [], cache_dir, offline, progress, reg, mirrors)
        refs = data.scoring_refs
        if not refs:
            raise InputError(f"no references found for test set {name}/{pair} "
                             f"(fields: {', '.join(data.field_names)})")
        needed = refs + ([".filter"] if filtering else [])
        testset, data, lines = _load(name, pair, needed, cache_dir, offline, progress, reg, mirrors)
        if streams is None:
            streams = [[] for _ in refs]
        elif len(streams) != len(refs):
            raise OptionError(f"cannot concatenate test sets with different numbers of references "
                              f"({names[0]}: {len(streams)}, {name}: {len(refs)})")
        set_length = len(lines[refs[0]])
        keep = _mask(testset, pair, lines.get(".filter"), origlang, subset) if filtering else None
        for k, ref in enumerate(refs):
            streams[k].extend(_filtered([line.rstrip() for line in lines[ref]], keep))
        if keep is not None:
            keep_all.extend(keep)
        full_length += set_length
        ref_fields.append(tuple(refs))
        digest.update(f"{name}\0{pair}\0".encode())
        for ref in refs:
            digest.update(f"{ref}\0{data.field_sha256(ref)}\n".encode())
    assert streams is not None
    if not streams[0]:
        what = "".join(f" {k}={v}" for k, v in (("origlang", origlang), ("subset", subset)) if v is not None)
        raise InputError(f"test set {','.join(names)} ({pair}) contains no sentence{' with' + what if what else ''}")
    return TestData(test_sets=tuple(names), pair=pair, references=streams, full_length=full_length,
                    keep=tuple(keep_all) if filtering else None, data_hash=digest.hexdigest(),
                    reference_fields=tuple(ref_fields), origlang=origlang, subset=subset,
                    target_language=target_language)


def data_hash(test_sets: str | Sequence[str], pair: str, **kwargs: Any) -> str:
    """sha256 identifying the reference data used for scoring (for the JSON output)."""
    return load_test_data(test_sets, pair, **kwargs).data_hash


def export_cache(directory: str | os.PathLike[str], *, cache_dir: Any = None,
                 registry: RegistryLike = None) -> list[Path]:
    """Write the cache's verified downloads into ``directory`` in the mirror layout (``<host>/<path>``).

    The directory then serves ``--mirror DIR`` / ``BLEUCLI_MIRROR`` on machines
    without network access (see ``bleucli cache export``).
    """
    from .manage import export_cache as export

    return export(resolve_cache_root(cache_dir), Path(directory), _registry(registry))
