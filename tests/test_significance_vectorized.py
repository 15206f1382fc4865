"""The vectorised scoring of resampled statistics gives the scalar reference's bits.

``Metric.scores_from_statistics_matrix`` of the base class calls
``resampled_score`` once per row: that is the reference (sacreBLEU's arithmetic,
row by row). BLEU, chrF and TER compute the same values for whole matrices with
numpy (:mod:`bleucli.metrics.vectorized`); every value, its dtype and the p-values,
means and intervals built from them must be those of the reference, on real
resamples of real statistics (both n-gram matchers) and on the edge cases of
float32 sums: zero lengths and totals, sums beyond 2**24, fractional values,
rows that return a Python float among float32 ones.
"""

from __future__ import annotations

from functools import cache

import pytest

import datasets
from bleucli import significance
from bleucli.metrics.base import Metric
from bleucli.metrics.bleu import BLEU
from bleucli.metrics.chrf import CHRF
from bleucli.metrics.ter import TER
from bleucli.significance import (
    bootstrap_sums,
    c_bootstrap,
    confidence_interval,
    paired_approximate_randomization,
    paired_bootstrap,
    randomization_sums,
)
from fast_subset import slow_except

np = pytest.importorskip("numpy")

#: numpy 1 promotes float32 against Python floats differently: the vectorised path steps aside there.
NUMPY_2 = int(np.__version__.split(".")[0]) >= 2
SET = "wmt22-en-de"
SYSTEMS = 3
SEGMENTS = 100


def reference(metric: Metric, matrix: object) -> object:
    """The scalar path: ``resampled_score`` row by row."""
    return Metric.scores_from_statistics_matrix(metric, matrix)


def assert_same_bits(got: object, expected: object) -> None:
    assert got.dtype == expected.dtype  # type: ignore[attr-defined]
    assert got.shape == expected.shape  # type: ignore[attr-defined]
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))  # type: ignore[attr-defined]


def real_statistics(name: str, matcher: str) -> list[np.ndarray]:
    """Per-segment statistics of a few real systems (computed once per metric and matcher)."""
    return _statistics(name, matcher)


@cache
def _statistics(name: str, matcher: str) -> list[np.ndarray]:
    metric = METRICS[name]()
    refs = datasets.references(SET)
    refs = [r[:SEGMENTS] for r in refs]
    names = sorted(datasets.system_name(p) for p in datasets.system_paths(SET))[:SYSTEMS]
    return [np.asarray(metric.corpus_statistics(list(datasets.system(SET, n))[:SEGMENTS], refs)) for n in names]


METRICS = {
    "bleu": lambda: BLEU(),
    "bleu-none": lambda: BLEU(smooth_method="none"),
    "bleu-floor": lambda: BLEU(smooth_method="floor", smooth_value=0.1),
    "bleu-add-k": lambda: BLEU(smooth_method="add-k", smooth_value=1),
    "bleu-effective-order-2": lambda: BLEU(effective_order=True, max_ngram_order=2),
    "chrf": lambda: CHRF(),
    "chrf++-beta3": lambda: CHRF(word_order=2, beta=3),
    "chrf-eps": lambda: CHRF(eps_smoothing=True),
    "ter": lambda: TER(),
}


@pytest.mark.parametrize("name", slow_except(list(METRICS), {"bleu", "chrf++-beta3", "ter"}))
def test_real_resamples_score_as_the_scalar_path(matcher: str, name: str) -> None:
    metric = METRICS[name]()
    stats = real_statistics(name, matcher)
    n = 130
    draws = significance._bootstrap_draws(np.random.default_rng(7), stats[0].shape[0], n)
    sums = bootstrap_sums(stats, draws, n)
    draws = significance._randomization_draws(np.random.default_rng(7), stats[0].shape[0], n)
    pseudo = [m for pair in randomization_sums([(stats[0], s) for s in stats[1:]], draws, n) for m in pair]
    for matrix in [*sums, *pseudo, *stats]:  # float32 sums, integer (or float64) sums, single segments
        assert_same_bits(metric.scores_from_statistics_matrix(matrix), reference(metric, matrix))
        if NUMPY_2 and name != "chrf-eps":  # the vectorised path did run (it returns None where it steps aside)
            assert vectorised(metric, matrix) is not None


def vectorised(metric: Metric, matrix: object) -> object:
    from bleucli.metrics import vectorized

    if isinstance(metric, BLEU):
        return vectorized.bleu_scores(matrix, metric.max_ngram_order, metric.smooth_method, metric.smooth_value,
                                      metric.effective_order, -9999999999)
    if isinstance(metric, CHRF):
        return vectorized.chrf_scores(matrix, metric.order, metric.beta, metric.eps_smoothing)
    return vectorized.ter_scores(matrix)


def bleu_edge_rows(order: int) -> np.ndarray:
    """BLEU rows [sys_len, ref_len, correct..., total...] at every edge of the scalar code."""
    rows = [
        [0, 0, *[0] * order, *[0] * order],  # empty hypothesis and reference
        [0, 5, *[0] * order, *[0] * order],  # empty hypothesis: BP 0
        [5, 0, *[0] * order, 5, 4, 3, 2][: 2 + 2 * order],  # no match at all: 0 before any smoothing
        [5, 9, 3, 0, 0, 0, 5, 4, 3, 2][: 2 + 2 * order],  # zero matches above order 1
        [3, 3, 2, 1, *[0] * (order - 2), 3, 2, *[0] * (order - 2)],  # totals 0 from order 3: the loop leaves
        [1, 7, 1, *[0] * (order - 1), 1, *[0] * (order - 1)],
        [16_777_217, 16_777_219, 16_777_215, 9, 3, 1, 16_777_217, 16_777_216, 16_777_215, 16_777_214][: 2 + 2 * order],
        [7, 7, 7, 6, 5, 4, 7, 6, 5, 4][: 2 + 2 * order],  # perfect
    ]
    return np.array(rows)


@pytest.mark.parametrize("smooth", [("exp", None), ("none", None), ("floor", 0.1), ("floor", 3), ("add-k", 1),
                                    ("add-k", 0.5), ("add-k", 0)])
@pytest.mark.parametrize("effective", [False, True])
@pytest.mark.parametrize("order", [4, 2])
def test_bleu_edge_rows(smooth: tuple[str, float | None], effective: bool, order: int) -> None:
    metric = BLEU(smooth_method=smooth[0], smooth_value=smooth[1], effective_order=effective, max_ngram_order=order)
    rows = bleu_edge_rows(order)
    rnd = np.random.default_rng(order)
    fractions = rows + rnd.random(rows.shape) * (rows > 0)  # float32 sums of non-integer statistics
    for matrix in (rows, rows.astype(np.float32), rows.astype(np.float64), fractions.astype(np.float32),
                   fractions, rows.astype(np.int32)):
        assert_same_bits(metric.scores_from_statistics_matrix(matrix), reference(metric, matrix))


def chrf_edge_rows(order: int) -> np.ndarray:
    rnd = np.random.default_rng(order)
    rows = rnd.integers(0, 40, size=(300, 3 * order))
    rows[:, 2::3] = np.minimum(rows[:, 2::3], np.minimum(rows[:, 0::3], rows[:, 1::3]))
    rows[rnd.random(rows.shape) < 0.2] = 0  # hypothesis or reference without n-grams at some orders
    rows[0] = 0  # no order counts: a Python 0.0 among the float32 values
    rows[1, 2::3] = 0  # n-grams on both sides, no match: precision and recall 0
    rows[2] = 2**24 + 1  # beyond float32's exact integers
    return rows


@pytest.mark.parametrize("beta", [2, 1, 3])
@pytest.mark.parametrize("order", [6, 8, 1])
def test_chrf_edge_rows(beta: int, order: int) -> None:
    metric = CHRF(char_order=order - 2 if order == 8 else order, word_order=2 if order == 8 else 0, beta=beta)
    rows = chrf_edge_rows(order)
    nonzero = rows[3:]
    nonzero = nonzero[(nonzero[:, 0::3] > 0).all(axis=1) & (nonzero[:, 1::3] > 0).all(axis=1)
                      & (nonzero[:, 2::3] > 0).any(axis=1)]
    for matrix in (rows, rows.astype(np.float32), rows.astype(np.float64), (rows * 0.37).astype(np.float32),
                   nonzero.astype(np.float32), rows.astype(np.int32)):
        expected = reference(metric, matrix)
        assert_same_bits(metric.scores_from_statistics_matrix(matrix), expected)
    if NUMPY_2:  # every row a float32: the array stays float32, as sacreBLEU's
        assert reference(metric, nonzero.astype(np.float32)).dtype == np.float32
        assert reference(metric, rows.astype(np.float32)).dtype == np.float64


def test_ter_edge_rows() -> None:
    metric = TER()
    rows = np.array([[0, 0], [3, 0], [0, 4.5], [7, 3.25], [16_777_217, 3], [1e-3, 7e5], [2, 1 / 3]])
    for matrix in (rows, rows.astype(np.float32), rows[2:].astype(np.float32), rows.astype(np.int64)):
        assert_same_bits(metric.scores_from_statistics_matrix(matrix), reference(metric, matrix))


def test_what_is_not_replicated_takes_the_scalar_path() -> None:
    from bleucli.metrics import vectorized

    huge = np.array([[2**53 + 1, 2**53, *[2**52] * 8]])  # Python ints beyond float64's exact range
    assert vectorized.bleu_scores(huge, 4, "exp", None, False, -9999999999) is None
    assert vectorized.chrf_scores(np.ones((2, 18)), 6, 2, True) is None  # eps smoothing
    assert vectorized.ter_scores(np.ones((2, 2), dtype=np.float16)) is None
    metric = BLEU()
    assert_same_bits(metric.scores_from_statistics_matrix(huge), reference(metric, huge))
    if not NUMPY_2:
        assert vectorized.ter_scores(np.ones((2, 2))) is None


# -- whole tests: the same results through either path -------------------------------------------------
def scalar_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in (BLEU, CHRF, TER):
        monkeypatch.setattr(cls, "scores_from_statistics_matrix", Metric.scores_from_statistics_matrix)


@pytest.mark.parametrize("name", slow_except(["bleu", "chrf", "ter"], {"bleu", "chrf"}))
def test_paired_tests_and_intervals_equal_the_scalar_path(matcher: str, name: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    metric = METRICS[name]()
    stats = real_statistics(name, matcher)

    def run() -> list[object]:
        bs = paired_bootstrap(metric, stats[0], stats[1:], 150, 12345, nrefs=1)
        ar = paired_approximate_randomization(metric, stats[0], stats[1:], 192, 12345, nrefs=1)
        ci = confidence_interval(metric, stats[1], 150, 3, nrefs=1)
        return [bs, [d.tobytes() for d in bs.deltas], ar, ci.mean, ci.ci]

    fast = run()
    scalar_everywhere(monkeypatch)
    assert run() == fast


# -- the draws, and the counts shared by the metrics of a run ---------------------------------------
@pytest.mark.parametrize("n_seg", [1, 3, 2037])
def test_bootstrap_draws_are_the_stream_of_choice(n_seg: int) -> None:
    """sacreBLEU draws with ``rng.choice(n_seg, size=(n, n_seg))``: the blocks drawn here are that stream."""
    n = 130
    expected = np.random.default_rng(12345).choice(n_seg, size=(n, n_seg), replace=True)
    for block in (None, 64, 7):
        got = np.concatenate(list(significance._bootstrap_draws(np.random.default_rng(12345), n_seg, n, block)))
        assert got.dtype == expected.dtype and np.array_equal(got, expected)


@pytest.mark.parametrize("kind", ["int", "float", "big-int"])
def test_shared_counts_give_the_sums_of_the_draws(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = np.random.default_rng(2)
    if kind == "int":
        matrices = [rnd.integers(0, 60, size=(301, 4)), rnd.integers(0, 9, size=(301, 18))]
    elif kind == "big-int":  # float32 sums beyond 2**24: summed literally, in draw order
        matrices = [rnd.integers(0, 2**22, size=(301, 2)), rnd.integers(0, 9, size=(301, 3))]
    else:
        matrices = [rnd.random((301, 2)) * 40, rnd.integers(0, 9, size=(301, 3))]
    for seed in (12345, 0):
        c_bootstrap.counts_cache.clear()
        expected = bootstrap_sums(matrices, significance._bootstrap_draws(np.random.default_rng(seed), 301, 150), 150)
        for _ in range(2):  # counted, then taken from the cache
            got = significance._seeded_bootstrap_sums(matrices, seed, 150)
            for g, e in zip(got, expected):
                assert g.dtype == e.dtype and np.array_equal(g, e)
    monkeypatch.setattr(c_bootstrap, "COUNTS_CACHE_ELEMENTS", 10)  # too large to keep: streamed
    got = significance._seeded_bootstrap_sums(matrices, 0, 150)
    assert all(np.array_equal(g, e) for g, e in zip(got, expected))


class RowByRowBLEU(BLEU):
    """A metric with only the per-row reference, as a plugin metric has: its rows go to workers with ``jobs``."""

    scores_from_statistics_matrix = Metric.scores_from_statistics_matrix


def test_row_by_row_metrics_are_scored_in_workers_with_the_same_results(matcher: str) -> None:
    stats = real_statistics("bleu", matcher)
    vectorised_result = paired_bootstrap(BLEU(), stats[0], stats[1:], 150, 12345, nrefs=1)
    for jobs in (1, 2):
        result = paired_bootstrap(RowByRowBLEU(), stats[0], stats[1:], 150, 12345, nrefs=1, jobs=jobs)
        assert result == vectorised_result
        assert [d.tobytes() for d in result.deltas] == [d.tobytes() for d in vectorised_result.deltas]


def test_corpus_totals_are_the_metrics_own_sums() -> None:
    rnd = np.random.default_rng(4)
    rows = rnd.integers(0, 50, size=(77, 10)).tolist()
    ter_rows = [[e, r / 3] for e, r in rnd.integers(0, 50, size=(77, 2)).tolist()]
    for metric, stats in ((BLEU(), rows), (TER(), ter_rows), (BLEU(), np.array(rows, dtype=np.int32))):
        matrix = np.asarray(stats)
        got = significance._corpus_totals(metric, stats, matrix)
        expected = metric.aggregate([list(row) for row in (stats.tolist() if hasattr(stats, "tolist") else stats)])
        assert got == expected and [type(v) for v in got] == [type(v) for v in expected]


@pytest.mark.parametrize("n_seg", [1, 13, 301])
def test_kept_randomization_masks_are_the_draws(n_seg: int) -> None:
    significance._masks_cache.clear()
    expected = list(significance._randomization_draws(np.random.default_rng(5), n_seg, 300))
    for _ in range(2):  # drawn, then unpacked from the cache
        got = list(significance._seeded_masks(5, n_seg, 300))
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype and np.array_equal(g, e)
