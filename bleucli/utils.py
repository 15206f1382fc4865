"""sacreBLEU 2.6's ``sacrebleu.utils`` under the same module name.

A script's ``from sacrebleu.utils import get_reference_files`` becomes
``from bleucli.utils import get_reference_files``. The test-set functions are
defined in :mod:`bleucli.testsets.compat`; the others here are thin calls of
bleucli's own (length checks, ``--origlang``/``--subset`` selection, the paired
table). Everything is imported on first use. ``SACREBLEU_DIR`` is bleucli's
cache directory (``BLEUCLI_CACHE_DIR`` or the platform's user cache), laid out
as bleucli's, not as ``~/.sacrebleu``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

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

    SACREBLEU_DIR: str

_TESTSET_NAMES = ["download_test_set", "get_available_testsets", "get_available_testsets_for_langpair", "get_files",
                  "get_langpairs_for_testset", "get_reference_files", "get_source_file", "smart_open"]

__all__ = ["download_test_set", "get_available_testsets", "get_available_testsets_for_langpair", "get_files",
           "get_langpairs_for_testset", "get_reference_files", "get_source_file", "smart_open", "SACREBLEU_DIR",
           "sanity_check_lengths", "get_available_origlangs",
           "get_available_subsets", "filter_subset", "print_results_table", "my_log", "sum_of_lists"]


def _cache_dir() -> str:
    from .testsets.cache import resolve_cache_root

    return str(resolve_cache_root())


def sanity_check_lengths(system: Sequence[str], refs: Sequence[Sequence[str]], test_set: str | None = None) -> None:
    """sacreBLEU's check that the system and every reference stream have as many lines.

    Where sacreBLEU logs and exits, this raises :class:`bleucli.errors.StreamLengthError`
    (a :class:`~bleucli.errors.LengthMismatchError`) naming the lengths.
    """
    from .metrics.base import check_stream_lengths

    check_stream_lengths(system, refs, test_set)


def get_available_origlangs(test_sets: str | None, langpair: str) -> list[str]:
    """The original languages of the documents of ``test_sets`` (comma-separated), sorted."""
    if test_sets is None:
        return []
    from .testsets.api import detail_groups

    keys = (group.key.split()[0] for group in detail_groups(test_sets, langpair))
    return sorted({key.partition("=")[2] for key in keys if key.startswith("origlang=")})


def get_available_subsets(test_sets: str | None, langpair: str) -> list[str]:
    """The domains (and ``country:XX`` of the SGML sets) of ``test_sets``, sorted."""
    if test_sets is None:
        return []
    from .testsets.api import detail_groups

    labels = {group.key.split()[1] for group in detail_groups(test_sets, langpair) if " " in group.key}
    out = {f"country:{label[len('country='):]}" if label.startswith("country=") else label.partition("=")[2]
           for label in labels if label != "domain=ALL"}
    return sorted(out)


def filter_subset(systems: Sequence[Sequence[str]], test_sets: str | None, langpair: str | None,
                  origlang: str | None, subset: str | None = None) -> list[list[str]]:
    """sacreBLEU's ``--origlang``/``--subset`` selection of each system's lines (full test sets given)."""
    if origlang is None and subset is None:
        return systems  # type: ignore[return-value]  # as sacreBLEU: the same object back
    if test_sets is None or langpair is None:
        raise ValueError("Filtering for --origlang or --subset needs a test (-t) and a language pair (-l).")
    from .testsets.api import load_test_data

    data = load_test_data(test_sets, langpair, origlang=origlang, subset=subset)
    return [data.filter_hypotheses(system, f"system {k + 1}") for k, system in enumerate(systems)]


def my_log(num: float) -> float:
    """sacreBLEU's ``my_log``: the natural log, and -9999999999 for 0."""
    return math.log(num) if num != 0.0 else -9999999999


def sum_of_lists(lists: Sequence[Sequence[Any]]) -> list[Any]:
    """sacreBLEU's ``sum_of_lists``: the element-wise sum (:func:`bleucli.statistics.sum_rows`)."""
    from .statistics import sum_rows

    return list(sum_rows(lists)) if lists else []


def print_results_table(results: dict[str, list[Any]], signatures: dict[str, Any], args: Any) -> None:
    """sacreBLEU's multi-system table, byte for byte, from :class:`bleucli.significance.PairedTest`'s
    ``(signatures, scores)`` or a dict of formatted score strings per metric.

    ``args`` needs sacreBLEU's ``format`` and ``width``, ``paired_bs``/``paired_ar`` and
    ``paired_bs_n``/``paired_ar_n``; colours are on unless ``args.no_color`` or ``NO_COLOR``
    (:mod:`bleucli.render.results_table` says how each sacreBLEU rule is followed).
    """
    from .render.results_table import results_table

    print(results_table(results, signatures, args), end="")


__getattr__, __dir__ = lazy_attributes(__name__, {**dict.fromkeys(_TESTSET_NAMES, "bleucli.testsets.compat"),
                                                  "SACREBLEU_DIR": _cache_dir})
