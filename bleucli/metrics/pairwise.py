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

from collections import Counter
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
    from .bleu import BLEU
    from .chrf import CHRF

    hyps = _check_strings(hypotheses, "hypotheses")
    refs = _check_strings(references, "references")
    metric.expect_references(1)
    if isinstance(metric, BLEU):
        return _bleu_matrix(metric, hyps, refs)
    if isinstance(metric, CHRF):
        return _chrf_matrix(metric, hyps, refs)
    return [[metric.sentence_score(h, [r]).score for r in refs] for h in hyps]


def _bleu_matrix(metric: Any, hyps: list[str], refs: list[str]) -> list[list[float]]:
    from .bleu import _bleu, _ngram_totals

    order = metric.max_ngram_order
    prepared = [metric.prepare_references((ref,), True) for ref in refs]
    ref_lens = [p.lengths[0] for p in prepared]
    options = (metric.smooth_method, metric.smooth_value, metric.effective_order, order)
    matrix = []
    for hyp in hyps:
        sequence = metric._sequence(hyp)
        hyp_len = len(sequence)
        totals = _ngram_totals(hyp_len, order)
        if metric.smooth_method == "add-k":
            matrix.append([_bleu(p.matches(sequence, order), totals, hyp_len, ref_len, *options)[0]
                           for p, ref_len in zip(prepared, ref_lens)])
        else:
            score = _row_scorer(hyp_len, totals, *options)
            matrix.append([score(p.matches(sequence, order), ref_len) for p, ref_len in zip(prepared, ref_lens)])
    return matrix


def _row_scorer(hyp_len: int, totals: tuple[int, ...], smooth_method: str, smooth_value: float | None,
                effective_order: bool, order: int) -> Any:
    """``_bleu(matches, totals, hyp_len, ref_len, ...)[0]`` of :mod:`bleucli.metrics.bleu` for one hypothesis.

    The same values in the same order of operations (each precision, its log,
    ``sum`` of the same list of logs, the division, ``exp``, the penalty), so
    the result is identical; what depends on the hypothesis alone (the orders
    it has, the length of the log list) is settled once, and logs and brevity
    penalties are memoized (a row has few distinct counts and lengths). Not
    for add-k, whose smoothing changes the counts (that goes through ``_bleu``).
    """
    import math

    from .bleu import _LOG_ZERO

    reach = 0  # orders the hypothesis has n-grams of: _bleu stops at the first empty one
    while reach < order and totals[reach] != 0:
        reach += 1
    used = reach if effective_order else order
    padding = [_LOG_ZERO] * (used - reach)  # orders never reached keep precision 0.0
    exp_smoothing = smooth_method == "exp"
    zero_logs: list[Any] = []  # per order: the log used for a zero count (exp: per number of zeros so far)
    for n in range(reach):
        if exp_smoothing:
            zero_logs.append({})
        elif smooth_method == "floor":
            precision = 100.0 * smooth_value / totals[n]  # type: ignore[operator]
            zero_logs.append(math.log(precision) if precision != 0.0 else _LOG_ZERO)
        else:
            zero_logs.append(_LOG_ZERO)
    match_logs: list[dict[int, float]] = [{} for _ in range(reach)]
    penalties: dict[int, float] = {}
    log = math.log
    exp = math.exp

    def score(correct: list[int], ref_len: int) -> float:
        if not any(correct):
            return 0.0
        logs = []
        divisor = 1.0
        for n in range(reach):
            count = correct[n]
            if count:
                value = match_logs[n].get(count)
                if value is None:
                    value = match_logs[n][count] = log(100.0 * count / totals[n])
            elif exp_smoothing:
                divisor *= 2
                value = zero_logs[n].get(divisor)
                if value is None:
                    precision = 100.0 / (divisor * totals[n])
                    value = zero_logs[n][divisor] = log(precision) if precision != 0.0 else _LOG_ZERO
            else:
                value = zero_logs[n]
            logs.append(value)
        if padding:
            logs += padding
        penalty = penalties.get(ref_len)
        if penalty is None:
            if hyp_len < ref_len:
                penalty = exp(1 - ref_len / hyp_len) if hyp_len > 0 else 0.0
            else:
                penalty = 1.0
            penalties[ref_len] = penalty
        return penalty * exp(sum(logs) / used)

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
    from .chrf import CHRF, f_score

    if not isinstance(metric, CHRF):
        raise InputError("reference aggregation is defined for chrF (a CHRF metric)")
    hyps = _check_strings(hypotheses, "hypotheses")
    refs = _check_strings(references, "references")
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
