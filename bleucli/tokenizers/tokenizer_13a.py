"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_13a``.

``Tokenizer13a``, bleucli's ``13a`` tokenizer (mteval-v13a).
"""

from __future__ import annotations

from .tokenizer_base import WrappedTokenizer


class Tokenizer13a(WrappedTokenizer):
    """``Tokenizer13a()(line)`` is the tokenized line, ``.signature()`` ``'13a'``."""

    name = "13a"
