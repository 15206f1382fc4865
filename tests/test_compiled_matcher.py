"""The compiled n-gram matcher (bleucli/_speedups.c) against the definition and the Python matchers.

``ngram_matches`` builds a segment's reference tables, matches and drops them;
``References`` keeps them (built order by order, as hypotheses need them) for
further hypotheses. Both are checked here.

The golden tests run every metric through both matchers (the ``matcher``
fixture); these test the C function on its own: the textbook definition on
inputs full of repeats, the Python matchers on real WMT lines, every kind of
character width, and the errors it raises for what it cannot take.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

import datasets
from bleucli.metrics.compiled import PURE_PYTHON_VARIABLE, compiled_matcher, implementation
from bleucli.metrics.ngram_match import ReferenceNgrams, clipped_matches, pair_matches
from bleucli.metrics.substring_match import character_matches

speedups = compiled_matcher()
pytestmark = pytest.mark.skipif(speedups is None, reason="the C matcher (bleucli._speedups) is not built")
ngram_matches = speedups.ngram_matches if speedups else None
References = speedups.References if speedups else None


def counted_matches(hypothesis, references, max_order: int) -> list[int]:
    """The definition: min(count in the hypothesis, max count in one reference), summed over n-grams."""
    result = []
    for n in range(1, max_order + 1):
        hyp = Counter(tuple(hypothesis[i:i + n]) for i in range(len(hypothesis) - n + 1))
        best: Counter = Counter()
        for ref in references:
            for gram, count in Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1)).items():
                best[gram] = max(best[gram], count)
        result.append(sum(min(count, best[gram]) for gram, count in hyp.items()))
    return result


@pytest.mark.parametrize("seed", range(8))
def test_equals_the_definition_on_repetitive_input(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(1500):
        alphabet = rng.choice(["ab", "abc", "aé€𝄞", "xyz\u0301"])
        hyp = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        refs = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(rng.randint(1, 3))]
        order = rng.randint(1, 9)
        expected = counted_matches(hyp, refs, order)
        assert ngram_matches(hyp, refs, order) == expected, (hyp, refs, order)
        # the same tokens as lists of one-character words
        assert ngram_matches(list(hyp), [list(r) for r in refs], order) == expected, (hyp, refs, order)


@pytest.mark.parametrize("seed", range(4))
def test_prepared_references_equal_the_definition_for_every_hypothesis(seed: int) -> None:
    """One References object, many hypotheses and orders in any sequence (its tables grow lazily)."""
    rng = random.Random(seed)
    for _ in range(150):
        alphabet = rng.choice(["ab", "abc", "aé€𝄞"])
        refs = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(rng.randint(1, 3))]
        as_text, as_words = References(refs), References([list(r) for r in refs])
        assert as_text.lengths == as_words.lengths == tuple(map(len, refs))
        for _ in range(10):
            hyp = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
            order = rng.randint(0, 9)
            expected = counted_matches(hyp, refs, order)
            assert as_text.matches(hyp, order) == expected, (hyp, refs, order)
            assert as_words.matches(list(hyp), order) == expected, (hyp, refs, order)


def test_prepared_references_keep_their_words_and_pickle() -> None:
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    refs = References([tokens])
    tokens[:] = ["x"] * 6  # the caller's list changes; the tables hold their own words
    del tokens
    assert refs.matches("the cat sat on the mat".split(), 4) == [6, 5, 4, 3]
    copy = pickle.loads(pickle.dumps(refs))
    assert copy.lengths == (6,) and copy.matches(["the", "cat"], 2) == [2, 1]
    assert pickle.loads(pickle.dumps(References(["abc", "abd"]))).matches("abd", 3) == [3, 2, 1]
    given = (["a", "b"], ["c"])
    References(given)
    assert given == (["a", "b"], ["c"]) and type(given[0]) is list  # the caller's sequence is left alone


@pytest.mark.parametrize("args, error", [
    (("abc",), TypeError),  # a bare string as the list of references
    ((["abc", ["a"]],), TypeError),  # of two kinds
    (([("a",)],), TypeError),
    ((None,), TypeError),
])
def test_bad_references_raise(args, error) -> None:
    with pytest.raises(error):
        References(*args)
    with pytest.raises(TypeError):
        References(["ab"]).matches(["a", "b"], 2)  # a list of words against references of characters


def test_equals_the_python_matchers_on_real_lines() -> None:
    checked = 0
    for name in datasets.sets():
        refs = datasets.references(name)
        hyps = next(iter(datasets.systems(name).values()), refs[-1])
        for i in range(0, len(hyps), 7):
            hyp, seg_refs = hyps[i].split(), [r[i].split() for r in refs]
            assert ngram_matches(hyp, seg_refs[:1], 4) == pair_matches(hyp, seg_refs[0], 4), (name, i)
            assert ngram_matches(hyp, seg_refs, 4) == clipped_matches(hyp, ReferenceNgrams(seg_refs, 4), 4), (name, i)
            hyp_chars, ref_chars = "".join(hyp), "".join(seg_refs[0])
            assert ngram_matches(hyp_chars, [ref_chars], 6) == character_matches(hyp_chars, ref_chars, 6), (name, i)
            checked += 1
    assert checked > 3000


def test_words_are_compared_by_text_not_identity() -> None:
    class Word(str):
        def __hash__(self) -> int:  # a subclass's own hash must not split equal words apart
            return 7

    hyp = [Word("the"), "".join(["c", "at"]), "sat"]
    assert ngram_matches(hyp, [["the", "cat", "sat"]], 3) == [3, 2, 1]
    # equal text in different widths never happens (str picks the narrowest), unequal text is unequal
    assert ngram_matches(["é", "€", "𝄞"], [["é", "€", "𝄞"], ["e"]], 3) == [3, 2, 1]


@pytest.mark.parametrize("hyp, refs, order, expected", [
    ("", ["abc"], 4, [0, 0, 0, 0]),
    ("abc", [""], 2, [0, 0]),
    ("abc", [], 2, [0, 0]),
    ("abc", ["abc"], 0, []),
    ("aaaa", ["aa", "aaa"], 4, [3, 2, 1, 0]),
    ([], [["a"]], 1, [0]),
    (["a", "a", "b"], (["a", "b"], ["a", "a"]), 2, [3, 2]),
])
def test_edges(hyp, refs, order, expected) -> None:
    assert ngram_matches(hyp, refs, order) == expected


@pytest.mark.parametrize("args, error", [
    (("abc", [["a"]], 2), TypeError),  # a str against a list of words
    ((["a", 1], [["a"]], 2), TypeError),
    (("abc", [("a", "b")], 2), TypeError),  # a tuple is neither a str nor a list
    (("abc", "abc", 2), TypeError),  # a bare string as the list of references
    (("abc", ["abc"], -1), ValueError),
    (("abc", ["abc"]), TypeError),
])
def test_bad_arguments_raise(args, error) -> None:
    with pytest.raises(error):
        ngram_matches(*args)


def test_the_environment_variable_switches_to_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleucli import BLEU, CHRF

    assert implementation() == "compiled"
    assert BLEU()._compiled_references is not None and CHRF()._compiled_references is not None
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert implementation() == "python"
    assert BLEU()._compiled_references is None and CHRF()._compiled_references is None
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "0")
    assert implementation() == "compiled"


def test_metrics_built_with_references_keep_tokens_not_tables() -> None:
    """references= holds every segment at once: the C tables (tens of KB each) are not kept."""
    from bleucli import BLEU, CHRF
    from bleucli.metrics.chrf import _StoredReferences as StoredCharactersAndWords
    from bleucli.metrics.compiled import StoredReferences

    refs = [["The cat sat.", "A dog"], ["The cat sits.", "The dog"]]
    bleu, chrf = BLEU(references=refs), CHRF(word_order=2, references=refs)
    assert [type(info) for info in bleu._ref_cache] == [StoredReferences] * 2
    assert [type(info) for info in chrf._ref_cache] == [StoredCharactersAndWords] * 2
    assert bleu._ref_cache[0] == (["The", "cat", "sat", "."], ["The", "cat", "sits", "."])
    assert chrf._ref_cache[1] == (("Adog", ["A", "dog"]), ("Thedog", ["The", "dog"]))
    hyps = ["The cat sat .", "the dog"]
    assert bleu.corpus_score(hyps).score == BLEU().corpus_score(hyps, refs).score
    assert chrf.corpus_score(hyps).score == CHRF(word_order=2).corpus_score(hyps, refs).score


def test_the_module_uses_multi_phase_initialisation() -> None:
    """PEP 489: every import of the extension spec makes a new module object (single-phase
    initialisation would hand back the one cached module)."""
    import importlib.util

    spec = importlib.util.find_spec("bleucli._speedups")
    assert spec is not None
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)  # type: ignore[union-attr]
    assert fresh is not speedups and fresh.References is speedups.References
    assert fresh.ngram_matches("abc", ["abd"], 3) == [2, 1, 0]


def test_it_imports_in_a_subinterpreter() -> None:
    interpreters = pytest.importorskip("_interpreters", reason="subinterpreters need Python 3.13's _interpreters")
    interpreter = interpreters.create("legacy")
    try:
        interpreters.run_string(interpreter, "import bleucli._speedups as s\n"
                                             "assert s.ngram_matches('ab', ['ab'], 2) == [2, 1]")
    finally:
        interpreters.destroy(interpreter)


@pytest.mark.slow
def test_a_sequence_longer_than_the_int32_ids_is_an_overflow_error_not_a_wrapped_index() -> None:
    """2**31 one-byte characters (2 GiB, freed at once): refused before any table is built."""
    huge = "a" * (2**31)
    try:
        with pytest.raises(OverflowError, match="longer than"):
            speedups.ngram_matches(huge, ["a"], 1)
        with pytest.raises(OverflowError):
            speedups.References([huge])
    finally:
        del huge
