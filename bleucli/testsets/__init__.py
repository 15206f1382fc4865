"""Standard test sets by name: registry, downloader, cache and processed fields.

The functions most callers need are re-exported lazily from
:mod:`bleucli.testsets.api`, so importing this package costs nothing until one
is used (PyYAML and requests are imported only inside the functions that need them).
"""

from __future__ import annotations

from ..lazy import lazy_attributes

_API = (
    "list_testsets", "language_pairs", "describe", "citation", "fields", "download",
    "get_field_lines", "get_source", "get_references", "reference_fields", "echo", "echo_fields",
    "split_test_sets",
    "load_test_data", "TestData", "data_hash", "default_tokenizer", "detail_groups", "DetailGroup",
    "get_document_ids", "resolve_pair", "export_cache",
)

__all__ = list(_API)


__getattr__, __dir__ = lazy_attributes(__name__, dict.fromkeys(_API, "bleucli.testsets.api"))
