"""Output of BLEU's variants (Self-BLEU, iBLEU, GLEU, Google-BLEU) and of pairwise matrices.

The shapes follow the scoring command's: text is ``NAME|signature = score``
(plus details for some), JSON an object with ``name``, ``score`` rounded to
``-w``, ``signature``, every signature field, then ``unrounded_score`` and the
variant's own fields. Non-finite values are refused before anything is printed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..render.records import rounded

if TYPE_CHECKING:  # pragma: no cover
    from ..signature import Signature


def _check_finite(name: str, value: float) -> None:
    """Never print inf or NaN. Only a smoothing value near the float maximum makes them (100 * k overflows),
    so the error is the option's (exit 2), as for the scoring command's -ci on an infinite score."""
    if not math.isfinite(value):
        from ..errors import OptionError

        raise OptionError(f"{name} is {value!r}, not a finite number: the smoothing value overflows "
                          "(a smaller --smooth-value gives finite scores)")


def variant_line(name: str, signature: Signature, score: float, width: int, short: bool = False,
                 details: str = "") -> str:
    """``NAME|signature = score[ details]``."""
    _check_finite(name, score)
    line = f"{name}|{signature.format(short)} = {score:.{width}f}"
    return f"{line} {details}" if details else line


def variant_record(name: str, signature: Signature, score: float, extra: dict[str, Any]) -> dict[str, Any]:
    """The unrounded data of a variant's score (its ``to_dict()``)."""
    return {"name": name, "score": score, "signature": signature.format(),
            "signature_fields": signature.to_dict(), **extra}


def variant_json(record: dict[str, Any], width: int, short: bool, signature: Signature) -> str:
    """The CLI's JSON object: the score rounded to ``width``, then fields, then the unrounded data."""
    _check_finite(record["name"], record["score"])
    printed: dict[str, Any] = {"name": record["name"], "score": rounded(record["score"], width),
                               "signature": signature.format(short)}
    printed.update(signature.to_dict())
    printed["unrounded_score"] = record["score"]
    printed.update((k, v) for k, v in record.items() if k not in ("name", "score", "signature"))
    return json.dumps(printed, ensure_ascii=False, allow_nan=False)


def matrix_json_line(matrix: Sequence[Sequence[float]], extra: dict[str, Any] | None = None) -> str:
    """One JSONL line of a pairwise matrix: ``{"scores": [[...], ...], ...}`` (unrounded floats)."""
    for row in matrix:
        for value in row:
            _check_finite("pairwise score", value)
    return json.dumps({**(extra or {}), "scores": [list(row) for row in matrix]}, ensure_ascii=False,
                      allow_nan=False)


def scores_json_line(scores: Sequence[float], extra: dict[str, Any] | None = None) -> str:
    """One JSONL line of one score per hypothesis: ``{"scores": [...], ...}`` (unrounded floats)."""
    for value in scores:
        _check_finite("aggregate score", value)
    return json.dumps({**(extra or {}), "scores": list(scores)}, ensure_ascii=False, allow_nan=False)


def sentence_gleu_line(number: int, data: dict[str, Any], output_format: str, width: int) -> str:
    """One sentence of ``bleucli gleu --sentence-level``: JSON (unrounded, ``ci`` null when undefined) or text."""
    if output_format == "json":
        return json.dumps({"sentence": number, **data}, ensure_ascii=False, allow_nan=False)
    low, high = data["ci"] if data["ci"] is not None else (math.nan, math.nan)
    return f"{number}\t{data['mean']:.{width}f}\t{data['std']:.{width}f}\t[{low:.{width}f}, {high:.{width}f}]"
