"""Rendering: every string bleucli prints for a result, in every format, built here and only here.

One function per kind of result, each taking the run's
:class:`~bleucli.options.OutputOptions` (format, ``-w``, ``-sh``, ``-b``):

* :func:`corpus` — one system (text lines or a JSON object/list) or several
  (sacreBLEU's table, LaTeX, or JSON list);
* :func:`sentence` — one segment's line (text, or a JSON line);
* :func:`confidence` — ``-ci``;
* :func:`paired` — ``-pbs``/``-par``.

The modules below hold the pieces: :mod:`.records` the JSON schema (a
superset of sacreBLEU's objects; NaN never printed), :mod:`.text` sacreBLEU's
text lines and systems table, :mod:`.tables` the tabulate-shaped grids,
:mod:`.significance` the interval and paired-test shapes. A new output (HTML,
Markdown) is a new module here and a new format name in
:data:`bleucli.options.FORMATS`; nothing else needs to know about it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .records import check_finite, json_line, json_list, rounded, score_record, systems_records, to_json
from .text import score_line, systems_table, text_lines

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.base import Score
    from ..options import OutputOptions
    from ..report.compare import Comparison
    from ..significance import ConfidenceResult, PairedResult


def corpus(names: Sequence[str], scores: Sequence[Sequence[Score]], output: OutputOptions,
           test_set: dict[str, Any] | None = None) -> str:
    """Corpus scores ``[system][metric]`` of one or several systems."""
    fmt = output.format_for(sentence_level=False)
    width = output.width
    for row in scores:
        for score in row:
            check_finite(score)
    if len(names) > 1:  # sacreBLEU ignores -b here: the table, or its JSON, as without it
        if fmt == "json":
            return to_json(systems_records(names, scores, width), indent=4)
        return systems_table(names, scores, width, output.short, latex=fmt == "latex", color=output.color)
    row = scores[0]
    if output.score_only:
        if fmt == "json" and len(row) > 1:  # sacreBLEU: a bare list of the rounded numbers
            return json_list([f"{s.score:.{width}f}" for s in row])
        return "\n".join(f"{s.score:.{width}f}" for s in row)
    if fmt == "json":
        records = [score_record(s, width, test_set=test_set) for s in row]
        return to_json(records[0]) if len(records) == 1 else json_list(records)
    return "\n".join(text_lines(row, width, output.short))


def sentence(score: Score, output: OutputOptions) -> str:
    """One segment's score: sacreBLEU's text line (its default), the score alone, or a JSON line."""
    check_finite(score)
    if output.score_only:
        return f"{score.score:.{output.width}f}"
    if output.format_for(sentence_level=True) == "json":
        return json_line(score_record(score, output.width))
    return score_line(score, width=output.width, short=output.short)


def confidence(results: Sequence[ConfidenceResult], output: OutputOptions,
               test_set: dict[str, Any] | None = None) -> str:
    """``-ci``: sacreBLEU's JSON object(s), or its text lines (``-b``: ``45.1 (μ = 44.8 ± 9.6)``)."""
    from .significance import confidence_json, confidence_line
    from .text import align_on_equals

    for result in results:
        check_finite(result.corpus)
    if output.format_for(sentence_level=False) == "json" and not output.score_only:
        return confidence_json(results, output.width, test_set)
    lines = [confidence_line(r, output.width, output.score_only, output.short, output.color) for r in results]
    return "\n".join(lines if output.score_only else align_on_equals(lines))


def paired(results: Sequence[PairedResult], output: OutputOptions) -> str:
    """``-pbs``/``-par``: the table, explanation and signatures, or the JSON list."""
    from .significance import render_paired

    return render_paired(results, output.format_for(sentence_level=False), width=output.width,
                         short=output.short, color=output.color, human=output.human_accuracy)


def detail(rows: Sequence[tuple[str, int, Sequence[Score]]], output: OutputOptions) -> str:
    """``-d``: sacreBLEU's per-origlang / per-subset lines (or its "No subset information" line)."""
    from .text import detail_lines

    return "\n".join(detail_lines(rows, output.width, output.color))


def comparison(result: Comparison, fmt: str) -> str:
    """``bleucli compare``: the HTML report (``html``), the Markdown summary (``markdown``) or the JSON data."""
    if fmt == "html":
        from ..report.html import comparison_page

        return comparison_page(result)
    from ..report.text import comparison_json, comparison_markdown

    return comparison_markdown(result) if fmt == "markdown" else comparison_json(result)


__all__ = ["corpus", "sentence", "confidence", "paired", "detail", "comparison", "score_record", "score_line",
           "check_finite", "to_json", "rounded"]
