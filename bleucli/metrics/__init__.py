"""Metrics: each computes per-segment sufficient statistics and aggregates them.

sacreBLEU's ``sacrebleu.metrics`` names are here too (``BLEU``, ``CHRF``,
``TER``, their ``*Score`` classes and the ``METRICS`` dict), imported on first
use so that ``import bleucli.metrics.base`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .bleu import BLEU, BLEUScore
    from .chrf import CHRF, CHRFScore
    from .ter import TER, TERScore

_EXPORTS = {
    "BLEU": "bleu", "BLEUScore": "bleu",
    "CHRF": "chrf", "CHRFScore": "chrf",
    "TER": "ter", "TERScore": "ter",
}

__all__ = ["BLEU", "BLEUScore", "CHRF", "CHRFScore", "TER", "TERScore", "METRICS"]


def __getattr__(name: str) -> Any:
    import importlib

    if name == "METRICS":  # sacreBLEU's name -> class table
        value: Any = {"BLEU": __getattr__("BLEU"), "CHRF": __getattr__("CHRF"), "TER": __getattr__("TER")}
    elif name in _EXPORTS:
        value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
