"""The one rule for a delta of exactly 0: ``bleucli rank`` and ``compare`` give it p = 1.

sacreBLEU's paired tests count the resamples whose delta is at least the
observed one; with an observed delta of 0 that is almost none, and two
identical outputs come out "significantly different" (p = 1/(N+1)). The
scoring command keeps that number (it is a drop-in, and warns), while a
ranking or a report never calls such a pair significant: its p-value is 1.
"""

from __future__ import annotations

from typing import TypeVar

#: a p-value, or None where a row has none (the baseline)
P = TypeVar("P", bound=float | None)


def zero_delta(score: float, baseline: float) -> bool:
    """Whether ``score`` equals the ``baseline``'s exactly: an observed delta of 0."""
    return score == baseline


def pair_p_value(score: float, baseline: float, p_value: P) -> P | float:
    """The p-value a ranking or report shows for a pair: the test's, but 1 when the delta is exactly 0."""
    return 1.0 if zero_delta(score, baseline) else p_value


__all__ = ["pair_p_value", "zero_delta"]
