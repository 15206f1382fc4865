"""The BLEU-family commands: multi-bleu, multi-bleu-detok, nltk, which-bleu.

``bleucli nltk REF... [-i HYP]`` scores with NLTK 3.10's BLEU (:mod:`bleucli.family.nltk`)
on the tokens of a chosen tokenizer (``-tok none``: whitespace-split, for
pre-tokenized files); ``bleucli which-bleu REF... [-i HYP]`` prints one
system under each definition of :mod:`bleucli.family.which`.
"""

from __future__ import annotations

import math
from typing import Any

import click

from ..input.reading import fixed_line_limit


def register_bleu_family_commands(group: click.Group) -> None:
    from .cli_multibleu import multi_bleu_command, multi_bleu_detok_command

    group.add_command(multi_bleu_command)
    group.add_command(multi_bleu_detok_command)
    group.add_command(nltk_command)
    group.add_command(which_bleu_command)


@fixed_line_limit
def _read(refs: tuple[str, ...], hypothesis: str | None) -> tuple[list[str], list[list[str]]]:
    """Hypothesis lines (``-i`` file or stdin) and reference lines, same length or a one-line error."""
    from ..errors import InputError, LengthMismatchError
    from ..input.reading import STDIN_NAME, decode_source, read_source, read_stdin

    if not refs:
        raise click.UsageError("give at least one reference file")
    references = [read_source(path).lines() for path in refs]
    if hypothesis is None:
        data = read_stdin("; give the hypothesis with -i FILE",
                          "no hypothesis: give -i FILE or pipe the output on stdin")
        hyps = decode_source(data, STDIN_NAME).lines()
        name = STDIN_NAME
    else:
        hyps = read_source(hypothesis).lines()
        name = hypothesis
    if not hyps:
        raise InputError("the hypothesis is empty", name)
    for path, lines in zip(refs, references):
        if len(lines) != len(hyps):
            raise LengthMismatchError(f"{path} has {len(lines)} lines but {name} has {len(hyps)}")
    return hyps, references


def _parse_weights(values: tuple[str, ...]) -> list[tuple[float, ...]]:
    """``--weights 0.25,0.25,0.25,0.25`` (repeatable): each a tuple of finite numbers >= 0."""
    from ..errors import OptionError

    result = []
    for value in values or ("0.25,0.25,0.25,0.25",):
        try:
            weights = tuple(float(part) for part in value.split(","))
        except ValueError:
            raise OptionError(f"invalid --weights '{value}': expected numbers separated by commas") from None
        if not weights or any(not math.isfinite(w) or w < 0 for w in weights):
            raise OptionError(f"invalid --weights '{value}': every weight must be a finite number >= 0")
        result.append(weights)
    return result


_INPUT = click.option("-i", "--input", "hypothesis", metavar="FILE", default=None,
                      help="The system output (default: stdin).")
_TOKENIZE = click.option("-tok", "--tokenize", default="13a", show_default=True,
                         help="Tokenizer giving the tokens ('none': split on whitespace, for tokenized files).")
_LOWERCASE = click.option("-lc", "--lowercase", is_flag=True, help="Lowercase before tokenizing.")
_FORMAT = click.option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                       show_default=True)
_SHORT = click.option("-sh", "--short", is_flag=True, help="Short signature keys.")


@click.command("nltk", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("refs", nargs=-1, required=True)
@_INPUT
@_TOKENIZE
@_LOWERCASE
@click.option("-w", "--weights", "weights", multiple=True, metavar="W1,W2,...",
              help="n-gram weights; repeat for several (default 0.25,0.25,0.25,0.25: BLEU-4; 0,0,0,1: 4-grams only).")
@click.option("--smoothing", type=click.IntRange(0, 7), default=0, show_default=True,
              help="Chen & Cherry's smoothing method (NLTK's SmoothingFunction().methodN).")
@click.option("--epsilon", type=float, default=0.1, show_default=True, help="Method 1's epsilon.")
@click.option("--alpha", type=float, default=5, show_default=True, help="Method 6's alpha.")
@click.option("--k", "k", type=float, default=5, show_default=True, help="Methods 4 and 7's k.")
@click.option("--auto-reweigh", is_flag=True, help="NLTK's auto_reweigh (hypotheses shorter than 4 tokens).")
@click.option("-sl", "--sentence-level", is_flag=True, help="sentence_bleu of each segment, one line each.")
@_FORMAT
@_SHORT
def nltk_command(refs: tuple[str, ...], hypothesis: str | None, tokenize: str, lowercase: bool,
                 weights: tuple[str, ...], smoothing: int, epsilon: float, alpha: float, k: float,
                 auto_reweigh: bool, sentence_level: bool, fmt: str, short: bool) -> int:
    """BLEU exactly as NLTK 3.10 computes it (corpus_bleu / sentence_bleu), on REF... and a hypothesis."""
    import warnings

    from ..clikit.output import emit
    from ..errors import OptionError
    from ..tokenizers import get_tokenizer
    from . import nltk
    from .render_which import nltk_scores, nltk_sentences
    from .which import NLTK_METRIC, nltk_signature, nltk_smoothing_label

    weight_list = _parse_weights(weights)
    for flag, value in (("--epsilon", epsilon), ("--alpha", alpha), ("--k", k)):
        if not math.isfinite(value) or value < 0:  # NLTK drops a NaN or negative precision: an inflated score
            raise OptionError(f"invalid {flag} {value}: it must be a finite number >= 0")
    tokenizer = get_tokenizer(tokenize)
    hyps, references = _read(refs, hypothesis)

    def split(line: str) -> list[str]:
        return tokenizer.tokens(line.lower() if lowercase else line)

    hyp_tokens = [split(line) for line in hyps]
    ref_tokens = [[split(ref[i]) for ref in references] for i in range(len(hyps))]
    function = getattr(nltk.SmoothingFunction(epsilon=epsilon, alpha=alpha, k=k), f"method{smoothing}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        if sentence_level:
            rows: list[Any] = [nltk.sentence_bleu(r, h, weight_list, function, auto_reweigh)
                               for r, h in zip(ref_tokens, hyp_tokens)]
            emit(nltk_sentences([row if isinstance(row, list) else [row] for row in rows], fmt))
            return 0
        scores = nltk.corpus_bleu(ref_tokens, hyp_tokens, weight_list, function, auto_reweigh)
    scores = scores if isinstance(scores, list) else [scores]
    label = nltk_smoothing_label(smoothing, epsilon, alpha, k)
    signatures = [nltk_signature(len(refs), lowercase, tokenizer.signature, w, label, auto_reweigh)
                  for w in weight_list]
    emit(nltk_scores(NLTK_METRIC, signatures, scores, fmt, short, weight_list))
    return 0


@click.command("which-bleu", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("refs", nargs=-1, required=True)
@_INPUT
@_TOKENIZE
@_LOWERCASE
@_FORMAT
@_SHORT
@click.option("-w", "--width", type=click.IntRange(0, 16), default=2, show_default=True,
              help="Decimals printed in the text table.")
def which_bleu_command(refs: tuple[str, ...], hypothesis: str | None, tokenize: str, lowercase: bool, fmt: str,
                       short: bool, width: int) -> int:
    """One system's BLEU under several definitions side by side (sacreBLEU, NLTK, multi-bleu.perl, NIST BP)."""
    from ..clikit.output import emit
    from .render_which import definitions
    from .which import score_definitions

    hyps, references = _read(refs, hypothesis)
    emit(definitions(score_definitions(hyps, references, tokenize=tokenize, lowercase=lowercase), fmt, width,
                     short))
    return 0


__all__ = ["register_bleu_family_commands"]
