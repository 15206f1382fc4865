"""The punctuation rules of mteval-v13a, shared by the 13a and zh tokenizers.

The four substitutions run in order with Python ``re`` semantics
(non-overlapping, left to right), which the scores depend on. Replacements
are small functions rather than ``\\1``-style templates: on CPython 3.11 a
template is expanded by Python code for every match, which made it the
slowest part of scoring. Rules that cannot match a line (no ``.``/``,``, no
``-``) are skipped, which cannot change the result.
"""

from __future__ import annotations

import re

# ASCII punctuation that mteval-v13a always separates: { | } ~ [ \ ] ^ _ `
# space ! " # $ % & ( ) * + : ; < = > ? @ /  (not ' - . ,)
_SEPARATED = (
    [chr(c) for c in range(ord("{"), ord("~") + 1)]
    + [chr(c) for c in range(ord("["), ord("`") + 1)]
    + [chr(c) for c in range(ord(" "), ord("&") + 1)]
    + [chr(c) for c in range(ord("("), ord("+") + 1)]
    + [chr(c) for c in range(ord(":"), ord("@") + 1)]
    + ["/"]
)
_SEPARATED_CLASS = re.compile("[" + "".join(re.escape(c) for c in _SEPARATED) + "]")

_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def mteval_punctuation(line: str) -> str:
    """Apply mteval-v13a's punctuation rules and normalise whitespace."""
    line = _SEPARATED_CLASS.sub(_pad, line)
    if "." in line or "," in line:
        line = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(_split_after, line)
        line = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(_split_before, line)
    if "-" in line:
        line = _DASH_AFTER_DIGIT.sub(_split_dash, line)
    return " ".join(line.split())


def _pad(match: re.Match[str]) -> str:
    return f" {match[0]} "


def _split_after(match: re.Match[str]) -> str:  # "\1 \2 "
    return f"{match[1]} {match[2]} "


def _split_before(match: re.Match[str]) -> str:  # " \1 \2"
    return f" {match[1]} {match[2]}"


def _split_dash(match: re.Match[str]) -> str:  # "\1 \2 "
    return f"{match[1]} - "
