"""Shared fixtures: running the CLI through click's CliRunner and as a real subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bleucli.cli import cli
from bleucli.metrics.chrf import CHRF
from datasets import EXAMPLES
from fast_subset import check_listed_tests_exist, mark_slow_beyond_representatives
from matchers import MATCHERS, select_matcher

REPO = Path(__file__).resolve().parent.parent

# A test run started as a background job of a shell without job control (``pytest ... &`` in a
# script) begins with SIGINT ignored, and every process the tests start would inherit that: the
# Ctrl-C tests would see their signal ignored and the command finish with exit 0. Python's own
# handler here gives the processes started below the default disposition, as from a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


def invoke(args: list[str], input: bytes | str | None = None, env: dict[str, str] | None = None) -> CliResult:
    """Run ``bleucli ARGS`` in-process with CliRunner, stdout and stderr kept apart."""
    runner = CliRunner()
    result = runner.invoke(cli, args, input=input, env=env, catch_exceptions=False)
    return CliResult(result.exit_code, result.stdout, result.stderr)


def run_subprocess(args: list[str], stdin: bytes | None = None, **kwargs) -> subprocess.CompletedProcess:
    """Run ``python -m bleucli ARGS`` as a real process (the package from this checkout)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("BLEUCLI_FORMAT", None)
    return subprocess.run([sys.executable, "-m", "bleucli", *args], input=stdin, capture_output=True,
                          env=env, cwd=REPO, **kwargs)


@pytest.fixture(autouse=True)
def _sigpipe_ignored_as_python_starts() -> Iterator[None]:
    """Python ignores SIGPIPE (a write to a closed socket or pipe raises instead); importing the
    oracle's ``sacrebleu.sacrebleu`` sets it to the default, which would let a later test's local
    HTTP server, writing to a client the test killed, end the whole run by SIGPIPE (exit 141)."""
    yield
    if hasattr(signal, "SIGPIPE") and signal.getsignal(signal.SIGPIPE) != signal.SIG_IGN:
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)


@pytest.fixture(params=MATCHERS)
def matcher(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test once with each n-gram matcher: both must give sacreBLEU's numbers."""
    select_matcher(monkeypatch, request.param)
    return request.param


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BLEUCLI_FORMAT", "BLEUCLI_DEBUG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def example_ref() -> str:
    return str(EXAMPLES / "ref.de")


@pytest.fixture
def example_sys() -> str:
    return str(EXAMPLES / "Online-B.de")


@pytest.hookimpl(tryfirst=True)  # before -m "not slow" deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The fast subset keeps a few representatives of some families (tests/fast_subset.py), all
    of which must exist."""
    check_listed_tests_exist(config, items)
    mark_slow_beyond_representatives(items)


@pytest.fixture
def both(monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[CHRF, CHRF]]:
    """A function making (compiled, pure-Python) CHRF metrics with the same options (chrF's C tests)."""
    select_matcher(monkeypatch, "compiled")  # skips when the extension is not built

    def make(**options: Any) -> tuple[CHRF, CHRF]:
        select_matcher(monkeypatch, "compiled")
        compiled = CHRF(**options)
        assert compiled._compiled_statistics is not None
        select_matcher(monkeypatch, "python")
        python = CHRF(**options)
        assert python._compiled_statistics is None
        select_matcher(monkeypatch, "compiled")
        return compiled, python

    return make
