"""``bleucli compare REF... -i BASELINE SYS...``: a report of two or more systems.

Writes an offline HTML page (``--html``), a Markdown summary (``--markdown``,
the default on stdout) and the data as JSON (``--json``); the numbers come
from :func:`bleucli.report.compare.compare`. ``--fail-if-worse`` exits with
:attr:`~bleucli.clikit.report.ExitCode.WORSE` when a candidate is significantly
worse than the baseline, for CI jobs.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Iterator
from typing import Any

import click

from ..clikit import report
from ..clikit.comparison import comparison_inputs
from ..clikit.metric_options import metric_options
from ..clikit.output import emit
from ..clikit.report import ExitCode
from ..clikit.significance import resample_unit_option
from ..metrics import registry
from ..options import (
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES,
    MAX_JOBS,
    MAX_RESAMPLES,
    RUN_DEFAULTS,
)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@comparison_inputs(
    systems_metavar="BASELINE SYS...",
    systems_help="System output files: the baseline first, then one or more systems to compare with it.",
    source_help="Source sentences, shown next to the references [default with -t: the test set's source].",
    docids_help="The document id of each segment, one a line: adds a document view "
                "[default with -t: the test set's doc ids, when it has them].")
@click.option("-par", "--paired-ar", is_flag=True,
              help="p-values from approximate randomization instead of the paired bootstrap "
                   "(the bootstrap still gives the CIs).")
@click.option("-pbsn", "--paired-bs-n", type=click.IntRange(1, MAX_RESAMPLES), default=DEFAULT_BOOTSTRAP_SAMPLES,
              show_default=True, help="Bootstrap resamples.")
@click.option("-parn", "--paired-ar-n", type=click.IntRange(1, MAX_RESAMPLES), default=DEFAULT_AR_TRIALS,
              show_default=True,
              help="Approximate randomization trials (with --paired-ar).")
@click.option("--seed", default=None, metavar="N|none",
              help="Random seed of the tests [default: BLEUCLI_SEED or 12345]; 'none' for unseeded.")
@click.option("-j", "--jobs", type=click.IntRange(0, MAX_JOBS), default=RUN_DEFAULTS.jobs, show_default=True,
              help="Worker processes (0: one per CPU); the numbers are identical for any value.")
@click.option("--html", "html_path", metavar="FILE", default=None, help="Write the interactive HTML report here.")
@click.option("--markdown", "markdown_path", metavar="FILE|-", default=None,
              help="Write the Markdown summary here ('-': stdout; the default when no output is named).")
@click.option("--json", "json_path", metavar="FILE|-", default=None, help="Write every number as JSON ('-': stdout).")
@click.option("--fail-if-worse", is_flag=True,
              help=f"Exit with code {int(ExitCode.WORSE)} when a system is significantly worse (p <= 0.05) "
                   "than the baseline on any metric.")
@click.option("--min-accuracy", type=click.FloatRange(min=0, max=1), default=None, metavar="A",
              help="With --fail-if-worse: fail only when the estimated accuracy of the delta with human judgments "
                   "(Kocmi et al. 2024) is at least A (0-1), e.g. 0.8; metrics without a published fit never fail.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings on stderr.")
@resample_unit_option
@metric_options
def compare(**flags: Any) -> int:
    """Compare systems: corpus scores with CIs and p-values, and every sentence, highlighted.

    The first -i file is the baseline. Give the references before -i, or a standard test set
    with -t NAME -l PAIR (its source is then shown too). Exit codes: as the scoring command,
    and 8 with --fail-if-worse when a system is significantly worse.
    """
    with report.library_warnings(flags["quiet"]):
        return _compare(flags)


def _compare(flags: dict[str, Any]) -> int:
    from .. import render
    from ..clikit.documents import document_ids, segment_field
    from ..clikit.scoring import Notices, open_inputs
    from ..testsets import cli as tscli
    from .compare import compare as build

    min_accuracy = flags["min_accuracy"]
    if min_accuracy is not None and not flags["fail_if_worse"]:  # before any output is written
        raise click.UsageError("--min-accuracy applies to --fail-if-worse: give both")
    if min_accuracy is not None and min_accuracy != min_accuracy:  # NaN passes FloatRange; nothing is >= NaN
        raise click.BadParameter("nan is not a number from 0 to 1", param_hint="'--min-accuracy'")
    options = _options(flags)
    if len(options.inputs.systems) < 2:
        raise click.UsageError("compare needs a baseline and at least one system: -i BASELINE SYS...")
    if "-" in options.inputs.systems:
        raise click.UsageError("compare reads systems from files, not stdin")
    duplicates = sorted({p for p in options.inputs.systems if options.inputs.systems.count(p) > 1})
    if duplicates:
        raise click.UsageError(f"system file given twice: {duplicates[0]}")
    data = tscli.test_data_for(options)  # usage errors (-t with REF, no -l...) before any reading
    if data is None and not options.inputs.refs:
        raise click.UsageError("give reference files before -i, or a test set with -t NAME -l PAIR")
    signature_fields = data.signature_fields() if data is not None else None
    # bad option values fail before any reading
    target = data.target_language if data is not None else options.testset.target_language
    registry.build_metrics(options.metrics, None, target, signature_fields)
    notices = Notices(flags["quiet"])
    inputs = open_inputs(options, data, notices)  # as the scoring command opens them
    references = [list(stream) for stream in inputs.references]
    systems = [list(stream) for stream in inputs.systems]
    reference_names = list(inputs.reference_names)
    source, source_name = segment_field(options, data, notices, flags["source"] or None, "src")
    documents, documents_name = document_ids(options, data, notices, flags["docids"] or None)
    if flags["docids"] and documents is not None:  # checked as the scoring command's --docids (a blank id)
        from ..significance.units import document_index

        document_index(documents, len(documents), documents_name or "doc ids")
    if options.significance.unit == "document" and documents is None:
        raise click.UsageError("--resample-unit document needs each segment's document id: --docids FILE, "
                               "or a test set with doc ids (-t)")
    notices.flush()
    from ..clikit.progress import progress

    with progress("Comparing", len(references[0]) if references else 0) as advance:
        result = build(options, list(options.inputs.systems), systems, reference_names, references,
                       source=source, source_name=source_name, command=_command_line(flags),
                       signature_fields=signature_fields, test_set=_test_set_input(data),
                       documents=documents, documents_name=documents_name, target_language=target,
                       segment_keep=getattr(data, "keep", None), progress=advance)
    outputs = [(fmt, flags[f"{fmt}_path"]) for fmt in ("html", "markdown", "json") if flags[f"{fmt}_path"]]
    if not outputs:
        outputs = [("markdown", "-")]
    for fmt, path in outputs:
        if fmt == "html":  # written as it is made: a page of 200,000 sentences is never held whole
            from .html import LAZY_ROWS, comparison_page_pieces, lazy_page_steps

            if len(result.segments) <= LAZY_ROWS:  # a few pieces, written in a moment
                _write_pieces(path, comparison_page_pieces(result))
                continue
            with progress(f"Writing {os.path.basename(path)}", lazy_page_steps(result)) as advance:
                _write_pieces(path, _advancing(comparison_page_pieces(result), advance))
        else:
            _write(path, render.comparison(result, fmt))
    if min_accuracy is not None and flags["fail_if_worse"]:
        from ..significance.human_accuracy import human_accuracy

        for name in result.metric_names:
            if human_accuracy(1.0, name) is None:
                report.warning(f"{name} has no published human-accuracy fit: --min-accuracy never fails on it")
    worse = result.worse_systems(min_accuracy)
    if flags["fail_if_worse"] and worse:
        listed = ", ".join(f"{system} ({metric})" for system, metric in worse)
        threshold = "" if min_accuracy is None else f" with an estimated human accuracy >= {min_accuracy:g}"
        report.error(f"significantly worse than the baseline {result.systems[0]}{threshold}: {listed}")
        return ExitCode.WORSE
    return ExitCode.OK


def _test_set_input(data: Any) -> tuple[str, str] | None:
    """The header's line for ``-t``: the sets and pair, and the digest of their reference data."""
    return None if data is None else (f"{data.test} ({data.pair})", data.data_hash)


def _options(flags: dict[str, Any]) -> Any:
    """The run's typed options (:class:`bleucli.options.RunOptions`) from the command's flags."""
    from ..options import (
        InputOptions,
        RunOptions,
        SignificanceOptions,
        TestSetOptions,
        resolve_seed,
    )

    seed_text = flags["seed"] if flags["seed"] is not None else os.environ.get("BLEUCLI_SEED")
    return RunOptions(
        inputs=InputOptions(refs=tuple(flags["refs"]), systems=tuple(flags["inputs"]),
                            num_refs=flags["num_refs"], encoding=flags["encoding"],
                            max_line_bytes=flags["max_line_bytes"]),
        metrics=registry.metric_options_from_flags(flags),
        significance=SignificanceOptions("ar" if flags["paired_ar"] else "bs", paired_bs_n=flags["paired_bs_n"],
                                         paired_ar_n=flags["paired_ar_n"], seed=resolve_seed(seed_text),
                                         unit=flags["resample_unit"], docids=flags["docids"]),
        testset=TestSetOptions(test_set=flags["test_set"], langpair=flags["langpair"], origlang=flags["origlang"],
                               subset=flags["subset"], cache_dir=flags["cache_dir"], offline=flags["offline"],
                               registry=flags["testsets_registry"], mirrors=tuple(flags.get("mirrors") or ())),
        jobs=flags["jobs"],
    )


def _command_line(flags: dict[str, Any]) -> str:
    """The command as the header shows it: inputs and every option that changes a number (deterministic)."""
    words = ["bleucli", "compare", *flags["refs"], "-i", *flags["inputs"]]
    if flags["test_set"]:
        words[2:2] = ["-t", flags["test_set"]]
    for flag, key in (("--source", "source"), ("--docids", "docids"), ("-nr", "num_refs"), ("-l", "langpair"),
                      ("-ol", "origlang"), ("--subset", "subset"), ("-tok", "tokenize"), ("-s", "smooth_method"),
                      ("-sv", "smooth_value"), ("-pbsn", "paired_bs_n"), ("-parn", "paired_ar_n"), ("--seed", "seed")):
        default = {"num_refs": 1, "smooth_method": "exp", "paired_bs_n": DEFAULT_BOOTSTRAP_SAMPLES,
                   "paired_ar_n": DEFAULT_AR_TRIALS}.get(key)
        if flags[key] is not None and flags[key] != default:
            words += [flag, str(flags[key])]
    for flag, key in (("-lc", "lowercase"), ("-par", "paired_ar")):
        if flags[key]:
            words.append(flag)
    if flags["metrics"]:
        words += ["-m", *flags["metrics"]]
    for value in flags.get("segment_scores") or ():
        words += ["--segment-scores", *value.split("\0")]
    for name in flags.get("lower_is_better") or ():
        words += ["--lower-is-better", name]
    if flags["resample_unit"] != "segment":
        words += ["--resample-unit", flags["resample_unit"]]
    return " ".join(shlex.quote(w) for w in words)


def _write(path: str, text: str) -> None:
    """stdout for ``-``; otherwise the file, with a message that names it when writing fails."""
    _write_pieces(path, [text])


def _advancing(pieces: Iterable[str], advance: Any) -> Iterator[str]:
    """The pieces, each counted on the progress bar as it is written (a lazy page: one piece a row)."""
    for piece in pieces:
        yield piece
        advance(1)


def _write_pieces(path: str, pieces: Iterable[str]) -> None:
    """:func:`_write` of the pieces joined, each written as it comes (ends with a newline)."""
    if path == "-":
        emit("".join(pieces))
        return
    from ..clikit.output import write_whole

    def ended(pieces: Iterable[str]) -> Iterator[str]:
        last = ""
        for piece in pieces:
            if piece:
                yield piece
                last = piece
        if not last.endswith("\n"):
            yield "\n"

    write_whole(path, ended(pieces), prefix=".bleucli-compare-")  # never half a page under the name


__all__ = ["compare"]
