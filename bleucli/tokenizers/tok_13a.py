"""mteval-v13a tokenization, the WMT standard and BLEU's default."""

from __future__ import annotations

from ._mteval import mteval_tokens


class Tokenizer13a:
    """Reproduces mteval-v13a as sacreBLEU implements it.

    Entities are unescaped once (only when the line has an ``&``), ``<skipped>``
    is dropped, and the line is padded with spaces before the punctuation rules
    so that a final period always splits off.
    """

    signature = "13a"

    def __call__(self, line: str) -> str:
        return " ".join(self.tokens(line))

    def tokens(self, line: str) -> list[str]:
        """The tokens themselves: BLEU would only split the joined line again."""
        return mteval_tokens(f" {self._unescaped(line)} ")

    @staticmethod
    def _unescaped(line: str) -> str:
        """mteval's language-independent part: ``<skipped>`` dropped, lines joined, four entities unescaped."""
        if "<skipped>" in line:
            line = line.replace("<skipped>", "")
        if "\n" in line:
            line = line.replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = (
                line.replace("&quot;", '"')
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
            )
        return line
