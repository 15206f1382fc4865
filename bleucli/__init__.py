"""bleucli: sacreBLEU-exact BLEU with versioned signatures.

The public API is imported lazily, so ``import bleucli`` (and the CLI's
``--help``/``--version``) costs almost nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:  # pragma: no cover
    from .api import corpus_bleu, corpus_chrf, corpus_ter, raw_corpus_bleu, sentence_bleu, sentence_chrf, sentence_ter
    from .errors import BleucliError, InputError, LengthMismatchError, OptionError
    from .metrics.bleu import BLEU, BLEUScore, compute_bleu
    from .metrics.chrf import CHRF, CHRFScore
    from .metrics.ter import TER, TERScore
    from .signature import Signature

_EXPORTS = {
    "BLEU": "bleucli.metrics.bleu",
    "BLEUScore": "bleucli.metrics.bleu",
    "compute_bleu": "bleucli.metrics.bleu",
    "corpus_bleu": "bleucli.api",
    "raw_corpus_bleu": "bleucli.api",
    "sentence_bleu": "bleucli.api",
    "CHRF": "bleucli.metrics.chrf",
    "CHRFScore": "bleucli.metrics.chrf",
    "TER": "bleucli.metrics.ter",
    "TERScore": "bleucli.metrics.ter",
    "corpus_chrf": "bleucli.api",
    "sentence_chrf": "bleucli.api",
    "corpus_ter": "bleucli.api",
    "sentence_ter": "bleucli.api",
    "Signature": "bleucli.signature",
    "BleucliError": "bleucli.errors",
    "InputError": "bleucli.errors",
    "LengthMismatchError": "bleucli.errors",
    "OptionError": "bleucli.errors",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bleucli' has no attribute {name!r}")
