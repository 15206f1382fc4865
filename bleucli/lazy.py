"""Names a package re-exports from its modules, imported on first use (PEP 562).

``bleucli``, ``bleucli.metrics``, ``bleucli.utils`` and ``bleucli.testsets``
offer names (sacreBLEU's among them) whose modules import PyYAML, requests or
the metrics; importing them at package import would cost every command,
``--version`` included. Each package gives :func:`lazy_attributes` its table
and takes back its ``__getattr__`` and ``__dir__``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - an alias for type checkers only: nothing to build at start-up
    from typing import TypeAlias

    #: Where a name comes from: the module it is an attribute of, or a function that makes its value.
    Source: TypeAlias = "str | Callable[[], Any]"


def lazy_attributes(
    package: str, exports: Mapping[str, Source],
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module-level ``__getattr__`` importing each exported name once, and a ``__dir__`` listing them."""

    def __getattr__(name: str) -> Any:
        source = exports.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if isinstance(source, str):
            import importlib

            value = getattr(importlib.import_module(source), name)
        else:
            value = source()
        setattr(sys.modules[package], name, value)  # later lookups find it without coming back here
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__
