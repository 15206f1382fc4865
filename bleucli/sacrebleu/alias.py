"""Code written for sacreBLEU, run unchanged on bleucli: ``import sacrebleu`` imports bleucli.

Code one cannot edit (Hugging Face ``evaluate``'s metric scripts, a colleague's
scoring script) says ``import sacrebleu``. :func:`install` puts a finder first on
``sys.meta_path`` so that, from then on in this process:

- ``sacrebleu.X.Y`` is the very module ``bleucli.X.Y`` (same objects, so
  ``isinstance`` and identity hold across both names);
- ``sacrebleu`` itself is a small package module whose names are ``bleucli``'s,
  except ``__version__``: that is :data:`SACREBLEU_VERSION`, the sacreBLEU release
  whose behaviour and API bleucli reproduces. Code written for sacreBLEU reads
  ``sacrebleu.__version__`` to ask "is this sacreBLEU's API recent enough?"
  (``evaluate``'s sacrebleu, chrf and ter metrics refuse anything below 1.4.12),
  which is a question about the mirrored API, not about bleucli's own releases.
  bleucli's own version stays where it is (``bleucli.__version__``, every
  signature's ``version:`` field) and is also ``sacrebleu.BLEUCLI_VERSION``;
  ``sacrebleu.version`` has both. A plain name alias (``sys.modules["sacrebleu"] =
  bleucli``) would answer bleucli's 0.x there and fail such checks.

``python -m bleucli.sacrebleu.alias SCRIPT [ARGS...]`` (or ``-m MODULE [ARGS...]``)
runs a script with the alias installed.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

#: The sacreBLEU release whose scores, names and module paths bleucli reproduces.
SACREBLEU_VERSION = "2.6.0"

_NAME = "sacrebleu"
_TARGET = "bleucli"


def _bleucli() -> ModuleType:
    return importlib.import_module(_TARGET)


def _root_module() -> ModuleType:
    """The ``sacrebleu`` package of the alias: bleucli's names, sacreBLEU's version."""
    module = ModuleType(_NAME, "sacreBLEU's names, served by bleucli (bleucli.sacrebleu.alias).")
    module.__path__ = []  # a package: its submodules come from the finder below
    module.__version__ = SACREBLEU_VERSION  # type: ignore[attr-defined]
    module.BLEUCLI_VERSION = _bleucli().__version__  # type: ignore[attr-defined]

    def __getattr__(name: str) -> Any:
        if name.startswith("__") and name not in ("__all__",):
            raise AttributeError(f"module {_NAME!r} has no attribute {name!r}")
        if name == "version":  # the alias's own module, not bleucli.version
            return importlib.import_module(f"{_NAME}.version")
        return getattr(_bleucli(), name)

    def __dir__() -> list[str]:
        return sorted({*vars(module), *dir(_bleucli())})

    setattr(module, "__getattr__", __getattr__)  # noqa: B010 - PEP 562 reads it from the module dict
    setattr(module, "__dir__", __dir__)  # noqa: B010
    return module


def _version_module() -> ModuleType:
    """``sacrebleu.version`` (setuptools-scm's module in sacreBLEU), consistent with the root's ``__version__``."""
    module = ModuleType(f"{_NAME}.version", "The sacreBLEU version bleucli mirrors, and bleucli's own.")
    module.__version__ = module.version = SACREBLEU_VERSION  # type: ignore[attr-defined]
    module.version_tuple = tuple(int(part) for part in SACREBLEU_VERSION.split("."))  # type: ignore[attr-defined]
    module.BLEUCLI_VERSION = _bleucli().__version__  # type: ignore[attr-defined]
    return module


class _Loader(importlib.abc.Loader):
    """Hands over an existing module (bleucli's, or one made above) under a ``sacrebleu`` name."""

    def __init__(self, make: Any) -> None:
        self.make = make
        self.own_spec: Any = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module: ModuleType = self.make()
        self.own_spec = getattr(module, "__spec__", None)
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system has just given the module the alias's spec: a bleucli module keeps its own.
        if self.own_spec is not None:
            module.__spec__ = self.own_spec


class SacrebleuFinder(importlib.abc.MetaPathFinder):
    """``sacrebleu`` and ``sacrebleu.*`` from bleucli, ahead of any installed sacreBLEU."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname == _NAME:
            return importlib.machinery.ModuleSpec(fullname, _Loader(_root_module), is_package=True)
        if fullname == f"{_NAME}.version":
            return importlib.machinery.ModuleSpec(fullname, _Loader(_version_module))
        if not fullname.startswith(_NAME + "."):
            return None
        aliased = _TARGET + fullname[len(_NAME):]
        if importlib.util.find_spec(aliased) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(lambda: importlib.import_module(aliased)))


def installed() -> bool:
    """Whether :func:`install` has run in this process (and :func:`uninstall` has not since)."""
    return any(isinstance(finder, SacrebleuFinder) for finder in sys.meta_path)


def install() -> None:
    """From now on in this process, ``import sacrebleu`` (and every ``sacrebleu.X``) imports bleucli.

    Call it before anything imports sacreBLEU; calling it again does nothing. If the real
    sacreBLEU is already imported, this raises ``ImportError`` rather than leave two
    implementations mixed in one process.
    """
    if installed():
        return
    loaded = sys.modules.get(_NAME)
    if loaded is not None:
        where = getattr(loaded, "__file__", None) or "an unknown place"
        raise ImportError(f"sacrebleu is already imported (from {where}): install the bleucli alias "
                          "before the first `import sacrebleu`")
    sys.meta_path.insert(0, SacrebleuFinder())


def uninstall() -> None:
    """Remove the finder and forget the ``sacrebleu`` modules it gave (bleucli's own modules stay)."""
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, SacrebleuFinder)]
    for name in [name for name in sys.modules if name == _NAME or name.startswith(_NAME + ".")]:
        del sys.modules[name]


def main(argv: list[str] | None = None) -> int:
    """``python -m bleucli.sacrebleu.alias SCRIPT|-m MODULE [ARGS...]``: run it with the alias installed."""
    import runpy

    args = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: python -m bleucli.sacrebleu.alias (SCRIPT | -m MODULE) [ARGS...]"
    if not args or args[0] in ("-h", "--help"):
        print(usage, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    install()
    if args[0] == "-m":
        if len(args) < 2:
            print(usage, file=sys.stderr)
            return 2
        sys.argv = args[1:]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    # run as a script this file is ``__main__``: use the importable module, whose finder ``installed()`` knows
    from bleucli.sacrebleu.alias import main as _main

    sys.exit(_main())
