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
    from ..metrics.bleu import _ngram_totals

    order = metric.max_ngram_order
    prepared = [metric.prepare_references((ref,), True) for ref in refs]
    ref_lens = [p.lengths[0] for p in prepared]
    score = metric.resampled_score
    matrix = []
    for hyp in hyps:
        sequence = metric._sequence(hyp)
        hyp_len = len(sequence)
        totals = _ngram_totals(hyp_len, order)
        matrix.append([score([hyp_len, ref_len, *p.matches(sequence, order), *totals])
                       for p, ref_len in zip(prepared, ref_lens)])
    return matrix


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
