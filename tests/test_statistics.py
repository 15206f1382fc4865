"""Statistics add up in sacreBLEU's order however the corpus is split (chunks, -j, shards).

TER's average reference length is a float: with three references it is a third,
and a sum grouped by chunks differs from sacreBLEU's left-to-right loop in the last
bit (2,600 segments here: chunks of 2,000 gave a different float before the
per-segment values were kept). The expected value was printed by sacreBLEU 2.6.0
for the same generated corpus; the live oracle is compared too when installed.
"""

from __future__ import annotations

import random
from functools import reduce
from operator import add

import pytest

from bleucli import BLEU, CHRF, TER
from bleucli.engine.streaming import score_streams
from bleucli.input.reading import FileLines
from bleucli.statistics import Statistics, sum_rows, total

SACREBLEU_TER_3REFS = 73.84003535130358  # sacreBLEU 2.6.0, corpus() below


def corpus() -> tuple[list[str], list[list[str]]]:
    rng = random.Random(2026)
    words = "a b c d e f".split()
    n = 2600
    hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 6))) for _ in range(n)]
    refs = [[" ".join(rng.choice(words) for _ in range(rng.randint(0, 7))) for _ in range(n)] for _ in range(3)]
    return hyps, refs


def test_ter_with_three_references_is_sacrebleus_float_on_every_path(tmp_path) -> None:  # noqa: ANN001
    hyps, refs = corpus()
    assert TER().corpus_score(hyps, refs).score == SACREBLEU_TER_3REFS
    assert TER(references=refs).corpus_score(hyps).score == SACREBLEU_TER_3REFS
    paths = []
    for k, lines in enumerate([hyps, *refs]):
        path = tmp_path / f"f{k}"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        paths.append(str(path))
    for jobs in (1, 2):  # in-process chunks, and workers reading their own line ranges
        (score,) = score_streams(TER(), [FileLines(paths[0])], [FileLines(p) for p in paths[1:]], ["h"],
                                 paths[1:], jobs=jobs)
        assert score.score == SACREBLEU_TER_3REFS, jobs


@pytest.mark.oracle
def test_ter_with_three_references_equals_the_live_oracle() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, refs = corpus()
    assert sacrebleu.metrics.TER().corpus_score(hyps, refs).score == SACREBLEU_TER_3REFS


@pytest.mark.slow
@pytest.mark.parametrize("metric", [BLEU(), CHRF(word_order=2), TER()], ids=["bleu", "chrf++", "ter"])
def test_any_split_adds_up_to_the_single_chunk(metric) -> None:  # noqa: ANN001
    hyps, refs = corpus()
    segment_refs = list(zip(*refs))
    whole = metric.chunk_statistics([hyps], segment_refs)[0]
    rng = random.Random(7)
    for _ in range(5):
        cuts = sorted(rng.sample(range(1, len(hyps)), 6))
        bounds = list(zip([0, *cuts], [*cuts, len(hyps)]))
        parts = [metric.chunk_statistics([hyps[a:b]], segment_refs[a:b])[0] for a, b in bounds]
        assert total(parts).totals() == whole.totals()
        assert reduce(add, parts).totals() == whole.totals()  # pairwise addition, same result
        assert total(parts).segments == len(hyps)


def test_float_columns_are_summed_left_to_right_not_compensated() -> None:
    """sacreBLEU adds one value after the other; Python 3.12's sum() of floats is compensated."""
    rows = [[1, 1e16], [1, 1.0], [1, -1e16]]
    assert sum_rows(rows) == [3, 0.0]  # (1e16 + 1.0) rounds to 1e16; a compensated sum gives 1.0
    assert Statistics.of_rows(rows).totals() == [3, 0.0]


def test_statistics_of_different_metrics_do_not_add() -> None:
    bleu = BLEU().chunk_statistics([["a b"]], [("a b",)])[0]
    ter = TER().chunk_statistics([["a b"]], [("a b",)])[0]
    with pytest.raises(ValueError):
        bleu + ter
    with pytest.raises(ValueError):
        total([bleu, ter])
