"""The scores of bootstrap sums computed by the C extension, for a bootstrap that never imports numpy.

A seeded ``-pbs`` or ``-ci`` run with BLEU or chrF spends a third of its time
importing numpy. :mod:`bleucli.significance.c_bootstrap` avoids that: the
resampled float32 sums are made in C, and the functions here score them in C
(``bleu_resampled_scores``, ``chrf_resampled_scores``), replicating
:mod:`.vectorized`'s numbers bit for bit: float32 operations where numpy does
float32 arithmetic, libm's ``log`` and ``exp`` (what Python's ``math``
calls), and Python's own ``sum`` of floats, which is compensated from Python
3.12 on.

They return None where they do not replicate that path: no extension (or
``BLEUCLI_PURE_PYTHON=1``), a numpy other than 2.x (numpy 1 promotes a Python
float against float32 otherwise, so sacreBLEU's numbers differ there), a
Python whose ``sum`` is not known, smoothing values that are not plain
numbers, and any row the C code declines (a zero precision, an overflow,
chrF's rows that score the Python float 0.0). The caller then scores with
numpy, the reference.
"""

from __future__ import annotations

import sys
from array import array
from functools import cache
from typing import Any

from .compiled import compiled_matcher

#: How ``sum`` adds floats in each CPython: left to right up to 3.11, Neumaier's compensation from 3.12.
_COMPENSATED_SUM = {(3, 10): False, (3, 11): False, (3, 12): True, (3, 13): True, (3, 14): True}

#: ``version = "2.4.6"`` (or ``version: str = ...``) in numpy's ``version.py`` (compiled when first read)
_NUMPY_VERSION = r"""^version\s*(?::\s*str\s*)?=\s*["']([^"']+)["']"""


def numpy_version() -> str | None:
    """The installed numpy's version, read without importing numpy (which costs 0.1 s of CPU)."""
    module = sys.modules.get("numpy")
    if module is not None:
        return str(getattr(module, "__version__", "")) or None
    return _installed_numpy_version()


@cache
def _installed_numpy_version() -> str | None:
    import importlib.util
    import re

    spec = importlib.util.find_spec("numpy")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        try:
            with open(f"{folder}/version.py", encoding="utf-8") as handle:
                found = re.search(_NUMPY_VERSION, handle.read(65536), re.MULTILINE)
        except OSError:
            continue
        if found:
            return found.group(1)
    return None


def numpy_major() -> int | None:
    """The installed numpy's major version (None if it cannot be read)."""
    version = numpy_version()
    major = (version or "").split(".", 1)[0]
    return int(major) if major.isdigit() else None


def _extension() -> Any:
    """The extension when its scores are :mod:`.vectorized`'s here (numpy 2, a known ``sum``), else None."""
    compiled = compiled_matcher()
    if (compiled is None or not hasattr(compiled, "bleu_resampled_scores")
            or sys.version_info[:2] not in _COMPENSATED_SUM or numpy_major() != 2):
        return None
    return compiled


def _rows(sums: Any) -> int:
    return int(sums.shape[0])


#: ``bleu_resampled_scores``' codes for the smoothing methods
_SMOOTHING = {"none": 0, "floor": 1, "add-k": 2, "exp": 3}


def bleu_scores_in_c(sums: Any, first: int, max_order: int, smooth_method: str, smooth_value: float | None,
                     effective_order: bool) -> array | None:
    """:func:`.vectorized.bleu_scores` of BLEU columns ``first..`` of ``sums`` (a float32 2-D buffer)
    as float64 values, or None."""
    compiled = _extension()
    code = _SMOOTHING.get(smooth_method)
    if compiled is None or code is None:
        return None
    value = 0.0
    if code in (1, 2):  # the value is converted to float32 against the sums: plain numbers only
        if type(smooth_value) is float:
            value = smooth_value
        elif type(smooth_value) is int and abs(smooth_value) <= 2**24:
            value = float(smooth_value)
        else:
            return None
    out = array("d", bytes(8 * _rows(sums)))
    if not compiled.bleu_resampled_scores(sums, first, max_order, code, value, effective_order,
                                          _COMPENSATED_SUM[sys.version_info[:2]], out):
        return None
    return out


def chrf_scores_in_c(sums: Any, first: int, order: int, beta: int, eps_smoothing: bool) -> array | None:
    """:func:`.vectorized.chrf_scores` of chrF columns ``first..`` of ``sums`` as float32 values, or None."""
    compiled = _extension()
    if compiled is None or eps_smoothing or type(beta) is not int:
        return None
    out = array("f", bytes(4 * _rows(sums)))
    if not compiled.chrf_resampled_scores(sums, first, order, beta, out):
        return None
    return out


__all__ = ["bleu_scores_in_c", "chrf_scores_in_c", "numpy_major", "numpy_version"]
