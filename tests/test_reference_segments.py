"""``reference_segments``: each segment's references, the same whichever way they are checked.

Streams of plain ``str`` are zipped without a check per segment; anything else (``None`` entries,
``str`` subclasses, other types) is checked segment by segment. Both give the same tuples.
"""

from __future__ import annotations

import pytest

from bleucli import CHRF
from bleucli.errors import InputError, ReferenceShapeError
from bleucli.metrics.base import reference_segments


class Text(str):
    """A str subclass: accepted as a reference, through the checked path."""


def test_plain_streams_are_zipped_into_tuples() -> None:
    streams = [["a b", "c"], ["d", ""]]
    assert reference_segments(streams) == [("a b", "d"), ("c", "")]
    assert all(type(segment) is tuple for segment in reference_segments(streams))
    assert reference_segments([[], []]) == []


def test_checked_streams_give_the_same_segments() -> None:
    assert reference_segments([["a", Text("b")], ["c", None]]) == [("a", "c"), ("b",)]
    assert reference_segments([[Text("a")]]) == [("a",)]


@pytest.mark.parametrize(("streams", "error", "message"), [
    ([["a", None], ["b", None]], InputError, "segment 2 has no reference"),
    ([["a", 3]], ReferenceShapeError, "a reference of segment 2 is int"),
    ([["a", b"b"]], ReferenceShapeError, "a reference of segment 2 is bytes"),
])
def test_bad_segments_are_named(streams: list, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        reference_segments(streams)


def test_chrf_with_references_scores_as_without(matcher: str) -> None:
    hyps = ["the cat sat", "a dog", "x"]
    refs = [["the cat sat down", "a dog barks", Text("y")], ["the cats", None, "x"]]
    kept = CHRF(word_order=2, references=refs).corpus_score(hyps, None)
    given = CHRF(word_order=2).corpus_score(hyps, refs)
    assert kept.score == given.score and str(kept.signature) == str(given.signature)
