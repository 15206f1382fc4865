"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_spm``: ``TokenizerSPM`` and its Flores/spBLEU-1K subclasses.

The models are bleucli's (downloaded into its verified cache on first use, with the ``spm``
extra installed); ``TokenizerSPM(key)`` takes sacreBLEU's keys, ``spm`` being ``flores101``.
"""

from __future__ import annotations

from .tokenizer_base import WrappedTokenizer

#: sacreBLEU's model keys -> the signature each gives (where bleucli's registry holds the models)
SPM_MODELS = {
    "spm": {"signature": "flores101"},
    "flores101": {"signature": "flores101"},
    "flores200": {"signature": "flores200"},
    "spBLEU-1K": {"signature": "spBLEU-1K"},
}


class TokenizerSPM(WrappedTokenizer):
    """sacreBLEU's ``TokenizerSPM(key="spm")``: SentencePiece pieces of the ``key`` model."""

    def __init__(self, key: str = "spm") -> None:
        self.name = SPM_MODELS[key]["signature"]
        super().__init__()


class Flores200Tokenizer(TokenizerSPM):
    def __init__(self) -> None:
        super().__init__("flores200")


class Flores101Tokenizer(TokenizerSPM):
    def __init__(self) -> None:
        super().__init__("flores101")


class spBLEU1KTokenizer(TokenizerSPM):  # noqa: N801 - sacreBLEU's name
    def __init__(self) -> None:
        super().__init__("spBLEU-1K")
