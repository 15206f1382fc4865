"""BLEU's edge cases and sacreBLEU's documented test vectors (spec section 2 and 6)."""

from __future__ import annotations

import math
import warnings

import pytest

from bleucli import BLEU, compute_bleu, corpus_bleu, raw_corpus_bleu, sentence_bleu
from bleucli.errors import InputError, LengthMismatchError, OptionError
from bleucli.metrics.bleu import closest_ref_len

# every test here runs with the compiled and with the pure-Python n-gram matcher
pytestmark = pytest.mark.usefixtures("matcher")

README_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
README_REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


def test_readme_corpus() -> None:
    score = corpus_bleu(README_HYPS, README_REFS)
    assert score.score == pytest.approx(48.530827, abs=1e-6)
    assert score.details() == "82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)"
    assert str(score.signature).startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:")
    assert corpus_bleu(README_HYPS, README_REFS, tokenize="none").score == pytest.approx(49.1919566, abs=1e-6)
    assert corpus_bleu(README_HYPS, README_REFS, tokenize="intl").score == pytest.approx(43.91623493, abs=1e-6)
    assert corpus_bleu(README_HYPS, README_REFS, smooth_method="none").score == pytest.approx(48.530827, abs=1e-6)


@pytest.mark.parametrize(
    "order, expected", [(1, "77.65"), (2, "60.50"), (3, "53.93"), (4, "48.53"), (5, "46.14"), (6, "43.28")]
)
def test_max_order(order: int, expected: str) -> None:
    score = BLEU(max_ngram_order=order).corpus_score(README_HYPS, README_REFS)
    assert f"{score.score:.2f}" == expected
    assert ("order:" in str(score.signature)) == (order != 4)


@pytest.mark.parametrize(
    "correct, total, sys_len, ref_len, kwargs, expected",
    [
        ([0, 0, 0, 0], [0, 0, 0, 0], 0, 5, {"smooth_method": "exp"}, 0.0),
        ([1, 0, 0, 0], [1, 0, 0, 0], 1, 5, {"smooth_method": "exp"}, 0.0),
        ([1, 0, 0, 0], [1, 0, 0, 0], 1, 5, {"smooth_method": "exp", "effective_order": True}, 1.83),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 3, {"smooth_method": "exp"}, 0.0),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 3, {"smooth_method": "exp", "effective_order": True}, 63.0),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 3, {"smooth_method": "floor"}, 0.0),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 3, {"smooth_method": "floor", "effective_order": True}, 36.84),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 3, {"smooth_method": "add-k"}, 75.98),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 3, {"smooth_method": "none"}, 0.0),
        ([3, 1, 0, 0], [3, 2, 1, 0], 3, 3, {"smooth_method": "none", "effective_order": True}, 0.0),
        ([9, 7, 5, 3], [10, 8, 6, 4], 11, 11, {"smooth_method": "none"}, 83.75922397),
    ],
)
def test_compute_bleu_edge_vectors(correct, total, sys_len, ref_len, kwargs, expected) -> None:
    score, *_ = compute_bleu(correct, total, sys_len, ref_len, **kwargs)
    assert score == pytest.approx(expected, abs=0.005)


def test_empty_hypothesis_has_zero_brevity_penalty() -> None:
    _, _, _, _, bp = compute_bleu([0, 0, 0, 0], [0, 0, 0, 0], 0, 5)
    assert bp == 0.0
    assert corpus_bleu(["", "", ""], [["a b c", "d e", "f"]]).score == 0.0


def test_add_k_changes_reported_counts() -> None:
    score = BLEU(smooth_method="add-k").corpus_score(["a b c d e", "c"], [["a b x d e", "c d"]])
    assert list(score.counts) == [5, 3, 1, 1]
    assert list(score.totals) == [6, 5, 4, 3]


def test_statistics_vector() -> None:
    score = corpus_bleu(["am I am a character sequence"], [["I am a symbol string sequence a a"]], tokenize="none")
    assert list(score.counts) == [4, 2, 1, 0]
    assert list(score.totals) == [6, 5, 4, 3]


def test_effective_order_sentence() -> None:
    assert sentence_bleu("test", ["a test"]).score == pytest.approx(36.787944, abs=1e-5)
    assert sentence_bleu("test", ["a test"], use_effective_order=False).score == 0.0


def test_raw_corpus_bleu() -> None:
    assert raw_corpus_bleu(["this is a test"], [["this is a test"]]).score == pytest.approx(100.0)
    assert raw_corpus_bleu(["this is a fest"], [["this is a test"]], 0.01).score == pytest.approx(22.36068, abs=1e-4)
    assert raw_corpus_bleu(["a b c"], [["d e f"]], 0.01).score == 0.0


ROMANIAN_HYP = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
ROMANIAN_REF = "producţia de zahăr brut se exprimă în zahăr alb;"


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({}, 8.493),
        ({"smooth_method": "none"}, 0.0),
        ({"smooth_method": "floor"}, 4.51688),
        ({"smooth_method": "floor", "smooth_value": 0.5}, 10.10),
        ({"smooth_method": "add-k"}, 14.882),
        ({"smooth_method": "add-k", "smooth_value": 2}, 21.389),
        ({"tokenize": "none"}, 7.347),
        ({"tokenize": "intl"}, 8.493),
        ({"tokenize": "char"}, 40.8759),
        ({"tokenize": "char", "lowercase": True}, 42.0267),
    ],
)
def test_sentence_bleu_romanian(kwargs, expected) -> None:
    assert sentence_bleu(ROMANIAN_HYP, [ROMANIAN_REF], **kwargs).score == pytest.approx(expected, abs=1e-3)


@pytest.mark.parametrize("method", ["none", "floor", "add-k", "exp"])
def test_no_match_is_zero_for_every_smoothing(method: str) -> None:
    assert sentence_bleu("this is a cat", ["okay thanks"], smooth_method=method).score == 0.0


def test_closest_reference_length_prefers_shorter_on_tie() -> None:
    assert closest_ref_len(5, [4, 6]) == 4
    assert closest_ref_len(5, [6, 4]) == 4
    assert closest_ref_len(5, [7, 5, 3]) == 5


def test_multiple_references_clip_against_maximum() -> None:
    one = corpus_bleu(["the the the"], [["the cat"]], tokenize="none", smooth_method="none",
                      use_effective_order=False)
    two = corpus_bleu(["the the the"], [["the cat"], ["the the mat"]], tokenize="none")
    assert one.counts[0] == 1 and two.counts[0] == 2


def test_variable_references_give_nrefs_var() -> None:
    score = corpus_bleu(["a b", "c d"], [["a b", "c d"], ["a b", None]])
    assert "nrefs:var" in str(score.signature)
    assert score.to_dict()["nrefs"] == "var"
    # an empty string is a real (empty) reference, as in sacreBLEU
    assert "nrefs:2" in str(corpus_bleu(["a b", "c d"], [["a b", "c d"], ["", ""]]).signature)


def test_segment_without_any_reference_is_an_error() -> None:
    with pytest.raises(InputError, match="segment 2 has no reference"):
        corpus_bleu(["a b", "c d"], [["a b", None]])


@pytest.mark.parametrize(
    "hyps, refs",
    [(["a", "b", "c"], [["a", "b"]]), (["a", "b"], [["a", "b", "c"]]), (["a", "b"], [["a", "b"], ["a"]])],
)
def test_stream_length_mismatch_raises(hyps, refs) -> None:
    with pytest.raises(LengthMismatchError, match="different lengths"):
        corpus_bleu(hyps, refs)


def test_mismatch_message_gives_counts() -> None:
    with pytest.raises(LengthMismatchError, match="hypotheses have 3 segments, reference stream 1 has 2"):
        corpus_bleu(["a", "b", "c"], [["a", "b"]])


def test_streams_of_generators_are_accepted() -> None:
    hyps = (h for h in README_HYPS)
    assert corpus_bleu(hyps, README_REFS).score == corpus_bleu(README_HYPS, README_REFS).score


@pytest.mark.parametrize("refs", ["a reference", ["ref one", "ref two", "ref three"]])
def test_reference_shape_mistakes_are_caught(refs) -> None:
    with pytest.raises(InputError, match="reference streams"):
        corpus_bleu(README_HYPS, refs)


def test_sentence_score_rejects_a_bare_string_reference() -> None:
    with pytest.raises(InputError):
        BLEU(effective_order=True).sentence_score("a b", "a b")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"smooth_method": "floor", "smooth_value": float("nan")},
        {"smooth_method": "floor", "smooth_value": float("inf")},
        {"smooth_method": "floor", "smooth_value": -1},
        {"smooth_method": "add-k", "smooth_value": -5},
        {"smooth_method": "add-k", "smooth_value": float("nan")},
        {"smooth_method": "laplace"},
        {"tokenize": "nosuch"},
        {"max_ngram_order": 0},
        {"max_ngram_order": 10},
    ],
)
def test_invalid_options_are_rejected(kwargs) -> None:
    with pytest.raises(OptionError):
        BLEU(**kwargs)


def test_smoothing_value_in_signature() -> None:
    assert "smooth:floor[0.10]" in str(corpus_bleu(["a"], [["a"]], smooth_method="floor").signature)
    assert "smooth:add-k[1.00]" in str(corpus_bleu(["a"], [["a"]], smooth_method="add-k").signature)
    assert "smooth:exp|" in str(corpus_bleu(["a"], [["a"]], smooth_value=0.3).signature)


def test_scores_are_finite_for_degenerate_input() -> None:
    for method in ["none", "floor", "add-k", "exp"]:
        score = corpus_bleu(["", "x"], [["", ""]], smooth_method=method)
        assert math.isfinite(score.score)


def test_signature_before_scoring_needs_references() -> None:
    with pytest.raises(ValueError):
        BLEU().signature()
    assert str(BLEU(references=[["a"]]).signature()).startswith("nrefs:1|")


def test_cached_references_reused_for_several_systems() -> None:
    metric = BLEU(references=README_REFS)
    first = metric.corpus_score(README_HYPS)
    assert first.score == corpus_bleu(README_HYPS, README_REFS).score
    with pytest.raises(LengthMismatchError):
        metric.corpus_score(README_HYPS[:2])


def test_tokenized_output_warning() -> None:
    hyps = ["a b ."] * 100
    with pytest.warns(UserWarning, match="tokenized period"):
        BLEU().corpus_score(hyps, [hyps])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BLEU(force=True).corpus_score(hyps, [hyps])
        BLEU().corpus_score(hyps[:99], [hyps[:99]])


def test_result_is_immutable_and_serialisable() -> None:
    score = corpus_bleu(README_HYPS, README_REFS)
    with pytest.raises(AttributeError):
        score.score = 1.0  # type: ignore[misc]
    data = score.to_dict()
    assert data["score"] == score.score and data["signature"] == str(score.signature)
    assert data["signature_fields"]["tok"] == "13a"
    assert data["counts"] == list(score.counts) and data["sys_len"] == 17 and data["ref_len"] == 18


def test_batch_sentence_scores_reuse_references() -> None:
    refs = ["The dog bit the man.", "The dog had bit the man."]
    hyps = ["The dog bit the man.", "A dog bit a man.", "", "man dog"]
    metric = BLEU(effective_order=True)
    batch = metric.sentence_scores(hyps, refs)
    assert [s.score for s in batch] == [metric.sentence_score(h, refs).score for h in hyps]
    assert [s.counts for s in batch] == [metric.sentence_score(h, refs).counts for h in hyps]
    assert str(batch[0].signature).startswith("nrefs:2|case:mixed|eff:yes|")
    with pytest.raises(InputError):
        metric.sentence_scores(hyps, "a reference")  # type: ignore[arg-type]


def test_count_suspicious_counts_tokenized_periods_of_any_input() -> None:
    """Lists of plain str are counted in one C pass; anything else (other items, str subclasses whose
    endswith is their own, iterators) by the loop over items, with the same count for the same lines."""

    class Never(str):
        def endswith(self, *args: object) -> bool:  # type: ignore[override]
            return False

    metric = BLEU()
    lines = ["a .", "b.", "c . ", " .", ".", "d ."]
    assert metric.count_suspicious(lines) == 3
    assert metric.count_suspicious(iter(lines)) == 3
    assert metric.count_suspicious(tuple(lines)) == 3
    assert metric.count_suspicious([*lines, None, b"e ."]) == 3  # type: ignore[list-item]
    assert metric.count_suspicious([Never("f ."), *lines]) == 3
    assert BLEU(force=True).count_suspicious(lines) == 0
