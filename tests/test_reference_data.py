"""The kinds of prepared reference data are one protocol: every kind gives the same statistics.

BLEU and chrF prepare a segment's references in several ways (compiled tables kept for many
hypotheses, tokens only for a single use, Python n-gram sets, a pair, a character string);
``segment_statistics`` must not care which one it gets.
"""

from __future__ import annotations

import random

import pytest

from bleucli import BLEU, CHRF, TER
from bleucli.errors import LengthMismatchError

WORDS = ["a", "b", "a b", "c", ".", "Das", "das", "ist", "1,5", "-"]


def _line(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))


def _metrics() -> list[object]:
    return [BLEU(), BLEU(tokenize="char"), BLEU(tokenize="intl", max_ngram_order=6), BLEU(lowercase=True),
            CHRF(), CHRF(word_order=2), TER()]


@pytest.mark.parametrize("refs_per_segment", [1, 2, 3])
def test_every_kind_of_prepared_references_gives_the_same_statistics(matcher: str, refs_per_segment: int) -> None:
    rng = random.Random(refs_per_segment)
    for metric in _metrics():
        for _ in range(150):
            hyp = _line(rng)
            refs = tuple(_line(rng) for _ in range(refs_per_segment))
            shared = metric.segment_statistics(hyp, metric.prepare_references(refs, shared=True))
            single = metric.segment_statistics(hyp, metric.prepare_references(refs, shared=False))
            assert shared == single == metric.single_use_statistics(hyp, refs), (metric, hyp, refs)


def test_references_with_none_work_when_given_to_the_constructor() -> None:
    """A stream may lack a segment's reference (None) whether references come at construction or per call."""
    refs = [[None, "x y"], ["a", "x z"]]
    hyps = ["a", "x y"]
    for metric in (BLEU, CHRF, TER):
        assert metric(references=refs).corpus_score(hyps).score == metric().corpus_score(hyps, refs).score
    with pytest.raises(LengthMismatchError, match="reference stream 2 has 1"):
        BLEU(references=[["a", "b"], ["a"]])
