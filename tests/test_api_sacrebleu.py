"""The Python API has sacreBLEU 2.6.0's names and shapes (issue 16.12).

A script written for sacreBLEU, with ``sacrebleu`` replaced by ``bleucli``,
prints the same lines: ``str(score)``/``repr(score)``, ``score.format(width=,
score_only=, signature=, is_json=)``, ``metric.get_signature()``; imports the
same names (``bleucli.metrics.BLEU``, ``dir(bleucli)``). The expected strings
were frozen from sacreBLEU 2.6.0 (only ``version:`` differs);
``test_*_against_sacrebleu`` recompute them live. The test-set functions are
tested against a local server in ``tests/testsets/test_sacrebleu_names.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

import bleucli
from bleucli import BLEU, CHRF, TER, __version__

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
        ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]

#: (class, options, str(corpus score), format(width=3, signature=...), format(width=4, score_only=True),
#:  short signature, str(sentence score of segment 2)), frozen from sacreBLEU 2.6.0
CASES: list[tuple[str, dict[str, Any], str, str, str, str, str]] = [
    ("BLEU", {}, "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)",
     "BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 48.531 82.4/50.0/45.5/37.5 "
     "(BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)",
     "48.5308", "#:2|c:mixed|e:no|tok:13a|s:exp|v:2.6.0",
     "BLEU = 14.79 50.0/16.7/12.5/12.5 (BP = 0.779 ratio = 0.800 hyp_len = 4 ref_len = 5)"),
    ("CHRF", {}, "chrF2 = 59.73", "chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 59.728",
     "59.7275", "#:2|c:mixed|e:yes|nc:6|nw:0|s:no|v:2.6.0", "chrF2 = 35.35"),
    ("TER", {}, "TER = 40.00", "TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 40.000",
     "40.0000", "#:2|c:lc|t:tercom|nr:no|pn:yes|as:no|v:2.6.0", "TER = 75.00"),
    ("BLEU", {"tokenize": "intl", "lowercase": True, "smooth_method": "floor", "smooth_value": 0.2,
              "effective_order": True},
     "BLEU = 43.92 73.7/43.8/38.5/30.0 (BP = 1.000 ratio = 1.056 hyp_len = 19 ref_len = 18)",
     "BLEU|nrefs:2|case:lc|eff:yes|tok:intl|smooth:floor[0.20]|version:2.6.0 = 43.916 73.7/43.8/38.5/30.0 "
     "(BP = 1.000 ratio = 1.056 hyp_len = 19 ref_len = 18)",
     "43.9162", "#:2|c:lc|e:yes|tok:intl|s:floor[0.20]|v:2.6.0",
     "BLEU = 8.16 33.3/4.0/5.0/6.7 (BP = 1.000 ratio = 1.200 hyp_len = 6 ref_len = 5)"),
    ("CHRF", {"word_order": 2, "lowercase": True}, "chrF2++ = 59.37",
     "chrF2++|nrefs:2|case:lc|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 59.375",
     "59.3748", "#:2|c:lc|e:yes|nc:6|nw:2|s:no|v:2.6.0", "chrF2++ = 29.83"),
    ("TER", {"normalized": True, "case_sensitive": True}, "TER = 33.33",
     "TER|nrefs:2|case:mixed|tok:tercom|norm:yes|punct:yes|asian:no|version:2.6.0 = 33.333",
     "33.3333", "#:2|c:mixed|t:tercom|nr:yes|pn:yes|as:no|v:2.6.0", "TER = 60.00"),
    ("BLEU", {"trg_lang": "zh"},
     "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)",
     "BLEU|nrefs:2|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0 = 48.531 82.4/50.0/45.5/37.5 "
     "(BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)",
     "48.5308", "#:2|c:mixed|e:no|tok:zh|s:exp|v:2.6.0",
     "BLEU = 14.79 50.0/16.7/12.5/12.5 (BP = 0.779 ratio = 0.800 hyp_len = 4 ref_len = 5)"),
]
METRIC_CLASSES = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}

#: sacreBLEU 2.6.0's ``sacrebleu.__all__`` (``SACREBLEU_DIR`` is bleucli's cache directory)
SACREBLEU_ALL = ["smart_open", "SACREBLEU_DIR", "download_test_set", "get_source_file", "get_reference_files",
                 "get_available_testsets", "get_langpairs_for_testset", "extract_word_ngrams",
                 "extract_char_ngrams", "DATASETS", "BLEU", "CHRF", "TER", "corpus_bleu", "raw_corpus_bleu",
                 "sentence_bleu", "corpus_chrf", "sentence_chrf", "corpus_ter", "sentence_ter", "__version__"]


def ours(text: str) -> str:
    """sacreBLEU's text with bleucli's version (the one field that differs)."""
    return (text.replace("version:2.6.0", f"version:{__version__}").replace("v:2.6.0", f"v:{__version__}")
            .replace('"version": "2.6.0"', f'"version": "{__version__}"'))


def _ids(cases: list) -> list[str]:
    return [f"{c[0]}-{'-'.join(f'{k}={v}' for k, v in c[1].items()) or 'default'}" for c in cases]


@pytest.mark.parametrize("name, options, text, with_signature, score_only, short, sentence", CASES, ids=_ids(CASES))
def test_score_strings_are_sacrebleus(name: str, options: dict, text: str, with_signature: str, score_only: str,
                                      short: str, sentence: str) -> None:
    metric = METRIC_CLASSES[name](**options)
    score = metric.corpus_score(HYPS, REFS)
    assert str(score) == text
    assert repr(score) == text
    assert f"{score}" == text
    signature = str(metric.get_signature())
    assert score.format(width=3, signature=signature) == ours(with_signature)
    assert score.format(width=3, signature=score.signature) == ours(with_signature)
    assert score.format(width=4, score_only=True) == score_only
    assert score.format(width=2, signature=signature, score_only=True) == f"{score.score:.2f}"
    assert metric.get_signature().format(short=True) == ours(short)
    seg = metric.sentence_score(HYPS[1], [REFS[0][1], REFS[1][1]])
    assert str(seg) == sentence


@pytest.mark.parametrize("name, options, text, with_signature, score_only, short, sentence", CASES, ids=_ids(CASES))
def test_format_json_is_sacrebleus(name: str, options: dict, text: str, with_signature: str, score_only: str,
                                   short: str, sentence: str) -> None:
    metric = METRIC_CLASSES[name](**options)
    score = metric.corpus_score(HYPS, REFS)
    signature = str(metric.get_signature())
    out = score.format(width=3, signature=signature, is_json=True)
    data = json.loads(out)
    line_signature, _, rest = ours(with_signature).partition(" = ")
    value, _, verbose = rest.partition(" ")
    expected = {"name": line_signature.split("|")[0], "score": float(value), "signature": signature}
    if verbose:
        expected["verbose_score"] = verbose
    expected.update(field.split(":", 1) for field in signature.split("|"))
    assert data == expected
    assert list(data) == list(expected)
    assert out.startswith('{\n "name": ')  # indent=1, as sacreBLEU's json.dumps


def test_bleu_score_attributes_have_sacrebleus_names() -> None:
    score = BLEU().corpus_score(HYPS, REFS)
    assert score.name == "BLEU"
    assert (list(score.counts), list(score.totals), score.sys_len, score.ref_len) == ([14, 7, 5, 3], [17, 14, 11, 8],
                                                                                     17, 18)
    assert score.prec_str == "82.4/50.0/45.5/37.5"
    assert score.ratio == 17 / 18
    chrf = CHRF(word_order=2).corpus_score(HYPS, REFS)
    assert (chrf.name, chrf.char_order, chrf.word_order, chrf.beta) == ("chrF2++", 6, 2, 2)
    ter = TER().corpus_score(HYPS, REFS)
    assert (ter.name, ter.num_edits, ter.ref_length) == ("TER", 6, 15.0)


def test_metrics_module_has_sacrebleus_names() -> None:
    from bleucli.metrics import BLEU as B
    from bleucli.metrics import CHRF as C
    from bleucli.metrics import METRICS, BLEUScore, CHRFScore, TERScore
    from bleucli.metrics import TER as T
    from bleucli.metrics.helpers import extract_all_char_ngrams, extract_char_ngrams, extract_word_ngrams

    assert METRICS == {"BLEU": B, "CHRF": C, "TER": T}
    assert (B, C, T) == (BLEU, CHRF, TER)
    assert isinstance(B().corpus_score(HYPS, REFS), BLEUScore)
    assert isinstance(C().sentence_score(HYPS[0], [REFS[0][0]]), CHRFScore)
    assert isinstance(T().sentence_score(HYPS[0], [REFS[0][0]]), TERScore)
    assert {"BLEU", "CHRF", "TER", "METRICS"} <= set(dir(bleucli.metrics))
    assert extract_word_ngrams(["a", "b", "a", "b"], 2) == {"a b": 2, "b a": 1}
    assert extract_char_ngrams("ab a", 2) == {"ab": 1, "ba": 1}
    assert extract_char_ngrams("ab a", 2, include_whitespace=True) == {"ab": 1, "b ": 1, " a": 1}
    assert extract_all_char_ngrams("aba", 2) == [{"a": 2, "b": 1}, {"ab": 1, "ba": 1}]


def test_dir_lists_the_api() -> None:
    names = dir(bleucli)
    assert set(SACREBLEU_ALL) <= set(names)
    for name in SACREBLEU_ALL:
        assert getattr(bleucli, name) is not None
    from bleucli.utils import get_reference_files, get_source_file, smart_open

    assert (get_reference_files, get_source_file, smart_open) == (
        bleucli.get_reference_files, bleucli.get_source_file, bleucli.smart_open)
    assert "get_source_file" in dir(bleucli.utils)


def test_import_and_dir_stay_lazy() -> None:
    code = ("import sys, bleucli; names = dir(bleucli); import bleucli.metrics, bleucli.utils; dir(bleucli.metrics); "
            "print(sorted(m for m in ('bleucli.metrics.bleu', 'bleucli.testsets.compat', 'requests', 'yaml', "
            "'numpy', 'click') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_smart_open_reads_plain_and_gzip(tmp_path) -> None:
    import gzip

    (tmp_path / "a.txt").write_bytes(b"x\r\ny\n")
    (tmp_path / "a.txt.gz").write_bytes(gzip.compress(b"x\r\ny\n"))
    for name in ("a.txt", "a.txt.gz"):
        with bleucli.smart_open(str(tmp_path / name)) as handle:
            assert handle.read().split("\n") == ["x\r", "y", ""]  # newline="\n": \r kept, as in sacreBLEU


@pytest.mark.oracle
@pytest.mark.parametrize("name, options", [(c[0], c[1]) for c in CASES], ids=_ids(CASES))
def test_strings_against_sacrebleu(name: str, options: dict) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    theirs_metric = getattr(sacrebleu, name)(**options)
    ours_metric = METRIC_CLASSES[name](**options)
    theirs, mine = theirs_metric.corpus_score(HYPS, REFS), ours_metric.corpus_score(HYPS, REFS)
    assert str(mine) == str(theirs) and repr(mine) == repr(theirs)
    sig_theirs, sig_ours = str(theirs_metric.get_signature()), str(ours_metric.get_signature())
    assert sig_ours == ours(sig_theirs)
    for width in (0, 1, 2, 4):
        assert mine.format(width=width) == theirs.format(width=width)
        assert mine.format(width=width, score_only=True) == theirs.format(width=width, score_only=True)
        assert mine.format(width=width, signature=sig_ours) == ours(theirs.format(width=width, signature=sig_theirs))
        assert mine.format(width=width, signature=sig_ours, is_json=True) == ours(
            theirs.format(width=width, signature=sig_theirs, is_json=True))
    for hyp, *refs in zip(HYPS, *REFS):
        assert str(ours_metric.sentence_score(hyp, refs)) == str(theirs_metric.sentence_score(hyp, refs))


@pytest.mark.oracle
def test_names_against_sacrebleu() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    assert sorted(sacrebleu.__all__) == sorted(SACREBLEU_ALL)
    assert set(sacrebleu.metrics.METRICS) == set(bleucli.metrics.METRICS)
    # bleucli's own additions to the registry (ntrex128) come on top of sacreBLEU's sets
    ours = bleucli.get_available_testsets()
    assert [n for n in ours if bleucli.DATASETS[n].origin == "sacrebleu"] == sacrebleu.get_available_testsets()
    assert [n for n in ours if bleucli.DATASETS[n].origin != "sacrebleu"] == ["ntrex128"]
    assert bleucli.get_langpairs_for_testset("wmt17") == sacrebleu.get_langpairs_for_testset("wmt17")
    assert bleucli.get_langpairs_for_testset("nonexistent") == sacrebleu.get_langpairs_for_testset("nonexistent")
    for pair in ("en-de", "de-en", "ja-en"):
        assert bleucli.utils.get_available_testsets_for_langpair(pair) == \
            sacrebleu.utils.get_available_testsets_for_langpair(pair)
    for name in ("wmt17", "wmt22", "iwslt17"):
        theirs, mine = sacrebleu.DATASETS[name], bleucli.DATASETS[name]
        assert (mine.name, mine.description) == (theirs.name, theirs.description)
        # the registry's YAML block keeps the citation's final newline
        assert (mine.citation or "").rstrip("\n") == (theirs.citation or "")
        assert list(mine.langpairs) == list(theirs.langpairs)
    from sacrebleu.metrics.helpers import extract_char_ngrams, extract_word_ngrams

    assert bleucli.extract_word_ngrams("a b a b c".split(), 2) == extract_word_ngrams("a b a b c".split(), 2)
    assert bleucli.extract_char_ngrams(" a\tb ab", 2) == extract_char_ngrams(" a\tb ab", 2)


#: ``metric.corpus_score(Online-B.de, [ref.de, ref2.de], n_bootstrap=200)`` of examples/, frozen from sacreBLEU
#: 2.6.0 (seed 12345): str(score) and get_signature()
BOOTSTRAP = {
    "BLEU": ("BLEU = 53.24 (μ = 53.43 ± 3.83) 79.3/60.1/46.5/36.3 (BP = 1.000 ratio = 1.019 hyp_len = 2079 "
             "ref_len = 2040)", "nrefs:2|bs:200|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"),
    "CHRF": ("chrF2 = 71.50 (μ = 71.46 ± 2.16)",
             "nrefs:2|bs:200|seed:12345|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0"),
    "TER": ("TER = 40.44 (μ = 40.38 ± 3.50)",
            "nrefs:2|bs:200|seed:12345|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"),
}


def _examples() -> tuple[list[str], list[list[str]]]:
    from datasets import EXAMPLES, lines

    return lines(EXAMPLES / "Online-B.de"), [lines(EXAMPLES / "ref.de"), lines(EXAMPLES / "ref2.de")]


@pytest.mark.parametrize("name", list(BOOTSTRAP))
def test_corpus_score_n_bootstrap_is_sacrebleus(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("BLEUCLI_SEED", "SACREBLEU_SEED"):
        monkeypatch.delenv(variable, raising=False)
    hyps, refs = _examples()
    metric = METRIC_CLASSES[name]()
    score = metric.corpus_score(hyps, refs, n_bootstrap=200)
    text, signature = BOOTSTRAP[name]
    assert str(score) == text
    assert str(metric.get_signature()) == ours(signature)
    assert str(score.signature) == ours(signature)
    data = json.loads(score.format(signature=str(metric.get_signature()), is_json=True))
    assert (data["confidence_mean"], data["confidence_var"]) == (round(score.mean, 2), round(score.ci, 2))
    assert metric.corpus_score(hyps, refs).mean is None  # a plain call again: no interval, no bs in the signature
    assert "bs:" not in str(metric.get_signature())
    monkeypatch.setenv("SACREBLEU_SEED", "7")  # sacreBLEU's variable, when bleucli's is unset
    assert "seed:7" in str(metric.corpus_score(hyps, refs, n_bootstrap=50).signature)


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["BLEU", "CHRF", pytest.param("TER", marks=pytest.mark.slow)])  # TER: 0.5 s
def test_corpus_score_n_bootstrap_against_sacrebleu(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    for variable in ("BLEUCLI_SEED", "SACREBLEU_SEED"):
        monkeypatch.delenv(variable, raising=False)
    hyps, refs = _examples()
    theirs_metric, ours_metric = getattr(sacrebleu, name)(), METRIC_CLASSES[name]()
    for n in (200,):
        theirs, mine = theirs_metric.corpus_score(hyps, refs, n_bootstrap=n), ours_metric.corpus_score(hyps, refs,
                                                                                                         n_bootstrap=n)
        assert str(mine) == str(theirs)
        assert str(ours_metric.get_signature()) == ours(str(theirs_metric.get_signature()))
        sig_t, sig_o = str(theirs_metric.get_signature()), str(ours_metric.get_signature())
        assert mine.format(width=3, signature=sig_o, is_json=True) == ours(
            theirs.format(width=3, signature=sig_t, is_json=True))


def test_class_constants_and_compute_bleu_are_sacrebleus() -> None:
    assert BLEU.TOKENIZER_DEFAULT == "13a"
    # sacreBLEU's tokenizers, and bleucli's one addition: NIST mteval-v11b's (-tok 11b)
    assert {"none", "13a", "intl", "char", "zh", "ja-mecab", "ko-mecab", "spm", "flores101", "flores200",
            "spBLEU-1K", "11b"} == set(BLEU.TOKENIZERS)
    assert BLEU.SMOOTH_DEFAULTS == {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
    assert (CHRF.CHAR_ORDER, CHRF.WORD_ORDER, CHRF.BETA) == (6, 0, 2)
    score = BLEU.compute_bleu([5, 3, 2, 1], [6, 5, 4, 3], 6, 7)  # frozen from sacreBLEU 2.6.0
    assert str(score) == "BLEU = 45.48 83.3/60.0/50.0/33.3 (BP = 0.846 ratio = 0.857 hyp_len = 6 ref_len = 7)"
    assert str(score.signature).startswith("nrefs:?|case:mixed|eff:no|tok:13a|smooth:none|")


@pytest.mark.oracle
def test_class_constants_and_compute_bleu_against_sacrebleu() -> None:
    metrics = pytest.importorskip("sacrebleu.metrics")
    assert set(BLEU.TOKENIZERS) == {*metrics.BLEU.TOKENIZERS, "11b"}  # bleucli adds mteval-v11b's
    assert BLEU.SMOOTH_DEFAULTS == metrics.BLEU.SMOOTH_DEFAULTS
    assert (CHRF.CHAR_ORDER, CHRF.WORD_ORDER, CHRF.BETA) == (metrics.CHRF.CHAR_ORDER, metrics.CHRF.WORD_ORDER,
                                                            metrics.CHRF.BETA)
    for args, kwargs in [(([5, 3, 2, 1], [6, 5, 4, 3], 6, 7), {}),
                         (([5, 3, 2, 0], [6, 5, 4, 3], 6, 7), {"smooth_method": "add-k", "smooth_value": 1}),
                         (([5, 3, 0, 0], [6, 5, 4, 3], 6, 5), {"smooth_method": "floor", "effective_order": True}),
                         (([3, 1], [4, 3], 4, 4), {"max_ngram_order": 2})]:
        # sacreBLEU's add-k adds k to the lists it is given: each call gets its own copies
        theirs = metrics.BLEU.compute_bleu(*[list(a) if isinstance(a, list) else a for a in args], **kwargs)
        mine = BLEU.compute_bleu(*[list(a) if isinstance(a, list) else a for a in args], **kwargs)
        assert str(mine) == str(theirs) and mine.score == theirs.score
