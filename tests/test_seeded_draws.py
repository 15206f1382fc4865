"""Seeded bootstrap draws made in C: numpy's ``default_rng(seed)`` stream, without numpy.random.

``significance.pcg64.pcg64_state`` gives the PCG64 state ``default_rng(seed)`` starts from, and the
extension's ``count_seeded_draws`` draws ``integers(0, n_seg, size=(rows, n_seg))`` from it and
counts them. numpy is the reference for both: the state must be ``bit_generator.state``'s and the
counts those of numpy's own draws, for every seed size and for segment counts where Lemire's
rejection step runs often.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from bleucli import significance
from bleucli.significance import c_bootstrap
from bleucli.significance.pcg64 import pcg64_state
from matchers import select_matcher

np = pytest.importorskip("numpy")

MASK64 = 2**64 - 1
SEEDS = [0, 1, 2, 12345, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 1, 2**64 - 1, 2**64, 2**96 + 7, 2**127,
         2**128 - 1, 2**128, 2**160 + 3, 10**50, 2**300 + 12345]


@pytest.mark.parametrize("seed", SEEDS + list(range(100, 140)))
def test_the_state_is_numpys(seed: int) -> None:
    state = np.random.default_rng(seed).bit_generator.state["state"]
    assert pcg64_state(seed) == (state["state"], state["inc"])


@pytest.mark.parametrize("seed", [-1, True, 1.0, "5", None])
def test_only_non_negative_integers_seed(seed: object) -> None:
    with pytest.raises(ValueError):
        pcg64_state(seed)  # type: ignore[arg-type]


def _speedups() -> object:
    speedups = pytest.importorskip("bleucli._speedups")
    if not hasattr(speedups, "count_seeded_draws"):
        pytest.skip("this compiler has no 128-bit integer: the seeded draws are numpy's")
    return speedups


def _c_counts(seed: int, rows: int, n_seg: int) -> object:
    state, inc = pcg64_state(seed)
    out = np.full((rows, n_seg), -1.0, dtype=np.float32)  # every cell is overwritten
    _speedups().count_seeded_draws(state >> 64, state & MASK64, inc >> 64, inc & MASK64, out)  # type: ignore[attr-defined]
    return out


def _numpy_counts(seed: int, rows: int, n_seg: int) -> object:
    draws = np.random.default_rng(seed).integers(0, n_seg, size=(rows, n_seg), dtype=np.int64)
    out = np.zeros((rows, n_seg), dtype=np.float32)
    np.add.at(out, (np.repeat(np.arange(rows), n_seg), draws.ravel()), 1)
    return out


# (rows, segments): one segment draws nothing; 3,000,001 and 2**22 + 1 segments reject a draw
# every few thousand (the rejection threshold grows with the segment count)
SHAPES = [(1, 1), (4, 1), (5, 2), (7, 3), (130, 501), (1000, 2037), (2, 3_000_001), (1, 2**22 + 1)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", [0, 12345, 2**64 + 3])
def test_the_c_counts_are_those_of_numpys_draws(shape: tuple[int, int], seed: int) -> None:
    got, expected = _c_counts(seed, *shape), _numpy_counts(seed, *shape)
    assert got.dtype == np.float32 and np.array_equal(got, expected)


def test_the_rejection_step_is_exercised() -> None:
    """The stream the shape (2, 3,000,001) consumes for seed 12345 goes through Lemire's rejection step:
    of its first 6,000,002 32-bit numbers (each 64-bit output's low half, then its high half, all of
    them drawn for the 6,000,002 indices), more than 100 give a low product below (2**32 - n) % n."""
    n = 3_000_001
    threshold = (2**32 - n) % n
    raw = np.random.default_rng(12345).bit_generator.random_raw(n)
    halves = np.stack([raw & np.uint64(0xFFFFFFFF), raw >> np.uint64(32)], axis=1).ravel()
    low_products = (halves * np.uint64(n)) & np.uint64(0xFFFFFFFF)
    assert int(np.count_nonzero(low_products < np.uint64(threshold))) > 100


def test_bad_arguments_are_refused_without_writing() -> None:
    speedups = _speedups()
    out = np.full((2, 3), 7.0, dtype=np.float32)
    for args in [(-1, 0, 0, 1, out), (2**64, 0, 0, 1, out), (0, 0, 0, "1", out), (0, 0, 0, 1)]:
        with pytest.raises((TypeError, OverflowError)):
            speedups.count_seeded_draws(*args)  # type: ignore[attr-defined]
    for bad_out in [np.zeros((2, 3), dtype=np.float64), np.zeros(6, dtype=np.float32),
                    np.zeros((2, 6), dtype=np.float32)[:, ::2], np.zeros((2, 0), dtype=np.float32)]:
        with pytest.raises((TypeError, ValueError)):
            speedups.count_seeded_draws(0, 0, 0, 1, bad_out)  # type: ignore[attr-defined]
    readonly = np.zeros((2, 3), dtype=np.float32)
    readonly.flags.writeable = False
    with pytest.raises((TypeError, ValueError, BufferError)):
        speedups.count_seeded_draws(0, 0, 0, 1, readonly)  # type: ignore[attr-defined]
    assert np.all(out == 7.0)


@pytest.mark.parametrize("n_seg", [1, 2, 501])
def test_the_shared_counts_are_the_same_through_both_paths(n_seg: int, monkeypatch: pytest.MonkeyPatch) -> None:
    results = []
    for name in ("compiled", "python"):
        select_matcher(monkeypatch, name)
        c_bootstrap.counts_cache.clear()
        results.append(significance._seeded_counts(12345, n_seg, 130))
    c_bootstrap.counts_cache.clear()
    assert np.array_equal(results[0], results[1])


def test_the_c_draws_are_used_only_with_the_numpy_versions_they_reproduce() -> None:
    assert c_bootstrap.c_draws_match(np.__version__)  # the installed numpy: checked by the tests above
    assert c_bootstrap.c_draws_match("1.26.4") and c_bootstrap.c_draws_match("2.4.6")
    assert not c_bootstrap.c_draws_match("3.0.0") and not c_bootstrap.c_draws_match("dev")


def test_a_seeded_paired_bootstrap_does_not_import_numpy_random() -> None:
    _speedups()
    code = textwrap.dedent("""
        import sys
        from bleucli.metrics.bleu import BLEU
        from bleucli.significance import paired_bootstrap
        refs = [["the cat sat on the mat", "a dog ran in the park today"] * 20]
        metric = BLEU(references=refs)
        stats = [metric.corpus_statistics(hyps) for hyps in (
            ["the cat sat on a mat", "a dog ran in a park"] * 20, ["the cat sat", "a dog ran in the park today"] * 20)]
        result = paired_bootstrap(metric, stats[0], stats[1:], 200)
        print(result.rows[-1].p_value, "numpy.random" in sys.modules)
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)})
    p_value, imported = run.stdout.split()
    assert 0 < float(p_value) <= 1 and imported == "False"
