"""Chinese tokenization: every CJK character is a token, then mteval punctuation.

sacreBLEU's list of "Chinese" ranges writes two astral ranges with 4-digit
escapes (``\\u20000``, ``\\u2f800``...), which Python reads as a BMP character
followed by a digit. Compared as strings, those entries select U+2001..U+2A6D
(general punctuation, arrows, maths...) and U+2F81..U+2FA1 instead of CJK
Extension B and the compatibility supplement (sacreBLEU issue #298). Scores
published with sacreBLEU depend on that, so the effective ranges are kept here
exactly; ``tests/test_tokenizers.py`` checks them against a string-comparison
model of the original table over every code point.
"""

from __future__ import annotations

import re

from ._mteval import mteval_punctuation

#: Inclusive code point ranges treated as Chinese characters (the effective set).
CHINESE_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4DB5),  # CJK Extension A
    (0x4E00, 0x9FA5),  # CJK Unified Ideographs
    (0x9FA6, 0x9FBB),  # CJK Unified Ideographs, Unicode 4.1 additions
    (0xF900, 0xFA2D),  # CJK Compatibility Ideographs
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),  # the malformed "Extension B" entry, as it really behaves
    (0x2F81, 0x2FA1),  # the malformed "Compatibility Supplement" entry
    (0xFF00, 0xFFEF),  # full-width ASCII and punctuation, half-width kana, Hangul
    (0x2E80, 0x2EFF),  # CJK Radicals Supplement
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x31C0, 0x31EF),  # CJK strokes
    (0x2F00, 0x2FDF),  # Kangxi radicals
    (0x2FF0, 0x2FFF),  # ideographic description characters
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31BF),  # Bopomofo extended
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0x2600, 0x26FF),  # miscellaneous symbols
    (0x2700, 0x27BF),  # dingbats
    (0x3200, 0x32FF),  # enclosed CJK letters and months
    (0x3300, 0x33FF),  # CJK compatibility
)


def is_chinese_char(char: str) -> bool:
    """Whether ``char`` counts as Chinese for this tokenizer (the effective ranges)."""
    code = ord(char)
    return any(start <= code <= end for start, end in CHINESE_RANGES)


def _character_class() -> str:
    return "".join(f"\\U{start:08x}-\\U{end:08x}" for start, end in CHINESE_RANGES)


class TokenizerZh:
    """Spaces around each Chinese character, then mteval-v13a punctuation.

    Unlike 13a there is no entity unescaping and no padding, so a final
    ``2019.`` stays one token, as in sacreBLEU.
    """

    signature = "zh"

    def __init__(self) -> None:
        self._chinese = re.compile(f"[{_character_class()}]")

    def __call__(self, line: str) -> str:
        line = self._chinese.sub(r" \g<0> ", line.strip())
        return mteval_punctuation(line)

    def tokens(self, line: str) -> list[str]:
        return self(line).split()
