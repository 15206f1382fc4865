"""BLEU exactly as NLTK 3.10 computes it (``nltk.translate.bleu_score``), quirks included.

Switching a script from NLTK is one import line::

    from bleucli.family.nltk import SmoothingFunction, corpus_bleu, sentence_bleu

The names, arguments, defaults and return types are NLTK's, and so is every
float, to the last bit: per-sentence ``max(1, count)`` denominators summed
over the corpus, the integer ``0`` returned when no unigram matches, orders
whose smoothed precision is not positive left out of the geometric mean,
several weight tuples at once, ``auto_reweigh`` only for the default tuple,
and Chen & Cherry's smoothing methods 0..7 as NLTK implements them, including
methods 5..7 and 6 looking at the *last* sentence of a corpus (NLTK passes
the loop's last ``references``/``hypothesis`` to the smoothing function).

Where NLTK fails obscurely this module raises a typed error instead, of
NLTK's exception class too: an ``AssertionError`` for mismatched lengths or
method 6 without trigram matches, an ``IndexError`` for method 6 with fewer
than three orders, a ``ValueError`` for an empty reference list (see
``bleucli.errors``).

Why it is fast: the clipped counts come from the compiled n-gram matcher when
the tokens are lists of strings (NLTK builds a ``Counter`` of tuples per
order and reference), and methods 0..4 compute their floats from the integer
counts directly instead of through ``Fraction`` objects. The floats are the
same because every NLTK precision is a ratio of integers converted once with
correct rounding, which ``int / int`` also is. Methods 5..7 and any other
smoothing callable get NLTK-shaped ``Fraction`` values and run exactly.

This module is not imported by normal scoring (``bleucli REF``): the CLI's
``nltk`` and ``compare`` commands and a user's import load it.
"""

from __future__ import annotations

import math
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from ..errors import AssertionInputError, IndexOptionError, InputError, LengthMismatchError
from ..metrics.compiled import compiled_matcher
from .google_bleu import corpus_gleu, sentence_gleu  # nltk.translate.gleu_score's call shapes

#: The NLTK release whose semantics this module reproduces (written in the signature as ``nltk:3.10``).
NLTK_VERSION = "3.10"

#: NLTK's default weights (BLEU-4, uniform).
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)

#: Chen & Cherry's smoothing methods, by NLTK's method number.
SMOOTHING_METHODS = tuple(f"method{n}" for n in range(8))

#: Methods computed from integer counts alone (no look at the last sentence).
_COUNT_ONLY_METHODS = frozenset(SMOOTHING_METHODS[:5])

Token = Hashable
Weights = Sequence[float]


class Precision(Fraction):
    """An n-gram precision as NLTK hands it to smoothing functions.

    Its value is the fraction ``numerator / denominator``, but the two
    attributes keep the *unreduced* integers NLTK summed (NLTK's own
    ``Fraction(..., _normalize=False)``): methods 1..4 and 6 read them, so
    ``Precision(2, 4).denominator`` is 4, not 2. Arithmetic gives plain
    ``Fraction`` values, exact, as in NLTK.
    """

    _raw: tuple[int, int]

    def __new__(cls, numerator: int = 0, denominator: int = 1) -> Precision:
        self = super().__new__(cls, numerator, denominator)
        self._raw = (numerator, denominator)
        return self

    @property
    def numerator(self) -> int:
        return self._raw[0]

    @property
    def denominator(self) -> int:
        return self._raw[1]

    def __float__(self) -> float:
        return self._raw[0] / self._raw[1]

    def __repr__(self) -> str:
        return f"Precision({self._raw[0]}, {self._raw[1]})"


class SmoothingFunction:
    """Chen & Cherry (2014)'s smoothing methods for sentence BLEU, as NLTK 3.10 implements them.

    ``epsilon`` is method 1's count for zero matches, ``alpha`` method 6's
    prior weight and ``k`` methods 4 and 7's length factor. Each ``methodN``
    takes NLTK's arguments (``p_n`` and, for 4..7, ``references``,
    ``hypothesis``, ``hyp_len``) and returns the smoothed precisions, so the
    methods can also be called directly; :func:`corpus_bleu` recognises them
    and computes methods 0..4 without building fractions.
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def __repr__(self) -> str:
        return f"SmoothingFunction(epsilon={self.epsilon!r}, alpha={self.alpha!r}, k={self.k!r})"

    def method0(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """No smoothing: a zero precision becomes the smallest float (BLEU ~1e-77 rather than 0)."""
        numerators, denominators = _raw_counts(p_n)
        return _method0(numerators, denominators)

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Add ``epsilon`` to zero match counts."""
        return [(p.numerator + self.epsilon) / p.denominator if p.numerator == 0 else p for p in p_n]

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Add 1 to the numerator and denominator of every order but the first (Lin & Och 2004)."""
        return [p if i == 0 else Precision(p.numerator + 1, p.denominator + 1) for i, p in enumerate(p_n)]

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """NIST geometric smoothing: the k-th zero order gets ``1 / (2**k * denominator)`` (in place)."""
        step = 1
        for i, p in enumerate(p_n):
            if p.numerator == 0:
                p_n[i] = 1 / (2**step * p.denominator)
                step += 1
        return p_n

    def method4(self, p_n: list[Any], references: Any = None, hypothesis: Any = None,
                hyp_len: int | None = None, *args: Any, **kwargs: Any) -> list[Any]:
        """Zero orders get ``1 / (2**k' * k / ln(hyp_len))`` over their denominator (in place).

        ``hyp_len`` is the corpus's total hypothesis length when called from
        :func:`corpus_bleu`; nothing changes when it is 0 or 1.
        """
        length = hyp_len if hyp_len else len(hypothesis)
        step = 1
        for i, p in enumerate(p_n):
            if p.numerator == 0 and length > 1:
                p_n[i] = (1 / (2**step * self.k / math.log(length))) / p.denominator
                step += 1
        return p_n

    def method5(self, p_n: list[Any], references: Any = None, hypothesis: Any = None,
                hyp_len: int | None = None, *args: Any, **kwargs: Any) -> list[Any]:
        """Each order becomes the mean of its smoothed lower neighbour, itself and its upper neighbour.

        The upper neighbour of the last order is the 5-gram precision of
        ``hypothesis`` alone, whatever the weights' length: from
        :func:`corpus_bleu`, the corpus's last sentence (NLTK's leak).
        """
        extended = list(p_n) + [modified_precision(references, hypothesis, 5)]
        previous = p_n[0] + 1
        for i, p in enumerate(p_n):
            p_n[i] = (previous + p + extended[i + 1]) / 3
            previous = p_n[i]
        return p_n

    def method6(self, p_n: list[Any], references: Any = None, hypothesis: Any = None,
                hyp_len: int | None = None, *args: Any, **kwargs: Any) -> list[Any]:
        """Orders 3.. interpolate their precision with the prior ``p[n-1]**2 / p[n-2]`` (Gao & He 2013).

        NLTK asserts that the *trigram* precision is non-zero (its message
        says bigrams) and fails with an IndexError for fewer than three
        orders; here the first is an :class:`~bleucli.errors.AssertionInputError`
        (an ``AssertionError`` too, as NLTK's), the second an
        :class:`~bleucli.errors.IndexOptionError` (an ``IndexError`` too), each
        saying what to change. The
        number of n-grams of each order is that of ``hypothesis`` alone, from
        :func:`corpus_bleu` the last sentence's.
        """
        if len(p_n) < 3:
            raise IndexOptionError(f"smoothing method 6 needs at least 3 n-gram orders (weights of length >= 3), "
                              f"got {len(p_n)}")
        if not p_n[2]:
            raise AssertionInputError("smoothing method 6 needs at least one trigram match (NLTK stops with an "
                             "AssertionError here); choose another smoothing method")
        for i, p in enumerate(p_n):
            if i < 2:
                continue
            prior = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
            ngram_count = max(0, len(hypothesis) - i)
            p_n[i] = (p.numerator + self.alpha * prior) / (ngram_count + self.alpha)
        return p_n

    def method7(self, p_n: list[Any], references: Any = None, hypothesis: Any = None,
                hyp_len: int | None = None, *args: Any, **kwargs: Any) -> list[Any]:
        """Method 4, then method 5."""
        length = hyp_len if hyp_len else len(hypothesis)
        p_n = self.method4(p_n, references, hypothesis, length)
        return self.method5(p_n, references, hypothesis, length)


def _raw_counts(p_n: Sequence[Any]) -> tuple[list[int], list[int]]:
    return [p.numerator for p in p_n], [p.denominator for p in p_n]


#: NLTK 3.10's warning, word for word (code may filter on its text)
_ZERO_COUNTS_WARNING = (
    "\nThe hypothesis contains 0 counts of {}-gram overlaps.\n"
    "Therefore the BLEU score evaluates to 0, independently of\n"
    "how many N-gram overlaps of lower order it contains.\n"
    "Consider using lower n-gram order or use "
    "SmoothingFunction()"
)


def _method0(numerators: Sequence[int], denominators: Sequence[int]) -> list[Any]:
    smoothed: list[Any] = []
    for order, (numerator, denominator) in enumerate(zip(numerators, denominators), start=1):
        if numerator != 0:
            smoothed.append(Precision(numerator, denominator))
        else:
            warnings.warn(_ZERO_COUNTS_WARNING.format(order), UserWarning, stacklevel=4)
            smoothed.append(sys.float_info.min)
    return smoothed


def _count_only_precisions(
    method: str, smoothing: SmoothingFunction, numerators: Sequence[int], denominators: Sequence[int],
    hyp_len: int,
) -> list[float]:
    """Methods 0..4 as floats straight from the integer counts (what NLTK's fractions round to).

    A precision that stays zero is 0.0 and is left out of the mean, as NLTK
    leaves out its zero ``Fraction``.
    """
    if method == "method0":
        if 0 in numerators:
            _method0(numerators, denominators)  # for the warnings
        return [n / d if n != 0 else sys.float_info.min for n, d in zip(numerators, denominators)]
    if method == "method1":
        epsilon = smoothing.epsilon
        return [n / d if n != 0 else (0 + epsilon) / d for n, d in zip(numerators, denominators)]
    if method == "method2":
        return [n / d if i == 0 else (n + 1) / (d + 1) for i, (n, d) in enumerate(zip(numerators, denominators))]
    precisions: list[float] = []
    step = 1
    for n, d in zip(numerators, denominators):
        if n != 0:
            precisions.append(n / d)
        elif method == "method3":
            precisions.append(1 / (2**step * d))
            step += 1
        elif hyp_len > 1:  # method4
            precisions.append((1 / (2**step * smoothing.k / math.log(hyp_len))) / d)
            step += 1
        else:
            precisions.append(0.0)
    return precisions


# --------------------------------------------------------------------------- counting

def _ngram_counts(tokens: Sequence[Token], n: int) -> Counter[tuple[Token, ...]]:
    if len(tokens) < n:
        return Counter()
    return Counter(zip(*(tokens[i:] for i in range(n))))


def modified_precision(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], n: int) -> Precision:
    """NLTK's ``modified_precision``: clipped n-gram matches over ``max(1, n-grams in hypothesis)``, unreduced."""
    hyp = tuple(hypothesis)
    counts = _ngram_counts(hyp, n)
    best: dict[tuple[Token, ...], int] = dict.fromkeys(counts, 0)
    for reference in references:
        reference_counts = _ngram_counts(tuple(reference), n)
        for ngram in counts:
            found = reference_counts.get(ngram, 0)
            if found > best[ngram]:
                best[ngram] = found
    matched = sum(min(count, best[ngram]) for ngram, count in counts.items())
    return Precision(matched, max(1, sum(counts.values())))


def closest_ref_length(references: Iterable[Sequence[Token]], hyp_len: int) -> int:
    """The reference length closest to ``hyp_len``; the shorter one wins a tie (NLTK's rule).

    ``references`` may be any iterable (``reversed(references)``), as for NLTK.
    """
    lengths = [len(reference) for reference in references]
    if not lengths:
        raise InputError("a hypothesis has no references (NLTK fails with 'min() arg is an empty sequence')")
    return min(lengths, key=lambda length: (abs(length - hyp_len), length))


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """1 (an int, as NLTK returns it) when the hypothesis is longer, 0 when empty, else ``exp(1 - r/c)``."""
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


_MATCHER: list[Callable[[Any, Any, int, bool], list[int]] | None] = []


def _matcher() -> Callable[[Any, Any, int, bool], list[int]] | None:
    """The compiled ``ngram_matches``, looked up once (``BLEUCLI_PURE_PYTHON`` is read at the first call):
    reading the environment on every ``sentence_bleu`` would cost a fifth of its time."""
    if not _MATCHER:
        module = compiled_matcher()
        _MATCHER.append(None if module is None else module.ngram_matches)
    return _MATCHER[0]


def _python_matches(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], order: int) -> list[int]:
    return [modified_precision(references, hypothesis, n).numerator for n in range(1, order + 1)]


#: The compiled matcher's largest order.
_COMPILED_MAX_ORDER = 9


class CorpusCounts:
    """NLTK's corpus sums: clipped matches and ``max(1, ...)`` denominators per order, lengths, last sentence.

    Kept apart from the scoring so that several weight tuples and smoothing
    methods can be scored from one pass over the corpus (the side-by-side
    view does).
    """

    __slots__ = ("numerators", "denominators", "hyp_len", "ref_len", "last_references", "last_hypothesis")

    def __init__(self, order: int) -> None:
        self.numerators = [0] * order
        self.denominators = [0] * order
        self.hyp_len = 0
        self.ref_len = 0
        self.last_references: Sequence[Sequence[Token]] = ()
        self.last_hypothesis: Sequence[Token] = ()

    @classmethod
    def collect(cls, list_of_references: Sequence[Sequence[Sequence[Token]]],
                hypotheses: Sequence[Sequence[Token]], order: int) -> CorpusCounts:
        if len(list_of_references) != len(hypotheses):
            raise LengthMismatchError(
                f"{len(hypotheses)} hypotheses but {len(list_of_references)} reference lists: "
                "there must be one list of references per hypothesis")
        counts = cls(order)
        numerators, denominators = counts.numerators, counts.denominators
        compiled = _matcher() if 0 < order <= _COMPILED_MAX_ORDER else None
        hyp_total = ref_total = 0
        references: Sequence[Sequence[Token]] = ()
        hypothesis: Sequence[Token] = ()
        for references, hypothesis in zip(list_of_references, hypotheses):
            hyp_len = len(hypothesis)
            matches = None
            if compiled is not None and type(hypothesis) is list and all(type(r) is list for r in references):
                try:
                    matches = compiled(hypothesis, references, order, True)
                except TypeError:  # tokens not exactly str: NLTK accepts any hashable, compared by its __eq__
                    matches = None
            if matches is None:
                matches = _python_matches(references, hypothesis, order)
            for i in range(order):
                numerators[i] += matches[i]
                denominators[i] += hyp_len - i if hyp_len > i else 1
            hyp_total += hyp_len
            if len(references) == 1:
                ref_total += len(references[0])
            else:
                ref_total += closest_ref_length(references, hyp_len)
        counts.hyp_len, counts.ref_len = hyp_total, ref_total
        counts.last_references, counts.last_hypothesis = references, hypothesis
        return counts

    def scores(self, weights: Sequence[Weights], smoothing_function: Callable[..., Any] | None = None,
               auto_reweigh: bool = False) -> list[Any]:
        """One score per weight tuple (the integer 0 for each when no unigram matches)."""
        if not self.numerators or self.numerators[0] == 0:
            return [0] * len(weights)
        hyp_len, ref_len = self.hyp_len, self.ref_len
        bp = 1 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)  # hyp_len > 0: a unigram matched
        owner = getattr(smoothing_function, "__self__", None)
        precisions: list[Any]
        if not smoothing_function:
            precisions = _count_only_precisions("method0", _DEFAULT_SMOOTHING, self.numerators,
                                                self.denominators, hyp_len)
        elif type(owner) is SmoothingFunction and (name := smoothing_function.__name__) in _COUNT_ONLY_METHODS:
            precisions = _count_only_precisions(name, owner, self.numerators, self.denominators, self.hyp_len)
        else:
            precisions = [Precision(n, d) for n, d in zip(self.numerators, self.denominators)]
            precisions = smoothing_function(precisions, references=self.last_references,
                                            hypothesis=self.last_hypothesis, hyp_len=self.hyp_len)
        results = []
        log = math.log
        for weight in weights:
            if auto_reweigh and hyp_len < 4 and weight == DEFAULT_WEIGHTS:
                weight = (1 / hyp_len,) * hyp_len
            results.append(bp * math.exp(math.fsum([w * log(p) for w, p in zip(weight, precisions) if p > 0])))
        return results


_DEFAULT_SMOOTHING = SmoothingFunction()


def as_weight_list(weights: Any) -> list[Weights]:
    """NLTK's test for "several weight tuples": ``weights[0][0]`` works."""
    if isinstance(weights, (tuple, list)) and weights and type(weights[0]) in (float, int):
        return [weights]  # the common case, without raising (weights[0][0] would raise TypeError)
    try:
        weights[0][0]
    except (TypeError, IndexError):
        return [weights]
    return list(weights)


def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
) -> Any:
    """NLTK's ``corpus_bleu``: micro-averaged BLEU in [0, 1]; a list when several weight tuples are given."""
    weight_list = as_weight_list(weights)
    order = max(len(weight) for weight in weight_list)
    if len(hypotheses) == 0 and len(list_of_references) == 0:
        raise ZeroDivisionError("Fraction(0, 0): no hypotheses (NLTK's corpus_bleu fails here too)")
    scores = CorpusCounts.collect(list_of_references, hypotheses, order).scores(
        weight_list, smoothing_function, auto_reweigh)
    return scores[0] if len(weight_list) == 1 else scores


def sentence_bleu(
    references: Sequence[Sequence[Token]],
    hypothesis: Sequence[Token],
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
) -> Any:
    """NLTK's ``sentence_bleu``: :func:`corpus_bleu` of one hypothesis.

    The counting is inlined here (no per-corpus bookkeeping): scripts call
    this once per segment, so its fixed cost is most of their time.
    """
    weight_list = as_weight_list(weights)
    order = max(len(weight) for weight in weight_list)
    compiled = _matcher() if 0 < order <= _COMPILED_MAX_ORDER else None
    matches = None
    if compiled is not None and type(hypothesis) is list and (
            type(references[0]) is list if len(references) == 1 else all(type(r) is list for r in references)):
        try:
            matches = compiled(hypothesis, references, order, True)
        except TypeError:  # tokens not exactly str: counted in Python, by their own __eq__ and __hash__
            matches = None
    if matches is None:
        matches = _python_matches(references, hypothesis, order)
    hyp_len = len(hypothesis)
    counts = CorpusCounts(0)
    counts.numerators = matches
    counts.denominators = [hyp_len - i if hyp_len > i else 1 for i in range(order)]
    counts.hyp_len = hyp_len
    counts.ref_len = len(references[0]) if len(references) == 1 else closest_ref_length(references, hyp_len)
    counts.last_references, counts.last_hypothesis = references, hypothesis
    scores = counts.scores(weight_list, smoothing_function, auto_reweigh)
    return scores[0] if len(weight_list) == 1 else scores


__all__ = [
    "NLTK_VERSION", "DEFAULT_WEIGHTS", "SMOOTHING_METHODS", "SmoothingFunction", "Precision", "CorpusCounts",
    "corpus_bleu", "sentence_bleu", "modified_precision", "closest_ref_length", "brevity_penalty",
    "corpus_gleu", "sentence_gleu",
]
