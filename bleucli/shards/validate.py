"""A shard is data, checked like any input before anything in it is added.

:func:`check_document` checks a parsed shard's header (and, for a shard of
sums, its statistics): the exact set of keys, each value's JSON type, the
bleucli version that wrote it, the options (each metric's record, field by
field, then built), the statistics against each metric's
:class:`~bleucli.metrics.registry.StatisticsSchema`, and the signatures
against those rebuilt from the options. :func:`check_segment_line` checks one
line of a per-segment shard. Every refusal is a :class:`ShardError` whose
message starts with the JSON path of the bad field
(``metrics[0].statistics[1].values[3]: -1 is not a non-negative integer``).

The metrics are built *for statistics only*: a tokenizer that needs something
from outside (a SentencePiece model, a MeCab dictionary) is never built, and a
path named in a shard (``spm_model``) is never opened; merging needs only
``score_from_statistics`` and the signature, whose ``tok`` field must then
have the form that tokenizer signs with.
"""

from __future__ import annotations

import json
import math
import re
from functools import reduce
from operator import add
from typing import Any, NoReturn

from ..errors import BleucliError, InputError
from ..metrics import registry
from ..options import MetricOptions
from ..version import __version__

#: The keys of a shard's header, exactly.
HEADER_KEYS = frozenset({"format", "bleucli_version", "offset", "segments", "nrefs", "systems", "references",
                         "input_sha256", "options", "signature_fields", "test_set", "per_segment", "metrics"})

#: Tokenizers built from code alone; any other is replaced by its signature when merging.
SELF_CONTAINED_TOKENIZERS = frozenset({"none", "13a", "intl", "char", "zh", "11b"})

#: What the ``tok`` field of a signature looks like for the tokenizers that need outside resources.
_TOK_FORMS = {
    "ja-mecab": re.compile(r"ja-mecab-[\w.+-]+"),
    "ko-mecab": re.compile(r"ko-mecab-[\w.+-]+"),
    "flores101": re.compile(r"flores101"),
    "flores200": re.compile(r"flores200"),
    "spBLEU-1K": re.compile(r"spBLEU-1K"),
    "spm": re.compile(r"flores101"),  # sacreBLEU's old name of flores101
}
_LOCAL_SPM = re.compile(r"spm-[0-9a-f]{12}")


class ShardError(InputError):
    """A shard file that cannot be read, or shards that cannot be merged."""


def show(value: Any, limit: int = 60) -> str:
    """``value`` as JSON, cut short: a message names a value, it does not dump it."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class _Checker:
    def __init__(self, path: str, line: int | None = None) -> None:
        self.path = path
        self.line = line

    def fail(self, where: str, message: str) -> NoReturn:
        raise ShardError(f"{where}: {message}" if where else message, self.path, self.line)

    def object(self, value: Any, where: str, keys: frozenset[str] | set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(where, f"{show(value)} is not a JSON object")
        missing = sorted(keys - value.keys())
        if missing:
            self.fail(where, f"the key '{missing[0]}' is missing")
        extra = sorted(value.keys() - keys)
        if extra:
            self.fail(f"{where}.{extra[0]}" if where else extra[0], "is not a key of a bleucli-stats/1 shard")
        return value

    def count(self, value: Any, where: str, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            what = "a non-negative integer" if minimum == 0 else f"an integer >= {minimum}"
            self.fail(where, f"{show(value)} is not {what}")
        return value

    def string(self, value: Any, where: str, nullable: bool = False) -> str | None:
        if not isinstance(value, str) and not (nullable and value is None):
            self.fail(where, f"{show(value)} is not a string{' or null' if nullable else ''}")
        return value

    def strings(self, value: Any, where: str, nonempty: bool = False) -> list[str]:
        if not isinstance(value, list) or (nonempty and not value):
            self.fail(where, f"{show(value)} is not a {'non-empty ' if nonempty else ''}list of strings")
        for index, item in enumerate(value):
            self.string(item, f"{where}[{index}]")
        return value

    def scalar(self, value: Any, where: str) -> None:
        if isinstance(value, float) and not math.isfinite(value):
            self.fail(where, f"{value!r} is not a finite number")
        if not isinstance(value, (str, int, float, bool)) and value is not None:
            self.fail(where, f"{show(value)} is not a string, number, boolean or null")

    def json(self, value: Any, where: str) -> None:
        """Any JSON, with finite numbers only (``1e400`` parses as ``inf``)."""
        if isinstance(value, dict):
            for key, item in value.items():
                self.json(item, f"{where}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self.json(item, f"{where}[{index}]")
        else:
            self.scalar(value, where)


# -- options ----------------------------------------------------------------------------------------------------------
_TYPES: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "float": (int, float), "str": (str,)}


def _field_types(record: type, field: str) -> tuple[tuple[type, ...], bool] | None:
    """The JSON types a field of an options record takes, and whether it may be null (``None``: unknown)."""
    annotation = None
    for klass in record.__mro__:
        annotation = klass.__dict__.get("__annotations__", {}).get(field)
        if annotation is not None:
            break
    if not isinstance(annotation, str):
        return None
    types: tuple[type, ...] = ()
    nullable = False
    for part in (p.strip() for p in annotation.split("|")):
        if part == "None":
            nullable = True
        elif part in _TYPES:
            types += _TYPES[part]
        else:
            return None
    return types, nullable


def _check_value(check: _Checker, value: Any, where: str, types: tuple[type, ...], nullable: bool) -> None:
    if value is None and nullable:
        return
    if isinstance(value, bool) and bool not in types:
        check.fail(where, f"{show(value)} is not of the option's type")
    if not isinstance(value, types):
        check.fail(where, f"{show(value)} is not of the option's type")
    if isinstance(value, float) and not math.isfinite(value):
        check.fail(where, f"{value!r} is not a finite number")


def options_of(check: _Checker, data: Any) -> MetricOptions:
    """The shard's ``options``, field by field, as a :class:`MetricOptions`."""
    if not isinstance(data, dict):
        check.fail("options", f"{show(data)} is not a JSON object")
    names = data.get("metrics")
    if not isinstance(names, list) or not names:
        check.fail("options.metrics", f"{show(names)} is not a non-empty list of metric names")
    known = registry.entries()
    for index, name in enumerate(names):
        if not isinstance(name, str) or name not in known:
            check.fail(f"options.metrics[{index}]", f"{show(name)} is not a metric of this bleucli "
                       f"(known: {', '.join(known)})")
    if len(set(names)) != len(names):
        check.fail("options.metrics", f"{show(names)} names a metric twice")
    check.object(data, "options", {"metrics", *names})
    records: dict[str, Any] = {}
    for name in names:
        record_type = known[name].options
        fields = set(getattr(record_type, "_fields", ()))
        values = check.object(data[name], f"options.{name}", fields)
        for field, value in values.items():
            where = f"options.{name}.{field}"
            types = _field_types(record_type, field)
            if types is None:
                check.json(value, where)
            else:
                _check_value(check, value, where, *types)
        try:
            records[name] = record_type(**values)
        except (BleucliError, TypeError, ValueError) as error:
            check.fail(f"options.{name}", str(error))
    builtin = {name: records.pop(name) for name in ("bleu", "chrf", "ter") if name in records}
    return MetricOptions(tuple(names), others=tuple(records.items()), **builtin)


class _SignatureOnly:
    """A tokenizer that is never used, standing in for one that needs outside resources: its signature only."""

    def __init__(self, signature: str) -> None:
        self.signature = signature

    def __call__(self, line: str) -> str:  # pragma: no cover - merging never tokenizes
        raise RuntimeError("a merged shard's tokenizer cannot tokenize")

    def tokens(self, line: str) -> list[str]:  # pragma: no cover - merging never tokenizes
        raise RuntimeError("a merged shard's tokenizer cannot tokenize")


def _signature_fields(text: str) -> dict[str, str]:
    return dict(part.partition(":")[::2] for part in text.split("|") if part)


def build_for_statistics(check: _Checker, options: MetricOptions, document: dict[str, Any]) -> list[Any]:
    """The metrics of the shard, built to score statistics, their signatures checked against the stored ones."""
    names = registry.metric_names(options.requested)
    entries = document["metrics"]
    bleu = options.bleu
    stand_in: str | None = None
    if "bleu" in names and bleu.spm_model is not None and bleu.tokenize not in (None, "spm"):
        check.fail("options.bleu.spm_model", f"a SentencePiece model file needs the tokenizer 'spm', "
                   f"not {show(bleu.tokenize)}")
    if "bleu" in names and (bleu.spm_model is not None or (bleu.tokenize or "13a") not in SELF_CONTAINED_TOKENIZERS):
        stand_in = bleu.tokenize if bleu.tokenize is not None else "spm"
        options = options._replace(bleu=bleu._replace(tokenize="none", spm_model=None))
    metrics = []
    for index, name in enumerate(names):
        try:
            metric = registry.get(name).build(options.of(name))
        except (BleucliError, TypeError, ValueError) as error:
            check.fail(f"options.{name}", str(error).splitlines()[0] if str(error) else type(error).__name__)
        metric.signature_fields = dict(document["signature_fields"])
        if name == "bleu" and stand_in is not None:
            stored = _signature_fields(entries[index]["signature"]).get("tok", "")
            from ..tokenizers import available_tokenizers

            if stand_in not in available_tokenizers():
                check.fail("options.bleu.tokenize", f"{show(stand_in)} is not a tokenizer of this bleucli")
            form = _LOCAL_SPM if bleu.spm_model is not None else _TOK_FORMS.get(stand_in)
            if form is None or form.fullmatch(stored) is None:
                check.fail(f"metrics[{index}].signature",
                           f"tok is {show(stored)}, which the tokenizer {show(stand_in)} of options.bleu never signs")
            metric.tokenize = stand_in  # type: ignore[attr-defined]  # BLEU's
            metric.tokenizer = _SignatureOnly(stored)  # type: ignore[attr-defined]
        metrics.append(metric)
    nrefs = document["nrefs"]
    for index, (metric, entry) in enumerate(zip(metrics, entries)):
        if entry["name"] != metric.name:
            check.fail(f"metrics[{index}].name", f"{show(entry['name'])}, but the shard's options give "
                       f"{show(metric.name)}")
        rebuilt = metric.signature(nrefs).format()
        if entry["signature"] != rebuilt:
            written, expected = _signature_fields(entry["signature"]), _signature_fields(rebuilt)
            key = next((k for k in [*expected, *written] if written.get(k) != expected.get(k)), "")
            check.fail(f"metrics[{index}].signature",
                       f"{key} is {show(written.get(key))}, but the shard's options give {show(expected.get(key))}")
    return metrics


# -- the document -----------------------------------------------------------------------------------------------------
def check_document(path: str, document: Any, fmt: str) -> tuple[MetricOptions, list[Any]]:
    """Check a parsed shard (see the module's docstring); its options and its metrics built for statistics."""
    check = _Checker(path)
    if not isinstance(document, dict) or document.get("format") != fmt:
        check.fail("", f"not a bleucli statistics shard (expected format {fmt})")
    version = document.get("bleucli_version")
    if version != __version__:
        check.fail("bleucli_version", f"the shard was written by bleucli {show(version)}, this is bleucli "
                   f"{__version__}: write it again with this version (`bleucli stats`)")
    check.object(document, "", HEADER_KEYS)
    check.count(document["offset"], "offset")
    segments = check.count(document["segments"], "segments")
    check.count(document["nrefs"], "nrefs", minimum=1)
    systems = check.strings(document["systems"], "systems", nonempty=True)
    check.strings(document["references"], "references")
    checksums = document["input_sha256"]
    if not isinstance(checksums, dict):
        check.fail("input_sha256", f"{show(checksums)} is not a JSON object")
    for key, value in checksums.items():
        check.string(value, f"input_sha256.{key}", nullable=True)
    fields = document["signature_fields"]
    if not isinstance(fields, dict):
        check.fail("signature_fields", f"{show(fields)} is not a JSON object")
    for key, value in fields.items():
        check.scalar(value, f"signature_fields.{key}")
    if document["test_set"] is not None and not isinstance(document["test_set"], dict):
        check.fail("test_set", f"{show(document['test_set'])} is not a JSON object or null")
    check.json(document["test_set"], "test_set")
    per_segment = document["per_segment"]
    if not isinstance(per_segment, bool):
        check.fail("per_segment", f"{show(per_segment)} is not true or false")
    options = options_of(check, document["options"])
    names = registry.metric_names(options.requested)
    entries = document["metrics"]
    if not isinstance(entries, list) or len(entries) != len(names):
        check.fail("metrics", f"expected a list of {len(names)} metrics (those of options.metrics), "
                   f"got {show(entries)}")
    keys = {"name", "signature"} if per_segment else {"name", "signature", "statistics"}
    for index, entry in enumerate(entries):
        check.object(entry, f"metrics[{index}]", keys)
        check.string(entry["name"], f"metrics[{index}].name")
        check.string(entry["signature"], f"metrics[{index}].signature")
    metrics = build_for_statistics(check, options, document)
    if not per_segment:
        for m, (name, entry) in enumerate(zip(names, entries)):
            schema = registry.get(name).statistics
            record = options.of(name)
            per_system = entry["statistics"]
            where = f"metrics[{m}].statistics"
            if not isinstance(per_system, list) or len(per_system) != len(systems):
                check.fail(where, f"expected a list of {len(systems)} (one per system), got {show(per_system)}")
            for k, statistics in enumerate(per_system):
                _check_sums(check, schema, record, statistics, f"{where}[{k}]", segments, f"{name} statistics for "
                            f"system {k + 1}")
    return options, metrics


def _check_sums(check: _Checker, schema: Any, record: Any, statistics: Any, where: str, segments: int,
                what: str) -> None:
    check.object(statistics, where, {"values", "ordered"})
    values = statistics["values"]
    found = schema.row_problem(values, record)
    if found is not None:
        column, message = found
        if column is not None:  # the words of the check of the sums too
            message += f" (impossible {what}: statistic {column + 1} is {values[column]!r})"
        check.fail(f"{where}.values" + (f"[{column}]" if column is not None else ""), message)
    ordered = statistics["ordered"]
    expected = {str(i) for i in schema.real_columns}
    if not isinstance(ordered, dict) or set(ordered) != expected:
        check.fail(f"{where}.ordered", f"expected the keys {sorted(expected)}, got {show(ordered)}")
    for key, sequence in ordered.items():
        at = f"{where}.ordered.{key}"
        if not isinstance(sequence, list) or len(sequence) != segments:
            check.fail(at, f"expected a list of {segments} values (one per segment), got "
                       f"{len(sequence) if isinstance(sequence, list) else show(sequence)}")
        for j, value in enumerate(sequence):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                check.fail(f"{at}[{j}]", f"{show(value)} is not a finite non-negative number")
        if values[int(key)] != reduce(add, sequence, 0):
            check.fail(f"{where}.values[{key}]", f"{values[int(key)]!r} is not the sum of {at} "
                       f"({reduce(add, sequence, 0)!r})")


def check_segment_line(path: str, number: int, segment: Any, schemas: list[tuple[Any, Any]],
                       n_systems: int) -> None:
    """One line of a per-segment shard: ``[metric][system]`` rows, each by its metric's schema."""
    check = _Checker(path, number)
    if not isinstance(segment, list) or len(segment) != len(schemas) or any(
            not isinstance(per_metric, list) or len(per_metric) != n_systems for per_metric in segment):
        check.fail("", f"expected {len(schemas)} metrics x {n_systems} systems")
    for m, ((schema, record), per_metric) in enumerate(zip(schemas, segment)):
        for k, row in enumerate(per_metric):
            found = schema.row_problem(row, record)
            if found is not None:
                column, message = found
                check.fail(f"[{m}][{k}]" + (f"[{column}]" if column is not None else ""), message)


__all__ = ["ShardError", "HEADER_KEYS", "SELF_CONTAINED_TOKENIZERS", "show", "check_document", "check_segment_line"]
