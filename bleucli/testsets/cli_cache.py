"""``bleucli cache``: show, list, verify and clear the test-set cache."""

from __future__ import annotations

from typing import Any

import click

from ..clikit.output import emit

_cache_dir = click.option("--cache-dir", default=None, metavar="DIR", envvar="BLEUCLI_CACHE_DIR",
                          help="Cache directory. Env: BLEUCLI_CACHE_DIR [default: the user cache dir].")
_registry = click.option("--testsets", "registry", default=None, metavar="PATH", envvar="BLEUCLI_TESTSETS",
                         help="Test-set registry file. Env: BLEUCLI_TESTSETS.")


def _root(cache_dir: str | None) -> Any:
    from .cache import cache_errors, resolve_cache_root

    with cache_errors("find the cache directory", cache_dir):
        return resolve_cache_root(cache_dir)


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000  # type: ignore[assignment]
    return f"{n} B"  # pragma: no cover


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cache() -> None:
    """Inspect and manage the test-set cache (damaged entries are repaired automatically on use)."""


@cache.command("path")
@_cache_dir
def cache_path(cache_dir: str | None) -> None:
    """Print the cache directory."""
    emit(str(_root(cache_dir)))


@cache.command("list")
@_cache_dir
def cache_list(cache_dir: str | None) -> None:
    """List cached downloads and processed test sets with their sizes."""
    from .cache import cache_errors
    from .manage import list_cache

    root = _root(cache_dir)
    with cache_errors("list", root):
        entries = list_cache(root)
    emit("\n".join(f"{e.kind:<9} {_size(e.size):>9}  {e.name}" for e in entries))
    emit(f"total {_size(sum(e.size for e in entries))}")


@cache.command("verify")
@_cache_dir
@_registry
def cache_verify(cache_dir: str | None, registry: str | None) -> int:
    """Re-hash everything in the cache; exit 5 if something is damaged (nothing is changed)."""
    from .cache import cache_errors
    from .manage import verify_cache

    root = _root(cache_dir)
    with cache_errors("verify", root):
        results = verify_cache(root, registry)
    for r in results:
        emit(f"{'ok' if r.ok else 'BAD':<4} {r.entry.kind:<9} {r.entry.name}{'' if r.ok else ': ' + r.problem}")
    bad = sum(1 for r in results if not r.ok)
    emit(f"{len(results)} checked, {bad} damaged" + (" (they are rebuilt on next use, or run "
                                                     "`bleucli cache remove NAME`)" if bad else ""))
    return 5 if bad else 0


@cache.command("export")
@click.argument("directory", type=click.Path(file_okay=False))
@_cache_dir
@_registry
def cache_export(directory: str, cache_dir: str | None, registry: str | None) -> None:
    """Copy the cached downloads into DIRECTORY as a mirror (<host>/<path>) for --mirror/BLEUCLI_MIRROR."""
    from pathlib import Path

    from .cache import cache_errors
    from .manage import export_cache

    root = _root(cache_dir)
    with cache_errors(f"export to {directory}", root):
        written = export_cache(root, Path(directory), registry)
    emit(f"{len(written)} download(s) in {directory}")


@cache.command("remove")
@click.argument("testset", required=False)
@click.option("--all", "remove_all", is_flag=True, help="Remove everything in the cache.")
@_cache_dir
@_registry
def cache_remove(testset: str | None, remove_all: bool, cache_dir: str | None, registry: str | None) -> None:
    """Remove one test set (and downloads no other set uses), or --all."""
    from .cache import cache_errors
    from .manage import remove_from_cache

    if bool(testset) == remove_all:
        raise click.UsageError("give a test set name or --all")
    root = _root(cache_dir)
    with cache_errors(f"remove {testset or 'everything'}", root):
        removed = remove_from_cache(root, testset, registry)
    emit("\n".join(f"removed {p}" for p in removed) or "nothing to remove")
