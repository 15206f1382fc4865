"""Where NLTK 3.10's BLEU and GLEU behave unusually, bleucli.family.nltk behaves the same.

Differential: each case runs on the installed NLTK and on bleucli (both n-gram matchers)
and compares the value, or the exception (an ``AssertionError`` stays one), or the warnings'
category and text. Found by running NLTK's own tests against bleucli
(``tests/conformance/run_nltk_tests.py``).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

from matchers import MATCHERS, select_matcher

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
nltk_gleu = pytest.importorskip("nltk.translate.gleu_score")


class CaseFolded(str):
    """A str whose own __eq__ and __hash__ ignore case: NLTK counts by them."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.lower() == other.lower()

    def __hash__(self) -> int:
        return hash(self.lower())


HYP = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands".split(),
    "It is the guiding principle which guarantees the military forces always being under the command of the "
    "Party".split(),
    "It is the practical guide for the army always to heed the directions of the party".split(),
]


@pytest.fixture(params=MATCHERS)
def ours(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Any:
    import bleucli.family.nltk as module

    select_matcher(monkeypatch, request.param)
    monkeypatch.setattr(module, "_MATCHER", [])  # looked up again under this matcher
    return module


def outcome(call: Callable[[], Any]) -> tuple[Any, ...]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = call()
        except AssertionError:
            return ("raises", AssertionError)
        except ZeroDivisionError:
            return ("raises", ZeroDivisionError)
        except IndexError:
            return ("raises", IndexError)
    return ("value", value, [(w.category, str(w.message)) for w in caught])


BLEU_CASES: dict[str, Callable[[Any], Any]] = {
    "closest_ref_length of an iterator": lambda m: m.closest_ref_length(reversed(REFS), len(HYP)),
    "brevity_penalty docstring": lambda m: m.brevity_penalty(m.closest_ref_length(reversed(REFS), 14), 14),
    "corpus_bleu of nothing": lambda m: m.corpus_bleu([], []),
    "method6 without a trigram match": lambda m: m.sentence_bleu(
        [REFS[0]], "It is a cat".split(), smoothing_function=m.SmoothingFunction().method6),
    "method6 with two orders": lambda m: m.sentence_bleu(
        [REFS[0]], HYP, weights=(0.5, 0.5), smoothing_function=m.SmoothingFunction().method6),
    "method6 with one order, corpus": lambda m: m.corpus_bleu(
        [[REFS[0]], [REFS[1]]], [HYP, REFS[1]], weights=(1.0,), smoothing_function=m.SmoothingFunction().method6),
    "method6 with two orders, no unigram match": lambda m: m.sentence_bleu(
        [REFS[0]], ["zzz", "yyy"], weights=(0.5, 0.5), smoothing_function=m.SmoothingFunction().method6),
    "method6 with two weight tuples, one of three orders": lambda m: m.sentence_bleu(
        [REFS[0]], HYP, weights=[(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3)], smoothing_function=m.SmoothingFunction().method6),
    "unsmoothed zero counts warn": lambda m: m.sentence_bleu([REFS[0]], "It is military the guide".split()),
    "corpus zero counts warn": lambda m: m.corpus_bleu([[REFS[0]], [REFS[2]]], ["a guide".split(), ["x"]]),
    "zero counts warn once per call, several weight tuples": lambda m: m.corpus_bleu(
        [[REFS[0]]], ["It is military the guide".split()], weights=[(0.5, 0.5), (0.25,) * 4, (0.2,) * 5]),
    "zero counts warn, method0 given": lambda m: m.sentence_bleu(
        [REFS[0]], "It is military the guide".split(), smoothing_function=m.SmoothingFunction().method0),
    "zero counts warn, orders beyond the hypothesis": lambda m: m.sentence_bleu(
        [REFS[0]], "It is a".split(), weights=(0.2,) * 5),
    "zero counts warn at every call": lambda m: [m.sentence_bleu([REFS[0]], "It is military the guide".split())
                                                 for _ in range(2)],
    "int tokens": lambda m: m.sentence_bleu([[1, 2, 3, 4, 5]], [1, 2, 3, 5, 4]),
    "str subclass tokens": lambda m: m.sentence_bleu(
        [[CaseFolded(t) for t in REFS[0]]], [CaseFolded(t.upper()) for t in HYP], weights=(0.5, 0.5)),
    "str subclass tokens, corpus": lambda m: m.corpus_bleu(
        [[[CaseFolded(t) for t in ref] for ref in REFS]], [[CaseFolded(t.upper()) for t in HYP]]),
}


@pytest.mark.parametrize("case", BLEU_CASES)
def test_bleu_as_nltk(case: str, ours: Any) -> None:
    assert outcome(lambda: BLEU_CASES[case](ours)) == outcome(lambda: BLEU_CASES[case](nltk_bleu))


GLEU_CASES: dict[str, Callable[[Any], Any]] = {
    "int tokens": lambda m: m.sentence_gleu([[1, 2, 3]], [1, 2, 4]),
    "str subclass tokens": lambda m: m.sentence_gleu([[CaseFolded(t) for t in REFS[1]]],
                                                     [CaseFolded(t.upper()) for t in HYP]),
    "min_len=0": lambda m: m.sentence_gleu(REFS, HYP, min_len=0),
    "max_len=-1": lambda m: m.sentence_gleu(REFS, HYP, max_len=-1),
    "min_len > max_len": lambda m: m.sentence_gleu(REFS, HYP, min_len=3, max_len=2),
    "min_len=0, max_len=0": lambda m: m.sentence_gleu(REFS, HYP, min_len=0, max_len=0),
    "min_len=2, max_len=-1": lambda m: m.corpus_gleu([REFS, REFS[:1]], [HYP, REFS[2]], min_len=2, max_len=-1),
    "references as an iterator": lambda m: m.sentence_gleu(reversed(REFS), HYP),
    "lengths differ": lambda m: m.corpus_gleu([REFS], [HYP, HYP]),
    "nothing": lambda m: m.corpus_gleu([], []),
    "max_len above the length": lambda m: m.sentence_gleu(REFS, HYP, max_len=40),
}


@pytest.mark.parametrize("case", GLEU_CASES)
def test_gleu_as_nltk(case: str, ours: Any) -> None:
    assert outcome(lambda: GLEU_CASES[case](ours)) == outcome(lambda: GLEU_CASES[case](nltk_gleu))


def test_unusual_orders_on_a_short_sentence() -> None:
    """min_len=0, max_len=-1 and min_len > max_len give NLTK's figures (0.517..., 0.321..., 0.0 here)."""
    from bleucli.family.nltk import sentence_gleu

    hyp = "the cat sat on the mat".split()
    ref = "the cat was sitting on the mat".split()
    for kwargs in ({"min_len": 0}, {"max_len": -1}, {"min_len": 3, "max_len": 2}):
        assert sentence_gleu([ref], hyp, **kwargs) == nltk_gleu.sentence_gleu([ref], hyp, **kwargs)
    assert [sentence_gleu([ref], hyp, min_len=0), sentence_gleu([ref], hyp, max_len=-1)] == [15 / 29, 9 / 28]


def test_assertion_errors_are_bleucli_errors_too(ours: Any) -> None:
    from bleucli.errors import AssertionInputError, InputError

    with pytest.raises(AssertionInputError) as raised:
        ours.corpus_gleu([REFS], [HYP, HYP])
    assert isinstance(raised.value, InputError) and isinstance(raised.value, AssertionError)


def test_index_errors_are_bleucli_option_errors_too(ours: Any) -> None:
    from bleucli.errors import IndexOptionError, OptionError

    with pytest.raises(IndexOptionError, match="3 n-gram orders") as raised:
        ours.sentence_bleu([REFS[0]], HYP, weights=(0.5, 0.5), smoothing_function=ours.SmoothingFunction().method6)
    assert isinstance(raised.value, OptionError) and isinstance(raised.value, IndexError)
