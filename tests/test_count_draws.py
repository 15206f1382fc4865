"""The bootstrap's resample counts: the C ``count_draws`` gives the numpy reference's counts.

``significance._counts_into`` turns a block of draws (segment indices, one row per
resample) into float32 counts per segment; with the extension it is ``count_draws``,
without it ``_numpy_counts_into``. Both must give the same counts on random draws of
every shape, and ``count_draws`` must refuse what it cannot count without writing.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bleucli import significance

np = pytest.importorskip("numpy")
speedups = pytest.importorskip("bleucli._speedups")

SHAPES = [(1, 1), (1, 7), (5, 1), (64, 2037), (3, 1000), (130, 501), (2, 2)]


def _draws(rows: int, n_seg: int, seed: int) -> object:
    return np.random.default_rng(seed).integers(0, n_seg, size=(rows, n_seg), dtype=np.int64)


@pytest.mark.parametrize("shape", SHAPES)
def test_count_draws_gives_the_numpy_counts(shape: tuple[int, int]) -> None:
    rows, n_seg = shape
    for seed in range(3):
        draws = _draws(rows, n_seg, seed)
        got = np.full((rows, n_seg), -1.0, dtype=np.float32)  # count_draws overwrites every cell
        speedups.count_draws(draws, got)
        expected = significance._numpy_counts_into(np.empty((rows, n_seg), dtype=np.float32), draws, n_seg)
        assert got.dtype == expected.dtype
        assert np.array_equal(got, expected)
        for r in range(min(rows, 3)):
            counted = Counter(draws[r].tolist())
            assert got[r].tolist() == [float(counted[k]) for k in range(n_seg)]


def test_counts_into_through_both_paths(matcher: str) -> None:
    draws = _draws(70, 333, 11)
    buffer = np.empty((100, 333), dtype=np.float32)
    view = significance._counts_into(buffer, draws, 333)
    assert view.shape == (70, 333)
    assert np.array_equal(view, significance._numpy_counts_into(np.empty((70, 333), dtype=np.float32), draws, 333))
    assert float(view.sum()) == 70 * 333


@pytest.mark.parametrize("bad", [-1, 7, 2**40])
def test_a_draw_outside_the_segments_is_refused_and_nothing_is_written(bad: int) -> None:
    draws = _draws(3, 7, 0)
    draws[2, 5] = bad
    out = np.full((3, 7), 9.0, dtype=np.float32)
    with pytest.raises(ValueError, match="not a segment index"):
        speedups.count_draws(draws, out)
    assert (out == 9.0).all()


def test_wrong_arrays_are_refused() -> None:
    draws = _draws(4, 6, 1)
    out = np.zeros((4, 6), dtype=np.float32)
    with pytest.raises(TypeError, match="int64"):
        speedups.count_draws(draws.astype(np.int32), out)
    with pytest.raises(TypeError, match="float32"):
        speedups.count_draws(draws, np.zeros((4, 6), dtype=np.float64))
    with pytest.raises(TypeError, match="2-D"):
        speedups.count_draws(draws.ravel(), out.ravel())
    with pytest.raises(ValueError, match="same shape"):
        speedups.count_draws(draws, np.zeros((5, 6), dtype=np.float32))
    with pytest.raises((TypeError, BufferError, ValueError)):
        speedups.count_draws(draws[:, ::2], np.zeros((4, 3), dtype=np.float32))  # not contiguous
    readonly = np.zeros((4, 6), dtype=np.float32)
    readonly.flags.writeable = False
    with pytest.raises((TypeError, BufferError, ValueError)):
        speedups.count_draws(draws, readonly)
    with pytest.raises(TypeError):
        speedups.count_draws(draws)  # type: ignore[call-arg]
