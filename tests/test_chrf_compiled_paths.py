"""The compiled chrF's specialised paths, each against the pure-Python reference (and sacreBLEU).

``bleucli/_speedups_chrf.c`` takes different routes for the same numbers, and each must give
the pure path's integers bit for bit:

* a line of code points below 256 scored without words or kept whitespace is read through a
  table of the whitespace ``str.split()`` splits on (every code point below 256 is tried, with
  and without ``-lc``, whose ASCII lines are lowercased there too);
* a character of the basic multilingual plane finds its id in a map, one beyond it through the
  hash table (lines that mix both sides of U+FFFF/U+10000);
* one reference of a single segment (``chrf_statistics``) is matched by a path of its own, two
  or more by the general one; shared references (``chrf_systems``, ``sentence_scores``,
  pairwise matrices) are matched through per-id reference counts up to four references and
  through their profiles beyond: 1 to 6 references, each path;
* n-grams repeated on both sides (the clipping of counts);
* the build with a 20-token limit, where a table cannot make room for a whole order at once
  and every n-gram is interned on its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from bleucli import CHRF
from fast_subset import slow_except
from test_compiled_matcher import SMALL_LIMIT, small  # noqa: F401 (the 20-token build, a fixture)

#: The options that change what is counted: chrF2, chrF2++, -lc, --chrf-whitespace, -cc/-cw, eps.
OPTIONS: list[dict[str, Any]] = [
    {},
    {"word_order": 2},
    {"lowercase": True},
    {"lowercase": True, "word_order": 2},
    {"whitespace": True},
    {"char_order": 3, "word_order": 1, "eps_smoothing": True},
    {"char_order": 0, "word_order": 2},
]

#: Every code point below 256, as one line.
LATIN1 = "".join(map(chr, range(256)))
#: Characters on both sides of the end of the basic plane, with ASCII and whitespace between.
PLANES = "\ufffd\ufffe\uffff\U00010000\U00010001\U0010ffff\U0001f600ab .\u3000"


def _lines(rng: random.Random, alphabet: str, count: int, longest: int = 60) -> list[str]:
    return ["".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 5, rng.randrange(longest)])))
            for _ in range(count)]


def _same_on_every_path(compiled: CHRF, python: CHRF, hyps: list[str], refs: list[list[str]]) -> None:
    """Each entry point of the C code against the pure path, with len(refs) references."""
    segments = [tuple(r) for r in zip(*refs)]
    rows = python.corpus_statistics(hyps, refs)
    assert compiled.corpus_statistics(hyps, refs) == rows  # chrf_statistics: one segment at a time
    kept = type(compiled)(**_options(compiled), references=refs)  # its corpus sums in one call
    assert kept.corpus_score(hyps).score == python.corpus_score(hyps, refs).score
    other = hyps[::-1]  # two systems: chrf_systems, each segment's references shared
    assert compiled.chunk_rows([hyps, other], segments) == [rows, python.chunk_rows([other], segments)[0]]
    shared = [ref for ref in refs[0][:len(refs) + 1]]  # the same references for every hypothesis
    assert [s.score for s in compiled.sentence_scores(hyps, shared)] == \
        [s.score for s in python.sentence_scores(hyps, shared)]
    assert compiled.pairwise_scores(hyps[:8], shared) == python.pairwise_scores(hyps[:8], shared)


def _options(metric: CHRF) -> dict[str, Any]:
    return {"char_order": metric.char_order, "word_order": metric.word_order, "beta": metric.beta,
            "lowercase": metric.lowercase, "whitespace": metric.whitespace, "eps_smoothing": metric.eps_smoothing}


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "chrF2")
def test_every_code_point_below_256(options: dict[str, Any], both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    compiled, python = both(**options)
    hyps = [f"a{c}b {c}c{c}" for c in LATIN1] + [LATIN1, LATIN1[::-1]]
    refs = [[f"{c}a b{c}c" for c in LATIN1] + [LATIN1[::2], LATIN1.lower()]]
    assert all(max(map(ord, line)) < 256 for line in hyps + refs[0])
    hyps.append(LATIN1.upper())  # beyond 255 ("ÿ".upper() is "Ÿ"): a line of the general path
    refs[0].append(LATIN1)
    _same_on_every_path(compiled, python, hyps, refs)


@pytest.mark.parametrize("options", OPTIONS[:4], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "chrF2")
def test_ascii_lines_lowercased_in_place(options: dict[str, Any], both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    rng = random.Random(7)
    compiled, python = both(**options)
    letters = "".join(map(chr, range(32, 127))) + "\t\n\x0b\x0c\r\x1c\x1f"
    hyps, refs = _lines(rng, letters, 80), [_lines(rng, letters, 80)]
    hyps[:4] = ["ABC abc", "@[`{", "Z z", "AZaz@[`{"]  # the letters' edges and their neighbours
    refs[0][:4] = ["abc ABC", "@[`{", "z", "azAZ@[`{"]
    _same_on_every_path(compiled, python, hyps, refs)


@pytest.mark.parametrize("references", [1, 2, 3])
def test_both_sides_of_the_basic_plane(references: int, both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    rng = random.Random(references)
    for options in OPTIONS[:3]:
        compiled, python = both(**options)
        hyps = _lines(rng, PLANES, 40)
        refs = [_lines(rng, PLANES, 40) for _ in range(references)]
        hyps[0], refs[0][0] = "\uffff\U00010000" * 5, "\U00010000\uffff" * 4  # the same n-grams, shifted
        _same_on_every_path(compiled, python, hyps, refs)


@pytest.mark.parametrize("references", slow_except([1, 2, 3, 4, 5, 6], {1, 2, 5}))
def test_one_to_six_references(references: int, both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    """Up to four shared references are matched through per-id counts, more through profiles;
    one reference of a single segment has a path of its own."""
    rng = random.Random(f"refs{references}")
    alphabet = "abcdeABC äöü.,!()' 中文"
    for options in OPTIONS:
        compiled, python = both(**options)
        hyps = _lines(rng, alphabet, 30)
        refs = [_lines(rng, alphabet, 30) for _ in range(references)]
        hyps[0], refs[-1][0] = "", ""  # empty lines, hypothesis and reference
        hyps[1] = "x" * 200  # a very long word
        refs[0][1] = " ".join(["x" * 199, "y"])
        hyps[2] = refs[0][2] = " \t\u3000 "  # whitespace only
        _same_on_every_path(compiled, python, hyps, refs)


def test_repeated_ngrams_are_clipped(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    """Counts above one on either side: the matches are sum(min(hypothesis, reference))."""
    hyps = ["a" * 30, "ab" * 20, "abc " * 10, "a a a a b", "aaa", "the the the cat", "xyxyxyx" * 3]
    refs = [["a" * 12, "ba" * 7, "abc " * 25, "a b a", "a" * 40, "the cat the", "yx" * 9],
            ["a" * 35, "ab", "cab " * 3, "b b b a", "", "the the the the", "xyx"]]
    for options in OPTIONS:
        compiled, python = both(**options)
        _same_on_every_path(compiled, python, hyps, refs[:1])
        _same_on_every_path(compiled, python, hyps, refs)


@pytest.mark.slow  # builds the extension once more (seconds)
@pytest.mark.parametrize("options", [{}, {"word_order": 2}], ids=["chrF2", "chrF2++"])
def test_a_table_at_its_limit_interns_one_ngram_at_a_time(small: ModuleType,  # noqa: F811
                                                           options: dict[str, Any],
                                                           both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    """Built with 20 tokens at most, a table holds 20 ids: "abab..." (20 characters) leaves no room
    for its 19 bigrams at once, yet makes only two ids an order (the n-grams interned one by one);
    more distinct n-grams than that is an OverflowError, from every entry point."""
    compiled, python = both(**options)
    settings = compiled._compiled_settings
    hyps, refs = ["ab" * 10, "a" * 20, "b a" * 6], [("ba" * 10,), ("a" * 19,), ("a b" * 6,)]
    rows = python.corpus_statistics(hyps, [[r[0] for r in refs]])
    assert small.chrf_statistics(hyps, refs, settings, True) == rows
    assert small.chrf_systems([hyps, hyps], refs, settings, True) == [rows, rows]
    distinct = "".join(chr(ord("a") + i) for i in range(SMALL_LIMIT))
    for call in (lambda: small.chrf_statistics([distinct], [(distinct,)], settings, True),
                 lambda: small.chrf_systems([[distinct], [distinct]], [(distinct,)], settings, True)):
        with pytest.raises(OverflowError, match="chrF"):
            call()


@pytest.mark.parametrize("word_order", [0, 2])
def test_sacrebleu_gives_the_same_numbers(matcher: str, word_order: int) -> None:
    """These lines through sacreBLEU 2.6, with either matcher."""
    metrics = pytest.importorskip("sacrebleu.metrics")
    rng = random.Random(word_order)
    hyps = [LATIN1, PLANES * 3, "a" * 30, "ab" * 20] + _lines(rng, "abc ÄÖ.,𝐀中 ", 40)
    refs = [[LATIN1[::-1], PLANES[::-1], "a" * 12, "ba" * 7] + _lines(rng, "abc ÄÖ.,𝐀中 ", 40)]
    for options in ({"word_order": word_order}, {"word_order": word_order, "lowercase": True}):
        ours, theirs = CHRF(**options), metrics.CHRF(**options)
        assert ours.corpus_score(hyps, refs).score == theirs.corpus_score(hyps, refs).score
        assert [ours.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])] == \
            [theirs.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])]
