"""``bleucli compare --markdown`` and ``--json``: the systems table for CI logs, and the data.

The Markdown is a GitHub-flavoured table (one row per system, one column
group per metric), small enough for a pull-request comment; the JSON holds
every number of the report, unrounded, with the signatures, so a script can
check a report against ``bleucli REF -i SYS... -pbs`` itself.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..render.ranking import ranking_data, ranking_markdown
from ..significance.human_accuracy import CITATION

if TYPE_CHECKING:  # pragma: no cover
    from .compare import Comparison


def _cell(text: str) -> str:
    """Markdown table cells cannot hold ``|`` or newlines; backslash-escape the pipe."""
    return " ".join(text.replace("\\", "\\\\").replace("|", "\\|").split())


def resample_unit(c: Comparison) -> str:
    """``document`` when the report's tests resampled whole documents (``--resample-unit document``)."""
    return "document" if c.bootstrap and "unit" in c.bootstrap[0].signature.to_dict() else "segment"


def _decimals(c: Comparison, metric: int, width: int) -> int:
    """Decimals of a metric's numbers: ``width``, and at least 4 for segment scores (COMET's are near 0.8)."""
    from ..metrics.segment_scores import SegmentScore

    return max(width, 4) if isinstance(c.scores[0][metric], SegmentScore) else width


def comparison_markdown(c: Comparison, width: int = 1, min_accuracy: float | None = None) -> str:
    """The systems table with CIs, deltas and p-values, then the test, the signatures and any regression."""
    fitted = [any(c.human_accuracy(k, m) is not None for k in range(1, len(c.systems)))
              for m in range(len(c.metric_names))]
    head = ["System"]
    for m, name in enumerate(c.metric_names):
        head += [f"{name} (μ ± 95% CI)", f"Δ {name}", "p"] + (["Human acc."] if fitted[m] else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for k, system in enumerate(c.systems):
        cells = [_cell(system) + (" (baseline)" if k == 0 else "")]
        for m in range(len(c.metric_names)):
            row = c.bootstrap[m].rows[k]
            w = _decimals(c, m, width)
            cells.append(f"{c.scores[k][m].score:.{w}f} ({row.mean or 0.0:.{w}f} ± {row.ci or 0.0:.{w}f})")
            p_value = c.p_value(k, m)
            cells.append("" if k == 0 else f"{c.delta(k, m):+.{w}f}")
            cells.append("" if p_value is None else f"{p_value:.4f}" + ("*" if p_value <= 0.05 else ""))
            if fitted[m]:
                accuracy = c.human_accuracy(k, m)
                cells.append("" if accuracy is None else f"{100 * accuracy:.1f}%")
        lines.append("| " + " | ".join(cells) + " |")
    test = "paired bootstrap resampling" if c.test == "bs" else "paired approximate randomization"
    lines += [
        "",
        f"{len(c.segments)} segments. CIs: paired bootstrap, {c.bootstrap[0].n} resamples; p: {test}, "
        f"{c.resamples} {'resamples' if c.test == 'bs' else 'trials'}, "
        f"seed {c.seed if c.seed is not None else 'none'}; "
        + ("resamples draw whole documents (unit:doc); " if resample_unit(c) == "document" else "")
        + "* marks p <= 0.05 (chance is unlikely to explain the difference on these segments).",
        "",
    ]
    if any(fitted):
        lines += [f"Human acc.: estimated agreement with human judgments of a delta this size ({CITATION}).", ""]
    lines += [f"- `{score.name}|{score.signature.format()}`" for score in c.scores[0]]
    if c.rankings:
        lines += ["", ranking_markdown(c.rankings, width, heading="###")]
    worse = c.worse_systems(min_accuracy)
    if worse:
        lines += ["", "Significantly worse than the baseline: "
                  + ", ".join(f"{_cell(system)} ({metric})" for system, metric in worse) + "."]
    return "\n".join(lines)


def comparison_record(c: Comparison) -> dict[str, Any]:
    """Every number of the report (unrounded), the signatures and the inputs' digests."""
    systems = []
    for k, name in enumerate(c.systems):
        metrics = {}
        for m, metric in enumerate(c.metric_names):
            row = c.bootstrap[m].rows[k]
            metrics[metric] = {
                "score": c.scores[k][m].score, "mean": row.mean, "ci": row.ci,
                "delta": c.delta(k, m), "p_value": c.p_value(k, m), "worse": c.worse(k, m),
                "human_accuracy": _accuracy_record(c.human_accuracy(k, m)),
            }
        systems.append({"system": name, "baseline": k == 0, "metrics": metrics})
    return {
        "command": c.command,
        "test": c.test, "resamples": c.resamples, "bootstrap_resamples": c.bootstrap[0].n, "seed": c.seed,
        "resample_unit": resample_unit(c),
        "signatures": {score.name: score.signature.format() for score in c.scores[0]},
        "inputs": [{"role": f.role, "name": f.name, "sha256": f.sha256} for f in c.inputs],
        "systems": systems,
        "pairwise_p_values": [list(row) for row in c.pairwise],
        "rankings": [ranking_data(r) for r in c.rankings],
        "buckets": [{"kind": b.kind, "metric": b.metric, "label": b.label, "count": b.count, "measure": b.measure,
                     "values": list(b.values), "ci": list(b.ci), "segments": list(b.segments),
                     **({"by_system": [list(m) for m in b.by_system]} if b.by_system else {})}
                    for b in c.buckets],
        "ngrams": [{"system": c.systems[n.system],
                    **{side: [{"ngram": d.ngram, "order": d.order, "counts": list(d.counts),
                               "segments": list(d.segments)} for d in getattr(n, side)]
                       for side in ("better", "worse")}} for n in c.ngrams],
        "bootstrap_deltas": [{"system": c.systems[k], "deltas": [float(v) for v in deltas]}
                             for k, deltas in enumerate(c.deltas, 1)],
        "segments": [
            {"number": s.number, "source": s.source, "document": s.document, "references": list(s.references),
             "systems": [{"hypothesis": e.hypothesis, "sentence_bleu": e.sentence_bleu,
                          "statistics": list(e.statistics),
                          "sentence_scores": dict(zip(c.sentence_metrics, e.scores)),
                          "matched_ngrams": [list(starts) for starts in e.counted]} for e in s.systems]}
            for s in c.segments
        ],
    }


def _accuracy_record(value: float | None) -> dict[str, Any] | None:
    return None if value is None else {"accuracy": value, "citation": CITATION}


def comparison_json(c: Comparison) -> str:
    return json.dumps(comparison_record(c), ensure_ascii=False, indent=1, allow_nan=False)


__all__ = ["comparison_markdown", "comparison_record", "comparison_json"]
