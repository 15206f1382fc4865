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
        # Replacement functions instead of "\\1 \\2 " templates: same strings, faster.
        self._rules = (
            (regex.compile(r"(\P{N})(\p{P})"), _split_after),
            (regex.compile(r"(\p{P})(\P{N})"), _split_before),
            (regex.compile(r"(\p{S})"), _pad),
        )

    def __call__(self, line: str) -> str:
        for pattern, replacement in self._rules:
            line = pattern.sub(replacement, line)
        return " ".join(line.split())


def _split_after(match: regex.Match[str]) -> str:  # "\\1 \\2 "
    return f"{match[1]} {match[2]} "


def _split_before(match: regex.Match[str]) -> str:  # " \\1 \\2"
    return f" {match[1]} {match[2]}"


def _pad(match: regex.Match[str]) -> str:  # " \\1 "
    return f" {match[1]} "
