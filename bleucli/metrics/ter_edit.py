"""TER's edit distance with block shifts, equal to sacreBLEU 2.6's Tercom clone.

The search is sacreBLEU's (itself Tercom's heuristics): repeatedly apply the
single shift that most reduces the word-level Levenshtein distance; candidate
shifts are exact matches of at most 10 words moved at most 50 positions, that
cover a hypothesis error and land on a reference error; ties go to the longer
shift, then the earlier hypothesis position, then the earlier target; the
search stops when no shift helps or after 1000 candidates for the sentence
pair (the shift found in the round that reaches the cap is discarded). The
Levenshtein distance only fills a beam of +-25 cells around the length-ratio
diagonal, and prefers match/substitution, then deletion, then insertion when
tracing the alignment. All of that decides scores, so all of it is kept.

What differs is how each candidate's distance is computed; the result does not:

* The alignment (trace) is needed once per round, for the current
  hypothesis, not for every candidate (sacreBLEU builds one per candidate).
* A candidate differs from the current hypothesis only between the shift's
  source and target, so its rows are computed from the first changed word,
  starting from the current hypothesis' row there; once a row past the changed
  region equals the current hypothesis' row, every later row does too, and
  the distance is the current one.
* Those rows come from a bit-parallel Levenshtein (Myers/Hyyrö) over Python
  integers, one reference bit per word: a whole row is a dozen integer
  operations. That computes the unrestricted distance D. It equals the beamed
  distance whenever no alignment path of cost D can leave the beam, which is
  checked exactly from the lengths (a path through cell (i, j) costs at least
  |i-j| + |(n_h-i)-(n_r-j)|). When it cannot be proven, the candidate is
  scored with the beamed dynamic programme itself, unless it cannot beat the
  best candidate so far even with the (smaller or equal) unrestricted distance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
INF = 10 ** 16  # sacreBLEU's int(1e16): an unreachable cell

_NOP, _SUB, _DEL, _INS, _UNDEF = 0, 1, 2, 3, 4  # DEL consumes a hypothesis word, INS a reference word


class _Pair:
    """One hypothesis/reference pair: fixed lengths, beam and reference bit masks."""

    __slots__ = ("ref", "n_ref", "n_hyp", "ratio", "beam", "masks", "certified_slack", "delta_len")

    def __init__(self, n_hyp: int, ref: Sequence[str]) -> None:
        self.ref = ref
        self.n_ref = n_ref = len(ref)
        self.n_hyp = n_hyp
        # Shifts never change the hypothesis length, so the beam is fixed per pair.
        self.ratio = ratio = n_ref / n_hyp if n_hyp else 1
        self.beam = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
        masks: dict[str, int] = {}
        for j, word in enumerate(ref):
            masks[word] = masks.get(word, 0) | (1 << j)
        self.masks = masks
        self.delta_len = n_hyp - n_ref
        self.certified_slack = self._certified_slack()

    def band(self, i: int) -> tuple[int, int]:
        """Columns [lo, hi) that sacreBLEU fills in row i (1-based)."""
        diagonal = math.floor(i * self.ratio)
        lo = max(0, diagonal - self.beam)
        hi = self.n_ref + 1 if i == self.n_hyp else min(self.n_ref + 1, diagonal + self.beam)
        return lo, hi

    def _certified_slack(self) -> int:
        """Largest s = (D - |n_h - n_r|) // 2 for which every path of cost D stays in the beam.

        A path through (i, j) with k = i - j costs at least |k| + |delta - k|,
        so cost <= D confines k to [min(0, delta) - s, max(0, delta) + s].
        Returns -1 when not even an optimal path of minimal cost is provably inside.
        """
        delta = self.delta_len
        slack = 1 << 60
        for i in range(1, self.n_hyp + 1):
            lo, hi = self.band(i)
            if lo > 0:
                slack = min(slack, i - lo - max(0, delta))
            if hi - 1 < self.n_ref:
                slack = min(slack, hi - 1 - i + min(0, delta))
        return slack if slack >= 0 else -1

    # -- the beamed dynamic programme (sacreBLEU's semantics) ----------------------
    def exact(self, words: Sequence[str]) -> tuple[int, list[list[int]], list[int]]:
        """Beamed distance, its rows and its trace (operations from the end backwards)."""
        ref = self.ref
        n_ref = self.n_ref
        prev = list(range(n_ref + 1))
        rows = [prev]
        op_rows: list[bytearray] = [bytearray([_INS]) * (n_ref + 1)]
        ratio, beam, n_words = self.ratio, self.beam, len(words)
        floor = math.floor
        for i in range(1, n_words + 1):
            diagonal = floor(i * ratio)
            lo = diagonal - beam if diagonal > beam else 0
            hi = n_ref + 1 if i == n_words or diagonal + beam > n_ref + 1 else diagonal + beam
            cur = [INF] * (n_ref + 1)
            ops = bytearray([_UNDEF]) * (n_ref + 1)
            word = words[i - 1]
            start = lo
            if lo == 0:
                cur[0] = prev[0] + 1
                ops[0] = _DEL
                start = 1
            left = cur[start - 1] if start > 0 else INF
            for j in range(start, hi):
                if word == ref[j - 1]:
                    best, op = prev[j - 1], _NOP
                else:
                    best, op = prev[j - 1] + 1, _SUB
                if best >= INF:
                    best, op = INF, _UNDEF  # undefined, as sacreBLEU's empty cell
                cost = prev[j] + 1
                if cost < best:
                    best, op = cost, _DEL
                cost = left + 1
                if cost < best:
                    best, op = cost, _INS
                cur[j] = left = best
                ops[j] = op
            rows.append(cur)
            op_rows.append(ops)
            prev = cur
        trace = []
        i, j = len(words), n_ref
        while i > 0 or j > 0:
            op = op_rows[i][j]
            trace.append(op)
            if op == _NOP or op == _SUB:
                i -= 1
                j -= 1
            elif op == _INS:
                j -= 1
            elif op == _DEL:
                i -= 1
            else:  # pragma: no cover - sacreBLEU raises here too
                raise RuntimeError("TER beam search reached an undefined cell")
        return rows[-1][-1], rows, trace

    def beamed_from(self, words: Sequence[str], rows: list[list[int]], first: int, same_from: int) -> int:
        """Beamed distance of ``words``, reusing ``rows`` (of a hypothesis equal up to
        ``first`` and again from ``same_from`` on) wherever they must be equal."""
        ref = self.ref
        n_ref = self.n_ref
        prev = rows[first]
        n_words = len(words)
        for i in range(first + 1, n_words + 1):
            lo, hi = self.band(i)
            cur = [INF] * (n_ref + 1)
            word = words[i - 1]
            start = lo
            if lo == 0:
                cur[0] = prev[0] + 1
                start = 1
            left = cur[start - 1] if start > 0 else INF
            for j in range(start, hi):
                best = prev[j - 1] if word == ref[j - 1] else prev[j - 1] + 1
                cost = prev[j] + 1
                if cost < best:
                    best = cost
                cost = left + 1
                if cost < best:
                    best = cost
                if best > INF:
                    best = INF
                cur[j] = left = best
            if i >= same_from and cur == rows[i]:
                return rows[-1][-1]
            prev = cur
        return prev[-1]

    def free_trace(self, words: Sequence[str], states: list[tuple[int, int, int]]) -> list[int]:
        """The trace :meth:`exact` would give, read from bit-parallel states.

        Valid only when the distance is certified (every optimal path is inside
        the beam): then the cells and operation costs the trace-back compares
        are the same as in the beamed matrix, so the same operations win.
        """
        ref = self.ref

        def value(i: int, j: int) -> int:
            below = (1 << j) - 1
            vp, vn, _ = states[i]
            return i + (vp & below).bit_count() - (vn & below).bit_count()

        trace = []
        i, j = len(words), self.n_ref
        v = states[i][2]
        while i > 0 or j > 0:
            if i > 0 and j > 0:
                diag = value(i - 1, j - 1)
                same = words[i - 1] == ref[j - 1]
                if diag + (0 if same else 1) == v:
                    trace.append(_NOP if same else _SUB)
                    i -= 1
                    j -= 1
                    v = diag
                    continue
            if i > 0:
                up = value(i - 1, j)
                if up + 1 == v:
                    trace.append(_DEL)
                    i -= 1
                    v = up
                    continue
            trace.append(_INS)
            j -= 1
            v -= 1
        return trace

    # -- bit-parallel unrestricted rows ---------------------------------------------
    def states(self, words: Sequence[str]) -> list[tuple[int, int, int]]:
        """Myers/Hyyrö column states (VP, VN, D[i][n_ref]) after each prefix of ``words``."""
        masks = self.masks
        full = (1 << self.n_ref) - 1
        top = 1 << (self.n_ref - 1)
        vp, vn, score = full, 0, self.n_ref
        out = [(vp, vn, score)]
        for word in words:
            x = masks.get(word, 0) | vn
            d0 = (((x & vp) + vp) ^ vp) | x
            hp = vn | (full & ~(d0 | vp))
            hn = vp & d0
            if hp & top:
                score += 1
            elif hn & top:
                score -= 1
            hp = ((hp << 1) | 1) & full
            vp = ((hn << 1) & full) | (full & ~(d0 | hp))
            vn = hp & d0
            out.append((vp, vn, score))
        return out


def _shifted(words: list[str], start: int, length: int, target: int) -> list[str]:
    """Move ``words[start:start+length]`` before position ``target`` (sacreBLEU's slicing)."""
    if target < start:
        return words[:target] + words[start:start + length] + words[target:start] + words[start + length:]
    if target > start + length:
        return words[:start] + words[start + length:target] + words[start:start + length] + words[target:]
    # A target inside the span (sacreBLEU's third case, kept verbatim).
    return words[:start] + words[start + length:length + target] + words[start:start + length] + words[length + target:]


def _alignment(trace: list[int], n_ref: int) -> tuple[list[int], list[int], list[int]]:
    """``(align, ref_err, hyp_err)`` from a trace read backwards.

    ``align[j]`` is the hypothesis position reference word j is aligned to
    (or follows); ``ref_err``/``hyp_err`` flag the words that are not matches.
    """
    align = [0] * n_ref
    ref_err: list[int] = []
    hyp_err: list[int] = []
    pos_hyp = pos_ref = -1
    for op in reversed(trace):
        if op == _NOP or op == _SUB:
            pos_hyp += 1
            pos_ref += 1
            align[pos_ref] = pos_hyp
            err = 0 if op == _NOP else 1
            hyp_err.append(err)
            ref_err.append(err)
        elif op == _DEL:  # a hypothesis word with no reference counterpart
            pos_hyp += 1
            hyp_err.append(1)
        else:  # a reference word missing from the hypothesis
            pos_ref += 1
            align[pos_ref] = pos_hyp
            ref_err.append(1)
    return align, ref_err, hyp_err


def _prefix_sums(values: list[int]) -> list[int]:
    sums = [0]
    total = 0
    for v in values:
        total += v
        sums.append(total)
    return sums


def _best_shift(words: list[str], pair: _Pair, checked: int) -> tuple[int, list[str], int, int]:
    """One round: the best shift's gain, the shifted words, the updated candidate
    count and the (beamed) distance of ``words`` itself."""
    ref = pair.ref
    n_hyp, n_ref = len(words), pair.n_ref
    states = pair.states(words)
    current_free = states[-1][2]  # the unrestricted distance of the current words
    slack_limit = pair.certified_slack
    abs_delta = abs(pair.delta_len)
    rows: list[list[int]] | None = None
    if (current_free - abs_delta) // 2 <= slack_limit:
        current = current_free
        trace = pair.free_trace(words, states)
    else:
        current, rows, trace = pair.exact(words)
    if current == 0:
        return 0, words, checked, 0  # nothing to fix, so no candidate can pass the filters
    align, ref_err, hyp_err = _alignment(trace, n_ref)
    hyp_sums = _prefix_sums(hyp_err)
    ref_sums = _prefix_sums(ref_err)
    masks = pair.masks
    word_masks = [masks.get(w, 0) for w in words]
    full = (1 << n_ref) - 1
    top = 1 << (n_ref - 1)

    best_key: tuple[int, int, int, int] | None = None
    best_words = words
    for start_h in range(n_hyp):
        word = words[start_h]
        for start_r in range(max(0, start_h - MAX_SHIFT_DIST), min(n_ref, start_h + MAX_SHIFT_DIST + 1)):
            if ref[start_r] != word:
                continue
            length = 0
            stop = False
            while not stop and length < MAX_SHIFT_SIZE and words[start_h + length] == ref[start_r + length]:
                length += 1
                stop = n_hyp == start_h + length or n_ref == start_r + length
                # sacreBLEU's filters: the span has a hypothesis error, the target a
                # reference error, and the target is not inside the span.
                if hyp_sums[start_h + length] == hyp_sums[start_h]:
                    continue
                if ref_sums[start_r + length] == ref_sums[start_r]:
                    continue
                if start_h <= align[start_r] < start_h + length:
                    continue
                previous = -1
                for offset in range(-1, length):
                    target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                    if target == previous:
                        continue
                    previous = target
                    # Unrestricted distance, bit-parallel: the changed words first
                    # (as reference-bit masks), then unchanged words until the rows
                    # meet those of the current words again.
                    end_span = start_h + length
                    if target < start_h:
                        first, same_from = target, end_span
                        region = word_masks[start_h:end_span] + word_masks[target:start_h]
                    elif target > end_span:
                        first, same_from = start_h, target
                        region = word_masks[end_span:target] + word_masks[start_h:end_span]
                    else:
                        first, same_from = start_h, length + target
                        region = word_masks[end_span:length + target] + word_masks[start_h:end_span]
                    vp, vn, score = states[first]
                    for x in region:
                        x |= vn
                        d0 = (((x & vp) + vp) ^ vp) | x
                        hp = vn | (full & ~(d0 | vp))
                        hn = vp & d0
                        if hp & top:
                            score += 1
                        elif hn & top:
                            score -= 1
                        hp = ((hp << 1) | 1) & full
                        vp = ((hn << 1) & full) | (full & ~(d0 | hp))
                        vn = hp & d0
                    distance = -1
                    for i in range(same_from, n_hyp):
                        state = states[i]
                        if vp == state[0] and vn == state[1]:
                            distance = current_free
                            break
                        x = word_masks[i] | vn
                        d0 = (((x & vp) + vp) ^ vp) | x
                        hp = vn | (full & ~(d0 | vp))
                        hn = vp & d0
                        if hp & top:
                            score += 1
                        elif hn & top:
                            score -= 1
                        hp = ((hp << 1) | 1) & full
                        vp = ((hn << 1) & full) | (full & ~(d0 | hp))
                        vn = hp & d0
                    if distance < 0:
                        distance = score
                    checked += 1
                    key = (current - distance, length, -start_h, -target)
                    if best_key is not None and key <= best_key:
                        # The beamed distance is never below the unrestricted one, so
                        # this candidate cannot win whatever its beamed distance is.
                        continue
                    shifted = _shifted(words, start_h, length, target)
                    if (distance - abs_delta) // 2 > slack_limit:
                        if rows is None:
                            rows = pair.exact(words)[1]
                        distance = pair.beamed_from(shifted, rows, first, same_from)
                        key = (current - distance, length, -start_h, -target)
                    if best_key is None or key > best_key:
                        best_key = key
                        best_words = shifted
                if checked >= MAX_SHIFT_CANDIDATES:
                    return (best_key[0] if best_key else 0), best_words, checked, current
    return (best_key[0] if best_key else 0), best_words, checked, current


def shift_edit_distance(hyp: Sequence[str], ref: Sequence[str]) -> int:
    """Minimum number of edits (shifts count one each) turning ``hyp`` into ``ref``."""
    if not ref:
        return len(hyp)
    words = list(hyp)
    pair = _Pair(len(words), ref)
    shifts = 0
    checked = 0
    while True:
        gain, shifted, checked, distance = _best_shift(words, pair, checked)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            # The round's shift (if any) is not applied: ``distance`` is that of ``words``.
            return shifts + distance
        shifts += 1
        words = shifted


def translation_edit_rate(words_hyp: Sequence[str], words_ref: Sequence[str]) -> tuple[int, int]:
    """sacreBLEU's ``translation_edit_rate`` (``sacrebleu.metrics.lib_ter``): ``(edits, reference length)``."""
    return shift_edit_distance(words_hyp, words_ref), len(words_ref)
