"""Google-BLEU: NLTK 3.10's gleu_score, frozen and (when NLTK is installed) live, with both matchers."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bleucli.errors import OptionError
from bleucli.family.google_bleu import corpus_gleu, google_bleu, sentence_gleu
from conftest import invoke
from golden.regenerate_google_bleu import cases

GOLDEN = json.loads((Path(__file__).parent / "golden" / "google_bleu_nltk.json").read_text())["cases"]
CASES = cases()
#: The issue's anchor: NLTK corpus_gleu on ted-sk-en/tok system 1 (whitespace tokens).
ANCHOR = 0.2754023334264412


def _tokens(name: str) -> tuple[list[list[str]], list[list[list[str]]], int, int]:
    hyps, refs, low, high = CASES[name]
    return [h.split() for h in hyps], [[r.split() for r in seg] for seg in zip(*refs)], low, high


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_equals_frozen_nltk(name: str, matcher: str) -> None:
    hyps, refs, low, high = _tokens(name)
    assert corpus_gleu(refs, hyps, low, high) == GOLDEN[name]["corpus"]
    assert [sentence_gleu(r, h, low, high) for r, h in zip(refs[:100], hyps[:100])] == \
        GOLDEN[name]["sentences_first_100"]


def test_anchor_figure_of_the_issue() -> None:
    hyps, refs, _, _ = CASES["ted-tok-sys1"]
    assert GOLDEN["ted-tok-sys1"]["corpus"] == ANCHOR
    result = google_bleu(hyps, refs)
    assert result.score == ANCHOR
    assert str(result.signature).startswith("nrefs:1|min:1|max:4|tok:whitespace|")


@pytest.mark.oracle
def test_random_ties_and_empty_sentences_equal_live_nltk(matcher: str) -> None:
    """Small vocabularies make equal ratios (NLTK keeps the first best reference) and empty pairs."""
    gleu_score = pytest.importorskip("nltk.translate.gleu_score")
    rng = random.Random(4)
    for _ in range(150):
        def sentence() -> list[str]:
            return [rng.choice("abc") for _ in range(rng.randint(0, 6))]
        hyps = [sentence() for _ in range(rng.randint(1, 4))]
        refs = [[sentence() for _ in range(rng.randint(1, 3))] for _ in hyps]
        low = rng.randint(1, 3)
        high = rng.randint(low, 5)
        assert corpus_gleu(refs, hyps, low, high) == gleu_score.corpus_gleu(refs, hyps, low, high)
        assert sentence_gleu(refs[0], hyps[0], low, high) == gleu_score.sentence_gleu(refs[0], hyps[0], low, high)


def test_bad_orders() -> None:
    # the string API refuses them; NLTK's call shapes give NLTK's figures (test_nltk_edges.py)
    with pytest.raises(OptionError):
        google_bleu(["a"], [["a"]], 3, 2)
    with pytest.raises(OptionError):
        google_bleu(["a"], [["a"]], 0, 2)
    assert corpus_gleu([[["a"]]], [["a"]], 3, 2) == 0.0
    assert corpus_gleu([[["a", "b"]]], [["a", "c"]], 0, 2) == 3 / 5  # (), (), ("a",) of 5 n-grams


def test_cli(tmp_path: Path) -> None:
    hyps, refs, _, _ = CASES["wmt21-en-de-3refs"]
    paths = []
    for name, text in (("h", hyps), ("r1", refs[0]), ("r2", refs[1]), ("r3", refs[2])):
        (tmp_path / name).write_text("".join(line + "\n" for line in text), encoding="utf-8")
        paths.append(str(tmp_path / name))
    result = invoke(["google-bleu", *paths[1:], "-i", paths[0]])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["unrounded_score"] == GOLDEN["wmt21-en-de-3refs"]["corpus"] and data["nrefs"] == "3"
    six = invoke(["google-bleu", *paths[1:], "-i", paths[0], "--max-order", "6", "-f", "text"])
    assert six.stdout.startswith("Google-BLEU|nrefs:3|min:1|max:6|tok:whitespace|")
    assert six.stdout.endswith(f" = {GOLDEN['wmt21-en-de-3refs-orders-1-6']['corpus']:.4f}\n")
    (tmp_path / "short").write_text("x\n")
    bad = invoke(["google-bleu", paths[1], "-i", str(tmp_path / "short")])
    assert bad.exit_code == 3 and bad.stderr.startswith(f"bleucli: error: {paths[1]}: has 400 lines")


def test_nltk_call_shapes_in_bleucli_nltk() -> None:
    from bleucli.family import nltk as bleucli_nltk

    hyps, refs, low, high = _tokens("ted-tok-sys1-orders-2-3")
    expected = GOLDEN["ted-tok-sys1-orders-2-3"]
    assert bleucli_nltk.corpus_gleu(refs, hyps, min_len=low, max_len=high) == expected["corpus"]
    assert bleucli_nltk.sentence_gleu(refs[0], hyps[0], low, high) == expected["sentences_first_100"][0]
