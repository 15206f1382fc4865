"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_ja_mecab``.

``TokenizerJaMecab``, bleucli's ``ja-mecab`` tokenizer (needs the ``ja`` extra).
"""

from __future__ import annotations

from .tokenizer_base import WrappedTokenizer


class TokenizerJaMecab(WrappedTokenizer):
    """``TokenizerJaMecab()(line)`` is the tokenized line, ``.signature()`` ``'ja-mecab-<version>-IPA'``."""

    name = "ja-mecab"
