"""sacreBLEU-style option lists (``-i a b c``) on top of click.

click options take one value per occurrence; sacreBLEU's ``-i``, ``-m`` and
``--echo`` take every following word. Rewriting ``-i a b`` into ``-i a -i b``
before click parses keeps both spellings working. As in sacreBLEU, reference
files must therefore come before ``-i``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

GREEDY_OPTIONS = frozenset({"-i", "--input", "-m", "--metrics", "--echo", "--segment-scores"})
#: Greedy options whose words form one value (``--segment-scores NAME FILE...``: which files belong to
#: which name), joined by NUL, the one character no argument can hold.
JOINED_OPTIONS = frozenset({"--segment-scores"})


def expand_greedy_options(args: Sequence[str], greedy: Iterable[str] = GREEDY_OPTIONS) -> list[str]:
    """Repeat a greedy option before each of the words that follow it.

    A greedy option followed by no word is passed through unchanged, so that
    click reports the missing value itself.
    """
    greedy = frozenset(greedy)
    out: list[str] = []
    current: str | None = None  # the greedy option being expanded
    given = False  # whether it has received a value yet
    for position, arg in enumerate(args):
        if arg == "--":
            if current is not None and not given:
                out.append(current)
            out.extend(args[position:])
            return out
        if current is not None and (arg == "-" or not arg.startswith("-")):
            if current in JOINED_OPTIONS and given:
                out[-1] += "\0" + arg
            else:
                out.extend([current, arg])
            given = True
            continue
        if current is not None and not given:
            out.append(current)
        current, given = (arg, False) if arg in greedy else (None, False)
        if current is None:
            out.append(arg)
    if current is not None and not given:
        out.append(current)
    return out


#: sacreBLEU 2.6's option strings (its argparse parser): where an abbreviation is ambiguous among
#: bleucli's options but not among these, it means what it means to sacreBLEU.
SACREBLEU_OPTIONS = frozenset({
    "--chrf-beta", "--chrf-char-order", "--chrf-eps-smoothing", "--chrf-lowercase", "--chrf-whitespace",
    "--chrf-word-order", "--citation", "--cite", "--confidence", "--confidence-n", "--detail", "--download",
    "--echo", "--encoding", "--force", "--format", "--help", "--input", "--language-pair", "--list",
    "--lowercase", "--metrics", "--no-color", "--num-refs", "--origlang", "--paired-ar", "--paired-ar-n",
    "--paired-bs", "--paired-bs-n", "--paired-jobs", "--quiet", "--score-only", "--sentence-level", "--short",
    "--smooth-method", "--smooth-value", "--subset", "--ter-asian-support", "--ter-case-sensitive",
    "--ter-no-punct", "--ter-normalized", "--test-set", "--tokenize", "--version", "--width", "-V", "-b", "-cc",
    "-ci", "-cin", "-cw", "-d", "-e", "-f", "-h", "-i", "-j", "-l", "-lc", "-m", "-nc", "-nr", "-ol", "-par",
    "-parn", "-pbs", "-pbsn", "-q", "-s", "-sh", "-sl", "-sv", "-t", "-tok", "-w",
})


def argparse_spellings(args: Sequence[str], options: Mapping[str, bool]) -> list[str]:
    """``args`` with every option spelled as click reads it, for the forms Python's argparse accepts.

    ``options`` maps each option string of the command to whether it takes a value.
    sacreBLEU parses its command line with argparse, which also reads ``-w=2``,
    ``-i=FILE``, ``-w2`` (a one-letter option glued to its value), ``-qb`` (one-letter
    flags together) and unique abbreviations of long options (``--wid 2``,
    ``--tok=intl``); each becomes ``OPTION VALUE`` (or ``OPTION=VALUE`` for a long
    one) here, with argparse's meaning (``-tokintl`` is ``-t okintl`` there, so here
    too). Anything else is left for click, which reports it.
    """
    out: list[str] = []
    for position, arg in enumerate(args):
        if arg == "--":
            out.extend(args[position:])
            break
        out.extend(_respelled(arg, options))
    return out


def _respelled(arg: str, options: Mapping[str, bool]) -> list[str]:
    if len(arg) < 2 or arg[0] != "-" or arg in options or " " in arg:
        return [arg]
    head, equals, value = arg.partition("=")
    if equals and head in options:
        return _with_value(head, value) if options[head] else [arg]
    matches = _matches(arg, options)
    if len(matches) != 1:  # unknown or ambiguous: click's error names it
        return [arg]
    option, explicit = matches[0]
    if explicit is None:
        return [option]
    if options[option]:
        return _with_value(option, explicit)
    if len(option) == 2 and explicit and not arg.startswith("--"):  # -qb: one-letter flags together
        rest = _respelled(f"-{explicit}", options)
        if rest[0] != f"-{explicit}" or f"-{explicit}" in options:
            return [option, *rest]
    return [arg]


def _matches(arg: str, options: Mapping[str, bool]) -> list[tuple[str, str | None]]:
    """argparse's readings of an option word that is not an option string itself (``_get_option_tuples``)."""
    found: list[tuple[str, str | None]] = []
    if arg.startswith("--"):
        prefix, equals, value = arg.partition("=")
        found = [(option, value if equals else None) for option in options if option.startswith(prefix)]
    else:
        found = [(option, arg[2:]) for option in options if option == arg[:2]]
        found += [(option, None) for option in options if option.startswith(arg) and option != arg[:2]]
    if len(found) > 1:  # ambiguous among bleucli's options: sacreBLEU's reading, if it has exactly one
        known = [match for match in found if match[0] in SACREBLEU_OPTIONS]
        if len(known) == 1:
            return known
    return found


#: The long names of the greedy options, for :func:`_with_value`.
_GREEDY_LONG = {"-i": "--input", "-m": "--metrics"}


def _with_value(option: str, value: str) -> list[str]:
    """``OPTION VALUE``; a greedy option given its value in the same word (``-i=FILE``) takes that one
    value only, as with argparse, so it is written ``--input=FILE``, which :func:`expand_greedy_options`
    leaves alone (the words after it are references, as in sacreBLEU)."""
    if option in GREEDY_OPTIONS:
        return [f"{_GREEDY_LONG.get(option, option)}={value}"]
    return [option, value]
