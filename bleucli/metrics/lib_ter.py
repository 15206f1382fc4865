"""sacreBLEU's ``sacrebleu.metrics.lib_ter``: ``translation_edit_rate`` (bleucli's :mod:`.ter_edit`)."""

from __future__ import annotations

from .ter_edit import translation_edit_rate

__all__ = ["translation_edit_rate"]
