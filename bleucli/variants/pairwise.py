"""Pairwise sentence scores: every hypothesis of a segment against every reference, one at a time.

Each cell is what sacreBLEU 2.6's ``metric.sentence_score(hypothesis, [reference]).score``
returns for that pair with the same options (minimum-Bayes-risk decoding,
pseudo-reference filtering). Instead of H×R independent calls, each reference
is prepared once with the metric's shared tables
(``prepare_references((ref,), shared=True)``) and each hypothesis is
tokenized once (BLEU: its tokens and n-gram totals; chrF: its characters and
words); the statistics of a pair are then the metric's own, and the same
arithmetic scores them, so the numbers are identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import Any

from ..errors import InputError


def _check_strings(values: Any, what: str) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InputError(f"{what} must be a list of strings")
    if not values:
        raise InputError(f"no {what} given")
    if not all(map(isinstance, values, repeat(str))):
        wrong = next(v for v in values if not isinstance(v, str))
        raise InputError(f"{what} must be strings, got {type(wrong).__name__}")
    return list(values)


def pairwise_scores(metric: Any, hypotheses: Sequence[str], references: Sequence[str]) -> list[list[float]]:
    """``matrix[i][j]`` = the sentence score of ``hypotheses[i]`` against ``references[j]`` alone."""
    from ..metrics.bleu import BLEU
    from ..metrics.chrf import CHRF

    hyps = _check_strings(hypotheses, "hypotheses")
    refs = _check_strings(references, "references")
    metric.expect_references(1)
    if isinstance(metric, BLEU):
        return _bleu_matrix(metric, hyps, refs)
    if isinstance(metric, CHRF):
        return _chrf_matrix(metric, hyps, refs)
    return [[metric.sentence_score(h, [r]).score for r in refs] for h in hyps]


def _bleu_matrix(metric: Any, hyps: list[str], refs: list[str]) -> list[list[float]]:
    from ..metrics.bleu import _bleu, _ngram_totals

    order = metric.max_ngram_order
    prepared = [metric.prepare_references((ref,), True) for ref in refs]
    ref_lens = [p.lengths[0] for p in prepared]
    options = (metric.smooth_method, metric.smooth_value, metric.effective_order, order)
    score = _cell_scorer(*options) if metric.smooth_method != "add-k" else None
    matrix = []
    for hyp in hyps:
        sequence = metric._sequence(hyp)
        hyp_len = len(sequence)
        totals = _ngram_totals(hyp_len, order)
        if score is None:
            matrix.append([_bleu(p.matches(sequence, order), totals, hyp_len, ref_len, *options)[0]
                           for p, ref_len in zip(prepared, ref_lens)])
        else:
            matrix.append([score(p.matches(sequence, order), totals, hyp_len, ref_len)
                           for p, ref_len in zip(prepared, ref_lens)])
    return matrix


def _cell_scorer(smooth_method: str, smooth_value: float | None, effective_order: bool, order: int) -> Any:
    """``_bleu(...)[0]`` of :mod:`bleucli.metrics.bleu` for one matrix, with its logs and penalties memoized.

    The same values in the same order of operations (each precision, its log,
    ``sum`` of the same list, the division, ``exp``, the penalty), so the
    result is identical; only repeated ``log``/``exp`` calls are saved (a
    matrix has few distinct lengths and counts). Not for add-k, whose
    smoothing changes the counts themselves (that goes through ``_bleu``).
    """
    import math

    from ..metrics.bleu import _LOG_ZERO

    logs_cache: dict[tuple[int, int, float], float] = {}
    penalties: dict[tuple[int, int], float] = {}
    exp_smoothing, floor = smooth_method == "exp", smooth_method == "floor"

    def log_of(numerator: int, total: int, divisor: float) -> float:
        key = (numerator, total, divisor)
        value = logs_cache.get(key)
        if value is None:
            if numerator:
                precision = 100.0 * numerator / total
            elif exp_smoothing:
                precision = 100.0 / (divisor * total)
            elif floor:
                precision = 100.0 * smooth_value / total  # type: ignore[operator]
            else:
                precision = 0.0
            value = logs_cache[key] = math.log(precision) if precision != 0.0 else _LOG_ZERO
        return value

    def score(correct: list[int], totals: tuple[int, ...], hyp_len: int, ref_len: int) -> float:
        if not any(correct):
            return 0.0
        penalty = penalties.get((hyp_len, ref_len))
        if penalty is None:
            if hyp_len < ref_len:
                penalty = math.exp(1 - ref_len / hyp_len) if hyp_len > 0 else 0.0
            else:
                penalty = 1.0
            penalties[(hyp_len, ref_len)] = penalty
        divisor = 1.0
        used = order
        logs = []
        for n in range(order):
            total = totals[n]
            if total == 0:
                break
            if effective_order:
                used = n + 1
            numerator = correct[n]
            if numerator == 0 and exp_smoothing:
                divisor *= 2
            logs.append(log_of(numerator, total, divisor if numerator == 0 else 1.0))
        # _bleu takes the logs of precisions[:used]: orders never reached have precision 0.0
        logs.extend([_LOG_ZERO] * (used - len(logs)))
        return penalty * math.exp(sum(logs) / used)

    return score


def _chrf_matrix(metric: Any, hyps: list[str], refs: list[str]) -> list[list[float]]:
    prepared = [metric.prepare_references((ref,), True) for ref in refs]
    char_order, word_order = metric.char_order, metric.word_order
    best, score = metric._best, metric.resampled_score
    matrix = []
    for hyp in hyps:
        chars = metric._chars(hyp)
        words = metric._words(hyp) if word_order else []
        n_chars, n_words = len(chars), len(words)
        matrix.append([float(score(best(n_chars, n_words, p.matched(chars, words, char_order, word_order), 1)))
                       for p in prepared])
    return matrix
