"""mteval-v14 ``--international-tokenization``, using Unicode classes.

Needs the third-party ``regex`` module for ``\\p{..}`` classes (the same
module, and so the same Unicode tables, as sacreBLEU), so it is only
imported when this tokenizer is chosen.

mteval-v14 runs ``(\\P{N})(\\p{P})`` -> ``\\1 \\2 ``, then
``(\\p{P})(\\P{N})`` -> `` \\1 \\2``, then pads every ``\\p{S}``. These are
mteval-v13a's period/comma rules with every punctuation mark in place of
``.``/``,`` and every number in place of ``0-9``, so the same shortcut as in
``_mteval`` applies (see there for the run/parity rule): a line where no
punctuation touches a number has every punctuation mark and symbol split
off, which a regex ``split`` does without a Python call per match.

``regex`` scans ``\\p{..}`` classes several times slower than ``re`` scans an
explicit character class, so the classes are expanded once, from ``regex``'s
own tables, into ``re`` classes over the Basic Multilingual Plane; the rare
line with a character beyond it goes through ``regex`` itself.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import regex

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class _Rules:
    """The compiled patterns of one engine (``re`` or ``regex``) for given class bodies."""

    def __init__(self, engine: Any, punct: str, symbol: str, number: str) -> None:
        non_number = f"[^{number}]"
        self.punct_or_symbol = engine.compile(f"([{punct}{symbol}])")
        self.symbol = engine.compile(f"([{symbol}])")
        # one leading class lets the engine skip to candidate characters in C (an
        # alternation of two classes is tried at every position: twice the cost)
        self.near_number = engine.compile(
            f"[{punct}{number}](?:(?<=[{punct}])(?=[{number}])|(?<=[{number}])(?=[{punct}]))")
        self.run_before_number = engine.compile(f"(?<![{punct}])[{punct}]+(?=[{number}])")
        self.boundaries = engine.compile(
            f"(?<={non_number})(?=[{punct}])"  # before punctuation that follows a non-number
            f"|(?<=[{punct}])(?={non_number})"  # after punctuation that precedes a non-number
            f"|(?<=[{number}])(?=[{punct}]{non_number})"  # number, then a run not ending at a number at once
        )
        number_pattern = engine.compile(f"[{number}]")
        self.split_after_run: Callable[[Any], str] = lambda match: _split_after_run(match, number_pattern)

    def tokens(self, line: str) -> list[str]:
        near_number = self.near_number.search
        if not near_number(line):
            return " ".join(self.punct_or_symbol.split(line)).split()
        # As in _mteval: the rules look one character around punctuation and
        # whitespace acts there like any non-number, so only the words where
        # punctuation touches a number need the context regexes.
        tokens: list[str] = []
        words = line.split()
        last = len(words) - 1
        for i, word in enumerate(words):
            if near_number(word):
                left = "" if i == 0 and not line[0].isspace() else " "
                right = "" if i == last and not line[-1].isspace() else " "
                word = self.run_before_number.sub(self.split_after_run, f"{left}{word}{right}")
                tokens += " ".join(self.symbol.split(self.boundaries.sub(" ", word))).split()
            else:
                tokens += " ".join(self.punct_or_symbol.split(word)).split()
        return tokens


def _split_after_run(match: Any, number: Any) -> str:
    run = match[0]
    start = match.start()
    after_number = start == 0 or number.match(match.string, start - 1) is not None
    return run + " " if after_number == (len(run) % 2 == 0) else run


_compiled: tuple[_Rules, _Rules] | None = None


def _rules() -> tuple[_Rules, _Rules]:
    """``(re rules for BMP lines, regex rules for any line)``, built on first use (~50 ms)."""
    global _compiled
    if _compiled is None:
        full = _Rules(regex, r"\p{P}", r"\p{S}", r"\p{N}")
        plane = "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x10000)))
        bmp = _Rules(re, _re_class(r"\p{P}", plane), _re_class(r"\p{S}", plane), _re_class(r"\p{N}", plane))
        _compiled = (bmp, full)
    return _compiled


def _re_class(property_class: str, plane: str) -> str:
    """The body of an ``re`` character class equal to ``regex``'s class on ``plane``."""
    ranges: list[list[int]] = []
    for code in map(ord, regex.findall(property_class, plane)):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(
        re.escape(chr(first)) if first == last else f"{re.escape(chr(first))}-{re.escape(chr(last))}"
        for first, last in ranges
    )


def unicode_classes() -> bytes:
    """intl's classes of every code point for the compiled tokenizer: bit 1 ``\\p{P}``, 2 ``\\p{S}``,
    4 ``\\p{N}``, from ``regex``'s own tables (what sacreBLEU's rules use), surrogates included.

    About 0.1 s, once per process that scores with the compiled intl (``bleucli._speedups``); made
    plane by plane, each plane's text decoded from its code points, so that memory stays flat.
    """
    from array import array

    table = bytearray(0x110000)
    patterns = [(bit, regex.compile(pattern)) for bit, pattern in ((1, r"\p{P}"), (2, r"\p{S}"), (4, r"\p{N}"))]
    for start in range(0, 0x110000, 0x10000):
        plane = array("I", range(start, start + 0x10000)).tobytes().decode("utf-32-le" if sys.byteorder == "little"
                                                                          else "utf-32-be", "surrogatepass")
        for bit, pattern in patterns:
            for match in pattern.finditer(plane):
                table[start + match.start()] |= bit
    return bytes(table)


class TokenizerIntl:
    """Splits punctuation not adjacent to digits, and every symbol.

    Like mteval-v14 it keeps a sentence-final ``2019.`` attached, a known quirk
    that published scores depend on.
    """

    signature = "intl"

    def __init__(self) -> None:
        self._bmp, self._full = _rules()

    def __reduce__(self) -> tuple[type, tuple[()]]:
        """Pickled as its class (the compiled rules are rebuilt), so metrics can travel to cluster workers."""
        return (TokenizerIntl, ())

    def __call__(self, line: str) -> str:
        return " ".join(self.tokens(line))

    def tokens(self, line: str) -> list[str]:
        if _ASTRAL.search(line):
            return self._full.tokens(line)
        return self._bmp.tokens(line)
