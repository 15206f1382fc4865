"""Standard test sets by name: registry, downloader, cache and processed fields.

The functions most callers need are re-exported lazily from
:mod:`bleucli.testsets.api`, so importing this package costs nothing until one
is used (PyYAML and requests are imported only inside the functions that need them).
"""

from __future__ import annotations

from typing import Any

_API = (
    "list_testsets", "language_pairs", "describe", "citation", "fields", "download",
    "get_field_lines", "get_source", "get_references", "reference_fields", "echo", "echo_fields",
    "split_test_sets",
    "load_test_data", "TestData", "data_hash", "default_tokenizer", "detail_groups", "DetailGroup",
)

__all__ = list(_API)


def __getattr__(name: str) -> Any:
    if name in _API:
        from . import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bleucli.testsets' has no attribute {name!r}")
