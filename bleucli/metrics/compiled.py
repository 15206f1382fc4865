"""The optional compiled n-gram matcher, and the switch that turns it off.

``bleucli/_speedups.c`` counts clipped n-gram matches about ten times faster
than the pure-Python matchers of :mod:`.ngram_match` and
:mod:`.substring_match`, with the same integers as result. It is built when
the package is installed with a C compiler at hand; without one, or with
``BLEUCLI_PURE_PYTHON=1`` in the environment, the Python matchers run.
Scores are identical either way: the tests run the golden files through
both.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Union

#: a hypothesis or reference as the matcher takes it: a string of one-character
#: tokens, or a list of tokens
Tokens = Union[str, list[str]]
Matcher = Callable[[Tokens, Sequence[Tokens], int], list[int]]

PURE_PYTHON_VARIABLE = "BLEUCLI_PURE_PYTHON"


def ngram_matcher() -> Matcher | None:
    """``ngram_matches(hypothesis, references, max_order)`` from the C extension, or None.

    Read when a metric is created, so that setting the variable affects the
    metrics made afterwards in the same process.
    """
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None
    return _load()


@lru_cache(maxsize=None)
def _load() -> Matcher | None:
    try:
        from .._speedups import ngram_matches  # type: ignore[import-not-found]
    except ImportError:
        return None
    return ngram_matches  # type: ignore[no-any-return]


def implementation() -> str:
    """``"compiled"`` or ``"python"``: which matcher new metrics use (for ``--version`` and bench/)."""
    return "python" if ngram_matcher() is None else "compiled"
