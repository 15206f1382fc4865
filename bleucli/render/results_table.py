"""sacreBLEU's ``print_results_table`` (``sacrebleu.utils``): its bytes, for scripts that call it.

Scripts written for sacreBLEU build the multi-system table themselves:
``sigs, scores = PairedTest(...)()`` (or a dict of ``score.format(width, True)``
strings per metric) and then ``print_results_table(scores, sigs, args)``. The
table they get must be the one sacreBLEU prints for the same input, byte for byte,
so this follows sacreBLEU 2.6.0's rules rather than bleucli's own ``-pbs`` table
(:func:`bleucli.render.significance.render_paired`), including its quirks:

- ``args.format``: ``json`` (a list of ``{"system": ..., metric: result.__dict__}``,
  indent 4); ``latex`` (tabulate's ``latex_booktabs``); any substring of ``"text"``
  (sacreBLEU tests ``format in ('text')``, a string) is ``fancy_grid``; anything else
  is handed to tabulate as a table format;
- tabulate parses numbers (a score string is reformatted with ``args.width``);
- a p-value above 0.05 is red, others get ``*``; in ``fancy_grid`` it goes on its own
  line of the cell, in other formats after a space;
- once one metric has bootstrap means, that metric and every later one are titled
  ``METRIC (μ ± 95% CI)``;
- the baseline is named in the explanation only when a ``System`` entry starts
  with ``Baseline:`` (sacreBLEU 2.6.0's own ``PairedTest`` names it plainly, so its
  text reads "compared to ."), and from that column on the first row is yellow.

Colours: sacreBLEU reads a process-wide switch, on unless its command line turned it
off (``--no-color`` or ``NO_COLOR``); here they are on unless ``args.no_color`` is true
or ``NO_COLOR`` is set, the same decision made from the same inputs. Unlike
sacreBLEU, the caller's ``results`` dict is left as it was (sacreBLEU pops its
``System`` entry).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from .text import paint

#: The header suffix sacreBLEU gives a metric whose results carry a bootstrap mean and CI.
BOOTSTRAP_SUFFIX = " (μ ± 95% CI)"


def _colors_on(args: Any) -> bool:
    return not (getattr(args, "no_color", False) or os.environ.get("NO_COLOR", False))


def _json(results: Mapping[str, Sequence[Any]]) -> str:
    keys = list(results)
    rows = []
    for k, system in enumerate(results["System"]):
        row: dict[str, Any] = {"system": system}
        for key in keys[1:]:
            value = results[key][k]
            row[key] = value if isinstance(value, str) else vars(value)
        rows.append(row)
    return json.dumps(rows, indent=4, default=_number)


def _number(value: Any) -> Any:
    """A NumPy scalar (sacreBLEU's bootstrap means are ``float32``) as its Python number; sacreBLEU's
    ``json.dumps`` fails on them, so this is the one place where the output goes beyond its own."""
    item = getattr(value, "item", None)
    if item is None:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
    return item()


def _cells(results: Mapping[str, Sequence[Any]], width: int, multiline: bool, color: bool) -> dict[str, list[str]]:
    """Every column as the strings tabulate gets: ``System`` first, each metric's results formatted."""
    columns: dict[str, list[str]] = {"System": list(results["System"])}
    breaker = "\n" if multiline else " "
    bootstrap = False  # sticky across metrics, as in sacreBLEU
    for metric, values in results.items():
        if metric == "System":
            continue
        cells = []
        for value in values:
            if isinstance(value, str):
                cells.append(value)
                continue
            cell = f"{value.score:.{width}f}"
            if value.mean is not None:
                bootstrap = True
                cell += f" ({value.mean:.{width}f} ± {value.ci:.{width}f})"
            if value.p_value is not None:
                p_text = f"(p = {value.p_value:.4f})"
                cell += breaker + (paint(p_text, "red", color) if value.p_value > 0.05 else p_text + "*")
            cells.append(cell)
        columns[metric + BOOTSTRAP_SUFFIX if bootstrap else metric] = cells
    return columns


def _explanation(args: Any, baseline_name: str, color: bool) -> list[str]:
    bootstrap = bool(args.paired_bs)
    test = "bootstrap resampling" if bootstrap else "approximate randomization"
    count = args.paired_bs_n if bootstrap else args.paired_ar_n
    unit = "resampling trials" if bootstrap else "trials"
    title = f"Paired {test} test with {count} {unit}"
    baseline = paint("baseline", "yellow", color)
    null = paint("Null hypothesis", "green", color)
    null_lower = null.lower()  # sacreBLEU lowercases the painted text (colour codes have no letters to change)
    return [
        "-" * len(title), title, "-" * len(title),
        f" - Each system is pairwise compared to {paint(baseline_name, 'yellow', color)}.",
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if bootstrap else "   Actual system score is provided for each metric.",
        "",
        f" - {null}: the system and the {baseline} translations are essentially",
        f"   generated by the same underlying process. For a given system and the {baseline},",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        f"   or higher occurring due to chance, under the assumption that the {null_lower} is correct.",
        "",
        f" - Assuming a significance threshold of 0.05, the {null_lower} can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed',
        f'   to chance, hence the system is significantly "different" than the {baseline}.',
        f"   Otherwise, the p-values are {paint('highlighted in red', 'red', color)}.",
        "",
        f' - NOTE: Significance does not tell whether a system is "better" than the {baseline} but rather',
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]


def results_table(results: Mapping[str, Sequence[Any]], signatures: Mapping[str, Any], args: Any) -> str:
    """What sacreBLEU's ``print_results_table(results, signatures, args)`` prints, as one string."""
    if args.format == "json":
        return _json(results) + "\n"
    from tabulate import tabulate

    color = _colors_on(args)
    tablefmt = args.format
    if tablefmt in "text":  # sacreBLEU's test is a substring test on "text"
        tablefmt = "fancy_grid"
    elif tablefmt == "latex":
        tablefmt = "latex_booktabs"
    columns = _cells(results, args.width, tablefmt == "fancy_grid", color)
    painted: dict[str, list[str]] = {}
    baseline_name, seen_baseline = "", False
    for name, cells in columns.items():
        if cells[0].startswith("Baseline:") or seen_baseline:
            if cells[0].startswith("Baseline:"):
                baseline_name = cells[0]
            seen_baseline = True
            cells = [paint(cells[0], "yellow", color), *cells[1:]]
        painted[paint(name, "cyan", color)] = cells
    table = tabulate(painted, headers="keys", tablefmt=tablefmt, colalign=("right",), stralign="center",
                     numalign="center", floatfmt=f".{args.width}f")
    lines = [table, ""]
    if args.paired_bs or args.paired_ar:
        lines += _explanation(args, baseline_name, color)
    lines += ["-----------------", "Metric signatures", "-----------------"]
    lines += [f" - {name:<10} {signature}" for name, signature in signatures.items()]
    return "\n".join(lines) + "\n"
