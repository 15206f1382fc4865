"""What the fast subset keeps: ``python -m pytest -m "not slow" -q`` runs in under a minute on two cores.

The full suite (the README's ``python -m pytest -q``, and CI) takes about ten
minutes, most of it in the golden and oracle families parametrised over every
data set in tests/data and over both n-gram matchers. Each such family keeps
one data set in the fast subset, with both matchers, so a quick run still checks
exactness against sacreBLEU's frozen values on real data; its other data sets
are marked ``slow``. Sweeps (every short string, many seeds, every crash point)
keep a representative or two; races of many processes are marked ``slow``.

``slow`` only selects: every test still runs in the full suite.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import pytest

#: The BLEU golden and published-score families' data set in the fast subset:
#: real WMT21 system outputs, short files.
BLEU_SET = "wmt21-bn-hi"
#: The chrF/TER golden family's data set in the fast subset: Japanese, so the
#: TER cases with Asian support are in it too.
CHRF_TER_SET = "wmt22-en-ja"


def slow_except(values: Iterable[object], fast: Collection[object]) -> list[object]:
    """``values`` as ``parametrize`` arguments, each marked ``slow`` unless it is in ``fast``."""
    return [value if value in fast else pytest.param(value, marks=pytest.mark.slow) for value in values]
