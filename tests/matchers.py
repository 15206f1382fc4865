"""The two n-gram matchers (compiled C, pure Python) and how a test picks one."""

from __future__ import annotations

import pytest

MATCHERS = ["compiled", "python"]


def select_matcher(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make the metrics created from now on use the compiled or the pure-Python n-gram matcher."""
    from bleucli.metrics.compiled import PURE_PYTHON_VARIABLE, implementation

    if name == "python":
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    else:
        monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
        if implementation() != "compiled":
            pytest.skip("the C matcher (bleucli._speedups) is not built")
    assert implementation() == name
