"""TER (Snover et al. 2006) with sacreBLEU 2.6's exact numbers.

Statistics per segment are ``[fewest edits over the references, average
reference length]``; the corpus score is ``100 * sum(edits) / sum(lengths)``.
The average is over *all* references, not the closest one, as in sacreBLEU.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..options import TER_DEFAULTS
from .base import Metric, Score
from .ter_edit import shift_edit_distance
from .ter_tokenizer import TercomTokenizer

RefWords = list[list[str]]


@dataclass(frozen=True)
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
    ) -> None:
        self.normalized = bool(normalized)
        self.no_punct = bool(no_punct)
        self.asian_support = bool(asian_support)
        self.case_sensitive = bool(case_sensitive)
        self.tokenizer = TercomTokenizer(self.normalized, self.no_punct, self.asian_support, self.case_sensitive)
        super().__init__(references)

    def _words(self, line: str) -> list[str]:
        return self.tokenizer(line.rstrip()).split()

    def prepare_references(self, references: tuple[str, ...], shared: bool) -> RefWords:
        return [self._words(ref) for ref in references]

    def segment_statistics(self, hypothesis: str, references: RefWords) -> list[float]:
        words = self._words(hypothesis)
        best = None
        total_len = 0
        for ref in references:
            edits = shift_edit_distance(words, ref)
            total_len += len(ref)
            if best is None or edits < best:
                best = edits
        assert best is not None  # every segment has a reference (checked when segments are paired)
        return [best, total_len / len(references)]

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

    def _signature_fields(self) -> dict[str, object]:
        return {
            "case": "mixed" if self.case_sensitive else "lc",
            "tok": self.tokenizer.signature,
            "norm": self.normalized,
            "punct": not self.no_punct,
            "asian": self.asian_support,
        }
