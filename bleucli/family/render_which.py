"""Output of ``bleucli nltk`` and ``bleucli which-bleu``.

Text: ``NAME|signature = score`` (NLTK's scores in its own 0-1 scale, full
precision, as NLTK returns them) and, for ``which-bleu``, an aligned table
of definitions with their difference from sacreBLEU's score. JSON: one
object per score with the signature as a string and as fields.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from ..signature import Signature
    from .which import DefinitionScore


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise InputError(f"the score is not a finite number ({value})")
    return value


def nltk_scores(metric: str, signatures: Sequence[Signature], scores: Sequence[Any], fmt: str, short: bool,
                weights: Sequence[Sequence[float]]) -> str:
    """One line (or object) per weight tuple; ``scores[i]`` may be NLTK's integer 0."""
    if fmt == "json":
        records = [{"name": metric, "score": _finite(score), "signature": sig.format(short),
                    **sig.to_dict(), "weight_tuple": list(weight)}
                   for sig, score, weight in zip(signatures, scores, weights)]
        return json.dumps(records[0] if len(records) == 1 else records, indent=1, allow_nan=False)
    return "\n".join(f"{metric}|{sig.format(short)} = {_finite(score)!r}" for sig, score in zip(signatures, scores))


def nltk_sentences(scores: Sequence[Sequence[Any]], fmt: str) -> str:
    """Sentence scores, one line per segment (several weight tuples: tab-separated)."""
    if fmt == "json":
        return json.dumps([list(row) if len(row) > 1 else row[0] for row in scores], allow_nan=False)
    return "\n".join("\t".join(repr(_finite(v)) for v in row) for row in scores)


def definitions(rows: Sequence[DefinitionScore], fmt: str, width: int, short: bool) -> str:
    if fmt == "json":
        return json.dumps([row.to_dict() for row in rows], indent=1, allow_nan=False)
    name_width = max(len(row.name) for row in rows)
    lines = [f"{'definition':<{name_width}}  {'BLEU':>{width + 4}}  {'delta':>{width + 5}}  signature"]
    for row in rows:
        lines.append(f"{row.name:<{name_width}}  {_finite(row.score):>{width + 4}.{width}f}  "
                     f"{row.delta:>+{width + 5}.{width}f}  {row.metric}|{row.signature.format(short)}")
    return "\n".join(lines)
