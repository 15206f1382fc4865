"""Scores of many hypotheses against many references: chrF's reference aggregation.

The pairwise matrices themselves (``metric.pairwise_scores``: each cell what sacreBLEU 2.6's
``metric.sentence_score(hypothesis, [reference]).score`` returns, for minimum-Bayes-risk
decoding and pseudo-reference filtering) are the metrics' own methods: the base class's
generic loop, and BLEU's and chrF's faster ``_pairwise_matrix`` next to their arithmetic,
which prepare each reference once with the metric's shared tables and tokenize each
hypothesis once, so the numbers are identical. This module builds on the metrics; they
never import it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..errors import InputError
from .base import check_strings
from .chrf import CHRF, f_score


def aggregate_chrf_scores(metric: Any, hypotheses: Sequence[str], references: Sequence[str]) -> list[float]:
    """Reference aggregation (Vamvas & Sennrich 2024): chrF of each hypothesis against the *average* reference.

    The aggregate reference has, for every character (and chrF++ word)
    n-gram, its expected count over the R references, and the expected
    n-gram total; a hypothesis is matched against it once, so H hypotheses
    cost O(H + R) n-gram extractions instead of O(H·R). Counts are kept
    multiplied by R (hypothesis counts ×R, reference counts summed), which
    leaves every precision and recall the same rational number, so the
    integer statistics go through chrF's own :func:`~bleucli.metrics.chrf.f_score`
    and each value is exactly the definition's, correctly rounded. An order no
    reference is long enough to have counts nothing, as sacreBLEU's chrF does
    for one reference; with a single reference the result is that pair's
    ``sentence_score``. Equal to fastchrf 0.2's ``aggregate_chrf`` (tested), which
    implements the same definition for chrF without words.
    """
    if not isinstance(metric, CHRF):
        raise InputError("reference aggregation is defined for chrF (a CHRF metric)")
    hyps = check_strings(hypotheses, "hypotheses")
    refs = check_strings(references, "references")
    if metric._compiled_aggregate is not None:  # the same integers and floats, counted in C
        scores: list[float] = metric._compiled_aggregate(hyps, refs, metric._compiled_settings)
        return scores
    n_refs = len(refs)
    char_order, word_order = metric.char_order, metric.word_order

    def grams(line: str) -> list[Counter[Any]]:
        chars = metric._chars(line)
        counted: list[Counter[Any]] = [Counter(chars[i:i + n] for i in range(len(chars) - n + 1))
                                       for n in range(1, char_order + 1)]
        if word_order:
            words = metric._words(line)
            counted += [Counter(zip(*(words[i:] for i in range(n)))) for n in range(1, word_order + 1)]
        return counted

    aggregate: list[Counter[Any]] = [Counter() for _ in range(char_order + word_order)]
    for ref in refs:
        for summed, counts in zip(aggregate, grams(ref)):
            summed.update(counts)
    ref_totals = [sum(counts.values()) for counts in aggregate]
    scores = []
    for hyp in hyps:
        statistics: list[int] = []
        for summed, ref_total, counts in zip(aggregate, ref_totals, grams(hyp)):
            if ref_total == 0:
                statistics += (0, 0, 0)
                continue
            matched = sum(min(n_refs * count, summed[gram]) for gram, count in counts.items() if gram in summed)
            statistics += (n_refs * sum(counts.values()), ref_total, matched)
        scores.append(float(f_score(statistics, metric.order, metric.beta, metric.eps_smoothing)))
    return scores
