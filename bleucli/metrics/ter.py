"""TER (Snover et al. 2006) with sacreBLEU 2.6's exact numbers.

Statistics per segment are ``[fewest edits over the references, average
reference length]``; the corpus score is ``100 * sum(edits) / sum(lengths)``.
The average is over *all* references, not the closest one, as in sacreBLEU.

References are tokenized twice, hypotheses once, as sacreBLEU 2.6 does
(``Metric._cache_references`` preprocesses each reference, then
``TER._extract_reference_info`` preprocesses the result again). Only
``normalized=True`` makes the second pass change anything: Tercom's padding
exposes a possessive ``'s`` before a comma, or splits ``,.1`` further, the
second time round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError, SegmentTooLongError
from ..options import TER_DEFAULTS
from .base import Metric, Score
from .compiled import compiled_matcher
from .ter_edit import shift_edit_distance
from .ter_edit import translation_edit_rate as translation_edit_rate  # sacreBLEU's name here
from .ter_tokenizer import TercomTokenizer

RefWords = list[list[str]]
EditsFunction = Callable[[list[str], RefWords], int]


def python_edits(words: list[str], references: RefWords) -> int:
    """The fewest edits from ``words`` to any of ``references`` (:mod:`.ter_edit`, the reference)."""
    return min(shift_edit_distance(words, ref) for ref in references)


def edits_function() -> EditsFunction:
    """The compiled ``ter_edits`` of ``bleucli._speedups`` when it is in use, else :func:`python_edits`.

    Both give the same integers (the tests compare them on real and random
    text); read when a metric is created, as the n-gram matcher is.
    """
    module = compiled_matcher()
    edits = getattr(module, "ter_edits", None)
    return python_edits if edits is None else edits


@dataclass(frozen=True, repr=False)  # str/repr: sacreBLEU's line (Score.__repr__)
class TERScore(Score):
    """A TER result: ``num_edits`` over ``ref_length`` (summed average reference lengths)."""

    num_edits: int = 0
    ref_length: float = 0.0

    def statistics_data(self) -> dict[str, Any]:
        return {"num_edits": self.num_edits, "ref_length": self.ref_length}


def ter_from_statistics(num_edits: float, ref_length: float) -> float:
    """TER in percent; with no reference words, 100 if anything must be edited, else 0."""
    if ref_length > 0:
        return 100 * (num_edits / ref_length)
    return 100.0 if num_edits > 0 else 0.0


class TER(Metric[RefWords]):
    """Translation edit rate, configured like sacreBLEU's ``TER``.

    TER is case-insensitive unless ``case_sensitive``; ``normalized`` applies
    Tercom's tokenization, ``no_punct`` removes punctuation, and
    ``asian_support`` extends either to CJK text (alone it changes nothing).
    """

    name = "TER"

    def __init__(
        self,
        normalized: bool = TER_DEFAULTS.normalized,
        no_punct: bool = TER_DEFAULTS.no_punct,
        asian_support: bool = TER_DEFAULTS.asian_support,
        case_sensitive: bool = TER_DEFAULTS.case_sensitive,
        references: Sequence[Sequence[str | None]] | None = None,
        max_words: int = TER_DEFAULTS.max_words,
    ) -> None:
        if isinstance(max_words, bool) or not isinstance(max_words, int) or max_words < 0:
            raise OptionError(f"max_words must be a whole number >= 0 (0: no limit), got {max_words!r}")
        #: the longest segment (hypothesis or reference, in words) scored; 0: no limit. Not part of the
        #: signature: below it every number is sacreBLEU's, above it there is no number at all.
        self.max_words = max_words
        self.normalized = bool(normalized)
        self.no_punct = bool(no_punct)
        self.asian_support = bool(asian_support)
        self.case_sensitive = bool(case_sensitive)
        self.tokenizer = TercomTokenizer(self.normalized, self.no_punct, self.asian_support, self.case_sensitive)
        #: the edit distance with shifts: compiled, or the pure-Python reference (same numbers)
        self._edits: EditsFunction = edits_function()
        # Without normalization or punctuation removal the tokenizer only lowercases (unless
        # case-sensitive) and collapses whitespace, which str.split() does anyway: the words
        # are those of the tokenizer, without building the joined line and splitting it again.
        self._plain = not (self.normalized or self.no_punct)
        super().__init__(references)

    def _words(self, line: str) -> list[str]:
        if self._plain:
            return line.split() if self.case_sensitive else line.lower().split()
        return self.tokenizer(line.rstrip()).split()

    def _reference_words(self, line: str) -> list[str]:
        """A reference's words: tokenized twice, as sacreBLEU does (see the module docstring)."""
        if self._plain:  # lowercased twice as well: str.lower() need not be idempotent
            return line.split() if self.case_sensitive else line.lower().lower().split()
        return self.tokenizer(self.tokenizer(line.rstrip()).rstrip()).split()

    def prepare_references(self, references: tuple[str, ...], shared: bool) -> RefWords:
        words = [self._reference_words(ref) for ref in references]
        if self.max_words:
            for k, ref in enumerate(words):
                if len(ref) > self.max_words:
                    raise self._too_long("reference", len(ref), None, k)
        return words

    def _too_long(self, side: str, count: int, system: int | None, reference: int) -> SegmentTooLongError:
        return SegmentTooLongError(
            f"TER: {side} of {count:,} words, over the limit of {self.max_words:,} (TER's shift search grows "
            "faster than quadratically with length; raise it with --ter-max-words, 0 for none)",
            system=system, reference=reference,
        )

    def chunk_rows(
        self, systems: Sequence[Sequence[str]], references: Sequence[tuple[str, ...]]
    ) -> list[list[list[Any]]]:
        """As :meth:`Metric.chunk_rows`; a segment over ``max_words`` is refused naming its place in the chunk."""
        try:
            return super().chunk_rows(systems, references)
        except SegmentTooLongError as exc:
            for i, refs in enumerate(references):  # find the first one (a rare path: tokenize again)
                for k, ref in enumerate(refs):
                    if len(self._reference_words(ref)) > self.max_words:
                        exc.segment, exc.system, exc.reference = i, None, k
                        raise
                for s, hyps in enumerate(systems):
                    if len(self._words(hyps[i])) > self.max_words:
                        exc.segment, exc.system = i, s
                        raise
            raise

    def segment_statistics(self, hypothesis: str, references: RefWords) -> list[float]:
        words = self._words(hypothesis)
        if self.max_words and len(words) > self.max_words:
            raise self._too_long("hypothesis", len(words), 0, 0)
        # every segment has a reference (checked when segments are paired)
        return [self._edits(words, references), sum(map(len, references)) / len(references)]

    def score_from_statistics(self, statistics: Sequence[Any], nrefs: int | str | None = None) -> TERScore:
        if len(statistics) != 2:
            raise ValueError(f"TER expects 2 statistics, got {len(statistics)}")
        num_edits, ref_length = statistics
        return TERScore(
            name=self.name,
            score=float(ter_from_statistics(num_edits, ref_length)),
            signature=self.signature(nrefs),
            num_edits=int(num_edits),  # sacreBLEU reports the edit count as an int
            ref_length=float(ref_length),
        )

    def resampled_score(self, statistics: Sequence[Any]) -> Any:
        num_edits, ref_length = statistics
        return ter_from_statistics(num_edits, ref_length)

    def scores_from_statistics_matrix(self, matrix: Any) -> Any:
        """:meth:`resampled_score` of every row at once, bit for bit (:func:`.vectorized.ter_scores`)."""
        from .vectorized import ter_scores

        scores = ter_scores(matrix)
        return super().scores_from_statistics_matrix(matrix) if scores is None else scores

    def _signature_fields(self) -> dict[str, object]:
        return {
            "case": "mixed" if self.case_sensitive else "lc",
            "tok": self.tokenizer.signature,
            "norm": self.normalized,
            "punct": not self.no_punct,
            "asian": self.asian_support,
        }
