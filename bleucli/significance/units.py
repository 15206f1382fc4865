"""Document-level resampling: the statistics of whole documents, for the tests that resample rows.

Test sets are document- or paragraph-level, and the segments of one document
are correlated (the same topic, terms, translator), so resampling segments
one by one understates the variance of a score. A document-level bootstrap
draws whole documents instead. Because every metric scores a *sum* of rows,
drawing a document is drawing the sum of its segments' rows: summing each
document's rows first and handing those rows to the unchanged bootstrap and
approximate randomization (:mod:`bleucli.significance`) gives exactly a
document-level test, as fast as a segment-level one on fewer rows.

A document is every segment that carries its id, whether or not they are
contiguous (a test set concatenated from several sets may repeat an id far
apart, and the segments are then still one document); documents are ordered
by their first segment. With one segment per document the rows are the
segments' own, so the numbers equal segment resampling exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InputError
from ..statistics import sum_rows

#: The signature's value for document resampling (``unit:doc``); segment resampling adds no field.
DOCUMENT_UNIT = "doc"


def document_index(docids: Sequence[str], segments: int, source: str = "doc ids") -> list[list[int]]:
    """The segments of each document (0-based, in corpus order), documents in order of first appearance.

    ``docids`` has one id per segment; a different count or an empty id is an InputError naming ``source``.
    """
    if len(docids) != segments:
        raise InputError(f"has {len(docids)} doc ids for {segments} segments (one id per hypothesis line)", source)
    documents: dict[str, list[int]] = {}
    for position, docid in enumerate(docids):
        if not docid.strip():
            raise InputError("empty doc id", source, position + 1)
        documents.setdefault(docid, []).append(position)
    return list(documents.values())


def document_rows(rows: Sequence[Sequence[Any]], documents: Sequence[Sequence[int]]) -> list[list[Any]]:
    """One row per document: its segments' rows summed (:func:`bleucli.statistics.sum_rows`, corpus order)."""
    return [list(rows[members[0]]) if len(members) == 1 else sum_rows([rows[i] for i in members])
            for members in documents]


def rows_by_document(rows: Sequence[Sequence[Sequence[Sequence[Any]]]],
                     documents: Sequence[Sequence[int]]) -> list[list[list[list[Any]]]]:
    """``rows[metric][system][segment]`` made ``[metric][system][document]``."""
    return [[document_rows(system_rows, documents) for system_rows in per_metric] for per_metric in rows]


def resampled_rows(systems: Sequence[Sequence[Sequence[Any]]], documents: Sequence[Sequence[int]] | None
                   ) -> tuple[list[Any], dict[str, object]]:
    """The step before every resampling test: the rows it draws (``[system][unit]``) and the signature
    fields that say what a unit is.

    With ``documents`` (:func:`document_index`) each document's rows summed and ``{"unit": "doc"}``;
    without, the segment rows as they are and no field. ``-ci``/``-pbs``/``-par``
    (:func:`bleucli.engine.pipeline.run_on_rows`) and rankings
    (:func:`bleucli.significance.ranking.rank_systems`) both take this step, so a ranking's p-value
    of a pair is ``-pbs``'s for the same seed, at either unit.
    """
    if documents is None:
        return list(systems), {}
    return [document_rows(system_rows, documents) for system_rows in systems], {"unit": DOCUMENT_UNIT}


__all__ = ["DOCUMENT_UNIT", "document_index", "document_rows", "resampled_rows", "rows_by_document"]
