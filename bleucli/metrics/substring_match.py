"""Character n-gram matches between two strings, by substring search instead of n-gram tables.

chrF and character-level BLEU both need, for every order n, the sum over the
hypothesis' character n-grams of min(count in hypothesis, count in
reference). Cutting both strings into n-grams and counting them (what
sacreBLEU does) creates and hashes a new string per position and order.
Searching the reference string for hypothesis substrings avoids building the
reference's n-grams at all. (Pure Python: used where the compiled matcher of
:mod:`.compiled` is not built or is switched off.)
"""

from __future__ import annotations

from collections import _count_elements  # type: ignore[attr-defined]
from itertools import compress, repeat
from operator import add, le, lt

_ONES = repeat(1)  # never runs out; shared by every map() below
_ZEROS = repeat(0)


def _occurrences(text: str, gram: str, enough: int) -> int:
    """Occurrences of ``gram`` in ``text``, overlaps included, counting up to ``enough``."""
    count = 0
    at = text.find(gram)
    while at >= 0:
        count += 1
        if count == enough:
            break
        at = text.find(gram, at + 1)
    return count


def string_matches(hyp: str, ref: str, max_order: int) -> list[int]:
    """sum(min(hyp count, ref count)) over character n-grams of orders 2..max_order.

    For each hypothesis position, the longest substring starting there that
    occurs in the reference (up to max_order) is found by substring search;
    it is at least the previous position's minus one, so each position costs
    about two searches. The number of positions reaching length n counts
    every hypothesis n-gram found in the reference. That over-counts only an
    n-gram the hypothesis repeats more often than the reference has it, so
    only repeated matched n-grams are looked at: an n-gram can only repeat
    where its (n-1)-gram prefix did, so each order searches the few positions
    the previous order left, and stops once nothing repeats.
    """
    length = len(hyp)
    reach: list[int] = []
    append = reach.append
    extent = 0
    full = length - max_order + 1 if length >= max_order else 0  # positions a max_order-gram fits after
    for i in range(full):
        if extent:
            extent -= 1
        while extent < max_order and hyp[i:i + extent + 1] in ref:
            extent += 1
        append(extent)
    for i in range(full, length):  # the tail, where fewer characters are left than max_order
        if extent:
            extent -= 1
        top = length - i
        while extent < top and hyp[i:i + extent + 1] in ref:
            extent += 1
        append(extent)
    histogram: dict[int, int] = {}
    _count_elements(histogram, reach)
    found = [0] * (max_order + 1)  # found[n]: positions whose n-gram occurs in the reference
    running = 0
    for n in range(max_order, 1, -1):
        running += histogram.get(n, 0)
        found[n] = running
    if max_order < 2 or found[2] < 2:
        return found[2:]
    matched = list(map(le, repeat(2), reach))
    positions: list[int] = list(compress(range(length), matched))
    grams: list[str] = list(map(add, compress(hyp, matched), compress(hyp[1:], matched)))
    n = 2
    while True:
        counts: dict[str, int] = {}
        _count_elements(counts, grams)
        if len(counts) == len(grams):
            break  # no matched n-gram repeats at this order, so none does at higher ones
        # clip the repeated ones by their occurrences in the reference. str.count
        # misses overlapping occurrences ("aa" in "aaa"). Two occurrences can only
        # overlap if the n-gram has a border (a proper prefix equal to a suffix),
        # which needs its first character to occur again; only those few (one in
        # sixteen on WMT text) are recounted, and only where the count is too low.
        repeated = list(compress(counts, map(lt, _ONES, counts.values())))
        seen = list(map(counts.__getitem__, repeated))
        in_ref = list(map(ref.count, repeated))
        for gram, hyp_count, ref_count in compress(zip(repeated, seen, in_ref), map(lt, in_ref, seen)):
            if gram[0] in gram[1:]:
                ref_count = _occurrences(ref, gram, hyp_count)
                if ref_count >= hyp_count:
                    continue
            found[n] -= hyp_count - ref_count
        n += 1
        if n > max_order:
            break
        positions = [p for p in compress(positions, map(lt, _ONES, map(counts.__getitem__, grams)))
                     if reach[p] >= n]
        grams = [hyp[p:p + n] for p in positions]
    return found[2:]


def character_matches(hyp: str, ref: str, max_order: int) -> list[int]:
    """Clipped matches of orders 1..max_order, the strings' characters being the tokens."""
    if max_order < 1:
        return []
    hyp_counts: dict[str, int] = {}
    _count_elements(hyp_counts, hyp)
    ref_counts: dict[str, int] = {}
    _count_elements(ref_counts, ref)
    unigrams = sum(map(min, hyp_counts.values(), map(ref_counts.get, hyp_counts, _ZEROS)))
    higher = string_matches(hyp, ref, min(max_order, len(ref))) if unigrams > 1 else []
    return [unigrams, *higher, *[0] * (max_order - 1 - len(higher))]


class CharacterReference(str):
    """One reference as the string of its one-character tokens (``char``), matched by substring search.

    Same protocol as BLEU's other prepared references (:mod:`.bleu`).
    """

    __slots__ = ()

    @property
    def lengths(self) -> tuple[int]:
        return (len(self),)

    def matches(self, hypothesis: str, max_order: int) -> list[int]:
        return character_matches(hypothesis, self, max_order)
