"""``--help`` grouped by purpose, as sacreBLEU's argparse groups its ~50 flags.

click has no option groups, and a help formatter is all that grouping needs: a
dependency (cloup) would load at every start-up for a screen printed on request.
:class:`GroupedCommand` writes the options under the section titles of
:data:`SECTIONS`; an option no section names is shown under "Other options"
(the tests check that none is), so a new flag is never hidden. The exit codes
at the end come from the one table of :mod:`bleucli.clikit.report`.
"""

from __future__ import annotations

import click

from .report import EXIT_CODE_MEANINGS

#: (section title, parameter names) in the order they are shown; parameter names as click knows them.
SECTIONS: list[tuple[str, list[str]]] = [
    ("Input", ["inputs", "num_refs", "encoding", "tsv", "aligned", "columns", "max_line_bytes"]),
    ("Standard test sets", ["test_set", "langpair", "echo", "list_sets", "citation", "download", "origlang",
                            "subset", "cache_dir", "offline", "mirrors", "testsets_registry"]),
    ("Metrics", ["metrics", "segment_scores", "lower_is_better"]),
    # then each metric's own section, from the registry (metric_help_sections)
    ("Confidence intervals (one system) and paired significance tests (several)",
     ["confidence", "confidence_n", "paired_bs", "paired_bs_n", "paired_ar", "paired_ar_n", "seed",
      "resample_unit", "docids", "human_accuracy"]),
    ("Output", ["sentence_level", "output_format", "score_only", "width", "short", "detail", "no_color", "quiet",
                "expect_signature"]),
    ("Speed (the scores are the same)", ["jobs", "dask"]),
    ("General", ["version", "help"]),
]

OTHER = "Other options"


def sections() -> list[tuple[str, list[str]]]:
    """:data:`SECTIONS` with each registered metric's section after "Metrics"."""
    from .metric_options import metric_help_sections

    at = next(i for i, (title, _) in enumerate(SECTIONS) if title == "Metrics") + 1
    return [*SECTIONS[:at], *metric_help_sections(), *SECTIONS[at:]]


def grouped_help_records(command: click.Command, ctx: click.Context) -> list[tuple[str, list[tuple[str, str]]]]:
    """The command's options as ``(section title, [(flags, help)])``, in :data:`SECTIONS` order."""
    records: dict[str, tuple[str, str]] = {}
    for param in command.get_params(ctx):
        if isinstance(param, click.Argument) or param.name is None:
            continue
        record = param.get_help_record(ctx)
        if record is not None:
            records["help" if "--help" in param.opts else param.name] = record  # click's own name is private
    out = []
    placed: set[str] = set()
    for title, names in sections():
        rows = [records[name] for name in names if name in records]
        placed.update(names)
        if rows:
            out.append((title, rows))
    rest = [record for name, record in records.items() if name not in placed]
    if rest:
        out.append((OTHER, rest))
    return out


def write_grouped_options(command: click.Command, ctx: click.Context, formatter: click.HelpFormatter) -> None:
    for title, rows in grouped_help_records(command, ctx):
        with formatter.section(title):
            formatter.write_dl(rows)


def write_exit_codes(formatter: click.HelpFormatter) -> None:
    with formatter.section("Exit codes"):
        formatter.write_dl([(str(int(code)), meaning) for code, meaning in EXIT_CODE_MEANINGS.items()])


class GroupedCommand(click.Command):
    """A command whose ``--help`` shows its options in sections and ends with the exit codes."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        write_grouped_options(self, ctx, formatter)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        write_exit_codes(formatter)
