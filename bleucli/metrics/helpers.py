"""sacreBLEU 2.6's ``sacrebleu.metrics.helpers`` n-gram counters, for scripts that import them.

bleucli's metrics count n-grams their own, faster way (``ngram_match.py``,
``chrf.char_ngrams``, the C matcher); these return sacreBLEU's ``Counter`` of
strings, exactly as its functions do.
"""

from __future__ import annotations

from collections import Counter


def extract_word_ngrams(tokens: list[str], n: int) -> Counter[str]:
    """The order-``n`` n-grams of ``tokens``, each joined by one space, with their counts."""
    return Counter([" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1)])


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter[str]:
    """The order-``n`` character n-grams of ``line`` (whitespace removed first unless ``include_whitespace``)."""
    if not include_whitespace:
        line = "".join(line.split())
    return Counter([line[i:i + n] for i in range(len(line) - n + 1)])


def extract_all_char_ngrams(line: str, max_order: int, include_whitespace: bool = False) -> list[Counter[str]]:
    """:func:`extract_char_ngrams` for every order from 1 to ``max_order``."""
    if not include_whitespace:
        line = "".join(line.split())
    return [extract_char_ngrams(line, n, True) for n in range(1, max_order + 1)]


def extract_all_word_ngrams(line: str, min_order: int, max_order: int) -> tuple[Counter[tuple[str, ...]], int]:
    """Every word n-gram of ``line`` (as tuples) from ``min_order`` to ``max_order``, and its word count."""
    tokens = line.split()
    ngrams = [tuple(tokens[i:i + n]) for n in range(min_order, max_order + 1) for i in range(len(tokens) - n + 1)]
    return Counter(ngrams), len(tokens)
