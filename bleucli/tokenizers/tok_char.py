"""Character-level tokenization, for languages without word boundaries."""

from __future__ import annotations


class CharTokenizer:
    """Every character becomes a token.

    sacreBLEU joins all characters (spaces included) with spaces; after the
    whitespace split that BLEU applies, the original spaces disappear. Joining
    the non-space characters directly gives the same tokens.
    """

    signature = "char"

    def __call__(self, line: str) -> str:
        return " ".join("".join(line.split()))

    def tokens(self, line: str) -> list[str]:
        return list(self.characters(line))

    def characters(self, line: str) -> str:
        """The tokens as one string: BLEU can then match n-grams by substring search."""
        return "".join(line.split())
