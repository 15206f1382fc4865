"""iBLEU: the formula of Sun & Zhou (2012) over sacreBLEU's BLEU, at corpus and sentence level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleucli.errors import InputError, OptionError
from bleucli.family.ibleu import ibleu
from bleucli.metrics.bleu import BLEU
from conftest import invoke
from datasets import DATA, lines

TED = DATA / "ted-sk-en"
HYPS = lines(TED / "sys" / "sys1.en.gz")[:300]
REFS = lines(TED / "ref.en.gz")[:300]
#: A stand-in for the source side (paraphrase input): the other system's output, in the same language.
SRCS = lines(TED / "sys" / "sys2.en.gz")[:300]


def test_corpus_level_is_the_formula_over_corpus_bleu() -> None:
    metric = BLEU()
    result = ibleu(HYPS, [REFS], SRCS)
    to_refs, to_src = metric.corpus_score(HYPS, [REFS]).score, metric.corpus_score(HYPS, [SRCS]).score
    assert result.bleu_references == to_refs and result.bleu_source == to_src
    assert result.score == 0.8 * to_refs - (1 - 0.8) * to_src
    assert result.score < to_refs  # the penalty is subtracted
    assert str(result.signature).startswith("nrefs:1|alpha:0.8|level:corpus|case:mixed|eff:no|tok:13a|smooth:exp|")


@pytest.mark.oracle
def test_corpus_level_equals_sacrebleu_terms() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    expected = 0.9 * sacrebleu.corpus_bleu(HYPS, [REFS]).score - (1 - 0.9) * sacrebleu.corpus_bleu(HYPS, [SRCS]).score
    assert ibleu(HYPS, [REFS], SRCS, alpha=0.9).score == expected


@pytest.mark.oracle
def test_sentence_level_equals_mean_of_sacrebleu_sentence_terms() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    total = 0.0
    for h, r, s in zip(HYPS[:80], REFS[:80], SRCS[:80]):
        total += 0.8 * sacrebleu.sentence_bleu(h, [r]).score - (1 - 0.8) * sacrebleu.sentence_bleu(h, [s]).score
    assert ibleu(HYPS[:80], [REFS[:80]], SRCS[:80], sentence_level=True).score == total / 80


def test_sentence_level_is_the_mean_of_segment_formulas() -> None:
    metric = BLEU(effective_order=True)
    total = 0.0
    for h, r, s in zip(HYPS[:50], REFS[:50], SRCS[:50]):
        total += 0.8 * metric.sentence_score(h, [r]).score - (1 - 0.8) * metric.sentence_score(h, [s]).score
    result = ibleu(HYPS[:50], [REFS[:50]], SRCS[:50], sentence_level=True)
    assert result.score == total / 50
    assert "level:sentence" in str(result.signature) and "eff:yes" in str(result.signature)


def test_alpha_extremes() -> None:
    assert ibleu(HYPS, [REFS], SRCS, alpha=1.0).score == BLEU().corpus_score(HYPS, [REFS]).score
    assert ibleu(HYPS, [REFS], SRCS, alpha=0.0).score == -BLEU().corpus_score(HYPS, [SRCS]).score


def test_bad_input() -> None:
    with pytest.raises(OptionError):
        ibleu(HYPS, [REFS], SRCS, alpha=1.5)
    with pytest.raises(InputError, match="source has 299 segments"):
        ibleu(HYPS, [REFS], SRCS[:-1])


def _write(tmp_path: Path, name: str, text: list[str]) -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in text), encoding="utf-8")
    return str(path)


def test_cli(tmp_path: Path) -> None:
    hyp, ref, src = _write(tmp_path, "h", HYPS), _write(tmp_path, "r", REFS), _write(tmp_path, "s", SRCS)
    result = invoke(["ibleu", ref, "-i", hyp, "--source", src, "--alpha", "0.9"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    expected = ibleu(HYPS, [REFS], SRCS, alpha=0.9)
    assert data["unrounded_score"] == expected.score and data["alpha"] == "0.9"
    assert data["bleu_references"] == expected.bleu_references and data["bleu_source"] == expected.bleu_source
    text = invoke(["ibleu", ref, "-i", hyp, "--source", src, "-f", "text", "-w", "2"])
    assert text.stdout.startswith("iBLEU|nrefs:1|alpha:0.8|level:corpus|")
    assert text.stdout.endswith(f"= {ibleu(HYPS, [REFS], SRCS).score:.2f} (BLEU refs = "
                                f"{expected.bleu_references:.2f}, BLEU source = {expected.bleu_source:.2f})\n")


def test_cli_errors(tmp_path: Path) -> None:
    hyp, ref, src = _write(tmp_path, "h", HYPS), _write(tmp_path, "r", REFS), _write(tmp_path, "s", SRCS[:10])
    short = invoke(["ibleu", ref, "-i", hyp, "--source", src])
    assert short.exit_code == 3 and short.stderr == f"bleucli: error: {src}: has 10 lines but the hypotheses have 300\n"
    empty = invoke(["ibleu", ref, "-i", _write(tmp_path, "e", []), "--source", src])
    assert empty.exit_code == 3 and "the file is empty" in empty.stderr
    assert invoke(["ibleu", ref, "-i", hyp, "--source", src, "--alpha", "2"]).exit_code == 2
