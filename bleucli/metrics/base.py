"""What every metric shares: reference validation, statistics, and result objects.

Every metric turns each segment into a vector of sufficient statistics once;
a corpus score is computed from their element-wise sum. Significance tests
reuse the same two steps on resampled rows, so they need nothing metric-specific.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, repeat, zip_longest
from operator import is_
from typing import Any, ClassVar, Generic, TypeVar

from ..engine.executor import CHUNK_SEGMENTS
from ..errors import BleucliWarning as BleucliWarning  # its old home: still importable from here
from ..errors import InputError, ReferenceShapeError, StreamLengthError
from ..errors import warn as warn
from ..signature import Signature
from ..statistics import Statistics, sum_rows, total

RefData = TypeVar("RefData")

_MISSING = object()


@dataclass(frozen=True, repr=False)
class Score:
    """A metric's result: the score, the statistics behind it and its signature.

    ``str(score)`` and ``repr(score)`` are sacreBLEU's (``BLEU = 50.18 82.4/57.1/...``,
    ``chrF2 = 63.71``), so scripts that print a score print the same line.
    Subclasses are declared with ``repr=False`` to keep it.
    """

    name: str
    score: float
    signature: Signature
    #: bootstrap mean and 95% CI half-width, set by ``corpus_score(..., n_bootstrap=N)`` (sacreBLEU's
    #: ``_mean``/``_ci``); ``str(score)`` then shows ``(μ = mean ± ci)`` as sacreBLEU's does
    mean: float | None = None
    ci: float | None = None
    #: False: the score lies in the metric's own range (checked before printing, a wrong number is a bug);
    #: True: any finite number (a mean of given segment scores: COMET and z-scores can be negative)
    ANY_SIGN: ClassVar[bool] = False

    @classmethod
    def _build(cls, **fields: Any) -> Any:
        """Construct without the frozen dataclass ``__init__``.

        That ``__init__`` goes through ``object.__setattr__`` once per field,
        which is a sizeable share of a sentence-level score built in a loop
        (MBR decoding, data filtering). ``fields`` must name every field.
        """
        score = object.__new__(cls)
        score.__dict__.update(fields)
        return score

    def format(self, width: int = 2, score_only: bool = False, signature: str | Signature = "",
               is_json: bool = False, short: bool = False) -> str:
        """sacreBLEU's ``Score.format``, same arguments and output (:mod:`bleucli.metrics.formatting`).

        ``signature`` is the string to print after the name, as in sacreBLEU
        (``str(metric.get_signature())``); a :class:`Signature` (such as this score's
        own ``score.signature``) is formatted, abbreviated with ``short=True``.
        """
        from .formatting import sacrebleu_format

        if isinstance(signature, Signature):
            signature = signature.format(short)
        return sacrebleu_format(self, width, score_only, signature, is_json)

    def __repr__(self) -> str:
        """sacreBLEU's: ``self.format()``."""
        return self.format()

    __str__ = __repr__

    def details(self) -> str:
        """The verbose part printed after the score (empty for most metrics)."""
        return ""

    def statistics_data(self) -> dict[str, Any]:
        """The metric's own result fields (BLEU's counts and lengths...), for JSON."""
        return {}

    def to_dict(self) -> dict[str, Any]:
        """The unrounded data of this score, JSON-ready (:func:`bleucli.metrics.formatting.score_data`)."""
        from .formatting import score_data

        return score_data(self)


def check_references(references: Any) -> list[Sequence[str | None]]:
    """Reject reference shapes that sacreBLEU would silently misread (its #220).

    References are a list of *streams*: ``references[k][i]`` is the k-th
    reference of segment i. A bare string, or a list of strings (one stream
    passed without its enclosing list), is an error rather than garbage.
    """
    if isinstance(references, str):
        raise ReferenceShapeError("references must be a list of reference streams, not a string; pass [[ref]]"
                                  " for one segment, [refs] for a corpus")
    if not isinstance(references, Sequence) or isinstance(references, bytes):
        raise ReferenceShapeError("references must be a list of reference streams (lists of strings), "
                                  f"not {type(references).__name__}")
    if not references:
        raise InputError("no reference streams given")
    for k, stream in enumerate(references):
        if isinstance(stream, str):
            raise ReferenceShapeError(
                "references must be a list of reference streams: got a list of strings; "
                "wrap a single stream in a list, e.g. [refs]"
            )
        if not isinstance(stream, Sequence) or isinstance(stream, bytes):
            raise ReferenceShapeError(f"reference stream {k + 1} is {type(stream).__name__}, not a list of strings")
    return list(references)


def segments(
    hypotheses: Iterable[str], references: Sequence[Sequence[str | None]]
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Pair each hypothesis with its references, refusing streams of unequal length.

    Works on any iterables, so a streamed corpus is never held in memory here.
    Segments whose references are all ``None`` are an error: there is nothing
    to score them against (sacreBLEU crashes or miscounts on them).
    """
    for position, hyp, refs in _aligned(hypotheses, references):
        if not isinstance(hyp, str):
            raise ReferenceShapeError(f"hypothesis {position} is {type(hyp).__name__}, not a string")
        yield hyp, _present(position, refs)


def _present(position: int, refs: tuple[Any, ...]) -> tuple[str, ...]:
    """A segment's references without the ``None`` of streams that lack it; none left is an error."""
    present = tuple(r for r in refs if r is not None) if any(map(is_, refs, repeat(None))) else refs
    if not present:
        raise InputError(f"segment {position} has no reference (every reference stream has None)")
    if not all(map(isinstance, present, repeat(str))):
        wrong = next(r for r in present if not isinstance(r, str))
        raise ReferenceShapeError(f"a reference of segment {position} is {type(wrong).__name__}, not a string")
    return present


def reference_segments(references: Sequence[Sequence[str | None]]) -> list[tuple[str, ...]]:
    """Each segment's references (``None`` entries dropped), refusing streams of unequal length."""
    lengths = [len(stream) for stream in references]
    if len(set(lengths)) > 1:
        hint = ("; if each inner list holds one segment's references, pass [list(s) for s in zip(*refs)]"
                if len(lengths) > _LISTED_STREAMS else "")
        raise StreamLengthError(f"reference streams have different lengths ({_stream_lengths(lengths)}){hint}")
    # Streams of plain str only (the usual case) need no check per segment: zip's tuples are what
    # _present would return, at a tenth of the cost (one set of types per stream, in C).
    if all(set(map(type, stream)) <= _ONLY_STR for stream in references):
        return list(zip(*references))
    return [_present(position, refs) for position, refs in enumerate(zip(*references), 1)]


_ONLY_STR = frozenset((str,))


def _aligned(hypotheses: Iterable[Any], streams: Sequence[Sequence[Any]]) -> Iterator[tuple[int, Any, tuple]]:
    """zip() that raises :class:`LengthMismatchError` (with the lengths) instead of truncating."""
    hyp_iter = iter(hypotheses)
    position = 0
    for position, row in enumerate(zip_longest(hyp_iter, *streams, fillvalue=_MISSING), 1):
        if any(map(is_, row, repeat(_MISSING))):  # identity only: items may define odd __eq__
            n_hyps = position - 1 if row[0] is _MISSING else position + sum(1 for _ in hyp_iter)
            lengths = [len(s) for s in streams]
            raise StreamLengthError(_transposed(n_hyps, lengths) or (
                f"hypothesis and reference streams have different lengths "
                f"(hypotheses have {n_hyps} segments, {_stream_lengths(lengths)})"
            ))
        yield position, row[0], row[1:]


def check_stream_lengths(hypotheses: Sequence[Any], references: Sequence[Sequence[Any]],
                         test_set: str | None = None) -> None:
    """Refuse a system and reference streams of different lengths (sacreBLEU's ``sanity_check_lengths``)."""
    try:
        for _ in _aligned(hypotheses, references):
            pass
    except StreamLengthError as error:
        if test_set is None:
            raise
        raise StreamLengthError(f"{error} (test set {test_set})") from None


#: How many reference streams a length message names before it summarizes the rest.
_LISTED_STREAMS = 3


def _stream_lengths(lengths: Sequence[int]) -> str:
    """``reference stream 1 has 2, ...``: at most :data:`_LISTED_STREAMS` streams, then a count of the rest."""
    listed = ", ".join(f"reference stream {k + 1} has {n}" for k, n in enumerate(lengths[:_LISTED_STREAMS]))
    rest = len(lengths) - _LISTED_STREAMS
    if rest > 0:
        others = sorted(set(lengths[_LISTED_STREAMS:]))
        spread = f"{others[0]}" if len(others) == 1 else f"{others[0]} to {others[-1]}"
        listed += f" and {rest} more stream{'s' if rest > 1 else ''} of {spread}"
    return listed


def _transposed(n_hyps: int, lengths: Sequence[int]) -> str | None:
    """The message for references given segment by segment (one list per hypothesis), or ``None``."""
    if n_hyps < 2 or len(lengths) != n_hyps or len(set(lengths)) != 1 or lengths[0] == n_hyps:
        return None
    width = lengths[0]
    fix = "pass [refs] not [[r] for r in refs]" if width == 1 else "pass [list(s) for s in zip(*refs)]"
    return (f"references look transposed: {len(lengths)} streams of {width} segment{'s' if width > 1 else ''} "
            f"for {n_hyps} hypotheses; {fix}")


def chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Consecutive lists of ``size`` items (the last may be shorter): how corpora are cut into work."""
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def check_strings(values: Any, what: str) -> list[str]:
    """A non-empty list of strings (``what``: ``hypotheses``, ``references``), or an :class:`InputError`."""
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise ReferenceShapeError(f"{what} must be a list of strings, not {type(values).__name__}")
    if not values:
        raise InputError(f"no {what} given")
    if not all(map(isinstance, values, repeat(str))):
        wrong = next(v for v in values if not isinstance(v, str))
        raise ReferenceShapeError(f"{what} must be strings, got {type(wrong).__name__}")
    return list(values)


def count_references(references: Sequence[Sequence[str | None]]) -> int | str:
    """``nrefs`` for the signature: the count, or ``var`` when segments differ."""
    counts = {sum(r is not None for r in refs) for refs in zip(*references)}
    return counts.pop() if len(counts) == 1 else "var"


class Metric(ABC, Generic[RefData]):
    """A metric built from per-segment sufficient statistics.

    A subclass says how to make one segment's references ready for matching
    (:meth:`prepare_references`), how to turn one hypothesis into a
    statistics row against them (:meth:`segment_statistics`) and how to score
    a summed row (:meth:`score_from_statistics`). Everything else (corpora,
    chunks of several systems, sentence scores, the signature) is shared.
    """

    name: str = ""

    #: Global signature fields every score of this metric carries (a test set's
    #: ``test``/``lang``...): set once when the run's metrics are built, so that
    #: every mode reports them without patching scores afterwards.
    signature_fields: dict[str, str] = {}

    def __init__(self, references: Sequence[Sequence[str | None]] | None = None) -> None:
        #: ``bs``/``seed`` of the last ``corpus_score(..., n_bootstrap=N)``, for :meth:`get_signature`
        self._resampling: dict[str, object] = {}
        self._nrefs: int | str | None = None
        self._ref_cache: list[RefData] | None = None
        if references is not None:
            refs = check_references(references)
            # kept for the whole corpus: the lightest form (shared=False)
            self._ref_cache = [self.prepare_references(r, shared=False) for r in reference_segments(refs)]
            self._nrefs = count_references(refs)

    @classmethod
    def from_options(cls, options: Any, references: Sequence[Sequence[str | None]] | None = None,
                     trg_lang: str = "", models: dict[str, Any] | None = None) -> Metric[Any]:
        """The metric configured by its options record (how the registry builds every metric).

        The default passes the record's fields as keyword arguments of the
        constructor; a metric whose constructor names them otherwise, or needs
        the target language, overrides this.
        """
        return cls(**options._asdict(), references=references)

    # -- what a metric defines --------------------------------------------------
    @abstractmethod
    def prepare_references(self, references: tuple[str, ...], shared: bool) -> RefData:
        """One segment's references, made ready for matching.

        ``shared`` says that many hypotheses will be matched against them
        (several systems, MBR decoding), so reusable tables pay off; otherwise
        the metric returns its lightest form (tokens only), which is also what
        a metric built with ``references=`` keeps for every segment.
        Whatever is returned, :meth:`segment_statistics` accepts it: the
        kinds of reference data are one protocol, not a type switch.
        """

    @abstractmethod
    def segment_statistics(self, hypothesis: str, references: RefData) -> list[Any]:
        """The sufficient statistics of one hypothesis against its prepared references."""

    @abstractmethod
    def score_from_statistics(self, statistics: Sequence[Any], nrefs: int | str | None = None) -> Score:
        """Score a (summed) statistics vector; ``nrefs`` for the signature (default: the last call's)."""

    @abstractmethod
    def _signature_fields(self) -> dict[str, object]:
        """The metric's own signature fields, in order."""

    def _signature_key(self) -> Any:
        """Everything the signature's metric fields depend on, cheap to compare.

        Defaults to the fields themselves; a metric whose fields take some
        formatting to build may return its raw options instead.
        """
        return tuple(self._signature_fields().items())

    def _observe(self, hypotheses: Iterable[str]) -> Iterable[str]:
        """Look at raw hypotheses as they stream by (BLEU's tokenized-period check)."""
        return hypotheses

    def count_suspicious(self, hypotheses: Iterable[str]) -> int:
        """How many hypotheses look like a mistake the user should hear about (BLEU: tokenized text).

        Parallel scoring counts chunk by chunk in the workers and reports the
        sum once per system with :meth:`report_suspicious`.
        """
        return 0

    def report_suspicious(self, count: int) -> None:
        """Warn about one system's ``count`` suspicious hypotheses, if there are enough to matter."""

    # -- shared machinery -------------------------------------------------------
    def signature(self, nrefs: int | str | None = None, **global_fields: object) -> Signature:
        """The signature for ``nrefs`` references (default: those of the last scoring call)."""
        if nrefs is None:
            nrefs = self._nrefs
        if nrefs is None:
            raise ValueError("the signature needs nrefs: score something or pass references first")
        if self.signature_fields:
            global_fields = {**self.signature_fields, **global_fields}
        # Resampling tests score thousands of sums per system and each Score carries
        # the signature: reuse the last one while nothing it depends on has changed.
        key = (nrefs, self._signature_key(), tuple(global_fields.items()))
        cached = self.__dict__.get("_signature_cache")
        if cached is not None and cached[0] == key:
            return cached[1]
        built = Signature.build(self.name, self._signature_fields(), nrefs=nrefs, **global_fields)  # type: ignore[arg-type]
        self._signature_cache = (key, built)
        return built

    def get_signature(self) -> Signature:
        """sacreBLEU's name: the signature of the last scoring call (with ``bs``/``seed`` after a bootstrap)."""
        return self.signature(**self.__dict__.get("_resampling", {}))

    def expect_references(self, count: int | str) -> None:
        """Declare the number of references (for :meth:`get_signature`) when scoring streams directly."""
        self._nrefs = count

    def resampled_score(self, statistics: Sequence[Any]) -> Any:
        """The score of a resampled statistics row, for significance tests.

        sacreBLEU puts the ``.score`` of every resample into a numpy array, so a
        metric whose arithmetic stays in float32 on float32 rows (TER, chrF)
        gives a float32 array, and means and differences are taken in float32.
        Metrics return the unconverted value here to keep that; the default is
        the (Python float) score. (``nrefs`` only labels a signature, which is
        not used here.)
        """
        return self.score_from_statistics(statistics, nrefs=self._nrefs or "?").score

    def resampled_scores_in_c(self, sums: Any, first: int, width: int) -> Any:
        """The scores of columns ``first..first + width`` of bootstrap sums, computed by the C extension.

        ``sums`` is a float32 buffer (resamples x columns, a memoryview) made by
        :mod:`bleucli.significance.c_bootstrap`, which calls this so that a seeded
        bootstrap never imports numpy. The values must be bit for bit those of
        :meth:`scores_from_statistics_matrix` on the same rows, in an ``array.array``
        of that method's precision ('f' for float32, 'd' for float64). The default,
        None, means "not here": the rows are then scored with numpy.
        """
        return None

    def scores_from_statistics_matrix(self, matrix: Any) -> Any:
        """:meth:`resampled_score` of every row of a numpy matrix, as ``np.array`` of the values.

        This is the reference: one call per row. Float rows (bootstrap sums:
        float32) are passed as numpy rows, so that the metric's arithmetic sees
        the same float32 values as in sacreBLEU; integer rows as Python ints,
        the same values and the same results below 2**53, several times faster
        than numpy int64 scalars. The array's dtype is numpy's choice for the
        values (float32 where the metric stays in float32). A metric may
        override this with a faster computation of the same bits
        (:mod:`bleucli.metrics.vectorized`), falling back to this one.
        """
        import numpy

        score = self.resampled_score
        if matrix.dtype.kind in "iub":
            values = [score(row) for row in matrix.tolist()]
        else:
            values = [score(row) for row in matrix]
        return numpy.array(values)

    def aggregate(self, rows: Iterable[Sequence[Any]]) -> list[Any]:
        """Sum statistics rows element-wise (:func:`bleucli.statistics.sum_rows`)."""
        return sum_rows(rows)

    def single_use_statistics(self, hypothesis: str, references: tuple[str, ...]) -> list[Any]:
        """Statistics against references that nothing else will be scored against."""
        return self.segment_statistics(hypothesis, self.prepare_references(references, False))

    def _rows(
        self, hypotheses: Iterable[str], references: Sequence[Sequence[str | None]] | None
    ) -> Iterator[list[Any]]:
        if references is not None:
            refs = check_references(references)
            self._nrefs = count_references(refs)
            for hyp, seg_refs in segments(hypotheses, refs):
                yield self.single_use_statistics(hyp, seg_refs)
            return
        statistics = self.segment_statistics
        for hyp, info in self._cached_segments(hypotheses):
            yield statistics(hyp, info)

    def _cached_segments(self, hypotheses: Iterable[str]) -> Iterator[tuple[str, RefData]]:
        """Each hypothesis with its segment's references kept at construction (``references=``)."""
        if self._ref_cache is None:
            raise InputError("no references given, and none were given when the metric was built")
        for position, hyp, (info,) in _aligned(hypotheses, [self._ref_cache]):
            if not isinstance(hyp, str):
                raise ReferenceShapeError(f"hypothesis {position} is {type(hyp).__name__}, not a string")
            yield hyp, info

    def corpus_statistics(
        self, hypotheses: Iterable[str], references: Sequence[Sequence[str | None]] | None = None
    ) -> list[list[Any]]:
        """Per-segment statistics, one row per segment (for resampling tests)."""
        _check_hypotheses(hypotheses)
        return list(self._rows(self._observe(hypotheses), references))

    def corpus_score(
        self, hypotheses: Iterable[str], references: Sequence[Sequence[str | None]] | None = None,
        n_bootstrap: int = 1,
    ) -> Score:
        """Score a corpus: ``hypotheses[i]`` against ``references[k][i]`` for every k.

        ``n_bootstrap`` > 1 adds sacreBLEU's bootstrap estimate (its ``-ci``:
        ``score.mean``, ``score.ci``, ``bs:``/``seed:`` in the signature), seeded by
        ``BLEUCLI_SEED``, else ``SACREBLEU_SEED``, else 12345 (``none``: unseeded).
        """
        _check_hypotheses(hypotheses)
        self._resampling = {}
        if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int):
            raise InputError(f"n_bootstrap must be an integer, got {n_bootstrap!r}")
        if n_bootstrap > 1:
            return self._bootstrapped(hypotheses, references, n_bootstrap)
        if references is None:  # references cached at construction
            rows = self._rows(self._observe(hypotheses), None)
            parts = (Statistics.of_rows(chunk) for chunk in chunks(rows, CHUNK_SEGMENTS))
        else:
            refs = check_references(references)
            self._nrefs = count_references(refs)
            parts = (self.chunk_statistics([[hyp for hyp, _ in chunk]], [seg_refs for _, seg_refs in chunk])[0]
                     for chunk in chunks(segments(self._observe(hypotheses), refs), CHUNK_SEGMENTS))
        summed = total(parts)
        if summed is None:
            raise InputError("nothing to score: the corpus has no segments")
        return self.score_from_statistics(summed.totals(), self._nrefs)

    def _bootstrapped(self, hypotheses: Iterable[str], references: Sequence[Sequence[str | None]] | None,
                      n_bootstrap: int) -> Score:
        """The corpus score with the bootstrap mean and CI of :func:`bleucli.significance.confidence_interval`."""
        import dataclasses
        import os

        from ..options import resolve_seed, seed_label
        from ..significance import confidence_interval

        seed = resolve_seed(os.environ.get("BLEUCLI_SEED", os.environ.get("SACREBLEU_SEED")))
        rows = self.corpus_statistics(hypotheses, references)
        if not rows:
            raise InputError("nothing to score: the corpus has no segments")
        result = confidence_interval(self, rows, n_bootstrap, seed, self._nrefs)
        self._resampling = {"bs": n_bootstrap, "seed": seed_label(seed)}
        return dataclasses.replace(result.corpus, signature=result.signature, mean=result.mean, ci=result.ci)

    def chunk_rows(
        self, systems: Sequence[Sequence[str]], references: Sequence[tuple[str, ...]]
    ) -> list[Any]:
        """Per-segment statistics ``[system][segment]`` of a chunk of segments.

        Each system's rows are a sequence of rows: a list here, a
        :class:`~bleucli.engine.rows.RowMatrix` (one int64 block) from the compiled BLEU and chrF.

        ``systems[k][i]`` is system k's hypothesis for segment i and
        ``references[i]`` that segment's references. With one system each
        segment's references are used once (their lightest form); with
        several they are prepared once for all systems, and a hypothesis that
        several systems share is scored once.
        """
        if len(systems) == 1:
            return [list(map(self.single_use_statistics, systems[0], references))]
        rows: list[list[list[Any]]] = [[] for _ in systems]
        prepare, statistics = self.prepare_references, self.segment_statistics
        for refs, *hyps in zip(references, *systems):
            # Each segment's references are used by every system at once, then
            # dropped: keeping a chunk's worth alive costs more (cache misses) than it saves.
            info = prepare(refs, True)
            # Systems often agree on a segment (about one hypothesis in eight across
            # the 16 WMT17 en-de systems): score each distinct hypothesis once.
            scored: dict[str, list[Any]] = {}
            for per_system, hyp in zip(rows, hyps):
                row = scored.get(hyp)
                if row is None:
                    row = scored[hyp] = statistics(hyp, info)
                per_system.append(row)
        return rows

    def chunk_statistics(
        self, systems: Sequence[Sequence[str]], references: Sequence[tuple[str, ...]]
    ) -> list[Statistics]:
        """The :class:`Statistics` of each system over a chunk of segments (see :meth:`chunk_rows`)."""
        return [Statistics.of_rows(rows) for rows in self.chunk_rows(systems, references)]

    def sentence_scores(self, hypotheses: Iterable[str], references: Sequence[str]) -> list[Score]:
        """Score many hypotheses against one set of references (MBR decoding, reranking).

        The references are prepared once, for sharing, and reused for every
        hypothesis; each result equals ``sentence_score(hypothesis, references)``.
        """
        if isinstance(references, str) or not all(map(isinstance, references, repeat(str))):
            raise InputError("sentence_scores takes a list of reference strings for one segment")
        if isinstance(hypotheses, str):
            raise InputError("sentence_scores takes a list of hypothesis strings")
        if not references:
            raise InputError("no references given")
        info = self.prepare_references(tuple(references), True)
        nrefs = self._nrefs = len(references)
        score, statistics = self.score_from_statistics, self.segment_statistics
        return [score(statistics(h, info), nrefs) for h in hypotheses]

    def pairwise_scores(self, hypotheses: Sequence[str], references: Sequence[str]) -> list[list[float]]:
        """``[i][j]``: the sentence score of hypothesis i against reference j alone (MBR matrices).

        Each cell equals ``sentence_score(hypotheses[i], [references[j]]).score``. BLEU and chrF
        prepare each reference once and tokenize each hypothesis once (their :meth:`_pairwise_matrix`).
        """
        hyps = check_strings(hypotheses, "hypotheses")
        refs = check_strings(references, "references")
        self.expect_references(1)
        return self._pairwise_matrix(hyps, refs)

    def _pairwise_matrix(self, hypotheses: list[str], references: list[str]) -> list[list[float]]:
        """The matrix of :meth:`pairwise_scores` for checked, non-empty lists; a metric may do it faster."""
        return [[self.sentence_score(h, [r]).score for r in references] for h in hypotheses]

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Score:
        """Score one hypothesis against its references (a list of strings)."""
        if not isinstance(hypothesis, str):
            raise InputError("sentence_score takes one hypothesis string")
        if isinstance(references, str) or not all(map(isinstance, references, repeat(str))):
            raise InputError("sentence_score takes a list of reference strings for one segment")
        if not references:
            raise InputError("no references given")
        # The statistics of a one-segment corpus, without the corpus machinery around them.
        self._nrefs = len(references)
        return self.score_from_statistics(self.single_use_statistics(hypothesis, tuple(references)), self._nrefs)


def _check_hypotheses(hypotheses: object) -> None:
    """A list (or any iterable) of strings; anything else is an InputError, not a TypeError from deep inside."""
    if isinstance(hypotheses, (str, bytes)):
        raise ReferenceShapeError("hypotheses must be a list of strings, not a single string; pass [hypothesis]")
    if not isinstance(hypotheses, Iterable):
        raise ReferenceShapeError(f"hypotheses must be a list of strings, not {type(hypotheses).__name__}")
