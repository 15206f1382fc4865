"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_char``.

``TokenizerChar``, bleucli's ``char`` tokenizer (characters).
"""

from __future__ import annotations

from .tokenizer_base import WrappedTokenizer


class TokenizerChar(WrappedTokenizer):
    """``TokenizerChar()(line)`` is the tokenized line, ``.signature()`` ``'char'``."""

    name = "char"
