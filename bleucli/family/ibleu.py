"""iBLEU (Sun & Zhou 2012, "Joint learning of a dual SMT system for paraphrase generation").

``iBLEU = alpha * BLEU(candidates, references) - (1 - alpha) * BLEU(candidates, sources)``:
adequacy against the references, minus a penalty for copying the source.
Both BLEU terms are sacreBLEU 2.6's (any of bleucli's BLEU options), on its
0..100 scale, computed in exactly that operation order. Corpus level by
default (two corpus BLEU scores); ``sentence_level`` averages the per-segment
iBLEU of sentence BLEU scores (summed left to right, divided by the count).

There is no reference implementation to compare against: the formula is the
definition (Sun & Zhou 2012, eq. 7; α = 0.8 by default, the paper's tuned
range is 0.8-0.9). Not to be confused with Madnani's 2011 "iBLEU", an
interactive tool for viewing BLEU scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, OptionError
from ..options import IBLEU_ALPHA
from ..signature import Signature
from .self_bleu import mean


@dataclass(frozen=True)
class IBLEUScore:
    """iBLEU with its two BLEU terms (corpus scores, or means of sentence scores)."""

    name: str
    score: float
    signature: Signature
    alpha: float
    bleu_references: float
    bleu_source: float

    def format(self, width: int = 4, short: bool = False) -> str:
        from .render import variant_line

        return variant_line(self.name, self.signature, self.score, width, short, self.details(width))

    def details(self, width: int = 4) -> str:
        return f"(BLEU refs = {self.bleu_references:.{width}f}, BLEU source = {self.bleu_source:.{width}f})"

    def to_dict(self) -> dict[str, Any]:
        from .render import variant_record

        # alpha is a signature field (a string in JSON, as every field is), not repeated here
        return variant_record(self.name, self.signature, self.score, {
            "bleu_references": self.bleu_references, "bleu_source": self.bleu_source})


def combine(alpha: float, bleu_references: float, bleu_source: float) -> float:
    """The formula, in its order of operations."""
    return alpha * bleu_references - (1 - alpha) * bleu_source


def check_alpha(alpha: float) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0.0 <= alpha <= 1.0:
        raise OptionError(f"iBLEU alpha must be a number from 0 to 1, got {alpha!r}")
    return float(alpha)


def ibleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    sources: Sequence[str],
    alpha: float = IBLEU_ALPHA,
    metric: Any = None,
    sentence_level: bool = False,
) -> IBLEUScore:
    """iBLEU of ``hypotheses`` (reference streams as for ``BLEU.corpus_score``; one source per segment).

    ``metric`` is the :class:`~bleucli.metrics.bleu.BLEU` used for both terms
    (default: ``BLEU()`` at corpus level, ``BLEU(effective_order=True)`` for
    sentence level, as sacreBLEU's ``corpus_bleu``/``sentence_bleu``).
    """
    from ..metrics.bleu import BLEU

    alpha = check_alpha(alpha)
    if isinstance(sources, str) or isinstance(hypotheses, str):
        raise InputError("hypotheses and sources must be lists of strings")
    hyps, srcs = list(hypotheses), list(sources)
    if len(srcs) != len(hyps):
        raise InputError(f"the source has {len(srcs)} segments but the hypotheses have {len(hyps)}")
    if not hyps:
        raise InputError("nothing to score: no segments")
    if metric is None:
        metric = BLEU(effective_order=sentence_level)
    if sentence_level:
        from ..metrics.base import check_references, reference_segments

        seg_refs = reference_segments(check_references(references))
        if len(seg_refs) != len(hyps):
            raise InputError(f"the references have {len(seg_refs)} segments but the hypotheses have {len(hyps)}")
        single = metric.single_use_statistics
        score = metric.resampled_score
        to_refs = [score(single(h, r)) for h, r in zip(hyps, seg_refs)]
        to_src = [score(single(h, (s,))) for h, s in zip(hyps, srcs)]
        per_segment = [combine(alpha, r, s) for r, s in zip(to_refs, to_src)]
        value, bleu_refs, bleu_src = mean(per_segment), mean(to_refs), mean(to_src)
        nrefs: int | str = len(references)
    else:
        bleu_src = metric.corpus_score(hyps, [srcs]).score
        ref_score = metric.corpus_score(hyps, references)
        bleu_refs = ref_score.score
        nrefs = ref_score.signature.to_dict()["nrefs"]
        value = combine(alpha, bleu_refs, bleu_src)
    fields = {"alpha": f"{alpha:g}", "level": "sentence" if sentence_level else "corpus", **metric._signature_fields()}
    signature = Signature.build("iBLEU", fields, nrefs=nrefs)
    return IBLEUScore("iBLEU", value, signature, alpha, bleu_refs, bleu_src)
