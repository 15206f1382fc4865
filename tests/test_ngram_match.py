"""The two fast clipping paths against plain counting, on inputs built to hit their branches.

The golden tests cover real WMT lines; these force the rare paths too (and the
substring-search path of character-level BLEU):
references and hypotheses that repeat words and higher n-grams, several
references, every order from 1 to 9, empty sides.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bleucli.metrics.ngram_match import ReferenceNgrams, clipped_matches, pair_matches


def counted_matches(tokens: list[str], references: list[list[str]], max_order: int) -> list[int]:
    """The textbook definition: min(hypothesis count, max reference count), summed."""
    result = []
    for n in range(1, max_order + 1):
        hyp = Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
        best: Counter[tuple[str, ...]] = Counter()
        for ref in references:
            for gram, count in Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1)).items():
                best[gram] = max(best[gram], count)
        result.append(sum(min(count, best[gram]) for gram, count in hyp.items()))
    return result


def random_tokens(rng: random.Random, vocabulary: str, length: int) -> list[str]:
    return [rng.choice(vocabulary) for _ in range(length)]


@pytest.mark.parametrize("seed", range(20))
def test_single_reference_paths_equal_counting(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        vocabulary = "abcdefgh"[: rng.randint(1, 8)]  # small vocabularies repeat n-grams
        hyp = random_tokens(rng, vocabulary, rng.randint(0, 14))
        ref = random_tokens(rng, vocabulary, rng.randint(0, 14))
        order = rng.randint(1, 9)
        expected = counted_matches(hyp, [ref], order)
        assert pair_matches(hyp, ref, order) == expected, (hyp, ref, order)
        assert clipped_matches(hyp, ReferenceNgrams([ref], order), order) == expected, (hyp, ref, order)


@pytest.mark.parametrize("seed", range(10))
def test_several_references_equal_counting(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(200):
        vocabulary = "abcdef"[: rng.randint(1, 6)]
        hyp = random_tokens(rng, vocabulary, rng.randint(0, 12))
        refs = [random_tokens(rng, vocabulary, rng.randint(0, 12)) for _ in range(rng.randint(2, 4))]
        order = rng.randint(1, 6)
        assert clipped_matches(hyp, ReferenceNgrams(refs, order), order) == counted_matches(hyp, refs, order)


def test_clipping_by_the_reference_count() -> None:
    hyp = "the the the the cat the cat".split()
    ref = "the cat the cat on the mat".split()
    # "the": 5 in the hypothesis, 3 in the reference; "the cat": 2 and 2; "cat the": 1 and 1
    assert pair_matches(hyp, ref, 4) == [5, 3, 2, 1]
    assert counted_matches(hyp, [ref], 4) == [5, 3, 2, 1]


@pytest.mark.parametrize("seed", range(10))
def test_character_matches_equal_counting(seed: int) -> None:
    """char BLEU's substring-search path (bleucli.metrics.substring_match) against plain counting."""
    from bleucli.metrics.substring_match import character_matches

    rng = random.Random(2000 + seed)
    for _ in range(500):
        hyp = "".join(rng.choice("aab"[: rng.randint(1, 3)]) for _ in range(rng.randint(0, 16)))
        ref = "".join(rng.choice("abc"[: rng.randint(1, 3)]) for _ in range(rng.randint(0, 16)))
        order = rng.randint(1, 9)
        assert character_matches(hyp, ref, order) == counted_matches(list(hyp), [list(ref)], order), (hyp, ref)


def test_char_bleu_single_reference_path_equals_the_general_one() -> None:
    from bleucli import BLEU

    rng = random.Random(7)
    for lowercase in (False, True):
        metric = BLEU(tokenize="char", lowercase=lowercase, max_ngram_order=5)
        for _ in range(2000):
            hyp = "".join(rng.choice("aAb c\t") for _ in range(rng.randint(0, 14)))
            ref = "".join(rng.choice("abC  ") for _ in range(rng.randint(0, 14)))
            assert metric.single_use_statistics(hyp, (ref,)) == \
                metric.segment_statistics(hyp, metric.prepare_references((ref,), shared=True)), (hyp, ref)


def test_char_bleu_with_cached_references_and_several_systems(matcher: str) -> None:
    """Reference info built once (constructor or several systems) takes the substring path too.

    With the compiled matcher, which tokenizes char itself, a metric built with ``references=``
    keeps the reference text (``TextReferences``, whose tokens are char's string of characters),
    and chunks of any number of systems are scored in C.
    """
    from bleucli import BLEU

    hyps = ["Das ist ein Test.", "zwei  Wörter", "", "aaa aaa"]
    other = ["Das ist kein Test!", "zwei Wort", "x", "aa aa a"]
    refs = [["Das ist ein Test!", "Zwei Wörter.", "nichts", "aaaa a"]]
    for lowercase in (False, True):
        plain = BLEU(tokenize="char", lowercase=lowercase)
        cached = BLEU(tokenize="char", lowercase=lowercase, references=refs)
        if matcher == "python":
            assert isinstance(cached._ref_cache[0], str)
        else:
            assert type(cached._ref_cache[0]).__name__ == "TextReferences"
            assert cached._ref_cache[0].texts == ("Das ist ein Test!",)
            assert cached._ref_cache[0].tokens("Das ist ein Test!") == \
                ("dasisteintest!" if lowercase else "DasisteinTest!")
        for system in (hyps, other):
            expected = plain.corpus_score(system, refs)
            assert cached.corpus_score(system).to_dict() == expected.to_dict()
            row = [plain.single_use_statistics(h, (r,)) for h, r in zip(system, refs[0])]
            assert [sum(column) for column in zip(*row)] == \
                list(plain.chunk_statistics([hyps, system], [(r,) for r in refs[0]])[1].values)


def _metric(name: str):  # type: ignore[no-untyped-def]
    from bleucli import BLEU, CHRF, TER

    return {"bleu-13a": lambda: BLEU(), "bleu-char": lambda: BLEU(tokenize="char"),
            "chrf++": lambda: CHRF(word_order=2), "ter": lambda: TER()}[name]()


@pytest.mark.parametrize("name", ["bleu-13a", "bleu-char", "chrf++", "ter"])
def test_systems_that_agree_on_segments_are_each_scored_in_full(name: str) -> None:
    """Identical hypotheses of several systems are scored once, but count for every system."""
    refs = [["Das ist ein Test.", "zwei Wörter", "nichts hier", "aaa aaa b"],
            ["Das ist kein Test.", "Zwei Wörter", "gar nichts", "aa b aa"]]
    first = ["Das ist ein Test.", "zwei Wörter", "", "aaa aaa"]
    second = ["Das ist ein Test.", "drei Wörter", "", "aaa aaa"]  # agrees with first on 3 of 4
    third = list(first)  # agrees everywhere
    metric = _metric(name)
    segment_refs = list(zip(*refs))
    sums = metric.chunk_statistics([first, second, third, first], segment_refs)
    for system, got in zip([first, second, third, first], sums):
        rows = [metric.segment_statistics(h, metric.prepare_references(r, shared=True))
                for h, r in zip(system, segment_refs)]
        assert list(got.values) == [sum(column) for column in zip(*rows)]
    assert sums[0] == sums[2] == sums[3] != sums[1]


def test_without_the_extension_bleucli_runs_the_python_matchers() -> None:
    """A machine without a C compiler has no bleucli._speedups: the same scores, from Python."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys; sys.modules['bleucli._speedups'] = None\n"  # makes the import fail
        "from bleucli import BLEU, CHRF\n"
        "from bleucli.metrics.compiled import implementation\n"
        "print(implementation(), BLEU()._compiled_references, CHRF()._compiled_references)\n"
        "print(BLEU().corpus_score(['the cat sat on a mat'], [['the cat sat on the mat']]).score)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    env.pop("BLEUCLI_PURE_PYTHON", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    first, second = done.stdout.splitlines()
    assert first == "python None None"
    assert float(second) == 53.7284965911771  # sacreBLEU 2.6.0's score for this pair
