"""Byte-to-line helpers shared by the format modules."""

from __future__ import annotations

import re

from ...errors import InputError

_WS = re.compile(r"\s+")


def decode(data: bytes, where: str) -> str:
    """Strict UTF-8 (a BOM is kept, as sacreBLEU's ``utf-8`` codec keeps it)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"invalid UTF-8 at byte {exc.start}", source=where, line=line) from None


def lines_keepends(text: str) -> list[str]:
    """Split on ``\\n`` only (like ``open(newline="\\n")``), keeping the terminators."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def clean(text: str) -> str:
    """Strip, then collapse whitespace runs to one space (sacreBLEU's ``_clean``)."""
    return _WS.sub(" ", text.strip())
