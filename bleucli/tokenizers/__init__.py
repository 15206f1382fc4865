"""Tokenizer registry: names map to ``module:Class`` strings, imported on first use.

Adding a tokenizer is one new module in this package and one line in
``_REGISTRY``. Nothing is imported until a tokenizer is asked for, so the
``regex`` module (intl) costs nothing to a run that uses 13a.

It also holds the SentencePiece *model provider* (:func:`set_spm_model_provider`):
where the ``flores101``/``flores200``/``spBLEU-1K`` models come from, which is
the test-set wing's business, not a tokenizer's (see :mod:`.tok_spm`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from ..errors import OptionError
from ..lazy import lazy_attributes

_REGISTRY: dict[str, str] = {
    "none": "tok_none:NoneTokenizer",
    "13a": "tok_13a:Tokenizer13a",
    "intl": "tok_intl:TokenizerIntl",
    "char": "tok_char:CharTokenizer",
    "zh": "tok_zh:TokenizerZh",
    "ja-mecab": "tok_mecab:TokenizerJaMecab",
    "ko-mecab": "tok_mecab:TokenizerKoMecab",
    "flores101": "tok_spm:Flores101Tokenizer",
    "spm": "tok_spm:SpmTokenizer",
    "flores200": "tok_spm:Flores200Tokenizer",
    "spBLEU-1K": "tok_spm:SpBLEU1KTokenizer",
    "11b": "tok_11b:Tokenizer11b",  # bleucli's: NIST mteval-v11b (bytes, ASCII whitespace)
}

#: Tokenizer chosen by the target language when none is given (sacreBLEU's rule). A tokenizer
#: whose extra is not installed is an error when it is built, never a fallback to 13a.
_LANGUAGE_DEFAULTS: dict[str, str] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

DEFAULT_TOKENIZER = "13a"


class Tokenizer(Protocol):
    """What BLEU needs from a tokenizer: a callable, its token list, and its signature name."""

    #: The name written into the score signature (``tok:<signature>``).
    signature: str

    def __call__(self, line: str) -> str:  # pragma: no cover - protocol
        ...

    def tokens(self, line: str) -> list[str]:  # pragma: no cover - protocol
        """``self(line).split()``, possibly without building the joined string."""
        ...


def available_tokenizers() -> list[str]:
    """Names accepted by :func:`get_tokenizer`, in registry order."""
    return list(_REGISTRY)


def default_tokenizer_for(target_language: str | None) -> str:
    """The tokenizer sacreBLEU picks for a target language (zh, ja-mecab, ko-mecab, else ``13a``)."""
    if not target_language:
        return DEFAULT_TOKENIZER
    return _LANGUAGE_DEFAULTS.get(target_language.lower(), DEFAULT_TOKENIZER)


def get_tokenizer(name: str, **config: Any) -> Tokenizer:
    """Build the tokenizer registered as ``name``; an unknown name is an :class:`OptionError`.

    ``config`` goes to tokenizers that take settings (the SentencePiece ones:
    ``spm_model``, ``models``); the others are built without arguments.
    """
    try:
        target = _REGISTRY[name]
    except KeyError:
        known = ", ".join(_REGISTRY)
        raise OptionError(f"unknown tokenizer '{name}' (choose from: {known})") from None
    module_name, class_name = target.split(":")
    module = importlib.import_module(f"{__name__}.{module_name}")
    factory = getattr(module, class_name)
    accepted = getattr(factory, "settings", ())
    if config.get("spm_model") is not None and "spm_model" not in accepted:
        raise OptionError(f"a SentencePiece model file (--spm-model) needs the tokenizer 'spm', not '{name}'")
    settings = {key: value for key, value in config.items() if value is not None and key in accepted}
    tokenizer: Tokenizer = factory(**settings)
    return tokenizer


#: ``provider(name, **settings)``: the SentencePiece model ``name`` (``flores200``...) as an object with
#: ``path``, ``data`` (its verified bytes), ``sha256`` and ``signature``; ``settings`` are the
#: ``models`` mapping given to the tokenizer (``cache_dir``, ``offline``, ``registry``).
SpmModelProvider = Callable[..., Any]

_spm_model_provider: SpmModelProvider | None = None


def set_spm_model_provider(provider: SpmModelProvider | None) -> SpmModelProvider | None:
    """Make ``provider`` the process's source of SentencePiece models (``None``: none); returns the previous one.

    ``import bleucli`` sets the test-set wing's (download into bleucli's verified cache on
    first use); a caller may also pass one for a single metric as ``models={"provider": ...}``.
    """
    global _spm_model_provider
    previous, _spm_model_provider = _spm_model_provider, provider
    return previous


def spm_model_provider() -> SpmModelProvider | None:
    """The provider set by :func:`set_spm_model_provider`, if any."""
    return _spm_model_provider


# sacreBLEU's ``sacrebleu.tokenizers.BaseTokenizer``; its ``tokenizer_*`` modules are this package's too.
__getattr__, __dir__ = lazy_attributes(__name__, {"BaseTokenizer": f"{__name__}.tokenizer_base"})
