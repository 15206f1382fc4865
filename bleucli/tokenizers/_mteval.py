"""The punctuation rules of mteval-v13a, shared by the 13a and zh tokenizers.

mteval-v13a (and sacreBLEU) apply four regular expressions in turn:

1. pad ``{|}~[\\]^_`` and `` !"#$%&()*+:;<=>?@/`` with spaces;
2. ``([^0-9])([.,])`` -> ``\\1 \\2 ``;
3. ``([.,])([^0-9])`` -> `` \\1 \\2``;
4. ``([0-9])(-)`` -> ``\\1 \\2 ``;

and then normalise whitespace. Scores depend on every detail, including how
rules 2 and 3 consume characters. Running those regexes with per-match
replacements is most of 13a's cost, so this module computes the same tokens
another way (proved equal by an exhaustive test over short strings and by
the golden tests over every shared WMT line):

* rule 1 only ever inserts spaces, so ``str.replace`` per character present
  does it (a regex class or ``str.translate`` is several times slower on
  non-ASCII text);
* rules 2-4 only differ from "pad every ``.``/``,``" where a run of ``.``/``,``
  or a ``-`` touches an ASCII digit. Lines without that (most of them) pad
  ``.`` and ``,`` like rule 1 does;
* otherwise, for a maximal run of ``k`` periods/commas between characters
  ``a`` and ``b``: every boundary inside the run is split; the boundary before
  it is split unless ``a`` and ``b`` are digits and ``k == 1``; the boundary
  after it is split when ``b`` is not a digit, or when ``a`` is not a digit
  and ``k`` is odd, or ``a`` is a digit (or the line start) and ``k`` is even
  (this parity is the trace of rule 2 consuming pairs: ``a..5`` gives
  ``a . .5``); a ``-`` after a digit is split on both sides.
"""

from __future__ import annotations

import re

# ASCII punctuation that mteval-v13a always separates: { | } ~ [ \ ] ^ _ `
# ! " # $ % & ( ) * + : ; < = > ? @ /  (not ' - . ,). Space is in the original
# class too; padding it changes no token.
_SEPARATED = (
    [chr(c) for c in range(ord("{"), ord("~") + 1)]
    + [chr(c) for c in range(ord("["), ord("`") + 1)]
    + [chr(c) for c in range(ord("!"), ord("&") + 1)]
    + [chr(c) for c in range(ord("("), ord("+") + 1)]
    + [chr(c) for c in range(ord(":"), ord("@") + 1)]
    + ["/"]
)
_PAD_SEPARATED = tuple((char, f" {char} ") for char in _SEPARATED)
_PAD_PERIOD_COMMA = ((".", " . "), (",", " , "))

_DIGITS = "0123456789"
# A period, comma or dash touching an ASCII digit: only then do rules 2-4 need context.
_NEAR_DIGIT = re.compile(r"[.,0-9](?:(?<=[.,])(?=[0-9])|(?<=[0-9])(?=[.,-]))")
# Runs of periods/commas followed by a digit: whether they split from it depends on parity.
_RUN_BEFORE_DIGIT = re.compile(r"(?<![.,])[.,]+(?=[0-9])")
# Every other boundary rules 2-4 create, as zero-width matches replaced by a space.
_BOUNDARIES = re.compile(
    r"(?<=[^0-9])(?=[.,])"  # before a period/comma that follows a non-digit
    r"|(?<=[.,])(?=[^0-9])"  # after a period/comma that precedes a non-digit
    r"|(?<=[0-9])(?=[.,][^0-9])"  # digit, then a run that does not end at a digit at once
    r"|(?<=[0-9])(?=-)|(?<=[0-9]-)"  # rule 4: a dash after a digit
)


def mteval_tokens(line: str) -> list[str]:
    """The tokens of ``line`` after mteval-v13a's punctuation rules."""
    for char, padded in _PAD_SEPARATED:
        if char in line:
            line = line.replace(char, padded)
    if any(map(line.__contains__, _DIGITS)) and _NEAR_DIGIT.search(line):
        return _tokens_near_digits(line)
    for char, padded in _PAD_PERIOD_COMMA:
        if char in line:
            line = line.replace(char, padded)
    return line.split()


def _tokens_near_digits(line: str) -> list[str]:
    """Rules 2-4 word by word, running the regexes only on words where a digit touches ``.,-``.

    The rules look at one character on each side of a ``.``, ``,`` or ``-``,
    and any whitespace acts there like any other non-digit, so each
    whitespace-separated word gives the same tokens on its own, padded with
    spaces. Scanning the whole line with the context regexes cost ten times
    more than the one or two words that need them.
    """
    tokens: list[str] = []
    near_digit = _NEAR_DIGIT.search
    words = line.split()
    last = len(words) - 1
    for i, word in enumerate(words):
        if near_digit(word):
            # the line's own edges stay edges: a run at the very start acts as if after a digit
            left = "" if i == 0 and not line[0].isspace() else " "
            right = "" if i == last and not line[-1].isspace() else " "
            word = _RUN_BEFORE_DIGIT.sub(_split_after_run, f"{left}{word}{right}")
            tokens += _BOUNDARIES.sub(" ", word).split()
        elif "." in word or "," in word:
            tokens += word.replace(".", " . ").replace(",", " , ").split()
        else:
            tokens.append(word)
    return tokens


def mteval_punctuation(line: str) -> str:
    """Apply mteval-v13a's punctuation rules and normalise whitespace."""
    return " ".join(mteval_tokens(line))


def _split_after_run(match: re.Match[str]) -> str:
    run = match[0]
    start = match.start()
    after_digit = start == 0 or "0" <= match.string[start - 1] <= "9"
    return run + " " if after_digit == (len(run) % 2 == 0) else run
