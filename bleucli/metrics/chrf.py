"""chrF and chrF++ with sacreBLEU 2.6's exact semantics.

Statistics per segment are ``[hyp, ref, match]`` for each character order
1..char_order and then each word order 1..word_order, taken from the single
reference that gives the segment the highest F score. The corpus score is the
F score of their sum. The float arithmetic in :func:`f_score` follows
sacreBLEU's operation order so that scores are equal as floats.

Speed: with the extension built (:mod:`.compiled`), whole chunks of
segments, sentence scores, pairwise matrices and reference aggregation are
read, counted, matched and scored in C (``bleucli/_speedups_chrf.c``: the
same integers and the same floats as this module, which stays the reference
and the fallback). Without it:
totals are lengths minus n-1 (no summing); n-grams of order n are
built from order n-1 with C-level ``map``; a hypothesis order is only counted
while its n-grams repeat (once they are distinct, sum(min(hyp, ref)) is the
number of hypothesis n-grams found in the reference); references of normal
length are not cut into n-grams at all: for each hypothesis position the
longest substring found in the reference gives all orders at once
(:func:`string_matches`); chrF++'s word n-grams are matched as BLEU's tokens
are (:func:`clipped_matches`). Either way the per-reference F score is
skipped for a single reference.
"""

from __future__ import annotations

from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import add, itemgetter, or_
from typing import Any, Protocol

from ..errors import OptionError
from ..options import CHRF_DEFAULTS
from ..statistics import Statistics
from .base import Metric, Score, check_references, reference_segments
from .compiled import ROWS_MATRIX, ROWS_SUMS, _load, compiled_matcher
from .ngram_match import ReferenceNgrams, clipped_matches
from .substring_match import string_matches

#: ASCII punctuation (Python's ``string.punctuation``), split off word edges for chrF++.
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')

#: Stand-in for 0 precision/recall/F, as in chrF++.py, NLTK and Moses.
EPS = 1e-16

#: The defaults of every option live in :mod:`bleucli.options`; named here for this module's readers.
DEFAULT_CHAR_ORDER = CHRF_DEFAULTS.char_order
DEFAULT_WORD_ORDER = CHRF_DEFAULTS.word_order
DEFAULT_BETA = CHRF_DEFAULTS.beta

_ZEROS = repeat(0)  # shared default for dict.get in map(); repeat() never runs out
_ONES = repeat(1)
_FIRST_CHAR = itemgetter(0)
_LAST_CHAR = itemgetter(-1)


@dataclass(frozen=True, repr=False)  # str/repr: sacreBLEU's line (Score.__repr__)
class CHRFScore(Score):
    """A chrF/chrF++ result; ``name`` is ``chrF{beta}`` plus one ``+`` per word order."""

    char_order: int = DEFAULT_CHAR_ORDER
    word_order: int = DEFAULT_WORD_ORDER
    beta: int = DEFAULT_BETA

    def statistics_data(self) -> dict[str, Any]:
        return {"char_order": self.char_order, "word_order": self.word_order, "beta": self.beta}


def split_punctuation(line: str) -> list[str]:
    """chrF++'s word tokenization: split one ASCII punctuation mark off each word.

    The last character is split off if it is punctuation, otherwise the first
    one is; only one per word, so ``(hi)`` becomes ``(hi`` and ``)`` (sacreBLEU
    #124, kept for parity with the official chrF++.py). Words are tested in C
    (``map``) and only the few with punctuation at an edge are split in Python.
    """
    words = line.split()
    last = list(map(PUNCTUATION.__contains__, map(_LAST_CHAR, words)))
    first = map(PUNCTUATION.__contains__, map(_FIRST_CHAR, words))
    marked = list(compress(range(len(words)), map(or_, last, first)))
    for i in reversed(marked):  # from the end, so earlier indices stay valid
        word = words[i]
        if len(word) > 1:
            words[i:i + 1] = (word[:-1], word[-1]) if last[i] else (word[0], word[1:])
    return words


Counts = dict[str, int]


def _count(items: Any) -> Counts:
    """Occurrences of each item (a plain dict: building a ``Counter`` costs microseconds more)."""
    counts: Counts = {}
    _count_elements(counts, items)
    return counts


def _counted(grams: Any, length: int) -> Counts | set:
    """A set when all ``length`` n-grams are distinct (the common case above order 2), else counts.

    With distinct n-grams on either side, sum(min(h, r)) is simply the size
    of the key intersection, which sets compute in C much faster than counts
    can be built.
    """
    unique = set(grams)
    return unique if len(unique) == length else _count(grams)


def char_ngrams(line: str, max_order: int, whitespace: bool) -> list[Counts | set]:
    """Character n-grams of orders 1..max_order (whitespace removed unless kept).

    The n-grams of order n are built by appending one character to those of
    order n-1, with ``map`` doing the loop in C: about 2.5x faster than
    slicing in a comprehension.
    """
    if not whitespace:
        line = "".join(line.split())
    if max_order < 1:
        return []
    length = len(line)
    counts = [_counted(line, length)]
    grams: Any = line
    for n in range(2, max_order + 1):
        grams = list(map(add, grams, line[n - 1:]))
        counts.append(_counted(grams, len(grams)))
    return counts


def matches(hyp: Counts | set, ref: Counts | set) -> int:
    """sum over n-grams of min(hyp count, ref count)."""
    if type(hyp) is set or type(ref) is set:  # one side has no repeats: every shared n-gram counts once
        return len(hyp.intersection(ref)) if type(hyp) is set else len(ref.intersection(hyp))  # type: ignore[union-attr]
    return sum(map(min, hyp.values(), map(ref.get, hyp, _ZEROS)))  # type: ignore[union-attr]


def f_score(statistics: Sequence[Any], order: int, beta: float, eps_smoothing: bool) -> float:
    """chrF in 0..100 from ``[hyp, ref, match] * order`` (summed or per segment).

    ``eps_smoothing`` averages per-order F scores over every order, using
    1e-16 for undefined values (chrF++.py, NLTK, Moses). Otherwise precision
    and recall are averaged over the orders where both hypothesis and
    reference have n-grams (sacreBLEU's default, ``eff:yes``), then combined.
    """
    factor = beta ** 2
    score = 0.0
    avg_prec = 0.0
    avg_rec = 0.0
    effective = 0
    for i in range(0, 3 * order, 3):
        n_hyp = statistics[i]
        n_ref = statistics[i + 1]
        n_match = statistics[i + 2]
        prec = n_match / n_hyp if n_hyp > 0 else EPS
        rec = n_match / n_ref if n_ref > 0 else EPS
        if eps_smoothing:
            denom = factor * prec + rec
            score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPS
        elif n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if eps_smoothing:
        return 100 * score / order
    if effective == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective
        avg_rec /= effective
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0


#: References longer than this (in characters) get n-gram tables; shorter ones
#: are searched as strings, which is cheaper than hashing their n-grams until
#: the scan of a long string costs more than a hash lookup.
LONG_REFERENCE = 300

#: One reference's clipped matches: characters (per order), its length,
#: words (per order), its number of words.
_Matched = tuple[list[int], int, list[int], int]


class _HypothesisNgrams:
    """A hypothesis' character n-grams, built once and matched against each reference.

    Order n is built from order n-1 by appending a character. It is counted
    only while n-grams still repeat: once every n-gram of an order is
    distinct, so are all higher orders', and sum(min(hyp, ref)) reduces to the
    number of hypothesis n-grams found in the reference.
    """

    __slots__ = ("grams", "counts")

    def __init__(self, chars: str, max_order: int) -> None:
        self.grams: list[list[str]] = [[], []]
        self.counts: list[Counts | None] = [None, None]
        grams: Any = chars
        distinct = False
        for n in range(2, max_order + 1):
            grams = list(map(add, grams, chars[n - 1:]))
            self.grams.append(grams)
            counts = None
            if not distinct:
                counts = _count(grams)
                if len(counts) == len(grams):
                    distinct, counts = True, None
            self.counts.append(counts)

    def matches_table(self, n: int, table: Counts | set) -> int:
        """sum(min(hyp, ref)) over order-n n-grams, with the reference as a table."""
        counts = self.counts[n]
        if counts is None:
            return sum(map(table.__contains__, self.grams[n]))
        return matches(counts, table)


def _add_orders(stats: list[int], hyp_len: int, ref_len: int, matches: Sequence[int], order: int) -> None:
    """Append ``hyp, ref, match`` for orders 1..order of one kind of n-gram (characters or words).

    sacreBLEU records no hypothesis n-grams either for an order the
    reference is too short to have.
    """
    for n in range(1, order + 1):
        ref_total = ref_len - n + 1
        if ref_total <= 0:
            stats += (0, 0, 0)
            continue
        stats += (hyp_len - n + 1 if hyp_len >= n else 0, ref_total, matches[n - 1])


class _PythonCharMatches:
    """One hypothesis' character matches against each reference, without the compiled matcher.

    Its unigram counts are built once; its higher n-grams only for a long
    reference (one that has n-gram tables), and then only once.
    """

    __slots__ = ("chars", "order", "unigrams", "orders")

    def __init__(self, chars: str, order: int) -> None:
        self.chars = chars
        self.order = order
        self.unigrams = _count(chars)
        self.orders: _HypothesisNgrams | None = None

    def against(self, ref_chars: str, tables: list) -> list[int]:
        """Clipped matches of orders 1..order (0 where the reference has no n-gram)."""
        order = self.order
        ref_length = len(ref_chars)
        if order < 1 or ref_length < 1:
            return [0] * order
        found = [matches(self.unigrams, tables[0])]
        top = min(order, ref_length)
        if len(tables) >= top:
            if top > 1 and self.orders is None:
                self.orders = _HypothesisNgrams(self.chars, order)
            found += [self.orders.matches_table(n, tables[n - 1]) for n in range(2, top + 1)]  # type: ignore[union-attr]
        elif top > 1:
            found += string_matches(self.chars, ref_chars, top)
        return found + [0] * (order - top)


class ChrfRefData(Protocol):
    """One segment's references prepared for chrF, whatever the matcher.

    ``matched`` yields, per reference, the clipped character matches (per
    order), the reference's length, the word matches and its word count.
    The kinds: :class:`_CompiledReferences` (compiled tables kept for many
    hypotheses), :class:`_StoredReferences` (characters and words only, for a
    single use) and :class:`_PythonReferences` (without the extension).
    """

    def __len__(self) -> int:
        """The number of references."""

    def matched(self, chars: str, hyp_words: list[str], char_order: int, word_order: int) -> Iterator[_Matched]:
        """Matches of one hypothesis against each reference, in order."""


class _CompiledReferences(list):
    """Each reference's compiled ``References`` of its characters and (chrF++) of its words."""

    __slots__ = ()

    def matched(self, chars: str, hyp_words: list[str], char_order: int, word_order: int) -> Iterator[_Matched]:
        for ref_chars, ref_words in self:
            if word_order:
                yield (ref_chars.matches(chars, char_order), ref_chars.lengths[0],
                       ref_words.matches(hyp_words, word_order), ref_words.lengths[0])
            else:
                yield ref_chars.matches(chars, char_order), ref_chars.lengths[0], [], 0


class _StoredReferences(tuple):
    """Each reference's characters and words, for references used once (tables built and dropped in C).

    Also what a metric built with ``references=`` keeps per segment: compiled
    tables for a whole corpus would take gigabytes.
    """

    __slots__ = ()

    def matched(self, chars: str, hyp_words: list[str], char_order: int, word_order: int) -> Iterator[_Matched]:
        module = _load()
        assert module is not None  # only made when the extension is in use
        match = module.ngram_matches
        for ref_chars, ref_words in self:
            if word_order:
                yield (match(chars, (ref_chars,), char_order), len(ref_chars),
                       match(hyp_words, (ref_words,), word_order), len(ref_words))
            else:
                yield match(chars, (ref_chars,), char_order), len(ref_chars), [], 0


class _TextReferences(tuple):
    """A segment's references as text, for the extension's chrF functions (which read them in C).

    What every path of a compiled chrF keeps per segment (a metric built with
    ``references=`` holds one per segment: text is the lightest form).
    :meth:`CHRF.segment_statistics` gives them to C whole, with the metric's
    options; they hold no characters or words of their own to offer ``matched``.
    """

    __slots__ = ()

    def matched(self, chars: str, hyp_words: list[str], char_order: int, word_order: int) -> Iterator[_Matched]:
        raise TypeError("text references are read by the compiled chrF functions (CHRF.segment_statistics)")


class _PythonReferences(list):
    """Without the extension: each reference's characters, n-gram tables and prepared words."""

    __slots__ = ()

    def matched(self, chars: str, hyp_words: list[str], char_order: int, word_order: int) -> Iterator[_Matched]:
        hypothesis = _PythonCharMatches(chars, char_order)
        for ref_chars, tables, ref_words in self:
            char_matches = hypothesis.against(ref_chars, tables)
            if word_order:
                yield (char_matches, len(ref_chars),
                       clipped_matches(hyp_words, ref_words, word_order), ref_words.lengths[0])
            else:
                yield char_matches, len(ref_chars), [], 0


#: The largest chrF character or word n-gram order: far above any useful one (the defaults are 6 and 0, chrF++'s
#: word order 2), low enough that the name (one '+' per word order) and the per-order loops stay small; an
#: order of 10**7 took 8 s and 800 MB, 10**20 was an internal error.
MAX_CHRF_ORDER = 1000
#: The largest chrF beta: beta squared must be a float (10**200 was an internal error).
MAX_CHRF_BETA = 10**6


def _check_int(name: str, value: object, minimum: int, maximum: int = MAX_CHRF_ORDER) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"chrF {name} must be an integer, got {value!r}")
    if value < minimum:
        raise OptionError(f"chrF {name} must be >= {minimum}, got {value}")
    if value > maximum:
        raise OptionError(f"chrF {name} must be at most {maximum:,}, got {value}")
    return value


class CHRF(Metric[ChrfRefData]):
    """chrF (Popović 2015) and chrF++ (Popović 2017), configured like sacreBLEU's ``CHRF``."""

    #: sacreBLEU's class constants: the default orders and beta
    CHAR_ORDER = DEFAULT_CHAR_ORDER
    WORD_ORDER = DEFAULT_WORD_ORDER
    BETA = DEFAULT_BETA

    def __init__(
        self,
        char_order: int = DEFAULT_CHAR_ORDER,
        word_order: int = DEFAULT_WORD_ORDER,
        beta: int = DEFAULT_BETA,
        lowercase: bool = CHRF_DEFAULTS.lowercase,
        whitespace: bool = CHRF_DEFAULTS.whitespace,
        eps_smoothing: bool = CHRF_DEFAULTS.eps_smoothing,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        self.char_order = _check_int("character order", char_order, 0)
        self.word_order = _check_int("word order", word_order, 0)
        if self.char_order + self.word_order == 0:
            raise OptionError("chrF needs a character order >= 1 (or a word order >= 1 with character order 0)")
        self.beta = _check_int("beta", beta, 1, MAX_CHRF_BETA)
        self.order = self.char_order + self.word_order
        self.lowercase = bool(lowercase)
        self.whitespace = bool(whitespace)
        self.eps_smoothing = bool(eps_smoothing)
        self.name = f"chrF{self.beta}" + "+" * self.word_order
        compiled = compiled_matcher()
        self._compiled_references = None if compiled is None else compiled.References
        #: chrF in C (chunks, sentences, matrices); None without the extension (or an old build of it)
        self._compiled_statistics: Any = getattr(compiled, "chrf_statistics", None)
        self._compiled_sentences: Any = getattr(compiled, "chrf_sentences", None)
        self._compiled_pairwise: Any = getattr(compiled, "chrf_pairwise", None)
        self._compiled_aggregate: Any = getattr(compiled, "chrf_aggregate", None)
        self._compiled_systems: Any = getattr(compiled, "chrf_systems", None)
        #: the options as the C functions take them; beta ** 2 as the float Python's int * float makes of it
        self._compiled_settings = (self.char_order, self.word_order, float(self.beta ** 2),
                                   float(1 + self.beta ** 2), self.lowercase, self.whitespace, self.eps_smoothing)
        self._sentence_fields: tuple[Any, dict[str, Any]] | None = None
        if references is None or self._compiled_statistics is None:
            super().__init__(references)
            return
        super().__init__(None)
        # prepare_references of each segment, without a method call a segment (text is what C reads)
        refs = check_references(references)
        segments = reference_segments(refs)
        self._ref_cache = list(map(_TextReferences, segments))
        # count_references from the segments made anyway (their None entries are dropped): a set of
        # lengths in C instead of a generator per segment, a twentieth of the API's corpus time
        counts = set(map(len, segments))
        self._nrefs = counts.pop() if len(counts) == 1 else "var"

    # -- statistics ---------------------------------------------------------------
    def _chars(self, line: str) -> str:
        """The string character n-grams are taken from (lowercased, whitespace removed unless kept)."""
        if self.lowercase:
            line = line.lower()
        return line if self.whitespace else "".join(line.split())

    def _words(self, line: str) -> list[str]:
        """chrF++'s words.

        Their n-grams are matched like BLEU's tokens (:mod:`.ngram_match`), as
        tuples: words hold no whitespace, so two word n-grams are equal exactly
        when sacreBLEU's space-joined keys are, and tuples cost less to build
        and hash than joined strings.
        """
        if self.lowercase:
            line = line.lower()
        return split_punctuation(line)

    def prepare_references(self, references: tuple[str, ...], shared: bool) -> ChrfRefData:
        word_order = self.word_order
        if self._compiled_statistics is not None:
            return _TextReferences(references)
        if self._compiled_references is not None:
            if not shared:
                return _StoredReferences((self._chars(ref), self._words(ref) if word_order else None)
                                         for ref in references)
            prepare = self._compiled_references
            return _CompiledReferences(
                (prepare((self._chars(ref),)), prepare((self._words(ref),)) if word_order else None)
                for ref in references)
        prepared = _PythonReferences()
        for ref in references:
            chars = self._chars(ref)
            if len(chars) > LONG_REFERENCE:
                tables = char_ngrams(chars, self.char_order, True)
            else:  # short: order 1 counted, higher orders found by substring search
                tables = [_count(chars)] if self.char_order else []
            words = ReferenceNgrams([self._words(ref)], word_order) if word_order else None
            prepared.append((chars, tables, words))
        return prepared

    def segment_statistics(self, hypothesis: str, references: ChrfRefData) -> list[int]:
        if type(references) is _TextReferences:
            return self._compiled_statistics([hypothesis], [references], self._compiled_settings, True)[0]
        chars = self._chars(hypothesis)
        hyp_words = self._words(hypothesis) if self.word_order else []
        matched = references.matched(chars, hyp_words, self.char_order, self.word_order)
        return self._best(len(chars), len(hyp_words), matched, len(references))

    def corpus_score(self, hypotheses: Iterable[str], references: Sequence[Sequence[str | None]] | None = None,
                     n_bootstrap: int = 1) -> Score:
        """:meth:`Metric.corpus_score`; against the references kept at construction, a list of
        hypotheses is summed in one C call (anything else, and any error, takes the general path)."""
        cache = self._ref_cache
        if references is None and n_bootstrap == 1 and type(n_bootstrap) is int and cache is not None \
                and self._compiled_statistics is not None and type(hypotheses) is list \
                and len(hypotheses) == len(cache) and cache:
            try:
                sums = self._compiled_statistics(hypotheses, cache, self._compiled_settings, False)
            except TypeError:  # a hypothesis that is not a str: the general path says which
                pass
            else:
                self._resampling = {}
                return self.score_from_statistics(sums, self._nrefs)
        return super().corpus_score(hypotheses, references, n_bootstrap)

    def single_use_statistics(self, hypothesis: str, references: tuple[str, ...]) -> list[int]:
        if self._compiled_statistics is not None:
            return self._compiled_statistics([hypothesis], [references], self._compiled_settings, True)[0]
        return super().single_use_statistics(hypothesis, references)

    def _rows(self, hypotheses: Iterable[str],
              references: Sequence[Sequence[str | None]] | None) -> Iterator[list[Any]]:
        if references is not None or self._compiled_statistics is None:
            return super()._rows(hypotheses, references)
        return self._text_reference_rows(hypotheses)

    def _text_reference_rows(self, hypotheses: Iterable[str]) -> Iterator[list[Any]]:
        """The rows against the references kept at construction, a chunk at a time in C."""
        statistics, settings = self._compiled_statistics, self._compiled_settings
        from .fast_path import rows_in_chunks

        return rows_in_chunks(self._cached_segments(hypotheses), lambda hyps, refs: statistics(hyps, refs, settings,
                                                                                                True))

    def chunk_rows(self, systems: Sequence[Sequence[str]],
                   references: Sequence[tuple[str, ...]]) -> list[Any]:
        """As :meth:`Metric.chunk_rows`; compiled, each system's rows are one
        :class:`~bleucli.engine.rows.RowMatrix`."""
        if self._compiled_statistics is None:
            return super().chunk_rows(systems, references)
        from ..engine.rows import RowMatrix  # here: runs that keep no rows never load it

        width = 3 * self.order
        return [RowMatrix(data, width) for data in self._compiled_chunk(systems, references, ROWS_MATRIX)]

    def _compiled_chunk(self, systems: Sequence[Sequence[str]], references: Sequence[tuple[str, ...]],
                        rows: int) -> list[Any]:
        """Each system's rows (``rows``: :data:`ROWS_MATRIX`) or their sums (:data:`ROWS_SUMS`) in C.

        One system is scored on its own (reading a segment's references again costs less than
        making them into profiles); two or more share each segment's profiles (``chrf_systems``:
        two thirds of the time for 8 systems). Should that fail, the systems are scored one by
        one, so that the error is the one a single system gives.
        """
        statistics, settings = self._compiled_statistics, self._compiled_settings
        if len(systems) > 1 and self._compiled_systems is not None:
            try:
                return self._compiled_systems(systems, references, settings, rows)
            except Exception:  # the same call per system raises the error to report
                pass
        return [statistics(system, references, settings, rows) for system in systems]

    def chunk_statistics(self, systems: Sequence[Sequence[str]],
                         references: Sequence[tuple[str, ...]]) -> list[Statistics]:
        if self._compiled_statistics is None or not references:
            return super().chunk_statistics(systems, references)
        segments = len(references)
        return [Statistics(tuple(sums), segments) for sums in self._compiled_chunk(systems, references, ROWS_SUMS)]

    def _best(self, hyp_length: int, hyp_n_words: int, matched: Iterable[_Matched], n_refs: int) -> list[int]:
        """The statistics against the reference with the highest F score (the first of equals)."""
        best: list[int] = []
        best_f = -1.0
        for char_matches, ref_length, word_matches, ref_n_words in matched:
            stats: list[int] = []
            _add_orders(stats, hyp_length, ref_length, char_matches, self.char_order)
            _add_orders(stats, hyp_n_words, ref_n_words, word_matches, self.word_order)
            if n_refs == 1:
                return stats
            f = f_score(stats, self.order, self.beta, self.eps_smoothing)
            if f > best_f:
                best_f, best = f, stats
        return best

    # -- scoring -----------------------------------------------------------------
    def score_from_statistics(self, statistics: Sequence[Any], nrefs: int | str | None = None) -> CHRFScore:
        if len(statistics) != 3 * self.order:
            raise ValueError(f"{self.name} expects {3 * self.order} statistics, got {len(statistics)}")
        return CHRFScore(
            name=self.name,
            score=float(f_score(statistics, self.order, self.beta, self.eps_smoothing)),
            signature=self.signature(nrefs),
            char_order=self.char_order,
            word_order=self.word_order,
            beta=self.beta,
        )

    def resampled_score(self, statistics: Sequence[Any]) -> Any:
        return f_score(statistics, self.order, self.beta, self.eps_smoothing)

    def _score_fields(self, nrefs: int) -> dict[str, Any]:
        """A sentence score's fields but the score (as :meth:`score_from_statistics` sets them), kept
        while nothing the signature depends on changes: the C functions make each score object from
        them, and building the signature's key would otherwise be a fifth of a sentence score."""
        extra = self.signature_fields
        key = (nrefs, self.char_order, self.word_order, self.beta, self.lowercase, self.whitespace,
               self.eps_smoothing, tuple(extra.items()) if extra else ())
        kept = self._sentence_fields
        if kept is not None and kept[0] == key:
            return kept[1]
        fields = {"name": self.name, "signature": self.signature(nrefs), "mean": None, "ci": None,
                  "char_order": self.char_order, "word_order": self.word_order, "beta": self.beta}
        self._sentence_fields = (key, fields)
        return fields

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Score:
        # In one C call for a str and a list or tuple of str (anything else: the checks of the base class).
        if self._compiled_sentences is not None and type(hypothesis) is str and type(references) in (list, tuple) \
                and references and all(map(str.__instancecheck__, references)):
            nrefs = self._nrefs = len(references)
            result: CHRFScore = self._compiled_sentences(hypothesis, references, self._compiled_settings, CHRFScore,
                                                         self._score_fields(nrefs))
            return result
        return super().sentence_score(hypothesis, references)

    def sentence_scores(self, hypotheses: Iterable[str], references: Sequence[str]) -> list[Score]:
        from .fast_path import sentence_scores_in_c  # here: a plain run never needs it

        compiled = self._sentence_scores_in_c if self._compiled_sentences is not None else None
        return sentence_scores_in_c(compiled, super().sentence_scores, hypotheses, references)

    def _sentence_scores_in_c(self, hypotheses: list[str], references: Sequence[str]) -> list[Score]:
        """:meth:`sentence_scores` in one C call (the arguments checked by :func:`.fast_path.sentence_scores_in_c`)."""
        nrefs = self._nrefs = len(references)
        scores: list[Score] = self._compiled_sentences(hypotheses, references, self._compiled_settings, CHRFScore,
                                                       self._score_fields(nrefs))
        return scores
    def resampled_scores_in_c(self, sums: Any, first: int, width: int) -> Any:
        """:func:`.vectorized.chrf_scores` computed in C (:func:`.resampled.chrf_scores_in_c`), or None."""
        from .resampled import chrf_scores_in_c

        if width != 3 * self.order:
            return None
        return chrf_scores_in_c(sums, first, self.order, self.beta, self.eps_smoothing)

    def scores_from_statistics_matrix(self, matrix: Any) -> Any:
        """:meth:`resampled_score` of every row at once, bit for bit (:func:`.vectorized.chrf_scores`)."""
        from .vectorized import chrf_scores

        scores = chrf_scores(matrix, self.order, self.beta, self.eps_smoothing)
        return super().scores_from_statistics_matrix(matrix) if scores is None else scores

    def _signature_fields(self) -> dict[str, object]:
        return {
            "case": "lc" if self.lowercase else "mixed",
            "eff": not self.eps_smoothing,
            "nc": self.char_order,
            "nw": self.word_order,
            "space": self.whitespace,
            "beta": self.beta if self.beta != DEFAULT_BETA else None,
        }

    def _pairwise_matrix(self, hypotheses: list[str], references: list[str]) -> list[list[float]]:
        """:meth:`pairwise_scores`: each reference prepared once (shared tables), each hypothesis split once."""
        if self._compiled_pairwise is not None:
            matrix: list[list[float]] = self._compiled_pairwise(hypotheses, references, self._compiled_settings)
            return matrix
        prepared = [self.prepare_references((ref,), True) for ref in references]
        char_order, word_order = self.char_order, self.word_order
        best, score = self._best, self.resampled_score
        matrix = []
        for hyp in hypotheses:
            chars = self._chars(hyp)
            words = self._words(hyp) if word_order else []
            n_chars, n_words = len(chars), len(words)
            matrix.append([float(score(best(n_chars, n_words, p.matched(chars, words, char_order, word_order), 1)))
                           for p in prepared])
        return matrix

