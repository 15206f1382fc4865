"""chrF and chrF++ in C (``bleucli/_speedups_chrf.c``) against the pure-Python reference.

The compiled functions must give the pure-Python implementation's integers and floats bit for
bit: every line of tests/data, random strings of every alphabet the tokenizers meet (whitespace
only, astral characters, very long words, empty references), corpus and sentence level, every
option that changes what is counted, the pairwise and aggregated paths, and hostile input (NUL
bytes, lone surrogates, megabyte lines, thousands of references). Oracle tests check sacreBLEU's
numbers once more, through both matchers. The leak tests run a path many times and compare traced
memory: C allocations go through PyMem, which tracemalloc sees.
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from bleucli import CHRF
from bleucli.metrics.pairwise import aggregate_chrf_scores
from bleucli.statistics import sum_rows
from datasets import REF2_AS_HYPOTHESIS, hypotheses, references, sets, system_name, system_paths
from fast_subset import CHRF_TER_SET, slow_except

#: The options that change what is counted or how it is scored (``-cc``, ``-cw``, beta,
#: ``--chrf-whitespace``, ``-lc``, eps smoothing), chrF2 and chrF2++ first.
VARIANTS: list[dict[str, Any]] = [
    {},
    {"word_order": 2},
    {"lowercase": True, "word_order": 2},
    {"whitespace": True},
    {"whitespace": True, "lowercase": True, "word_order": 1},
    {"eps_smoothing": True, "word_order": 2},
    {"char_order": 0, "word_order": 3},
    {"char_order": 3, "word_order": 0, "beta": 1},
    {"char_order": 8, "word_order": 4, "beta": 3},
    {"char_order": 1, "word_order": 1, "eps_smoothing": True},
]

#: Alphabets of random text: what the tokenizers meet (ASCII words and punctuation, Latin with
#: case mapping that changes length, CJK, astral, Cyrillic and Hebrew, odd whitespace and marks).
ALPHABETS = {
    "ascii": "abcABC .,!?()'\"-",
    "latin": "aäAÄßẞİıIiŉǰ ̇.,",
    "cjk": "中文日本語。、「」ｶﾀ 　",
    "astral": "𝐀𝐁𝒜😀🀄𠀀 a.",
    "cyrillic_hebrew": "абвАБВשלום ,.",
    "whitespace": " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u3000\u200b",
    "marks": "e\u0301\u0308\u200d\ufeff-_/",
}


def _random_line(rng: random.Random, alphabet: str, longest: int) -> str:
    length = rng.choice([0, 1, 2, 3, rng.randrange(longest + 1)])
    return "".join(rng.choice(alphabet) for _ in range(length))


def _same_everywhere(compiled: CHRF, python: CHRF, hyps: list[str], refs: list[list[str]]) -> None:
    """Rows, corpus score, sentence scores, pairwise matrix: identical from both metrics."""
    assert compiled.corpus_statistics(hyps, refs) == python.corpus_statistics(hyps, refs)
    assert compiled.corpus_score(hyps, refs).score == python.corpus_score(hyps, refs).score
    segments = [list(r) for r in zip(*refs)]
    assert [compiled.sentence_score(h, r).score for h, r in zip(hyps, segments)] == \
        [python.sentence_score(h, r).score for h, r in zip(hyps, segments)]
    assert compiled.pairwise_scores(hyps[:12], refs[0][:12]) == python.pairwise_scores(hyps[:12], refs[0][:12])


# -- real data ------------------------------------------------------------------------------


#: The data set of the fast subset: a thousand Korean lines against two references.
FAST_SET = "wmt24pp-en-ko"


@pytest.mark.parametrize("name", slow_except(sets(), {FAST_SET}))
def test_every_line_of_tests_data(name: str, both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    refs = references(name)
    systems = [system_name(p) for p in system_paths(name)] or [REF2_AS_HYPOTHESIS]
    for options in VARIANTS[:3]:
        compiled, python = both(**options)
        for system in systems:
            hyps = list(hypotheses(name, system))
            rows = python.corpus_statistics(hyps, refs)
            assert compiled.corpus_statistics(hyps, refs) == rows, (system, options)
            expected = python.score_from_statistics(sum_rows(rows), len(refs)).score
            assert compiled.corpus_score(hyps, refs).score == expected
            kept = CHRF(**options, references=refs)  # the references= path (one C call for the corpus)
            assert kept.corpus_score(hyps).score == expected


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "chrF2")
def test_every_option_on_real_segments(options: dict[str, Any], both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    refs = references(CHRF_TER_SET)
    hyps = list(hypotheses(CHRF_TER_SET, system_name(system_paths(CHRF_TER_SET)[0])))[:300]
    refs = [list(stream[:300]) for stream in refs] + [list(hyps[::-1])]  # a second reference
    compiled, python = both(**options)
    _same_everywhere(compiled, python, hyps, refs)
    assert compiled.sentence_scores(hyps[:50], [refs[0][0], refs[1][0]]) == \
        python.sentence_scores(hyps[:50], [refs[0][0], refs[1][0]])
    assert [s.score for s in compiled.sentence_scores(hyps[:50], [refs[0][0], refs[1][0]])] == \
        [s.score for s in python.sentence_scores(hyps[:50], [refs[0][0], refs[1][0]])]
    assert aggregate_chrf_scores(compiled, hyps[:40], refs[0][:15]) == aggregate_chrf_scores(python, hyps[:40],
                                                                                             refs[0][:15])


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "chrF2")
def test_several_systems_share_each_segments_references(options: dict[str, Any],
                                                        both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    """chunk_rows and chunk_statistics of several systems (``chrf_systems``: each segment's references
    read once for all) give each system's rows alone, compiled and pure, with one and two references."""
    paths = system_paths(CHRF_TER_SET)
    systems = [list(hypotheses(CHRF_TER_SET, system_name(p)))[:200] for p in paths[:3]]
    refs = references(CHRF_TER_SET)
    systems.append(list(refs[0][:200])[::-1])  # a system whose lines are other segments' references
    compiled, python = both(**options)
    for streams in ([refs[0][:200]], [refs[0][:200], systems[0][::-1]]):
        segments = [tuple(r) for r in zip(*streams)]
        expected = [python.chunk_rows([system], segments)[0] for system in systems]
        assert compiled.chunk_rows(systems, segments) == expected
        assert compiled.chunk_rows(systems[:1], segments) == expected[:1]
        sums = [s.values for s in python.chunk_statistics(systems, segments)]
        assert [s.values for s in compiled.chunk_statistics(systems, segments)] == sums


def test_several_systems_report_the_error_one_system_reports(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    compiled, _ = both()
    segments = [("a b",), ("c",)]
    with pytest.raises(TypeError, match="hypothesis 2 is bytes") as one:
        compiled.chunk_rows([["x", b"y"]], segments)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="hypothesis 2 is bytes") as several:
        compiled.chunk_rows([["x", "y"], ["x", b"y"]], segments)  # type: ignore[list-item]
    assert str(several.value) == str(one.value)


def test_chrf_systems_refuses_what_it_cannot_read() -> None:
    speedups = pytest.importorskip("bleucli._speedups")
    settings = CHRF()._compiled_settings
    assert speedups.chrf_systems([], [("a",)], settings, True) == []
    assert speedups.chrf_systems([[], []], [], settings, False) == [[0] * 18, [0] * 18]
    with pytest.raises(TypeError, match="hypothesis 1"):
        speedups.chrf_systems([["a"], [b"a"]], [("a",)], settings, True)
    with pytest.raises(TypeError, match="segment 2"):
        speedups.chrf_systems([["a", "b"]], [("a",), "b"], settings, True)  # a str is not a segment's references
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        speedups.chrf_systems([["a"]], [()], settings, True)
    with pytest.raises(ValueError, match="as many hypotheses"):
        speedups.chrf_systems([["a"], ["a", "b"]], [("a",)], settings, True)
    with pytest.raises(TypeError):
        speedups.chrf_systems([["a"]], [("a",)], settings)


def test_chrf_systems_agreeing_on_a_segment_get_each_ones_rows() -> None:
    """A hypothesis equal to an earlier system's (the same object, an equal str) takes that row; a str
    subclass, whose lower() may differ, and unequal texts of the same length are read on their own."""
    speedups = pytest.importorskip("bleucli._speedups")

    class Shouting(str):
        def lower(self) -> str:
            return "x y z"

    texts = ["a b c", "".join(["a b", " c"]), "a b c", Shouting("a b c"), "A B C", "a b d", "", "", "a b c"]
    refs = [("a b c d", "x y z")]
    for options in ({}, {"lowercase": True}, {"word_order": 2}, {"lowercase": True, "word_order": 2}):
        settings = CHRF(**options)._compiled_settings  # type: ignore[arg-type]
        for rows in (0, 1, 2):
            expected = [speedups.chrf_statistics([t], refs, settings, rows) for t in texts]
            assert speedups.chrf_systems([[t] for t in texts], refs, settings, rows) == expected, (options, rows)
        # several segments, the agreements changing from one segment to the next
        columns = [texts, texts[::-1], texts[1:] + texts[:1]]
        segments = [("a b c d",), ("x y z", "a b"), ("A B C",), ("",), ("a b c",), ("a b d e",), ("q",),
                    ("a",), ("a b c",)]
        expected = [speedups.chrf_statistics(column, segments, settings, 1) for column in columns]
        assert speedups.chrf_systems(columns, segments, settings, 1) == expected


# -- random strings -------------------------------------------------------------------------


@pytest.mark.parametrize("alphabet", sorted(ALPHABETS))
@pytest.mark.parametrize("seed", slow_except(range(4), {0}))
def test_random_strings_of_every_alphabet(alphabet: str, seed: int, both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    rng = random.Random(f"{alphabet}{seed}")
    letters = ALPHABETS[alphabet] + ALPHABETS["ascii"][:4] * (alphabet == "whitespace")
    n = 60
    hyps = [_random_line(rng, letters, 40) for _ in range(n)]
    refs = [[_random_line(rng, letters, 40) for _ in range(n)] for _ in range(rng.choice([1, 2, 3]))]
    hyps[0], refs[0][0] = "", ""  # an empty hypothesis against an empty reference
    hyps[1] = "x" * 300  # a very long word
    refs[0][1] = "x" * 290 + " y"
    for options in (VARIANTS if seed == 0 else rng.sample(VARIANTS, 3)):
        compiled, python = both(**options)
        _same_everywhere(compiled, python, hyps, refs)


def test_whitespace_only_and_empty(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    hyps = ["", " ", "\t \u3000", "a", " a ", "..", "(hi)", "!"]
    refs = [["", "  ", " ", "", "a", "a.", "( hi )", "!!"], [" ", "", "\u2028", "a a", "", "", "", "!"]]
    for options in VARIANTS:
        compiled, python = both(**options)
        _same_everywhere(compiled, python, hyps, refs)


# -- hostile input --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["a\x00b\x00 c\x00", "\x00", "\ud800x\udfff \udc00.", "\ud83d\ude00 ok"],
                         ids=["nul", "only-nul", "lone-surrogates", "surrogate-pair-as-two"])
def test_nul_bytes_and_lone_surrogates_are_characters(text: str, both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    """The pure path treats both as characters like any other (Python strings hold them); so does C."""
    for options in VARIANTS[:6]:
        compiled, python = both(**options)
        _same_everywhere(compiled, python, [text, text[::-1], "x"], [[text, text, text + "\x00"]])


@pytest.mark.slow  # the pure path counts a megabyte's n-grams in dicts: seconds
def test_megabyte_lines(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefgh") for _ in range(rng.randrange(1, 9))) for _ in range(2000)]
    hyp = " ".join(rng.choice(words) for _ in range(200_000))[:1_000_000]
    ref = " ".join(rng.choice(words) for _ in range(200_000))[:1_000_000]
    compiled, python = both(word_order=2)
    assert len(hyp) == len(ref) == 1_000_000
    assert compiled.corpus_statistics([hyp, "a b"], [[ref, "a"]]) == python.corpus_statistics([hyp, "a b"],
                                                                                              [[ref, "a"]])


@pytest.mark.parametrize("count", slow_except([300, 3000], {300}))
def test_thousands_of_references(count: int, both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    rng = random.Random(2)
    refs = [_random_line(rng, ALPHABETS["ascii"], 30) for _ in range(count)]
    hyps = [_random_line(rng, ALPHABETS["ascii"], 30) for _ in range(5)]
    compiled, python = both(word_order=2)
    assert [compiled.sentence_score(h, refs).score for h in hyps] == [python.sentence_score(h, refs).score
                                                                       for h in hyps]
    assert compiled.corpus_statistics(hyps, [[r] * 5 for r in refs]) == \
        python.corpus_statistics(hyps, [[r] * 5 for r in refs])
    assert aggregate_chrf_scores(compiled, hyps, refs) == aggregate_chrf_scores(python, hyps, refs)


def test_bad_items_are_refused_as_the_pure_path_refuses_them(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    from bleucli.errors import BleucliError

    compiled, python = both()
    for metric in (compiled, python):
        with pytest.raises(BleucliError):
            metric.corpus_score(["a", 3], [["a", "b"]])  # type: ignore[list-item]
        with pytest.raises(BleucliError):
            metric.sentence_score("a", ["b", None])  # type: ignore[list-item]
        with pytest.raises(BleucliError):
            metric.sentence_score("a", [])
    kept = CHRF(references=[["a", "b"]])
    with pytest.raises(BleucliError, match="hypothesis 2"):
        kept.corpus_score(["a", b"b"])  # type: ignore[list-item]


def test_the_c_functions_refuse_what_they_cannot_read() -> None:
    speedups = pytest.importorskip("bleucli._speedups")
    settings = CHRF()._compiled_settings
    with pytest.raises(TypeError, match="hypothesis 1"):
        speedups.chrf_statistics([b"a"], [("a",)], settings, True)
    with pytest.raises(TypeError, match="reference"):
        speedups.chrf_statistics(["a"], [(None,)], settings, True)
    with pytest.raises(TypeError):
        speedups.chrf_statistics(["a"], ["a"], settings, True)  # a str is not a segment's references
    with pytest.raises(ValueError):
        speedups.chrf_statistics(["a"], [()], settings, True)
    with pytest.raises(ValueError):
        speedups.chrf_statistics(["a"], [], settings, True)
    with pytest.raises(TypeError):
        speedups.chrf_statistics(["a"], [("a",)], (6, 2), True)
    with pytest.raises(ValueError):
        speedups.chrf_pairwise(["a"], [], settings)
    with pytest.raises(ValueError):
        speedups.chrf_statistics(["a"], [("a",)], (-1, 2, 4.0, 5.0, False, False, False), True)


# -- sacreBLEU ------------------------------------------------------------------------------


@pytest.mark.parametrize("options", VARIANTS[:6], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "chrF2")
def test_oracle_on_random_and_real_segments(options: dict[str, Any], matcher: str) -> None:
    oracle = pytest.importorskip("sacrebleu.metrics")
    rng = random.Random(7)
    letters = ALPHABETS["latin"] + ALPHABETS["ascii"] + ALPHABETS["astral"]
    hyps = [_random_line(rng, letters, 30) for _ in range(40)]
    refs = [[_random_line(rng, letters, 30) or "x" for _ in range(40)]]
    name = CHRF_TER_SET
    hyps += list(hypotheses(name, system_name(system_paths(name)[0])))[:100]
    refs[0] += list(references(name)[0][:100])
    ours, theirs = CHRF(**options), oracle.CHRF(**options)
    assert ours.corpus_score(hyps, refs).score == theirs.corpus_score(hyps, refs).score
    assert [ours.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])] == \
        [theirs.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])]


# -- leaks ----------------------------------------------------------------------------------


def _traced_growth(run: Callable[[], Any], times: int) -> int:
    """Bytes still allocated after ``times`` more runs than a first warm-up batch left."""
    for _ in range(200):
        run()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(times):
            run()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("times", slow_except([5_000, 100_000], {5_000}))
def test_no_memory_is_kept_by_the_c_paths(times: int, both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    compiled, _ = both(word_order=2)
    hyp, refs = "Die Katze (sitzt) auf der Matte.", ["Eine Katze sitzt auf der Matte!", "Die Katze saß."]
    kept = CHRF(word_order=2, references=[[refs[0]] * 3])
    paths = {
        "sentence_score": lambda: compiled.sentence_score(hyp, refs),
        "sentence_scores": lambda: compiled.sentence_scores([hyp, hyp[::-1]], refs),
        "corpus_statistics": lambda: compiled.corpus_statistics([hyp, "x"], [refs[:2], ["y", "z"]]),
        "references=": lambda: kept.corpus_score([hyp, hyp.upper(), ""]),
        "pairwise": lambda: compiled.pairwise_scores([hyp, "x"], refs),
        "aggregate": lambda: aggregate_chrf_scores(compiled, [hyp, "x"], refs),
        "systems": lambda: compiled.chunk_rows([[hyp, "x"], ["x", hyp]], [tuple(refs), ("y", "z")]),
        "error": lambda: pytest.raises(TypeError, compiled._compiled_statistics, [hyp, 1], [refs, refs],
                                       compiled._compiled_settings, True),
    }
    for name, run in paths.items():
        growth = _traced_growth(run, times // 10 if name != "sentence_score" else times)
        assert growth < 16_384, (name, growth)


# -- the module's buffers, kept from call to call ----------------------------------------------


def test_alternating_options_and_paths_share_no_counts(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    """Every C function leaves the module's buffers empty: metrics with different options and the
    single-use, shared-reference and aggregation paths interleaved give each path's own numbers."""
    refs = references(CHRF_TER_SET)
    hyps = list(hypotheses(CHRF_TER_SET, system_name(system_paths(CHRF_TER_SET)[0])))[:40]
    pairs = [both(**options) for options in VARIANTS]
    expected = [([python.sentence_score(h, [r, hyps[-1 - i]]).score for i, (h, r) in enumerate(zip(hyps, refs[0]))],
                 python.sentence_scores(hyps, refs[0][:3]), python.pairwise_scores(hyps[:5], refs[0][:5]),
                 aggregate_chrf_scores(python, hyps[:5], refs[0][:3]), python.corpus_statistics(hyps, [refs[0][:40]]))
                for _, python in pairs]
    for step in range(len(hyps)):  # one call of each kind, metric after metric
        for (compiled, _), (scores, many, matrix, averaged, rows) in zip(pairs, expected):
            h, r = hyps[step], refs[0][step]
            assert compiled.sentence_score(h, [r, hyps[-1 - step]]).score == scores[step]
            if step % 10 == 0:
                assert compiled.sentence_scores(hyps, refs[0][:3]) == many
                assert compiled.pairwise_scores(hyps[:5], refs[0][:5]) == matrix
                assert aggregate_chrf_scores(compiled, hyps[:5], refs[0][:3]) == averaged
                assert compiled.corpus_statistics(hyps, [refs[0][:40]]) == rows


def test_calls_after_an_error_start_clean(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    """A call that fails halfway (a bad hypothesis after good ones, a bad reference after a long
    one) leaves nothing that changes the next call's numbers."""
    compiled, python = both(word_order=2)
    hyp, refs = "Die Katze (sitzt) auf der Matte.", ["Eine Katze sitzt auf der Matte!", "Die Katze saß."]
    expected = python.sentence_score(hyp, refs).score
    statistics, settings = compiled._compiled_statistics, compiled._compiled_settings
    for _ in range(3):
        with pytest.raises(TypeError):
            statistics([hyp, hyp, 1], [refs, refs, refs], settings, True)
        assert compiled.sentence_score(hyp, refs).score == expected
        with pytest.raises(TypeError):
            compiled._compiled_sentences([hyp, 2], [refs[0] * 50, refs[1]], settings)
        with pytest.raises(TypeError):
            compiled._compiled_pairwise([hyp], [refs[0] * 50, None], settings)
        with pytest.raises(TypeError):
            compiled._compiled_aggregate([hyp, None], refs, settings)
        assert compiled.sentence_score(hyp, refs).score == expected
        assert compiled.sentence_scores([hyp, hyp[::-1]], refs) == python.sentence_scores([hyp, hyp[::-1]], refs)


def test_huge_then_small_inputs_are_not_held(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    """After a huge segment the buffers it grew are freed (not kept for the calls after it), and the
    small segments after it still score as the pure path scores them."""
    compiled, python = both(word_order=2)
    rng = random.Random(7)
    huge = "".join(rng.choice("abcdefghij klmnop.,") for _ in range(300_000))
    small_hyp, small_refs = "Die Katze sitzt.", ["Die Katze saß auf der Matte."]
    expected = python.sentence_score(small_hyp, small_refs).score
    compiled.sentence_score(small_hyp, small_refs)  # the module's buffers exist
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert compiled.sentence_score(huge[:200_000], [huge[100_000:]]).score == \
            python.sentence_score(huge[:200_000], [huge[100_000:]]).score
        assert compiled.sentence_score(small_hyp, small_refs).score == expected
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 1 << 20, held  # the huge call's megabytes are gone, at most the kept megabyte remains


class _LoweredAgain(str):
    """A str whose lower() scores chrF itself: the inner call runs while the outer one holds the
    module's buffers, so it must take its own and leave the outer call's untouched."""

    metric: CHRF

    def lower(self) -> str:  # type: ignore[override]
        inner = self.metric.sentence_score("Der Hund bellt laut.", ["Ein Hund bellt."])
        self.metric.inner_scores.append(inner.score)  # type: ignore[attr-defined]
        return str.lower(self)


def test_a_call_made_during_a_call_takes_its_own_buffers(both: Callable[..., tuple[CHRF, CHRF]]) -> None:
    compiled, python = both(word_order=2, lowercase=True)
    _LoweredAgain.metric = compiled
    compiled.inner_scores = []  # type: ignore[attr-defined]
    hyps = ["Die Katze (sitzt) auf der Matte.", "Die KATZE saß.", "Übergrößenträger"]
    refs = ["Eine Katze sitzt auf der Matte!", "Die Katze saß auf der Matte."]
    tricky = [_LoweredAgain(h) for h in hyps]
    tricky_refs = [_LoweredAgain(r) for r in refs]
    assert compiled._compiled_sentences(tricky, tricky_refs, compiled._compiled_settings) == \
        [python.sentence_score(h, refs).score for h in hyps]
    assert compiled.corpus_statistics(tricky, [[tricky_refs[0]] * 3, [tricky_refs[1]] * 3]) == \
        python.corpus_statistics(hyps, [[refs[0]] * 3, [refs[1]] * 3])
    inner = python.sentence_score("Der Hund bellt laut.", ["Ein Hund bellt."]).score
    assert compiled.inner_scores and set(compiled.inner_scores) == {inner}  # type: ignore[attr-defined]


@pytest.mark.parametrize("refs", [[["a", "b"], ["c", None]], [["a"], ["b"]], [["a", "b"]], [["x", None], [None, "y"]],
                                  [[None, "x"], ["y", "z"], [None, None]], [[], []]])
def test_kept_references_count_as_count_references_counts(refs: list[list[str | None]], matcher: str) -> None:
    """nrefs of a metric built with references= (its signature's) is count_references', None entries
    dropped: a count when every segment has as many references, else var."""
    from bleucli.metrics.base import count_references
    assert CHRF(references=refs)._nrefs == count_references(refs)
