"""A seeded bootstrap in C without numpy gives numpy's path's bits: sums, scores, means, CIs, p-values.

:mod:`bleucli.significance.c_bootstrap` computes a seeded ``-pbs`` and ``-ci`` of
BLEU and chrF in the extension, so that such a run never imports numpy. The
numpy path (sums from a product of counts, :mod:`bleucli.metrics.vectorized`,
numpy's sort and mean) is the reference: every number here is compared with
it, bit for bit, on real statistics (both matchers: RowMatrix and list rows),
on random sums with the edge rows the scorers decline, on every length the
pairwise summation treats differently, and with both of Python's ``sum``
rules. The C path must also actually run where it applies: a silent fallback
would pass the equality tests while leaving numpy in every run.
"""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from array import array
from typing import Any

import pytest

import datasets
from bleucli import significance
from bleucli.engine.rows import RowMatrix
from bleucli.errors import InputError
from bleucli.metrics import resampled, vectorized
from bleucli.metrics.base import Metric
from bleucli.metrics.bleu import BLEU
from bleucli.metrics.chrf import CHRF
from bleucli.metrics.compiled import compiled_matcher
from bleucli.significance import c_bootstrap
from fast_subset import slow_except

np = pytest.importorskip("numpy")

SET = "wmt22-en-de"
NUMPY_2 = int(np.__version__.split(".")[0]) == 2


def extension() -> Any:
    module = compiled_matcher()
    if module is None or not hasattr(module, "resample_sums"):
        pytest.skip("the C extension is not built")
    return module


def c_scorers() -> Any:
    """The extension, where its scorers run (numpy 2: numpy 1 promotes float32 otherwise, and they step aside)."""
    module = extension()
    if not NUMPY_2:
        pytest.skip("numpy 1: the C scorers step aside")
    return module


def numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn the C path off: the reference computes."""
    monkeypatch.setattr(significance, "_paired_bootstrap_in_c", lambda *args: None)
    monkeypatch.setattr(significance, "_confidence_scores_in_c", lambda *args: None)


METRICS = {
    "bleu": lambda: BLEU(),
    "bleu-none": lambda: BLEU(smooth_method="none"),
    "bleu-floor": lambda: BLEU(smooth_method="floor", smooth_value=0.1),
    "bleu-add-k": lambda: BLEU(smooth_method="add-k", smooth_value=1),
    "bleu-effective-order": lambda: BLEU(effective_order=True),
    "bleu-order-2": lambda: BLEU(max_ngram_order=2),
    "chrf": lambda: CHRF(),
    "chrf++-beta3": lambda: CHRF(word_order=2, beta=3),
    "chrf-beta1": lambda: CHRF(beta=1, char_order=4),
}
#: configurations whose real resamples every one of the C scorers takes (no zero precision, no zero row)
ALWAYS_IN_C = {"bleu", "bleu-floor", "bleu-add-k", "bleu-effective-order", "bleu-order-2", "chrf", "chrf++-beta3",
               "chrf-beta1"}


def statistics(metric: Metric, segments: int, systems: int = 3) -> list[Any]:
    refs = [r[:segments] for r in datasets.references(SET)]
    names = sorted(datasets.system_name(p) for p in datasets.system_paths(SET))[:systems]
    return [metric.corpus_statistics(list(datasets.system(SET, n))[:segments], refs) for n in names]


def outcome(metric: Metric, stats: list[Any], n: int, seed: int) -> tuple[Any, ...]:
    result = significance.paired_bootstrap(metric, stats[0], stats[1:], n, seed)
    ci = significance.confidence_interval(metric, stats[-1], n, seed)
    rows = [(r.system, r.score, r.mean, r.ci, r.p_value) for r in result.rows]
    deltas = [(d.typecode, d.tobytes()) for d in result.deltas]
    return rows, deltas, str(result.signature), ci.mean, ci.ci, ci.score


@pytest.mark.parametrize("name", slow_except(list(METRICS), {"bleu", "chrf++-beta3"}))
@pytest.mark.parametrize("segments", [100, 7, 1])
def test_real_statistics_give_the_numpy_paths_numbers(matcher: str, name: str, segments: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    metric = METRICS[name]()
    stats = statistics(metric, segments)
    for n, seed in ((1000, 12345), (41, 0), (40, 7), (2, 1), (1, 2**70)):
        c_bootstrap.counts_cache.clear()
        taken = significance._paired_bootstrap_in_c(metric, stats[0], stats[1:], n, seed, None, None)
        got = outcome(metric, stats, n, seed)
        with monkeypatch.context() as patch:
            numpy_path(patch)
            expected = outcome(metric, stats, n, seed)
        assert got == expected
        if matcher == "compiled" and NUMPY_2 and name in ALWAYS_IN_C and segments > 1:
            assert taken is not None  # the C path ran (and gave the numbers above)


def test_the_c_path_reads_row_matrices_and_lists_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    extension()
    metric = BLEU()
    lists = statistics(metric, 60)
    lists = [rows.tolist() if hasattr(rows, "tolist") else rows for rows in lists]
    matrices = [RowMatrix(array("q", [v for row in rows for v in row]).tobytes(), len(rows[0])) for rows in lists]
    assert outcome(metric, lists, 300, 5) == outcome(metric, matrices, 300, 5)
    if NUMPY_2:
        assert significance._paired_bootstrap_in_c(metric, matrices[0], matrices[1:], 300, 5, None, None) is not None
        assert significance._paired_bootstrap_in_c(metric, lists[0], lists[1:], 300, 5, None, None) is not None


@pytest.mark.parametrize("rows", [
    "floats",      # a float statistic: numpy's path (float32 sums of non-integers)
    "huge",        # sums beyond 2**24: not exact in float32, numpy's path sums them literally
    "ragged",      # rows of different widths: numpy's path refuses them
    "bool",        # not ints: numpy's path
])
def test_rows_the_c_path_declines_still_get_the_numpy_paths_numbers(rows: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    extension()
    metric = BLEU(max_ngram_order=1)
    rnd = np.random.default_rng(3)
    stats = [rnd.integers(1, 30, size=(50, 4)).tolist() for _ in range(2)]
    for system in stats:
        for row in system:
            row[2] = min(row[2], row[3])
    if rows == "floats":
        stats[1][0][0] = 3.5
    elif rows == "huge":
        stats[1][0][1] = 2**23
    elif rows == "ragged":
        stats[1][0].append(1)
    else:
        stats[1][0][0] = True
    assert c_bootstrap.row_views(stats) is None or rows == "huge"
    assert significance._paired_bootstrap_in_c(metric, stats[0], stats[1:], 100, 1, None, 1) is None
    if rows == "ragged":
        with pytest.raises(InputError, match="all of one length"):
            significance.paired_bootstrap(metric, stats[0], stats[1:], 100, 1, nrefs=1)
        return
    got = significance.paired_bootstrap(metric, stats[0], stats[1:], 100, 1, nrefs=1)
    with monkeypatch.context() as patch:
        numpy_path(patch)
        expected = significance.paired_bootstrap(metric, stats[0], stats[1:], 100, 1, nrefs=1)
    assert [(r.mean, r.ci, r.p_value) for r in got.rows] == [(r.mean, r.ci, r.p_value) for r in expected.rows]


# -- the extension's functions against numpy, one by one ------------------------------------------
def float32_sums(matrix: Any) -> Any:
    """A numpy float32 matrix as the C scorers take it (a float32 memoryview)."""
    data = bytearray(np.ascontiguousarray(matrix, dtype=np.float32).tobytes())
    return memoryview(data).cast("f", matrix.shape)


@pytest.mark.parametrize("portable", [False, True])  # the AVX2 kernel (where the processor has it), the plain loop
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_resample_sums_are_the_float32_product(seed: int, portable: bool) -> None:
    module = extension()
    rnd = np.random.default_rng(seed)
    n_seg, rows = int(rnd.integers(1, 700)), int(rnd.integers(1, 300))  # several chunks of 256 segments
    counts = np.zeros((rows, n_seg), dtype=np.float32)
    for r in range(rows):
        np.add.at(counts[r], rnd.integers(0, n_seg, size=n_seg), 1)
    limit = max(1, 2**24 // n_seg)
    widths = (1, 4, 10) if seed % 2 else (1, 4, 10, 20)  # one tile of 16 columns, or three (the last partial)
    width = sum(widths)
    matrices = [rnd.integers(-limit, limit + 1, size=(n_seg, w)) for w in widths]
    out = bytearray(4 * rows * width)
    assert module.resample_sums(float32_sums(counts), [memoryview(m.astype(np.int64).tobytes()).cast("q", m.shape)
                                                       for m in matrices], memoryview(out).cast("f", (rows, width)),
                                portable)
    expected = counts @ np.hstack(matrices).astype(np.float32)
    assert np.frombuffer(bytes(out), dtype=np.float32).reshape(rows, width).tobytes() == expected.tobytes()
    # one value more and a sum could leave float32's exact integers: refused, nothing written
    matrices[1][0, 0] = limit + 1
    untouched = bytearray(4 * rows * width)
    assert not module.resample_sums(float32_sums(counts),
                                    [memoryview(m.astype(np.int64).tobytes()).cast("q", m.shape) for m in matrices],
                                    memoryview(untouched).cast("f", (rows, width)), portable)
    assert untouched == bytearray(4 * rows * width)
    counts[0, 0] = n_seg + 1  # a count no draw can make: refused
    matrices[1][0, 0] = 0
    assert not module.resample_sums(float32_sums(counts),
                                    [memoryview(m.astype(np.int64).tobytes()).cast("q", m.shape) for m in matrices],
                                    memoryview(untouched).cast("f", (rows, width)), portable)


def test_resample_sums_refuses_shapes_that_do_not_fit() -> None:
    module = extension()
    counts = float32_sums(np.ones((3, 4)))
    matrix = memoryview(bytes(8 * 4 * 2)).cast("q", (4, 2))
    with pytest.raises(ValueError):
        module.resample_sums(counts, [matrix], memoryview(bytearray(4 * 3 * 3)).cast("f", (3, 3)))
    with pytest.raises(ValueError):
        module.resample_sums(counts, [memoryview(bytes(8 * 5 * 2)).cast("q", (5, 2))],
                             memoryview(bytearray(4 * 3 * 2)).cast("f", (3, 2)))
    with pytest.raises(TypeError):
        module.resample_sums(counts, [matrix], bytearray(4 * 3 * 2))  # 1-D out
    with pytest.raises(BufferError):
        module.resample_sums(counts, [matrix], memoryview(bytes(4 * 3 * 2)).cast("f", (3, 2)))  # read-only out


def test_column_sums_are_exact_or_declined() -> None:
    module = extension()
    rnd = np.random.default_rng(5)
    matrix = rnd.integers(-2**40, 2**40, size=(777, 13), dtype=np.int64)
    view = memoryview(matrix.tobytes()).cast("q", matrix.shape)
    assert module.column_sums(view) == [sum(column) for column in matrix.T.tolist()]
    big = np.array([[2**62, -2**62], [2**62, -2**62]], dtype=np.int64)
    assert module.column_sums(memoryview(big.tobytes()).cast("q", big.shape)) is None  # beyond int64
    big[1] = [-2**62, 2**62]
    assert module.column_sums(memoryview(big.tobytes()).cast("q", big.shape)) == [0, 0]
    with pytest.raises(TypeError):
        module.column_sums(memoryview(bytes(16)).cast("d", (2, 1)))


def random_bleu_sums(seed: int, order: int, rows: int) -> Any:
    """BLEU sums with the edge rows: no match at all, zero totals, empty hypotheses, short and long ones."""
    rnd = np.random.default_rng(seed)
    sys_len = rnd.integers(0, 400, size=rows)
    ref_len = sys_len + rnd.integers(-40, 40, size=rows)
    totals = np.stack([np.maximum(sys_len - n, 0) for n in range(order)], axis=1)
    correct = (totals * rnd.random((rows, order)) * rnd.random(rows)[:, None]).astype(np.int64)
    correct[rnd.random((rows, order)) < 0.05] = 0
    correct[rnd.random(rows) < 0.05] = 0
    matrix = np.column_stack([sys_len, np.maximum(ref_len, 0), correct, totals])
    return matrix.astype(np.float32)


@pytest.mark.parametrize("smooth", [("exp", None), ("floor", 0.1), ("floor", 0.0), ("add-k", 1), ("add-k", 0.25),
                                    ("none", None)])
@pytest.mark.parametrize("order, effective", [(4, False), (4, True), (1, False), (6, True)])
def test_bleu_scores_in_c_are_the_vectorised_ones(smooth: tuple[str, Any], order: int, effective: bool) -> None:
    c_scorers()
    taken = 0
    for seed in range(12):
        matrix = random_bleu_sums(seed, order, 257)
        rows = [matrix] + [matrix[i:i + 1] for i in range(0, 257, 16)]  # whole, and row by row
        for part in rows:
            got = resampled.bleu_scores_in_c(float32_sums(np.hstack([np.ones((len(part), 3)), part])), 3, order,
                                             smooth[0], smooth[1], effective)
            if got is None:
                continue
            taken += 1
            expected = vectorized.bleu_scores(part, order, smooth[0], smooth[1], effective, -9999999999)
            assert np.frombuffer(got, dtype=np.float64).tobytes() == expected.tobytes()
    assert taken > 0


@pytest.mark.parametrize("rule", ["left-to-right", "neumaier"])
def test_both_of_pythons_sum_rules_are_replicated(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The C scorer's ``sum`` of logs under each rule equals vectorized's with Python's ``sum`` following it."""
    module = c_scorers()

    def neumaier(values: Any) -> float:  # CPython 3.12's sum of floats
        values = list(values)
        total, c = values[0], 0.0
        for x in values[1:]:
            t = total + x
            c += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
            total = t
        return total + c if c and math.isfinite(c) else total

    def plain(values: Any) -> float:  # CPython 3.11's
        values = list(values)
        total = values[0]
        for x in values[1:]:
            total += x
        return total

    monkeypatch.setattr(vectorized, "sum", neumaier if rule == "neumaier" else plain, raising=False)
    differ = 0
    for seed in range(20):
        matrix = random_bleu_sums(100 + seed, 4, 500)
        out = array("d", bytes(8 * 500))
        if not module.bleu_resampled_scores(float32_sums(matrix), 0, 4, 3, 0.0, False, rule == "neumaier", out):
            continue
        expected = vectorized.bleu_scores(matrix, 4, "exp", None, False, -9999999999)
        assert np.frombuffer(out, dtype=np.float64).tobytes() == expected.tobytes()
        other = array("d", bytes(8 * 500))
        module.bleu_resampled_scores(float32_sums(matrix), 0, 4, 3, 0.0, False, rule != "neumaier", other)
        differ += other != out
    assert differ > 0  # the two rules give different bits somewhere: the test tells them apart


def random_chrf_sums(seed: int, order: int, rows: int) -> Any:
    rnd = np.random.default_rng(seed)
    hyp = rnd.integers(0, 300, size=(rows, order))
    ref = rnd.integers(0, 300, size=(rows, order))
    match = (np.minimum(hyp, ref) * rnd.random((rows, order))).astype(np.int64)
    hyp[rnd.random((rows, order)) < 0.1] = 0
    match[rnd.random(rows) < 0.03] = 0
    cells = np.stack([hyp, ref, match], axis=2).reshape(rows, 3 * order)
    return cells.astype(np.float32)


@pytest.mark.parametrize("order, beta", [(6, 2), (8, 3), (1, 1), (4, 0), (6, 4096)])
def test_chrf_scores_in_c_are_the_vectorised_ones(order: int, beta: int) -> None:
    c_scorers()
    taken = 0
    for seed in range(12):
        matrix = random_chrf_sums(seed, order, 301)
        for part in [matrix] + [matrix[i:i + 1] for i in range(0, 301, 10)]:
            got = resampled.chrf_scores_in_c(float32_sums(part), 0, order, beta, False)
            expected = vectorized.chrf_scores(part, order, beta, False)
            if got is None:  # declined: a row scores the Python float 0.0 (a float64 array)
                assert expected.dtype == np.float64
                continue
            taken += 1
            assert expected.dtype == np.float32
            assert np.frombuffer(got, dtype=np.float32).tobytes() == expected.tobytes()
    assert taken > 0
    assert resampled.chrf_scores_in_c(float32_sums(matrix), 0, order, beta, True) is None  # eps smoothing


LENGTHS = [*range(1, 140), 255, 256, 257, 1000, 1001, 4095, 8191, 8192, 8193, 20000]


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # 1e300 as a float32: inf
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_interval_and_p_value_are_numpys(dtype: str) -> None:
    module = extension()
    rnd = np.random.default_rng(11)
    kind = "f" if dtype == "float32" else "d"
    for n in LENGTHS:
        scores = (rnd.random(n) * 100).astype(dtype)
        baseline = (rnd.random(n) * 100).astype(dtype)
        got = module.bootstrap_interval(array(kind, scores.tobytes()))
        assert got == significance._estimate(scores)
        for observed in (0.0, 3.3, float(np.abs(scores - baseline).mean()) * 0.3, 1e300, -1e300, 3.4028235e38,
                         3.4028235677973366e38, 3.4028235677973362e38):
            deltas = array(kind, bytes(n * scores.itemsize))
            count = module.bootstrap_p_value(array(kind, scores.tobytes()), array(kind, baseline.tobytes()),
                                             observed, deltas)
            diffs = np.abs(scores - baseline)
            assert (count + 1) / (n + 1) == significance._p_value(diffs - diffs.mean(), observed)
            assert deltas.tobytes() == (scores - baseline).tobytes()


def test_non_finite_scores_are_left_to_numpy() -> None:
    module = extension()
    assert module.bootstrap_interval(array("d", [1.0, math.inf])) is None
    assert module.bootstrap_interval(array("f", [math.nan])) is None
    assert module.bootstrap_p_value(array("d", [1.0, math.nan]), array("d", [1.0, 2.0]), 0.5,
                                    array("d", [0.0, 0.0])) is None
    with pytest.raises(TypeError):
        module.bootstrap_interval(array("d"))  # empty
    with pytest.raises(ValueError):
        module.bootstrap_p_value(array("f", [1.0]), array("d", [1.0]), 0.5, array("f", [0.0]))


def test_numpys_version_is_read_without_importing_it() -> None:
    assert resampled._installed_numpy_version() == np.__version__
    assert resampled.numpy_version() == np.__version__


# -- the point of it all: a seeded -pbs or -ci run never imports numpy ------------------------------
@pytest.mark.parametrize("args", [["-pbs", "-m", "bleu", "chrf"], ["-ci", "-m", "bleu", "chrf", "-w", "3"]])
def test_a_seeded_bootstrap_run_does_not_import_numpy(args: list[str], tmp_path: Any) -> None:
    c_scorers()
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\na dog ran in the park today\n" * 30, encoding="utf-8")
    systems = []
    for i, text in enumerate(["the cat sat on a mat\na dog ran in a park\n", "the cat sat\na dog ran in the park\n"]):
        path = tmp_path / f"sys{i}.txt"
        path.write_text(text * 30, encoding="utf-8")
        systems.append(str(path))
    code = textwrap.dedent("""
        import sys
        from bleucli.cli import main
        try:
            main(sys.argv[1:])
        finally:
            print("numpy imported:", "numpy" in sys.modules, file=sys.stderr)
    """)
    if "-ci" in args:
        systems = systems[:1]  # a CI is for one system
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)}
    run = subprocess.run([sys.executable, "-c", code, str(ref), "-i", *systems, *args, "-f", "json"],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert "numpy imported: False" in run.stderr
    assert '"p_value"' in run.stdout or '"ci"' in run.stdout or "confidence" in run.stdout


def test_metrics_without_a_c_scorer_keep_numpys_path_and_its_deltas_precision() -> None:
    """TER scores float32 resamples with numpy; a metric of Python floats gives float64 deltas."""
    from bleucli.metrics.ter import TER

    ter = TER()
    stats = statistics(ter, 40)
    assert significance._paired_bootstrap_in_c(ter, stats[0], stats[1:], 50, 1, None, None) is None
    result = significance.paired_bootstrap(ter, stats[0], stats[1:], 50, 1)
    assert [d.typecode for d in result.deltas] == ["f", "f"]
    bleu = BLEU()
    stats = statistics(bleu, 40)
    result = significance.paired_bootstrap(bleu, stats[0], stats[1:], 50, 1)
    assert [d.typecode for d in result.deltas] == ["d", "d"]
    assert np.asarray(result.deltas[0]).dtype == np.float64 and len(result.deltas[0]) == 50
