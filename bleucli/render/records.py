"""The one JSON schema: what a score, a confidence interval or a systems table is as data.

Two forms of the same record:

* :func:`score_data` is the unrounded data of a score (``Score.to_dict()`` in
  the Python API; the core's, :mod:`bleucli.metrics.formatting`): name, score, signature string and fields, and the
  metric's statistics (BLEU's counts and lengths, chrF's orders, TER's edits).
* :func:`score_record` is what the CLI prints as JSON: **sacreBLEU 2.6's
  object first, key for key** (``name``, ``score`` rounded to ``-w``,
  ``signature``, the ``confidence_*`` keys with ``-ci``, ``verbose_score``,
  then every signature field as a string, ``"nrefs": "1"``), and after it
  bleucli's additions under keys sacreBLEU does not use
  (:data:`BLEUCLI_KEYS`). So a script written for sacreBLEU reads the same
  values, and the types of every key are the same for BLEU, chrF and TER.

Every score is checked before it becomes a record: a NaN or a negative
score is a bug and never printed. BLEU may exceed 100, up to ``inf``, with
floor smoothing above 1 (``-s floor -sv 1e6`` gives 2236.07, ``-sv 1e308``
inf), and sacreBLEU prints those values: so do we, in JSON as sacreBLEU's
``json.dumps`` writes them (``Infinity``, which Python reads back).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..metrics.formatting import score_data as score_data  # the core's, re-exported: one schema

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.base import Score
    from ..significance import ConfidenceResult

#: exp(log(100)) is 100.00000000000004 in floating point: a perfect score may
#: exceed 100 by rounding, exactly as in sacreBLEU, and that is not an error.
_ROUNDING_SLACK = 1e-9

#: Keys bleucli adds to sacreBLEU's JSON objects (never one of sacreBLEU's keys).
BLEUCLI_KEYS = ("unrounded_score", "signature_fields", "mean", "ci", "n_samples", "test_set", "scores")


def _signature_keys() -> frozenset[str]:
    from ..signature import GLOBAL_KEYS, VERSION_KEY, all_metric_keys

    return frozenset([*GLOBAL_KEYS, *all_metric_keys(), VERSION_KEY[0]])


#: Keys sacreBLEU writes as signature fields (strings); statistics never reuse them.
_SIGNATURE_KEYS = _signature_keys()


def check_finite(score: Score) -> None:
    """Never print NaN or an impossible score: that is a bug, not a result.

    BLEU is unbounded above (floor smoothing adds ``-sv`` to every order's
    matches and totals, so ``-sv 1e6`` scores 2236.07 and ``-sv 1e308`` inf, as
    in sacreBLEU); TER too; chrF never exceeds 100. Segment scores given with
    ``--segment-scores`` have any sign.
    """
    if score.ANY_SIGN:  # a mean of given segment scores: any finite number (COMET can be negative)
        if not math.isfinite(score.score):
            raise RuntimeError(f"{score.name} came out as {score.score!r}")
        return
    upper = 100.0 + _ROUNDING_SLACK if score.name.startswith("chrF") else math.inf
    if math.isnan(score.score) or not (0.0 <= score.score <= upper):
        raise RuntimeError(f"{score.name} came out as {score.score!r}")


def rounded(value: float, width: int) -> float:
    """A value as sacreBLEU's JSON writes it: the printed digits read back as a float."""
    return float(f"{value:.{width}f}")


def score_record(
    score: Score,
    width: int = 1,
    confidence: ConfidenceResult | None = None,
    test_set: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON object of one score: sacreBLEU's keys and values first, then bleucli's.

    With ``confidence`` the score is the interval's corpus score and its
    signature (``bs``/``seed`` added) is the interval's.
    """
    check_finite(score)
    signature = confidence.signature if confidence is not None else score.signature
    record: dict[str, Any] = {"name": score.name, "score": rounded(score.score, width),
                              "signature": signature.format()}
    if confidence is not None:
        record["confidence_mean"] = rounded(confidence.mean, width)
        record["confidence_var"] = rounded(confidence.ci, width)  # sacreBLEU's name for the CI half-width
        record["confidence"] = f"μ = {confidence.mean:.{width}f} ± {confidence.ci:.{width}f}"
    details = score.details()
    if details:
        record["verbose_score"] = details
    fields = signature.to_dict()
    record.update(fields)
    # bleucli's additions
    record["unrounded_score"] = score.score
    record["signature_fields"] = fields
    for key, value in score.statistics_data().items():
        if key not in _SIGNATURE_KEYS:  # chrF's beta: only ever sacreBLEU's string, when the signature has it
            record[key] = value
    if confidence is not None:
        record.update(mean=confidence.mean, ci=confidence.ci, n_samples=confidence.n_samples)
    if test_set is not None:
        record["test_set"] = test_set
    return record


def systems_records(names: Sequence[str], scores: Sequence[Sequence[Score]], width: int) -> list[dict[str, Any]]:
    """sacreBLEU's systems table as JSON (``{"system", METRIC: "45.1"}``), each entry with its full ``scores``."""
    entries = []
    for name, row in zip(names, scores):
        entry: dict[str, Any] = {"system": name}
        for score in row:
            check_finite(score)
            entry[score.name] = f"{score.score:.{width}f}"
        entry["scores"] = {score.name: score_record(score, width) for score in row}
        entries.append(entry)
    return entries


def to_json(data: Any, indent: int = 1) -> str:
    """JSON as bleucli prints it: sacreBLEU's indent (1, or 4 for tables), UTF-8, no NaN ever."""
    return _dumps(data, indent=indent)


def _dumps(data: Any, indent: int | None = None) -> str:
    """``json.dumps`` refusing NaN but writing an infinite value as ``Infinity``, as sacreBLEU's JSON does.

    ``json`` is imported here, not at start-up: the plain and ``-b`` outputs (most runs) never need it.
    """
    import json

    try:
        return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False)
    except ValueError:
        if _has_nan(data):
            raise
        return json.dumps(data, indent=indent, ensure_ascii=False)


def _has_nan(data: Any) -> bool:
    if isinstance(data, float):
        return math.isnan(data)
    if isinstance(data, dict):
        return any(_has_nan(value) for value in data.values())
    if isinstance(data, (list, tuple)):
        return any(_has_nan(value) for value in data)
    return False


def json_list(items: Sequence[Any]) -> str:
    """A list the way sacreBLEU joins it by hand (``[``, items separated by ``,`` lines, ``]``)."""
    return "[\n" + ",\n".join(item if isinstance(item, str) else to_json(item) for item in items) + "\n]"


def json_line(data: Any) -> str:
    """One compact JSON object on one line (sentence-level JSON lines)."""
    return _dumps(data)
