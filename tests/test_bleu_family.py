"""``bleucli nltk`` and ``bleucli which-bleu``: the CLI's numbers are the libraries' and the oracles'."""

from __future__ import annotations

import gzip
import json
import warnings
from pathlib import Path

import pytest

from bleucli.family import nltk as bn
from bleucli.family.multibleu import multi_bleu
from bleucli.tokenizers import get_tokenizer
from conftest import invoke
from datasets import DATA, lines, tsv_rows

NLTK_ANCHOR = 0.22430878891820927  # NLTK 3.10 corpus_bleu, ted-sk-en tok sys1 (the figure)


@pytest.fixture
def ted_tok(tmp_path: Path) -> tuple[str, str]:
    for name, source in (("ref", "tok/ref.en.gz"), ("hyp", "tok/sys1.en.gz")):
        (tmp_path / name).write_bytes(gzip.decompress((DATA / "ted-sk-en" / source).read_bytes()))
    return str(tmp_path / "ref"), str(tmp_path / "hyp")


@pytest.fixture
def ted_detok(tmp_path: Path) -> tuple[str, str]:
    for name, source in (("dref", "ref.en.gz"), ("dhyp", "sys/sys1.en.gz")):
        (tmp_path / name).write_bytes(gzip.decompress((DATA / "ted-sk-en" / source).read_bytes()))
    return str(tmp_path / "dref"), str(tmp_path / "dhyp")


def test_nltk_command_anchor_and_signature(ted_tok: tuple[str, str]) -> None:
    ref, hyp = ted_tok
    result = invoke(["nltk", ref, "-i", hyp, "-tok", "none"])
    assert result.exit_code == 0
    assert result.stdout == ("BLEU-nltk|nrefs:1|case:mixed|tok:none|weights:0.25,0.25,0.25,0.25|smooth:method0|"
                             f"nltk:3.10|version:{result.stdout.rsplit('version:', 1)[1].split(' ')[0]} = "
                             f"{NLTK_ANCHOR!r}\n")


def test_nltk_command_several_weights_and_smoothing_json(ted_tok: tuple[str, str]) -> None:
    ref, hyp = ted_tok
    result = invoke(["nltk", ref, "-i", hyp, "-tok", "none", "-w", "1", "-w", "0,0,0,1", "--smoothing", "7",
                     "--k", "3", "-f", "json"])
    assert result.exit_code == 0
    records = json.loads(result.stdout)
    refs = [[line.split()] for line in lines(ref)]
    hyps = [line.split() for line in lines(hyp)]
    expected = bn.corpus_bleu(refs, hyps, [(1.0,), (0.0, 0.0, 0.0, 1.0)], bn.SmoothingFunction(k=3).method7)
    assert [r["score"] for r in records] == expected
    assert [r["smooth"] for r in records] == ["method7[k=3.0]"] * 2 and records[1]["weight_tuple"] == [0, 0, 0, 1]


def test_nltk_command_sentence_level(ted_tok: tuple[str, str]) -> None:
    ref, hyp = ted_tok
    result = invoke(["nltk", ref, "-tok", "none", "-sl", "--smoothing", "1"], input=Path(hyp).read_bytes())
    assert result.exit_code == 0
    method1 = bn.SmoothingFunction().method1
    expected = [repr(bn.sentence_bleu([r.split()], h.split(), smoothing_function=method1))
                for r, h in zip(lines(ref), lines(hyp))]
    assert result.stdout.splitlines() == expected


def test_nltk_command_errors(ted_tok: tuple[str, str], tmp_path: Path) -> None:
    ref, hyp = ted_tok
    assert invoke(["nltk", ref, "-i", hyp, "-w", "a,b"]).exit_code == 2
    assert invoke(["nltk", ref, "-i", hyp, "--smoothing", "8"]).exit_code == 2
    (tmp_path / "short").write_text("one line\n", encoding="utf-8")
    mismatch = invoke(["nltk", ref, "-i", str(tmp_path / "short")])
    assert mismatch.exit_code == 3 and "2445 lines" in mismatch.stderr and mismatch.stdout == ""
    (tmp_path / "three").write_text("a b c\n", encoding="utf-8")
    method6 = invoke(["nltk", str(tmp_path / "three"), "--smoothing", "6"], input=b"a b d\n")
    assert method6.exit_code == 3 and "trigram" in method6.stderr


def test_which_bleu_every_row_from_its_own_definition(ted_detok: tuple[str, str]) -> None:
    ref, hyp = ted_detok
    result = invoke(["which-bleu", ref, "-i", hyp, "-f", "json"])
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    published = {row["system"]: row for row in tsv_rows("ted-sk-en", "SACREBLEU_2.6.0.tsv")}
    sacre = rows["sacreBLEU"]
    assert sacre["signature"] == "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" + \
        sacre["signature_fields"]["version"]
    assert repr(sacre["score"]) in json.dumps(published)
    tok = get_tokenizer("13a").tokens
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nltk_value = bn.corpus_bleu([[tok(r)] for r in lines(ref)], [tok(h) for h in lines(hyp)])
    assert rows["NLTK corpus_bleu"]["score"] == 100 * nltk_value
    perl = multi_bleu(Path(hyp).read_bytes(), [ref], detok=True)  # the detok script tokenizes with 13a too
    assert rows["multi-bleu.perl"]["score"] == 100 * perl.score
    assert rows["shortest-ref BP"]["score"] == sacre["score"]  # one reference: the same BP
    assert rows["NLTK corpus_bleu"]["delta"] == rows["NLTK corpus_bleu"]["score"] - sacre["score"]


def test_which_bleu_text_table(ted_detok: tuple[str, str]) -> None:
    ref, hyp = ted_detok
    text = invoke(["which-bleu", ref, "-i", hyp]).stdout.splitlines()
    assert text[0].split() == ["definition", "BLEU", "delta", "signature"]
    assert [line.split("  ")[0] for line in text[1:]] == ["sacreBLEU", "NLTK corpus_bleu", "multi-bleu.perl",
                                                          "shortest-ref BP"]
    assert "BLEU-nltk|" in text[2] and "|moses:multi-bleu.perl|" in text[3] and "|reflen:shortest|" in text[4]
