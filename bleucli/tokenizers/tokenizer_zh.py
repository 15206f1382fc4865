"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_zh``.

``TokenizerZh``, bleucli's ``zh`` tokenizer (Chinese).
"""

from __future__ import annotations

from .tokenizer_base import WrappedTokenizer


class TokenizerZh(WrappedTokenizer):
    """``TokenizerZh()(line)`` is the tokenized line, ``.signature()`` ``'zh'``."""

    name = "zh"
