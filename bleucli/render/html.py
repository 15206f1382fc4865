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
* **Deterministic.** No dates, no random ids, fixed float formats: the same
  inputs give the same bytes (the golden test relies on it).

Highlighting: each BLEU token is underlined by the longest counted n-gram
order it belongs to (the underline style is the non-colour cue), bold when
the other system's output lacks it (:mod:`bleucli.compare`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..compare import Comparison, Segment, SystemSegment


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
    return text.replace("-0.0", "0.0").replace("+0.0", "0.0") if float(text) == 0 else text


def _delta_class(value: float) -> str:
    return "pos" if value > 0 else "neg" if value < 0 else ""


def _p_text(p_value: float | None) -> str:
    if p_value is None:
        return "—"
    return f"{p_value:.4f}" + ("*" if p_value <= 0.05 else "")


def highlighted(segment: SystemSegment) -> str:
    """The hypothesis, escaped, with each BLEU token wrapped by its longest counted order (``m1``..)."""
    text = segment.hypothesis
    parts = []
    cursor = 0
    for span in segment.spans:
        classes = []
        if span.order:
            classes.append(f"m{min(span.order, 4)}")
        if span.differs:
            classes.append("d")
        if not classes:
            continue
        parts.append(escape(text[cursor:span.start]))
        parts.append(f'<span class="{" ".join(classes)}">{escape(text[span.start:span.end])}</span>')
        cursor = span.end
    parts.append(escape(text[cursor:]))
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
    head = "".join(f"<th scope=\"col\">{escape(name)} (μ ± 95% CI)</th><th scope=\"col\">Δ {escape(name)}</th>"
                   f"<th scope=\"col\">p ({c.test})</th>" for name in c.metric_names)
    body = []
    for k, system in enumerate(c.systems):
        cells = []
        for m in range(len(c.metric_names)):
            score = c.scores[k][m]
            row = c.bootstrap[m].rows[k]
            delta = c.delta(k, m)
            cells.append(f"<td class=\"num\">{_num(score.score, 2)} ({_num(row.mean or 0.0, 2)} ± "
                         f"{_num(row.ci or 0.0, 2)})</td>")
            cells.append("<td class=\"num\">—</td>" if k == 0 else
                         f"<td class=\"num {_delta_class(delta)}\">{_signed(delta, 2)}</td>")
            cells.append(f"<td class=\"num\">{_p_text(c.p_value(k, m))}</td>")
        label = " (baseline)" if k == 0 else ""
        body.append(f"<tr><th scope=\"row\">{escape(system)}{label}</th>{''.join(cells)}</tr>")
    note = (
        f"<p class=\"note\">Scores are corpus scores, exactly what <code>bleucli REF -i SYS...</code> prints. "
        f"μ ± 95% CI: paired bootstrap resampling, {c.bootstrap[0].n} resamples (as <code>-pbs</code>). "
        f"p: {test_name} with {c.resamples} {'resamples' if c.test == 'bs' else 'trials'} against the baseline "
        f"(as <code>-p{c.test}</code>); * marks p ≤ 0.05. The test says how likely a difference this large is "
        "by chance on these segments; it does not say the difference matters to readers, and it does not cover "
        "other test sets, domains or references.</p>"
    )
    return (f"<section aria-labelledby=\"h-systems\"><h2 id=\"h-systems\">Systems</h2>"
            f"<table id=\"systems\"><thead><tr><th scope=\"col\">System</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>{note}{_systems_chart(c)}{_pairwise(c)}</section>")


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


def _buckets(c: Comparison) -> str:
    if not c.buckets:
        return ""
    head = "".join(f"<th scope=\"col\">BLEU {escape(n)}</th>" for n in c.systems)
    head += "".join(f"<th scope=\"col\">Δ {escape(n)}</th>" for n in c.systems[1:])
    body = []
    for i, bucket in enumerate(c.buckets):
        cells = "".join(f"<td class=\"num\">{_num(v, 2)}</td>" for v in bucket.bleu)
        cells += "".join(f"<td class=\"num {_delta_class(v - bucket.bleu[0])}\">{_signed(v - bucket.bleu[0], 2)}</td>"
                         for v in bucket.bleu[1:])
        body.append(f"<tr><th scope=\"row\"><button type=\"button\" class=\"bucket\" data-bucket=\"{i}\" "
                    f"aria-pressed=\"false\">{escape(bucket.label)}</button></th>"
                    f"<td class=\"num\">{bucket.count}</td>{cells}</tr>")
    return (
        "<section aria-labelledby=\"h-where\"><h2 id=\"h-where\">Where the difference lives</h2>"
        "<p class=\"note\">Segments grouped by the length of the first reference (BLEU tokens); each BLEU is "
        "computed from the group's summed statistics, not averaged over sentences. Select a group to filter "
        "the sentences.</p>"
        "<table id=\"buckets\"><thead><tr><th scope=\"col\">reference length</th><th scope=\"col\">segments</th>"
        f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{_delta_curve(c)}</section>"
    )


def _delta_curve(c: Comparison) -> str:
    """Sorted sentence-BLEU deltas of the first candidate against the baseline."""
    deltas = sorted(s.systems[1].sentence_bleu - s.systems[0].sentence_bleu for s in c.segments)
    width, height, pad = 520, 160, 30
    n = len(deltas)
    span = max(1.0, max(abs(deltas[0]), abs(deltas[-1])))

    def y(v: float) -> float:
        return height / 2 - v / span * (height / 2 - 10)

    points = " ".join(f"{pad + i * (width - 2 * pad) / max(1, n - 1):.1f},{y(v):.1f}" for i, v in enumerate(deltas))
    better = sum(1 for d in deltas if d > 0)
    worse = sum(1 for d in deltas if d < 0)
    title = (f"Sorted sentence-BLEU delta, {escape(c.systems[1])} minus {escape(c.systems[0])}: "
             f"{better} better, {worse} worse, {n - better - worse} equal")
    return (f"<svg role=\"img\" aria-labelledby=\"curve-title\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" "
            f"height=\"{height}\"><title id=\"curve-title\">{title}</title>"
            f"<line class=\"zero\" x1=\"{pad}\" y1=\"{y(0):.1f}\" x2=\"{width - pad}\" y2=\"{y(0):.1f}\"/>"
            f"<polyline class=\"curve\" points=\"{points}\"/>"
            f"<text x=\"2\" y=\"14\">+{span:.0f}</text><text x=\"2\" y=\"{height - 4}\">-{span:.0f}</text></svg>"
            f"<p class=\"muted\">{title}.</p>")


def _sentence_row(c: Comparison, segment: Segment) -> str:
    n = segment.number
    cells = [f"<td class=\"num\"><a href=\"#s{n}\" aria-label=\"permalink to segment {n}\">{n}</a></td>"]
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
    return f"<tr id=\"s{n}\" data-n=\"{n}\">{''.join(cells)}</tr>"


def _sort_head(label: str, key: str) -> str:
    return f"<th scope=\"col\" aria-sort=\"none\"><button type=\"button\" data-key=\"{key}\">{label}</button></th>"


def _sentences(c: Comparison) -> str:
    heads = [_sort_head("#", "n")]
    if c.segments and c.segments[0].source is not None:
        heads.append("<th scope=\"col\">source</th>")
    heads.append("<th scope=\"col\">reference</th>" if len(c.segments[0].references) == 1
                 else "<th scope=\"col\">references</th>")
    for k, name in enumerate(c.systems):
        heads.append(f"<th scope=\"col\">{escape(name)}</th>")
        heads.append(_sort_head(f"BLEU {escape(name)}", f"b{k}"))
    for k, name in enumerate(c.systems[1:], 1):
        heads.append(_sort_head(f"Δ {escape(name)}", f"d{k}"))
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
    body = "".join(_sentence_row(c, segment) for segment in c.segments)
    return (f"<section aria-labelledby=\"h-sentences\"><h2 id=\"h-sentences\">Sentences</h2>{legend}{controls}"
            f"<table id=\"sentences\"><thead><tr>{''.join(heads)}</tr></thead><tbody>{body}</tbody></table>"
            "</section>")


def _data(c: Comparison) -> dict[str, Any]:
    """What the script needs: names, sentence BLEU per segment and system, bucket members."""
    return {
        "systems": list(c.systems),
        "bleu": [[entry.sentence_bleu for entry in segment.systems] for segment in c.segments],
        "buckets": [{"label": b.label, "segments": list(b.segments)} for b in c.buckets],
    }


def comparison_page(c: Comparison) -> str:
    """The whole report as one HTML document (ends with a newline)."""
    title = "bleucli compare: " + " vs ".join(c.systems)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{content_security_policy()}\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta name=\"referrer\" content=\"no-referrer\">"
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        f"{_header(c)}<main>{_systems(c)}{_buckets(c)}{_sentences(c)}</main>"
        f"<script type=\"application/json\" id=\"bleucli-data\">{embedded_json(_data(c))}</script>"
        f"<script>{_JS}</script></body></html>\n"
    )


__all__ = ["comparison_page", "content_security_policy", "embedded_json", "highlighted"]
