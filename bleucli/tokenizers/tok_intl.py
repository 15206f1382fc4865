"""mteval-v14 ``--international-tokenization``, using Unicode classes.

Needs the third-party ``regex`` module for ``\\p{..}`` classes, so it is only
imported when this tokenizer is chosen.
"""

from __future__ import annotations

import regex


class TokenizerIntl:
    """Splits punctuation not adjacent to digits, and every symbol.

    Like mteval-v14 it keeps a sentence-final ``2019.`` attached, a known quirk
    that published scores depend on.
    """

    signature = "intl"

    def __init__(self) -> None:
        self._rules = (
            (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
            (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
            (regex.compile(r"(\p{S})"), r" \1 "),
        )

    def __call__(self, line: str) -> str:
        for pattern, replacement in self._rules:
            line = pattern.sub(replacement, line)
        return " ".join(line.split())
