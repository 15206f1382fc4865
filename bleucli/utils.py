"""sacreBLEU 2.6's ``sacrebleu.utils`` test-set functions under the same module name.

A script's ``from sacrebleu.utils import get_reference_files`` becomes
``from bleucli.utils import get_reference_files``. Everything is defined in
:mod:`bleucli.testsets.compat` and imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_attributes

if TYPE_CHECKING:  # pragma: no cover
    from .testsets.compat import (
        download_test_set,
        get_available_testsets,
        get_available_testsets_for_langpair,
        get_files,
        get_langpairs_for_testset,
        get_reference_files,
        get_source_file,
        smart_open,
    )

__all__ = ["download_test_set", "get_available_testsets", "get_available_testsets_for_langpair", "get_files",
           "get_langpairs_for_testset", "get_reference_files", "get_source_file", "smart_open"]


__getattr__, __dir__ = lazy_attributes(__name__, dict.fromkeys(__all__, "bleucli.testsets.compat"))
