"""The ``bleucli compare --html`` report: one self-contained, offline, deterministic page.

Why it is built this way:

* **Self-contained and strict.** Inline CSS and JavaScript, inline SVG, no URL
  anywhere. A ``Content-Security-Policy`` meta tag says ``default-src 'none'``
  and allows only this page's own ``<style>`` and ``<script>`` by their sha256
  hashes, so a string that slipped through escaping still could not run.
* **Escaped.** Every system, reference and source string goes through
  :func:`html.escape`; the embedded JSON writes ``<``, ``>``, ``&`` and the
  JavaScript line separators as ``\\uXXXX``, so ``</script>`` in a file name
  cannot end the data block.
* **Readable without JavaScript, printable.** The tables are rendered here,
  in full; the script only adds sorting, filtering, permalinks and copying
  (its controls are ``hidden`` until it runs). Highlighting and the numbers
  behind each sentence (``<details>``) need no script.
* **Fast to open and sort.** The sentence table sits in a ``<noscript>``:
  without JavaScript it is an ordinary table; with it, the HTML parser keeps
  the element's content as one text node (no DOM for 3,000 rows x 4 systems),
  and the script builds the table's head and puts in a window of rows at a
  time as the reader scrolls, so sorting and filtering touch ~100 rows, not
  every row (it renders every row before printing). Above :data:`LAZY_ROWS`
  the rows travel in the page data instead, and the ``<noscript>`` says why
  the table is empty without JavaScript.
* **Deterministic.** No dates, no random ids, fixed float formats: the same
  inputs give the same bytes (the golden test relies on it).

Highlighting: each BLEU token is underlined by the longest counted n-gram
order it belongs to (the underline style is the non-colour cue), bold when
the other system's output lacks it (:mod:`bleucli.report.compare`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from .compare import PackedSpans

if TYPE_CHECKING:  # pragma: no cover
    from .compare import Comparison, Segment, SystemSegment


def _asset(name: str) -> str:
    """A stylesheet or script shipped next to this module, inlined into every page."""
    from importlib.resources import files

    return files(__package__).joinpath(name).read_text(encoding="utf-8")


_CSS = _asset("compare_report.css")
_JS = _asset("compare_report.js")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy() -> str:
    """``default-src 'none'``, plus this page's own style and script by hash."""
    return f"default-src 'none'; style-src {_csp_hash(_CSS)}; script-src {_csp_hash(_JS)}; base-uri 'none'; " \
           "form-action 'none'"


def embedded_json(value: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>``, ``&`` or line separators."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                       ("\u2029", "\\u2029")):
        text = text.replace(char, code)
    return text


def _num(value: float, digits: int = 1) -> str:
    return f"{value:.{digits}f}"


def _signed(value: float, digits: int = 1) -> str:
    text = f"{value:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def _delta_class(value: float, lower_is_better: bool = False) -> str:
    """``pos`` for an improvement, ``neg`` for a loss: the metric's direction decides (TER: lower is better)."""
    if lower_is_better:
        value = -value
    return "pos" if value > 0 else "neg" if value < 0 else ""


def _lower(metric: str) -> bool:
    from .compare import lower_is_better

    return lower_is_better(metric)


def _p_text(p_value: float | None) -> str:
    if p_value is None:
        return "—"
    return f"{p_value:.4f}" + ("*" if p_value <= 0.05 else "")


def highlighted(segment: SystemSegment) -> str:
    """The hypothesis, escaped, with BLEU's tokens wrapped by their longest counted order (``m1``..) and
    ``d`` where the other system lacks them.

    Neighbouring tokens of the same classes, apart only by whitespace, share one element (``San
    Francisco Mall`` is one ``m3`` span, not three): every token keeps its own classes, and a 3,000 x 4
    report has 30% fewer nodes (755,000 -> 527,000 with every row in the DOM) and 20% fewer bytes.
    """
    text = segment.hypothesis
    runs = highlight_runs(segment)
    # most lines have nothing to escape: their pieces are then taken as they are (a million calls fewer
    # in a 16-system report)
    esc = escape if any(char in text for char in "&<>\"'") else str
    parts = []
    cursor = 0
    for classes, start, end in runs:
        parts.append(esc(text[cursor:start]))
        parts.append(f'<span class="{classes}">{esc(text[start:end])}</span>')
        cursor = end
    parts.append(esc(text[cursor:]))
    return "".join(parts)


def _numbers(segment: SystemSegment) -> str:
    orders = " · ".join(f"{n}-gram {m}/{t}" for n, (m, t) in enumerate(zip(segment.matches, segment.totals), 1))
    hyp_len, ref_len = segment.statistics[0], segment.statistics[1]
    extra = f" · {segment.unplaced} token(s) not shown (rewritten by the tokenizer)" if segment.unplaced else ""
    return (f"<details><summary>numbers</summary>{orders} · BP {segment.bp:.3f} · "
            f"hyp {hyp_len} / ref {ref_len} tokens{extra}</details>")


def _header(c: Comparison) -> str:
    names = " vs ".join(escape(n) for n in c.systems)
    signatures = "".join(f"<li>{escape(score.name)}: <span class=\"sig\">{escape(score.signature.format())}</span></li>"
                         for score in c.scores[0])
    inputs = "".join(f"<tr><td>{escape(f.role)}</td><td>{escape(f.name)}</td><td><code>{f.sha256}</code></td></tr>"
                     for f in c.inputs)
    seed = "none (unseeded)" if c.seed is None else str(c.seed)
    return (
        f"<header><h1>bleucli compare: {names}</h1>"
        f"<p>Baseline: <strong>{escape(c.systems[0])}</strong>. {len(c.segments)} segments, "
        f"{len(c.systems)} systems. Seed {escape(seed)}.</p>"
        f"<p>Command: <code>{escape(c.command)}</code></p>"
        f"<h2 id=\"signatures\">Signatures</h2><ul>{signatures}</ul>"
        f"<table><caption class=\"muted\">Inputs (sha256 of the decoded lines)</caption>"
        f"<thead><tr><th scope=\"col\">role</th><th scope=\"col\">file</th><th scope=\"col\">sha256</th></tr></thead>"
        f"<tbody>{inputs}</tbody></table></header>"
    )


def _systems(c: Comparison) -> str:
    test_name = ("paired bootstrap resampling" if c.test == "bs" else "paired approximate randomization")
    fitted = [any(c.human_accuracy(k, m) is not None for k in range(1, len(c.systems)))
              for m in range(len(c.metric_names))]
    head = "".join(f"<th scope=\"col\">{escape(name)} (μ ± 95% CI)</th><th scope=\"col\">Δ {escape(name)}</th>"
                   f"<th scope=\"col\">p ({c.test})</th>" + ("<th scope=\"col\">human acc.</th>" if fitted[m] else "")
                   for m, name in enumerate(c.metric_names))
    body = []
    for k, system in enumerate(c.systems):
        cells = []
        for m, metric in enumerate(c.metric_names):
            score = c.scores[k][m]
            row = c.bootstrap[m].rows[k]
            delta = c.delta(k, m)
            cells.append(f"<td class=\"num\">{_num(score.score, 2)} ({_num(row.mean or 0.0, 2)} ± "
                         f"{_num(row.ci or 0.0, 2)})</td>")
            cells.append("<td class=\"num\">—</td>" if k == 0 else
                         f"<td class=\"num {_delta_class(delta, _lower(metric))}\">{_signed(delta, 2)}</td>")
            cells.append(f"<td class=\"num\">{_p_text(c.p_value(k, m))}</td>")
            if fitted[m]:
                accuracy = c.human_accuracy(k, m)
                cells.append(f"<td class=\"num\">{'—' if accuracy is None else f'{100 * accuracy:.1f}%'}</td>")
        label = " (baseline)" if k == 0 else ""
        body.append(f"<tr><th scope=\"row\">{escape(system)}{label}</th>{''.join(cells)}</tr>")
    note = (
        f"<p class=\"note\">Scores are corpus scores, exactly what <code>bleucli REF -i SYS...</code> prints. "
        f"μ ± 95% CI: paired bootstrap resampling, {c.bootstrap[0].n} resamples (as <code>-pbs</code>). "
        f"p: {test_name} with {c.resamples} {'resamples' if c.test == 'bs' else 'trials'} against the baseline "
        f"(as <code>-p{c.test}</code>; a delta of exactly 0 gets p = 1); * marks p ≤ 0.05. "
        + ("Human acc.: how often a delta this size agrees with human judgments (Kocmi et al. 2024, "
           "Navigating the Metrics Maze). " if any(fitted) else "")
        + "The test says how likely a difference this large is "
        "by chance on these segments; it does not say the difference matters to readers, and it does not cover "
        "other test sets, domains or references.</p>"
    )
    return (f"<section aria-labelledby=\"h-systems\"><h2 id=\"h-systems\">Systems</h2>"
            f"<table id=\"systems\"><thead><tr><th scope=\"col\">System</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>{note}{_systems_chart(c)}{_pairwise(c)}{_rankings(c)}</section>")


def _rankings(c: Comparison) -> str:
    """Per metric, the systems best first with their cluster and rank range (``bleucli rank``'s numbers)."""
    from ..render.ranking import describe

    parts = []
    for ranking in c.rankings:
        body = "".join(
            f"<tr><td class=\"num\">{k + 1}</td><td class=\"num\">{ranking.clusters[s]}</td>"
            f"<td class=\"num\">{_rank_range(*ranking.rank_ranges[s])}</td>"
            f"<th scope=\"row\">{escape(ranking.systems[s])}</th>"
            f"<td class=\"num\">{_num(ranking.scores[s], 2)}</td></tr>"
            for k, s in enumerate(ranking.order))
        parts.append(
            f"<h3>Ranking by {escape(ranking.metric)}</h3><p class=\"note\">{escape(describe(ranking))}. Every pair "
            "is tested; a cluster ends after a system significantly better than every system below it. Rank range: "
            "the 95% interval of the rank over the bootstrap resamples.</p>"
            f"<table class=\"ranking\"><thead><tr><th scope=\"col\">rank</th><th scope=\"col\">cluster</th>"
            f"<th scope=\"col\">rank range</th><th scope=\"col\">system</th>"
            f"<th scope=\"col\">{escape(ranking.metric)}</th></tr></thead><tbody>{body}</tbody></table>")
    return "".join(parts)


def _rank_range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def _systems_chart(c: Comparison) -> str:
    """BLEU per system as bars with the bootstrap CI as whiskers (0 to 100 scaled to the largest)."""
    rows = c.bootstrap[0].rows
    top = max(max(r.score, (r.mean or 0) + (r.ci or 0)) for r in rows) or 1.0
    width, left, bar_h = 560, 180, 22
    height = len(rows) * (bar_h + 8) + 10
    scale = (width - left - 60) / top
    parts = [f"<svg role=\"img\" aria-labelledby=\"chart-title\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" "
             f"height=\"{height}\"><title id=\"chart-title\">{escape(c.metric_names[0])} per system with 95% CI"
             "</title>"]
    for k, row in enumerate(rows):
        y = 5 + k * (bar_h + 8)
        bar = row.score * scale
        cls = "bar base" if k == 0 else "bar"
        parts.append(f"<text x=\"{left - 6}\" y=\"{y + 15}\" text-anchor=\"end\">{escape(c.systems[k][:28])}</text>")
        parts.append(f"<rect class=\"{cls}\" x=\"{left}\" y=\"{y}\" width=\"{bar:.1f}\" height=\"{bar_h}\"/>")
        if row.mean is not None and row.ci is not None:
            lo, hi = (row.mean - row.ci) * scale + left, (row.mean + row.ci) * scale + left
            mid = y + bar_h / 2
            parts.append(f"<line class=\"whisker\" x1=\"{lo:.1f}\" y1=\"{mid}\" x2=\"{hi:.1f}\" y2=\"{mid}\"/>")
        parts.append(f"<text x=\"{left + bar + 4:.1f}\" y=\"{y + 15}\">{_num(row.score, 2)}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _pairwise(c: Comparison) -> str:
    if not c.pairwise:
        return ""
    head = "".join(f"<th scope=\"col\">{escape(n)}</th>" for n in c.systems)
    body = "".join(
        f"<tr><th scope=\"row\">{escape(c.systems[i])}</th>"
        + "".join(f"<td class=\"num\">{_p_text(p)}</td>" for p in row) + "</tr>"
        for i, row in enumerate(c.pairwise))
    return (f"<h3>Pairwise p-values ({escape(c.metric_names[0])}, {c.test})</h3>"
            f"<table id=\"pairwise\"><thead><tr><th scope=\"col\">system</th>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


class _Picks:
    """Every clickable bucket, n-gram and chart element: ``data-pick="N"`` names ``picks[N]`` in the page data.

    A pick is ``{"label", "segments"}`` (the sentences it filters the table to)
    or ``{"label", "system", "sign"}`` (a delta-sign filter, from the bootstrap
    chart, whose resamples are not sentences).
    """

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, label: str, segments: Any = None, **extra: Any) -> int:
        item: dict[str, Any] = {"label": label, **extra}
        if segments is not None:
            item["segments"] = list(segments)
        self.items.append(item)
        return len(self.items) - 1


def _pick_button(pick: int, text: str, label: str) -> str:
    return (f"<button type=\"button\" class=\"pick\" data-pick=\"{pick}\" aria-pressed=\"false\" "
            f"title=\"{escape(label)}\">{text}</button>")


def _pick_group(pick: int, label: str, inner: str) -> str:
    """A clickable SVG element: focusable, a button to assistive technology, with a title."""
    return (f"<g class=\"pick\" data-pick=\"{pick}\" role=\"button\" tabindex=\"0\" aria-pressed=\"false\" "
            f"aria-label=\"{escape(label)}\"><title>{escape(label)}</title>{inner}</g>")


_BUCKET_NOTES = {
    "reference length": "Segments grouped by the length of the first reference (BLEU tokens). Each BLEU is computed "
                        "from the group's summed statistics, not averaged over sentences; ± is the 95% CI of "
                        "<code>-ci</code> on the group's lines (same resamples and seed).",
    "sentence BLEU": "How many of each system's segments have a sentence BLEU (<code>-sl</code>) in the bin "
                     "(compare-mt's bins); ± is the 95% CI of the count over the <code>-pbs</code> resamples. "
                     "Select a count to see that system's segments in the bin.",
    "word frequency": "Word F-measure by frequency bucket, as compare-mt defines it: a word's bucket is its number of "
                      "occurrences in the (first) reference, an output word matches an unmatched occurrence of it in "
                      "the segment's reference, F = 2PR/(P+R) over the bucket's words (BLEU's tokens). ± is the 95% "
                      "CI over the <code>-pbs</code> resamples of segments; the count is reference words.",
    "document": "BLEU of each document from its summed statistics.",
}
_BUCKET_TITLES = {"reference length": "By reference length", "sentence BLEU": "By sentence BLEU",
                  "word frequency": "Word F-measure by frequency", "document": "Documents"}


def _bucket_value(kind: str, value: float) -> str:
    return str(int(value)) if kind.startswith("sentence ") else _num(value, 4 if kind == "word frequency" else 2)


def _bucket_title(kind: str, metric: str) -> str:
    """The heading of a bucket table: BLEU's as before; another metric's names the metric."""
    if kind.startswith("sentence "):
        return f"By sentence {metric}"
    title = _BUCKET_TITLES[kind]
    return title if metric == "BLEU" else f"{title} ({metric})"


def _bucket_note(kind: str, metric: str) -> str:
    if metric == "BLEU":
        return _BUCKET_NOTES[kind]
    direction = " Lower is better." if _lower(metric) else ""
    if kind.startswith("sentence "):
        return (f"How many of each system's segments have a sentence {escape(metric)} (<code>-sl</code>) in the "
                "bin; ± is the 95% CI of the count over the <code>-pbs</code> resamples. Select a count to see that "
                f"system's segments in the bin.{direction}")
    if kind == "document":
        return f"{escape(metric)} of each document from its summed statistics.{direction}"
    return (f"The same groups as BLEU's; each {escape(metric)} is computed from the group's summed statistics; ± "
            f"is the 95% CI of <code>-ci</code> on the group's lines.{direction}")


def _bucket_table(c: Comparison, kind: str, picks: _Picks, metric: str = "BLEU") -> str:
    buckets = [b for b in c.buckets if b.kind == kind and b.metric == metric]
    if not buckets:
        return ""
    lower = _lower(metric) and not kind.startswith("sentence ")  # counts of a bin have no direction
    measure = buckets[0].measure
    digits = 4 if kind == "word frequency" else 2
    ci_digits = 1 if kind.startswith("sentence ") else digits
    count_head = {"word frequency": "reference words"}.get(
        kind, "segments (any system)" if kind.startswith("sentence ") else "segments")
    head = "".join(f"<th scope=\"col\">{escape(measure)} {escape(n)}</th>" for n in c.systems)
    head += "".join(f"<th scope=\"col\">Δ {escape(n)}</th>" for n in c.systems[1:])
    body = []
    chart_rows = []
    for bucket in buckets:
        pick = picks.add(f"{kind} {bucket.label}" + ("" if metric == "BLEU" else f" ({metric})"), bucket.segments)
        cells = []
        system_picks = []
        for k, (value, ci) in enumerate(zip(bucket.values, bucket.ci)):
            text = _bucket_value(kind, value) + ("" if ci is None else f" ± {_num(ci, ci_digits)}")
            if bucket.by_system:
                system_pick = picks.add(f"{kind} {bucket.label}: {c.systems[k]}", bucket.by_system[k])
                system_picks.append(system_pick)
                text = _pick_button(system_pick, text, f"{c.systems[k]}'s segments in {bucket.label}")
            cells.append(f"<td class=\"num\">{text}</td>")
        for value in bucket.values[1:]:
            delta = value - bucket.values[0]
            cells.append(f"<td class=\"num {_delta_class(delta, lower)}\">"
                         f"{_signed(delta, 0 if kind.startswith('sentence ') else digits)}</td>")
        label = _pick_button(pick, escape(bucket.label), f"the segments of {kind} {bucket.label}")
        body.append(f"<tr><th scope=\"row\">{label}</th><td class=\"num\">{bucket.count}</td>{''.join(cells)}</tr>")
        chart_rows.append((bucket, pick, system_picks))
    section_id = "b-" + kind.replace(" ", "-") if metric == "BLEU" or kind.startswith("sentence ") \
        else f"b-{kind.replace(' ', '-')}-{metric}"
    section_id = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in section_id)
    chart = _bucket_chart(c, kind, chart_rows, metric) if kind != "document" else ""
    return (f"<h3 id=\"{section_id}\">{escape(_bucket_title(kind, metric))}</h3>"
            f"<p class=\"note\">{_bucket_note(kind, metric)}</p>"
            f"<div class=\"block\"><table class=\"buckets\" data-kind=\"{escape(kind)}\"><thead><tr>"
            f"<th scope=\"col\">{escape(kind)}</th><th scope=\"col\">{count_head}</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>{chart}</div>")


def _bucket_chart(c: Comparison, kind: str, rows: list[tuple[Any, int, list[int]]], metric: str = "BLEU") -> str:
    """Grouped bars per bucket (one bar per system) with CI whiskers; a bucket's group (or, for
    sentence-BLEU bins, each bar) filters the sentences."""
    n_sys = len(c.systems)
    bar_w, gap, height, base_y, left = 16, 18, 170, 140, 40
    group_w = n_sys * bar_w + gap
    width = left + len(rows) * group_w + 10
    top = max((v + (ci or 0.0) for bucket, _, _ in rows for v, ci in zip(bucket.values, bucket.ci)), default=1.0)
    top = top or 1.0
    scale = (base_y - 10) / top
    title = f"{escape(_bucket_title(kind, metric))}: {escape(rows[0][0].measure)} per system and bucket, with 95% CI"
    parts = [f"<svg class=\"chart\" role=\"group\" aria-label=\"{title}\" viewBox=\"0 0 {width} {height}\" "
             f"width=\"{width}\" height=\"{height}\"><title>{title}</title>"
             f"<line class=\"axis\" x1=\"{left}\" y1=\"{base_y}\" x2=\"{width - 5}\" y2=\"{base_y}\"/>"
             f"<text x=\"2\" y=\"14\">{_bucket_value(kind, top) if not kind.startswith('sentence ') else int(top)}"
             "</text>"]
    for g, (bucket, pick, system_picks) in enumerate(rows):
        x0 = left + g * group_w
        bars = []
        for k, (value, ci) in enumerate(zip(bucket.values, bucket.ci)):
            x = x0 + k * bar_w
            h = value * scale
            bar = (f"<rect class=\"bar s{k % 4}\" x=\"{x}\" y=\"{base_y - h:.1f}\" width=\"{bar_w - 2}\" "
                   f"height=\"{h:.1f}\"/>")
            if ci is not None:
                lo, hi = base_y - max(0.0, value - ci) * scale, base_y - (value + ci) * scale
                mid = x + (bar_w - 2) / 2
                bar += f"<line class=\"whisker\" x1=\"{mid}\" y1=\"{lo:.1f}\" x2=\"{mid}\" y2=\"{hi:.1f}\"/>"
            if system_picks:
                label = f"{c.systems[k]}: {_bucket_value(kind, value)} segments in {bucket.label}"
                bar = _pick_group(system_picks[k], label, bar)
            bars.append(bar)
        label_text = f"<text x=\"{x0}\" y=\"{base_y + 14}\" class=\"small\">{escape(bucket.label)}</text>"
        if system_picks:
            parts.append("".join(bars) + label_text)
        else:  # the whole column answers a click, not only its bars
            hit = f"<rect class=\"band\" x=\"{x0 - gap / 2}\" y=\"0\" width=\"{group_w}\" height=\"{height}\"/>"
            parts.append(_pick_group(pick, f"{kind} {bucket.label}", hit + "".join(bars) + label_text))
    parts.append("</svg>")
    return "".join(parts)


def _legend(c: Comparison) -> str:
    return "<p class=\"chart-legend\">" + "".join(
        f"<span><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect class=\"bar s{k % 4}\" width=\"12\" "
        f"height=\"12\"/></svg> {escape(name)}</span>" for k, name in enumerate(c.systems)) + "</p>"


def _matched(d: Any) -> str:
    return f"segments where {d.ngram} was matched"


def _ngram_lists(c: Comparison, picks: _Picks) -> str:
    parts = []
    for comparison in c.ngrams:
        name, base = c.systems[comparison.system], c.systems[0]
        lists = []
        for side, who in (("better", name), ("worse", base)):
            items = getattr(comparison, side)
            rows = "".join(
                f"<tr><td>{_pick_button(picks.add(f'n-gram {d.ngram}', d.segments), escape(d.ngram), _matched(d))}"
                f"</td><td class=\"num\">{d.counts[0]}</td><td class=\"num\">{d.counts[1]}</td></tr>"
                for d in items) or "<tr><td colspan=\"3\">none</td></tr>"
            lists.append(
                f"<table class=\"ngrams\"><caption>matched more often by {escape(who)}</caption><thead><tr>"
                f"<th scope=\"col\">n-gram</th><th scope=\"col\">{escape(base)}</th>"
                f"<th scope=\"col\">{escape(name)}</th></tr></thead><tbody>{rows}</tbody></table>")
        parts.append(f"<h4>{escape(name)} vs {escape(base)}</h4><div class=\"pair\">{''.join(lists)}</div>")
    return ("<h3 id=\"b-ngrams\">N-grams matched more often by one system</h3><p class=\"note\">Counts of the "
            "clipped n-gram matches BLEU counted (orders 1 to 4, BLEU's tokens) over the corpus; the largest "
            "differences first. Select an n-gram to see the segments where either system matched it.</p>"
            + "".join(parts))


def _delta_curve(c: Comparison, k: int, picks: _Picks) -> str:
    """Sorted sentence-BLEU deltas of candidate ``k`` against the baseline; each tenth of the curve filters."""
    ranked = sorted((s.systems[k].sentence_bleu - s.systems[0].sentence_bleu, s.number) for s in c.segments)
    deltas = [d for d, _ in ranked]
    width, height, pad = 520, 160, 30
    n = len(deltas)
    span = max(1.0, max(abs(deltas[0]), abs(deltas[-1])))

    def y(v: float) -> float:
        return height / 2 - v / span * (height / 2 - 10)

    def x(i: float) -> float:
        return pad + i * (width - 2 * pad) / max(1, n - 1)

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(deltas))
    better = sum(1 for d in deltas if d > 0)
    worse = sum(1 for d in deltas if d < 0)
    title = (f"Sorted sentence-BLEU delta, {escape(c.systems[k])} minus {escape(c.systems[0])}: "
             f"{better} better, {worse} worse, {n - better - worse} equal")
    bands = []
    tenths = min(10, n)
    for t in range(tenths):
        lo, hi = t * n // tenths, (t + 1) * n // tenths
        if lo == hi:
            continue
        members = sorted(number for _, number in ranked[lo:hi])
        label = (f"sentences {lo + 1}-{hi} of the sorted deltas ({deltas[lo]:+.1f} to {deltas[hi - 1]:+.1f})")
        pick = picks.add(label, members)
        x0, x1 = x(lo) - (0 if lo else pad / 2), x(hi - 1) + (0 if hi < n else pad / 2)
        bands.append(_pick_group(pick, label, f"<rect class=\"band\" x=\"{x0:.1f}\" y=\"0\" "
                                              f"width=\"{max(1.0, x1 - x0):.1f}\" height=\"{height}\"/>"))
    return (f"<svg class=\"chart sorted\" role=\"group\" aria-label=\"{title}\" viewBox=\"0 0 {width} {height}\" "
            f"width=\"{width}\" height=\"{height}\"><title>{title}</title>{''.join(bands)}"
            f"<line class=\"zero\" x1=\"{pad}\" y1=\"{y(0):.1f}\" x2=\"{width - pad}\" y2=\"{y(0):.1f}\"/>"
            f"<polyline class=\"curve\" points=\"{points}\"/>"
            f"<text x=\"2\" y=\"14\">+{span:.0f}</text><text x=\"2\" y=\"{height - 4}\">-{span:.0f}</text></svg>"
            f"<p class=\"muted\">{title}. Select a tenth of the curve to see its sentences.</p>")


#: Bars of the bootstrap delta histogram.
HISTOGRAM_BINS = 40


def delta_histogram(deltas: Any, bins: int = HISTOGRAM_BINS) -> tuple[list[int], float, float]:
    """``(counts, low, high)``: equal-width bins over the resampled deltas' range (numpy's histogram)."""
    import numpy as np

    values = np.asarray(deltas, dtype=np.float64)
    low, high = float(values.min()), float(values.max())
    if low == high:
        low, high = low - 0.5, high + 0.5
    counts, _ = np.histogram(values, bins=bins, range=(low, high))
    return [int(v) for v in counts], low, high


def _bootstrap_chart(c: Comparison, k: int, picks: _Picks) -> str:
    """The distribution of candidate ``k``'s BLEU minus the baseline's over the ``-pbs`` resamples."""
    deltas = c.deltas[k - 1]
    counts, low, high = delta_histogram(deltas)
    width, height, pad, base_y = 520, 150, 30, 125
    top = max(counts) or 1
    bin_w = (width - 2 * pad) / len(counts)
    name, base = escape(c.systems[k]), escape(c.systems[0])
    from .compare import lower_is_better

    lower = lower_is_better(c.deltas_metric)  # TER: a positive delta is worse
    title = (f"Bootstrap distribution of {c.deltas_metric} {name} minus {base} over {len(deltas)} resamples "
             f"(range {low:+.2f} to {high:+.2f})")
    bars: dict[str, list[str]] = {"worse": [], "better": []}
    for b, count in enumerate(counts):
        centre = low + (b + 0.5) * (high - low) / len(counts)
        h = count / top * (base_y - 10)
        side = "worse" if (centre > 0 if lower else centre < 0) else "better"
        bars[side].append(  # coloured by what the side means (TER: a positive delta is a loss)
            f"<rect class=\"bar {'neg' if side == 'worse' else 'pos'}\" x=\"{pad + b * bin_w:.1f}\" "
            f"y=\"{base_y - h:.1f}\" width=\"{max(0.5, bin_w - 1):.1f}\" height=\"{h:.1f}\"/>")
    # a pick for each side that has bars (every resample on one side: one pick)
    sides = {side: picks.add(f"{c.systems[k]} {side} than the baseline", system=k, sign=side)
             for side, items in bars.items() if items}
    split = pad + len(bars["worse"]) * bin_w  # each side's whole area answers a click, not only its bars
    areas = {"worse": (pad, split), "better": (split, width - pad)}
    groups = "".join(_pick_group(sides[side], f"resamples where {c.systems[k]} is {side}: show the sentences where "
                                              f"it is {side} than the baseline",
                                 f"<rect class=\"band\" x=\"{areas[side][0]:.1f}\" y=\"0\" "
                                 f"width=\"{areas[side][1] - areas[side][0]:.1f}\" height=\"{base_y}\"/>"
                                 + "".join(items))
                     for side, items in bars.items() if items)
    zero = ""
    if low < 0 < high:
        zx = pad + (0 - low) / (high - low) * (width - 2 * pad)
        zero = f"<line class=\"zero\" x1=\"{zx:.1f}\" y1=\"0\" x2=\"{zx:.1f}\" y2=\"{base_y}\"/>"
    return (f"<svg class=\"chart bootstrap\" role=\"group\" aria-label=\"{title}\" viewBox=\"0 0 {width} {height}\" "
            f"width=\"{width}\" height=\"{height}\"><title>{title}</title>{groups}{zero}"
            f"<line class=\"axis\" x1=\"{pad}\" y1=\"{base_y}\" x2=\"{width - pad}\" y2=\"{base_y}\"/>"
            f"<text x=\"{pad}\" y=\"{height - 4}\">{low:+.2f}</text>"
            f"<text x=\"{width - pad}\" y=\"{height - 4}\" text-anchor=\"end\">{high:+.2f}</text></svg>"
            f"<p class=\"muted\">{title}; the p-value of <code>-pbs</code> is read from these resamples. A resample "
            "is not a set of sentences: selecting a side shows the sentences where the system is worse or better.</p>")


def _where(c: Comparison, picks: _Picks) -> str:
    parts = [_legend(c)]
    for kind in ("reference length", "sentence BLEU", "word frequency"):
        parts.append(_bucket_table(c, kind, picks))
    for metric in c.sentence_metrics:  # every other metric of -m: its own scores of the same groups
        parts.append(_bucket_table(c, "reference length", picks, metric))
        parts.append(_bucket_table(c, f"sentence {metric}", picks, metric))
    parts.append(_ngram_lists(c, picks))
    curves = []
    for k in range(1, len(c.systems)):
        curves.append(f"<h4>{escape(c.systems[k])} vs {escape(c.systems[0])}</h4>{_delta_curve(c, k, picks)}")
        if c.deltas:
            curves.append(_bootstrap_chart(c, k, picks))
    parts.append("<h3 id=\"b-deltas\">Sentence deltas and the bootstrap</h3>" + "".join(curves))
    return ("<section aria-labelledby=\"h-where\"><h2 id=\"h-where\">Where the difference lives</h2>"
            "<p class=\"note\">Every bucket, n-gram and chart element below filters the sentence table; select it "
            "again (or \"clear filters\") to show every sentence.</p>" + "".join(parts) + "</section>")


def _documents(c: Comparison, picks: _Picks) -> str:
    table = _bucket_table(c, "document", picks)
    if not table:
        return ""
    others = "".join(_bucket_table(c, "document", picks, metric) for metric in c.sentence_metrics)
    return (f"<section aria-labelledby=\"h-documents\"><h2 id=\"h-documents\">Documents</h2>"
            f"{table.split('</h3>', 1)[1]}{others}</section>")


def _sentence_row(c: Comparison, segment: Segment) -> str:
    n = segment.number
    cells = [f"<td class=\"num\"><a href=\"#s{n}\" aria-label=\"permalink to segment {n}\">{n}</a></td>"]
    if c.segments[0].document is not None:
        cells.append(f"<td class=\"doc\">{escape(segment.document or '')}</td>")
    if any(s.source is not None for s in c.segments[:1]):
        cells.append(f"<td class=\"txt\"><span class=\"t\">{escape(segment.source or '')}</span></td>")
    refs = "<br>".join(escape(r) for r in segment.references)
    cells.append(f"<td class=\"txt\"><span class=\"t\">{refs}</span></td>")
    base = segment.systems[0].sentence_bleu
    for entry in segment.systems:
        cells.append(f"<td class=\"out\"><span class=\"t\">{highlighted(entry)}</span>{_numbers(entry)}</td>")
        cells.append(f"<td class=\"num\">{_num(entry.sentence_bleu)}</td>")
    for entry in segment.systems[1:]:
        delta = entry.sentence_bleu - base
        cells.append(f"<td class=\"num {_delta_class(delta)}\">{_signed(delta)}</td>")
    for m, metric in enumerate(c.sentence_metrics):  # every other metric of -m: its sentence scores and deltas
        lower = _lower(metric)
        cells += [f"<td class=\"num\">{_num(entry.scores[m])}</td>" for entry in segment.systems]
        cells += [f"<td class=\"num {_delta_class(entry.scores[m] - segment.systems[0].scores[m], lower)}\">"
                  f"{_signed(entry.scores[m] - segment.systems[0].scores[m])}</td>" for entry in segment.systems[1:]]
    return f"<tr id=\"s{n}\" data-n=\"{n}\">{''.join(cells)}</tr>"


def _sort_head(label: str, key: str) -> str:
    return f"<th scope=\"col\" aria-sort=\"none\"><button type=\"button\" data-key=\"{key}\">{label}</button></th>"


def _sentences(c: Comparison, lazy: bool) -> str:
    heads = [_sort_head("#", "n")]
    if c.segments[0].document is not None:
        heads.append("<th scope=\"col\">document</th>")
    if c.segments and c.segments[0].source is not None:
        heads.append("<th scope=\"col\">source</th>")
    heads.append("<th scope=\"col\">reference</th>" if len(c.segments[0].references) == 1
                 else "<th scope=\"col\">references</th>")
    for k, name in enumerate(c.systems):
        heads.append(f"<th scope=\"col\">{escape(name)}</th>")
        heads.append(_sort_head(f"BLEU {escape(name)}", f"b{k}"))
    for k, name in enumerate(c.systems[1:], 1):
        heads.append(_sort_head(f"Δ {escape(name)}", f"d{k}"))
    for metric in c.sentence_metrics:
        heads += [f"<th scope=\"col\">{escape(metric)} {escape(name)}</th>" for name in c.systems]
        heads += [f"<th scope=\"col\">Δ {escape(metric)} {escape(name)}</th>" for name in c.systems[1:]]
    options = "".join(f"<option value=\"{k}\">{escape(name)}</option>" for k, name in enumerate(c.systems) if k)
    controls = (
        "<form id=\"filters\" hidden role=\"search\" aria-label=\"Filter sentences\">"
        "<label for=\"f-text\">text contains<input id=\"f-text\" type=\"search\"></label>"
        f"<label for=\"f-system\">delta of<select id=\"f-system\">{options}</select></label>"
        "<label for=\"f-sign\">delta sign<select id=\"f-sign\"><option value=\"all\">all</option>"
        "<option value=\"better\">better than baseline</option><option value=\"worse\">worse than baseline</option>"
        "<option value=\"same\">equal</option></select></label>"
        "<label for=\"f-threshold\">|delta| at least<input id=\"f-threshold\" type=\"number\" min=\"0\" step=\"1\">"
        "</label><button type=\"button\" id=\"f-clear\">clear filters</button>"
        "<button type=\"button\" id=\"f-copy\">copy visible rows as TSV</button>"
        "<span id=\"f-bucket\" aria-live=\"polite\"></span><span id=\"f-count\" aria-live=\"polite\"></span>"
        "</form><textarea id=\"tsv\" hidden aria-label=\"visible rows as TSV\" readonly></textarea>"
    )
    legend = (
        "<p class=\"legend note\">Highlighting shows the n-grams BLEU counted (clipped matches, on BLEU's own "
        f"tokens, tokenizer {escape(c.tokenizer)}), by the longest counted order: "
        "<span class=\"m1\">1-gram (dotted)</span><span class=\"m2\">2-gram (dashed)</span>"
        "<span class=\"m3\">3-gram (solid)</span><span class=\"m4\">4-gram or longer (double)</span>"
        "<span class=\"d\">bold: not in the other output</span> (the baseline is compared with the first "
        "candidate, every candidate with the baseline). Sentence BLEU uses effective order, as "
        "<code>-sl</code>.</p>"
    )
    body = "" if lazy else "".join(_sentence_row(c, segment) for segment in c.segments)
    note = (f"<noscript><p class=\"note\">This report has {len(c.segments)} sentences, more than "
            f"{LAZY_ROWS}: its script renders them as you scroll, and JavaScript is off. Every sentence and number "
            "is in <code>--json</code>.</p></noscript>") if lazy else ""
    table = f"<table id=\"sentences\"><thead><tr>{''.join(heads)}</tr></thead><tbody>{body}</tbody></table>"
    if not lazy:  # with scripting on, one text node the script cuts into rows (see the module docstring)
        table = f"<noscript id=\"rows-src\">{table}</noscript>"
    return (f"<section aria-labelledby=\"h-sentences\"><h2 id=\"h-sentences\">Sentences</h2>{legend}{controls}{note}"
            f"{table}</section>")


def _data(c: Comparison, picks: _Picks, lazy: bool) -> Iterator[str]:
    """What the script needs, as pieces of its JSON: names, sentence BLEU per segment and system, what each
    pick selects, and for a lazy page the compact table its rows are made from (:func:`_table_pieces`), a
    column at a time, each column written as it is made."""
    data: dict[str, Any] = {
        "systems": list(c.systems),
        "bleu": [[entry.sentence_bleu for entry in segment.systems] for segment in c.segments],
        "picks": picks.items,
    }
    if not lazy:
        yield embedded_json(data)
        return
    # a lazy page's picks name their segments as gaps in base 32 (a million segment numbers take a tenth of
    # the bytes); the script reads either form
    data["picks"] = [{**{k: v for k, v in item.items() if k != "segments"}, "seg": _gaps(item["segments"])}
                     if "segments" in item else item for item in picks.items]
    head, tail = embedded_json({**data, "table": 0}).rsplit('"table":0', 1)
    yield head + '"table":{'
    yield from _table_pieces(c)
    yield "}" + tail


#: Base-32 digits: the last digit of a number, and the ones before it (no character JSON or HTML escapes).
_LAST = "0123456789abcdefghijklmnopqrstuv"
_MORE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-+*/="


def _b32(value: int) -> str:
    if value < 0:
        raise ValueError(f"the compact table holds no negative number ({value})")
    digits = _LAST[value & 31]
    value >>= 5
    while value:
        digits = _MORE[value & 31] + digits
        value >>= 5
    return digits


_B32 = [_b32(v) for v in range(4096)]


def _ints(values: Iterable[int]) -> str:
    """Non-negative integers as base-32 digits, each number ending at its lowercase (or decimal) digit."""
    table = _B32
    return "".join(table[v] if 0 <= v < 4096 else _b32(v) for v in values)


def _gaps(segments: Sequence[int]) -> str:
    """Segment numbers, ascending, as the gaps between them (the first from 0), :func:`_ints` (the script
    makes a set of them: their order does not matter)."""
    previous = 0
    out = []
    for n in sorted(segments):
        out.append(n - previous)
        previous = n
    return _ints(out)


#: The highlighting classes of a run, by their code in the compact table (the script has the same list).
_CLASSES = {"m1": 0, "m2": 1, "m3": 2, "m4": 3, "d": 4, "m1 d": 5, "m2 d": 6, "m3 d": 7, "m4 d": 8}


def highlight_runs(segment: SystemSegment) -> list[list[Any]]:
    """The highlighted runs of :func:`highlighted`: ``[classes, start, end]`` (code points), plain text between.

    Neighbouring tokens of the same classes, apart only by whitespace, make one run; a plain token ends one.
    """
    text = segment.hypothesis
    runs: list[list[Any]] = []  # [classes, start, end]; "" for a token left plain, which ends a run
    spans = segment.spans
    flat = spans.flat if isinstance(spans, PackedSpans) else [v for span in spans for v in span]
    names = _RUN_CLASSES
    for at in range(0, len(flat), 4):
        start, end, order, differs = flat[at], flat[at + 1], flat[at + 2], flat[at + 3]
        classes = names[min(order, 4) + (5 if differs else 0)]
        if runs and classes and runs[-1][0] == classes and not text[runs[-1][2]:start].strip():
            runs[-1][2] = end
        else:
            runs.append([classes, start, end])
    return [run for run in runs if run[0]]


#: A token's classes by ``order + 5 * differs`` (order at most 4).
_RUN_CLASSES = ("", "m1", "m2", "m3", "m4", "d", "m1 d", "m2 d", "m3 d", "m4 d")


def _runs_code(segment: SystemSegment) -> str:
    """:func:`highlight_runs` for the script: per run, ``9 * gap + class`` and its length, in UTF-16 units
    (what a JavaScript string counts) from the end of the run before."""
    runs = highlight_runs(segment)
    text = segment.hypothesis
    if text and max(text) > "\uffff":  # astral characters are two units in JavaScript
        units = [0]
        for char in text:
            units.append(units[-1] + (2 if char > "\uffff" else 1))
        runs = [[classes, units[start], units[end]] for classes, start, end in runs]
    values = []
    cursor = 0
    classes_code = _CLASSES
    for classes, start, end in runs:
        values.append(9 * (start - cursor) + classes_code[classes])
        values.append(end - start)
        cursor = end
    return _ints(values)


def _numbers_code(segment: SystemSegment) -> str:
    """:func:`_numbers` for the script: hyp and ref length, BP's three decimals as an integer, unplaced tokens,
    the matches per order, and each order's total less ``max(0, hyp - n + 1)`` (0 for BLEU's own totals)."""
    hyp_len, ref_len = segment.statistics[0], segment.statistics[1]
    totals = [t - max(0, hyp_len - n) for n, t in enumerate(segment.totals)]
    if min(totals, default=0) < 0:  # cannot happen for BLEU's rows; the table has no sign
        raise ValueError("an n-gram total below the hypothesis's n-gram count")
    return _ints([hyp_len, ref_len, int(f"{segment.bp:.3f}".replace(".", "")), segment.unplaced,
                  *segment.matches, *totals])


#: Segments a piece of a lazy page's table holds (a progress step each).
_CHUNK = 2000


def _table_columns(c: Comparison) -> list[tuple[str, int]]:
    """The compact table's columns: ``(name, index)``; a name with indices 0, 1... is an array of columns (one
    per reference, system or metric), -1 a single column."""
    first = c.segments[0]
    columns = [("doc", -1)] if first.document is not None else []
    columns += [("src", -1)] if first.source is not None else []
    columns += [("ref", r) for r in range(len(first.references))]
    for name in ("hyp", "hl", "num"):
        columns += [(name, k) for k in range(len(c.systems))]
    columns += [("scores", m) for m in range(len(c.sentence_metrics))]
    return columns


def _cell(segment: Segment, name: str, index: int) -> Any:
    """One segment's value in a column of the compact table."""
    if name == "hl":
        return _runs_code(segment.systems[index])
    if name == "num":
        return _numbers_code(segment.systems[index])
    if name == "hyp":
        return segment.systems[index].hypothesis
    if name == "ref":
        return segment.references[index]
    if name == "scores":
        return [entry.scores[index] for entry in segment.systems]
    return (segment.document if name == "doc" else segment.source) or ""


def lazy_page_steps(c: Comparison) -> int:
    """How many pieces :func:`comparison_page_pieces` yields for a lazy page (a progress bar's length)."""
    chunks = -(-len(c.segments) // _CHUNK)
    return 7 + len(_table_columns(c)) * (chunks + 2)


def _table_pieces(c: Comparison) -> Iterator[str]:
    """The lazy page's rows as columns (the body of ``"table"``): texts once, highlighting and numbers as
    :func:`_ints` strings, other metrics' sentence scores as numbers; the script makes each row's HTML
    from them, the same HTML as :func:`_sentence_row`. Written :data:`_CHUNK` segments a piece."""
    segments = c.segments
    yield f'"order":{c.max_order},"lower":{embedded_json([_lower(m) for m in c.sentence_metrics])}'
    columns = _table_columns(c)
    for at, (name, index) in enumerate(columns):
        opening = f',"{name}":[' if index <= 0 else ","
        yield opening + ("[" if index >= 0 else "")
        for start in range(0, len(segments), _CHUNK):
            text = embedded_json([_cell(segment, name, index) for segment in segments[start:start + _CHUNK]])[1:-1]
            yield ("," if start else "") + text
        last = at + 1 == len(columns) or columns[at + 1][0] != name
        yield "]" + ("]" if index >= 0 and last else "")


#: Above this many sentences the rows travel in the page data, not in a ``<noscript>`` table (without
#: JavaScript the page says where they are: ``--json``); at any size the script shows a window at a time.
LAZY_ROWS = 20_000


def comparison_page(c: Comparison, lazy_above: int = LAZY_ROWS) -> str:
    """The whole report as one HTML document (ends with a newline).

    With more than ``lazy_above`` segments, the sentence rows travel in the
    page data. Smaller pages have every row in the HTML, in a ``<noscript>``
    table, so they read without JavaScript. Either way the script renders
    the rows in windows; sorting and filtering run over every row.
    """
    return "".join(comparison_page_pieces(c, lazy_above))


def comparison_page_pieces(c: Comparison, lazy_above: int = LAZY_ROWS) -> Iterator[str]:
    """:func:`comparison_page` in pieces, for writing a large page without holding it (or its rows) whole."""
    lazy = len(c.segments) > lazy_above
    title = "bleucli compare: " + " vs ".join(c.systems)
    picks = _Picks()
    where = _where(c, picks)  # the picks are numbered in page order
    documents = _documents(c, picks)
    yield (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{content_security_policy()}\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta name=\"referrer\" content=\"no-referrer\">"
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        f"{_header(c)}<main>{_systems(c)}{where}{documents}"
    )
    yield _sentences(c, lazy)
    yield "</main><script type=\"application/json\" id=\"bleucli-data\">"
    yield from _data(c, picks, lazy)
    yield f"</script><script>{_JS}</script></body></html>\n"


__all__ = ["LAZY_ROWS", "comparison_page", "comparison_page_pieces", "content_security_policy", "embedded_json",
           "highlight_runs", "highlighted", "lazy_page_steps"]
