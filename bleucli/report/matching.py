"""BLEU's clipped n-gram matches of many outputs at once, as numpy arrays: the counting behind compare's sentence view.

:func:`bleucli.report.compare.counted_ngrams` counts one hypothesis against
its references in Python, n-gram by n-gram; a report of 16 systems on 3,000
segments asks it 48,000 times. Here every token of every output and reference
of a range of segments is one integer, and each rule of the highlighting is a
few array operations over all of them:

* an n-gram is an integer too (the pair of its (n-1)-gram and its last token,
  numbered again at each order), so "the same n-gram in the same segment" is
  equal keys;
* a reference n-gram's limit is its largest count in one reference of the
  segment; a hypothesis n-gram is counted when fewer of its earlier
  occurrences in the same output were (stable sorting by output and n-gram
  gives each occurrence its rank): the first occurrences count, as in
  ``counted_ngrams``;
* a token's order is the longest counted n-gram covering it
  (``longest_orders``);
* a token differs when the output holds it more often, up to here, than the
  other output it is compared with (``_highlight_flat``).

The results are the same numbers, position for position (the tests compare
both ways on real data). Nothing here knows about reports, files or metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, count
from typing import Any, NamedTuple


class Matches(NamedTuple):
    """The highlighting of every output line of a range of segments (``[system][segment]``)."""

    #: counted n-gram start positions per order, per output: ``counted[k][i][n - 1]``
    counted: list[list[tuple[tuple[int, ...], ...]]]
    #: per output, each token's longest counted order (0: none), ``orders[k][i]``
    orders: list[list[list[int]]]
    #: per output, whether each token is one the other output lacks (1) or not (0)
    differs: list[list[list[int]]]
    #: per order, the counted n-grams (token tuples, each once) and how often each system had each counted
    #: (``int64 [system, n-gram]``)
    found: list[tuple[list[tuple[str, ...]], Any]]


def match(systems: Sequence[Sequence[Sequence[str]]], references: Sequence[Sequence[Sequence[str]]],
          max_order: int, others: Sequence[int]) -> Matches:
    """The clipped matches of ``systems[k][i]`` (tokens) against ``references[r][i]``, orders 1..``max_order``.

    ``others[k]`` is the system each output of system ``k`` is compared with for :attr:`Matches.differs`.
    """
    import numpy as np

    n_systems, n_refs = len(systems), len(references)
    size = len(references[0]) if references else 0
    if not size:
        return Matches([[] for _ in systems], [[] for _ in systems], [[] for _ in systems], [])
    numbers: dict[str, int] = {}
    number = numbers.setdefault
    fresh = count()
    lines = [line for ref in references for line in ref] + [line for system in systems for line in system]
    ids = list(map(number, chain.from_iterable(lines), fresh))
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    total = int(lengths.sum())
    token = np.asarray(ids, dtype=np.int64)  # one number per distinct token, below the number of tokens
    vocabulary = int(token.max()) + 1 if total else 1
    starts = np.zeros(len(lines) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    line_of = np.repeat(np.arange(len(lines), dtype=np.int64), lengths)
    position = np.arange(total, dtype=np.int64) - starts[line_of]
    left = lengths[line_of] - position  # tokens from here to the end of the line
    n_ref_lines = n_refs * size
    segment = (np.arange(len(lines), dtype=np.int64) % size)[line_of]
    hyp_first = int(starts[n_ref_lines])  # hypothesis tokens are the tail of the arrays

    counted_mask = []  # per order: whether the n-gram starting at each hypothesis token is counted
    gram_of = []  # per order: the n-gram's number at each token where one starts (-1: none)
    gram = token.copy()
    for n in range(1, max_order + 1):
        valid = left >= n
        if n > 1:
            previous = gram
            gram = np.full(total, -1, dtype=np.int64)
            if valid.any():
                at = np.flatnonzero(valid)
                pairs = previous[at] * vocabulary + token[at + n - 1]
                gram[at] = np.unique(pairs, return_inverse=True)[1]
        grams = max(int(gram.max()) + 1, 1) if total else 1
        key = np.where(valid, segment * grams + gram, -1)
        # each reference's counts of (segment, n-gram), then the largest over the references
        limit_keys: Any = np.zeros(0, dtype=np.int64)
        limit_counts: Any = np.zeros(0, dtype=np.int64)
        for r in range(n_refs):
            mine = key[int(starts[r * size]):int(starts[(r + 1) * size])]
            keys, counts = np.unique(mine[mine >= 0], return_counts=True)
            limit_keys = np.concatenate([limit_keys, keys])
            limit_counts = np.concatenate([limit_counts, counts])
        if n_refs > 1 and len(limit_keys):
            order = np.argsort(limit_keys, kind="stable")
            limit_keys, limit_counts = limit_keys[order], limit_counts[order]
            first = np.flatnonzero(np.r_[True, limit_keys[1:] != limit_keys[:-1]])
            limit_counts = np.maximum.reduceat(limit_counts, first)
            limit_keys = limit_keys[first]
        hyp_key = key[hyp_first:]
        at = np.searchsorted(limit_keys, hyp_key)
        at_clipped = np.minimum(at, max(len(limit_keys) - 1, 0))
        found = (hyp_key >= 0) & (len(limit_keys) > 0)
        if len(limit_keys):
            found &= limit_keys[at_clipped] == hyp_key
        limit = np.where(found, limit_counts[at_clipped] if len(limit_keys) else 0, 0)
        # rank of each occurrence among the earlier ones of the same n-gram in the same output (only the
        # n-grams some reference holds: the others are never counted)
        where = np.flatnonzero(found)
        rank = _ranks(line_of[hyp_first:][where] * grams + gram[hyp_first:][where])
        counted_here = np.zeros(total - hyp_first, dtype=bool)
        counted_here[where[rank < limit[where]]] = True
        counted_mask.append(counted_here)
        gram_of.append(gram[hyp_first:])

    hyp_tokens = total - hyp_first
    hyp_line = line_of[hyp_first:] - n_ref_lines  # 0..n_systems*size-1, system-major
    hyp_position = position[hyp_first:]
    # each token's longest counted order
    orders = np.zeros(hyp_tokens, dtype=np.int64)
    for n, mask in enumerate(counted_mask, 1):
        covered = mask.copy()
        for shift in range(1, n):  # a counted start covers the n - 1 tokens after it (all in its line)
            covered[shift:] |= mask[:-shift]
        orders[covered] = n
    # each token's occurrences so far against its count in the other output
    hyp_token = token[hyp_first:]
    same = hyp_line * vocabulary + hyp_token
    rank = _ranks(same)
    keys, counts = np.unique(same, return_counts=True)
    other_line = np.asarray(others, dtype=np.int64)[hyp_line // size] * size + hyp_line % size
    wanted = other_line * vocabulary + hyp_token
    at = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
    in_other = np.where(keys[at] == wanted, counts[at], 0) if len(keys) else np.zeros(hyp_tokens, dtype=np.int64)
    differs = (rank >= in_other).astype(np.int64)

    # back to Python, output by output
    bounds = (starts[n_ref_lines:] - hyp_first).tolist()
    pieces = list(zip(bounds, bounds[1:]))
    order_list, differs_list = orders.tolist(), differs.tolist()
    order_lines = [order_list[a:b] for a, b in pieces]
    differs_lines = [differs_list[a:b] for a, b in pieces]
    per_order = []
    for mask in counted_mask:
        where = np.flatnonzero(mask)
        cuts = np.searchsorted(hyp_line[where], np.arange(n_systems * size + 1)).tolist()
        local = hyp_position[where].tolist()
        per_order.append([tuple(local[a:b]) for a, b in zip(cuts, cuts[1:])])
    counted_lines = list(zip(*per_order))
    counted = [counted_lines[k * size:(k + 1) * size] for k in range(n_systems)]
    order_out = [order_lines[k * size:(k + 1) * size] for k in range(n_systems)]
    differs_out = [differs_lines[k * size:(k + 1) * size] for k in range(n_systems)]

    # the counted n-grams: one tuple made per distinct n-gram, and each system's count of it
    system_of = hyp_line // size
    hyp_lines = lines[n_ref_lines:]
    found_out = []
    for n, (mask, grams_n) in enumerate(zip(counted_mask, gram_of), 1):
        where = np.flatnonzero(mask)
        distinct, first, inverse = np.unique(grams_n[where], return_index=True, return_inverse=True)
        at = where[first]
        made = [tuple(hyp_lines[line][q:q + n]) for line, q in zip(hyp_line[at].tolist(), hyp_position[at].tolist())]
        times = np.bincount(system_of[where] * len(distinct) + inverse.reshape(-1),
                            minlength=n_systems * len(distinct)).reshape(n_systems, len(distinct))
        found_out.append((made, times))
    return Matches(counted, order_out, differs_out, found_out)


class GramCounts:
    """Each system's counts of counted n-grams over many blocks (and worker parts), one column per n-gram.

    An n-gram is numbered once (its token tuple, ``grams[n - 1]``), and ``counts[n - 1][k, g]`` is how
    often system ``k`` had n-gram ``g`` of order ``n`` counted: adding a block is array arithmetic, and no
    dictionary of every n-gram per system is built.
    """

    def __init__(self, n_systems: int, max_order: int) -> None:
        import numpy as np

        self.n_systems = n_systems
        self.numbers: list[dict[tuple[str, ...], int]] = [{} for _ in range(max_order)]
        self.grams: list[list[tuple[str, ...]]] = [[] for _ in range(max_order)]
        self.counts = [np.zeros((n_systems, 0), dtype=np.int64) for _ in range(max_order)]

    def add(self, found: Sequence[tuple[Sequence[tuple[str, ...]], Any]]) -> None:
        """Add the counts of a block (:attr:`Matches.found`) or of another part (:meth:`parts`)."""
        import numpy as np

        for n, (made, times) in enumerate(found):
            if not len(made):
                continue
            numbers, grams = self.numbers[n], self.grams[n]
            new = [gram for gram in made if gram not in numbers]
            numbers.update(zip(new, range(len(grams), len(grams) + len(new))))
            grams += new
            counts = self.counts[n]
            if counts.shape[1] < len(grams):
                grown = np.zeros((self.n_systems, max(len(grams), 2 * counts.shape[1])), dtype=np.int64)
                grown[:, :counts.shape[1]] = counts
                self.counts[n] = counts = grown
            counts[:, list(map(numbers.__getitem__, made))] += times

    def parts(self) -> list[tuple[list[tuple[str, ...]], Any]]:
        """Per order, the n-grams and their counts (``[system, n-gram]``), as :meth:`add` takes them."""
        return [(grams, counts[:, :len(grams)]) for grams, counts in zip(self.grams, self.counts)]


def _ranks(keys: Any) -> Any:
    """Each element's number of equal elements before it (0 for a first occurrence)."""
    import numpy as np

    size = len(keys)
    if not size:
        return np.zeros(0, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.r_[True, ordered[1:] != ordered[:-1]]
    first = np.maximum.accumulate(np.where(starts, np.arange(size), 0))
    rank = np.empty(size, dtype=np.int64)
    rank[order] = np.arange(size) - first
    return rank


__all__ = ["Matches", "match", "GramCounts"]
