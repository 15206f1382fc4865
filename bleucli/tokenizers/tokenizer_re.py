"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_re``: ``TokenizerRegexp``, mteval-v13a's punctuation rules.

The rules themselves are bleucli's (:mod:`bleucli.tokenizers._mteval`, shared by 13a and zh).
"""

from __future__ import annotations

from ._mteval import mteval_punctuation
from .tokenizer_base import BaseTokenizer


class TokenizerRegexp(BaseTokenizer):
    """sacreBLEU's ``TokenizerRegexp``: the punctuation rules, then single spaces; ``signature()`` is ``'re'``."""

    def signature(self) -> str:
        return "re"

    def __call__(self, line: str) -> str:
        return mteval_punctuation(line)
