"""TER's compiled edit distance (``bleucli._speedups.ter_edits``) against the pure-Python reference.

The C search must give the integers of :mod:`bleucli.metrics.ter_edit` (itself
sacreBLEU 2.6's numbers, see ``test_ter.py``): on every line of ``tests/data``
with every TER option, on random text over the characters Tercom's
tokenizer looks at, on word sequences built to make the shift search work hard
(few distinct words, many repeats), at the edges (empty sides, one huge word,
segments at the word limit, many references), at sentence and corpus level.
Tests that compare with sacreBLEU run once per implementation (``matcher``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from bleucli import TER
from bleucli.errors import SegmentTooLongError
from bleucli.metrics.compiled import PURE_PYTHON_VARIABLE, compiled_matcher
from bleucli.metrics.ter import python_edits
from bleucli.metrics.ter_edit import shift_edit_distance
from datasets import REF2_AS_HYPOTHESIS, hypotheses, references, sets, system_name, system_paths
from fast_subset import CHRF_TER_SET, slow_except

speedups = compiled_matcher()
needs_c = pytest.mark.skipif(speedups is None or not hasattr(speedups, "ter_edits"),
                             reason="the C extension (bleucli._speedups) is not built")

#: Every combination of TER's options that changes the words (asian_support alone changes nothing,
#: so it rides with the others).
OPTIONS = [
    {},
    {"case_sensitive": True},
    {"no_punct": True},
    {"normalized": True},
    {"normalized": True, "asian_support": True},
    {"no_punct": True, "asian_support": True},
    {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True},
]


def _id(options: dict) -> str:
    return ",".join(sorted(options)) or "default"


def both(monkeypatch: pytest.MonkeyPatch, **options: object) -> tuple[TER, TER]:
    """The same TER built with the compiled edit distance and with the pure-Python one."""
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    compiled = TER(**options)  # type: ignore[arg-type]
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    python = TER(**options)  # type: ignore[arg-type]
    monkeypatch.delenv(PURE_PYTHON_VARIABLE)
    assert compiled._edits is speedups.ter_edits and python._edits is python_edits
    return compiled, python


def _first_hypotheses(name: str) -> tuple[str, ...]:
    paths = system_paths(name)
    return hypotheses(name, system_name(paths[0]) if paths else REF2_AS_HYPOTHESIS)


# -- real data ------------------------------------------------------------------------------------------------
@needs_c
@pytest.mark.parametrize("name", slow_except(sets(), [CHRF_TER_SET]))
def test_every_line_of_the_test_data_with_every_option(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Per segment and per corpus, all references at once: the statistics rows are identical.

    The fast subset keeps one set, its first 60 lines; the full suite takes every line of every set.
    """
    hyps = list(_first_hypotheses(name))
    refs = references(name)
    if name == CHRF_TER_SET:
        hyps, refs = hyps[:60], [r[:60] for r in refs]
    for options in OPTIONS:
        compiled, python = both(monkeypatch, **options)
        rows = compiled.corpus_statistics(hyps, refs)
        assert rows == python.corpus_statistics(hyps, refs), options
        assert compiled.corpus_score(hyps, refs).score == python.corpus_score(hyps, refs).score


@needs_c
@pytest.mark.slow
def test_each_reference_of_the_test_data_alone() -> None:
    """ter_edits against the reference search, one (hypothesis, reference) pair at a time."""
    metric = TER()
    for name in sets():
        hyps = _first_hypotheses(name)[:40]
        for ref_lines in references(name):
            for hyp, ref in zip(hyps, ref_lines):
                words, ref_words = metric._words(hyp), metric._reference_words(ref)
                assert speedups.ter_edits(words, [ref_words]) == shift_edit_distance(words, ref_words), (name, hyp)


# -- random text ----------------------------------------------------------------------------------------------
#: What Tercom's tokenizer looks at (entities, ASCII punctuation and symbols, digits next to . , -,
#: possessives, CJK, kana, Asian and full-width punctuation), whitespace of several kinds, astral
#: characters, a lone surrogate, and a few words to repeat.
PIECES = [
    "the", "cat", "The", "CAT", "a", "a", "b", "sat", "mat", "on", "on",
    " ", " ", " ", "\t", "\n", "\u3000", "\u2009", "\xa0", "\x85",
    *".,?:;!\"()'-&<>/[]{}~`@#$%^*+=|\\_",
    "&quot;", "&amp;", "&lt;", "&gt;", "'s", "'s ", "1", "2019", "3.5", "1,000", "-5", "\n-",
    "\u4e2d", "\u6587", "\u3400", "\u31c0", "\u2e80", "\u3300", "\uf900", "\ufe30", "\u3200", "\u3f22",
    "\u3042", "\u3044\u3046", "\u30a2\u30a4", "\u31f0", "\u3001", "\u3002", "\u3008", "\u300c", "\uff61",
    "\u30fb", "\uff0e", "\uff0c", "\uff1f", "\uff01", "\uff08", "\u00c9", "\u0130", "\u1e9e", "\u03a3",
    "\U0001F600", "\U00010400", "\U0001D7D9", "\U00020000", "\ud800",
]


def random_line(rng: random.Random, longest: int) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, longest)))


@needs_c
@pytest.mark.parametrize("options", slow_except(OPTIONS, OPTIONS[-1:]), ids=_id)
def test_random_text_sentence_and_corpus(options: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(20261127 + len(_id(options)))
    compiled, python = both(monkeypatch, **options)
    hyps = [random_line(rng, 40) for _ in range(150)]
    refs = [[random_line(rng, 40) for _ in hyps] for _ in range(rng.randint(1, 3))]
    refs[0][0] = ""  # an empty reference
    hyps[1] = " \t\u3000 "  # whitespace only
    for k, hyp in enumerate(hyps[:50]):
        seg_refs = [r[k] for r in refs]
        assert compiled.sentence_score(hyp, seg_refs).score == python.sentence_score(hyp, seg_refs).score, hyp
    assert compiled.corpus_statistics(hyps, refs) == python.corpus_statistics(hyps, refs)


#: Few distinct words (the shift search's worst inputs), skewed, astral and 300-character ones.
VOCABULARIES = [["a", "b"], ["a", "b", "c"], list("abcde"), ["x"] * 3 + list("yz"), [f"w{i}" for i in range(30)],
                ["\U0001F600", "\u4e2d", "a" * 300, "é"]]
VOCABULARY_IDS = ["2", "3", "5", "skewed", "30", "astral-long"]


def _words(rng: random.Random, vocabulary: list[str], longest: int) -> list[str]:
    return [rng.choice(vocabulary) for _ in range(rng.randint(0, longest))]


@needs_c
@pytest.mark.parametrize("vocabulary", slow_except(VOCABULARIES, VOCABULARIES[1:2]), ids=VOCABULARY_IDS)
def test_repeated_words_stress_the_shift_search(vocabulary: list[str]) -> None:
    """Few distinct words: many equal spans, ties between shifts, long runs of rounds, the candidate cap."""
    rng = random.Random(len(vocabulary) * 7919 + len(vocabulary[0]))
    for _ in range(80):
        hyp = _words(rng, vocabulary, 45)
        refs = [_words(rng, vocabulary, 45) for _ in range(rng.randint(1, 3))]
        assert speedups.ter_edits(hyp, refs) == python_edits(hyp, refs), (hyp, refs)


@needs_c
def test_shuffled_blocks_need_many_shifts() -> None:
    """A reference cut in blocks and put back in another order: rounds of shifts, each changing the alignment."""
    rng = random.Random(5)
    for _ in range(15):
        ref = [f"w{rng.randrange(12)}" for _ in range(rng.randint(20, 80))]
        cuts = sorted(rng.sample(range(1, len(ref)), rng.randint(1, 8)))
        blocks = [ref[a:b] for a, b in zip([0, *cuts], [*cuts, len(ref)])]
        rng.shuffle(blocks)
        hyp = [w for block in blocks for w in block]
        if rng.random() < 0.5:
            hyp[rng.randrange(len(hyp))] = "other"
        assert speedups.ter_edits(hyp, [ref]) == shift_edit_distance(hyp, ref)


@needs_c
def test_lengths_far_apart_widen_the_beam() -> None:
    """Reference many times the hypothesis (sacreBLEU's beam grows with the ratio) and the other way round."""
    rng = random.Random(11)
    for short, long in [(1, 200), (3, 170), (7, 400), (2, 60), (40, 1)]:
        for _ in range(5):
            hyp = [rng.choice("abcd") for _ in range(short)]
            ref = [rng.choice("abcd") for _ in range(long)]
            assert speedups.ter_edits(hyp, [ref]) == shift_edit_distance(hyp, ref)
            assert speedups.ter_edits(ref, [hyp]) == shift_edit_distance(ref, hyp)


@needs_c
def test_empty_sides() -> None:
    assert speedups.ter_edits([], [[]]) == 0
    assert speedups.ter_edits(["a", "b"], [[]]) == 2
    assert speedups.ter_edits([], [["a", "b", "c"]]) == 3
    assert speedups.ter_edits([], [["a"], []]) == 0
    assert speedups.ter_edits(["a"], [["b", "c"], ["a"]]) == 0


# -- attacks --------------------------------------------------------------------------------------------------
@needs_c
def test_many_references(monkeypatch: pytest.MonkeyPatch) -> None:
    """40 references a segment: the fewest edits, and the float average of their lengths."""
    rng = random.Random(64)
    compiled, python = both(monkeypatch)
    hyps = [" ".join(_words(rng, list("abcdefg"), 30)) for _ in range(8)]
    refs = [[" ".join(_words(rng, list("abcdefg"), 30)) for _ in hyps] for _ in range(40)]
    assert compiled.corpus_statistics(hyps, refs) == python.corpus_statistics(hyps, refs)


@needs_c
def test_a_megabyte_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1 MB line without spaces is one word: scored, as the pure path scores it."""
    compiled, python = both(monkeypatch)
    word = "x" * 1_000_000
    for hyp, ref in [(word, word), (word, word + "y"), (word + " a b", "a " + word), ("a", word)]:
        assert compiled.sentence_score(hyp, [ref]).score == python.sentence_score(hyp, [ref]).score


@needs_c
def test_a_megabyte_of_words_is_refused_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled, _ = both(monkeypatch)
    line = "ab " * 350_000
    with pytest.raises(SegmentTooLongError):
        compiled.sentence_score(line, ["ab"])
    with pytest.raises(SegmentTooLongError):
        compiled.sentence_score("ab", [line])


@needs_c
@pytest.mark.slow
def test_a_megabyte_of_words_without_a_limit() -> None:
    """350,000 words against a short reference, no limit: only the band of each row is kept."""
    words = ("ab cd " * 175_000).split()
    ref = ["cd", "ab", "ef"]
    assert speedups.ter_edits(words, [ref]) == shift_edit_distance(words, ref)


@needs_c
@pytest.mark.parametrize("words", slow_except([300, 2000], [300]))
def test_segments_at_the_word_limit(words: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Segments as long as the default limit allows (and shorter ones in the fast subset)."""
    rng = random.Random(words)
    compiled, python = both(monkeypatch, max_words=words)
    ref = [rng.choice(["a", "b", "c", "d", "e", "f"]) for _ in range(words)]
    hyp = list(ref)
    for _ in range(words // 20):  # moved blocks and substitutions: shifts to find
        start = rng.randrange(words - 10)
        block = hyp[start:start + rng.randint(1, 8)]
        del hyp[start:start + len(block)]
        at = max(0, min(len(hyp), start + rng.randint(-40, 40)))
        hyp[at:at] = block
        hyp[rng.randrange(words)] = "z"
    assert len(hyp) == words
    hyp_line, ref_line = " ".join(hyp), " ".join(ref)
    assert compiled.sentence_score(hyp_line, [ref_line]).score == python.sentence_score(hyp_line, [ref_line]).score
    with pytest.raises(SegmentTooLongError):
        compiled.sentence_score(hyp_line + " a", [ref_line])


@needs_c
def test_bad_arguments_are_type_errors() -> None:
    with pytest.raises(TypeError):
        speedups.ter_edits(("a",), [["a"]])
    with pytest.raises(TypeError):
        speedups.ter_edits(["a"], "a")
    with pytest.raises(TypeError):
        speedups.ter_edits(["a"], [("a",)])
    with pytest.raises(TypeError):
        speedups.ter_edits(["a", 1], [["a"]])
    with pytest.raises(TypeError):
        speedups.ter_edits(["a"], [["a", None]])
    with pytest.raises(ValueError):
        speedups.ter_edits(["a"], [])
    with pytest.raises(TypeError):
        speedups.ter_edits(["a"])


@needs_c
@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_no_memory_grows_over_100k_calls() -> None:
    """100,000 calls (errors included): the resident set stays where it was after the first thousand."""
    page = 4096

    def rss() -> int:
        return int(Path("/proc/self/statm").read_text().split()[1]) * page

    hyp = "the cat sat on the mat with the other cat".split()
    refs = ["on the mat sat the cat".split(), "a cat sat on a mat".split()]

    def calls(count: int) -> None:
        for i in range(count):
            speedups.ter_edits(hyp, refs)
            if i % 10 == 0:
                with pytest.raises(TypeError):
                    speedups.ter_edits(hyp, [["x", i]])

    calls(1_000)
    before = rss()
    calls(100_000)
    assert rss() - before < 4 * 1024 * 1024


# -- sacreBLEU --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", slow_except(OPTIONS, OPTIONS[-1:]), ids=_id)
def test_random_text_equals_sacrebleu(options: dict, matcher: str) -> None:
    oracle = pytest.importorskip("sacrebleu.metrics")
    rng = random.Random(31 + len(_id(options)))
    ours, theirs = TER(**options), oracle.TER(**options)
    hyps = [random_line(rng, 30) for _ in range(30)]
    refs = [[random_line(rng, 30) for _ in hyps] for _ in range(2)]
    for k, hyp in enumerate(hyps[:10]):
        seg_refs = [r[k] for r in refs]
        assert ours.sentence_score(hyp, seg_refs).score == theirs.sentence_score(hyp, seg_refs).score
    mine, other = ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs)
    assert (mine.score, mine.num_edits, mine.ref_length) == (other.score, other.num_edits, other.ref_length)


@pytest.mark.parametrize("vocabulary", slow_except([["a", "b"], list("abcde")], [list("abcde")]), ids=["2", "5"])
def test_repeated_words_equal_sacrebleu(vocabulary: list[str], matcher: str) -> None:
    lib_ter = pytest.importorskip("sacrebleu.metrics.lib_ter")
    rng = random.Random(97 + len(vocabulary))
    metric = TER(case_sensitive=True)
    for _ in range(15):
        hyp, ref = _words(rng, vocabulary, 35), _words(rng, vocabulary, 35)
        expected = lib_ter.translation_edit_rate(hyp, ref)[0]
        assert metric._edits(hyp, [ref]) == expected, (hyp, ref)
