"""Scoring streams in lockstep (constant memory) and across worker processes."""

from __future__ import annotations

import json

import pytest

import datasets
from bleucli import BLEU
from bleucli.engine.streaming import score_streams, sentence_scores
from bleucli.errors import InputError, LengthMismatchError, OptionError
from conftest import invoke

NAME = "wmt22-en-de"


def test_streams_equal_corpus_score_for_every_system() -> None:
    refs = datasets.references(NAME)
    systems = datasets.systems(NAME)
    metric = BLEU(tokenize="intl")
    streamed = score_streams(metric, [iter(s) for s in systems.values()], [iter(r) for r in refs],
                             list(systems), ["A", "B"])
    for score, hyps in zip(streamed, systems.values()):
        expected = BLEU(tokenize="intl").corpus_score(hyps, refs)
        assert score.score == expected.score and score.counts == expected.counts
        assert score.signature == expected.signature


@pytest.mark.parametrize("jobs", [0, 2, 3])
def test_parallel_scores_are_identical(jobs: int) -> None:
    refs = datasets.references(NAME)[:1]
    systems = list(datasets.systems(NAME).values())[:3]
    serial = score_streams(BLEU(), systems, refs, ["a", "b", "c"], ["r"])
    parallel = score_streams(BLEU(), systems, refs, ["a", "b", "c"], ["r"], jobs=jobs)
    assert [s.to_dict() for s in serial] == [p.to_dict() for p in parallel]


def test_negative_jobs_rejected() -> None:
    with pytest.raises(OptionError):
        score_streams(BLEU(), [["a"]], [["a"]], ["h"], ["r"], jobs=-1)


def test_length_errors_name_both_streams_and_counts() -> None:
    with pytest.raises(LengthMismatchError, match="hypothesis h has 3 lines but reference r has 2"):
        score_streams(BLEU(), [iter(["a", "b", "c"])], [iter(["a", "b"])], ["h"], ["r"])
    with pytest.raises(LengthMismatchError, match="reference r2 has 1 lines but reference r has 2"):
        score_streams(BLEU(), [["a", "b"]], [["a", "b"], ["a"]], ["h"], ["r", "r2"])
    with pytest.raises(InputError, match="is empty, but reference r has 2 lines"):
        score_streams(BLEU(), [[]], [["a", "b"]], ["h"], ["r"])


def test_sentence_scores_stream_lazily() -> None:
    def endless():
        while True:
            yield "a b c d"

    scores = sentence_scores(BLEU(effective_order=True), endless(), [endless()], "h", ["r"])
    assert [next(scores).score for _ in range(3)] == [pytest.approx(100.0)] * 3


def test_cli_jobs_give_identical_output(example_ref: str) -> None:
    from conftest import EXAMPLES

    systems = [str(EXAMPLES / "Online-B.de"), str(EXAMPLES / "Lan-Bridge.de")]
    outputs = {invoke([example_ref, "-i", *systems, "-j", str(j)]).stdout for j in (1, 2, 0)}
    assert len(outputs) == 1 and json.loads(outputs.pop())[0]["scores"]["BLEU"]["unrounded_score"] > 0
