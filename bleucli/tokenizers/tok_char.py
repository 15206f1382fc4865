"""Character-level tokenization, for languages without word boundaries.

Reproduces sacreBLEU 2.6's ``TokenizerChar``: its string form puts one space
between every two characters of the line, whitespace included, so
``'a b\t'`` becomes ``'a   b \t'``. BLEU splits that string on whitespace,
which leaves the non-space characters as tokens.
"""

from __future__ import annotations


class CharTokenizer:
    """Every character becomes a token.

    sacreBLEU joins all characters (spaces included) with spaces, and so does
    :meth:`__call__`, so the string form is sacreBLEU's byte for byte; after the
    whitespace split that BLEU applies, the original spaces disappear, so
    :meth:`tokens` and :meth:`characters` skip them directly.
    """

    signature = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def tokens(self, line: str) -> list[str]:
        return list(self.characters(line))

    def characters(self, line: str) -> str:
        """The tokens as one string: BLEU can then match n-grams by substring search."""
        return "".join(line.split())
