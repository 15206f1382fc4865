"""Statistics shards: score a corpus in pieces anywhere, merge them into the single run's exact result.

BLEU, chrF and TER are functions of summed per-segment statistics
(:mod:`bleucli.statistics`), so a shard file only needs, per metric and
system, the summed integers and, for TER's float column, the per-segment
values in order (summed at the end as sacreBLEU does). A shard also records
what makes shards comparable: each metric's options and signature (test-set
fields included), the bleucli version, the systems, the number of references,
the shard's first segment (``offset``) and the sha256 of its input files.

:func:`merge` refuses shards that differ in any of those, that overlap or leave
gaps, and returns the same :class:`~bleucli.metrics.base.Score` objects a single
run gives, so ``bleucli merge`` prints byte for byte what ``bleucli`` prints.

The format is JSON (``format: bleucli-stats/1``); floats are written with
Python's ``repr``, which reads back to the same float.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from collections.abc import Sequence
from typing import Any

from ..input.bounded import loads, read_regular
from ..metrics import registry
from ..options import MetricOptions
from ..statistics import Statistics, total
from ..version import __version__
from .validate import ShardError, check_document, check_segment_line, show

FORMAT = "bleucli-stats/1"


#: The largest shard ``merge`` reads unless told otherwise (``--max-shard-bytes``).
DEFAULT_MAX_SHARD_BYTES = 512 << 20
#: Deeper than any shard nests (its per-segment lines nest 3 levels, its header 5).
MAX_SHARD_DEPTH = 32


def file_sha256(path: str) -> str | None:
    """sha256 of a file's bytes (``None`` for stdin or anything that is not a regular file)."""
    if path in ("-", "<stdin>"):
        return None
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def shard_document(
    metric_options: MetricOptions,
    signature_fields: dict[str, Any] | None,
    metrics: Sequence[Any],
    statistics: Sequence[Sequence[Statistics]] | None,
    system_names: Sequence[str],
    reference_names: Sequence[str],
    nrefs: int,
    offset: int = 0,
    checksums: dict[str, str | None] | None = None,
    test_set: dict[str, Any] | None = None,
    segments: int | None = None,
) -> dict[str, Any]:
    """The JSON document of one shard: ``statistics[metric][system]`` and what makes it comparable.

    With ``statistics=None`` it is the header of a per-segment shard (JSON lines:
    this header, then one line of rows ``[metric][system]`` per segment, see
    :func:`to_text`), which significance tests can be run from after merging.
    """
    metric_entries: list[dict[str, Any]] = [
        {"name": metric.name, "signature": metric.signature(nrefs).format()} for metric in metrics]
    document = {
        "format": FORMAT,
        "bleucli_version": __version__,
        "offset": offset,
        "segments": statistics[0][0].segments if statistics is not None else segments,
        "nrefs": nrefs,
        "systems": list(system_names),
        "references": list(reference_names),
        "input_sha256": dict(checksums or {}),
        "options": _options_data(metric_options),
        "signature_fields": {k: v for k, v in (signature_fields or {}).items() if v is not None},
        "test_set": test_set,
        "per_segment": statistics is None,
        "metrics": metric_entries,
    }
    if statistics is not None:
        for entry, per_system in zip(metric_entries, statistics):
            # a float column is written as the left-to-right sum of its per-segment values (totals()), the
            # one the score is computed from, whatever grouping of partial sums the workers produced
            entry["statistics"] = [{"values": s.totals(),
                                    "ordered": {str(i): list(seq) for i, seq in s.ordered.items()}}
                                   for s in per_system]
    return document


def _options_data(options: MetricOptions) -> dict[str, Any]:
    """The options of the metrics the shard holds (each by its registry name), as plain data."""
    names = registry.metric_names(options.requested)
    records = options._as_data()
    return {"metrics": list(names), **{name: records.get(name, registry.get(name).options()._asdict())
                                       for name in names}}


def _options_from(data: dict[str, Any]) -> MetricOptions:
    """The :class:`MetricOptions` a shard was written with (each metric's record rebuilt by the registry)."""
    names = tuple(data["metrics"])
    records = {name: registry.get(name).options(**data[name]) for name in names}
    builtin = {name: records.pop(name) for name in ("bleu", "chrf", "ter") if name in records}
    return MetricOptions(names, others=tuple(records.items()), **builtin)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def to_text(document: dict[str, Any], rows: Sequence[Sequence[Sequence[Any]]] | None = None) -> str:
    """The shard as written: one JSON document, or (per segment) JSON lines, header first.

    ``rows`` are ``[metric][system][segment]`` (what :func:`bleucli.engine.streaming.stream_rows` gives).
    """
    if rows is None:
        return _dumps(document)
    lines = [_dumps(document)]
    n_segments = len(rows[0][0]) if rows and rows[0] else 0
    for i in range(n_segments):
        lines.append(_dumps([[per_system[i] for per_system in per_metric] for per_metric in rows]))
    return "\n".join(lines)


def read_shard_bytes(path: str, max_bytes: int = DEFAULT_MAX_SHARD_BYTES, stdin: Any = None) -> bytes:
    """A shard's bytes: a regular file (``.gz`` decompressed) or stdin (``-``), at most ``max_bytes`` of them.

    A device (``/dev/urandom``), a FIFO or a directory is refused at once, never read or waited on.
    """
    if path == "-":
        if stdin is None:
            raise ShardError("stdin is not available", path)
        data = stdin.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise ShardError(f"is larger than the limit of {max_bytes} bytes for a statistics shard "
                             "(see --max-shard-bytes)", "<stdin>")
        return bytes(data)
    data = read_regular(path, max_bytes, "statistics shard", " (see --max-shard-bytes)")
    if path.endswith(".gz"):
        import zlib

        inflate = zlib.decompressobj(wbits=31)
        try:
            data = inflate.decompress(data, max_bytes + 1)
        except zlib.error as error:
            raise ShardError(f"not a gzip file ({error})", path) from None
        if len(data) > max_bytes:
            raise ShardError(f"is larger than the limit of {max_bytes} bytes for a statistics shard once "
                             "decompressed (see --max-shard-bytes)", path)
    return data


def _parse(path: str, text: str, line: int | None = None) -> Any:
    try:
        return loads(text, MAX_SHARD_DEPTH)
    except json.JSONDecodeError as error:
        if line is not None:
            raise ShardError(error.msg, path, line) from None
        raise ShardError(f"not a bleucli statistics shard: {error.msg} at line {error.lineno}", path) from None
    except ValueError as error:
        raise ShardError(f"not a bleucli statistics shard: {error}", path, line) from None


def read_shard(path: str, text: str) -> dict[str, Any]:
    """Parse and check one shard (``path`` names it in errors; see :mod:`bleucli.shards.validate`)."""
    header, _, body = text.partition("\n")
    document = _parse(path, header if body.strip() else text)
    options, metrics = check_document(path, document, FORMAT)
    document["_options"] = options
    document["_metrics"] = metrics
    if document["per_segment"]:
        document["_rows"] = _read_rows(path, body, options, len(document["systems"]), document["segments"])
        document["_statistics"] = [[Statistics.of_rows(per_system) for per_system in per_metric]
                                   for per_metric in document["_rows"]]
    else:
        if body.strip():
            raise ShardError("holds sums (per_segment is false) but has more than one line", path, 2)
        document["_statistics"] = [
            [Statistics(tuple(s["values"]), document["segments"],
                        {int(i): array("d", seq) for i, seq in s["ordered"].items()})
             for s in metric["statistics"]]
            for metric in document["metrics"]]
    return document


def _read_rows(path: str, body: str, options: MetricOptions, n_systems: int,
               n_segments: int) -> list[list[list[Any]]]:
    names = registry.metric_names(options.requested)
    schemas = [(registry.get(name).statistics, options.of(name)) for name in names]
    rows: list[list[list[Any]]] = [[[] for _ in range(n_systems)] for _ in names]
    lines = body.splitlines()
    if len(lines) != n_segments:
        raise ShardError(f"has {len(lines)} segment lines but its header says {n_segments} (truncated?)", path)
    for number, line in enumerate(lines, 2):
        segment = _parse(path, line, number)
        check_segment_line(path, number, segment, schemas, n_systems)
        for mine, per_metric in zip(rows, segment):
            for per_system, row in zip(mine, per_metric):
                per_system.append(row)
    return rows


def _difference(mine: Any, theirs: Any, where: str) -> str:
    """The JSON path of the first place ``mine`` and ``theirs`` differ, with both values, cut short."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in [*theirs, *(k for k in mine if k not in theirs)]:
            if key not in mine or key not in theirs:
                return f"{where}.{key} is {'absent' if key not in mine else show(mine[key])} here and " \
                       f"{'absent' if key not in theirs else show(theirs[key])} there"
            if mine[key] != theirs[key]:
                return _difference(mine[key], theirs[key], f"{where}.{key}")
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for index, (a, b) in enumerate(zip(mine, theirs)):
            if a != b:
                return _difference(a, b, f"{where}[{index}]")
    return f"{where} is {show(mine)} here and {show(theirs)} there"


#: What must be equal in every shard for their sum to mean anything. System *names* may differ
#: (the pieces of one system are different files); their number and order may not.
_COMPARED = ("bleucli_version", "nrefs", "options", "signature_fields", "test_set")


def merge(shards: Sequence[tuple[str, dict[str, Any]]]) -> tuple[list[Any], list[str], list[list[Statistics]]]:
    """Metrics, system names and summed ``Statistics[metric][system]`` of the shards, in corpus order.

    The systems are named as in the first shard (in corpus order): the pieces
    of one system are different files, so their names may differ.

    ``shards`` are ``(path, document)`` pairs in any order: they are put in
    order by their ``offset``. Raises :class:`ShardError` when they differ in
    options, signatures, systems or version, overlap, or leave a gap.
    """
    if not shards:
        raise ShardError("no shards to merge")
    first_path, first = shards[0]
    for path, document in shards[1:]:
        for key in _COMPARED:
            if document[key] != first[key]:
                raise ShardError(f"cannot be merged with {first_path}: "
                                 f"{_difference(document[key], first[key], key)}", path)
        if len(document["systems"]) != len(first["systems"]):
            raise ShardError(f"cannot be merged with {first_path}: it has {len(document['systems'])} systems, "
                             f"not {len(first['systems'])}", path)
        for index, (mine, theirs) in enumerate(zip(document["metrics"], first["metrics"])):
            if mine["signature"] != theirs["signature"]:
                raise ShardError(f"cannot be merged with {first_path}: metrics[{index}].signature is "
                                 f"{mine['signature']} here and {theirs['signature']} there", path)
    ordered = sorted(shards, key=lambda item: item[1]["offset"])
    first_offset = ordered[0][1]["offset"]
    if first_offset != 0:  # the corpus starts at segment 0: the shards of its first lines are missing
        raise ShardError(f"the first shard starts at segment {first_offset}, not 0: segments 0 to {first_offset - 1} "
                         "are in no shard (give each shard its first line with --offset)", ordered[0][0])
    expected = 0
    for path, document in ordered:
        if document["offset"] != expected:
            what = "overlaps the previous shard" if document["offset"] < expected else "leaves a gap"
            raise ShardError(f"starts at segment {document['offset']} but the shards before it end at {expected}: "
                             f"it {what} (give each shard its first line with --offset)", path)
        expected += document["segments"]
    # built for statistics only when the shard was read (no tokenizer needing a model, no file opened)
    metrics = first["_metrics"]
    for path, document in ordered:  # each shard's own sums, or a negative count could hide in the total
        _check_statistics(path, first["_options"], document["_statistics"])
    n_systems = len(first["systems"])
    sums = [[total(document["_statistics"][m][k] for _, document in ordered) for k in range(n_systems)]
            for m in range(len(metrics))]
    _check_statistics(ordered[0][0], first["_options"], sums)  # type: ignore[arg-type]  # never empty
    # printed under the names of the first shard in corpus order
    return metrics, list(ordered[0][1]["systems"]), sums  # type: ignore[return-value]  # never empty


def _check_statistics(path: str, options: MetricOptions, sums: Sequence[Sequence[Statistics]]) -> None:
    """Refuse summed statistics that no corpus can have, by each metric's schema in the registry.

    A shard is input like any other: an edited or damaged one must not print a
    wrong score (matches above totals, negative or fractional counts, NaN).
    """
    for name, per_system in zip(registry.metric_names(options.requested), sums):
        entry = registry.get(name)
        for number, statistics in enumerate(per_system, 1):
            problem = entry.statistics.problem(list(statistics.totals()), options.of(name) or entry.options())
            if problem is not None:
                raise ShardError(f"impossible {name} statistics for system {number}: {problem}", path)


def merged_rows(shards: Sequence[tuple[str, dict[str, Any]]]) -> list[list[list[Any]]]:
    """Per-segment rows ``[metric][system][segment]`` of shards written with ``--per-segment``, in order.

    Call after :func:`merge` (which checks that the shards belong together).
    """
    ordered = sorted(shards, key=lambda item: item[1]["offset"])
    for path, document in ordered:
        if "_rows" not in document:
            raise ShardError("holds sums, not per-segment statistics: significance tests need shards "
                             "written with `bleucli stats --per-segment`", path)
    first = ordered[0][1]["_rows"]
    return [[[row for _, document in ordered for row in document["_rows"][m][k]] for k in range(len(first[m]))]
            for m in range(len(first))]


__all__ = ["FORMAT", "DEFAULT_MAX_SHARD_BYTES", "ShardError", "read_shard_bytes", "shard_document", "read_shard",
           "merge", "merged_rows", "to_text", "file_sha256"]
