"""The punctuation rules of mteval-v13a, shared by the 13a and zh tokenizers.

The four substitutions run in order with Python ``re`` semantics
(non-overlapping, left to right), which the scores depend on. The first rule
only ever matches one character at a time, so it is done with ``str.translate``,
which yields the identical string much faster. The others are skipped when the
line cannot match them, which again cannot change the result.
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
_PAD_PUNCTUATION = str.maketrans({c: f" {c} " for c in _SEPARATED})

_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def mteval_punctuation(line: str) -> str:
    """Apply mteval-v13a's punctuation rules and normalise whitespace."""
    line = line.translate(_PAD_PUNCTUATION)
    if "." in line or "," in line:
        line = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", line)
        line = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", line)
    if "-" in line:
        line = _DASH_AFTER_DIGIT.sub(r"\1 \2 ", line)
    return " ".join(line.split())
