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

import importlib
import importlib.util
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

import datasets
from bleucli.metrics.compiled import PURE_PYTHON_VARIABLE, compiled_matcher, implementation
from bleucli.metrics.ngram_match import ReferenceNgrams, clipped_matches, pair_matches
from bleucli.metrics.substring_match import character_matches

speedups = compiled_matcher()
pytestmark = pytest.mark.skipif(speedups is None, reason="the C matcher (bleucli._speedups) is not built")
ngram_matches = speedups.ngram_matches if speedups else None
References = speedups.References if speedups else None
HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE


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
    """references= holds every segment at once: the C tables (tens of KB each) are not kept, only
    tokens, or with a tokenizer the extension runs itself (13a, char... and chrF, read in C) the text."""
    from bleucli import BLEU, CHRF
    from bleucli.metrics.chrf import _TextReferences as ChrfTexts
    from bleucli.metrics.compiled import StoredReferences, TextReferences

    refs = [["The cat sat.", "A dog"], ["The cat sits.", "The dog"]]
    bleu, chrf = BLEU(references=refs), CHRF(word_order=2, references=refs)
    char, nist = BLEU(tokenize="char", references=refs), BLEU(tokenize="11b", references=refs)
    assert [type(info) for info in bleu._ref_cache] == [TextReferences] * 2
    assert [type(info) for info in char._ref_cache] == [TextReferences] * 2
    assert [type(info) for info in nist._ref_cache] == [StoredReferences] * 2
    assert [type(info) for info in chrf._ref_cache] == [ChrfTexts] * 2
    assert bleu._ref_cache[0].texts == ("The cat sat.", "The cat sits.")
    assert bleu._ref_cache[0].lengths == (4, 4)
    assert bleu._ref_cache[0].matches(["The", "cat", "sat", "."], 4) == [4, 3, 2, 1]
    assert char._ref_cache[0].lengths == (10, 11)
    assert char._ref_cache[0].matches("Thecat", 4) == [6, 5, 4, 3]  # char's hypotheses are strings
    assert nist._ref_cache[0] == (["The", "cat", "sat", "."], ["The", "cat", "sits", "."])
    assert chrf._ref_cache[1] == ("A dog", "The dog")
    hyps = ["The cat sat .", "the dog"]
    assert bleu.corpus_score(hyps).score == BLEU().corpus_score(hyps, refs).score
    assert char.corpus_score(hyps).score == BLEU(tokenize="char").corpus_score(hyps, refs).score
    assert nist.corpus_score(hyps).score == BLEU(tokenize="11b").corpus_score(hyps, refs).score
    assert chrf.corpus_score(hyps).score == CHRF(word_order=2).corpus_score(hyps, refs).score


def load_extension(path: Path | str, name: str = "bleucli._speedups") -> ModuleType:
    """A new module object from the extension file at path, not put in sys.modules."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_module_object_has_its_own_references_type() -> None:
    """PEP 489 with module state: every load of the extension makes a new module object with
    its own heap type References (a static type, or single-phase init, would share one)."""
    fresh = load_extension(speedups.__file__)
    assert fresh is not speedups and fresh.References is not speedups.References
    assert fresh.References.__flags__ & HEAP_TYPE and speedups.References.__flags__ & HEAP_TYPE
    assert fresh.ngram_matches("abc", ["abd"], 3) == [2, 1, 0]
    assert fresh.References([["a", "b"]]).matches(["a", "b"], 2) == [2, 1]
    # pickle finds the class by its name, in the imported module
    assert References.__module__ == "bleucli._speedups" and References.__qualname__ == "References"
    assert type(pickle.loads(pickle.dumps(References(["ab"])))) is References


def test_references_type_stays_closed() -> None:
    """As the static type was: attributes fixed, no subclasses."""
    with pytest.raises(TypeError):
        References.matches = None
    with pytest.raises(TypeError):
        type("Sub", (References,), {})


def run_in_an_interpreter_with_its_own_gil(script: str) -> None:
    """Runs script in a new sub-interpreter with its own GIL (PEP 684); skips where Python has none."""
    try:
        from concurrent import interpreters  # type: ignore[attr-defined]  # Python 3.14+
    except ImportError:
        pass
    else:
        interpreter = interpreters.create()
        try:
            interpreter.exec(script)  # raises ExecutionFailed if the script fails
        finally:
            interpreter.close()
        return
    for name in ("_interpreters", "_xxsubinterpreters"):  # Python 3.13, 3.12: private modules
        if sys.version_info < (3, 12):  # 3.11 has _xxsubinterpreters, but every interpreter shares one GIL
            break
        try:
            low_level = importlib.import_module(name)
        except ImportError:
            continue
        ident = low_level.create()  # isolated, with its own GIL, by default
        try:
            failure = low_level.run_string(ident, script)  # 3.12 raises; 3.13 returns what failed
        finally:
            low_level.destroy(ident)
        assert failure is None, failure
        return
    pytest.skip(f"no sub-interpreters with their own GIL on Python {sys.version_info[:2]} (3.12+ has them)")


def test_it_imports_in_a_subinterpreter_with_its_own_gil(tmp_path: Path) -> None:
    """Py_mod_multiple_interpreters = Py_MOD_PER_INTERPRETER_GIL_SUPPORTED: without it the
    import fails in such an interpreter. The script writes what it computed, so that a failure
    the interpreter API swallowed still fails here."""
    out = tmp_path / "out.json"
    root = Path(speedups.__file__).resolve().parents[1]
    script = textwrap.dedent(f"""
        import json, pickle, sys
        sys.path.insert(0, {str(root)!r})
        import bleucli._speedups as s
        refs = pickle.loads(pickle.dumps(s.References([["the", "cat"], ["a", "cat"]])))
        result = [s.__file__, s.ngram_matches("abcd", ["abce"], 3), refs.matches(["the", "cat"], 2)]
        with open({str(out)!r}, "w") as f:
            json.dump(result, f)
    """)
    run_in_an_interpreter_with_its_own_gil(script)
    path, *matches = json.loads(out.read_text())
    assert Path(path).resolve() == Path(speedups.__file__).resolve() and matches == [[3, 2, 1], [2, 1]]


def test_limits_are_those_of_int32() -> None:
    if sys.maxsize > 2**32:
        assert speedups.MAX_TOKENS == 2**31 - 1
    else:  # every allocation (under 128 bytes a token) must fit a 32-bit size_t
        assert speedups.MAX_TOKENS == (2**31 - 1) // 128 - 1
    assert speedups.MAX_ORDER == speedups.MAX_TOKENS


@pytest.mark.parametrize("order, error", [
    ("beyond", OverflowError),  # MAX_ORDER + 1
    (2**63, OverflowError),  # beyond Py_ssize_t: the same clear error
    (2**200, OverflowError),
    (-(2**200), ValueError),
    (-1, ValueError),
])
def test_an_order_out_of_range_raises_before_any_allocation(order, error) -> None:
    if order == "beyond":
        order = speedups.MAX_ORDER + 1
    with pytest.raises(error, match="max_order"):
        ngram_matches("abc", ["abc"], order)
    with pytest.raises(error, match="max_order"):
        References([["a", "b"]]).matches(["a", "b"], order)


def test_references_beyond_int32_tokens_together_raise_at_once() -> None:
    """2**31 tokens, cheaply: one 64 KiB string (or word list) given 2**15 times. Counted before
    any table or copy is made, so this takes no memory (it would take gigabytes otherwise)."""
    text = "a" * 2**16
    words = ["a"] * 2**16
    many = 2**31 // 2**16
    assert many * 2**16 > speedups.MAX_TOKENS
    with pytest.raises(OverflowError, match="references together"):
        ngram_matches("a", [text] * many, 1)
    with pytest.raises(OverflowError, match="references together"):
        ngram_matches(["a"], [words] * many, 1)
    with pytest.raises(OverflowError, match="references together"):
        References([text] * many)


SOURCE = Path(__file__).resolve().parents[1] / "bleucli" / "_speedups.c"
SMALL_LIMIT = 20


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The extension built with BLEUCLI_MAX_TOKENS=20: every token limit reached with small input."""
    compiler = (sysconfig.get_config_var("CC") or "").split()
    if os.name != "posix" or not compiler or shutil.which(compiler[0]) is None or not SOURCE.exists():
        pytest.skip("needs the C source and the C compiler Python was built with")
    directory = tmp_path_factory.mktemp("small_limit")
    objects, library = directory / "_speedups.o", directory / ("_speedups" + sysconfig.get_config_var("EXT_SUFFIX"))
    includes = {sysconfig.get_paths()["include"], sysconfig.get_paths()["platinclude"]}
    subprocess.run([*compiler, *sysconfig.get_config_var("CCSHARED").split(), "-O1",
                    *(f"-I{path}" for path in includes), f"-DBLEUCLI_MAX_TOKENS={SMALL_LIMIT}",
                    "-c", str(SOURCE), "-o", str(objects)], check=True)
    subprocess.run([*sysconfig.get_config_var("LDSHARED").split(), str(objects), "-o", str(library)], check=True)
    return load_extension(library)


def test_a_lower_build_limit_is_the_one_reported(small: ModuleType) -> None:
    assert small.MAX_TOKENS == small.MAX_ORDER == SMALL_LIMIT


@pytest.mark.parametrize("words", [False, True])
def test_every_token_limit_is_checked_at_its_boundary(small: ModuleType, words: bool) -> None:
    """The hypothesis, one reference, the references together and max_order: at the limit the
    counts are the definition's; one more is an OverflowError, from both entry points."""
    def seq(length: int) -> str | list[str]:
        text = "ab" * (length // 2) + "a" * (length % 2)
        return list(text) if words else text

    at, past = SMALL_LIMIT, SMALL_LIMIT + 1
    fits = [(seq(at), [seq(at)], at), (seq(at), [seq(at // 2), seq(at - at // 2)], 3), (seq(3), [seq(3)], at)]
    for hyp, refs, order in fits:
        expected = counted_matches(hyp, refs, order)
        assert small.ngram_matches(hyp, refs, order) == expected
        assert small.References(refs).matches(hyp, order) == expected
    too_many = [
        ((seq(past), [seq(3)], 2), "a sequence"),  # the hypothesis
        ((seq(3), [seq(past)], 2), "a sequence"),  # one reference
        ((seq(3), [seq(at // 2), seq(past - at // 2)], 2), "references together"),
        ((seq(3), [seq(3)], past), "max_order"),
    ]
    for (hyp, refs, order), message in too_many:
        with pytest.raises(OverflowError, match=message):
            small.ngram_matches(hyp, refs, order)
        with pytest.raises(OverflowError, match=message):
            small.References(refs).matches(hyp, order)


def test_the_compiled_bleu_paths_check_the_token_limits(small: ModuleType) -> None:
    """bleu_statistics and bleu_sentence tokenize themselves: the same limits, counted on their tokens."""
    at, past = " ".join(["a"] * SMALL_LIMIT), " ".join(["a"] * (SMALL_LIMIT + 1))
    half = " ".join(["a"] * (SMALL_LIMIT // 2))
    assert small.bleu_statistics([at], [(at,)], "13a", 2, False, False, True)[0][:4] == [20, 20, 20, 19]
    assert small.bleu_statistics([at], [(half, half)], "13a", 2, False, False, False)[:2] == [20, 10]
    for hyp, refs, message in ((past, (at,), "a sequence"), (at, (past,), "a sequence"),
                               (at, (at, "a"), "references together")):
        with pytest.raises(OverflowError, match=message):
            small.bleu_statistics([hyp], [refs], "13a", 2, False, False, True)
        with pytest.raises(OverflowError, match=message):
            small.bleu_sentence(hyp, list(refs), "none", 2, False, False, "exp", None, True)
    with pytest.raises(OverflowError, match="max_order"):
        small.bleu_statistics(["a"], [("a",)], "13a", SMALL_LIMIT + 1, False, False, True)


def test_bleu_systems_check_the_token_limits(small: ModuleType) -> None:
    """bleu_systems (references counted once for several systems): the limits and counts of bleu_statistics."""
    at, past = " ".join(["a"] * SMALL_LIMIT), " ".join(["a"] * (SMALL_LIMIT + 1))
    half = " ".join(["a"] * (SMALL_LIMIT // 2))
    for refs in ((at,), (half, half)):
        for order in (2, SMALL_LIMIT):
            expected = [small.bleu_statistics([hyp], [refs], "13a", order, False, False, True) for hyp in (at, half)]
            assert small.bleu_systems([[at], [half]], [refs], "13a", order, False, False, 1) == expected
    for hyp, refs, message in ((past, (at,), "a sequence"), (at, (past,), "a sequence"),
                               (at, (at, "a"), "references together")):
        with pytest.raises(OverflowError, match=message):
            small.bleu_systems([["a"], [hyp]], [refs], "13a", 2, False, False, 2)
    with pytest.raises(OverflowError, match="max_order"):
        small.bleu_systems([["a"], ["a"]], [("a",)], "13a", SMALL_LIMIT + 1, False, False, 2)


def test_exact_str_hands_other_tokens_back() -> None:
    """With exact_str, a token that is not exactly a str (NLTK compares it by its own __eq__) raises TypeError."""

    class Word(str):
        pass

    assert ngram_matches(["a", "b"], [["a", "b"]], 2, True) == [2, 1]
    assert ngram_matches("ab", ["ab"], 2, True) == [2, 1]
    for hyp, refs in (([Word("a")], [["a"]]), (["a"], [["a", Word("a")]]), ([1], [[1]])):
        with pytest.raises(TypeError):
            ngram_matches(hyp, refs, 1, True)
    assert ngram_matches([Word("a")], [["a"]], 1, False) == [1]
