"""The compiled tokenizers and BLEU's compiled chunk path (bleucli/_speedups.c) against Python.

``tokenize(line, "13a")`` must give exactly the tokens of
:class:`bleucli.tokenizers.tok_13a.Tokenizer13a` (itself checked against
sacreBLEU and against mteval-v13a's four substitutions in
``test_mteval_rules.py``), and likewise for intl, zh and char; ``bleu_statistics``
exactly the statistics rows of the pure-Python BLEU. Checked on every line of the
test data (one set in the fast subset, all of them in the full run), on random
text made of the characters the rules look at (digits, ``.``, ``,``, ``-``, every
ASCII punctuation mark, Unicode punctuation and symbols, entities,
``<skipped>``, newlines, tabs, NBSP and other Unicode spaces, astral
characters, a lone surrogate; for zh also the first and last code point of
every Chinese range and their neighbours outside it), and against the
substitutions themselves on every short string.
"""

from __future__ import annotations

import itertools
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import datasets
from bleucli.metrics.bleu import BLEU
from bleucli.metrics.compiled import PURE_PYTHON_VARIABLE, compiled_matcher
from bleucli.tokenizers.tok_13a import Tokenizer13a
from bleucli.tokenizers.tok_char import CharTokenizer
from bleucli.tokenizers.tok_intl import TokenizerIntl, unicode_classes
from bleucli.tokenizers.tok_zh import CHINESE_RANGES, TokenizerZh
from fast_subset import BLEU_SET, slow_except
from test_mteval_rules import by_the_rules

speedups = compiled_matcher()
pytestmark = pytest.mark.skipif(speedups is None, reason="the C extension (bleucli._speedups) is not built")

PYTHON = {"13a": Tokenizer13a(), "intl": TokenizerIntl(), "zh": TokenizerZh(), "char": CharTokenizer()}
PYTHON_13A = PYTHON["13a"]
if speedups is not None:
    BLEU(tokenize="intl")  # installs intl's classes in the extension
    BLEU(tokenize="zh")  # and zh's ranges

#: What 13a's rules look at, and what could trip a C reimplementation of them.
PIECES = [
    *"ab19.,-$(' \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2009\u3000&;<>\"",
    "\u00e9", "\u65e5", "\u0663", "\u3002", "\u2013", "\u00bf", "\u20ac", "\U0001F600", "\U00010400", "\ud800",
    "&amp;", "&quot;", "&lt;", "&gt;", "&#39;", "&apos;", "<skipped>", "-\n", "&amp;lt;", "<skip", "ped>",
    # intl's classes: Unicode punctuation (\p{P}), symbols (\p{S}) and numbers (\p{N}), some astral
    "\u066b", "\u2460", "\u00b2", "\u00bd", "\u2e2e", "\u3001", "\uff0c", "\U0001D7D9", "\U0001144B", "\U0001F4A9",
    *(chr(c) for c in range(33, 127)),
]

#: zh's ranges: each one's first and last code points, one inside, and the neighbours just outside
#: (some of them in another range); the real astral CJK blocks the malformed entries miss; more
#: whitespace (U+2001..U+200A, U+2028, U+205F and U+3000 are in the ranges too), full-width digits
#: and punctuation; and what zh's missing padding changes at the line's edges (a leading ".5", a final "1.").
ZH_PIECES = [
    *PIECES, ".5", " .5", "\u3000,5", "2019.", "1.", "1,", "1-", " \u4e2d.5", "\t.",
    *(chr(code) for start, end in CHINESE_RANGES for code in (start - 1, start, (start + end) // 2, end, end + 1)),
    "\U00020000", "\U0002A6D6", "\U0002F800", "\U0002FA1D", "\u2001", "\u2028", "\u2029", "\u205f", "\u3000",
    "\uff10", "\uff0e", "\uff0c", "\uff0d", "\u3002", "\u4e2d", "\u6587", "\udfff", "\x00", "\t",
]
#: char's tokens are characters: whitespace of every kind, and characters of every width.
CHAR_PIECES = [*PIECES, "\u2028", "\u2029", "\u205f", "\u1680", "\u180e", "\u200b", "\ufeff", "\x00", "\udfff",
               "\U0010FFFF", "\u4e2d"]
PIECES_OF = {"13a": PIECES, "intl": PIECES, "zh": ZH_PIECES, "char": CHAR_PIECES}


def random_lines(seed: int, count: int, longest: int = 24, pieces: list[str] = PIECES) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(0, longest))) for _ in range(count)]


@pytest.mark.parametrize("tokenizer", ["13a", "intl", "zh", "char"])
def test_on_random_text(tokenizer: str) -> None:
    mismatches = [line for line in random_lines(20261124, 20_000, pieces=PIECES_OF[tokenizer])
                  if speedups.tokenize(line, tokenizer) != PYTHON[tokenizer].tokens(line)]
    assert mismatches == []


@pytest.mark.slow  # 400,000 random lines each
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("tokenizer", ["13a", "intl", "zh", "char"])
def test_on_much_random_text(tokenizer: str, seed: int) -> None:
    mismatches = [line for line in random_lines(seed, 200_000, 40, PIECES_OF[tokenizer])
                  if speedups.tokenize(line, tokenizer) != PYTHON[tokenizer].tokens(line)]
    assert mismatches == []


@pytest.mark.parametrize("separator", ["a", pytest.param("1.", marks=pytest.mark.slow)])
def test_zh_ranges_are_the_python_ones_on_every_code_point(separator: str) -> None:
    """The table made from CHINESE_RANGES: every code point (surrogates included) between letters
    (the fast path), or between "1." (a digit touches a period: the rules' path)."""
    line = separator.join(map(chr, range(0x110000)))
    assert speedups.tokenize(line, "zh") == PYTHON["zh"].tokens(line)


def test_zh_ranges_are_checked() -> None:
    """Bad ranges are refused before anything changes (the ranges installed stay)."""
    with pytest.raises(ValueError, match="pairs"):
        speedups.set_zh_ranges([(0x4E00,)])
    with pytest.raises(ValueError, match="first <= last"):
        speedups.set_zh_ranges([(0x4E00, 0x4DFF)])
    with pytest.raises(ValueError, match="first <= last"):
        speedups.set_zh_ranges([(0x2E, 0x4E00)])  # ASCII: its periods and digits are never Chinese
    with pytest.raises(ValueError, match="first <= last"):
        speedups.set_zh_ranges([(0x4E00, 0x110000)])
    with pytest.raises(TypeError):
        speedups.set_zh_ranges([("a", "b")])
    assert speedups.tokenize("\u4e2d\u6587", "zh") == ["\u4e2d", "\u6587"]


def test_intl_classes_are_regex_classes() -> None:
    """Spot checks of the table against ``regex`` itself, astral planes and surrogates included."""
    import regex

    table = unicode_classes()
    rng = random.Random(5)
    for code in [*rng.sample(range(0x110000), 3000), 0x2E, 0x24, 0x31, 0xD800, 0x1D7D9, 0x1144B, 0x1F4A9]:
        char = chr(code)
        expected = (bool(regex.match(r"\p{P}", char)) | bool(regex.match(r"\p{S}", char)) << 1
                    | bool(regex.match(r"\p{N}", char)) << 2)
        assert table[code] == expected, hex(code)


def test_intl_classes_are_checked() -> None:
    with pytest.raises(ValueError, match="one per code point"):
        speedups.set_intl_classes(b"\x00" * 10)
    with pytest.raises(ValueError, match="class bits"):
        speedups.set_intl_classes(b"\x08" * 0x110000)


@pytest.mark.slow  # every string of up to 6 characters out of 7, against the substitutions themselves
def test_13a_is_the_rules_on_every_short_string() -> None:
    strings = ("".join(chars) for n in range(7) for chars in itertools.product("a1.,-$ ", repeat=n))
    mismatches = [text for text in strings if speedups.tokenize(text, "13a") != by_the_rules(f" {text} ").split()]
    assert mismatches == []


def test_none_is_a_whitespace_split() -> None:
    for line in random_lines(7, 5_000):
        assert speedups.tokenize(line, "none") == line.split()


@pytest.mark.slow  # every string of up to 6 characters out of 8
def test_zh_is_the_rules_on_every_short_string() -> None:
    """zh by its definition: strip, a space each side of a Chinese character, the four substitutions
    without 13a's padding (a leading ".5" and a final "1." stay whole)."""
    strings = ("".join(chars) for n in range(7) for chars in itertools.product("a1.,-$ \u4e2d", repeat=n))
    mismatches = [text for text in strings if speedups.tokenize(text, "zh")
                  != by_the_rules(text.strip().replace("\u4e2d", " \u4e2d ")).split()]
    assert mismatches == []


def test_tokens_13a_is_tokenize() -> None:
    for line in random_lines(8, 1_000):
        assert speedups.tokens_13a(line) == speedups.tokenize(line, "13a")
    for line in random_lines(8, 1_000, pieces=ZH_PIECES):
        assert speedups.tokens_zh(line) == speedups.tokenize(line, "zh")


@pytest.mark.parametrize("tokenizer", ["13a", "intl", "zh", "char"])
@pytest.mark.parametrize("name", slow_except(datasets.sets(), {BLEU_SET}))
def test_every_line_of_the_data(name: str, tokenizer: str) -> None:
    lines = [line for paths in (datasets.reference_paths(name), datasets.system_paths(name))
             for path in paths for line in datasets.read(path)]
    assert lines
    mismatches = [line for line in lines if speedups.tokenize(line, tokenizer) != PYTHON[tokenizer].tokens(line)]
    assert mismatches == []


def test_zh_on_chinese_references() -> None:
    """The fast subset's zh on Chinese text (the full run has every line of every set)."""
    lines = [line for path in datasets.reference_paths("wmt22-en-zh") for line in datasets.read(path)]
    assert len(lines) > 1000
    mismatches = [line for line in lines if speedups.tokenize(line, "zh") != PYTHON["zh"].tokens(line)]
    assert mismatches == []


def python_bleu(monkeypatch: pytest.MonkeyPatch, **options: object) -> BLEU:
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    metric = BLEU(**options)  # type: ignore[arg-type]
    monkeypatch.delenv(PURE_PYTHON_VARIABLE)
    return metric


@pytest.mark.parametrize("tokenize", ["13a", "intl", "none", "zh", "char"])
@pytest.mark.parametrize("lowercase, ref_length", [(False, "closest"), (True, "shortest")])
def test_statistics_equal_pure_python_on_random_segments(
    monkeypatch: pytest.MonkeyPatch, tokenize: str, lowercase: bool, ref_length: str
) -> None:
    """Several references of every length (repeats make clipping matter), every order up to 6."""
    rng = random.Random(hash((tokenize, lowercase)) & 0xFFFF)
    words = ["a", "b", "A", "b.", "1,5", "x-1", "\u00c9t\u00e9", "\u0130", "&amp;", "\U0001F600", "c", "d", "\u00bfy?",
             "\u20ac5", "\u00b2.", "\u4e2d\u6587", "\u4e2d", "2019\u5e74.", ".5", "\uff21\uff42", "\u3000"]

    def line() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))

    for max_order in (1, 2, 4, 6):
        ours = BLEU(tokenize=tokenize, lowercase=lowercase, ref_length=ref_length, max_ngram_order=max_order)
        theirs = python_bleu(monkeypatch, tokenize=tokenize, lowercase=lowercase, ref_length=ref_length,
                             max_ngram_order=max_order)
        assert ours._compiled_statistics is not None and theirs._compiled_statistics is None
        hyps = [line() for _ in range(300)]
        refs = [tuple(line() for _ in range(rng.randint(1, 4))) for _ in hyps]
        expected = [theirs.single_use_statistics(h, r) for h, r in zip(hyps, refs)]
        assert [ours.single_use_statistics(h, r) for h, r in zip(hyps, refs)] == expected
        assert ours.chunk_rows([hyps, hyps[::-1]], refs) == [expected, theirs.chunk_rows([hyps[::-1]], refs)[0]]
        summed = ours.chunk_statistics([hyps], refs)[0]
        assert list(summed.values) == [sum(column) for column in zip(*expected)]
        assert summed.segments == len(hyps)


def test_statistics_on_real_multi_reference_data(monkeypatch: pytest.MonkeyPatch) -> None:
    refs = datasets.references("wmt21-en-de")
    hyps = next(iter(datasets.systems("wmt21-en-de").values()))
    segments = list(zip(*refs))
    theirs = python_bleu(monkeypatch)
    ours = BLEU()
    expected = [theirs.single_use_statistics(h, r) for h, r in zip(hyps, segments)]
    assert ours.chunk_rows([hyps], segments) == [expected]


def test_bad_arguments_are_errors_not_crashes() -> None:
    statistics = speedups.bleu_statistics
    with pytest.raises(TypeError, match="must be a str"):
        statistics([b"a"], [("a",)], "13a", 4, False, False, True)
    with pytest.raises(TypeError, match="must be a str"):
        statistics(["a"], [(None,)], "13a", 4, False, False, True)
    with pytest.raises(TypeError, match="must be a sequence"):
        statistics(["a"], [1], "13a", 4, False, False, True)
    with pytest.raises(ValueError, match="one sequence of references per hypothesis"):
        statistics(["a", "b"], [("a",)], "13a", 4, False, False, True)
    with pytest.raises(ValueError, match="'13a', 'intl', 'zh', 'char' and 'none'"):
        statistics(["a"], [("a",)], "ja-mecab", 4, False, False, True)
    with pytest.raises(ValueError, match="max_order"):
        statistics(["a"], [("a",)], "13a", -1, False, False, True)
    with pytest.raises(TypeError, match="must be a str"):
        speedups.tokenize(3, "13a")
    assert statistics([], [], "13a", 4, False, False, False) == [0] * 10
    assert statistics(["a"], [()], "13a", 2, False, False, True) == [[1, -1, 0, 0, 1, 0]]


@pytest.mark.parametrize("smooth_method, smooth_value", [("exp", None), ("floor", 0.1), ("floor", 0), ("none", None),
                                                         ("floor", 3)])
@pytest.mark.parametrize("effective_order", [True, False])
def test_sentence_scores_equal_pure_python(monkeypatch: pytest.MonkeyPatch, smooth_method: str,
                                           smooth_value: float | None, effective_order: bool) -> None:
    """``bleu_sentence`` does _bleu's arithmetic in C: every float of the result must be Python's."""
    rng = random.Random(20261124)
    words = ["a", "b", "c", "d", "e", "f", "a.", "1,5"]
    for max_order in (1, 2, 4, 6):
        options = dict(smooth_method=smooth_method, smooth_value=smooth_value, effective_order=effective_order,
                       max_ngram_order=max_order)
        ours, theirs = BLEU(**options), python_bleu(monkeypatch, **options)  # type: ignore[arg-type]
        assert ours._compiled_sentence is not None and theirs._compiled_sentence is None
        for _ in range(300):
            hyp = " ".join(rng.choice(words) for _ in range(rng.randint(0, 9)))
            refs = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 9))) for _ in range(rng.randint(1, 3))]
            with pytest.warns() if not effective_order else _no_warning():
                mine, expected = ours.sentence_score(hyp, refs), theirs.sentence_score(hyp, refs)
            assert mine.__dict__ == expected.__dict__, (hyp, refs)
            assert [type(v) for v in mine.__dict__.values()] == [type(v) for v in expected.__dict__.values()]
        batch = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 9))) for _ in range(50)]
        assert [s.__dict__ for s in ours.sentence_scores(batch, refs)] == \
            [s.__dict__ for s in theirs.sentence_scores(batch, refs)]


@pytest.mark.parametrize("tokenize", ["zh", "char"])
def test_zh_and_char_sentence_scores_equal_pure_python(monkeypatch: pytest.MonkeyPatch, tokenize: str) -> None:
    """``bleu_sentence`` and ``sentence_scores`` tokenize zh and char in C too: every field is Python's."""
    rng = random.Random(23)
    words = ["\u4e2d", "\u6587\u5b57", "a", "b.", "2019.", ".5", "\uff0c", "1-2", "\u3000", "\U00020000"]

    def line() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, 9)))

    ours, theirs = BLEU(tokenize=tokenize, effective_order=True), python_bleu(
        monkeypatch, tokenize=tokenize, effective_order=True)
    assert ours._compiled_sentence is not None and theirs._compiled_sentence is None
    for _ in range(300):
        hyp, refs = line(), [line() for _ in range(rng.randint(1, 3))]
        assert ours.sentence_score(hyp, refs).__dict__ == theirs.sentence_score(hyp, refs).__dict__, (hyp, refs)
    batch = [line() for _ in range(50)]
    assert [s.__dict__ for s in ours.sentence_scores(batch, refs)] == \
        [s.__dict__ for s in theirs.sentence_scores(batch, refs)]


@pytest.mark.parametrize("tokenize", ["13a", "intl", "none", "zh", "char"])
def test_sentence_scores_tokenize_the_references_once_and_score_as_one_by_one(
        monkeypatch: pytest.MonkeyPatch, tokenize: str) -> None:
    """``bleu_sentences`` keeps the references' tokens for the whole batch and replaces only the hypothesis'
    tokens each time: long and short hypotheses in turn (the arena cut back to the references), several
    reference sets, closest and shortest reference length, lowercasing: all as one call per sentence and as
    pure Python."""
    rng = random.Random(7)
    words = ["Der", "der", "HUND", "a", "b.", "1,5", "2019.", "\u4e2d", "\u6587", "x-1", "&amp;"]

    def line(longest: int) -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, longest)))

    for options in ({}, {"lowercase": True}, {"ref_length": "shortest"}, {"max_ngram_order": 2}):
        ours = BLEU(tokenize=tokenize, effective_order=True, **options)  # type: ignore[arg-type]
        theirs = python_bleu(monkeypatch, tokenize=tokenize, effective_order=True, **options)
        assert ours._compiled_sentences is not None and theirs._compiled_sentences is None
        for _ in range(20):
            refs = [line(12) for _ in range(rng.randint(1, 4))]
            batch = [line(40) if k % 2 else line(3) for k in range(rng.randint(0, 12))]
            expected = [s.__dict__ for s in theirs.sentence_scores(batch, refs)]
            assert [s.__dict__ for s in ours.sentence_scores(batch, refs)] == expected, (batch, refs)
            assert [ours.sentence_score(h, refs).__dict__ for h in batch] == expected


def test_bleu_sentences_is_bleu_sentence_for_each_hypothesis_and_fails_cleanly() -> None:
    if speedups is None:
        pytest.skip("the compiled extension is not built")
    settings = ("13a", 4, False, False, "exp", None, True)
    hyps, refs = ["a b c d", "", "a b", "c d e f g h i j"], ["a b c d e", "a c"]
    assert speedups.bleu_sentences(hyps, refs, *settings) == [speedups.bleu_sentence(h, refs, *settings) for h in hyps]
    assert speedups.bleu_sentences(tuple(hyps), refs, *settings) == speedups.bleu_sentences(hyps, refs, *settings)
    assert speedups.bleu_sentences([], refs, *settings) == []
    with pytest.raises(TypeError, match="must be a str"):
        speedups.bleu_sentences(["a", 3], refs, *settings)
    with pytest.raises(TypeError, match="hypotheses must be a sequence"):
        speedups.bleu_sentences(3, refs, *settings)
    with pytest.raises(TypeError, match="references must be a sequence"):
        speedups.bleu_sentences(["a"], 3, *settings)
    with pytest.raises(ValueError, match="smooths with"):
        speedups.bleu_sentences(["a"], refs, "13a", 4, False, False, "add-k", None, True)
    with pytest.raises(TypeError, match="bleu_sentences"):
        speedups.bleu_sentences(["a"], refs)


class _no_warning:
    def __enter__(self) -> None:
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, *exc: object) -> None:
        self._catch.__exit__(*exc)


def test_add_k_sentences_stay_in_python() -> None:
    assert BLEU(smooth_method="add-k")._compiled_sentence is None
    assert BLEU(smooth_method="add-k", effective_order=True).sentence_score("a b", ["a b c"]).counts == [2, 2, 1, 1]


class _Reentrant(str):
    """A str whose lower() scores another sentence: the C buffers of the outer call must not be reused."""

    def lower(self) -> str:  # type: ignore[override]
        assert speedups.bleu_statistics(["x y z"], [("x y z w",)], "13a", 4, False, False, False) == \
            [3, 4, 3, 2, 1, 0, 3, 2, 1, 0]
        return str(self).lower()


def test_a_call_made_during_a_call_has_its_own_buffers() -> None:
    hyps = ["The cat sat on the mat .", "A dog ."]
    refs = [(_Reentrant("The cat is on the mat ."),), (_Reentrant("A dog barks ."),)]
    expected = speedups.bleu_statistics(hyps, [tuple(map(str, r)) for r in refs], "13a", 4, True, False, True)
    assert speedups.bleu_statistics(hyps, refs, "13a", 4, True, False, True) == expected
    assert speedups.tokenize(_Reentrant("A b"), "13a") == ["A", "b"]


@pytest.mark.slow  # a fresh interpreter
@pytest.mark.parametrize("tokenize", ["intl", "zh"])
def test_a_pickled_metric_scores_in_a_fresh_process(tmp_path: Path, tokenize: str) -> None:
    """Workers that unpickle a metric (dask, spawn) never ran its constructor: the extension there
    must still get intl's classes or zh's ranges."""
    path = tmp_path / "metric.pickle"
    path.write_bytes(pickle.dumps(BLEU(tokenize=tokenize)))
    hyps, refs = ["Hello, world\u3001 3.5!\u4e2d\u6587"], [["Hello world\u3001 3.5 !\u4e2d"]]
    expected = BLEU(tokenize=tokenize).corpus_score(hyps, refs).score
    code = ("import pickle, sys; metric = pickle.loads(open(sys.argv[1], 'rb').read()); "
            f"print(repr(metric.corpus_score({hyps!r}, {refs!r}).score))")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == repr(expected)


@pytest.mark.parametrize("tokenize", ["13a", "intl", "none", "zh", "char"])
def test_references_kept_as_text_score_as_python(monkeypatch: pytest.MonkeyPatch, tokenize: str) -> None:
    """``references=`` with a compiled tokenizer keeps the text and scores chunks in C: more
    segments than a chunk, several references (one missing in places), lowercase."""
    from bleucli.engine.executor import CHUNK_SEGMENTS
    from bleucli.errors import InputError, LengthMismatchError

    rng = random.Random(11)
    words = ["a", "B", "b.", "1,5", "\u00c9t\u00e9", "c", "d", "\u00bfy?", "\u4e2d\u6587", "2019."]

    def line() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, 8)))

    count = CHUNK_SEGMENTS + 500
    refs = [[line() for _ in range(count)], [line() if i % 7 else None for i in range(count)]]
    hyps = [line() for _ in range(count)]
    ours = BLEU(tokenize=tokenize, lowercase=True, references=refs)
    theirs = python_bleu(monkeypatch, tokenize=tokenize, lowercase=True, references=refs)
    assert ours.corpus_statistics(hyps) == theirs.corpus_statistics(hyps)
    assert ours.corpus_score(hyps).__dict__ == theirs.corpus_score(hyps).__dict__
    # the kept text also follows the protocol of every kind of reference data (lengths, matches)
    kept = ours._ref_cache
    assert kept is not None and theirs._ref_cache is not None
    assert [ours.segment_statistics(h, info) for h, info in zip(hyps[:200], kept)] == \
        [theirs.segment_statistics(h, info) for h, info in zip(hyps[:200], theirs._ref_cache)]
    with pytest.raises(InputError, match=f"hypothesis {count} is int"):
        ours.corpus_score([*hyps[:-1], 3])
    with pytest.raises(LengthMismatchError):
        ours.corpus_score(hyps[:-1])


def test_sentence_path_signature_follows_the_configuration() -> None:
    """The sentence path keeps its signature per reference count; a change of configuration drops it."""
    metric = BLEU(effective_order=True)
    one = metric.sentence_score("a b c", ["a b d"])
    two = metric.sentence_score("a b c", ["a b d", "a c"])
    assert str(one.signature) == str(metric.signature(1)) and "nrefs:1" in str(one.signature)
    assert str(two.signature) == str(metric.signature(2)) and "nrefs:2" in str(two.signature)
    assert metric.sentence_scores(["a b c"], ["a b d"])[0].signature is metric.sentence_score("a", ["a"]).signature
    metric.signature_fields = {"test": "t1"}  # as the CLI's options do after construction
    assert "test:t1" in str(metric.sentence_score("a b c", ["a b d"]).signature)
    assert "test:t1" in str(metric.sentence_scores(["a b c"], ["a b d", "a c"])[0].signature)
    metric.lowercase = True  # the configuration changes the signature and the statistics alike
    lowered = metric.sentence_score("A B C", ["a b d"])
    assert "case:lc" in str(lowered.signature) and lowered.counts[0] == 2
    assert lowered.signature == metric.signature(1)
