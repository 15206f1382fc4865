"""Subcommands for BLEU's variants: ``self-bleu``, ``ibleu``, ``gleu``, ``google-bleu`` and ``pairwise``.

Flags are parsed here and handed to the library (:mod:`bleucli.family`);
output strings come from :mod:`bleucli.family.render`. Failures are typed
errors that ``bleucli.cli`` turns into one line and a documented exit code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from ..clikit.output import emit, emit_when_complete
from ..errors import InputError
from ..input.reading import fixed_line_limit
from ..options import (
    BLEU_DEFAULTS,
    GLEU_ITERATIONS,
    GLEU_MAX_ORDER,
    GLEU_SAMPLING,
    GOOGLE_BLEU_MAX_ORDER,
    GOOGLE_BLEU_MIN_ORDER,
    GOOGLE_BLEU_ORDER_LIMIT,
    IBLEU_ALPHA,
    MAX_RESAMPLES,
    SMOOTH_DEFAULTS,
    TEXYGEN_MAX_ORDER,
    TEXYGEN_SAMPLE_SIZE,
)

FORMAT_OPTION = click.option("-f", "--format", "output_format", type=click.Choice(["json", "text"]), default="json",
                             show_default=True, help="Output format.")
WIDTH_OPTION = click.option("-w", "--width", type=click.IntRange(0, 17), default=4, show_default=True,
                            help="Digits after the decimal point (JSON also has unrounded_score).")
SHORT_OPTION = click.option("-sh", "--short", is_flag=True, help="Short signature keys.")


@fixed_line_limit
def read_lines(path: str) -> list[str]:
    """A file's lines as bleucli reads every input (``-`` is stdin; ``.gz`` decompressed)."""
    from ..input.reading import STDIN_NAME, decode_source, read_source, read_stdin

    if path == "-":
        return decode_source(read_stdin(), STDIN_NAME).lines()
    return read_source(path).lines()


def read_streams(paths: Sequence[str], hypothesis: str, what: str = "reference") -> tuple[list[str], list[list[str]]]:
    """The hypothesis lines and each reference file's lines, refusing empty files and unequal line counts."""
    hyp = read_lines(hypothesis)
    if not hyp:
        raise InputError("the file is empty", source="<stdin>" if hypothesis == "-" else hypothesis)
    streams = []
    for path in paths:
        stream = read_lines(path)
        if len(stream) != len(hyp):
            raise InputError(f"has {len(stream)} lines but the hypotheses have {len(hyp)}", source=path)
        streams.append(stream)
    return hyp, streams


def _print(output_format: str, width: int, short: bool, result: Any, details: str = "") -> None:
    from .render import variant_json, variant_line

    if output_format == "text":
        emit(variant_line(result.name, result.signature, result.score, width, short, details))
    else:
        emit(variant_json(result.to_dict(), width, short, result.signature))


@click.command("self-bleu")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--texygen", is_flag=True,
              help=f"Texygen's Self-BLEU (geek-ai/Texygen): NLTK sentence BLEU with method1 smoothing, uniform "
                   f"weights, the first {TEXYGEN_SAMPLE_SIZE} lines, whitespace tokens unless -tok names one; "
                   "0..1.")
@click.option("--max-order", type=click.IntRange(1, 9), default=None,
              help=f"Largest n-gram order (S-BLEU-N). Default: {TEXYGEN_MAX_ORDER} with --texygen (Texygen's "
                   f"gram), {BLEU_DEFAULTS.max_order} otherwise.")
@click.option("--all-lines", is_flag=True, help=f"With --texygen: every line, not the first {TEXYGEN_SAMPLE_SIZE}.")
@click.option("-tok", "--tokenize", default=None,
              help="Tokenizer (bleucli's names). Default: 13a; whitespace with --texygen.")
@click.option("-lc", "--lowercase", is_flag=True, help="Lowercase first (sacreBLEU-style mode).")
@click.option("-s", "--smooth-method", type=click.Choice(list(SMOOTH_DEFAULTS)), default=BLEU_DEFAULTS.smooth_method,
              show_default=True, help="Smoothing (sacreBLEU-style mode).")
@click.option("--smooth-value", type=float, default=None, help="Smoothing value for floor/add-k.")
@click.option("--no-effective-order", is_flag=True,
              help="Average over all orders, not those the sentence has (sacreBLEU-style mode).")
@FORMAT_OPTION
@WIDTH_OPTION
@SHORT_OPTION
def self_bleu_command(file: str, texygen: bool, max_order: int | None, all_lines: bool, tokenize: str | None,
                      lowercase: bool, smooth_method: str, smooth_value: float | None, no_effective_order: bool,
                      output_format: str, width: int, short: bool) -> None:
    """Self-BLEU of FILE: each line scored against all the other lines, averaged (diversity of generated text).

    Without --texygen, sacreBLEU's sentence BLEU (13a tokens, exp smoothing,
    effective order) on 0..100 over every line.
    """
    from .self_bleu import self_bleu, texygen_self_bleu

    if texygen and (lowercase or smooth_method != BLEU_DEFAULTS.smooth_method or smooth_value is not None
                    or no_effective_order):
        raise click.UsageError("-lc, -s, --smooth-value and --no-effective-order are options of the "
                               "sacreBLEU-style mode: --texygen always uses NLTK's method1 on the text as is")
    if all_lines and not texygen:
        raise click.UsageError("--all-lines goes with --texygen (the sacreBLEU-style mode uses every line)")
    lines = read_lines(file)
    source = "<stdin>" if file == "-" else file
    if len(lines) < 2:
        raise InputError(f"Self-BLEU needs at least 2 lines, the file has {len(lines)}", source=source)
    from ..clikit.progress import progress
    from .self_bleu import progress_steps

    if texygen:
        order = max_order or TEXYGEN_MAX_ORDER
        with progress("Self-BLEU", progress_steps(order)) as advance:
            result = texygen_self_bleu(lines, max_order=order, tokenize=tokenize,
                                       sample_size=None if all_lines else TEXYGEN_SAMPLE_SIZE, progress=advance)
    else:
        from ..metrics.bleu import BLEU

        metric = BLEU(lowercase=lowercase, tokenize=tokenize or "13a", smooth_method=smooth_method,
                      smooth_value=smooth_value, max_ngram_order=max_order or BLEU_DEFAULTS.max_order,
                      effective_order=not no_effective_order, force=True)
        with progress("Self-BLEU", progress_steps(metric.max_ngram_order)) as advance:
            result = self_bleu(lines, metric, progress=advance)
    _print(output_format, width, short, result)


__all__ = ["self_bleu_command", "read_lines", "read_streams", "GLEU_ITERATIONS", "GLEU_MAX_ORDER", "GLEU_SAMPLING",
           "GOOGLE_BLEU_MAX_ORDER", "GOOGLE_BLEU_MIN_ORDER", "IBLEU_ALPHA"]


def _pairwise_segments(path: str) -> list[tuple[Any, Any]]:
    """The JSONL input of ``pairwise``: one object per line, ``hypotheses`` and (optional) ``references``."""
    import json

    from ..input.bounded import loads, lone_surrogate

    source = "<stdin>" if path == "-" else path
    segments = []
    for number, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        try:
            item = loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON: {exc.msg} (column {exc.colno})", source=source, line=number) from None
        except ValueError as exc:  # nested deeper than any input line needs (json.loads would recurse)
            raise InputError(f"not valid JSON: {exc}", source=source, line=number) from None
        if not isinstance(item, dict) or "hypotheses" not in item:
            raise InputError('each line must be a JSON object with a "hypotheses" list', source=source, line=number)
        hyps, refs = item["hypotheses"], item.get("references", item["hypotheses"])
        for what, values in (("hypotheses", hyps), ("references", refs)):
            if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
                raise InputError(f'"{what}" must be a non-empty list of strings', source=source, line=number)
            if "\\u" in line and any(lone_surrogate(value) for value in values):
                raise InputError(f'"{what}" holds a lone surrogate: not Unicode text', source=source, line=number)
        segments.append((hyps, refs))
    if not segments:
        raise InputError("no segments in the input", source=source)
    return segments


@click.command("pairwise")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--metric", type=click.Choice(["bleu", "chrf"]), default="bleu", show_default=True)
@click.option("-tok", "--tokenize", default="13a", show_default=True, help="BLEU's tokenizer.")
@click.option("-lc", "--lowercase", is_flag=True, help="Lowercase first.")
@click.option("-s", "--smooth-method", type=click.Choice(list(SMOOTH_DEFAULTS)), default=BLEU_DEFAULTS.smooth_method,
              show_default=True, help="BLEU's smoothing.")
@click.option("--smooth-value", type=float, default=None, help="Smoothing value for floor/add-k.")
@click.option("--max-order", type=click.IntRange(1, 9), default=BLEU_DEFAULTS.max_order, show_default=True)
@click.option("--no-effective-order", is_flag=True, help="BLEU without effective order (sacreBLEU's BLEU() default).")
@click.option("-cw", "--chrf-word-order", type=click.IntRange(0, None), default=0, show_default=True,
              help="chrF word order (2: chrF++).")
@click.option("--aggregate", is_flag=True,
              help="chrF only: one score per hypothesis against the aggregate (average) of the references "
                   "(Vamvas & Sennrich 2024), {\"scores\": [...]}.")
def pairwise_command(file: str, metric: str, tokenize: str, lowercase: bool, smooth_method: str,
                     smooth_value: float | None, max_order: int, no_effective_order: bool,
                     chrf_word_order: int, aggregate: bool) -> None:
    """Sentence scores of every hypothesis against every reference, per JSONL line of FILE.

    Each input line is {"hypotheses": [...], "references": [...]} (references
    default to the hypotheses, as in MBR decoding); each output line is
    {"scores": [[...], ...]}, one row per hypothesis, one column per reference:
    sacreBLEU's sentence_score of that pair.
    """
    from .render import matrix_json_line, scores_json_line

    if aggregate and metric != "chrf":
        raise click.UsageError("--aggregate is defined for chrF: add --metric chrf")
    segments = _pairwise_segments(file)
    scorer: Any
    if metric == "bleu":
        from ..metrics.bleu import BLEU

        scorer = BLEU(tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method, smooth_value=smooth_value,
                      max_ngram_order=max_order, effective_order=not no_effective_order, force=True)
    else:
        from ..metrics.chrf import CHRF

        scorer = CHRF(word_order=chrf_word_order, lowercase=lowercase)
    signature = None
    for hyps, refs in segments:
        signature = signature or scorer.signature(1).format()
        if aggregate:  # against all the segment's references at once: nrefs is their number
            from ..metrics.pairwise import aggregate_chrf_scores

            emit(scores_json_line(aggregate_chrf_scores(scorer, hyps, refs),
                                  {"name": scorer.name, "signature": scorer.signature(len(refs)).format(),
                                   "aggregate": True}))
        else:
            emit(matrix_json_line(scorer.pairwise_scores(hyps, refs), {"name": scorer.name, "signature": signature}))


def _bleu_options(function: Any) -> Any:
    """BLEU's flags shared by the variants built on it."""
    for option in reversed([
        click.option("-tok", "--tokenize", default="13a", show_default=True, help="Tokenizer."),
        click.option("-lc", "--lowercase", is_flag=True, help="Lowercase first."),
        click.option("-s", "--smooth-method", type=click.Choice(list(SMOOTH_DEFAULTS)),
                     default=BLEU_DEFAULTS.smooth_method, show_default=True, help="Smoothing."),
        click.option("--smooth-value", type=float, default=None, help="Smoothing value for floor/add-k."),
        click.option("--max-order", type=click.IntRange(1, 9), default=BLEU_DEFAULTS.max_order, show_default=True),
    ]):
        function = option(function)
    return function


@click.command("ibleu")
@click.argument("references", nargs=-1, required=True, type=click.Path())
@click.option("-i", "--input", "hypothesis", required=True, type=click.Path(allow_dash=True),
              help="The candidates (paraphrases), one per line.")
@click.option("--source", required=True, type=click.Path(), help="The sources, one per line.")
@click.option("--alpha", type=click.FloatRange(0.0, 1.0), default=IBLEU_ALPHA, show_default=True,
              help="Weight of BLEU against the references; 1-alpha weighs the penalty of BLEU against the source.")
@click.option("--sentence-level", is_flag=True,
              help="Average the iBLEU of each segment (sentence BLEU with effective order) instead of corpus BLEU.")
@_bleu_options
@FORMAT_OPTION
@WIDTH_OPTION
@SHORT_OPTION
def ibleu_command(references: tuple[str, ...], hypothesis: str, source: str, alpha: float, sentence_level: bool,
                  tokenize: str, lowercase: bool, smooth_method: str, smooth_value: float | None, max_order: int,
                  output_format: str, width: int, short: bool) -> None:
    """iBLEU (Sun & Zhou 2012): alpha*BLEU(candidates, REFERENCES) - (1-alpha)*BLEU(candidates, source).

    Paraphrase evaluation: rewards adequacy and penalizes copying the source.
    (Not Madnani's 2011 iBLEU, which is an interactive score viewer.)
    """
    from ..metrics.bleu import BLEU
    from .ibleu import ibleu

    hyps, streams = read_streams([*references, source], hypothesis)
    metric = BLEU(tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method, smooth_value=smooth_value,
                  max_ngram_order=max_order, effective_order=sentence_level, force=True)
    result = ibleu(hyps, streams[:-1], streams[-1], alpha=alpha, metric=metric, sentence_level=sentence_level)
    _print(output_format, width, short, result, result.details(width))


@click.command("gleu")
@click.argument("references", nargs=-1, required=True, type=click.Path())
@click.option("-i", "--input", "hypothesis", required=True, type=click.Path(allow_dash=True),
              help="The corrected sentences, one per line.")
@click.option("--source", required=True, type=click.Path(), help="The uncorrected source sentences.")
@click.option("--order", type=click.IntRange(1, 9), default=GLEU_MAX_ORDER, show_default=True,
              help="Largest n-gram order (gleu.py's -n).")
@click.option("--iterations", type=click.IntRange(1, MAX_RESAMPLES), default=GLEU_ITERATIONS, show_default=True,
              help="Random reference choices (gleu.py's --iter).")
@click.option("--sampling", type=click.Choice(GLEU_SAMPLING), default=GLEU_SAMPLING[0], show_default=True,
              help="Whose random.randint picks the references: python2 reproduces the published JFLEG numbers, "
                   "python3 what gleu.py prints under Python 3.")
@click.option("--sentence-level", is_flag=True,
              help="gleu.py --sent: per sentence, mean/std/interval of its smoothed GLEU against each reference "
                   "(one line each).")
@FORMAT_OPTION
@click.option("-w", "--width", type=click.IntRange(0, 17), default=6, show_default=True,
              help="Digits after the decimal point (gleu.py prints 6; JSON also has unrounded_score).")
@SHORT_OPTION
def gleu_command(references: tuple[str, ...], hypothesis: str, source: str, order: int, iterations: int,
                 sampling: str, sentence_level: bool, output_format: str, width: int, short: bool) -> None:
    """GLEU for grammatical error correction (Napoles et al. 2015/2016), exactly as keisks/jfleg's gleu.py.

    Mean, standard deviation and 95% interval of corpus GLEU over random
    choices of one reference per sentence (0..1). Not Google's GLEU (see
    `bleucli google-bleu`).
    """
    from .gleu import jfleg_gleu

    hyps, streams = read_streams([*references, source], hypothesis)
    if sentence_level:
        from .gleu import jfleg_sentence_gleu
        from .render import sentence_gleu_line

        sentences = jfleg_sentence_gleu(hyps, streams[:-1], streams[-1], order, sampling)
        emit_when_complete(sentence_gleu_line(number, sentence.to_dict(), output_format, width)
                           for number, sentence in enumerate(sentences, 1))
        return
    result = jfleg_gleu(hyps, streams[:-1], streams[-1], order=order, iterations=iterations, sampling=sampling)
    _print(output_format, width, short, result, result.details(width))


@click.command("google-bleu")
@click.argument("references", nargs=-1, required=True, type=click.Path())
@click.option("-i", "--input", "hypothesis", required=True, type=click.Path(allow_dash=True),
              help="The hypotheses, one per line.")
@click.option("--min-order", type=click.IntRange(1, GOOGLE_BLEU_ORDER_LIMIT), default=GOOGLE_BLEU_MIN_ORDER,
              show_default=True,
              help="Smallest n-gram order (NLTK's min_len).")
@click.option("--max-order", type=click.IntRange(1, GOOGLE_BLEU_ORDER_LIMIT), default=GOOGLE_BLEU_MAX_ORDER,
              show_default=True,
              help="Largest n-gram order (NLTK's max_len).")
@click.option("-tok", "--tokenize", default=None,
              help="A bleucli tokenizer (13a is HF evaluate's google_bleu default). Default: whitespace, as NLTK "
                   "takes tokens.")
@FORMAT_OPTION
@WIDTH_OPTION
@SHORT_OPTION
def google_bleu_command(references: tuple[str, ...], hypothesis: str, min_order: int, max_order: int,
                        tokenize: str | None, output_format: str, width: int, short: bool) -> None:
    """Google-BLEU (the GLEU of Wu et al. 2016) as NLTK's corpus_gleu: min(precision, recall) of n-grams, 0..1.

    Not the GLEU of grammatical error correction (see `bleucli gleu`).
    """
    from .google_bleu import google_bleu

    hyps, streams = read_streams(references, hypothesis)
    _print(output_format, width, short, google_bleu(hyps, streams, min_order, max_order, tokenize))


def register_variant_commands(group: click.Group) -> None:
    """Add the variants' subcommands to the ``bleucli`` group (called by ``bleucli.cli``)."""
    for command in (self_bleu_command, pairwise_command, ibleu_command, gleu_command, google_bleu_command):
        group.add_command(command)
