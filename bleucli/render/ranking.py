"""Text, JSON, Markdown and LaTeX of a ranking (:mod:`bleucli.significance.ranking`).

Pure functions from :class:`~bleucli.significance.ranking.Ranking` objects to
strings; nothing here prints. Each format shows, per metric, the systems from
best to worst with their cluster and rank range, then every pair with its
delta, raw and adjusted p-value and estimated human accuracy, then the
signatures. The LaTeX is a booktabs table as WMT's findings print their
rankings: a rule between clusters.

Strings are returned without a final newline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..significance.human_accuracy import CITATION, CITATION_SHORT
from ..significance.ranking import PairResult, Ranking
from .records import to_json
from .tables import latex_escape, simple_table
from .text import signatures_block

FORMATS = ("text", "json", "markdown", "latex")
TEST_NAMES = {"bs": "paired bootstrap resampling", "ar": "paired approximate randomization"}


def _range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def _accuracy(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def _p(value: float) -> str:
    return f"{value:.4f}"


def describe(ranking: Ranking) -> str:
    """``paired bootstrap resampling, 1000 resamples, seed 12345; Holm-adjusted p <= 0.05``."""
    count = f"{ranking.n} trials" if ranking.test == "ar" else f"{ranking.n} resamples"
    extra = f" (rank ranges: {ranking.n_bootstrap} bootstrap resamples)" if ranking.test == "ar" else ""
    seed = "unseeded" if ranking.seed is None else f"seed {ranking.seed}"
    adjusted = "Holm-adjusted p" if ranking.correction == "holm" else "p (no correction)"
    return f"{TEST_NAMES[ranking.test]}, {count}{extra}, {seed}; {adjusted} <= {ranking.alpha:g}"


def oriented_pairs(ranking: Ranking) -> list[tuple[int, int, float, PairResult]]:
    """Every pair as ``(upper, lower, delta upper - lower, pair)``, the upper system ranked higher,
    in ranking order of the upper then the lower system."""
    position = {system: k for k, system in enumerate(ranking.order)}
    out = []
    for pair in ranking.pairs:
        upper, lower = sorted((pair.first, pair.second), key=lambda s: position[s])
        out.append((upper, lower, ranking.scores[upper] - ranking.scores[lower], pair))
    return sorted(out, key=lambda item: (position[item[0]], position[item[1]]))


def _system_rows(ranking: Ranking, width: int) -> list[list[str]]:
    return [[str(k + 1), str(ranking.clusters[s]), _range(*ranking.rank_ranges[s]), ranking.systems[s],
             f"{ranking.scores[s]:.{width}f}"] for k, s in enumerate(ranking.order)]


def _pair_rows(ranking: Ranking, width: int) -> list[list[str]]:
    rows = []
    for upper, lower, delta, pair in oriented_pairs(ranking):
        mark = "*" if pair.significant else ""
        rows.append([ranking.systems[upper], ranking.systems[lower], f"{delta:+.{width}f}", _p(pair.p_value),
                     _p(pair.p_adjusted) + mark, _accuracy(pair.human_accuracy)])
    return rows


def _pair_headers(ranking: Ranking) -> list[str]:
    adjusted = "p (Holm)" if ranking.correction == "holm" else "p (adjusted: none)"
    return ["System A", "System B", "Δ (A − B)", "p", adjusted, "Human acc."]


def _has_accuracy(rankings: Sequence[Ranking]) -> bool:
    return any(p.human_accuracy is not None for r in rankings for p in r.pairs)


def ranking_text(rankings: Sequence[Ranking], width: int = 1, short: bool = False) -> str:
    """The text of ``bleucli rank``: per metric a ranking table and a pairs table, then the signatures."""
    blocks = []
    for ranking in rankings:
        title = f"{ranking.metric} ranking: {describe(ranking)}"
        systems = simple_table(["Rank", "Cluster", "Rank range", "System", ranking.metric],
                               _system_rows(ranking, width), ["right", "right", "center", "left", "right"])
        pairs = simple_table(_pair_headers(ranking), _pair_rows(ranking, width),
                           ["left", "left", "right", "right", "right", "right"])
        blocks.append("\n".join([title, "=" * len(title), systems, "", "Pairs (* significant):", pairs]))
    notes = [
        "- Clusters: systems sorted by score; a cluster ends after a system significantly better than every",
        "  system below it that no system above reaches past. Rank range: the 95% interval of the rank over",
        "  the bootstrap resamples.",
        "- A pair whose delta is exactly 0 is never significant (p = 1).",
    ]
    if _has_accuracy(rankings):
        notes.append(f"- Human acc.: estimated agreement of a delta this size with human judgments ({CITATION_SHORT}).")
    block = signatures_block([(r.metric, r.signature.format(short)) for r in rankings])
    return "\n\n".join(blocks) + "\n\n" + "\n".join(notes) + "\n\n" + block


def ranking_data(ranking: Ranking) -> dict[str, Any]:
    """One metric's ranking as JSON data: systems best first, every pair, the settings and the signature."""
    systems = [{"rank": k + 1, "system": ranking.systems[s], "score": ranking.scores[s],
                "cluster": ranking.clusters[s], "rank_range": list(ranking.rank_ranges[s])}
               for k, s in enumerate(ranking.order)]
    pairs = []
    for upper, lower, delta, pair in oriented_pairs(ranking):
        accuracy = (None if pair.human_accuracy is None
                    else {"accuracy": pair.human_accuracy, "citation": CITATION})
        pairs.append({"system_a": ranking.systems[upper], "system_b": ranking.systems[lower], "delta": delta,
                      "p_value": pair.p_value, "p_adjusted": pair.p_adjusted, "significant": pair.significant,
                      "zero_delta": pair.zero_delta, "human_accuracy": accuracy})
    return {
        "metric": ranking.metric,
        "test": ranking.test,
        "resamples": ranking.n,
        "bootstrap_resamples": ranking.n_bootstrap,
        "seed": ranking.seed,
        "alpha": ranking.alpha,
        "correction": ranking.correction,
        "lower_is_better": ranking.lower_is_better,
        "signature": ranking.signature.format(),
        "systems": systems,
        "pairs": pairs,
    }


def ranking_json(rankings: Sequence[Ranking]) -> str:
    """``{"rankings": [...]}``, one entry per metric (indent 4)."""
    return to_json({"rankings": [ranking_data(r) for r in rankings]}, indent=4)


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def ranking_markdown(rankings: Sequence[Ranking], width: int = 1, heading: str = "##") -> str:
    """Markdown tables (GitHub's): per metric the ranking and the pairs, then the signatures."""
    out = []
    for ranking in rankings:
        out += [f"{heading} {ranking.metric} ranking", "", describe(ranking) + ".", "",
                f"| Rank | Cluster | Rank range | System | {ranking.metric} |", "|---:|---:|:---:|:---|---:|"]
        out += ["| " + " | ".join(_md(c) for c in row) + " |" for row in _system_rows(ranking, width)]
        out += ["", "| " + " | ".join(_pair_headers(ranking)) + " |", "|:---|:---|---:|---:|---:|---:|"]
        for row in _pair_rows(ranking, width):
            row[4] = row[4].replace("*", "\\*")
            out.append("| " + " | ".join(_md(c) for c in row) + " |")
        out.append("")
    out.append("\\* significant; a delta of exactly 0 is never significant (p = 1).")
    if _has_accuracy(rankings):
        out.append(f"Human acc.: estimated agreement with human judgments of a delta this size ({CITATION}).")
    out += ["", "Signatures:", ""]
    out += [f"- {r.metric}: `{r.signature.format()}`" for r in rankings]
    return "\n".join(out)


def ranking_latex(rankings: Sequence[Ranking], width: int = 1) -> str:
    """A booktabs table per metric, WMT style: rank range, system, score; a rule between clusters."""
    tables = []
    for ranking in rankings:
        lines = [f"% {ranking.metric}: {describe(ranking)}", f"% {ranking.metric}|{ranking.signature.format()}",
                 "\\begin{tabular}{rrlr}", "\\toprule",
                 f"Cluster & Rank & System & {latex_escape(ranking.metric)} \\\\", "\\midrule"]
        previous = None
        for s in ranking.order:
            if previous is not None and ranking.clusters[s] != previous:
                lines.append("\\midrule")
            previous = ranking.clusters[s]
            low, high = ranking.rank_ranges[s]
            rank = str(low) if low == high else f"{low}--{high}"
            lines.append(f"{ranking.clusters[s]} & {rank} & {latex_escape(ranking.systems[s])} & "
                         f"{ranking.scores[s]:.{width}f} \\\\")
        lines += ["\\bottomrule", "\\end{tabular}"]
        tables.append("\n".join(lines))
    return "\n\n".join(tables)


def render_ranking(rankings: Sequence[Ranking], fmt: str = "text", width: int = 1, short: bool = False) -> str:
    """What ``bleucli rank`` prints in ``fmt`` (text, json, markdown or latex)."""
    if not rankings:
        raise ValueError("no rankings to render")
    if fmt == "text":
        return ranking_text(rankings, width, short)
    if fmt == "json":
        return ranking_json(rankings)
    if fmt == "markdown":
        return ranking_markdown(rankings, width)
    if fmt == "latex":
        return ranking_latex(rankings, width)
    raise ValueError(f"unknown format '{fmt}' (choose from: {', '.join(FORMATS)})")


__all__ = ["FORMATS", "describe", "oriented_pairs", "ranking_text", "ranking_data", "ranking_json",
           "ranking_markdown", "ranking_latex", "render_ranking"]
