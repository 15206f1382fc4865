"""What goes to the C extension in batches, and when it can: decided in one place for every metric.

Rows against references kept as text (``references=``) go to C a chunk of
segments at a time (:func:`rows_in_chunks`). BLEU's and chrF's ``sentence_scores`` have a C function that scores a whole
batch against one reference set. It takes a list or tuple of ``str``
references (at least one) and hypotheses that are all ``str``; anything else
goes to :meth:`bleucli.metrics.base.Metric.sentence_scores`, whose checks
give the documented errors. The hypotheses may be any iterable, read once:
they are made a list before their check, and that list is what either path
gets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from ..engine.executor import CHUNK_SEGMENTS

T = TypeVar("T")


def c_references(references: Any) -> bool:
    """A non-empty list or tuple of ``str``: references the C functions read as they are."""
    return type(references) in (list, tuple) and bool(references) and all(map(str.__instancecheck__, references))


def sentence_scores_in_c(compiled: Callable[[list[str], Sequence[str]], T] | None,
                         general: Callable[[Iterable[str], Sequence[str]], T],
                         hypotheses: Iterable[str], references: Sequence[str]) -> T:
    """``compiled(hypotheses, references)`` when C can take them (see the module), else ``general``'s."""
    if compiled is None or not c_references(references) or isinstance(hypotheses, str):
        return general(hypotheses, references)
    hypotheses = list(hypotheses)
    if not all(map(str.__instancecheck__, hypotheses)):
        return general(hypotheses, references)
    return compiled(hypotheses, references)


def rows_in_chunks(segments: Iterable[tuple[str, Any]],
                   statistics: Callable[[list[str], list[Any]], Iterable[list[Any]]]) -> Iterator[list[Any]]:
    """The statistics rows of ``(hypothesis, references as C reads them)`` pairs, ``statistics`` called on
    :data:`~bleucli.engine.executor.CHUNK_SEGMENTS` of them at a time (a corpus is never held whole)."""
    hyps: list[str] = []
    refs: list[Any] = []
    for hyp, info in segments:
        hyps.append(hyp)
        refs.append(info)
        if len(hyps) == CHUNK_SEGMENTS:
            yield from statistics(hyps, refs)
            hyps, refs = [], []
    if hyps:
        yield from statistics(hyps, refs)


__all__ = ["c_references", "rows_in_chunks", "sentence_scores_in_c"]
