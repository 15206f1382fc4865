"""Bootstrap sums of integer statistics too large for the worst-case float32 bound are still sacreBLEU's.

:func:`bleucli.significance.bootstrap_sums` takes a float64 product for rows
whose worst resample (every draw the largest row) could leave float32's exact
integers, when the resample's actual sums stay inside them; these tests check
those sums against the literal float32 summation sacreBLEU does, inside and
outside the range.
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from bleucli.significance import _bootstrap_draws, _float32_sums_are_exact, bootstrap_sums  # noqa: E402


def literal(matrix, seed, n_samples):
    rng = np.random.default_rng(seed)
    idxs = rng.choice(matrix.shape[0], size=(n_samples, matrix.shape[0]))
    return matrix.astype(np.float32)[idxs].sum(axis=1)


@pytest.mark.parametrize("case", ["long rows", "negative values", "beyond the exact range", "mixed"])
def test_checked_sums_equal_the_literal_float32_sums(case):
    rng = np.random.default_rng(7)
    n_seg = 3000
    matrix = rng.integers(0, 60, size=(n_seg, 6)).astype(np.int64)
    matrix[5, 0] = 6000  # worst case 18 million: not exact by the bound, exact in every actual resample
    if case == "negative values":
        matrix[:, 3] -= 30
    if case == "beyond the exact range":
        matrix[:, 1] = rng.integers(5000, 9000, size=n_seg)  # ~21 million a resample
    if case == "mixed":
        matrix[::7, 2] = rng.integers(10**5, 2 * 10**5, size=len(matrix[::7, 2]))
    assert not _float32_sums_are_exact(matrix)
    small = rng.integers(0, 5, size=(n_seg, 2))
    for seed in (12345, 3):
        got = bootstrap_sums([small, matrix], _bootstrap_draws(np.random.default_rng(seed), n_seg, 130, block=64),
                             130)
        assert np.array_equal(got[1], literal(matrix, seed, 130))
        assert np.array_equal(got[0], literal(small, seed, 130))
        assert got[1].dtype == np.float32
