"""sacreBLEU 2.6's Python surface at sacreBLEU's paths under ``bleucli.`` (docs/sacrebleu-compat.md).

Each path of the table imports and gives sacreBLEU's result on a small input: the
expected values are frozen from sacreBLEU 2.6.0, and each test compares with the
oracle as well when it is installed (``.[oracle]``), so every test passes with
``.[test]`` alone. Also here: sacreBLEU's argparse spellings on the command line
(real ``python -m bleucli`` processes) and the shape errors of the Python API.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import REPO, run_subprocess

#: Every row of docs/sacrebleu-compat.md that bleucli offers: (sacreBLEU module, name), the same
#: dotted path under ``bleucli.`` (``sacrebleu`` -> ``bleucli``).
PATHS = [
    ("sacrebleu", name) for name in (
        "smart_open", "SACREBLEU_DIR", "download_test_set", "get_source_file", "get_reference_files",
        "get_available_testsets", "get_langpairs_for_testset", "extract_word_ngrams", "extract_char_ngrams",
        "DATASETS", "BLEU", "CHRF", "TER", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "corpus_chrf",
        "sentence_chrf", "corpus_ter", "sentence_ter", "__version__")
] + [
    ("sacrebleu.compat", name) for name in (
        "corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "corpus_chrf", "sentence_chrf", "corpus_ter",
        "sentence_ter")
] + [
    ("sacrebleu.metrics", "BLEU"), ("sacrebleu.metrics", "CHRF"), ("sacrebleu.metrics", "TER"),
    ("sacrebleu.metrics", "METRICS"),
    ("sacrebleu.metrics.base", "Score"), ("sacrebleu.metrics.base", "Signature"), ("sacrebleu.metrics.base", "Metric"),
    ("sacrebleu.metrics.bleu", "BLEU"), ("sacrebleu.metrics.bleu", "BLEUScore"),
    ("sacrebleu.metrics.bleu", "MAX_NGRAM_ORDER"),
    ("sacrebleu.metrics.chrf", "CHRF"), ("sacrebleu.metrics.chrf", "CHRFScore"),
    ("sacrebleu.metrics.ter", "TER"), ("sacrebleu.metrics.ter", "TERScore"),
    ("sacrebleu.metrics.ter", "translation_edit_rate"), ("sacrebleu.metrics.lib_ter", "translation_edit_rate"),
    ("sacrebleu.metrics.helpers", "extract_word_ngrams"), ("sacrebleu.metrics.helpers", "extract_char_ngrams"),
    ("sacrebleu.metrics.helpers", "extract_all_word_ngrams"), ("sacrebleu.metrics.helpers", "extract_all_char_ngrams"),
    ("sacrebleu.tokenizers", "BaseTokenizer"), ("sacrebleu.tokenizers.tokenizer_base", "BaseTokenizer"),
    ("sacrebleu.tokenizers.tokenizer_13a", "Tokenizer13a"), ("sacrebleu.tokenizers.tokenizer_zh", "TokenizerZh"),
    ("sacrebleu.tokenizers.tokenizer_intl", "TokenizerV14International"),
    ("sacrebleu.tokenizers.tokenizer_char", "TokenizerChar"), ("sacrebleu.tokenizers.tokenizer_none", "NoneTokenizer"),
    ("sacrebleu.tokenizers.tokenizer_re", "TokenizerRegexp"), ("sacrebleu.tokenizers.tokenizer_ter", "TercomTokenizer"),
    ("sacrebleu.tokenizers.tokenizer_ja_mecab", "TokenizerJaMecab"),
    ("sacrebleu.tokenizers.tokenizer_ko_mecab", "TokenizerKoMecab"),
    ("sacrebleu.tokenizers.tokenizer_spm", "TokenizerSPM"), ("sacrebleu.tokenizers.tokenizer_spm", "SPM_MODELS"),
    ("sacrebleu.tokenizers.tokenizer_spm", "Flores101Tokenizer"),
    ("sacrebleu.tokenizers.tokenizer_spm", "Flores200Tokenizer"),
    ("sacrebleu.tokenizers.tokenizer_spm", "spBLEU1KTokenizer"),
    ("sacrebleu.significance", "PairedTest"), ("sacrebleu.significance", "Result"),
    ("sacrebleu.significance", "estimate_ci"),
    ("sacrebleu.dataset", "DATASETS"), ("sacrebleu.dataset", "SUBSETS"), ("sacrebleu.dataset", "COUNTRIES"),
    ("sacrebleu.dataset", "DOMAINS"),
    ("sacrebleu.sacrebleu", "main"),
] + [
    ("sacrebleu.utils", name) for name in (
        "SACREBLEU_DIR", "smart_open", "download_test_set", "get_source_file", "get_reference_files", "get_files",
        "get_langpairs_for_testset", "get_available_testsets", "get_available_testsets_for_langpair",
        "get_available_origlangs", "get_available_subsets", "filter_subset", "sanity_check_lengths",
        "print_results_table", "my_log", "sum_of_lists")
]


def _oracle() -> bool:
    """Whether sacreBLEU (the oracle, ``.[oracle]``) can be imported."""
    try:
        import sacrebleu  # noqa: F401
    except ImportError:
        return False
    return True


def ours(module: str) -> object:
    return importlib.import_module("bleucli" + module[len("sacrebleu"):])


@pytest.mark.parametrize(("module", "name"), PATHS, ids=[f"{m}.{n}" for m, n in PATHS])
def test_each_path_imports(module: str, name: str) -> None:
    assert getattr(ours(module), name) is not None
    assert name in dir(ours(module))


def test_the_table_is_in_the_docs() -> None:
    table = (REPO / "docs" / "sacrebleu-compat.md").read_text(encoding="utf-8")
    missing = [f"{m}.{n}" for m, n in PATHS if f"`{m}.{n}`" not in table]
    assert not missing, f"docs/sacrebleu-compat.md lacks rows for {missing}"


def test_the_table_covers_sacrebleus_public_names() -> None:
    """Every public name of every sacreBLEU module has a row (offered, or why not)."""
    sacrebleu = pytest.importorskip("sacrebleu")
    import pkgutil

    table = (REPO / "docs" / "sacrebleu-compat.md").read_text(encoding="utf-8")
    missing = []
    modules = ["sacrebleu", *(m.name for m in pkgutil.walk_packages(sacrebleu.__path__, "sacrebleu."))]
    for module_name in modules:
        if module_name.endswith("__main__"):
            continue
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            if name.startswith("_") and name != "__version__":
                continue
            if getattr(value, "__module__", module_name) != module_name and not isinstance(value, (str, dict, int)):
                continue  # imported from elsewhere: its own module's row
            if type(value).__name__ == "module" or name in ("annotations",):
                continue
            if f"`{module_name}.{name}`" not in table:
                missing.append(f"{module_name}.{name}")
    assert not missing, f"docs/sacrebleu-compat.md has no row for {missing}"


# -- tokenizers --------------------------------------------------------------------------------
LINE = 'Hello, world! It costs $3.50 (or 4,000) 3-4 &amp; 你好世界。 naïve-test... "quoted"'

#: (bleucli module, class, sacreBLEU's output on LINE, signature), frozen from sacreBLEU 2.6.0
TOKENIZED = [
    ("tokenizer_13a", "Tokenizer13a",
     'Hello , world ! It costs $ 3.50 ( or 4,000 ) 3 - 4 & 你好世界。 naïve-test . . . " quoted "', "13a"),
    ("tokenizer_intl", "TokenizerV14International",
     'Hello , world ! It costs $ 3.50 ( or 4,000 ) 3-4 & amp ; 你好世界 。 naïve - test . . . " quoted "', "intl"),
    ("tokenizer_zh", "TokenizerZh",
     'Hello , world ! It costs $ 3.50 ( or 4,000 ) 3 - 4 & amp ; 你 好 世 界 。 naïve-test . . . " quoted "', "zh"),
    ("tokenizer_char", "TokenizerChar",
     'H e l l o ,   w o r l d !   I t   c o s t s   $ 3 . 5 0   ( o r   4 , 0 0 0 )   3 - 4   & a m p ;   '
     '你 好 世 界 。   n a ï v e - t e s t . . .   " q u o t e d "', "char"),
    ("tokenizer_none", "NoneTokenizer", LINE, "none"),
    ("tokenizer_re", "TokenizerRegexp",
     'Hello , world ! It costs $ 3.50 ( or 4,000 ) 3 - 4 & amp ; 你好世界。 naïve-test . . . " quoted "', "re"),
]


@pytest.mark.parametrize(("module", "name", "expected", "signature"), TOKENIZED, ids=[t[1] for t in TOKENIZED])
def test_tokenizers_behave_as_sacrebleus(module: str, name: str, expected: str, signature: str) -> None:
    from bleucli.tokenizers import BaseTokenizer

    tokenizer = getattr(importlib.import_module(f"bleucli.tokenizers.{module}"), name)()
    assert isinstance(tokenizer, BaseTokenizer)
    assert tokenizer(LINE) == expected
    assert tokenizer.signature() == signature


@pytest.mark.parametrize(("module", "name", "expected", "signature"), TOKENIZED, ids=[t[1] for t in TOKENIZED])
def test_tokenizers_against_sacrebleu(module: str, name: str, expected: str, signature: str) -> None:
    pytest.importorskip("sacrebleu")
    theirs = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), name)()
    assert (theirs(LINE), theirs.signature()) == (expected, signature)


@pytest.mark.parametrize("options", [{}, {"normalized": True}, {"no_punct": True, "case_sensitive": True},
                                     {"normalized": True, "no_punct": True, "asian_support": True}])
def test_tercom_tokenizer(options: dict) -> None:
    from bleucli.tokenizers.tokenizer_ter import TercomTokenizer

    mine = TercomTokenizer(**options)
    assert mine.signature() == "tercom"
    frozen = {
        (): 'hello, world! it costs $3.50 (or 4,000) 3-4 &amp; 你好世界。 naïve-test... "quoted"',
        ("normalized",): 'hello , world ! it costs $ 3.50 ( or 4,000 ) 3 - 4 & 你好世界。 naïve-test . . . " quoted "',
    }
    key = tuple(sorted(k for k, v in options.items() if v))
    if key in frozen:
        assert mine(LINE) == frozen[key]
    if _oracle():
        from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as Theirs

        assert mine(LINE) == Theirs(**options)(LINE)


def test_spm_tokenizer_keys() -> None:
    from bleucli.tokenizers import tokenizer_spm

    assert {key: value["signature"] for key, value in tokenizer_spm.SPM_MODELS.items()} == {
        "spm": "flores101", "flores101": "flores101", "flores200": "flores200", "spBLEU-1K": "spBLEU-1K"}
    assert issubclass(tokenizer_spm.Flores200Tokenizer, tokenizer_spm.TokenizerSPM)
    if _oracle():
        from sacrebleu.tokenizers.tokenizer_spm import SPM_MODELS

        assert set(SPM_MODELS) == set(tokenizer_spm.SPM_MODELS)


# -- metrics --------------------------------------------------------------------------------------
def test_metric_module_names() -> None:
    from bleucli.metrics.bleu import MAX_NGRAM_ORDER
    from bleucli.metrics.lib_ter import translation_edit_rate as lib
    from bleucli.metrics.ter import translation_edit_rate

    assert MAX_NGRAM_ORDER == 4 and lib is translation_edit_rate
    cases = [("a b c d e", "c d e a b"), ("the cat sat", ""), ("", "x y"), ("a b a b a", "b a b a b a")]
    frozen = [(1, 5), (3, 0), (2, 2), (1, 6)]
    assert [translation_edit_rate(h.split(), r.split()) for h, r in cases] == frozen
    if _oracle():
        from sacrebleu.metrics.ter import translation_edit_rate as theirs

        assert [theirs(h.split(), r.split()) for h, r in cases] == frozen


HYPS = ["The cat sat on the mat.", "A quick brown fox jumps.", "Hello there"]
REFS = [["The cat is on the mat.", "A fast brown fox jumped.", "Hello there!"]]


def test_score_fields_have_sacrebleus_types() -> None:
    import bleucli

    bleu = bleucli.corpus_bleu(HYPS, REFS)
    assert [type(getattr(bleu, k)) for k in ("counts", "totals", "precisions")] == [list, list, list]
    assert bleu.counts == [12, 6, 2, 1] and bleu.totals == [15, 12, 9, 7]
    assert (type(bleu.sys_len), type(bleu.ref_len), type(bleu.bp)) == (int, int, float)
    sentence = bleucli.sentence_bleu(HYPS[0], [REFS[0][0]])
    assert type(sentence.counts) is list and type(sentence.precisions) is list
    sentences = bleucli.BLEU(effective_order=True).sentence_scores(HYPS, [r[0] for r in REFS])
    assert type(sentences[0].counts) is list
    assert hash(bleu) == hash(bleucli.corpus_bleu(HYPS, REFS))  # scores stay hashable
    chrf, ter = bleucli.corpus_chrf(HYPS, REFS), bleucli.corpus_ter(HYPS, REFS)
    assert (type(chrf.char_order), type(chrf.word_order), type(chrf.beta)) == (int, int, int)
    assert (type(ter.num_edits), type(ter.ref_length)) == (int, float)
    if _oracle():
        import sacrebleu

        for mine, theirs in ((bleu, sacrebleu.corpus_bleu(HYPS, REFS)), (chrf, sacrebleu.corpus_chrf(HYPS, REFS)),
                             (ter, sacrebleu.corpus_ter(HYPS, REFS))):
            for key, value in vars(theirs).items():
                if not key.startswith("_"):
                    assert type(getattr(mine, key)) is type(value), key
                    assert getattr(mine, key) == value, key


def test_json_output_keeps_lists(tmp_path: Path) -> None:
    (tmp_path / "h").write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(REFS[0]) + "\n", encoding="utf-8")
    result = run_subprocess([str(tmp_path / "r"), "-i", str(tmp_path / "h"), "-f", "json"], check=True)
    data = json.loads(result.stdout)
    assert data["verbose_score"] == "80.0/50.0/22.2/14.3 (BP = 0.936 ratio = 0.938 hyp_len = 15 ref_len = 16)"
    assert data["score"] == 31.4


# -- significance ----------------------------------------------------------------------------------
def _systems() -> tuple[list[tuple[str, list[str]]], list[str]]:
    import random

    rng = random.Random(1)
    words = "the a cat dog sat on mat house big small".split()
    refs = [" ".join(rng.choice(words) for _ in range(8)) for _ in range(40)]
    systems = [(f"s{k}", [" ".join(w if rng.random() < 0.3 + 0.2 * k else rng.choice(words) for w in r.split())
                          for r in refs]) for k in range(3)]
    return systems, refs


@pytest.mark.parametrize(("test", "confidence"), [("bs", -1), ("ar", -1), ("ar", 30)])
def test_paired_test_is_sacrebleus(test: str, confidence: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from bleucli.metrics import BLEU, CHRF, TER
    from bleucli.significance import PairedTest, Result

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("BLEUCLI_SEED", raising=False)
    systems, refs = _systems()
    signatures, scores = PairedTest(systems, {"BLEU": BLEU(), "chrF": CHRF(), "TER": TER()}, [refs],
                                    test_type=test, n_samples=100, n_ar_confidence=confidence)()
    assert list(scores) == ["System", "BLEU", "chrF2", "TER"] and scores["System"] == ["s0", "s1", "s2"]
    assert all(isinstance(row, Result) for row in scores["BLEU"])
    assert scores["BLEU"][0].p_value is None and 0 < scores["BLEU"][1].p_value <= 1
    assert ("bs:100" if test == "bs" else "ar:100") in signatures["BLEU"].format()
    assert ("bs:30" in signatures["BLEU"].format()) == (confidence == 30)
    pytest.importorskip("sacrebleu")
    import sacrebleu.metrics as theirs_metrics
    from sacrebleu.significance import PairedTest as TheirPairedTest

    their_signatures, theirs = TheirPairedTest(
        systems, {"BLEU": theirs_metrics.BLEU(), "chrF": theirs_metrics.CHRF(), "TER": theirs_metrics.TER()},
        [refs], test_type=test, n_samples=100, n_ar_confidence=confidence)()
    for metric in ("BLEU", "chrF2", "TER"):
        # the same numbers (sacreBLEU's chrF means are numpy float32: another repr of the same value)
        assert [vars(r) for r in scores[metric]] == [vars(r) for r in theirs[metric]], metric
        assert signatures[metric].format().rsplit("|version:", 1)[0] == \
            str(their_signatures[metric]).rsplit("|version:", 1)[0]


def test_result_and_estimate_ci() -> None:
    from bleucli.significance import Result, estimate_ci

    assert repr(Result(1.5, 0.01)) == "score=1.5,p_value=0.01,mean=None,ci=None"
    assert estimate_ci([1.0, 2.0, 3.5]) == (2.1666666666666665, 1.25)
    if _oracle():
        import numpy as np
        from sacrebleu.significance import Result as Theirs
        from sacrebleu.significance import estimate_ci as their_ci

        assert repr(Theirs(1.5, 0.01)) == repr(Result(1.5, 0.01))
        values = np.random.default_rng(3).random(1000) * 50
        assert estimate_ci(values) == tuple(float(x) for x in their_ci(values))


# -- utils and dataset ---------------------------------------------------------------------------
def test_utils_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bleucli.utils as utils
    from bleucli.errors import LengthMismatchError

    monkeypatch.setenv("BLEUCLI_CACHE_DIR", str(tmp_path / "cache"))
    assert utils._cache_dir() == str(tmp_path / "cache")
    assert isinstance(utils.SACREBLEU_DIR, str)
    assert utils.my_log(0) == -9999999999 and utils.my_log(1.0) == 0.0
    assert utils.sum_of_lists([[1, 2.5], [3, 4]]) == [4, 6.5]
    utils.sanity_check_lengths(["a", "b"], [["x", "y"], ["z", "w"]])
    with pytest.raises(LengthMismatchError, match="hypotheses have 2 segments, reference stream 1 has 1"):
        utils.sanity_check_lengths(["a", "b"], [["x"]])
    systems = [["a"], ["b"]]
    assert utils.filter_subset(systems, None, None, None) is systems
    with pytest.raises(ValueError, match="needs a test"):
        utils.filter_subset(systems, None, None, "en")
    assert utils.get_available_origlangs(None, "en-de") == [] == utils.get_available_subsets(None, "en-de")


def test_print_results_table(capsys: pytest.CaptureFixture[str]) -> None:
    from bleucli.metrics import BLEU
    from bleucli.significance import PairedTest
    from bleucli.utils import print_results_table

    systems, refs = _systems()
    signatures, scores = PairedTest(systems, {"BLEU": BLEU()}, [refs], test_type="bs", n_samples=50)()
    args = SimpleNamespace(format="text", width=1, paired_bs=True, paired_ar=False, paired_bs_n=50, no_color=True)
    print_results_table(scores, signatures, args)
    out = capsys.readouterr().out
    assert "s1" in out and "Paired bootstrap resampling test with 50 resampling trials" in out


def test_dataset_module() -> None:
    from bleucli.dataset import COUNTRIES, DATASETS, DOMAINS, SUBSETS, Dataset

    entry = DATASETS["wmt17"]
    assert isinstance(entry, Dataset) and entry.name == "wmt17" and "en-de" in entry.langpairs
    assert entry.format == "wmt-sgml"  # the registry entry's fields too
    assert "wmt19" in SUBSETS and "politics" in DOMAINS and "GB" in COUNTRIES
    import bleucli

    assert bleucli.DATASETS["wmt17"].name == "wmt17"
    if _oracle():
        from sacrebleu import dataset as theirs

        # sacreBLEU's sets in sacreBLEU's order, then bleucli's own additions (marked origin: bleucli)
        additions = [name for name in DATASETS if DATASETS[name].origin == "bleucli"]
        assert additions == ["ntrex128"]
        assert [name for name in DATASETS if name not in additions] == list(theirs.DATASETS)
        assert (SUBSETS, COUNTRIES, DOMAINS) == (theirs.SUBSETS, theirs.COUNTRIES, theirs.DOMAINS)
        for name in ("wmt17", "wmt22", "iwslt17", "wmt20/robust/set1"):
            assert list(DATASETS[name].langpairs) == list(theirs.DATASETS[name].langpairs)


def test_sacrebleu_main_takes_sacrebleus_argv(tmp_path: Path) -> None:
    (tmp_path / "h").write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(REFS[0]) + "\n", encoding="utf-8")
    code = ("import sys; sys.argv = ['sacrebleu', sys.argv[1], '-i=' + sys.argv[2], '-w=3', '-b'];"
            "from bleucli.sacrebleu import main; main(); print('returned')")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r"), str(tmp_path / "h")],
                         capture_output=True, text=True, env=env, check=True)
    assert out.stdout == "31.404\nreturned\n"


# -- argparse spellings on the command line --------------------------------------------------------
SPELLINGS = [
    ["-w=3"], ["--width=3"], ["-w3"], ["--wid=3"], ["--wid", "3"], ["-tok=intl"], ["--tok=intl"], ["-tok", "char"],
    ["-m=chrf"], ["--met", "chrf", "ter"], ["-f=text"], ["-ftext"], ["-qb"], ["-w", "40"], ["-s=floor", "-sv=0.3"],
    ["--smooth-m=add-k", "-sv=2"], ["-lc"], ["-nr=1"], ["--sentence"], ["-w=2", "--short", "-f", "text"],
]


def _files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "h").write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(REFS[0]) + "\n", encoding="utf-8")
    return str(tmp_path / "r"), str(tmp_path / "h")


#: ``-b`` output of each spelling, frozen from sacreBLEU 2.6.0 (``sacrebleu r -i h SPELLING -b``)
FROZEN_B = {
    "-w=3": "31.404", "--width=3": "31.404", "-w3": "31.404", "--wid=3": "31.404", "--wid 3": "31.404",
    "-tok=intl": "31.4", "--tok=intl": "31.4", "-tok char": "72.6", "-m=chrf": "67.0",
    "--met chrf ter": "[\n67.0,\n30.8\n]", "-f=text": "31.4", "-ftext": "31.4", "-qb": "31.4",
    "-w 40": "31.4039584386857093534217710839584469795227", "-s=floor -sv=0.3": "31.4",
    "--smooth-m=add-k -sv=2": "45.4", "-lc": "31.4", "-nr=1": "31.4",
}


@pytest.mark.parametrize("spelling", SPELLINGS, ids=" ".join)
def test_argparse_spellings(spelling: list[str], tmp_path: Path) -> None:
    ref, hyp = _files(tmp_path)
    mine = run_subprocess([ref, "-i", hyp, *spelling, *(["-b"] if "-qb" not in spelling else [])])
    assert mine.returncode == 0, mine.stderr
    key = " ".join(spelling)
    if key in FROZEN_B:
        assert mine.stdout.decode().strip() == FROZEN_B[key]
    if _oracle():
        theirs = subprocess.run([sys.executable, "-m", "sacrebleu", ref, "-i", hyp, *spelling,
                                 *(["-b"] if "-qb" not in spelling else [])], capture_output=True, cwd=tmp_path)
        assert theirs.returncode == 0, theirs.stderr
        assert mine.stdout.decode().replace("bleucli", "") == theirs.stdout.decode().replace("sacrebleu", "") \
            or _same_lines(mine.stdout.decode(), theirs.stdout.decode())


def _same_lines(mine: str, theirs: str) -> bool:
    """Equal but for the version field of the signatures."""
    import re

    def strip(text: str) -> str:
        return re.sub(r"(version:|v:)[0-9.]+", "", text)

    return strip(mine) == strip(theirs)


def test_input_with_equals_takes_one_file(tmp_path: Path) -> None:
    """``-i=FILE`` gives ``-i`` one value (argparse): words after it are references."""
    ref, hyp = _files(tmp_path)
    mine = run_subprocess(["-i=" + hyp, ref, "-b"])
    assert (mine.returncode, mine.stdout) == (0, b"31.4\n"), mine.stderr


def test_ambiguous_abbreviation_is_an_error(tmp_path: Path) -> None:
    ref, hyp = _files(tmp_path)
    mine = run_subprocess([ref, "-i", hyp, "--sm=floor"])
    assert mine.returncode == 2 and b"--sm" in mine.stderr


# -- shape errors -----------------------------------------------------------------------------------
def test_transposed_references_are_named() -> None:
    import bleucli
    from bleucli.errors import ExitCode, InputError, ReferenceShapeError

    refs = [f"reference {i}" for i in range(50)]
    with pytest.raises(TypeError) as caught:
        bleucli.corpus_bleu(refs, [[r] for r in refs])
    error = caught.value
    assert isinstance(error, InputError) and isinstance(error, ReferenceShapeError)
    assert error.exit_code == ExitCode.DATA == InputError.exit_code
    assert str(error) == ("references look transposed: 50 streams of 1 segment for 50 hypotheses; "
                          "pass [refs] not [[r] for r in refs]")
    pairs = [[r, r + "!"] for r in refs[:3]]
    with pytest.raises(ReferenceShapeError, match=r"3 streams of 2 segments for 3 hypotheses; pass \[list\(s\) for s"):
        bleucli.corpus_chrf(refs[:3], pairs)


@pytest.mark.parametrize("call", [
    lambda b: b.corpus_bleu(["a"], "a"),
    lambda b: b.corpus_bleu("a b", [["a b"]]),
    lambda b: b.corpus_ter(["a"], ["a"]),
    lambda b: b.corpus_chrf(["a"], [[["a"]]]),
    lambda b: b.corpus_bleu(["a"], [None]),
    lambda b: b.BLEU().corpus_score(["a", 3], [["a", "b"]]),
], ids=["refs-string", "hyps-string", "refs-list-of-strings", "nested-too-deep", "stream-none", "hyp-int"])
def test_shape_errors_are_type_errors_and_input_errors(call) -> None:
    import bleucli
    from bleucli.errors import InputError

    with pytest.raises(TypeError) as caught:
        call(bleucli)
    assert isinstance(caught.value, InputError) and "\n" not in str(caught.value)


def test_length_messages_stay_short() -> None:
    import bleucli
    from bleucli.errors import LengthMismatchError, ReferenceShapeError

    streams = [["x"] * 3] + [["y"] * 2] * 49
    with pytest.raises(LengthMismatchError) as caught:
        bleucli.corpus_bleu(["a"] * 3, streams)
    message = str(caught.value)
    assert isinstance(caught.value, ReferenceShapeError) and len(message) < 200, message
    assert message == ("hypothesis and reference streams have different lengths (hypotheses have 3 segments, "
                       "reference stream 1 has 3, reference stream 2 has 2, reference stream 3 has 2 "
                       "and 47 more streams of 2)")
    with pytest.raises(LengthMismatchError, match="and 47 more streams of 2"):
        bleucli.BLEU(references=streams)
