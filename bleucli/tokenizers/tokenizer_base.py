"""sacreBLEU's ``sacrebleu.tokenizers.tokenizer_base``: ``BaseTokenizer``, whose ``signature`` is a method.

bleucli's own tokenizers (``tok_*.py``) carry ``signature`` as a string attribute; the
``tokenizer_*`` modules of this package wrap them in classes of sacreBLEU's shape:
``Tokenizer13a()(line)`` is the tokenized line and ``Tokenizer13a().signature()`` its name.
"""

from __future__ import annotations

from typing import Any


class BaseTokenizer:
    """sacreBLEU's base class: ``__call__(line) -> str`` and ``signature() -> str``."""

    def signature(self) -> str:
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        raise NotImplementedError()


class WrappedTokenizer(BaseTokenizer):
    """A bleucli tokenizer (``name`` in :func:`bleucli.tokenizers.get_tokenizer`) behind sacreBLEU's interface."""

    #: the registry name of the bleucli tokenizer behind this class
    name = ""

    def __init__(self, **settings: Any) -> None:
        from . import get_tokenizer

        self._tokenizer = get_tokenizer(self.name, **settings)

    def signature(self) -> str:
        return str(self._tokenizer.signature)

    def __call__(self, line: str) -> str:
        return self._tokenizer(line)

    def tokens(self, line: str) -> list[str]:
        """bleucli's addition: the tokens of ``line`` (``self(line).split()``)."""
        return self._tokenizer.tokens(line)
