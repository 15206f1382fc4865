"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_ko_mecab``.

``TokenizerKoMecab``, bleucli's ``ko-mecab`` tokenizer (needs the ``ko`` extra).
"""

from __future__ import annotations

from .tokenizer_base import WrappedTokenizer


class TokenizerKoMecab(WrappedTokenizer):
    """``TokenizerKoMecab()(line)`` is the tokenized line, ``.signature()`` ``'ko-mecab-<version>-KO'``."""

    name = "ko-mecab"
