"""The data behind ``bleucli compare``: two or more systems, corpus and sentence by sentence.

Every number comes from bleucli's own core, so a report can never disagree
with the scoring command:

* corpus scores from :func:`bleucli.streaming.stream_statistics` (what
  ``bleucli REF -i SYS...`` prints);
* bootstrap means, 95% CIs and p-values from
  :func:`bleucli.significance.paired_test` on the rows of
  :func:`bleucli.streaming.stream_rows` (what ``-pbs``/``-par`` print, same
  seed, same labels);
* sentence BLEU from the metric's ``score_from_statistics`` on each segment's
  row with effective order on (what ``-sl`` prints).

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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import InputError, OptionError

if TYPE_CHECKING:  # pragma: no cover
    from .metrics.base import Metric, Score
    from .metrics.bleu import BLEU
    from .options import RunOptions
    from .significance import PairedResult

#: p-values at or below this are called significant (sacreBLEU's star; ``--fail-if-worse``).
SIGNIFICANCE_LEVEL = 0.05
#: Metrics where a lower score is better.
LOWER_IS_BETTER = frozenset({"TER"})
#: Reference-length buckets (tokens of the first reference, BLEU's tokenization): upper bounds, inclusive.
LENGTH_BUCKETS = (10, 20, 30, 40, 60)

_ENTITIES = (('&', '&amp;'), ('"', '&quot;'), ('<', '&lt;'), ('>', '&gt;'))


@dataclass(frozen=True)
class TokenSpan:
    """One BLEU token of a displayed hypothesis: characters ``[start, end)``.

    ``order`` is the longest counted n-gram the token belongs to (0: no
    counted match); ``differs`` marks tokens the other system lacks.
    """

    start: int
    end: int
    order: int
    differs: bool


@dataclass(frozen=True)
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
    spans: tuple[TokenSpan, ...]
    #: tokens that could not be placed on the displayed characters (normalised by the tokenizer)
    unplaced: int

    @property
    def totals(self) -> tuple[int, ...]:
        order = len(self.matches)
        return self.statistics[2 + order: 2 + 2 * order]


@dataclass(frozen=True)
class Segment:
    """One line of the test set: its references, optional source and every system's output."""

    number: int
    references: tuple[str, ...]
    systems: tuple[SystemSegment, ...]
    source: str | None = None


@dataclass(frozen=True)
class Bucket:
    """Segments grouped by a property; BLEU per system from the group's summed statistics."""

    kind: str
    label: str
    count: int
    bleu: tuple[float, ...]
    #: 1-based segment numbers in the bucket (the report filters its table on them)
    segments: tuple[int, ...] = field(repr=False, default=())


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
    inputs: tuple[InputFile, ...]
    command: str
    test: str
    resamples: int
    seed: int | None
    max_order: int
    tokenizer: str

    @property
    def metric_names(self) -> tuple[str, ...]:
        return tuple(score.name for score in self.scores[0])

    @property
    def paired(self) -> tuple[PairedResult, ...]:
        """The results whose p-values the report shows (the chosen test)."""
        return self.randomization if self.test == "ar" else self.bootstrap

    def p_value(self, system: int, metric: int) -> float | None:
        return None if system == 0 else self.paired[metric].rows[system].p_value

    def delta(self, system: int, metric: int) -> float:
        return self.scores[system][metric].score - self.scores[0][metric].score

    def worse(self, system: int, metric: int) -> bool:
        """Whether ``system`` is significantly worse than the baseline on ``metric`` (p <= 0.05)."""
        p_value = self.p_value(system, metric)
        if p_value is None or p_value > SIGNIFICANCE_LEVEL:
            return False
        delta = self.delta(system, metric)
        return delta > 0 if self.metric_names[metric] in LOWER_IS_BETTER else delta < 0

    def worse_systems(self) -> list[tuple[str, str]]:
        """``(system, metric)`` pairs where a candidate is significantly worse than the baseline."""
        return [(self.systems[k], name) for k in range(1, len(self.systems))
                for m, name in enumerate(self.metric_names) if self.worse(k, m)]


# -- highlighting -------------------------------------------------------------------------
def counted_ngrams(hypothesis: Sequence[str], references: Sequence[Sequence[str]],
                   max_order: int) -> list[list[int]]:
    """Start positions of the hypothesis n-grams BLEU's clipping counts, per order.

    Each distinct n-gram is counted up to its largest count in one reference;
    the first occurrences are the counted ones.
    """
    counted: list[list[int]] = []
    for n in range(1, max_order + 1):
        allowed: Counter[tuple[str, ...]] = Counter()
        for ref in references:
            ref_counts = Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
            for gram, count in ref_counts.items():
                if count > allowed[gram]:
                    allowed[gram] = count
        starts = []
        for i in range(len(hypothesis) - n + 1):
            gram = tuple(hypothesis[i:i + n])
            if allowed[gram] > 0:
                allowed[gram] -= 1
                starts.append(i)
        counted.append(starts)
    return counted


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
    if lowercase:
        pieces = [c.lower() for c in line]
        text = "".join(pieces)
        offsets = [i for i, piece in enumerate(pieces) for _ in piece] + [len(line)]
    else:
        text, offsets = line, list(range(len(line) + 1))
    places: list[tuple[int, int] | None] = []
    cursor = 0
    for token in tokens:
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


def _written_forms(token: str) -> list[str]:
    forms = [token]
    escaped = token
    for plain, entity in _ENTITIES:
        escaped = escaped.replace(plain, entity)
    if escaped != token:
        forms.append(escaped)
    return forms


def highlight(metric: BLEU, hypothesis: str, references: Sequence[str],
              other: str | None) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[TokenSpan, ...], int]:
    """``(matches per order, counted starts per order, spans, unplaced tokens)`` of one hypothesis."""
    tokens = metric._tokens(hypothesis)
    ref_tokens = [metric._tokens(ref) for ref in references]
    counted = counted_ngrams(tokens, ref_tokens, metric.max_ngram_order)
    orders = longest_orders(len(tokens), counted)
    available = Counter(metric._tokens(other)) if other is not None else None
    spans = []
    unplaced = 0
    for token, order, place in zip(tokens, orders, place_tokens(hypothesis, tokens, metric.lowercase)):
        differs = False
        if available is not None:
            differs = available[token] <= 0
            available[token] -= 1
        if place is None:
            unplaced += 1
            continue
        spans.append(TokenSpan(place[0], place[1], order, differs))
    return (tuple(len(s) for s in counted), tuple(tuple(s) for s in counted), tuple(spans), unplaced)


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
) -> Comparison:
    """Score and compare ``systems`` (the first is the baseline) as ``options`` say.

    ``options.significance.test`` chooses the p-values (``bs`` by default,
    ``ar``); the bootstrap always runs, for the CIs. BLEU is always computed
    (the sentence table and its highlighting are BLEU's); ``-m`` adds chrF
    and TER to the systems table. ``signature_fields`` are a test set's
    (``test:``, ``lang:``...), as the scoring command gives its metrics;
    ``test_set`` is ``(name, sha256 of its reference data)`` for the header.
    """
    from .significance import paired_system_names, paired_test
    from .streaming import Streams, stream_rows, stream_statistics

    if len(systems) < 2:
        raise OptionError("compare needs a baseline and at least one other system: -i BASELINE SYS...")
    if source is not None and len(source) != len(references[0]):
        raise InputError(f"has {len(source)} lines, the references {len(references[0])}", source_name)
    metric_options = options.metrics
    requested = tuple(dict.fromkeys(("bleu", *(name.lower() for name in metric_options.requested))))
    metric_options = metric_options._replace(requested=requested,
                                             bleu=metric_options.bleu._replace(effective_order=False))
    target = options.testset.target_language
    metrics = metric_options.build(None, target, signature_fields)  # type: ignore[arg-type]
    sentence_metric: BLEU = metric_options._replace(  # type: ignore[assignment]
        requested=("bleu",), bleu=metric_options.bleu._replace(effective_order=True)).build(
        None, target, signature_fields)[0]  # type: ignore[arg-type]
    bleu_index = [m.name for m in metrics].index("BLEU")
    streams = Streams(list(system_names), systems, list(reference_names), references)
    nrefs = len(references)
    sums = stream_statistics(metrics, streams, options.jobs)
    scores = tuple(tuple(metric.score_from_statistics(per_metric[k].totals(), nrefs)
                         for metric, per_metric in zip(metrics, sums)) for k in range(len(systems)))
    rows = stream_rows(metrics, streams, options.jobs)
    significance = options.significance
    test = "ar" if significance.test == "ar" else "bs"
    labels = paired_system_names(list(system_names))

    def run_test(kind: str, n: int) -> tuple[PairedResult, ...]:
        return tuple(paired_test(kind, metric, per_metric[0], per_metric[1:], n,  # type: ignore[arg-type]
                                 significance.seed, names=labels, jobs=options.jobs, nrefs=nrefs)
                     for metric, per_metric in zip(metrics, rows))

    bootstrap = run_test("bs", significance.paired_bs_n)
    randomization = run_test("ar", significance.paired_ar_n) if test == "ar" else ()
    resamples = significance.paired_ar_n if test == "ar" else significance.paired_bs_n
    pairwise = _pairwise(metrics[0], rows[0], test, resamples, significance.seed, options.jobs, nrefs) \
        if len(systems) > 2 else ()
    segments = _segments(sentence_metric, systems, references, rows[bleu_index], source, nrefs)
    inputs = [InputFile("test set", test_set[0], test_set[1])] if test_set is not None else []
    inputs += [InputFile("reference", name, digest(lines)) for name, lines in zip(reference_names, references)]
    if source is not None:
        inputs.append(InputFile("source", source_name or "source", digest(source)))
    inputs += [InputFile("system", name, digest(lines)) for name, lines in zip(system_names, systems)]
    return Comparison(
        systems=tuple(system_names), scores=scores, bootstrap=bootstrap, randomization=randomization,
        pairwise=pairwise, segments=segments,
        buckets=_length_buckets(sentence_metric, metrics[bleu_index], segments, rows[bleu_index], nrefs),
        inputs=tuple(inputs), command=command, test=test, resamples=resamples, seed=significance.seed,
        max_order=sentence_metric.max_ngram_order, tokenizer=sentence_metric.tokenizer.signature,
    )


def _pairwise(metric: Metric[Any], rows: Sequence[Any], test: str, n: int, seed: int | None, jobs: int,
              nrefs: int) -> tuple[tuple[float | None, ...], ...]:
    """p-values of every pair (i < j), system i as the baseline, on the primary metric."""
    from .significance import paired_test

    size = len(rows)
    matrix: list[list[float | None]] = [[None] * size for _ in range(size)]
    for i in range(size - 1):
        result = paired_test(test, metric, rows[i], rows[i + 1:], n, seed, jobs=jobs,  # type: ignore[arg-type]
                             nrefs=nrefs)
        for j, row in enumerate(result.rows[1:], i + 1):
            matrix[i][j] = matrix[j][i] = row.p_value
    return tuple(tuple(row) for row in matrix)


def _segments(metric: BLEU, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]],
              rows: Sequence[Sequence[Sequence[int]]], source: Sequence[str] | None,
              nrefs: int) -> tuple[Segment, ...]:
    out = []
    for i, refs in enumerate(zip(*references)):
        hypotheses = [system[i] for system in systems]
        entries = []
        for k, hypothesis in enumerate(hypotheses):
            row = tuple(int(v) for v in rows[k][i])
            score = metric.score_from_statistics(row, nrefs)
            other = hypotheses[1] if k == 0 else hypotheses[0]
            matches, counted, spans, unplaced = highlight(metric, hypothesis, refs, other)
            entries.append(SystemSegment(hypothesis, row, score.score, score.bp, matches, counted, spans,
                                         unplaced))
        out.append(Segment(i + 1, tuple(refs), tuple(entries), source[i] if source is not None else None))
    return tuple(out)


def _length_buckets(sentence_metric: BLEU, metric: Metric[Any], segments: Sequence[Segment],
                    rows: Sequence[Sequence[Sequence[int]]], nrefs: int) -> tuple[Bucket, ...]:
    """Reference-length buckets, each with corpus BLEU from its summed statistics (not a mean)."""
    bounds = [*LENGTH_BUCKETS, None]
    members: list[list[int]] = [[] for _ in bounds]
    for segment in segments:
        length = len(sentence_metric._tokens(segment.references[0]))
        slot = next(b for b, bound in enumerate(bounds) if bound is None or length <= bound)
        members[slot].append(segment.number - 1)
    buckets = []
    low = 0
    for bound, indices in zip(bounds, members):
        label = f"{low}-{bound}" if bound is not None else f">{low - 1}"
        if bound is not None:
            low = bound + 1
        if not indices:
            continue
        bleu = tuple(metric.score_from_statistics(metric.aggregate(system_rows[i] for i in indices), nrefs).score
                     for system_rows in rows)
        buckets.append(Bucket("reference length", label, len(indices), bleu, tuple(i + 1 for i in indices)))
    return tuple(buckets)


__all__ = ["Comparison", "Segment", "SystemSegment", "TokenSpan", "Bucket", "InputFile", "compare",
           "counted_ngrams", "highlight", "place_tokens", "digest", "SIGNIFICANCE_LEVEL"]
