"""A ranking of N systems: every pair tested, Holm-adjusted, in clusters with rank ranges.

sacreBLEU's paired tests compare each system with one baseline. A ranking
(WMT's findings rank systems this way) tests every pair, so that:

* each pair's p-value is exactly the one ``-pbs``/``-par`` gives when one of
  the two is the baseline (same seed, same resamples): the bootstrap draws one
  set of resamples for all systems, as a seeded ``-pbs`` does, and the
  randomization runs ``-par`` once per baseline;
* a pair whose observed delta is exactly 0 (identical outputs, or equal
  statistics) gets p = 1. sacreBLEU's p-value counts resamples whose centred
  delta exceeds the observed one, and with an observed delta of 0 two
  identical systems come out "significantly different" (p = 1/(N+1)); here
  they never do;
* the p-values are adjusted over the family of all pairs with Holm's method
  (or not, ``correction="none"``); a pair is significant when the adjusted
  p-value is at most ``alpha`` (sacreBLEU's star is ``p <= 0.05`` too);
* the default number of resamples (:func:`default_resamples`) lets the
  smallest attainable adjusted p-value fall below ``alpha``: with 1,000
  resamples the smallest p-value is 1/1001, and Holm over the 55 pairs of 11
  systems multiplies it by 55, so nothing could ever be significant;
* clusters are WMT's: systems sorted by score; walking down the list, a system
  stays in the current cluster while some system below it is not
  significantly different from it, up to the furthest such system; a cluster
  closes after a system that is significantly better than every system below
  it and that no earlier system's range reaches past;
* a system's rank range is the 95% interval of its rank over the bootstrap
  resamples (the same resamples as the p-values when the test is the
  bootstrap), taken at the same positions as the CI (``n // 40`` and
  ``n - n // 40 - 1`` of the sorted ranks). A rank is 1 plus the number of
  systems strictly better in that resample.

Every delta also gets its estimated agreement with human judgments
(:mod:`.human_accuracy`) when the metric has a published fit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from ..errors import InputError, OptionError, warn
from ..options import DEFAULT_AR_TRIALS, DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED, check_seed, seed_label
from . import (
    bootstrap_column_sums,
    paired_approximate_randomization,
    score_matrices,
)
from .deltas import pair_p_value, zero_delta
from .human_accuracy import human_accuracy, tokenizer_of

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.base import Metric
    from ..signature import Signature

Correction = Literal["holm", "none"]
CORRECTIONS: tuple[str, ...] = ("holm", "none")
#: The significance level of a ranking, unless told otherwise.
DEFAULT_ALPHA = 0.05
#: Default resamples are rounded up to a multiple of this.
_ROUND_TO = 1000


@dataclass(frozen=True)
class PairResult:
    """One pair of systems (input positions ``first < second``) on one metric."""

    first: int
    second: int
    #: ``score[second] - score[first]``
    delta: float
    #: the test's p-value, as ``-pbs``/``-par`` print it, except that a zero delta gets 1
    p_value: float
    #: after the correction over all pairs (equal to ``p_value`` with ``correction="none"``)
    p_adjusted: float
    significant: bool
    #: estimated agreement with human judgments of a delta this size (0-1), None without a published fit
    human_accuracy: float | None
    #: whether the observed delta was exactly 0 (then p = 1 whatever the resamples say)
    zero_delta: bool = False


@dataclass(frozen=True)
class Ranking:
    """Every pair of ``systems`` tested on one metric, their clusters and rank ranges."""

    metric: str
    #: system names, in input order
    systems: tuple[str, ...]
    #: corpus scores, in input order
    scores: tuple[float, ...]
    #: input positions from best to worst (ties keep input order)
    order: tuple[int, ...]
    pairs: tuple[PairResult, ...]
    #: per system (input order), its cluster, 1 for the best
    clusters: tuple[int, ...]
    #: per system (input order), the 95% interval of its rank over the bootstrap resamples
    rank_ranges: tuple[tuple[int, int], ...]
    test: str
    #: resamples (``bs``) or trials (``ar``) of the test
    n: int
    #: bootstrap resamples of the rank ranges (``n`` when the test is the bootstrap)
    n_bootstrap: int
    seed: int | None
    alpha: float
    correction: str
    lower_is_better: bool
    #: the metric's signature with the test, resamples, seed, alpha and correction
    signature: Signature

    def pair(self, a: int, b: int) -> PairResult:
        """The pair of systems ``a`` and ``b`` (input positions, either order)."""
        first, second = min(a, b), max(a, b)
        for pair in self.pairs:
            if pair.first == first and pair.second == second:
                return pair
        raise KeyError((a, b))

    def rank(self, system: int) -> int:
        """The system's position in :attr:`order`, 1 for the best."""
        return self.order.index(system) + 1

    @property
    def n_clusters(self) -> int:
        return max(self.clusters) if self.clusters else 0


# -- the pieces, each checkable on its own ------------------------------------------------
def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: sorted ascending, ``max_{j<=k} min(1, (m - j + 1) p_(j))``."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p_values[i]))
        adjusted[i] = running
    return adjusted


def adjust(p_values: Sequence[float], correction: str) -> list[float]:
    """``p_values`` adjusted with ``correction`` (``holm`` or ``none``)."""
    if correction == "holm":
        return holm(p_values)
    if correction == "none":
        return list(p_values)
    raise OptionError(f"unknown correction '{correction}' (choose from: {', '.join(CORRECTIONS)})")


def smallest_p_value(n: int) -> Fraction:
    """The smallest p-value ``n`` resamples can give: ``1 / (n + 1)``."""
    return Fraction(1, n + 1)


def default_resamples(n_systems: int, test: str = "bs", alpha: float = DEFAULT_ALPHA,
                      correction: str = "holm") -> int:
    """Resamples for ranking ``n_systems``: ``-pbs``/``-par``'s default, or more when the pairs need it.

    With Holm over ``m`` pairs the smallest attainable adjusted p-value is
    ``m / (n + 1)``; the default is the smallest ``n`` that brings it below
    ``alpha``, rounded up to a multiple of 1,000, and never less than the
    test's usual default (1,000 resamples, 10,000 trials).
    """
    base = DEFAULT_AR_TRIALS if test == "ar" else DEFAULT_BOOTSTRAP_SAMPLES
    pairs = n_systems * (n_systems - 1) // 2 if correction == "holm" else 1
    level = Fraction(alpha).limit_denominator(10**9)
    if pairs < 1 or level <= 0:
        return base
    # pairs / (n + 1) < alpha  <=>  n + 1 > pairs / alpha
    needed = math.floor(Fraction(pairs) / level)  # the smallest n with n + 1 > pairs / alpha
    needed = -(-needed // _ROUND_TO) * _ROUND_TO
    return max(base, needed)


def wmt_clusters(ordered_significant: Sequence[Sequence[bool]]) -> list[int]:
    """Clusters of systems sorted best first, from ``significant[a][b]`` (positions in that order).

    A system's reach is the furthest system below it that it is not
    significantly different from (itself when there is none). Walking down the
    list, a cluster closes after position ``k`` when no system from the
    current cluster's start to ``k`` reaches beyond ``k``. Returns each
    position's cluster, 1 for the best.
    """
    size = len(ordered_significant)
    clusters = [0] * size
    cluster, end = 1, -1
    for k in range(size):
        reach = max([j for j in range(k + 1, size) if not ordered_significant[k][j]], default=k)
        end = max(end, reach)
        clusters[k] = cluster
        if end == k:
            cluster += 1
    return clusters


def rank_intervals(resampled: Sequence[Any], lower_is_better: bool = False) -> list[tuple[int, int]]:
    """The 95% interval of each system's rank over resamples (``resampled[system][resample]`` scores).

    In each resample a system's rank is 1 plus the number of systems strictly
    better; the interval is read at ``n // 40`` and ``n - n // 40 - 1`` of the
    sorted ranks, the positions of the bootstrap CI.
    """
    import numpy as np

    scores = np.vstack([np.asarray(s, dtype=np.float64) for s in resampled])  # systems x resamples
    if lower_is_better:
        scores = -scores
    better = (scores[None, :, :] > scores[:, None, :]).sum(axis=1)  # [i, r]: systems better than i in r
    ranks = np.sort(better + 1, axis=1)
    n = ranks.shape[1]
    low, high = n // 40, n - n // 40 - 1
    return [(int(row[low]), int(row[high])) for row in ranks]


def _p_value(statistic: Any, observed: float) -> float:
    """``(c + 1) / (N + 1)``: the p-value of ``-pbs``/``-par`` (c: resamples strictly above ``observed``)."""
    import numpy as np

    return (int(np.sum(statistic > observed)) + 1) / (len(statistic) + 1)


# -- the ranking --------------------------------------------------------------------------------
def _corpus_scores(metric: Metric[Any], stats: Sequence[Any], nrefs: int | str | None) -> list[Any]:
    out = []
    for rows in stats:
        tolist = getattr(rows, "tolist", None)
        as_rows = tolist() if callable(tolist) else [list(row) for row in rows]
        out.append(metric.score_from_statistics(metric.aggregate(as_rows), nrefs))
    return out


def rank_systems(
    metric: Metric[Any],
    stats: Sequence[Any],
    names: Sequence[str],
    *,
    test: str = "bs",
    n: int | None = None,
    n_bootstrap: int | None = None,
    seed: int | None = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    correction: str = "holm",
    jobs: int = 1,
    nrefs: int | str | None = None,
    documents: Sequence[Sequence[int]] | None = None,
) -> Ranking:
    """Test every pair of systems on ``metric`` and rank them (see the module docstring).

    ``stats`` are the per-segment rows of each system (``metric.corpus_statistics``),
    in the order of ``names``. ``n`` is the test's resamples or trials (default:
    :func:`default_resamples`); ``n_bootstrap`` the resamples of the rank ranges
    when the test is ``ar`` (default: the bootstrap's :func:`default_resamples`).
    ``documents`` (the segments of each document, :func:`.units.document_index`)
    makes every resample draw whole documents, as ``--resample-unit document``
    does for ``-pbs``/``-par``: the scores stay the segment rows' own, the tests
    run over each document's summed rows, and the signature records ``unit:doc``.
    """
    import numpy as np

    if test not in ("bs", "ar"):
        raise OptionError(f"unknown paired test '{test}' (choose from: bs, ar)")
    if correction not in CORRECTIONS:
        raise OptionError(f"unknown correction '{correction}' (choose from: {', '.join(CORRECTIONS)})")
    if not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise OptionError(f"the significance level must be between 0 and 1, got {alpha!r}")
    if len(stats) < 2:
        raise InputError("a ranking needs at least two systems")
    if len(names) != len(stats):
        raise OptionError(f"{len(names)} names given for {len(stats)} systems")
    seed = check_seed(seed)
    size = len(stats)
    n = default_resamples(size, test, alpha, correction) if n is None else n
    if test == "bs":
        n_bootstrap = n
    elif n_bootstrap is None:
        n_bootstrap = default_resamples(size, "bs", alpha, correction)
    for count, what in ((n, "resamples"), (n_bootstrap, "bootstrap resamples")):
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise OptionError(f"the number of {what} must be a positive integer, got {count!r}")
    family = size * (size - 1) // 2 if correction == "holm" else 1
    if family * smallest_p_value(n) > Fraction(alpha).limit_denominator(10**9):
        warn(f"with {n} {'trials' if test == 'ar' else 'resamples'} and {family} pairs the smallest adjusted p-value "
             f"is {float(family * smallest_p_value(n)):.4f}, above alpha = {alpha:g}: no pair can be significant "
             f"(the default for {size} systems is {default_resamples(size, test, alpha, correction)})")
    shapes = {np.shape(s) for s in stats}
    if len(shapes) != 1:
        raise InputError("every system must have the same segments: their statistics differ in shape")
    corpus = _corpus_scores(metric, stats, nrefs)
    if any(math.isinf(c.score) or math.isnan(c.score) for c in corpus):
        raise OptionError(f"a ranking needs finite scores, but a {corpus[0].name} score is not "
                          "(a smaller --smooth-value gives finite scores)")
    values = [c.score for c in corpus]
    name = corpus[0].name
    from .units import resampled_rows

    stats, unit_fields = resampled_rows(stats, documents)
    from ..metrics import registry

    entry = registry.for_score(name)
    lower = entry is not None and entry.lower_is_better

    # the bootstrap: one set of resamples for every system (a seeded -pbs draws them once for all)
    sums = bootstrap_column_sums(stats, n_bootstrap, seed)
    resampled = score_matrices(metric, sums, jobs)

    pair_index = [(i, j) for i in range(size) for j in range(i + 1, size)]
    raw: dict[tuple[int, int], float] = {}
    if test == "bs":
        for i, j in pair_index:
            diffs = np.abs(resampled[j] - resampled[i])
            raw[i, j] = _p_value(diffs - diffs.mean(), abs(values[i] - values[j]))
    else:
        for i in range(size - 1):
            result = paired_approximate_randomization(metric, stats[i], list(stats[i + 1:]), n, seed,
                                                      jobs=jobs, nrefs=nrefs)
            for j, row in enumerate(result.systems, i + 1):
                assert row.p_value is not None
                raw[i, j] = row.p_value
    zero = {(i, j): zero_delta(values[j], values[i]) for i, j in pair_index}
    p_values = [pair_p_value(values[j], values[i], raw[i, j]) for i, j in pair_index]
    adjusted = adjust(p_values, correction)
    tokenizer = tokenizer_of(corpus[0].signature)
    pairs = tuple(
        PairResult(i, j, values[j] - values[i], p, q, q <= alpha,
                   human_accuracy(values[j] - values[i], name, tokenizer), zero[i, j])
        for (i, j), p, q in zip(pair_index, p_values, adjusted)
    )
    significant = {(p.first, p.second): p.significant for p in pairs}

    order = sorted(range(size), key=lambda k: values[k] if lower else -values[k])
    matrix = [[a != b and significant[min(a, b), max(a, b)] for b in order] for a in order]
    by_position = wmt_clusters(matrix)
    clusters = [0] * size
    for position, system in enumerate(order):
        clusters[system] = by_position[position]
    ranges = rank_intervals(resampled, lower)

    fields: dict[str, object] = {"bs": n_bootstrap, "seed": seed_label(seed), "sig": alpha, "corr": correction}
    if test == "ar":
        fields["ar"] = n
    fields.update(unit_fields)
    signature = corpus[0].signature.with_fields(**fields)
    return Ranking(
        metric=name, systems=tuple(names), scores=tuple(values), order=tuple(order), pairs=pairs,
        clusters=tuple(clusters), rank_ranges=tuple(ranges), test=test, n=n, n_bootstrap=n_bootstrap,
        seed=seed, alpha=alpha, correction=correction, lower_is_better=lower, signature=signature,
    )


__all__ = ["PairResult", "Ranking", "CORRECTIONS", "DEFAULT_ALPHA", "holm", "adjust", "smallest_p_value",
           "default_resamples", "wmt_clusters", "rank_intervals", "rank_systems"]
