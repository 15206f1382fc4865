"""Text, LaTeX and JSON renderings of confidence intervals and paired tests.

Pure functions from result objects (:mod:`bleucli.significance`) to strings;
nothing here prints. The text and LaTeX shapes are sacreBLEU 2.6's, character
for character (with bleucli's signatures); the JSON is sacreBLEU's objects
with bleucli's keys added (:mod:`.records`): each metric's signature in paired
tables, the unrounded ``mean``, ``ci`` and ``n_samples`` of an interval.

Strings are returned without a final newline; the CLI prints them with one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..significance import ConfidenceResult, PairedResult, SystemResult
from ..significance.human_accuracy import CITATION, CITATION_SHORT, human_accuracy, tokenizer_of
from .records import json_list, score_record, to_json
from .tables import fancy_grid, latex_booktabs
from .text import paint as _paint
from .text import signatures_block

#: sacreBLEU marks p <= 0.05 with a star (its explanation says "< 0.05"; the code says <=).
SIGNIFICANCE_LEVEL = 0.05
FORMATS = ("text", "json", "latex")



# -- single system ---------------------------------------------------------------------
def confidence_score(result: ConfidenceResult, width: int = 1) -> str:
    """``45.1 (μ = 44.8 ± 9.6)``: what ``-b`` prints with ``-ci``."""
    return f"{result.score:.{width}f} (μ = {result.mean:.{width}f} ± {result.ci:.{width}f})"


def confidence_line(result: ConfidenceResult, width: int = 1, score_only: bool = False,
                    short: bool = False, color: bool = False) -> str:
    """sacreBLEU's ``-ci`` text line.

    ``BLEU|nrefs:1|bs:1000|seed:12345|... = 45.1 (μ = 44.8 ± 9.6) 70.6/...``.
    Unlike sacreBLEU, the interval is shown even when the bootstrap mean is 0.
    """
    score = f"{result.score:.{width}f}"
    interval = _paint(f"(μ = {result.mean:.{width}f} ± {result.ci:.{width}f})", "cyan", color)
    if score_only:
        return f"{score} {interval}"
    line = f"{result.metric}|{result.signature.format(short)} = {score} {interval}"
    details = result.corpus.details()
    return f"{line} {details}" if details else line


def confidence_data(result: ConfidenceResult, width: int = 1, test_set: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON object of one interval: sacreBLEU's (``confidence_mean``, ``confidence_var``,
    ``confidence``, rounded to ``width``) plus bleucli's unrounded ``mean``, ``ci`` and ``n_samples``."""
    return score_record(result.corpus, width, confidence=result, test_set=test_set)


def confidence_json(results: Sequence[ConfidenceResult], width: int = 1,
                    test_set: dict[str, Any] | None = None) -> str:
    """One object for one metric, a hand-joined list for several (as sacreBLEU prints them)."""
    records = [confidence_data(r, width, test_set) for r in results]
    return to_json(records[0]) if len(records) == 1 else json_list(records)


# -- paired tests ------------------------------------------------------------------------
def format_p_value(p_value: float, color: bool = False) -> str:
    """``(p = 0.0123)*`` when significant at 0.05, else ``(p = 0.0123)`` (red with colour)."""
    text = f"(p = {p_value:.4f})"
    if p_value > SIGNIFICANCE_LEVEL:
        return _paint(text, "red", color)
    return text + "*"


def paired_cell(row: SystemResult, width: int = 1, multiline: bool = True, color: bool = False) -> str:
    """``score (mean ± ci)`` for bootstrap, ``score`` for AR, then the p-value if any."""
    text = f"{row.score:.{width}f}"
    if row.mean is not None and row.ci is not None:
        text += f" ({row.mean:.{width}f} ± {row.ci:.{width}f})"
    if row.p_value is not None:
        text += ("\n" if multiline else " ") + format_p_value(row.p_value, color)
    return text


def _check_paired(results: Sequence[PairedResult]) -> None:
    if not results:
        raise ValueError("no paired results to render")
    first = results[0]
    for other in results[1:]:
        if other.test != first.test or other.n != first.n:
            raise ValueError("paired results of different tests cannot share a table")
        if [r.system for r in other.rows] != [r.system for r in first.rows]:
            raise ValueError("paired results for different systems cannot share a table")


def paired_table(results: Sequence[PairedResult], width: int = 1, fmt: str = "text", color: bool = False) -> str:
    """The systems x metrics table: ``fancy_grid`` for text, booktabs for ``latex``."""
    _check_paired(results)
    if fmt not in ("text", "latex"):
        raise ValueError(f"no table for format '{fmt}' (text or latex)")
    multiline = fmt == "text"
    color = color and multiline
    headers = ["System"]
    for result in results:
        has_ci = any(r.mean is not None for r in result.rows)
        headers.append(result.metric + (" (μ ± 95% CI)" if has_ci else ""))
    rows = []
    for i, first in enumerate(results[0].rows):
        cells = [first.system] + [paired_cell(r.rows[i], width, multiline, color) for r in results]
        if first.is_baseline:
            cells = [_paint(c, "yellow", color) for c in cells]
        rows.append(cells)
    headers = [_paint(h, "cyan", color) for h in headers]
    aligns = ["right"] + ["center"] * len(results)
    return (fancy_grid if multiline else latex_booktabs)(headers, rows, aligns)


def paired_explanation(test: str, n: int, baseline: str, color: bool = False) -> str:
    """The block sacreBLEU prints after the table: what was tested and how to read p."""
    if test == "bs":
        title = f"Paired bootstrap resampling test with {n} resampling trials"
        provided = "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
    elif test == "ar":
        title = f"Paired approximate randomization test with {n} trials"
        provided = "   Actual system score is provided for each metric."
    else:
        raise ValueError(f"unknown paired test '{test}' (bs or ar)")
    bline = _paint("baseline", "yellow", color)
    null = _paint("Null hypothesis", "green", color)
    null_lc = _paint("null hypothesis", "green", color)
    red = _paint("highlighted in red", "red", color)
    rule = "-" * len(title)
    return "\n".join([
        rule, title, rule,
        f" - Each system is pairwise compared to {_paint(baseline, 'yellow', color)}.",
        provided,
        "",
        f" - {null}: the system and the {bline} translations are essentially",
        f"   generated by the same underlying process. For a given system and the {bline},",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        f"   or higher occurring due to chance, under the assumption that the {null_lc} is correct.",
        "",
        f" - Assuming a significance threshold of 0.05, the {null_lc} can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed',
        f'   to chance, hence the system is significantly "different" than the {bline}.',
        f"   Otherwise, the p-values are {red}.",
        "",
        f' - NOTE: Significance does not tell whether a system is "better" than the {bline} but rather',
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
    ])


def paired_data(results: Sequence[PairedResult]) -> list[dict[str, Any]]:
    """One mapping per system: its label, then per metric score/p_value/mean/ci/signature.

    bleucli adds ``human_accuracy`` after sacreBLEU's keys: for a system other
    than the baseline, the estimated agreement with human judgments of its
    delta to the baseline (Kocmi et al. 2024, :mod:`bleucli.significance.human_accuracy`)
    as ``{"accuracy", "delta", "citation"}``; ``null`` for the baseline and for
    metrics without a published fit.
    """
    _check_paired(results)
    out = []
    for i, first in enumerate(results[0].rows):
        entry: dict[str, Any] = {"system": first.system}
        for result in results:
            row = result.rows[i]
            entry[result.metric] = {
                "score": row.score,
                "p_value": row.p_value,
                "mean": row.mean,
                "ci": row.ci,
                "signature": row.signature.format(),
                "human_accuracy": None if row.is_baseline else _accuracy(result, row),
            }
        out.append(entry)
    return out


def _accuracy(result: PairedResult, row: SystemResult) -> dict[str, Any] | None:
    delta = row.score - result.baseline.score
    value = human_accuracy(delta, result.metric, tokenizer_of(row.signature))
    return None if value is None else {"accuracy": value, "delta": delta, "citation": CITATION}


def paired_json(results: Sequence[PairedResult]) -> str:
    """The paired results as JSON (indent 4, like sacreBLEU's, plus signatures)."""
    return to_json(paired_data(results), indent=4)


def human_accuracy_table(results: Sequence[PairedResult], fmt: str = "text") -> str | None:
    """Each system's estimated human accuracy of its delta to the baseline, per metric with a published fit.

    A separate table after sacreBLEU's, so that the drop-in table keeps its bytes; ``None`` when no
    metric has a fit (nothing is shown, never a guess).
    """
    fitted = [r for r in results if any(_accuracy(r, row) is not None for row in r.systems)]
    if not fitted:
        return None
    headers = ["System"] + [f"Δ {r.metric} → human acc." for r in fitted]
    rows = []
    for i, first in enumerate(results[0].rows):
        if first.is_baseline:
            continue
        cells = [first.system]
        for result in fitted:
            accuracy = _accuracy(result, result.rows[i])
            cells.append("–" if accuracy is None else f"{accuracy['delta']:+.2f} → {100 * accuracy['accuracy']:.1f}%")
        rows.append(cells)
    table = (fancy_grid if fmt == "text" else latex_booktabs)(headers, rows, ["right"] + ["center"] * len(fitted))
    return (f"{table}\n\n - Estimated accuracy with human judgments of a delta this size to the baseline "
            f"({CITATION_SHORT}); metrics without a published fit are not shown.")


def render_paired(results: Sequence[PairedResult], fmt: str = "text", width: int = 1,
                  short: bool = False, color: bool = False, human: bool = False) -> str:
    """Everything ``-pbs``/``-par`` prints: table, explanation and signatures (or the JSON).

    ``human`` adds :func:`human_accuracy_table` after the explanation (text and LaTeX; the JSON
    always carries ``human_accuracy``).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (choose from: {', '.join(FORMATS)})")
    if fmt == "json":
        return paired_json(results)
    first = results[0] if results else None
    table = paired_table(results, width, fmt, color)
    assert first is not None
    explanation = paired_explanation(first.test, first.n, first.baseline.system, color and fmt == "text")
    block = signatures_block([(r.metric, r.signature.format(short)) for r in results])
    accuracy = human_accuracy_table(results, fmt) if human else None
    if accuracy is not None:
        explanation = f"{explanation}\n\n{accuracy}"
    return f"{table}\n\n{explanation}\n\n{block}"
