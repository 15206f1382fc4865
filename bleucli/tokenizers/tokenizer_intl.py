"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_intl``.

``TokenizerV14International``, bleucli's ``intl`` tokenizer (mteval-v14 international).
"""

from __future__ import annotations

from .tokenizer_base import WrappedTokenizer


class TokenizerV14International(WrappedTokenizer):
    """``TokenizerV14International()(line)`` is the tokenized line, ``.signature()`` ``'intl'``."""

    name = "intl"
