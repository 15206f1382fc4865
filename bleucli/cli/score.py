"""``bleucli [score] REF... [-i SYS...]``: the sacreBLEU-compatible scoring command."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import click

from ..errors import SignatureMismatchError
from ..version import __version__
from . import report
from .output import emit
from .metric_options import metric_options
from .significance import significance_options
from .testsets import testset_options

SMOOTH_METHODS = ("exp", "floor", "add-k", "none")
FORMATS = ("json", "text", "latex")


def _tokenizer_names() -> list[str]:
    from ..tokenizers import available_tokenizers

    return available_tokenizers()


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("refs", nargs=-1, metavar="REF...")
@click.option("-i", "--input", "inputs", multiple=True, metavar="FILE...",
              help="System output file(s); several make a table. '-' is stdin. Default: stdin.")
@click.option("-nr", "--num-refs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Split the single reference file on tabs into this many references.")
@click.option("-e", "--encoding", default="utf-8", show_default=True,
              help="Encoding of reference and hypothesis input (decoded strictly).")
@click.option("--tsv", is_flag=True,
              help="stdin holds one system per tab-separated column (sacreBLEU guesses this; bleucli needs the flag).")
@click.option("-tok", "--tokenize", type=click.Choice(_tokenizer_names()), default=None,
              help="Tokenizer [default: 13a, or zh for Chinese targets].")
@click.option("-s", "--smooth-method", type=click.Choice(SMOOTH_METHODS), default="exp", show_default=True,
              help="BLEU smoothing method.")
@click.option("-sv", "--smooth-value", type=float, default=None,
              help="Value for floor (default 0.1) and add-k (default 1) smoothing; finite and >= 0.")
@click.option("-lc", "--lowercase", is_flag=True, help="Case-insensitive BLEU.")
@click.option("--force", is_flag=True, help="Do not warn when the output looks tokenized.")
@click.option("--max-order", type=click.IntRange(1, 9), default=4, show_default=True,
              help="Maximum n-gram order (signature key 'order' when not 4).")
@click.option("-sl", "--sentence-level", is_flag=True,
              help="One score per segment (effective order on, as in sacreBLEU).")
@click.option("-j", "--jobs", "--paired-jobs", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes for scoring (0: one per CPU); the result is identical for any value.")
@click.option("-f", "--format", "output_format", type=click.Choice(FORMATS, case_sensitive=False),
              envvar="BLEUCLI_FORMAT", default=None,
              help="Output format [default: json; text for --sentence-level]. Env: BLEUCLI_FORMAT.")
@click.option("-b", "--score-only", is_flag=True, help="Print only the score(s).")
@click.option("-w", "--width", type=click.IntRange(0, 30), default=1, show_default=True,
              help="Decimal places of printed scores (JSON scores are never rounded).")
@click.option("-sh", "--short", is_flag=True, help="Abbreviated signature keys.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings on stderr.")
@click.option("--expect-signature", metavar="SIG", default=None,
              help="Fail with exit code 7 if the signature differs from SIG (a value of '*' matches anything, e.g. version:*).")
@click.version_option(__version__, "-V", "--version", prog_name="bleucli", message="%(prog)s %(version)s")
@testset_options
@significance_options
@metric_options
def score(**options: Any) -> int:
    """Score hypotheses against reference files REF... with BLEU, chrF or TER.

    Hypotheses come from stdin (one segment per line) or -i FILE...; give the
    references before -i, or score against a standard test set with -t NAME -l PAIR.
    Exit codes: 0 ok, 1 internal error, 2 usage, 3 bad input data, 4 download
    failed, 5 checksum/corrupt cache, 6 unsafe archive or bad registry,
    7 signature mismatch, 141 broken pipe.
    """
    return run_score(options)


def run_score(options: dict[str, Any]) -> int:
    """Collect warnings from the library and show them unless ``--quiet``."""
    from ..metrics.base import BleucliWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BleucliWarning)
        try:
            return _score(options)
        finally:
            if not options["quiet"]:
                for item in caught:
                    if issubclass(item.category, BleucliWarning):
                        report.warning(str(item.message))


def _score(o: dict[str, Any]) -> int:
    from ..inputs import open_references, open_system
    from ..streaming import score_streams_multi, sentence_scores

    from . import metric_options as mcli
    from . import significance as sigcli
    from . import testsets as tscli

    code = tscli.early_action(o)
    if code is not None:
        return code
    _check_conflicts(o)
    data = tscli.test_data_for(o)
    if o["smooth_value"] is not None and o["smooth_method"] in ("exp", "none"):
        report_notice(o, f"--smooth-value is ignored by the {o['smooth_method']} smoothing method")
    def build_metrics(refs: list[list[str]] | None = None) -> list[Any]:
        return mcli.build_metrics(o, refs, tscli.target_language(o))

    sigcli.check_mode(o)
    metrics = build_metrics()  # validates every option before any input is read
    if o["sentence_level"] and len(metrics) > 1:
        raise click.UsageError("--sentence-level takes one metric (-m)")
    if o["expect_signature"] is not None:  # a malformed expectation is a usage error, before any work
        _expected_for(o["expect_signature"], metrics)

    notices: list[str] = []
    if data is not None:
        ref_names, references = tscli.reference_names(data), data.references
        o["_json_extra"] = tscli.json_extra(data)
    else:
        ref_names, references = open_references(o["refs"], o["num_refs"], o["encoding"], notices)
    system_names: list[str] = []
    systems = []
    for path in list(o["inputs"]) or ["-"]:
        stdin = _stdin_stream() if path == "-" else None
        names, streams = open_system(path, o["encoding"], notices, stdin, o["tsv"])
        system_names.extend(names)
        systems.extend(streams)
    if data is not None:
        systems = tscli.filter_systems(data, system_names, systems)

    if sigcli.requested(o):
        sigcli.run(o, build_metrics, systems, references, system_names, ref_names)
        _show_notices(o, notices)
        return 0
    if o["sentence_level"]:
        (metric,) = metrics
        metric.expect_references(len(references))
        signature = metric.signature()
        if data is not None:
            signature = signature.with_fields(**data.signature_fields())
        _check_expected_signature(o, signature)
        results = sentence_scores(metric, systems[0], references, system_names[0], ref_names)
        if data is not None:
            results = (tscli.with_test_signature(data, r) for r in results)
        _print_sentences(o, results, notices)
        return 0
    scores = score_streams_multi(metrics, systems, references, system_names, ref_names, jobs=o["jobs"])
    if data is not None:
        scores = [[tscli.with_test_signature(data, s) for s in row] for row in scores]
    _show_notices(o, notices)
    _check_expected_signature(o, [score.signature for score in scores[0]])
    _print_corpus(o, system_names, scores)
    return 0


def _show_notices(o: dict[str, Any], notices: list[str]) -> None:
    for notice in notices:
        report_notice(o, notice)
    notices.clear()


def report_notice(options: dict[str, Any], message: str) -> None:
    if not options["quiet"]:
        report.warning(message)


def _check_conflicts(o: dict[str, Any]) -> None:
    if o["sentence_level"] and len(o["inputs"]) > 1:
        raise click.UsageError("--sentence-level scores one system: give a single -i file")
    if o["sentence_level"] and o["tsv"]:
        raise click.UsageError("--sentence-level scores one system: --tsv cannot be used with it")
    if o["tsv"] and o["inputs"] and "-" not in o["inputs"]:
        raise click.UsageError("--tsv applies to stdin, but hypotheses come from -i files")
    names = [p for p in o["inputs"]]
    duplicates = sorted({p for p in names if names.count(p) > 1})
    if duplicates:
        raise click.UsageError(f"system file given twice: {duplicates[0]}")


def _stdin_stream() -> Any:
    """stdin as bytes, or ``None`` when it is closed; a terminal is refused rather than waited on."""
    stream = sys.stdin
    if stream is None or getattr(stream, "closed", False):
        return None
    try:
        if stream.isatty():
            raise click.UsageError("no hypotheses: pipe them into stdin or give -i FILE")
    except (ValueError, OSError):
        return None
    return click.get_binary_stream("stdin")


def _expected_for(text: str, candidates: list[Any]) -> tuple[int, dict[str, str]]:
    """Which metric an expected signature is about (its ``NAME|`` prefix, else the first), and its fields."""
    from ..signature import metric_family, parse_signature

    names = [c.name if hasattr(c, "name") else c.metric for c in candidates]
    head = text.strip().split("|", 1)[0]
    index = 0
    if ":" not in head:
        families = [metric_family(n) for n in names]
        if metric_family(head) in families:
            index = families.index(metric_family(head))
    return index, parse_signature(text, metric=names[index])[1]


def _check_expected_signature(o: dict[str, Any], signatures: Any) -> None:
    expected = o["expect_signature"]
    if expected is None:
        return
    signatures = signatures if isinstance(signatures, list) else [signatures]
    index, fields = _expected_for(expected, signatures)
    differences = signatures[index].diff(fields)
    if differences:
        raise SignatureMismatchError(differences)


def _print_corpus(o: dict[str, Any], names: list[str], scores: list[list[Any]]) -> None:
    from ..render import score_dict, systems_json, systems_table, text_lines, to_json

    fmt = (o["output_format"] or "json").lower()
    width, short = o["width"], o["short"]
    if len(names) > 1:
        if o["score_only"]:
            emit("\n".join(f"{s.score:.{width}f}" for row in scores for s in row))
        elif fmt == "json":
            emit(systems_json(names, scores))
        else:
            emit(systems_table(names, scores, width, short, latex=fmt == "latex"))
        return
    row = scores[0]
    if o["score_only"]:
        emit("\n".join(f"{s.score:.{width}f}" for s in row))
    elif fmt == "json":
        extra = o.get("_json_extra") or {}
        emit(to_json({**score_dict(row[0]), **extra}) if len(row) == 1
             else to_json([{**score_dict(s), **extra} for s in row]))
    else:
        emit("\n".join(text_lines(row, width, short)))


def _print_sentences(o: dict[str, Any], results: Any, notices: list[str]) -> None:
    """Print each segment's score as soon as it is computed (text, or JSON lines with -f json)."""
    import json

    from ..render import check_finite, score_dict

    fmt = (o["output_format"] or "text").lower()
    width, short = o["width"], o["short"]
    for result in results:
        check_finite(result)
        if o["score_only"]:
            emit(f"{result.score:.{width}f}")
        elif fmt == "json":
            emit(json.dumps(score_dict(result), ensure_ascii=False, allow_nan=False))
        else:
            emit(result.format(width=width, short=short))
        _show_notices(o, notices)
    _show_notices(o, notices)


__all__ = ["score", "run_score"]
