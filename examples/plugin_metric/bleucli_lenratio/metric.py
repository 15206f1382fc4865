"""LenRatio: 100 x the total hypothesis length over the total closest reference length.

Each segment's statistics are ``[hypothesis length, closest reference
length]`` (the reference whose length is closest to the hypothesis's, the
shorter one on a tie, as BLEU's brevity penalty picks it). The corpus score
is ``100 * sum(hypothesis lengths) / sum(reference lengths)`` (0 when there
are no reference units). 100 means the output is as long as the
references; higher means longer output. It is a diagnostic of length, not
of quality: higher is not better, and the registry entry leaves
``lower_is_better`` at False only to say which way the number grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bleucli.errors import OptionError
from bleucli.metrics.base import Metric, Score

from . import TOKENIZERS


@dataclass(frozen=True, repr=False)  # repr=False keeps bleucli's sacreBLEU-style line
class LenRatioScore(Score):
    """A LenRatio result with the two summed lengths behind it."""

    hyp_length: int = 0
    ref_length: int = 0

    def details(self) -> str:
        """Printed after the score, as BLEU prints its counts."""
        return f"{self.hyp_length}/{self.ref_length}"

    def statistics_data(self) -> dict[str, Any]:
        """The metric's own fields in the JSON record."""
        return {"hyp_length": self.hyp_length, "ref_length": self.ref_length}


def length_ratio(hyp_length: int, ref_length: int) -> float:
    """The score in percent (0 without reference units)."""
    return 100.0 * hyp_length / ref_length if ref_length > 0 else 0.0


class LenRatio(Metric[tuple[int, ...]]):
    """The length ratio, built by the registry with ``LenRatio(tokenize=..., references=...)``."""

    name = "LenRatio"

    def __init__(self, tokenize: str = "split", references: Sequence[Sequence[str | None]] | None = None) -> None:
        if tokenize not in TOKENIZERS:
            raise OptionError(f"lenratio: unknown tokenize {tokenize!r} (choose from: {', '.join(TOKENIZERS)})")
        self.tokenize = tokenize
        super().__init__(references)  # prepares the references, if given: set the options first

    def _length(self, line: str) -> int:
        if self.tokenize == "chars":
            return sum(not char.isspace() for char in line)
        return len(line.split())

    def prepare_references(self, references: tuple[str, ...], shared: bool) -> tuple[int, ...]:
        return tuple(self._length(ref) for ref in references)

    def segment_statistics(self, hypothesis: str, references: tuple[int, ...]) -> list[int]:
        hyp_length = self._length(hypothesis)
        closest = min(references, key=lambda ref_length: (abs(ref_length - hyp_length), ref_length))
        return [hyp_length, closest]

    def score_from_statistics(self, statistics: Sequence[Any], nrefs: int | str | None = None) -> LenRatioScore:
        if len(statistics) != 2:
            raise ValueError(f"LenRatio expects 2 statistics, got {len(statistics)}")
        hyp_length, ref_length = (int(value) for value in statistics)
        return LenRatioScore(name=self.name, score=length_ratio(hyp_length, ref_length),
                             signature=self.signature(nrefs), hyp_length=hyp_length, ref_length=ref_length)

    def resampled_score(self, statistics: Sequence[Any]) -> Any:
        """The score of a resampled row (significance tests): no Score object needed."""
        hyp_length, ref_length = statistics
        return length_ratio(hyp_length, ref_length)

    def _signature_fields(self) -> dict[str, object]:
        return {"tok": self.tokenize, "ref": "closest"}
