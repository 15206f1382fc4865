"""Clipped n-gram matches between a hypothesis and its references, fast.

BLEU's statistic for order n is the sum over the hypothesis n-grams of
``min(count in hypothesis, max count in any reference)``. Counting every
n-gram into dictionaries and walking them in Python (what sacreBLEU does)
dominates scoring time. Here almost all of the work is done by C-level set
operations, using one fact: when the references never repeat an n-gram,
every clipped count is 1, so the matches of that order are the number of
distinct hypothesis n-grams found in the reference set,
``len(reference_set.intersection(hypothesis_ngrams))``. Hypothesis n-grams
that do not match are never stored (``zip`` reuses their tuples).

Only the n-grams that the references do repeat need counting: the words a
reference repeats (a handful per segment) are clipped one by one, and at
higher orders the matched n-grams are counted when a reference repeats one.

These are the pure-Python matchers, used where the compiled one
(:mod:`.compiled`) is not built or is switched off.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import lt
from typing import Any

try:
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other Python implementations

    def _count_elements(mapping: dict[Any, int], iterable: Any) -> None:
        get = mapping.get
        for element in iterable:
            mapping[element] = get(element, 0) + 1


_ONES = repeat(1)  # never runs out; shared by every map() below


class ReferenceNgrams:
    """One segment's references, prepared once and matched against any number of hypotheses.

    ``higher[n - 2]`` is the set of n-grams of order n in any reference and
    ``higher_repeats[n - 2]`` whether some reference contains one of them twice.
    """

    __slots__ = ("lengths", "token_lists", "words", "word_counts", "repeated_words", "higher",
                 "higher_repeats", "plain_4", "_higher_counts")

    def __init__(self, token_lists: list[list[str]], max_order: int) -> None:
        self.token_lists = token_lists
        self.lengths = [len(tokens) for tokens in token_lists]
        word_counts: dict[str, int] = {}
        _count_elements(word_counts, token_lists[0])
        for tokens in token_lists[1:]:
            counts: dict[str, int] = {}
            _count_elements(counts, tokens)
            for word, count in counts.items():
                if count > word_counts.get(word, 0):
                    word_counts[word] = count
        self.word_counts = word_counts
        self.words = set(word_counts)
        self.repeated_words = list(compress(word_counts, map(lt, _ONES, word_counts.values()))) \
            if len(word_counts) < sum(self.lengths) else []
        if len(token_lists) == 1:
            tokens = token_lists[0]
            shifted = [tokens[i:] for i in range(max_order)]
            self.higher = [set(zip(*shifted[:n])) for n in range(2, max_order + 1)]
            self.higher_repeats = [len(grams) < len(tokens) - n for n, grams in enumerate(self.higher, 1)]
        else:
            self.higher, self.higher_repeats = [], []
            for n in range(2, max_order + 1):
                per_reference = [set(zip(*[tokens[i:] for i in range(n)])) for tokens in token_lists]
                self.higher.append(set().union(*per_reference))
                self.higher_repeats.append(any(
                    len(grams) < len(tokens) - n + 1 for grams, tokens in zip(per_reference, token_lists)))
        # BLEU's usual case: four orders, no reference repeating a higher n-gram
        self.plain_4 = max_order == 4 and not any(self.higher_repeats)
        self._higher_counts: dict[int, dict[tuple[str, ...], int]] = {}

    def matches(self, tokens: list[str] | str, max_order: int) -> list[int]:
        """Clipped matches of orders 1..max_order (the prepared-references protocol of :mod:`.bleu`)."""
        return clipped_matches(tokens, self, max_order)  # type: ignore[arg-type]

    def higher_counts(self, order: int) -> dict[tuple[str, ...], int]:
        """Max count over the references of each n-gram of ``order`` (built when first needed)."""
        best = self._higher_counts.get(order)
        if best is None:
            best = {}
            for tokens in self.token_lists:
                counts: dict[tuple[str, ...], int] = {}
                _count_elements(counts, zip(*[tokens[i:] for i in range(order)]))
                for gram, count in counts.items():
                    if count > best.get(gram, 0):
                        best[gram] = count
            self._higher_counts[order] = best
        return best


def clipped_matches(tokens: list[str], refs: ReferenceNgrams, max_order: int) -> list[int]:
    """``[matches of order 1, ..., matches of order max_order]``, clipped by the references."""
    common = refs.words.intersection(tokens)
    matched = len(common)
    for word in refs.repeated_words:
        if word in common:
            count = tokens.count(word)
            if count > 1:
                limit = refs.word_counts[word]
                matched += (count if count < limit else limit) - 1
    if refs.plain_4 and matched > 1:
        # the loop below unrolled: this is most of a multi-system run's matching
        bigrams, trigrams, fourgrams = refs.higher
        after_1 = tokens[1:]
        matched_2 = len(bigrams.intersection(zip(tokens, after_1)))
        if matched_2 < 2:
            return [matched, matched_2, 0, 0]
        after_2 = tokens[2:]
        matched_3 = len(trigrams.intersection(zip(tokens, after_1, after_2)))
        if matched_3 < 2:
            return [matched, matched_2, matched_3, 0]
        return [matched, matched_2, matched_3, len(fourgrams.intersection(zip(tokens, after_1, after_2, tokens[3:])))]
    matches = [matched]
    shifted = [tokens[i:] for i in range(max_order)]
    for n in range(2, max_order + 1):
        if matched < 2:
            # a matched n-gram contains two matched (n-1)-grams (or one, matched twice)
            matches.extend([0] * (max_order - n + 1))
            break
        reference_set = refs.higher[n - 2]
        grams = zip(*shifted[:n])
        if refs.higher_repeats[n - 2]:
            found = list(filter(reference_set.__contains__, grams))
            distinct = set(found)
            if len(distinct) == len(found):
                matched = len(found)
            else:
                matched = _clip_counted(found, refs.higher_counts(n))
        else:
            matched = len(reference_set.intersection(grams))
        matches.append(matched)
    return matches


class PairReference:
    """One reference's tokens, matched against one hypothesis: no tables are built ahead.

    What BLEU's pure-Python path uses for a reference that is used once
    (sentence scores, a single system, ``references=``); same protocol as
    :class:`ReferenceNgrams`.
    """

    __slots__ = ("tokens", "lengths")

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.lengths = (len(tokens),)

    def matches(self, tokens: list[str], max_order: int) -> list[int]:
        return pair_matches(tokens, self.tokens, max_order)


def pair_matches(tokens: list[str], reference: list[str], max_order: int) -> list[int]:
    """:func:`clipped_matches` against a single reference that nothing else will reuse.

    Sentence BLEU and single-system corpus BLEU use each reference once, so
    there is nothing to gain from preparing it: its n-gram sets are built
    order by order and only while matches remain (the early stop then also
    skips building the reference's higher orders).
    """
    words = set(reference)
    common = words.intersection(tokens)
    matched = len(common)
    if matched and len(words) < len(reference):  # the reference repeats a word
        counts: dict[str, int] = {}
        _count_elements(counts, reference)
        for word in compress(counts, map(lt, _ONES, counts.values())):
            if word in common:
                count = tokens.count(word)
                if count > 1:
                    limit = counts[word]
                    matched += (count if count < limit else limit) - 1
    matches = [matched]
    shifted = [tokens[i:] for i in range(max_order)]
    reference_shifted = [reference[i:] for i in range(max_order)]
    for n in range(2, max_order + 1):
        if matched < 2:
            matches.extend([0] * (max_order - n + 1))
            break
        reference_set = set(zip(*reference_shifted[:n]))
        grams = zip(*shifted[:n])
        if len(reference_set) < len(reference) - n + 1:  # the reference repeats an n-gram
            found = list(filter(reference_set.__contains__, grams))
            if len(set(found)) == len(found):
                matched = len(found)
            else:
                reference_counts: dict[tuple[str, ...], int] = {}
                _count_elements(reference_counts, zip(*reference_shifted[:n]))
                matched = _clip_counted(found, reference_counts)
        else:
            matched = len(reference_set.intersection(grams))
        matches.append(matched)
    return matches


def _clip_counted(found: list[tuple[str, ...]], reference_counts: dict[tuple[str, ...], int]) -> int:
    counts: dict[tuple[str, ...], int] = {}
    _count_elements(counts, found)
    total = 0
    for gram, count in counts.items():
        limit = reference_counts[gram]
        total += count if count < limit else limit
    return total
