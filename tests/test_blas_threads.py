"""The command line runs numpy's BLAS on one thread unless the user chose a number of threads."""

from __future__ import annotations

import os

import pytest

from bleucli.cli import _BLAS_THREAD_VARIABLES, _one_blas_thread


@pytest.fixture
def no_thread_variables(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in _BLAS_THREAD_VARIABLES:
        # set first, so that monkeypatch records the variable and restores (removes) what the test sets
        monkeypatch.setenv(name, "0")
        monkeypatch.delenv(name)
    return monkeypatch


def test_one_thread_by_default(no_thread_variables: pytest.MonkeyPatch) -> None:
    _one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"


@pytest.mark.parametrize("name", _BLAS_THREAD_VARIABLES)
def test_the_users_choice_stays(no_thread_variables: pytest.MonkeyPatch, name: str) -> None:
    no_thread_variables.setenv(name, "3")
    _one_blas_thread()
    assert os.environ[name] == "3"
    assert all(os.environ.get(other) is None for other in _BLAS_THREAD_VARIABLES if other != name)
