"""How a score formats itself as sacreBLEU's does: its one-line text and its JSON data.

``str(score)``, ``score.format(...)`` and ``score.to_dict()`` of the Python API
are built here, in the core, so that a :class:`~bleucli.metrics.base.Score`
needs nothing from :mod:`bleucli.render`; the CLI's renderers import these
functions from here (render may import the core, never the reverse). Pure
functions, no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .base import Score


def sacrebleu_format(score: Score, width: int = 2, score_only: bool = False, signature: str = "",
                     is_json: bool = False) -> str:
    """sacreBLEU 2.6's ``Score.format``: ``NAME[|signature] = score[ (μ = mean ± ci)][ details]``, or its JSON.

    Without a signature the line is ``NAME = score[ details]``, which is also what
    ``str(score)`` and ``repr(score)`` give in sacreBLEU (``width=2``). The JSON is
    sacreBLEU's ``indent=1`` object: ``name``, ``score`` rounded to ``width``,
    ``signature``, ``verbose_score`` when the metric has details, then each
    signature field as a key. sacreBLEU raises ``ValueError`` for JSON without a
    signature; here the fields are then simply absent.
    """
    value = f"{score.score:.{width}f}"
    details = score.details()
    data: dict[str, object] = {"name": score.name, "score": float(value), "signature": signature}
    if score.mean is not None and score.mean > 0:  # sacreBLEU's test: `if self._mean > 0`
        mean, ci = f"{score.mean:.{width}f}", f"{score.ci:.{width}f}"
        value += f" (μ = {mean} ± {ci})"
        data.update(confidence_mean=float(mean), confidence_var=float(ci), confidence=f"μ = {mean} ± {ci}")
    if is_json:
        import json

        if details:
            data["verbose_score"] = details
        for field in signature.split("|") if signature else ():
            key, _, field_value = field.partition(":")
            data[key] = field_value
        return json.dumps(data, indent=1, ensure_ascii=False)
    if score_only:
        return value
    line = f"{score.name}|{signature} = {value}" if signature else f"{score.name} = {value}"
    return f"{line} {details}" if details else line


def score_data(score: Score) -> dict[str, Any]:
    """The unrounded data of one score (the Python API's ``Score.to_dict()``)."""
    data: dict[str, Any] = {
        "name": score.name,
        "score": score.score,
        "signature": score.signature.format(),
        "signature_fields": score.signature.to_dict(),
    }
    details = score.details()
    if details:
        data["verbose_score"] = details
    data.update(score.statistics_data())
    data["nrefs"] = score.signature.to_dict()["nrefs"]
    if score.mean is not None:  # corpus_score(..., n_bootstrap=N)
        data.update(mean=score.mean, ci=score.ci)
    return data
