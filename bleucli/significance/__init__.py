"""Bootstrap confidence intervals and paired significance tests, for any metric.

Every bleucli metric turns a segment into a row of sufficient statistics and
scores the element-wise sum of rows (``Metric.score_from_statistics``). A
resampled corpus is therefore just a different sum of the same rows, which is
all this module needs: it never looks inside a row, so BLEU, chrF and TER are
handled by the same code.

The numbers are sacreBLEU 2.6's, bit for bit, for the same seed:

* the random draws are those of ``numpy.random.default_rng(seed)`` in
  sacreBLEU's order and shapes: ``rng.choice(n_seg, size=(n, n_seg))`` for a
  bootstrap, ``rng.integers(2, size=(n, n_seg), dtype=bool)`` for
  approximate randomization, a fresh generator for every comparison (a
  seeded bootstrap's draws are made by the C extension, from the state
  :mod:`.pcg64` computes, without importing numpy.random: the same stream);
* bootstrap sums are float32, as in sacreBLEU (it converts the statistics to
  float32 before summing), and the resampled rows are handed to the metric as
  float32 arrays, so that float32 arithmetic inside the metric happens exactly
  as it does there; approximate-randomization sums are integers;
* the CI is half the distance between the sorted scores at ``n // 40`` and
  ``n - n // 40 - 1``; the mean is ``statistics.mean`` for a single system and
  numpy's mean of the sorted scores in paired mode (sacreBLEU uses both);
* p-values are ``(c + 1) / (N + 1)``.

What differs is how the sums are obtained. sacreBLEU materialises every
resample (``stats[idxs]``, N x n_seg x k floats) and sums it in a Python loop;
here a resample is a vector of per-segment counts and all sums come from one
matrix product per block of resamples. For integer statistics whose sums stay
below 2**24 that product is exact, so it equals sacreBLEU's float32 sums;
otherwise (non-integer or huge statistics) the literal float32 summation is
used. Approximate randomization works on the difference ``baseline - system``
in the same way.

Divergence from sacreBLEU, on purpose: seed 0 is a real seed here. sacreBLEU
treats 0 as "unseeded" for the paired comparisons (but not for the baseline's
CI), so ``SACREBLEU_SEED=0`` silently gives irreproducible p-values.

numpy is imported inside the functions that need it, so importing this module
(and the CLI) stays cheap.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..engine.executor import Workers, resolve_jobs  # noqa: F401 - resolve_jobs: one definition, re-exported
from ..engine.progress import advance
from ..errors import InputError, OptionError
from ..metrics.compiled import compiled_matcher
from ..options import (  # noqa: F401 - the seed functions are part of this module's API
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    check_seed,
    resolve_seed,
    seed_label,
)
from ..signature import Signature
from . import c_bootstrap

if TYPE_CHECKING:  # pragma: no cover
    from array import array

    from ..metrics.base import Metric, Score

#: bleucli reads ``--seed`` / ``BLEUCLI_SEED`` (sacreBLEU: ``SACREBLEU_SEED``; default ``DEFAULT_SEED``).
SEED_ENV = "BLEUCLI_SEED"

#: Integers up to this magnitude are exact in float32, so are sums that stay below it.
_FLOAT32_EXACT = 2**24
#: The same for float64, with a margin.
_FLOAT64_EXACT = 2**52
#: Upper bound on matrix elements handled per block (keeps memory flat for big corpora).
_BLOCK_ELEMENTS = 4_000_000
#: Blocks hold a multiple of this many resamples: numpy draws random booleans 32 bits
#: at a time from a per-call buffer, so blocks of 64 rows reproduce the one-shot stream.
_BLOCK_ROW_MULTIPLE = 64

Stats = Sequence[Sequence[Any]]
TestType = Literal["bs", "ar"]


# -- seeds: defined with the other options (resolve_seed, seed_label, check_seed) -------------

def _check_count(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionError(f"the number of {what} must be a positive integer, got {value!r}")
    return value


# -- results --------------------------------------------------------------------------
@dataclass(frozen=True)
class ConfidenceResult:
    """One system's score with its bootstrap mean and 95% CI half-width."""

    metric: str
    score: float
    mean: float
    ci: float
    n_samples: int
    seed: int | None
    signature: Signature
    #: The full-corpus score object (for BLEU's precisions, BP and lengths).
    corpus: Score


@dataclass(frozen=True)
class SystemResult:
    """One row of a paired test: a system's score, and its p-value against the baseline.

    ``mean``/``ci`` are the bootstrap estimate (paired bootstrap only);
    ``p_value`` is None for the baseline itself.
    """

    system: str
    metric: str
    score: float
    mean: float | None
    ci: float | None
    p_value: float | None
    signature: Signature
    is_baseline: bool = False


@dataclass(frozen=True)
class PairedResult:
    """A paired test of several systems against the first (the baseline), for one metric."""

    test: TestType
    metric: str
    #: bootstrap resamples (``bs``) or randomization trials (``ar``)
    n: int
    seed: int | None
    signature: Signature
    baseline: SystemResult
    systems: tuple[SystemResult, ...]
    #: paired bootstrap only: per system, its score minus the baseline's in every resample (the
    #: distribution the p-value is read from; ``bleucli compare`` draws it), an ``array.array`` of
    #: the scores' precision ('f' for float32, 'd' for float64; ``numpy.asarray`` reads it in place)
    deltas: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    @property
    def rows(self) -> tuple[SystemResult, ...]:
        """The baseline followed by the other systems, in input order."""
        return (self.baseline, *self.systems)


def default_system_names(n_systems: int) -> list[str]:
    """sacreBLEU's names for systems read from stdin columns in paired mode."""
    return ["Baseline", *(f"System {i}" for i in range(1, n_systems))]


def paired_system_names(names: Sequence[str]) -> list[str]:
    """sacreBLEU's labels for named systems (``-i`` files): the first gets a ``Baseline:`` prefix."""
    return [f"Baseline: {names[0]}", *names[1:]] if names else []


# -- numeric helpers ----------------------------------------------------------------------
def _numpy() -> Any:
    import numpy

    return numpy


def _as_matrix(stats: Stats | Any, what: str) -> Any:
    """The statistics as numpy would infer them from sacreBLEU's list of lists.

    A :class:`~bleucli.engine.rows.RowMatrix` (the compiled metrics' rows) is read in place: no
    Python object is looked at per row or cell.
    """
    np = _numpy()
    try:
        matrix = np.asarray(stats)
    except ValueError:  # rows of different lengths
        raise InputError(f"{what}: expected one row of statistics per segment, all of one length") from None
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise InputError(f"{what}: expected one row of statistics per segment (a non-empty matrix)")
    if matrix.dtype.kind not in "biuf":
        raise InputError(f"{what}: statistics must be numbers")
    return matrix


def _as_rows(stats: Stats | Any) -> list[list[Any]]:
    """Python rows for the full-corpus score (same arithmetic as ``corpus_score``)."""
    tolist = getattr(stats, "tolist", None)
    if callable(tolist):
        return tolist()
    if type(stats) is list and all(type(row) is list for row in stats):
        return stats  # already Python rows: only read, never changed
    return [list(row) for row in stats]


def _inherited(metric: Metric, method: str) -> bool:
    """Whether ``metric`` uses :class:`~bleucli.metrics.base.Metric`'s own ``method`` (by name: the
    base class is not imported here, which would make the metrics and this package import each other)."""
    return getattr(type(metric), method).__qualname__ == f"Metric.{method}"


def _corpus_totals(metric: Metric, stats: Stats | Any, matrix: Any) -> list[Any]:
    """``metric.aggregate`` of the rows: the full corpus's statistics, as ``corpus_score`` sums them.

    Integer rows summed by the default aggregation are summed by numpy (the same Python ints, exact);
    anything else (float columns, summed left to right) goes through ``metric.aggregate``.
    """
    np = _numpy()
    if (matrix.dtype.kind == "i" and _inherited(metric, "aggregate")
            and int(np.abs(matrix).max()) * matrix.shape[0] < 2**62):  # no int64 overflow
        return matrix.sum(axis=0, dtype=np.int64).tolist()
    return metric.aggregate(_as_rows(stats))


def _row_matrix_totals(metric: Metric, stats: Any, matrix: Any) -> list[Any]:
    """:func:`_corpus_totals` of integer rows without numpy: the exact column sums of their int64 ``matrix``
    view, or ``metric.aggregate`` of the rows (the same integers)."""
    if _inherited(metric, "aggregate"):
        totals = c_bootstrap.column_sums(matrix)
        if totals is not None:
            return totals
    return metric.aggregate(_as_rows(stats))


def _integral(matrix: Any) -> bool:
    np = _numpy()
    if matrix.dtype.kind in "biu":
        return True
    return bool(np.all(np.isfinite(matrix)) and np.array_equal(matrix, np.rint(matrix)))


def _float32_sums_are_exact(matrix: Any) -> bool:
    """Whether float32 sums of any resample of these rows are exact integers.

    True for integer statistics when even the sum of every segment's largest
    absolute value stays within float32's exact-integer range, whatever the
    order of summation; then a float64 product gives sacreBLEU's float32 sums.
    """
    np = _numpy()
    if not _integral(matrix):
        return False
    bound = float(np.abs(matrix.astype(np.float64)).max()) * matrix.shape[0]
    return bound <= _FLOAT32_EXACT


def _block_rows(n_seg: int, total: int) -> int:
    rows = max(1, _BLOCK_ELEMENTS // max(1, n_seg))
    rows = max(_BLOCK_ROW_MULTIPLE, rows - rows % _BLOCK_ROW_MULTIPLE)
    return min(rows, total)


def _bootstrap_draws(rng: Any, n_seg: int, n_samples: int, block: int | None = None) -> Iterator[Any]:
    """``rng.choice(n_seg, size=(n_samples, n_seg))`` in blocks of rows (same stream).

    Drawn as ``rng.integers(0, n_seg, ..., dtype=int64)``: the numbers ``choice`` draws (it calls
    that for an integer population with replacement), at half its cost; the tests check the
    stream against ``choice`` itself.
    """
    np = _numpy()
    block = block or _block_rows(n_seg, n_samples)
    for start in range(0, n_samples, block):
        yield rng.integers(0, n_seg, size=(min(block, n_samples - start), n_seg), dtype=np.int64)


def _randomization_draws(rng: Any, n_seg: int, n_trials: int, block: int | None = None) -> Iterator[Any]:
    """``rng.integers(2, size=(n_trials, n_seg), dtype=bool)`` in blocks of rows (same stream).

    ``block`` must be a multiple of 64 (or cover every trial) for the stream to match.
    """
    block = block or _block_rows(n_seg, n_trials)
    for start in range(0, n_trials, block):
        yield rng.integers(2, size=(min(block, n_trials - start), n_seg), dtype=bool)


def _counts_into(buffer: Any, idxs: Any, n_seg: int) -> Any:
    """Row r: how often each segment was drawn in resample r, written into ``buffer``.

    The C extension's ``count_draws`` counts straight into ``buffer``; without it (or with
    ``BLEUCLI_PURE_PYTHON=1``) :func:`_numpy_counts_into`, the reference, gives the same counts.
    """
    view = buffer[:idxs.shape[0]]
    compiled = compiled_matcher()
    if compiled is None:
        return _numpy_counts_into(view, idxs, n_seg)
    compiled.count_draws(idxs, view)
    return view


def _numpy_counts_into(view: Any, idxs: Any, n_seg: int) -> Any:
    """:func:`_counts_into` with numpy: a block's draws offset by row and counted by one ``bincount``."""
    np = _numpy()
    rows = idxs.shape[0]
    # a few rows at a time: the temporaries stay within _BLOCK_ELEMENTS (a block of 64 resamples of 200,000
    # segments is 100 MB of draws; counting all its rows at once took twice that again)
    step = max(1, min(rows, _BLOCK_ELEMENTS // max(1, n_seg)))
    for first in range(0, rows, step):
        part = idxs[first:first + step]
        offsets = (np.arange(part.shape[0], dtype=np.int64) * n_seg)[:, None]
        counts = np.bincount((part + offsets).ravel(), minlength=part.shape[0] * n_seg)
        np.copyto(view[first:first + part.shape[0]], counts.reshape(part.shape[0], n_seg), casting="unsafe")
    return view


def bootstrap_sums(matrices: Sequence[Any], draws: Iterator[Any], n_samples: int) -> list[Any]:
    """Float32 sums of each matrix's rows for every resample, as sacreBLEU computes them.

    All matrices share the same draws (paired resampling). Exact integer
    statistics go through one float64 product per block for all matrices at
    once; the others are summed literally in float32.
    """
    np = _numpy()
    n_seg = matrices[0].shape[0]
    out = [np.empty((n_samples, m.shape[1]), dtype=np.float32) for m in matrices]
    fast = [i for i, m in enumerate(matrices) if _float32_sums_are_exact(m)]
    slow = [i for i in range(len(matrices)) if i not in fast]
    # Exact in float32: every partial sum is an integer below 2**24 (see _float32_sums_are_exact).
    stacked = np.hstack([matrices[i].astype(np.float32) for i in fast]) if fast else None
    edges = np.cumsum([0, *(matrices[i].shape[1] for i in fast)])
    as_f32 = {i: np.asarray(matrices[i], dtype=np.float32) for i in slow}
    # Integer statistics whose worst case (every draw the largest row) could leave float32's exact range but
    # whose actual sums rarely do (BLEU's lengths over 200,000 segments): a block's sums come from the float32
    # product of its counts, kept when every resample's sum of absolute values is below 2**24. Then every
    # partial sum, in any order, is an exact integer (the literal summation's numbers); a sum that reaches
    # 2**24 shows as at least 2**24 (rounding is monotonic), and that block is summed literally.
    checked = {i: (as_f32[i], as_f32[i] if as_f32[i].min(initial=0) >= 0 else np.abs(as_f32[i]))
               for i in slow if n_seg < _FLOAT32_EXACT and _integral(matrices[i])}
    buffer = None
    start = 0
    for idxs in draws:
        stop = start + idxs.shape[0]
        counts: Any = None
        if stacked is not None or checked:
            if buffer is None:
                buffer = np.empty(idxs.shape, dtype=np.float32)
            counts = _counts_into(buffer, idxs, n_seg)  # how often each segment was drawn: exact in float32
        if stacked is not None:
            sums = counts @ stacked
            for j, i in enumerate(fast):
                out[i][start:stop] = sums[:, edges[j]:edges[j + 1]]
        for i in slow:
            if i in checked:
                exact, magnitude = checked[i]
                bound = counts @ magnitude
                if float(bound.max(initial=0)) < _FLOAT32_EXACT:
                    out[i][start:stop] = bound if magnitude is exact else counts @ exact
                    continue
            out[i][start:stop] = as_f32[i][idxs].sum(axis=1)
        start = stop
    return out


def _seeded_counts(seed: int, n_seg: int, n_samples: int) -> Any:
    """How often each segment is drawn in each of the seeded resamples (float32, one row per resample).

    Every metric of a run, and every system of a paired test, is resampled
    with the same seed, hence the same draws: they are counted once and the
    last such matrix is kept (up to :data:`.c_bootstrap.COUNTS_CACHE_ELEMENTS`), so BLEU,
    chrF and TER of one ``-pbs`` or ``-ci`` run draw once. The C extension draws them
    (:func:`.c_bootstrap.seeded_count_buffer`) where it makes numpy's stream; numpy otherwise.
    """
    np = _numpy()
    buffer = c_bootstrap.seeded_count_buffer(seed, n_seg, n_samples)
    if buffer is None:
        buffer = bytearray(4 * n_samples * n_seg)
        counts = np.frombuffer(buffer, dtype=np.float32).reshape(n_samples, n_seg)
        start = 0
        for idxs in _bootstrap_draws(np.random.default_rng(seed), n_seg, n_samples):
            _counts_into(counts[start:], idxs, n_seg)
            start += idxs.shape[0]
        c_bootstrap.keep_counts((seed, n_seg, n_samples), buffer)
    return np.frombuffer(buffer, dtype=np.float32).reshape(n_samples, n_seg)


def _seeded_bootstrap_sums(matrices: Sequence[Any], seed: int | None, n_samples: int) -> list[Any]:
    """:func:`bootstrap_sums` on the draws of ``default_rng(seed)``, the same float32 sums.

    When every matrix's float32 sums are exact (integer statistics, sums below 2**24: any order of
    summation gives the same sums) and the counts are small enough to keep, the counts of
    :func:`_seeded_counts` are shared with the other calls of the run; otherwise the draws are
    streamed in blocks as :func:`bootstrap_sums` does.
    """
    np = _numpy()
    n_seg = matrices[0].shape[0]
    if (seed is None or n_samples * n_seg > c_bootstrap.COUNTS_CACHE_ELEMENTS
            or not all(_float32_sums_are_exact(m) for m in matrices)):
        return bootstrap_sums(matrices, _bootstrap_draws(np.random.default_rng(seed), n_seg, n_samples), n_samples)
    stacked = np.hstack([m.astype(np.float32) for m in matrices])
    sums = _seeded_counts(seed, n_seg, n_samples) @ stacked
    edges = np.cumsum([0, *(m.shape[1] for m in matrices)])
    return [np.ascontiguousarray(sums[:, edges[j]:edges[j + 1]]) for j in range(len(matrices))]


_masks_cache: dict[tuple[int, int, int], list[Any]] = {}


def _seeded_masks(seed: int, n_seg: int, n_trials: int) -> Iterator[Any]:
    """:func:`_randomization_draws` of ``default_rng(seed)``, the blocks kept bit-packed for the next call.

    Every metric of a ``-par`` run draws the same trials: they are drawn once, and kept packed
    (one bit per segment and trial: 3.6 MiB for 10,000 trials of 3,000 segments) while that stays
    within :data:`.c_bootstrap.COUNTS_CACHE_ELEMENTS` bytes.
    """
    np = _numpy()
    key = (seed, n_seg, n_trials)
    packed = _masks_cache.get(key)
    if packed is None:
        _masks_cache.clear()
        blocks = []
        for mask in _randomization_draws(np.random.default_rng(seed), n_seg, n_trials):
            blocks.append(np.packbits(mask, axis=1))
            yield mask
        if n_trials * n_seg // 8 <= c_bootstrap.COUNTS_CACHE_ELEMENTS:
            _masks_cache[key] = blocks
        return
    for block in packed:
        yield np.unpackbits(block, axis=1, count=n_seg).astype(bool)


def randomization_sums(pairs: Sequence[tuple[Any, Any]], draws: Iterator[Any], n_trials: int) -> list[tuple[Any, Any]]:
    """For each (baseline, system) pair, the sums of the two pseudo-systems per trial.

    Pseudo-system A takes the baseline's row where the trial's mask is set and
    the system's elsewhere; B is the complement. For integer statistics this is
    ``system_total + mask @ (baseline - system)`` from one float64 product per
    block (exact), and B is what is left; otherwise sacreBLEU's literal
    ``mask @ baseline + ~mask @ system`` on the whole mask.
    """
    np = _numpy()

    def bound(pair: tuple[Any, Any]) -> float:
        base, system = pair
        if not (_integral(base) and _integral(system)):
            return float("inf")
        return float(np.abs(base.astype(np.float64) - system.astype(np.float64)).sum(axis=0).max())

    bounds = [bound(p) for p in pairs]
    fast = [i for i, b in enumerate(bounds) if b <= _FLOAT64_EXACT]
    slow = [i for i in range(len(pairs)) if i not in fast]
    # float32 products are exact while every partial sum stays below 2**24.
    dtype = np.float32 if all(bounds[i] <= _FLOAT32_EXACT for i in fast) else np.float64
    results: list[tuple[Any, Any] | None] = [None] * len(pairs)
    if fast:
        diffs = np.hstack([(pairs[i][0].astype(np.int64) - pairs[i][1].astype(np.int64)).astype(dtype)
                           for i in fast])
        edges = np.cumsum([0, *(pairs[i][0].shape[1] for i in fast)])
        pseudo_a = [np.empty((n_trials, pairs[i][0].shape[1]), dtype=np.int64) for i in fast]
    masks = []
    buffer = None
    start = 0
    for mask in draws:
        stop = start + mask.shape[0]
        if slow:
            masks.append(mask)
        if fast:
            if buffer is None:
                buffer = np.empty(mask.shape, dtype=dtype)
            view = buffer[:mask.shape[0]]
            np.copyto(view, mask)
            moved = np.rint(view @ diffs).astype(np.int64)
            for j in range(len(fast)):
                pseudo_a[j][start:stop] = moved[:, edges[j]:edges[j + 1]]
        start = stop
    for j, i in enumerate(fast):
        base, system = (m.astype(np.int64) for m in pairs[i])
        base_total, sys_total = base.sum(axis=0), system.sum(axis=0)
        a = pseudo_a[j] + sys_total
        results[i] = (a, base_total + sys_total - a)
    if slow:
        full = np.concatenate(masks) if len(masks) > 1 else masks[0]
        for i in slow:
            base, system = pairs[i]
            results[i] = (full @ base + ~full @ system, ~full @ base + full @ system)
    return results  # type: ignore[return-value]


def _score_matrix(metric: Metric, rows: Any) -> Any:
    """Score every row: ``metric.scores_from_statistics_matrix`` (the values ``resampled_score`` gives,
    in the dtype sacreBLEU's array of them has: float32 where the metric stays in float32)."""
    return metric.scores_from_statistics_matrix(rows)


# -- parallel scoring ---------------------------------------------------------------------
def _advanced(values: Any) -> Any:
    """``values``, one matrix scored: the watched phase (a command's bar) advances."""
    advance(1)
    return values


def _score_in_worker(context: tuple[Metric, list[Any]], index: int) -> Any:
    metric, matrices = context
    return _score_matrix(metric, matrices[index])


def score_matrices(metric: Metric, matrices: list[Any], jobs: int = 1) -> list[Any]:
    """Score a list of resampled-statistics matrices, in worker processes if ``jobs`` asks.

    The metric and the matrices reach each worker once (:class:`~bleucli.engine.executor.Workers`);
    the largest matrices are scored first. A metric that scores whole matrices at once (its own
    ``scores_from_statistics_matrix``) is scored in this process. The scores do not depend on ``jobs``.
    """
    resolve_jobs(jobs)  # a bad value is refused whatever runs where
    if not _inherited(metric, "scores_from_statistics_matrix"):
        # Scored a matrix at a time (BLEU, chrF, TER): shipping the matrices to workers costs more
        # CPU than scoring them takes, so they are scored here whatever ``jobs`` says.
        return [_advanced(_score_matrix(metric, matrix)) for matrix in matrices]
    order = sorted(range(len(matrices)), key=lambda i: -matrices[i].shape[0])
    out: list[Any] = [None] * len(matrices)
    with Workers((metric, matrices), jobs, tasks=len(matrices)) as workers:
        for i, values in zip(order, workers.map(_score_in_worker, ((i,) for i in order))):
            out[i] = _advanced(values)
    return out


def _statistics_in_worker(metric: Metric, hypotheses: Sequence[str]) -> tuple[list[list[Any]], list[Any]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = metric.corpus_statistics(hypotheses)
    return rows, [w.message for w in caught if isinstance(w.message, Warning)]


def system_statistics(metric: Metric, systems: Sequence[Sequence[str]], jobs: int = 1) -> list[list[list[Any]]]:
    """``metric.corpus_statistics(hyps)`` for every system, in worker processes if ``jobs`` asks.

    The metric must have been built with its references (they reach each
    worker once). Warnings raised while reading a system (BLEU's
    tokenized-period notice) are re-issued here, in order.
    """
    out = []
    with Workers(metric, jobs, tasks=len(systems)) as workers:
        if not workers.parallel:
            return [metric.corpus_statistics(hyps) for hyps in systems]
        for rows, caught in workers.map(_statistics_in_worker, ((hyps,) for hyps in systems)):
            for message in caught:
                warnings.warn(message, stacklevel=2)
            out.append(rows)
    return out


def _estimate(scores: Any) -> tuple[float, float]:
    """sacreBLEU's paired-mode estimate: numpy mean of the sorted scores, CI from the 1/40 tails."""
    np = _numpy()
    ordered = np.sort(scores)
    low = len(ordered) // 40
    high = len(ordered) - low - 1
    return float(ordered.mean()), float(0.5 * (ordered[high] - ordered[low]))


def _finite_interval(metric: str, mean: float, ci: float) -> tuple[float, float]:
    """Refuse an interval that overflowed: BLEU with a huge floor smoothing value scores inf, and inf - inf
    is NaN (sacreBLEU prints ``μ = inf ± nan``); a NaN is never a result."""
    if math.isnan(mean) or math.isnan(ci) or math.isinf(ci):
        raise OptionError(f"no confidence interval: {metric}'s resampled scores overflow to inf "
                          f"(a smaller --smooth-value gives finite scores)")
    return mean, ci


def _p_value(statistic: Any, observed: float) -> float:
    """(c + 1) / (N + 1), c counting trials strictly more extreme than observed (multeval)."""
    np = _numpy()
    count = int(np.sum(statistic > observed))
    return (count + 1) / (len(statistic) + 1)


def bootstrap_column_sums(matrices: Sequence[Any], n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
                          seed: int | None = DEFAULT_SEED) -> list[Any]:
    """Column sums of per-segment matrices in every bootstrap resample, on the draws ``-pbs`` makes.

    For the same seed, segment count and ``n_samples`` the resamples are those
    of :func:`paired_bootstrap` (seeded), so counts or ratios bucketed this
    way (``bleucli compare``'s sentence-BLEU bins and word F-measures) vary
    with the same resamples as the p-values. Values are float32, exact for
    integer sums below 2**24.
    """
    n_samples = _check_count(n_samples, "bootstrap resamples")
    seed = check_seed(seed)
    arrays = [_as_matrix(m, "statistics") for m in matrices]
    return _seeded_bootstrap_sums(arrays, seed, n_samples)


def percentile_interval(values: Any) -> tuple[float, float]:
    """``(mean, half-width of the 95% CI)`` of resampled values, as the paired bootstrap reports them."""
    return _estimate(values)


# -- single system --------------------------------------------------------------------------
def confidence_interval(
    metric: Metric, stats: Stats | Any, n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES, seed: int | None = DEFAULT_SEED,
    nrefs: int | str | None = None,
) -> ConfidenceResult:
    """Bootstrap mean and 95% CI of one system's score (sacreBLEU's ``-ci``).

    ``stats`` are the per-segment rows from ``metric.corpus_statistics``.
    """
    n_samples = _check_count(n_samples, "bootstrap resamples")
    seed = check_seed(seed)
    values = _confidence_scores_in_c(metric, stats, n_samples, seed)
    if values is None:
        matrix = _as_matrix(stats, "statistics")
    corpus = metric.score_from_statistics(metric.aggregate(_as_rows(stats)), nrefs)
    if values is None:
        (sums,) = _seeded_bootstrap_sums([matrix], seed, n_samples)
        values = _score_matrix(metric, sums)
    import statistics as _stats  # here: it imports fractions, decimal and random, which -pbs never needs

    ordered = sorted(values.tolist())
    low = n_samples // 40
    high = n_samples - low - 1
    mean, ci = _finite_interval(corpus.name, _stats.mean(ordered), 0.5 * (ordered[high] - ordered[low]))
    return ConfidenceResult(
        metric=corpus.name,
        score=corpus.score,
        mean=mean,
        ci=ci,
        n_samples=n_samples,
        seed=seed,
        signature=corpus.signature.with_fields(bs=n_samples, seed=seed_label(seed)),
        corpus=corpus,
    )


def _confidence_scores_in_c(metric: Metric, stats: Any, n_samples: int, seed: int | None) -> array | None:
    """The resampled scores :func:`confidence_interval` sorts, computed by the C extension without numpy
    (:mod:`.c_bootstrap`), or None (then numpy computes the same values)."""
    if seed is None or _inherited(metric, "resampled_scores_in_c") or not c_bootstrap.available():
        return None  # TER and plugins are scored by numpy
    views = c_bootstrap.row_views([stats])
    if views is None:
        return None
    sums = c_bootstrap.seeded_sums(views, seed, n_samples)
    if sums is None:
        return None
    return metric.resampled_scores_in_c(sums, 0, views[0].shape[1])  # type: ignore[index]


# -- paired tests -----------------------------------------------------------------------------
def _prepare(
    metric: Metric, baseline_stats: Any, systems_stats: Sequence[Any], names: Sequence[str] | None,
    nrefs: int | str | None, views: Sequence[Any] | None = None,
) -> tuple[Any, list[Any], list[Score], list[str]]:
    """The statistics as matrices (numpy's, or the C path's int64 ``views`` of them), the corpus scores
    and the labels, all checked."""
    if isinstance(systems_stats, (str, bytes)) or len(systems_stats) == 0:
        raise InputError("paired tests need at least two systems: a baseline and one to compare")
    if views is not None:
        baseline, systems = views[0], list(views[1:])
    else:
        baseline = _as_matrix(baseline_stats, "baseline statistics")
        systems = [_as_matrix(s, f"statistics of system {i + 1}") for i, s in enumerate(systems_stats)]
    for i, matrix in enumerate(systems, 1):
        if matrix.shape != baseline.shape:
            raise InputError(
                f"system {i} has {matrix.shape[0]} segments x {matrix.shape[1]} statistics, "
                f"the baseline {baseline.shape[0]} x {baseline.shape[1]}: paired tests need the same segments"
            )
    labels = list(names) if names is not None else default_system_names(1 + len(systems))
    if len(labels) != 1 + len(systems):
        raise OptionError(f"{len(labels)} names given for {1 + len(systems)} systems (baseline first)")
    totals = _corpus_totals if views is None else _row_matrix_totals
    scores = [metric.score_from_statistics(totals(metric, stats, matrix), nrefs)
              for stats, matrix in zip((baseline_stats, *systems_stats), (baseline, *systems))]
    if any(math.isinf(score.score) for score in scores):  # inf - inf: every difference would be NaN
        raise OptionError(f"paired tests need finite scores, but {scores[0].name} is inf "
                          "(a smaller --smooth-value gives finite scores)")
    return baseline, systems, scores, labels


def paired_bootstrap(
    metric: Metric,
    baseline_stats: Stats | Any,
    systems_stats: Sequence[Stats | Any],
    n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    *,
    names: Sequence[str] | None = None,
    jobs: int = 1,
    nrefs: int | str | None = None,
) -> PairedResult:
    """Paired bootstrap resampling (Koehn 2004; Moses' script; sacreBLEU's ``-pbs``).

    Each system is compared with the baseline on the same resamples: the
    p-value is the share of resamples whose centred |difference| exceeds the
    observed one. Every system also gets its bootstrap mean and 95% CI; the
    baseline's comes from its own resampling with the same seed.
    ``names`` labels the baseline and the systems (default: ``Baseline``,
    ``System 1``...); ``jobs`` spreads the scoring over processes.
    """
    n_samples = _check_count(n_samples, "bootstrap resamples")
    seed = check_seed(seed)
    resolve_jobs(jobs)  # a bad value is refused whichever path computes
    if seed is not None:
        result = _paired_bootstrap_in_c(metric, baseline_stats, systems_stats, n_samples, seed, names, nrefs)
        if result is not None:
            return result
    np = _numpy()
    baseline, systems, scores, labels = _prepare(metric, baseline_stats, systems_stats, names, nrefs)
    n_seg = baseline.shape[0]

    def draws() -> Iterator[Any]:
        return _bootstrap_draws(np.random.default_rng(seed), n_seg, n_samples)

    if seed is not None:
        # Every comparison re-seeds, so all see the same resamples: draw them once.
        sums = _seeded_bootstrap_sums([baseline, *systems], seed, n_samples)
        matrices = sums
        bl_index = [0] * len(systems)
        sys_index = list(range(1, 1 + len(systems)))
    else:
        # Unseeded: the baseline's CI and every comparison get their own draws.
        matrices = bootstrap_sums([baseline], draws(), n_samples)
        bl_index, sys_index = [], []
        for system in systems:
            bl_sums, sys_sums = bootstrap_sums([baseline, system], draws(), n_samples)
            bl_index.append(len(matrices))
            sys_index.append(len(matrices) + 1)
            matrices += [bl_sums, sys_sums]
    scored = score_matrices(metric, matrices, jobs)
    estimates = [_estimate(scored[0]), *(_estimate(scored[s]) for s in sys_index)]
    tests = []
    for k, (b, s) in enumerate(zip(bl_index, sys_index), 1):
        delta = scored[s] - scored[b]
        diffs = np.abs(delta)
        tests.append((_p_value(diffs - diffs.mean(), abs(scores[0].score - scores[k].score)), _delta_array(delta)))
    return _bootstrap_result(scores, labels, n_samples, seed, estimates, tests)


def _bootstrap_result(scores: Sequence[Score], labels: Sequence[str], n_samples: int, seed: int | None,
                      estimates: Sequence[tuple[float, float]], tests: Sequence[tuple[float, Any]]) -> PairedResult:
    """A paired bootstrap's result (either path's): ``estimates`` are each system's bootstrap (mean, CI half-width),
    the baseline's first; ``tests`` each compared system's (p-value, deltas against the baseline)."""
    name = scores[0].name
    signature = scores[0].signature.with_fields(bs=n_samples, seed=seed_label(seed))
    bl_mean, bl_ci = _finite_interval(name, *estimates[0])
    baseline_row = SystemResult(labels[0], name, scores[0].score, bl_mean, bl_ci, None, signature, is_baseline=True)
    rows = []
    for k, (estimate, (p_value, _)) in enumerate(zip(estimates[1:], tests), 1):
        mean, ci = _finite_interval(name, *estimate)
        rows.append(SystemResult(labels[k], scores[k].name, scores[k].score, mean, ci, p_value, signature))
    return PairedResult("bs", name, n_samples, seed, signature, baseline_row, tuple(rows),
                        tuple(deltas for _, deltas in tests))


def _delta_array(delta: Any) -> array:
    """A numpy vector of deltas as :attr:`PairedResult.deltas` holds it: an ``array.array``, float32 where the
    scores are float32 (chrF, TER), else float64."""
    from array import array

    np = _numpy()
    if delta.dtype == np.float32:
        return array("f", np.ascontiguousarray(delta, dtype=np.float32).tobytes())
    return array("d", np.ascontiguousarray(delta, dtype=np.float64).tobytes())


def _paired_bootstrap_in_c(
    metric: Metric, baseline_stats: Any, systems_stats: Sequence[Any], n_samples: int, seed: int,
    names: Sequence[str] | None, nrefs: int | str | None,
) -> PairedResult | None:
    """:func:`paired_bootstrap` (seeded) computed by the C extension without numpy (:mod:`.c_bootstrap`),
    or None where that path does not apply (then numpy computes the same numbers)."""
    if (isinstance(systems_stats, (str, bytes)) or _inherited(metric, "resampled_scores_in_c")
            or not c_bootstrap.available()):
        return None
    views = c_bootstrap.row_views([baseline_stats, *systems_stats])
    if views is None:
        return None
    baseline, systems, scores, labels = _prepare(metric, baseline_stats, systems_stats, names, nrefs, views)
    sums = c_bootstrap.seeded_sums(views, seed, n_samples)
    if sums is None:
        return None
    width = baseline.shape[1]
    scored = []
    for k in range(len(views)):
        values = metric.resampled_scores_in_c(sums, k * width, width)
        if values is None:
            return None
        scored.append(values)
    estimates = [c_bootstrap.interval(values) for values in scored]
    tests = [c_bootstrap.p_value(values, scored[0], abs(scores[0].score - scores[k].score))
             for k, values in enumerate(scored[1:], 1)]
    if any(estimate is None for estimate in estimates) or any(test is None for test in tests):
        return None
    for _ in scored:
        advance(1)  # as score_matrices does: one step per scored matrix
    return _bootstrap_result(scores, labels, n_samples, seed, estimates, tests)  # type: ignore[arg-type]


def paired_approximate_randomization(
    metric: Metric,
    baseline_stats: Stats | Any,
    systems_stats: Sequence[Stats | Any],
    n_trials: int = DEFAULT_AR_TRIALS,
    seed: int | None = DEFAULT_SEED,
    *,
    names: Sequence[str] | None = None,
    jobs: int = 1,
    nrefs: int | str | None = None,
) -> PairedResult:
    """Paired approximate randomization (Riezler & Maxwell 2005; multeval; sacreBLEU's ``-par``).

    In each trial every segment's pair of translations is swapped between the
    two systems with probability 1/2; the p-value is the share of trials whose
    |score difference| exceeds the observed one. No CI (as sacreBLEU's CLI).
    """
    np = _numpy()
    n_trials = _check_count(n_trials, "randomization trials")
    seed = check_seed(seed)
    baseline, systems, scores, labels = _prepare(metric, baseline_stats, systems_stats, names, nrefs)
    n_seg = baseline.shape[0]

    def draws() -> Iterator[Any]:
        return _randomization_draws(np.random.default_rng(seed), n_seg, n_trials)

    if seed is not None:
        pseudo = randomization_sums([(baseline, s) for s in systems], _seeded_masks(seed, n_seg, n_trials), n_trials)
    else:
        pseudo = [randomization_sums([(baseline, s)], draws(), n_trials)[0] for s in systems]
    matrices = [m for pair in pseudo for m in pair]
    scored = score_matrices(metric, matrices, jobs)

    signature = scores[0].signature.with_fields(ar=n_trials, seed=seed_label(seed))
    baseline_row = SystemResult(labels[0], scores[0].name, scores[0].score, None, None, None,
                                signature, is_baseline=True)
    rows = []
    for k in range(len(systems)):
        a, b = scored[2 * k], scored[2 * k + 1]
        observed = abs(scores[0].score - scores[k + 1].score)
        p = _p_value(np.abs(a - b), observed)
        rows.append(SystemResult(labels[k + 1], scores[k + 1].name, scores[k + 1].score, None, None, p, signature))
    return PairedResult("ar", scores[0].name, n_trials, seed, signature, baseline_row, tuple(rows))


def paired_test(
    test: TestType,
    metric: Metric,
    baseline_stats: Stats | Any,
    systems_stats: Sequence[Stats | Any],
    n: int | None = None,
    seed: int | None = DEFAULT_SEED,
    *,
    names: Sequence[str] | None = None,
    jobs: int = 1,
    nrefs: int | str | None = None,
) -> PairedResult:
    """Dispatch to :func:`paired_bootstrap` (``bs``) or :func:`paired_approximate_randomization` (``ar``)."""
    runners: dict[str, Callable[..., PairedResult]] = {
        "bs": paired_bootstrap, "ar": paired_approximate_randomization,
    }
    defaults = {"bs": DEFAULT_BOOTSTRAP_SAMPLES, "ar": DEFAULT_AR_TRIALS}
    if test not in runners:
        raise OptionError(f"unknown paired test '{test}' (choose from: bs, ar)")
    return runners[test](metric, baseline_stats, systems_stats, defaults[test] if n is None else n, seed,
                         names=names, jobs=jobs, nrefs=nrefs)


# -- sacreBLEU's names (``sacrebleu.significance``): thin wrappers of the functions above ------------
class Result:
    """sacreBLEU's ``Result``: a system's ``score`` with its ``p_value``, bootstrap ``mean`` and ``ci``."""

    def __init__(self, score: float, p_value: float | None = None, mean: float | None = None,
                 ci: float | None = None) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:  # sacreBLEU's: ``score=..,p_value=..,mean=..,ci=..``
        return ",".join(f"{key}={value}" for key, value in vars(self).items())


def estimate_ci(scores: Any) -> tuple[float, float]:
    """sacreBLEU's ``estimate_ci``: ``(mean, half-width of the 95% CI)`` of resampled scores."""
    return percentile_interval(_numpy().asarray(scores))


def _sacrebleu_seed() -> int | None:
    """sacreBLEU's seed rule (``BLEUCLI_SEED``, else ``SACREBLEU_SEED``, else 12345; ``none``: unseeded)."""
    import os

    value = os.environ.get(SEED_ENV) or os.environ.get("SACREBLEU_SEED")
    return resolve_seed(value)


class PairedTest:
    """sacreBLEU's ``PairedTest``, same arguments; ``test()`` returns ``(signatures, scores)`` as there.

    ``named_systems`` is ``[(name, hypotheses), ...]`` with the baseline first; ``metrics``
    maps names to bleucli metrics (``BLEU()``, ``CHRF()``, ``TER()``). The p-values, means and
    CIs are those of :func:`paired_test` (sacreBLEU's bit for bit, for the same seed); ``scores``
    is ``{"System": [names], metric name: [Result, ...]}``. ``n_jobs`` spreads the scoring over
    processes (0: one per CPU).
    """

    _DEFAULT_SAMPLES = {"ar": DEFAULT_AR_TRIALS, "bs": DEFAULT_BOOTSTRAP_SAMPLES}

    def __init__(self, named_systems: list[tuple[str, Sequence[str]]], metrics: Any,
                 references: Sequence[Sequence[str]] | None, test_type: str = "ar", n_samples: int = 0,
                 n_ar_confidence: int = -1, n_jobs: int = 1) -> None:
        if test_type not in self._DEFAULT_SAMPLES:
            raise OptionError(f"unknown paired test '{test_type}' (choose from: ar, bs)")
        if len(named_systems) < 2:
            raise InputError("paired tests need at least two systems: a baseline and one to compare")
        self.test_type = test_type
        self.named_systems = list(named_systems)
        self.references = references
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else DEFAULT_BOOTSTRAP_SAMPLES
        self.n_jobs = n_jobs
        self.n_systems = len(self.named_systems) - 1
        self._seed = _sacrebleu_seed()
        self.metrics = dict(metrics)

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Any]]]:
        names = [name for name, _ in self.named_systems]
        signatures: dict[str, Signature] = {}
        scores: dict[str, list[Any]] = {"System": names}
        jobs = max(1, self.n_jobs) if self.n_jobs else 0
        for metric in self.metrics.values():
            stats = [metric.corpus_statistics(hyps, self.references) for _, hyps in self.named_systems]
            nrefs = getattr(metric, "_nrefs", None)
            test: TestType = "bs" if self.test_type == "bs" else "ar"
            result = paired_test(test, metric, stats[0], stats[1:], self.n_samples, self._seed,
                                 names=names, jobs=resolve_jobs(jobs) if jobs == 0 else jobs, nrefs=nrefs)
            rows = [Result(row.score, row.p_value, row.mean, row.ci) for row in result.rows]
            signature = result.signature
            if self.test_type == "ar" and self.n_ar_confidence > 0:
                self._ar_confidence(metric, stats, rows, nrefs)
                signature = signature.with_fields(bs=self.n_ar_confidence)
            signatures[result.metric] = signature
            scores[result.metric] = rows
        return signatures, scores

    def _ar_confidence(self, metric: Metric, stats: list[Any], rows: list[Result], nrefs: int | str | None) -> None:
        """The CIs sacreBLEU adds to an AR test: the baseline's from its own resamples, each system's from
        the resamples drawn after that comparison's AR trials (its ``n_ar_confidence``)."""
        np = _numpy()
        n_seg = len(stats[0])
        count = self.n_ar_confidence
        baseline = bootstrap_column_sums([stats[0]], count, self._seed)[0]
        rows[0].mean, rows[0].ci = percentile_interval(_score_matrix(metric, baseline))
        for row, system in zip(rows[1:], stats[1:]):
            rng = np.random.default_rng(self._seed)
            rng.integers(2, size=(self.n_samples, n_seg), dtype=bool)  # the AR trials come first from this generator
            (sums,) = bootstrap_sums([_as_matrix(system, "statistics")], _bootstrap_draws(rng, n_seg, count), count)
            row.mean, row.ci = percentile_interval(_score_matrix(metric, sums))
