"""Self-BLEU: each sentence of a file scored against all the other sentences, averaged.

Two semantics are reproduced:

* **Texygen** (geek-ai/Texygen ``utils/metrics/SelfBleu.py``, Zhu et al. 2018):
  the first 500 lines, NLTK 3.10's ``sentence_bleu`` with uniform weights over
  orders 1..N and ``SmoothingFunction().method1`` (0.1 added to a zero
  numerator), summed left to right and divided by the count. Texygen tokenizes
  with ``nltk.word_tokenize``; bleucli uses whitespace tokens unless a
  tokenizer is named (so its anchor numbers are Texygen's with ``str.split``).
* **sacreBLEU-style**: a sacreBLEU tokenizer, BLEU's smoothing and effective
  order (``sacrebleu.sentence_bleu``'s defaults), every sentence; the mean of
  ``BLEU.sentence_score(sentence, all other sentences)``.

Both are computed without the O(N²) loop, equal to it to the last bit: the
clipped count of an n-gram against "all other sentences" is the minimum of
its count here and its largest count in any *other* sentence, which is the
corpus-wide largest count unless this sentence holds it, and then the second
largest. The closest other length comes from the multiset of lengths. The
per-sentence statistics are then exactly what the quadratic loop builds, and
the same arithmetic scores them.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InputError, OptionError
from ..options import MAX_ORDER_LIMIT, NLTK_METHOD1_EPSILON, TEXYGEN_MAX_ORDER, TEXYGEN_SAMPLE_SIZE
from ..signature import Signature

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.bleu import BLEU

Tokens = Sequence[str]


@dataclass(frozen=True)
class SelfBLEUScore:
    """The mean Self-BLEU of a set of sentences, with each sentence's own score."""

    name: str
    score: float
    signature: Signature
    sentences: int
    sentence_scores: tuple[float, ...]

    def format(self, width: int = 4, short: bool = False) -> str:
        """``Self-BLEU|signature = score`` (built by :mod:`bleucli.family.render`)."""
        from .render import variant_line

        return variant_line(self.name, self.signature, self.score, width, short)

    def to_dict(self) -> dict[str, Any]:
        from .render import variant_record

        return variant_record(self.name, self.signature, self.score, {"sentences": self.sentences})


def ngram_counts(tokens: Tokens, n: int) -> Counter[Any]:
    """The n-grams of order ``n`` of one sentence (tokens themselves for n=1, tuples above)."""
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[i:] for i in range(n))))


def clipped_against_others(sentences: Sequence[Tokens], n: int) -> list[int]:
    """For each sentence, its n-gram matches clipped by the largest count in any *other* sentence.

    One pass records, per n-gram, its largest count, the sentence holding it
    and the second largest count (from a different sentence); the clip for a
    sentence is the largest unless it holds that, then the second. Equal to
    taking the maximum over the N-1 other sentences, without visiting them.
    """
    counted = [ngram_counts(tokens, n) for tokens in sentences]
    best: dict[Any, list[int]] = {}  # n-gram -> [largest, holder, second largest]
    get = best.get
    for index, counts in enumerate(counted):
        for gram, count in counts.items():
            entry = get(gram)
            if entry is None:
                best[gram] = [count, index, 0]
            elif count > entry[0]:
                entry[2] = entry[0]
                entry[0] = count
                entry[1] = index
            elif count > entry[2]:
                entry[2] = count
    matches = []
    for index, counts in enumerate(counted):
        matched = 0
        for gram, count in counts.items():
            entry = best[gram]
            other = entry[2] if entry[1] == index else entry[0]
            matched += count if count < other else other
        matches.append(matched)
    return matches


def closest_other_lengths(lengths: Sequence[int]) -> list[int]:
    """For each sentence, the length of the closest *other* sentence (the shorter one on a tie).

    NLTK's ``closest_ref_length`` and sacreBLEU's ``_get_closest_ref_len``
    both break ties toward the shorter reference.
    """
    multiplicity = Counter(lengths)
    distinct = sorted(multiplicity)
    closest: dict[int, int | None] = {}
    for length in distinct:
        if multiplicity[length] > 1:
            closest[length] = length
            continue
        position = bisect_left(distinct, length)
        below = distinct[position - 1] if position > 0 else None
        above = distinct[position + 1] if position + 1 < len(distinct) else None
        if below is None:
            closest[length] = above
        elif above is None or length - below <= above - length:
            closest[length] = below
        else:
            closest[length] = above
    return [closest[length] for length in lengths]  # type: ignore[misc]  # None only for one sentence


def other_statistics(sentences: Sequence[Tokens], max_order: int, progress: Callable[[int], None] | None = None
                     ) -> tuple[list[int], list[int], list[list[int]]]:
    """Each sentence against all others: lengths, closest other lengths, matches per order (``[order][sentence]``).

    ``progress`` is called with 1 after each order (a command's progress bar).
    """
    if len(sentences) < 2:
        raise InputError(f"Self-BLEU needs at least 2 sentences, got {len(sentences)}")
    lengths = [len(tokens) for tokens in sentences]
    matches = []
    for n in range(1, max_order + 1):
        matches.append(clipped_against_others(sentences, n))
        if progress is not None:
            progress(1)
    return lengths, closest_other_lengths(lengths), matches


def progress_steps(max_order: int) -> int:
    """The steps a Self-BLEU run reports to ``progress``: the tokens, each order, the sentence scores."""
    return max_order + 2


def nltk_sentence_bleu(matches: Sequence[int], hyp_len: int, ref_len: int, max_order: int,
                       epsilon: float = NLTK_METHOD1_EPSILON) -> float:
    """NLTK 3.10 ``sentence_bleu`` with uniform weights and method1, from its statistics.

    The operations are NLTK's: no unigram match gives 0; a zero numerator
    becomes ``(0 + epsilon) / denominator`` (the denominator at least 1); each
    log is weighted by ``1. / max_order`` and summed with ``math.fsum``; the
    brevity penalty is 1 when the hypothesis is longer than the reference.
    """
    if matches[0] == 0:
        return 0.0
    weight = 1.0 / max_order
    logs = []
    for n in range(max_order):
        denominator = max(1, hyp_len - n)
        precision = (matches[n] + epsilon) / denominator if matches[n] == 0 else matches[n] / denominator
        logs.append(weight * math.log(precision))
    if hyp_len > ref_len:
        penalty = 1.0
    else:
        penalty = math.exp(1 - ref_len / hyp_len)
    return penalty * math.exp(math.fsum(logs))


def mean(values: Sequence[float]) -> float:
    """Summed left to right from 0.0, then divided by the count (Texygen's ``score += ...; score / cnt``)."""
    total = 0.0
    for value in values:
        total += value
    return total / len(values)


def _check_order(max_order: int) -> int:
    if isinstance(max_order, bool) or not isinstance(max_order, int) or not 1 <= max_order <= MAX_ORDER_LIMIT:
        raise OptionError(f"max n-gram order must be an integer from 1 to {MAX_ORDER_LIMIT}, got {max_order!r}")
    return max_order


def _check_lines(lines: Sequence[str]) -> list[str]:
    if isinstance(lines, str) or not all(isinstance(line, str) for line in lines):
        raise InputError("Self-BLEU takes a list of sentence strings")
    return list(lines)


def texygen_self_bleu(
    lines: Sequence[str],
    max_order: int = TEXYGEN_MAX_ORDER,
    tokenize: str | None = None,
    sample_size: int | None = TEXYGEN_SAMPLE_SIZE,
    progress: Callable[[int], None] | None = None,
) -> SelfBLEUScore:
    """Texygen's Self-BLEU (``SelfBleu(gram=max_order).get_score()``), on 0..1.

    ``tokenize=None`` splits on whitespace; a bleucli tokenizer name uses its
    tokens. ``sample_size`` lines are kept from the top (Texygen: 500;
    ``None`` keeps every line).
    """
    _check_order(max_order)
    lines = _check_lines(lines)
    if sample_size is not None:
        if isinstance(sample_size, bool) or not isinstance(sample_size, int) or sample_size < 2:
            raise OptionError(f"sample size must be an integer >= 2, got {sample_size!r}")
        lines = lines[:sample_size]
    split: Callable[[str], list[str]]
    if tokenize is None:
        split = str.split
    else:
        from ..tokenizers import get_tokenizer

        split = get_tokenizer(tokenize).tokens
    sentences = [split(line) for line in lines]
    if progress is not None:
        progress(1)
    lengths, ref_lens, matches = other_statistics(sentences, max_order, progress)
    scores = tuple(
        nltk_sentence_bleu([matches[n][i] for n in range(max_order)], lengths[i], ref_lens[i], max_order)
        for i in range(len(sentences))
    )
    if progress is not None:
        progress(1)
    fields = {"mode": "texygen", "tok": tokenize or "whitespace", "smooth": "nltk-method1",
              "order": max_order, "sample": sample_size if sample_size is not None else "all"}
    signature = Signature.build("Self-BLEU", fields, nrefs=len(sentences) - 1)
    return SelfBLEUScore("Self-BLEU", mean(scores), signature, len(sentences), scores)


def self_bleu(lines: Sequence[str], metric: BLEU | None = None,
              progress: Callable[[int], None] | None = None) -> SelfBLEUScore:
    """sacreBLEU-style Self-BLEU on 0..100: the mean of ``metric.sentence_score(line, other lines)``.

    ``metric`` defaults to ``BLEU(effective_order=True)`` (``sacrebleu.sentence_bleu``'s
    settings: 13a tokens, exp smoothing); its tokenizer, case, smoothing and order apply.
    ``progress`` is called with 1 at each of :func:`progress_steps` steps (a command's progress bar).
    """
    from ..metrics.bleu import BLEU, _ngram_totals

    if metric is None:
        metric = BLEU(effective_order=True)
    lines = _check_lines(lines)
    order = metric.max_ngram_order
    sentences = [metric._tokens(line) for line in lines]
    if progress is not None:
        progress(1)
    lengths, ref_lens, matches = other_statistics(sentences, order, progress)
    nrefs = len(lines) - 1
    score = metric.resampled_score
    scores = tuple(
        score([lengths[i], ref_lens[i], *(matches[n][i] for n in range(order)), *_ngram_totals(lengths[i], order)])
        for i in range(len(sentences))
    )
    if progress is not None:
        progress(1)
    fields = {"mode": "sacrebleu", **metric._signature_fields()}
    signature = Signature.build("Self-BLEU", fields, nrefs=nrefs)
    return SelfBLEUScore("Self-BLEU", mean(scores), signature, len(sentences), scores)
