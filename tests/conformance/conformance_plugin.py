"""A pytest plugin for the conformance runs (loaded with ``-p conformance_plugin``).

It is loaded in the pytest process the conformance scripts start; it is not one of
bleucli's tests. Three environment variables drive it:

- ``BLEUCLI_CONFORMANCE_ALIASES``: a JSON object ``{"sacrebleu": "bleucli"}``;
  each key is a package or module name that imports as its value instead
  (``sacrebleu.metrics.bleu`` as ``bleucli.metrics.bleu``). A finder placed first on
  ``sys.meta_path`` does it, so an installed package of the key's name is never read.
- ``BLEUCLI_CONFORMANCE_OUT``: the JSON file the per-test outcomes are written to.
- ``BLEUCLI_CONFORMANCE_OFFLINE``: when set, opening a connection to anything but the
  local host raises ``OSError``, so a test that reaches for the network fails fast
  instead of fetching.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import socket
import sys
from types import ModuleType
from typing import Any


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target
        self.original_spec: Any = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.original_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system has just set the alias's spec on the module: give its own back
        module.__spec__ = self.original_spec


class AliasFinder(importlib.abc.MetaPathFinder):
    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases

    def target_of(self, fullname: str) -> str | None:
        for source, target in self.aliases.items():
            if fullname == source or fullname.startswith(source + "."):
                return target + fullname[len(source):]
        return None

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        aliased = self.target_of(fullname)
        if aliased is None:
            return None
        if importlib.util.find_spec(aliased) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(aliased))


def install_aliases(aliases: dict[str, str]) -> None:
    for name in list(sys.modules):
        if any(name == source or name.startswith(source + ".") for source in aliases):
            del sys.modules[name]
    sys.meta_path.insert(0, AliasFinder(aliases))


def _local(address: Any) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    return not isinstance(host, str) or host in ("localhost", "127.0.0.1", "::1") or host.startswith("/")


def block_network() -> None:
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        if not _local(address):
            raise OSError(f"conformance run: network access to {address!r} is blocked")
        return connect(self, address)

    socket.socket.connect = guarded  # type: ignore[method-assign]


_ALIASES = json.loads(os.environ.get("BLEUCLI_CONFORMANCE_ALIASES") or "{}")
if _ALIASES:
    install_aliases(_ALIASES)
if os.environ.get("BLEUCLI_CONFORMANCE_OFFLINE"):
    block_network()

_OUTCOMES: dict[str, str] = {}


def pytest_runtest_logreport(report: Any) -> None:
    previous = _OUTCOMES.get(report.nodeid)
    if report.failed:
        _OUTCOMES[report.nodeid] = "failed"
    elif report.skipped and previous is None:
        _OUTCOMES[report.nodeid] = "skipped"
    elif report.when == "call" and report.passed and previous is None:
        _OUTCOMES[report.nodeid] = "passed"


def pytest_sessionfinish(session: Any, exitstatus: Any) -> None:
    out = os.environ.get("BLEUCLI_CONFORMANCE_OUT")
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            json.dump(dict(sorted(_OUTCOMES.items())), handle, indent=1)
