"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_none``.

``NoneTokenizer``, bleucli's ``none`` tokenizer (the identity).
"""

from __future__ import annotations

from .tokenizer_base import WrappedTokenizer


class NoneTokenizer(WrappedTokenizer):
    """``NoneTokenizer()(line)`` is the tokenized line, ``.signature()`` ``'none'``."""

    name = "none"
