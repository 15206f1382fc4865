"""chrF/chrF++: sacreBLEU's test vectors, edge cases, options and signatures.

Vectors marked "sacreBLEU test" come from sacreBLEU's test/test_chrf.py (which
checks them at 1e-4); the others are oracle values frozen as exact floats.
Real-data goldens live in test_chrf_ter_golden.py.
"""

from __future__ import annotations

import pytest

from bleucli import CHRF, corpus_chrf, sentence_chrf
from bleucli.errors import OptionError
from bleucli.metrics.chrf import split_punctuation

# every test here runs with the compiled and with the pure-Python n-gram matcher
pytestmark = pytest.mark.usefixtures("matcher")

TOL = 1e-4  # sacreBLEU's own tolerance for these rounded vectors

# sacreBLEU test: beta=3, eps smoothing (hyps, one ref stream, expected)
EPS_CASES = [
    (["abcdefg"], ["hijklmnop"], 0.0),
    (["a"], ["b"], 0.0),
    ([""], ["b"], 0.0),
    ([""], ["ref"], 0.0),
    ([""], ["reference"], 0.0),
    (["aa"], ["ab"], 8.3333),
    (["a", "b"], ["a", "c"], 8.3333),
    (["a"], ["a"], 16.6667),
    (["a b c"], ["a b c"], 50.0),
    (["a b c"], ["abc"], 50.0),
    ([" risk assessment must be made of those who are qualified and expertise in the sector - "
      "these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - "
      "that is the scientists ."],
     63.361730),
    ([" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."], 64.1302698),
    (["Niemand hat die Absicht, eine Mauer zu errichten"], ["Niemand hat die Absicht, eine Mauer zu errichten"], 100.0),
]

# sacreBLEU test: beta=3, effective order (the default)
EFF_CASES = [
    (["a"], ["a"], 100.0),
    ([""], ["reference"], 0.0),
    (["a b c"], ["a b c"], 100.0),
    (["a b c"], ["abc"], 100.0),
    ([""], ["c"], 0.0),
    (["a", "b"], ["a", "c"], 50.0),
    (["aa"], ["ab"], 25.0),
]

# sacreBLEU test: beta=3, whitespace kept
WHITESPACE_CASES = [
    (["Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."], 67.3481606),
    (["risk assessment must be made of those who are qualified and expertise in the sector - "
      "these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - "
      "that is the scientists ."],
     65.2414427),
]

# sacreBLEU test: sentence_chrf with eps smoothing (beta 2)
SENTENCE_CASES = [
    ("Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
     ["Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře."], 39.14078509),
    ("Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
     ["A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři."], 31.22557079),
    ("Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
     ["Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli."], 57.15704367),
]


@pytest.mark.parametrize("hyps, refs, expected", EPS_CASES)
def test_eps_smoothing_vectors(hyps, refs, expected):
    score = corpus_chrf(hyps, [refs], char_order=6, word_order=0, beta=3, eps_smoothing=True).score
    assert abs(score - expected) < TOL


@pytest.mark.parametrize("hyps, refs, expected", EFF_CASES)
def test_effective_order_vectors(hyps, refs, expected):
    score = corpus_chrf(hyps, [refs], char_order=6, word_order=0, beta=3, eps_smoothing=False).score
    assert abs(score - expected) < TOL


@pytest.mark.parametrize("hyps, refs, expected", WHITESPACE_CASES)
def test_keep_whitespace_vectors(hyps, refs, expected):
    score = corpus_chrf(hyps, [refs], char_order=6, word_order=0, beta=3, remove_whitespace=False).score
    assert abs(score - expected) < TOL


@pytest.mark.parametrize("hyp, refs, expected", SENTENCE_CASES)
def test_sentence_chrf_vectors(hyp, refs, expected):
    assert abs(sentence_chrf(hyp, refs, eps_smoothing=True).score - expected) < TOL


README_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
README_REFS = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
               ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]


@pytest.mark.parametrize("options, expected, name, signature", [
    # oracle values (sacreBLEU 2.6.0), exact floats
    ({}, 59.72751782684763, "chrF2", "nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no"),
    ({"eps_smoothing": True}, 59.72734693786311, "chrF2", "nrefs:2|case:mixed|eff:no|nc:6|nw:0|space:no"),
    ({"word_order": 2}, 59.15310444399262, "chrF2++", "nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no"),
    ({"whitespace": True}, 65.8764867358276, "chrF2", "nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:yes"),
    ({"lowercase": True}, 60.02302725455764, "chrF2", "nrefs:2|case:lc|eff:yes|nc:6|nw:0|space:no"),
    ({"beta": 3, "word_order": 1}, 60.987024357372036, "chrF3+",
     "nrefs:2|case:mixed|eff:yes|nc:6|nw:1|space:no|beta:3"),
])
def test_readme_corpus(options, expected, name, signature):
    score = CHRF(**options).corpus_score(README_HYPS, README_REFS)
    assert score.score == expected
    assert score.name == name
    assert score.signature.format().rsplit("|version:", 1)[0] == signature
    assert score.format(signature=score.signature).startswith(f"{name}|{signature}|version:")
    assert score.format(width=1, score_only=True) == f"{expected:.1f}"
    assert score.format() == f"{name} = {expected:.2f}"  # sacreBLEU's Score.format defaults


def test_sentence_level_identity_and_eps():
    assert CHRF().sentence_score("a", ["a"]).score == 100.0
    assert abs(CHRF(eps_smoothing=True).sentence_score("a", ["a"]).score - 100 / 6) < 1e-12


def test_best_reference_is_the_highest_f_and_first_wins_ties():
    metric = CHRF()
    # the second reference matches exactly: its statistics are kept
    stats = metric.corpus_statistics(["abc"], [["xyz"], ["abc"]])[0]
    assert stats[:3] == [3, 3, 3]
    # beta 1 makes F symmetric in P and R: P=0.5,R=1 ties with P=1,R=0.5; the first reference wins
    tied = CHRF(char_order=1, beta=1)
    assert tied.corpus_statistics(["aabb"], [["ab"], ["aabbxxxx"]])[0] == [4, 2, 2]
    assert tied.corpus_statistics(["aabb"], [["aabbxxxx"], ["ab"]])[0] == [4, 8, 4]


def test_hyp_count_is_zero_when_the_reference_has_no_ngrams_of_that_order():
    # reference "ab" has no 3..6-grams: the hypothesis counts of those orders are reported as 0
    stats = CHRF().corpus_statistics(["abcdef"], [["ab"]])[0]
    assert stats == [6, 2, 2, 5, 1, 1] + [0, 0, 0] * 4


def test_empty_reference_and_empty_hypothesis():
    assert CHRF().corpus_statistics([""], [[""]])[0] == [0, 0, 0] * 6
    assert CHRF().corpus_score([""], [[""]]).score == 0.0
    assert CHRF(eps_smoothing=True).corpus_score(["abc"], [[""]]).score == pytest.approx(0.0, abs=1e-12)


def test_whitespace_handling():
    # without whitespace the n-grams cross word boundaries; with it, spaces are characters
    assert CHRF().corpus_statistics(["a b"], [["ab"]])[0][:6] == [2, 2, 2, 1, 1, 1]
    assert CHRF(whitespace=True).corpus_statistics([" a b"], [["ab"]])[0][:6] == [4, 2, 2, 3, 1, 0]


@pytest.mark.parametrize("text, words", [
    ("Hello, world!", ["Hello", ",", "world", "!"]),
    ("(hi)", ["(hi", ")"]),            # one split per word (sacreBLEU #124)
    ("'quoted", ["'", "quoted"]),
    ("a . b", ["a", ".", "b"]),          # single characters are left alone
    ("«non-ascii»", ["«non-ascii»"]),   # only ASCII punctuation is split
    ("", []),
])
def test_chrf_plus_punctuation_split(text, words):
    assert split_punctuation(text) == words


def test_word_ngrams_follow_the_punctuation_split():
    # word unigrams of "Hello, world!" are Hello , world ! (4); none of its 3 bigrams is "Hello world"
    stats = CHRF(char_order=0, word_order=2).corpus_statistics(["Hello, world!"], [["Hello world"]])[0]
    assert stats == [4, 2, 2, 3, 1, 0]
    assert CHRF(char_order=0, word_order=2).name == "chrF2++"


def test_word_ngrams_clipped_at_every_order():
    # the hypothesis repeats each word n-gram more often than the reference: a b c x3 vs x2,
    # a b / b c x3 vs x2, a b c x3 vs x2 (statistics and score frozen from sacreBLEU 2.6.0)
    metric = CHRF(char_order=0, word_order=3)
    hyp, ref = "a b c a b c a b c", "a b c x a b c"
    assert metric.corpus_statistics([hyp], [[ref]])[0] == [9, 7, 6, 8, 6, 4, 7, 5, 2]
    assert metric.corpus_score([hyp], [[ref]]).score == 60.21776526702634


def test_lowercase():
    assert CHRF(lowercase=True).corpus_score(["ABC"], [["abc"]]).score == 100.0
    assert CHRF().corpus_score(["ABC"], [["abc"]]).score == 0.0


@pytest.mark.parametrize("options, message", [
    ({"beta": 0}, "beta"),
    ({"beta": -1}, "beta"),
    ({"beta": 2.5}, "beta"),
    ({"beta": True}, "beta"),
    ({"char_order": -1}, "character order"),
    ({"char_order": 0}, "character order"),
    ({"char_order": "6"}, "character order"),
    ({"word_order": -1}, "word order"),
    ({"word_order": 1.0}, "word order"),
])
def test_bad_options(options, message):
    with pytest.raises(OptionError, match=message):
        CHRF(**options)


def test_signature_carries_beta_only_when_not_two():
    assert "beta" not in CHRF(references=[["a"]]).signature().to_dict()
    sig = CHRF(beta=1, references=[["a"]]).signature()
    assert sig.to_dict()["beta"] == "1"
    assert sig.format(short=True).rsplit("|v:", 1)[0] == "#:1|c:mixed|e:yes|nc:6|nw:0|s:no|b:1"


def test_score_from_summed_float_statistics():
    """Significance tests sum statistics with numpy: floats must give the same score."""
    np = pytest.importorskip("numpy")
    metric = CHRF(word_order=2)
    rows = metric.corpus_statistics(README_HYPS, README_REFS)
    summed = np.asarray(rows, dtype=float).sum(axis=0)
    result = metric.score_from_statistics(summed)
    assert result.score == metric.corpus_score(README_HYPS, README_REFS).score
    assert type(result.score) is float
    assert metric.score_from_statistics(metric.aggregate(rows)).score == result.score


def test_wrong_statistics_length_is_refused():
    metric = CHRF(references=[["a"]])
    with pytest.raises(ValueError):
        metric.score_from_statistics([1, 2, 3])


def test_cached_references_give_the_same_score():
    cached = CHRF(word_order=2, references=README_REFS)
    assert cached.corpus_score(README_HYPS).score == CHRF(word_order=2).corpus_score(README_HYPS, README_REFS).score


def test_to_dict():
    data = CHRF(word_order=2).corpus_score(README_HYPS, README_REFS).to_dict()
    assert data["name"] == "chrF2++"
    assert data["score"] == 59.15310444399262
    assert data["signature"].startswith("nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:")
    assert (data["char_order"], data["word_order"], data["beta"], data["nrefs"]) == (6, 2, 2, "2")
    assert data["signature_fields"]["nw"] == "2"


def _counted_char_matches(hyp: str, ref: str, max_order: int) -> list[int]:
    """The definition: sum over n-grams of min(count in hypothesis, count in reference), overlaps included."""
    from collections import Counter

    result = []
    for n in range(2, max_order + 1):
        hyp_counts = Counter(hyp[i:i + n] for i in range(len(hyp) - n + 1))
        ref_counts = Counter(ref[i:i + n] for i in range(len(ref) - n + 1))
        result.append(sum(min(count, ref_counts[gram]) for gram, count in hyp_counts.items()))
    return result


@pytest.mark.parametrize("seed", range(10))
def test_string_matches_equal_counting(seed):
    """The substring-search path against plain counting, on tiny alphabets full of repeats and overlaps."""
    import random

    from bleucli.metrics.chrf import string_matches

    rng = random.Random(seed)
    for _ in range(2000):
        hyp = "".join(rng.choice("aab"[: rng.randint(1, 3)]) for _ in range(rng.randint(0, 16)))
        ref = "".join(rng.choice("abc"[: rng.randint(1, 3)]) for _ in range(rng.randint(0, 16)))
        order = min(rng.randint(1, 7), len(ref))
        assert string_matches(hyp, ref, order) == _counted_char_matches(hyp, ref, order), (hyp, ref, order)
