"""The data behind ``bleucli compare``: two or more systems, corpus and sentence by sentence.

Every number comes from bleucli's own core, so a report can never disagree
with the scoring command:

* corpus scores from :func:`bleucli.engine.streaming.stream_statistics` (what
  ``bleucli REF -i SYS...`` prints);
* bootstrap means, 95% CIs and p-values from
  :func:`bleucli.significance.paired_test` on the rows of
  :func:`bleucli.engine.streaming.stream_rows` (what ``-pbs``/``-par`` print, same
  seed, same labels), except that a delta of exactly 0 gets p = 1 (sacreBLEU calls
  two identical outputs significantly different);
* the ranking of every system per metric from
  :func:`bleucli.significance.ranking.rank_systems` (what ``bleucli rank`` prints);
* each delta's estimated human accuracy from
  :mod:`bleucli.significance.human_accuracy` (Kocmi et al. 2024's fits);
* sentence BLEU from the metric's ``score_from_statistics`` on each segment's
  row with effective order on (what ``-sl`` prints).

"Where the difference lives" uses the same pieces:

* reference-length and document buckets: BLEU of the bucket's summed rows;
  a length bucket's CI is :func:`bleucli.significance.confidence_interval`
  on its rows (what ``-ci`` prints for files of the bucket's lines);
* sentence-BLEU bins (compare-mt's cutoffs) and word F-measure by frequency
  bucket (compare-mt 0.2.10's ``FreqWordBucketer`` with frequencies counted on
  the first reference, here on BLEU's tokens): their CIs come from
  :func:`bleucli.significance.bootstrap_column_sums`, the very resamples the
  seeded paired bootstrap draws (compare-mt's own bootstrap is unseeded and
  half-size);
* the bootstrap delta distribution is :attr:`PairedResult.deltas`, what the
  ``-pbs`` p-value is read from;
* the n-gram lists count the clipped matches the highlighting found.

The highlighting reproduces BLEU's clipped n-gram matching on the metric's
own tokens (13a, intl, char, zh...): for every order n, an n-gram of the
hypothesis is counted up to the largest number of times it occurs in one
reference; the counted occurrences are the first ones, left to right (BLEU
counts how many, not which; this is the convention shown). The counted
n-grams of each order therefore add up exactly to the statistics BLEU sums,
which :attr:`SystemSegment.matches` carries and the tests check. Each token
is then placed on the characters of the displayed line, so ``year,`` shows
``year`` matched and ``,`` not, as BLEU saw them.

Nothing here prints, exits or imports click.
"""

from __future__ import annotations

import hashlib
from array import array
from collections import Counter, _count_elements  # type: ignore[attr-defined]
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from ..errors import InputError, OptionError
from ..metrics import registry
from ..significance.deltas import pair_p_value
from ..significance.human_accuracy import human_accuracy, tokenizer_of

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.base import Metric, Score
    from ..metrics.bleu import BLEU
    from ..options import RunOptions
    from ..significance import PairedResult
    from ..significance.ranking import Ranking

#: p-values at or below this are called significant (sacreBLEU's star; ``--fail-if-worse``).
SIGNIFICANCE_LEVEL = 0.05
#: Reference-length buckets (tokens of the first reference, BLEU's tokenization): upper bounds, inclusive.
LENGTH_BUCKETS = (10, 20, 30, 40, 60)
#: Sentence-BLEU bins: compare-mt's score-bucket cutoffs (a bin holds cutoff[i-1] <= BLEU < cutoff[i]).
SENTENCE_BLEU_CUTOFFS = (10, 20, 30, 40, 50, 60, 70, 80, 90)
#: Word-frequency buckets: compare-mt's FreqWordBucketer default cutoffs (frequency < cutoff).
FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)
#: How many n-grams each list of "matched more often by" shows.
NGRAM_LIST_LENGTH = 15
#: What a bucket's per-system value is, by kind of bucket.
BUCKET_MEASURES = {"reference length": "BLEU", "sentence BLEU": "segments", "word frequency": "F-measure",
                   "document": "BLEU"}

_ENTITIES = (('&', '&amp;'), ('"', '&quot;'), ('<', '&lt;'), ('>', '&gt;'))


class TokenSpan(NamedTuple):
    """One BLEU token of a displayed hypothesis: characters ``[start, end)``.

    ``order`` is the longest counted n-gram the token belongs to (0: no
    counted match); ``differs`` marks tokens the other system lacks. A named
    tuple: a report holds one per token of every output (5 million at 200,000
    segments x 2 systems), and a tuple is made 5x faster and is half the size
    of a frozen dataclass.
    """

    start: int
    end: int
    order: int
    differs: bool


class PackedSpans(Sequence[TokenSpan]):
    """The :class:`TokenSpan` s of one hypothesis, packed four integers a token in one array.

    A report keeps every output's spans until its page is written; as tuples they took ~100 bytes a
    token (1 GB at 200,000 segments x 2 systems), packed they take 16. Reading gives
    :class:`TokenSpan` s, made as they are read.
    """

    __slots__ = ("_packed",)

    def __init__(self, spans: Iterable[tuple[int, int, int, bool]] = ()):
        self._packed = array("q")
        for start, end, order, differs in spans:
            self._packed.extend((start, end, order, 1 if differs else 0))

    @classmethod
    def from_flat(cls, flat: list[int], length: int) -> PackedSpans:
        """Spans already flat (``start, end, order, differs`` a token) on a line of ``length`` characters:
        4-byte integers when the offsets fit (every real line), half the memory of 8."""
        packed = cls.__new__(cls)
        packed._packed = array("i" if length < 2**31 else "q", flat)
        return packed

    @property
    def flat(self) -> array[int]:
        """The packed integers, four a token (read, never changed)."""
        return self._packed

    def __len__(self) -> int:
        return len(self._packed) // 4

    @overload
    def __getitem__(self, index: int) -> TokenSpan: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[TokenSpan, ...]: ...

    def __getitem__(self, index: int | slice) -> TokenSpan | tuple[TokenSpan, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("span index out of range")
        p = self._packed
        at = 4 * index
        return TokenSpan(p[at], p[at + 1], p[at + 2], bool(p[at + 3]))

    def __iter__(self) -> Iterator[TokenSpan]:
        p = self._packed
        for at in range(0, len(p), 4):
            yield TokenSpan(p[at], p[at + 1], p[at + 2], bool(p[at + 3]))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedSpans):
            return self._packed == other._packed
        if isinstance(other, Sequence):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._packed))

    def __repr__(self) -> str:
        return f"PackedSpans({list(self)!r})"


@dataclass(frozen=True, slots=True)
class SystemSegment:
    """One system's output for one segment, with everything BLEU counted on it."""

    hypothesis: str
    #: the BLEU statistics row ``[hyp_len, ref_len, matches..., totals...]`` (as the CLI sums it)
    statistics: tuple[int, ...]
    #: sentence BLEU with effective order (``-sl``)
    sentence_bleu: float
    bp: float
    #: counted n-grams per order found by the highlighting (equal to ``statistics[2:2+N]``)
    matches: tuple[int, ...]
    #: counted n-gram start positions per order (token indices)
    counted: tuple[tuple[int, ...], ...]
    spans: Sequence[TokenSpan]
    #: tokens that could not be placed on the displayed characters (normalised by the tokenizer)
    unplaced: int
    #: sentence scores of :attr:`Comparison.sentence_metrics` (the metrics of ``-m`` other than BLEU), as
    #: ``-sl`` prints them: each metric's score of the segment's own statistics row
    scores: tuple[float, ...] = ()

    @property
    def totals(self) -> tuple[int, ...]:
        order = len(self.matches)
        return self.statistics[2 + order: 2 + 2 * order]


@dataclass(frozen=True, slots=True)
class Segment:
    """One line of the test set: its references, optional source and every system's output."""

    number: int
    references: tuple[str, ...]
    systems: tuple[SystemSegment, ...]
    source: str | None = None
    #: the document id (``-t`` sets with doc ids, or ``--docids``)
    document: str | None = None


@dataclass(frozen=True)
class Bucket:
    """A group of segments (or words) and each system's value on it, with a 95% bootstrap CI.

    ``kind`` says what groups (:data:`BUCKET_MEASURES` names the value):
    reference length and document buckets hold segments and give BLEU from
    the group's summed statistics (not a mean); sentence-BLEU bins count each
    system's segments whose ``-sl`` BLEU falls in the bin; word-frequency
    buckets give compare-mt's word F-measure of the words whose frequency in
    the reference falls in the bucket.
    """

    kind: str
    label: str
    #: segments in the bucket (word frequency: reference words; sentence BLEU: segments any system has there)
    count: int
    values: tuple[float, ...]
    #: half-width of each value's 95% bootstrap CI (None: not computed, documents)
    ci: tuple[float | None, ...]
    #: 1-based segment numbers in the bucket (the report filters its table on them)
    segments: tuple[int, ...] = field(repr=False, default=())
    #: sentence-score bins: each system's own segments in the bin
    by_system: tuple[tuple[int, ...], ...] = field(repr=False, default=())
    #: the metric whose score the bucket gives (reference length and documents) or bins (sentence scores)
    metric: str = "BLEU"

    @property
    def measure(self) -> str:
        if self.kind in ("reference length", "document"):
            return self.metric
        if self.kind.startswith("sentence "):
            return "segments"
        return BUCKET_MEASURES[self.kind]


@dataclass(frozen=True)
class NgramDifference:
    """An n-gram of BLEU's tokens and how often each of two systems had it counted (clipped matches)."""

    ngram: str
    order: int
    #: counted matches of the baseline and of the candidate, over the corpus
    counts: tuple[int, int]
    #: 1-based segments where either system had it counted
    segments: tuple[int, ...] = field(repr=False, default=())


@dataclass(frozen=True)
class NgramComparison:
    """The n-grams a candidate matched more often than the baseline (``better``), and the reverse."""

    system: int
    better: tuple[NgramDifference, ...]
    worse: tuple[NgramDifference, ...]


@dataclass(frozen=True)
class InputFile:
    """An input named in the header: its role, name and sha256 of the decoded lines joined by ``\\n``."""

    role: str
    name: str
    sha256: str


@dataclass(frozen=True)
class Comparison:
    """Everything a compare report shows. System 0 is the baseline."""

    systems: tuple[str, ...]
    #: ``[system][metric]`` corpus scores, as ``bleucli REF -i SYS...`` prints them
    scores: tuple[tuple[Score, ...], ...]
    #: one paired bootstrap per metric (means, CIs, and p-values when ``test == "bs"``)
    bootstrap: tuple[PairedResult, ...]
    #: one approximate randomization per metric when ``test == "ar"``
    randomization: tuple[PairedResult, ...]
    #: ``pairwise[i][j]``: the primary metric's p-value of system j against system i (i < j), 3+ systems
    pairwise: tuple[tuple[float | None, ...], ...]
    segments: tuple[Segment, ...]
    buckets: tuple[Bucket, ...]
    #: per candidate (systems 1...), the n-grams matched more often by it or by the baseline
    ngrams: tuple[NgramComparison, ...]
    inputs: tuple[InputFile, ...]
    command: str
    test: str
    resamples: int
    seed: int | None
    max_order: int
    tokenizer: str
    #: one ranking of every system per metric (:mod:`bleucli.significance.ranking`), as ``bleucli rank`` gives it
    #: with the report's test, resamples and seed
    rankings: tuple[Ranking, ...] = ()
    #: the metrics of ``-m`` other than BLEU, in ``-m``'s order: each has sentence scores
    #: (:attr:`SystemSegment.scores`) and its own buckets (:attr:`Bucket.metric`)
    sentence_metrics: tuple[str, ...] = ()

    @property
    def deltas_metric(self) -> str:
        """The metric of :attr:`deltas`: BLEU when it is scored, else the primary metric."""
        return "BLEU" if "BLEU" in self.metric_names else self.metric_names[0]

    @property
    def deltas(self) -> tuple[Any, ...]:
        """Per candidate, :attr:`deltas_metric` minus the baseline's in every bootstrap resample (``-pbs``'s)."""
        return self.bootstrap[self.metric_names.index(self.deltas_metric)].deltas

    @property
    def metric_names(self) -> tuple[str, ...]:
        return tuple(score.name for score in self.scores[0])

    @property
    def paired(self) -> tuple[PairedResult, ...]:
        """The results whose p-values the report shows (the chosen test)."""
        return self.randomization if self.test == "ar" else self.bootstrap

    def p_value(self, system: int, metric: int) -> float | None:
        """The candidate's p-value against the baseline (``-pbs``/``-par``'s), 1 when the delta is exactly 0.

        sacreBLEU's p-value calls two identical outputs significantly different;
        a report never does (``bleucli rank`` neither).
        """
        if system == 0:
            return None
        return pair_p_value(self.scores[system][metric].score, self.scores[0][metric].score,
                            self.paired[metric].rows[system].p_value)

    def delta(self, system: int, metric: int) -> float:
        return self.scores[system][metric].score - self.scores[0][metric].score

    def human_accuracy(self, system: int, metric: int) -> float | None:
        """The estimated agreement with human judgments of the candidate's delta (Kocmi et al. 2024), if fitted."""
        if system == 0:
            return None
        score = self.scores[system][metric]
        return human_accuracy(self.delta(system, metric), score.name, tokenizer_of(score.signature))

    def worse(self, system: int, metric: int, min_accuracy: float | None = None) -> bool:
        """Whether ``system`` is significantly worse than the baseline on ``metric`` (p <= 0.05).

        With ``min_accuracy``, also with at least that estimated human accuracy
        of the delta; a metric without a published fit is then never "worse".
        """
        p_value = self.p_value(system, metric)
        if p_value is None or p_value > SIGNIFICANCE_LEVEL:
            return False
        delta = self.delta(system, metric)
        if not (delta > 0 if lower_is_better(self.metric_names[metric]) else delta < 0):
            return False
        if min_accuracy is None:
            return True
        accuracy = self.human_accuracy(system, metric)
        return accuracy is not None and accuracy >= min_accuracy

    def worse_systems(self, min_accuracy: float | None = None) -> list[tuple[str, str]]:
        """``(system, metric)`` pairs where a candidate is significantly worse than the baseline."""
        return [(self.systems[k], name) for k in range(1, len(self.systems))
                for m, name in enumerate(self.metric_names) if self.worse(k, m, min_accuracy)]


# -- highlighting -------------------------------------------------------------------------
def counted_ngrams(hypothesis: Sequence[str], references: Sequence[Sequence[str]],
                   max_order: int, limits: Sequence[Counter[tuple[str, ...]]] | None = None) -> list[list[int]]:
    """Start positions of the hypothesis n-grams BLEU's clipping counts, per order.

    Each distinct n-gram is counted up to its largest count in one reference;
    the first occurrences are the counted ones. ``limits`` are
    :func:`reference_limits` of ``references``, when several hypotheses share them.
    """
    if limits is None:
        limits = reference_limits(references, max_order)
    counted: list[list[int]] = []
    # an n-gram can be in a reference only where its first n-1 tokens are: each order looks only at the
    # positions whose shorter n-gram some reference holds (ascending, so the first occurrences count)
    candidates: Sequence[int] = range(len(hypothesis))
    for n in range(1, max_order + 1):
        limit = limits[n - 1]
        used: dict[tuple[str, ...], int] = {}  # counted so far, per n-gram (no copy of the limits)
        starts = []
        present = []
        # every n-gram of the hypothesis at once (zip of shifted lists: the tuples made at C speed)
        grams = list(zip(*(hypothesis[j:] for j in range(n)))) if candidates else []
        last = len(hypothesis) - n
        for i in candidates:
            if i > last:
                break
            gram = grams[i]
            most = limit.get(gram, 0)
            if most:
                present.append(i)
                times = used.get(gram, 0)
                if times < most:
                    used[gram] = times + 1
                    starts.append(i)
        counted.append(starts)
        candidates = present
    return counted


def reference_limits(references: Sequence[Sequence[str]], max_order: int) -> list[Counter[tuple[str, ...]]]:
    """Per order, each n-gram's largest count in one reference: how often BLEU may count it."""
    limits = []
    if len(references) == 1:  # one reference: its own counts (zip of shifted lists builds the tuples at C speed)
        ref = references[0]
        return [Counter(zip(*(ref[i:] for i in range(n)))) for n in range(1, max_order + 1)]
    for n in range(1, max_order + 1):
        allowed: Counter[tuple[str, ...]] = Counter()
        for ref in references:
            ref_counts = Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
            for gram, count in ref_counts.items():
                if count > allowed[gram]:
                    allowed[gram] = count
        limits.append(allowed)
    return limits


def longest_orders(n_tokens: int, counted: Sequence[Sequence[int]]) -> list[int]:
    """For each token, the longest order of a counted n-gram covering it (0: none)."""
    orders = [0] * n_tokens
    for n, starts in enumerate(counted, 1):
        for start in starts:
            for i in range(start, start + n):
                orders[i] = n
    return orders


def place_tokens(line: str, tokens: Sequence[str], lowercase: bool) -> list[tuple[int, int] | None]:
    """Character ranges of ``tokens`` in ``line``, in order (``None``: not found as written).

    Tokenizers split but rarely rewrite; where they do (13a unescapes
    ``&quot;``...), the escaped form is looked for too. With ``lowercase``
    the search runs on a per-character lowercased copy so offsets stay those
    of the displayed line.
    """
    offsets: Sequence[int]
    if lowercase:
        pieces = [c.lower() for c in line]
        text = "".join(pieces)
        offsets = [i for i, piece in enumerate(pieces) for _ in piece] + [len(line)]
    else:
        text, offsets = line, range(len(line) + 1)
    places: list[tuple[int, int] | None] = []
    cursor = 0
    for token in tokens:
        if _ESCAPABLE.isdisjoint(token):  # one written form (most tokens): no escaped form to look for
            found = text.find(token, cursor)
            if found < 0:
                places.append(None)
                continue
            end = found + len(token)
            places.append((offsets[found], offsets[end - 1] + 1))
            cursor = end
            continue
        # the earliest occurrence of any written form; at a tie the longer (``&amp;``, not its ``&``)
        hits = [(at, -len(form)) for form in _written_forms(token) if (at := text.find(form, cursor)) >= 0]
        if not hits:
            places.append(None)
            continue
        found, negative_length = min(hits)
        end = found - negative_length
        places.append((offsets[found], offsets[end - 1] + 1))
        cursor = end
    return places


_ESCAPABLE = frozenset(plain for plain, _ in _ENTITIES)


def lower_is_better(score_name: str) -> bool:
    """Whether a lower score of this metric is better (TER), as its registry entry says: it decides the
    report's colours and ``--fail-if-worse``."""
    entry = registry.for_score(score_name)
    return entry is not None and entry.lower_is_better


def _written_forms(token: str) -> list[str]:
    forms = [token]
    escaped = token
    for plain, entity in _ENTITIES:
        escaped = escaped.replace(plain, entity)
    if escaped != token:
        forms.append(escaped)
    return forms


Highlight = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[TokenSpan, ...], int]


def highlight(metric: BLEU, hypothesis: str, references: Sequence[str], other: str | None) -> Highlight:
    """``(matches per order, counted starts per order, spans, unplaced tokens)`` of one hypothesis."""
    return _highlight(metric, metric._tokens(hypothesis), hypothesis, [metric._tokens(ref) for ref in references],
                      metric._tokens(other) if other is not None else None)


def _highlight(metric: BLEU, tokens: list[str], hypothesis: str, ref_tokens: Sequence[Sequence[str]],
               other_tokens: Sequence[str] | None,
               limits: Sequence[Counter[tuple[str, ...]]] | None = None) -> Highlight:
    counted, flat, unplaced = _highlight_flat(metric, tokens, hypothesis, ref_tokens, other_tokens, limits)
    spans = tuple(TokenSpan(flat[i], flat[i + 1], flat[i + 2], bool(flat[i + 3])) for i in range(0, len(flat), 4))
    return (tuple(len(s) for s in counted), tuple(tuple(s) for s in counted), spans, unplaced)


def _highlight_flat(metric: BLEU, tokens: list[str], hypothesis: str, ref_tokens: Sequence[Sequence[str]],
                    other_tokens: Sequence[str] | None,
                    limits: Sequence[Counter[tuple[str, ...]]] | None = None,
                    ) -> tuple[list[list[int]], list[int], int]:
    """:func:`_highlight` with the spans flat (``start, end, order, differs`` a token): no object a token."""
    counted = counted_ngrams(tokens, ref_tokens, metric.max_ngram_order, limits)
    orders = longest_orders(len(tokens), counted)
    available: dict[str, int] | None = None
    if other_tokens is not None:  # Counter's own counting, without its Python-level set-up for each output
        available = {}
        _count_elements(available, other_tokens)
    flat: list[int] = []
    unplaced = 0
    for token, order, place in zip(tokens, orders, place_tokens(hypothesis, tokens, metric.lowercase)):
        differs = 0
        if available is not None:
            left = available.get(token, 0)
            differs = left <= 0
            available[token] = left - 1
        if place is None:
            unplaced += 1
            continue
        flat += (place[0], place[1], order, differs)
    return counted, flat, unplaced


# -- the comparison ---------------------------------------------------------------------------
def digest(lines: Sequence[str]) -> str:
    """sha256 of the decoded lines joined by newlines: the same text gives the same digest."""
    hasher = hashlib.sha256()
    for line in lines:
        hasher.update(line.encode("utf-8"))
        hasher.update(b"\n")
    return hasher.hexdigest()


def compare(
    options: RunOptions,
    system_names: Sequence[str],
    systems: Sequence[Sequence[str]],
    reference_names: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    source: Sequence[str] | None = None,
    source_name: str | None = None,
    command: str = "",
    signature_fields: dict[str, str | None] | None = None,
    test_set: tuple[str, str] | None = None,
    documents: Sequence[str] | None = None,
    documents_name: str | None = None,
    target_language: str | None = None,
    progress: Callable[[int], None] | None = None,
    segment_keep: Sequence[bool] | None = None,
) -> Comparison:
    """Score and compare ``systems`` (the first is the baseline) as ``options`` say.

    ``options.significance.test`` chooses the p-values (``bs`` by default,
    ``ar``); the bootstrap always runs, for the CIs. The metrics are ``-m``'s
    as the scoring command builds them, scored and tested through the same
    pipeline (:func:`bleucli.engine.pipeline.run_on_rows`); the first is the
    primary one (pairwise p-values). The highlighting, the word-frequency
    buckets and the n-gram lists are BLEU's (its clipped matches), whether or
    not BLEU is scored, and so are BLEU's sentence scores and buckets; every
    other metric of ``-m`` adds its sentence scores (the score of each
    segment's own statistics row, what ``-sl`` prints) and its own
    reference-length, sentence-score and document buckets. ``signature_fields`` are a test set's
    (``test:``, ``lang:``...), as the scoring command gives its metrics;
    ``test_set`` is ``(name, sha256 of its reference data)`` for the header;
    ``documents`` gives each segment's document id (a document view);
    ``segment_keep`` the lines of the whole test set that ``-t --origlang/--subset``
    keeps, which ``--segment-scores`` files (one score per line of the whole set) are filtered by.
    ``progress`` is called with the number of segments highlighted as they are (a command's progress bar).
    """
    from ..engine.pipeline import run_on_rows
    from ..engine.streaming import Streams, stream_rows

    if len(systems) < 2:
        raise OptionError("compare needs a baseline and at least one other system: -i BASELINE SYS...")
    for what, lines, name in (("source", source, source_name), ("doc ids", documents, documents_name)):
        if lines is not None and len(lines) != len(references[0]):
            raise InputError(f"has {len(lines)} lines, the references {len(references[0])}", name or what)
    metric_options = options.metrics._replace(bleu=options.metrics.bleu._replace(effective_order=False))
    # a test set's own code of the target (NTREX's `-l en-zh_CN` is zho_CN) chooses the tokenizer
    target = options.testset.target_language if target_language is None else target_language
    # the metrics of `bleucli REF -i SYS... -m ...`, in that order (the first is the primary one)
    metrics = registry.build_metrics(metric_options, None, target, signature_fields)
    for metric in metrics:
        if segment_keep is not None and hasattr(metric, "system_rows"):
            metric.keep = segment_keep  # type: ignore[attr-defined]
    bleu_only = metric_options._replace(requested=("bleu",), segment_scores=())
    sentence_metric: BLEU = registry.build_metrics(  # type: ignore[assignment]
        bleu_only._replace(bleu=metric_options.bleu._replace(effective_order=True)), None, target, signature_fields)[0]
    names = [m.name for m in metrics]
    # the sentence table, its highlighting and the buckets are BLEU's, scored or not
    extra = [] if "BLEU" in names else registry.build_metrics(bleu_only, None, target, signature_fields)
    bleu_index = names.index("BLEU") if "BLEU" in names else len(metrics)
    streams = Streams(list(system_names), systems, list(reference_names), references)
    nrefs = len(references)
    all_rows = stream_rows([*metrics, *extra], streams, options.jobs)
    rows = all_rows[:len(metrics)]
    significance = options.significance
    test = "ar" if significance.test == "ar" else "bs"
    # scores and paired tests as the scoring command computes them from the same rows (-pbs, -par)
    corpus = run_on_rows(options._replace(significance=significance._replace(test=None)), metrics, rows,
                         system_names, nrefs)
    scores = tuple(tuple(per_system) for per_system in corpus.scores)

    def run_test(kind: str) -> tuple[PairedResult, ...]:
        paired = run_on_rows(options._replace(significance=significance._replace(test=kind)), metrics, rows,
                             system_names, nrefs, documents=documents)
        return tuple(paired.paired)

    bootstrap = run_test("bs")
    randomization = run_test("ar") if test == "ar" else ()
    resamples = significance.paired_ar_n if test == "ar" else significance.paired_bs_n
    test_rows = rows[0]
    index = None
    if significance.unit == "document":  # the pairwise p-values and the rankings resample documents too
        from ..significance.units import document_index, rows_by_document

        index = document_index(documents or (), len(references[0]), documents_name or "doc ids")
        test_rows = rows_by_document([rows[0]], index)[0]
    pairwise = _pairwise(metrics[0], test_rows, test, resamples, significance.seed, options.jobs, nrefs) \
        if len(systems) > 2 else ()
    tokens = _Tokens(sentence_metric, systems, references)
    # every metric of -m other than BLEU: its sentence scores and buckets (BLEU's are computed below)
    others = [(metric, metric_rows) for metric, metric_rows in zip(metrics, rows) if metric.name != "BLEU"]
    n_boot, seed = significance.paired_bs_n, significance.seed
    bleu_metric, bleu_rows = [*metrics, *extra][bleu_index], all_rows[bleu_index]
    # the buckets that need no sentence view are made while the workers highlight (with -j)
    alongside: list[Callable[[], tuple[Bucket, ...]]] = [
        partial(_length_buckets, bleu_metric, tokens, bleu_rows, nrefs, n_boot, seed),
        partial(_frequency_buckets, tokens, n_boot, seed)]
    for metric, metric_rows in others:
        alongside.append(partial(_length_buckets, metric, tokens, metric_rows, nrefs, n_boot, seed))
    # the other metrics' sentence scores (as sentence_score_matrix makes them) come with the sentence view
    segments, made, other_scores = _segments(sentence_metric, tokens, systems, references, all_rows[bleu_index],
                                             source, documents, nrefs, others, progress, options.jobs, alongside)
    inputs = [InputFile("test set", test_set[0], test_set[1])] if test_set is not None else []
    inputs += [InputFile("reference", name, digest(lines)) for name, lines in zip(reference_names, references)]
    if source is not None:
        inputs.append(InputFile("source", source_name or "source", digest(source)))
    if documents is not None:
        inputs.append(InputFile("doc ids", documents_name or "doc ids", digest(documents)))
    inputs += [InputFile("system", name, digest(lines)) for name, lines in zip(system_names, systems)]
    buckets = (made[0] + _sentence_bleu_bins(segments, n_boot, seed) + made[1]
               + _document_buckets(bleu_metric, segments, bleu_rows, nrefs))
    for m, ((metric, metric_rows), matrix) in enumerate(zip(others, other_scores)):
        buckets += (made[2 + m] + _score_bins(f"sentence {metric.name}", matrix.T, n_boot, seed, metric.name)
                    + _document_buckets(metric, segments, metric_rows, nrefs))
    return Comparison(
        systems=tuple(system_names), scores=scores, bootstrap=bootstrap, randomization=randomization,
        pairwise=pairwise, segments=segments, buckets=buckets, ngrams=_ngram_differences(tokens, segments),
        inputs=tuple(inputs), command=command, test=test, resamples=resamples, seed=seed,
        max_order=sentence_metric.max_ngram_order, tokenizer=sentence_metric.tokenizer.signature,
        rankings=_rankings(metrics, rows, system_names, test, resamples, n_boot, seed, options.jobs, nrefs, index),
        sentence_metrics=tuple(metric.name for metric, _ in others),
    )


def _rankings(metrics: Sequence[Metric[Any]], rows: Sequence[Any], system_names: Sequence[str], test: str, n: int,
              n_bootstrap: int, seed: int | None, jobs: int, nrefs: int,
              documents: Sequence[Sequence[int]] | None = None) -> tuple[Ranking, ...]:
    """Every metric's ranking of the systems, with the report's test, resamples, seed and resampling unit
    (Holm, alpha 0.05)."""
    from ..significance.ranking import rank_systems

    return tuple(rank_systems(metric, per_metric, list(system_names), test=test, n=n, n_bootstrap=n_bootstrap,
                              seed=seed, jobs=jobs, nrefs=nrefs, documents=documents)
                 for metric, per_metric in zip(metrics, rows))


def sentence_score_matrix(metric: Metric[Any], rows: Sequence[Sequence[Sequence[Any]]], nrefs: int) -> Any:
    """``[system, segment]`` sentence scores (float64): the metric's score of each segment's own row, as
    ``-sl`` computes them."""
    import numpy as np

    return np.array([[metric.score_from_statistics(row, nrefs).score for row in system_rows]
                     for system_rows in rows], dtype=np.float64).reshape(len(rows), -1)


class _Tokens:
    """BLEU's tokens of every output and reference line, computed once for the highlighting and the buckets."""

    def __init__(self, metric: BLEU, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]]):
        # every token string interned through one table: the lists share them (a tenth of the memory of
        # one string per token at 200,000 segments)
        table: dict[str, str] = {}
        same = table.setdefault

        def tokens(line: str) -> list[str]:
            found = metric._tokens(line)
            return list(map(same, found, found))

        self.systems = [[tokens(line) for line in system] for system in systems]
        self.references = [[tokens(line) for line in refs] for refs in references]
        #: counted n-gram start positions per order, ``[system][segment]`` (set by :func:`_segments`)
        self.counted: list[list[tuple[tuple[int, ...], ...]]] = [[] for _ in systems]
        #: each system's counted n-grams over the corpus (a :class:`~bleucli.report.matching.GramCounts`, set by
        #: :func:`_segments`)
        self.found: Any = None


def _pairwise(metric: Metric[Any], rows: Sequence[Any], test: str, n: int, seed: int | None, jobs: int,
              nrefs: int) -> tuple[tuple[float | None, ...], ...]:
    """p-values of every pair (i < j), system i as the baseline, on the primary metric."""
    from ..significance import paired_test

    size = len(rows)
    matrix: list[list[float | None]] = [[None] * size for _ in range(size)]
    for i in range(size - 1):
        result = paired_test(test, metric, rows[i], rows[i + 1:], n, seed, jobs=jobs,  # type: ignore[arg-type]
                             nrefs=nrefs)
        for j, row in enumerate(result.rows[1:], i + 1):
            matrix[i][j] = matrix[j][i] = pair_p_value(row.score, result.baseline.score, row.p_value)
    return tuple(tuple(row) for row in matrix)


def _segments(metric: BLEU, tokens: _Tokens, systems: Sequence[Sequence[str]],
              references: Sequence[Sequence[str]], rows: Sequence[Sequence[Sequence[int]]],
              source: Sequence[str] | None, documents: Sequence[str] | None, nrefs: int,
              others: Sequence[tuple[Metric[Any], Sequence[Any]]] = (), progress: Callable[[int], None] | None = None,
              jobs: int = 1, alongside: Sequence[Callable[[], Any]] = (),
              ) -> tuple[tuple[Segment, ...], list[Any], list[Any]]:
    """Every segment with every system's output highlighted, the results of the ``alongside`` calls, and the
    ``[system, segment]`` sentence scores of each of ``others`` (a metric and its rows: what
    :func:`sentence_score_matrix` gives, made by the parts for their segments).

    Each system's counted n-grams, summed over the corpus, are left in ``tokens.found`` (what
    :func:`_ngram_differences` ranks). With ``jobs`` above 1 (and ``fork``), the segments are cut into
    contiguous ranges (:meth:`~bleucli.engine.executor.Workers.split`: forked children inherit the
    tokens): this process makes the ``alongside`` calls (the buckets, which do not need the sentence
    view) and a smaller range, each child a range, and the parts are joined in order, so the result is
    the one of a single process. A child sends its segments back as plain tuples, made into records
    here (pickling the frozen records themselves took 1.5 s each way for 3,004 segments x 16 systems).
    """
    from ..engine.executor import Workers, resolve_jobs
    from .matching import GramCounts

    size = len(references[0]) if references else 0
    context = _ViewContext(metric, tokens, systems, references, list(rows),
                           source, documents, nrefs,
                           [(other, list(other_rows)) for other, other_rows in others])
    with Workers(context, resolve_jobs(jobs, max(1, size // _VIEW_MIN_SEGMENTS))) as workers:
        if not workers.forks:  # one process (or no fork): the whole range here, counted on the bar as it goes
            beside = [call() for call in alongside]
            parts = [_view_part(context, 0, size, progress)]
        else:
            weights = [_ALONGSIDE_SHARE if alongside else 1.0] + [1.0] * (workers.workers - 1)
            cuts = [round(size * sum(weights[:p]) / sum(weights)) for p in range(len(weights) + 1)]
            ranges: list[tuple[Any, ...]] = [(lo, hi) for lo, hi in zip(cuts, cuts[1:])]
            ranges[0] += (progress, alongside)
            parts = workers.split(_view_part, ranges)
            beside = parts[0][2]
            if progress is not None:  # the children's segments, once they are in
                progress(size - cuts[1])
    segments: list[Segment] = []
    found = GramCounts(len(systems), metric.max_ngram_order)
    scores: list[list[list[float]]] = [[[] for _ in systems] for _ in others]
    for p, (part_segments, part_found, _, part_scores) in enumerate(parts):
        parts[p] = ([], [], [], [])  # each part's tuples let go once they are records
        segments += _records(part_segments)
        found.add(part_found)
        for mine, more in zip(scores, part_scores):
            for system_scores, system_more in zip(mine, more):
                system_scores += system_more
    tokens.found = found
    tokens.counted = [[segment.systems[k].counted for segment in segments] for k in range(len(systems))]
    import numpy as np

    matrices = [np.array(per_metric, dtype=np.float64).reshape(len(systems), -1) for per_metric in scores]
    return tuple(segments), beside, matrices


#: Fewest segments worth a worker of the sentence view (below, forking costs more than it saves).
_VIEW_MIN_SEGMENTS = 500
#: The share of segments this process highlights, against a child's 1, when it also makes the buckets
#: (on 16 WMT17 systems and BLEU, chrF and TER, the buckets take about half the time the highlighting does).
_ALONGSIDE_SHARE = 0.4


def _records(raw: Sequence[tuple[Any, ...]]) -> list[Segment]:
    """The :class:`Segment` records of :func:`_view_part`'s plain tuples."""
    out = []
    for number, references, entries, source, document in raw:
        systems = []
        for hypothesis, row, score, bp, matches, counted, packed, unplaced, scores in entries:
            spans = PackedSpans.__new__(PackedSpans)
            spans._packed = packed
            systems.append(SystemSegment(hypothesis, row, score, bp, matches, counted, spans, unplaced, scores))
        out.append(Segment(number, references, tuple(systems), source, document))
    return out


class _ViewContext(NamedTuple):
    """What every part of the sentence view reads (inherited by forked workers, never sent)."""

    metric: Any
    tokens: Any
    systems: Sequence[Sequence[str]]
    references: Sequence[Sequence[str]]
    rows: list[Sequence[Sequence[int]]]
    source: Sequence[str] | None
    documents: Sequence[str] | None
    nrefs: int
    #: the other metrics of -m and their rows (per system), for their sentence scores
    others: list[tuple[Any, list[Any]]]


def _view_part(context: _ViewContext, lo: int, hi: int, progress: Callable[[int], None] | None = None,
               alongside: Sequence[Callable[[], Any]] = (),
               ) -> tuple[list[tuple[Any, ...]], list[tuple[list[tuple[str, ...]], Any]], list[Any], list[Any]]:
    """Segments ``lo..hi-1`` of the sentence view (as plain tuples, see :func:`_records`), each system's
    counted n-grams on them, the results of the ``alongside`` calls (made first), and the other metrics'
    sentence scores of the segments (``[metric][system][segment]``, as :func:`sentence_score_matrix`).

    The counting (counted n-grams, each token's order and whether it differs) is
    :func:`bleucli.report.matching.match`'s, a block of segments at a time; the tokens are placed on
    the characters here. An output equal to another system's on the same segment is placed once (its
    tokens and counts are the same, and so is what differs from the baseline: system 1 for the baseline
    itself, which only the baseline compares with); sentence BLEU is computed once per distinct row.
    """
    from .matching import GramCounts, match

    metric, tokens, systems, references, rows, source, documents, nrefs, others = context
    max_order, lowercase = metric.max_ngram_order, metric.lowercase
    beside = [call() for call in alongside]
    other_lists = [[[other.score_from_statistics(row, nrefs).score for row in system_rows[lo:hi]]
                    for system_rows in other_rows] for other, other_rows in others]
    found = GramCounts(len(systems), max_order)
    scored: dict[tuple[int, ...], tuple[float, float]] = {}
    out = []
    system_tokens, reference_tokens = tokens.systems, tokens.references
    compared_with = [1 if k == 0 else 0 for k in range(len(systems))]
    for block in range(lo, hi, _VIEW_BLOCK):
        end = min(hi, block + _VIEW_BLOCK)
        matches = match([per_system[block:end] for per_system in system_tokens],
                        [per_ref[block:end] for per_ref in reference_tokens], max_order, compared_with)
        found.add(matches.found)
        block_rows = [list(system_rows[block:end]) for system_rows in rows]  # a block's rows as lists of ints
        for i in range(block, end):
            if progress is not None and i > lo and not (i - lo) % 1000:
                progress(1000)
            j = i - block
            done: dict[tuple[str, bool], tuple[Any, int]] = {}
            entries = []
            for k, system in enumerate(systems):
                hypothesis = system[i]
                key = (hypothesis, k == 0)
                view = done.get(key)
                if view is None:
                    flat, unplaced = _flat_spans(system_tokens[k][i], hypothesis, matches.orders[k][j],
                                                 matches.differs[k][j], lowercase)
                    view = done[key] = (PackedSpans.from_flat(flat, len(hypothesis)).flat, unplaced)
                counted = matches.counted[k][j]
                row = tuple(map(int, block_rows[k][j]))
                score = scored.get(row)
                if score is None:
                    result = metric.score_from_statistics(row, nrefs)
                    score = scored[row] = (result.score, result.bp)
                entries.append((hypothesis, row, score[0], score[1], tuple(map(len, counted)), counted,
                                view[0], view[1], tuple(matrix[k][i - lo] for matrix in other_lists)))
            out.append((i + 1, tuple(refs[i] for refs in references), entries,
                        source[i] if source is not None else None, documents[i] if documents is not None else None))
    return out, found.parts(), beside, other_lists


#: Segments counted by one call of :func:`bleucli.report.matching.match` (bounds its arrays' memory).
_VIEW_BLOCK = 500


def _flat_spans(words: list[str], hypothesis: str, orders: Sequence[int], differs: Sequence[int],
                lowercase: bool) -> tuple[list[int], int]:
    """The spans of :func:`_highlight_flat` (``start, end, order, differs`` a placed token) and the unplaced count.

    The same placing as :func:`place_tokens`, written in one loop for the common case (no lowercasing,
    a token with one written form); any other token is placed by :func:`place_tokens`' rules.
    """
    flat: list[int] = []
    unplaced = 0
    if lowercase:
        for order, differ, place in zip(orders, differs, place_tokens(hypothesis, words, lowercase)):
            if place is None:
                unplaced += 1
                continue
            flat += (place[0], place[1], order, differ)
        return flat, unplaced
    find = hypothesis.find
    plain = _ESCAPABLE.isdisjoint
    cursor = 0
    for token, order, differ in zip(words, orders, differs):
        if plain(token):
            found = find(token, cursor)
            if found < 0:
                unplaced += 1
                continue
            end = found + len(token)
        else:
            hits = [(at, -len(form)) for form in _written_forms(token) if (at := find(form, cursor)) >= 0]
            if not hits:
                unplaced += 1
                continue
            found, negative_length = min(hits)
            end = found - negative_length
        flat += (found, end, order, differ)
        cursor = end
    return flat, unplaced


def _interval_columns(matrix: Any, n: int, seed: int | None) -> Any:
    """Column sums of a per-segment matrix in each ``-pbs`` resample (float64, exact for counts)."""
    from ..significance import bootstrap_column_sums

    return bootstrap_column_sums([matrix], n, seed)[0].astype("float64")


def _half_width(values: Any) -> float:
    from ..significance import percentile_interval

    return percentile_interval(values)[1]


def _length_buckets(metric: Metric[Any], tokens: _Tokens, rows: Sequence[Sequence[Sequence[Any]]], nrefs: int,
                    n: int, seed: int | None) -> tuple[Bucket, ...]:
    """Reference-length buckets: the metric's score of the group's summed statistics, its CI as ``-ci`` on
    the group. The buckets are the same for every metric (BLEU's tokens of the first reference).

    The CI is :func:`bleucli.significance.confidence_interval` on the
    bucket's rows: what ``bleucli REF -i SYS -ci`` prints for files holding
    only the bucket's lines.
    """
    from ..significance import confidence_interval

    bounds = [*LENGTH_BUCKETS, None]
    members: list[list[int]] = [[] for _ in bounds]
    for i, ref in enumerate(tokens.references[0]):
        slot = next(b for b, bound in enumerate(bounds) if bound is None or len(ref) <= bound)
        members[slot].append(i)
    buckets = []
    low = 0
    for bound, indices in zip(bounds, members):
        label = f"{low}-{bound}" if bound is not None else f">{low - 1}"
        if bound is not None:
            low = bound + 1
        if not indices:
            continue
        values, cis = [], []
        for system_rows in rows:
            subset = [system_rows[i] for i in indices]
            result = confidence_interval(metric, subset, n, seed, nrefs=nrefs)
            values.append(result.score)
            cis.append(result.ci)
        buckets.append(Bucket("reference length", label, len(indices), tuple(values), tuple(cis),
                              tuple(i + 1 for i in indices), metric=metric.name))
    return tuple(buckets)


def cutoff_labels(cutoffs: Sequence[int], integers: bool) -> list[str]:
    """compare-mt's bucket names: ``<c0``, ``[c(i-1),ci)`` (``v`` for a one-value integer bucket), ``>=last``."""
    labels = []
    for i, cut in enumerate(cutoffs):
        if i == 0:
            labels.append(f"<{cut}")
        elif integers and cut - 1 == cutoffs[i - 1]:
            labels.append(f"{cut - 1}")
        else:
            labels.append(f"[{cutoffs[i - 1]},{cut})")
    labels.append(f">={cutoffs[-1]}")
    return labels


def cutoff_bucket(value: float, cutoffs: Sequence[int]) -> int:
    """The bucket of ``value``: the first cutoff it is below (compare-mt's ``cutoff_into_bucket``)."""
    for i, cut in enumerate(cutoffs):
        if value < cut:
            return i
    return len(cutoffs)


def _sentence_bleu_bins(segments: Sequence[Segment], n: int, seed: int | None) -> tuple[Bucket, ...]:
    """Each system's segments by their sentence BLEU (``-sl``); the count's CI from the ``-pbs`` resamples."""
    scores = [[entry.sentence_bleu for entry in segment.systems] for segment in segments]
    return _score_bins("sentence BLEU", scores, n, seed, "BLEU")


def _score_bins(kind: str, scores: Any, n: int, seed: int | None, metric: str) -> tuple[Bucket, ...]:
    """Each system's segments by a sentence score (``scores[segment][system]``, 0-100 scale, compare-mt's
    bins; TER above 100 falls in the last); the count's CI from the ``-pbs`` resamples."""
    import numpy as np

    n_bins, n_systems = len(SENTENCE_BLEU_CUTOFFS) + 1, len(scores[0])
    bins = np.zeros((len(scores), n_bins * n_systems), dtype=np.int64)
    # each value's bin at once: the first cutoff it is below (cutoff_bucket)
    values = np.asarray(scores, dtype=np.float64).reshape(len(scores), n_systems)
    which = np.searchsorted(np.asarray(SENTENCE_BLEU_CUTOFFS, dtype=np.float64), values, side="right")
    bins[np.arange(len(scores))[:, None], np.arange(n_systems) * n_bins + which] = 1
    resampled = _interval_columns(bins, n, seed)
    buckets = []
    for b, label in enumerate(cutoff_labels(SENTENCE_BLEU_CUTOFFS, integers=False)):
        by_system = tuple(tuple(int(i) + 1 for i in np.flatnonzero(bins[:, k * n_bins + b])) for k in range(n_systems))
        union = tuple(sorted(set().union(*by_system)))
        if not union:
            continue
        buckets.append(Bucket(kind, label, len(union), tuple(float(len(m)) for m in by_system),
                              tuple(_half_width(resampled[:, k * n_bins + b]) for k in range(n_systems)),
                              union, by_system, metric=metric))
    return tuple(buckets)


def word_frequency_statistics(reference: Sequence[Sequence[str]], outputs: Sequence[Sequence[Sequence[str]]],
                              cutoffs: Sequence[int] = FREQUENCY_CUTOFFS) -> Any:
    """Per segment and bucket: reference words, and each output's words and matched words.

    compare-mt's word accuracy by frequency (FreqWordBucketer with the
    frequencies counted on the reference, ``calc_statistics``): a word's
    bucket is its count in the whole reference; an output word matches while
    the segment's reference has an unmatched occurrence of it left. Returns an
    int64 array ``[segment, 1 + 2 * outputs, bucket]``: row 0 the reference
    totals, then each output's totals and matches.
    """
    import numpy as np

    frequency: Counter[str] = Counter(word for line in reference for word in line)
    n_buckets = len(cutoffs) + 1
    width = 1 + 2 * len(outputs)
    flat = [0] * (len(reference) * width * n_buckets)  # filled in Python: numpy item access is slow
    bucket_of: dict[str, int] = {}

    def bucket(word: str) -> int:
        if word not in bucket_of:
            bucket_of[word] = cutoff_bucket(frequency.get(word, 0), cutoffs)
        return bucket_of[word]

    for i, ref in enumerate(reference):
        base = i * width * n_buckets
        available = Counter(ref)
        for word in ref:
            flat[base + bucket(word)] += 1
        for k, output in enumerate(outputs):
            totals, matched = base + (1 + 2 * k) * n_buckets, base + (2 + 2 * k) * n_buckets
            left = available.copy()
            for word in output[i]:
                b = bucket(word)
                flat[totals + b] += 1
                if left[word] > 0:
                    left[word] -= 1
                    flat[matched + b] += 1
    return np.array(flat, dtype=np.int64).reshape(len(reference), width, n_buckets)


def f_measure(matched: Any, ref_total: Any, out_total: Any) -> Any:
    """compare-mt's word F-measure, elementwise: ``2PR/(P+R)`` with R = m/ref, P = m/out; 0 when nothing matched."""
    import numpy as np

    matched, ref_total, out_total = (np.asarray(a, dtype=np.float64) for a in (matched, ref_total, out_total))
    with np.errstate(divide="ignore", invalid="ignore"):
        rec = matched / ref_total
        prec = matched / out_total
        f = 2 * prec * rec / (prec + rec)
    return np.where(matched == 0, 0.0, f)


def _frequency_buckets(tokens: _Tokens, n: int, seed: int | None) -> tuple[Bucket, ...]:
    """Word F-measure by frequency bucket (first reference); CIs from the ``-pbs`` resamples of segments."""
    import numpy as np

    stats = word_frequency_statistics(tokens.references[0], tokens.systems)
    n_seg, width, n_buckets = stats.shape
    resampled = _interval_columns(stats.reshape(n_seg, width * n_buckets), n, seed).reshape(n, width, n_buckets)
    totals = stats.sum(axis=0)
    buckets = []
    for b, label in enumerate(cutoff_labels(FREQUENCY_CUTOFFS, integers=True)):
        if not totals[:, b].any():
            continue
        n_systems = (width - 1) // 2
        values = tuple(float(f_measure(totals[2 + 2 * k, b], totals[0, b], totals[1 + 2 * k, b]))
                       for k in range(n_systems))
        cis = tuple(_half_width(f_measure(resampled[:, 2 + 2 * k, b], resampled[:, 0, b], resampled[:, 1 + 2 * k, b]))
                    for k in range(n_systems))
        members = tuple(int(i) + 1 for i in np.flatnonzero(stats[:, :, b].sum(axis=1)))
        buckets.append(Bucket("word frequency", label, int(totals[0, b]), values, cis, members))
    return tuple(buckets)


def _document_buckets(metric: Metric[Any], segments: Sequence[Segment], rows: Sequence[Sequence[Sequence[int]]],
                      nrefs: int) -> tuple[Bucket, ...]:
    """One bucket per document (in order of first appearance): the metric's score of its summed statistics."""
    members: dict[str, list[int]] = {}
    for segment in segments:
        if segment.document is not None:
            members.setdefault(segment.document, []).append(segment.number - 1)
    return tuple(
        Bucket("document", document, len(indices),
               tuple(metric.score_from_statistics(metric.aggregate(system_rows[i] for i in indices), nrefs).score
                     for system_rows in rows),
               tuple(None for _ in rows), tuple(i + 1 for i in indices), metric=metric.name)
        for document, indices in members.items())


def _ngram_differences(tokens: _Tokens, segments: Sequence[Segment]) -> tuple[NgramComparison, ...]:
    """For each candidate, the n-grams (orders 1..N) BLEU counted more often for it than for the baseline, and
    the reverse, by the difference of their corpus counts (ties: by text).

    The corpus counts are the sentence view's (``tokens.found``, a column per n-gram): the differences
    of every n-gram are array arithmetic, and only the n-grams at or above a list's 15th difference
    (ties included) are sorted by text.
    """
    import numpy as np

    found = tokens.found
    parts = [(grams, counts) for grams, counts in found.parts() if grams]

    def largest(k: int, sign: int) -> list[tuple[str, ...]]:
        """The n-grams of the NGRAM_LIST_LENGTH largest ``sign * (candidate - baseline)`` above 0, ties by text."""
        differences = [sign * (counts[k] - counts[0]) for _, counts in parts]
        every = np.concatenate(differences) if differences else np.zeros(0, dtype=np.int64)
        positive = every[every > 0]
        if not len(positive):
            return []
        cut = len(positive) - NGRAM_LIST_LENGTH
        floor = int(np.partition(positive, cut)[cut]) if cut > 0 else 1
        near = [(-int(difference[g]), grams[g]) for (grams, _), difference in zip(parts, differences)
                for g in np.flatnonzero(difference >= floor).tolist()]
        return [gram for _, gram in sorted(near)[:NGRAM_LIST_LENGTH]]

    def pair(k: int, gram: tuple[str, ...]) -> tuple[int, int]:
        counts = found.counts[len(gram) - 1]
        g = found.numbers[len(gram) - 1][gram]
        return int(counts[0, g]), int(counts[k, g])

    lists = [(k, [[(g, pair(k, g)) for g in largest(k, sign)] for sign in (1, -1)])
             for k in range(1, found.n_systems)]
    # where each system has each listed n-gram counted: one pass over every system's segments for all the
    # lists (each candidate's list is shown with the segments where it or the baseline has the n-gram); a
    # counted n-gram is made only when its first token starts a listed n-gram of its order
    wanted = {g for _, chosen in lists for side in chosen for g, _ in side}
    first = [{g[0] for g in wanted if len(g) == n} for n in range(1, max(map(len, wanted), default=0) + 1)]
    places: list[dict[tuple[str, ...], array[int]]] = [{} for _ in tokens.systems]
    for k, at in enumerate(places):
        words_of, counted_of = tokens.systems[k], tokens.counted[k]
        for i in range(len(segments)):
            words = words_of[i]
            here = {g for n, (starts, heads) in enumerate(zip(counted_of[i], first), 1) if heads
                    for s in starts if words[s] in heads and (g := tuple(words[s:s + n])) in wanted}
            for gram in here:
                at.setdefault(gram, array("i")).append(i + 1)
    out = []
    for k, chosen in lists:
        listed = [tuple(NgramDifference(" ".join(g), len(g), pair,
                                        tuple(sorted({*places[0].get(g, ()), *places[k].get(g, ())})))
                        for g, pair in side) for side in chosen]
        out.append(NgramComparison(k, listed[0], listed[1]))
    return tuple(out)


__all__ = ["Comparison", "Segment", "SystemSegment", "TokenSpan", "Bucket", "NgramDifference", "NgramComparison",
           "InputFile", "compare", "counted_ngrams", "highlight", "place_tokens", "digest", "cutoff_labels",
           "cutoff_bucket", "word_frequency_statistics", "f_measure", "SIGNIFICANCE_LEVEL"]
