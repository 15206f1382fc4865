"""Metrics: each computes per-segment sufficient statistics and aggregates them.

sacreBLEU's ``sacrebleu.metrics`` names are here too (``BLEU``, ``CHRF``,
``TER``, their ``*Score`` classes and the ``METRICS`` dict), imported on first
use so that ``import bleucli.metrics.base`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lazy import lazy_attributes

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


def _metrics_table() -> dict[str, Any]:
    """sacreBLEU's ``METRICS``: name -> class."""
    return {"BLEU": __getattr__("BLEU"), "CHRF": __getattr__("CHRF"), "TER": __getattr__("TER")}


__getattr__, __dir__ = lazy_attributes(__name__, {
    **{name: f"{__name__}.{module}" for name, module in _EXPORTS.items()}, "METRICS": _metrics_table,
})
