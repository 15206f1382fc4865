"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_ter``: ``TercomTokenizer`` (TER's normalization).

bleucli's is :class:`bleucli.metrics.ter_tokenizer.TercomTokenizer`; this class gives it
sacreBLEU's ``signature()`` method.
"""

from __future__ import annotations

from ..metrics.ter_tokenizer import TercomTokenizer as _Tercom
from .tokenizer_base import BaseTokenizer


class TercomTokenizer(BaseTokenizer):
    """sacreBLEU's ``TercomTokenizer``, same arguments; ``signature()`` is ``'tercom'``."""

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> None:
        self._tokenizer = _Tercom(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                                  case_sensitive=case_sensitive)

    def signature(self) -> str:
        return "tercom"

    def __call__(self, sent: str) -> str:
        return self._tokenizer(sent)
