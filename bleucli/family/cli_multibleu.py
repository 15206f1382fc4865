"""``bleucli multi-bleu`` and ``bleucli multi-bleu-detok``: Moses' scripts' command lines and output lines.

Arguments are the scripts' own (``[-lc] REFERENCE [MORE REFERENCES...] < HYPOTHESIS``,
``-lc`` only as the first argument, ``REFERENCE0, REFERENCE1...`` found by
stem) and so is the one line printed on stdout; the scripts' warnings go to
stderr. Failures are bleucli's one-line errors (exit 3) where the scripts
print a meaningless line or die.
"""

from __future__ import annotations

import sys

import click

from ..clikit import report
from ..input.reading import fixed_line_limit, read_stdin

_SETTINGS = {"ignore_unknown_options": True, "help_option_names": ["-h", "--help"]}


@fixed_line_limit
def _run(arguments: tuple[str, ...], detok: bool) -> int:
    from ..clikit.output import emit
    from ..errors import OptionError
    from .multibleu import multi_bleu, reference_files

    args = list(arguments)
    lowercase = bool(args) and args[0] == "-lc"
    if lowercase:
        args.pop(0)
    if not args:
        raise OptionError("missing reference file (usage: bleucli "
                          f"{'multi-bleu-detok' if detok else 'multi-bleu'} [-lc] REFERENCE... < HYPOTHESIS)")
    files, skipped = reference_files(args[0], args[1:])
    for name in skipped:  # the scripts skip them without a word; a typo should not go unnoticed
        report.warning(f"reference file {name} does not exist: skipped, as the script does")
    # read in blocks with each line's length bounded: stdin.read() of /dev/zero takes all memory first
    hypothesis = read_stdin(terminal_error="the hypothesis is read from standard input: bleucli multi-bleu REF < HYP")
    result = multi_bleu(hypothesis, files, lowercase=lowercase, detok=detok)
    emit(result.line())
    if not detok:
        report.warning("multi-bleu.perl scores depend on the tokenizer of the input, so they are not comparable "
                       "across papers; for published numbers score detokenized text (bleucli REF < HYP)")
    sys.stdout.flush()
    return 0


@click.command("multi-bleu", context_settings=_SETTINGS)
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED)
def multi_bleu_command(arguments: tuple[str, ...]) -> int:
    """multi-bleu.perl: [-lc] REFERENCE [REFERENCE...] < HYPOTHESIS, on tokenized text (bytes, ASCII -lc)."""
    return _run(arguments, detok=False)


@click.command("multi-bleu-detok", context_settings=_SETTINGS)
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED)
def multi_bleu_detok_command(arguments: tuple[str, ...]) -> int:
    """multi-bleu-detok.perl: [-lc] REFERENCE [REFERENCE...] < HYPOTHESIS, on UTF-8 text, mteval-v13a tokens."""
    return _run(arguments, detok=True)
