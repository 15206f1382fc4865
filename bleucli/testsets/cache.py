"""The on-disk cache: where things live, atomic writes, locks and manifests.

Invariants (reliability.md section 1), which every writer here keeps:

1. Nothing incomplete ever carries a final name: files are written to a
   process-unique temporary name in the target directory, fsynced, then
   ``os.replace``d; directories are built in a staging directory and renamed.
2. Correctness never depends on the lock: the lock only avoids duplicate
   downloads. Two writers racing both produce complete, verified results and
   the rename decides which one stays.
3. Everything is re-verified on use: a processed language pair is used only
   if its manifest is readable, was built from the same registry entry, and
   every file read matches the sha256 the manifest records.

Layout under the cache root::

    downloads/<download id>/<file>              verified download (archive or text)
    downloads/<download id>/extracted/          archive contents + .bleucli-extract.json
    testsets/<set, / as +>/<pair>/manifest.json processed fields (f00.txt, f01.txt...)
    locks/<name>.lock                           advisory locks (filelock)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import socket
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import CacheError

#: Bump when processing changes, so caches built by an older bleucli are rebuilt.
PROCESSING_VERSION = 1
MANIFEST = "manifest.json"
EXTRACT_MANIFEST = ".bleucli-extract.json"
_TEMP_PREFIXES = (".part-", ".tmp-", ".trash-")


def resolve_cache_root(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """``cache_dir``, else ``$BLEUCLI_CACHE_DIR``, else the platform's user cache dir.

    Resolved to an absolute path when called (never at import). A relative
    ``$BLEUCLI_CACHE_DIR`` is refused: an environment variable outlives the
    directory it was set in, and would silently give one cache per working
    directory; ``--cache-dir`` is given per command, so it is resolved.
    """
    from_env = os.environ.get("BLEUCLI_CACHE_DIR") or None
    if cache_dir is None:
        cache_dir = from_env
    if from_env is not None and str(cache_dir) == from_env and not Path(from_env).expanduser().is_absolute():
        # set once for many commands run from many directories: relative, it would mean one cache in each
        raise CacheError(f"BLEUCLI_CACHE_DIR must be an absolute path, got '{from_env}' (a relative one "
                         "gives one cache per working directory; a relative --cache-dir DIR is allowed)")
    if cache_dir is None:
        import platformdirs

        cache_dir = platformdirs.user_cache_dir("bleucli", appauthor=False)
    root = Path(cache_dir).expanduser().absolute()
    if root.exists() and not root.is_dir():
        raise CacheError(f"cache path {root} exists and is not a directory")
    return root


@contextlib.contextmanager
def cache_errors(operation: str, root: str | os.PathLike[str] | None = None) -> Iterator[None]:
    """Report a failed file operation in the cache as a :class:`CacheError` naming the path and the operation.

    Without this an ``OSError`` from the cache (a path too long, a read-only
    cache, a disk that fills during extraction) reached the CLI's last handler,
    which reports failures to write the *result* ("cannot write output", exit 74).
    """
    try:
        yield
    except OSError as exc:
        where = exc.filename
        place = f" ({where})" if where is not None and str(where) != str(root) else ""
        cache = f"cache {root}" if root is not None else "the test-set cache"
        raise CacheError(f"{cache}: cannot {operation}: {exc.strerror or exc}{place}") from None


def offline_requested(offline: bool | None = None) -> bool:
    """``offline`` if given, else ``$BLEUCLI_OFFLINE`` (1/true/yes)."""
    if offline is not None:
        return offline
    return os.environ.get("BLEUCLI_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def make_dirs(path: Path) -> None:
    """Create a directory (and parents) private to the user; errors become :class:`CacheError`."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise CacheError(f"cannot create cache directory {path}: {exc.strerror or exc}") from None


def unique_suffix() -> str:
    """host-pid-random: unique per process, and lets a later run tell whether the owner died."""
    host = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:20] or "host"
    return f"{host}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def temp_path(directory: Path, prefix: str, name: str = "") -> Path:
    """A fresh process-unique temporary path in ``directory`` (not created)."""
    return directory / f"{prefix}{name + '-' if name else ''}{unique_suffix()}"


def fsync_dir(directory: Path) -> None:
    """Make a rename durable; best effort (not every platform can open a directory)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a unique temp file, fsync and ``os.replace``."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def write_new_file(path: Path, data: bytes) -> str:
    """Create ``path`` (which must not exist: O_EXCL never follows a planted link), fsync; return sha256."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    return hashlib.sha256(data).hexdigest()


def file_digests(path: Path, algorithms: tuple[str, ...] = ("sha256",)) -> tuple[dict[str, str], int]:
    """Hex digests of a file's bytes for each algorithm, and its size."""
    hashers = {a: hashlib.new(a) for a in algorithms}
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            size += len(chunk)
            for h in hashers.values():
                h.update(chunk)
    return {a: h.hexdigest() for a, h in hashers.items()}, size


def remove_tree(path: Path) -> None:
    """Remove a file or directory tree; a concurrent removal is not an error."""
    with contextlib.suppress(FileNotFoundError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()


def move_aside_and_remove(path: Path) -> None:
    """Take ``path`` out of the way atomically (rename), then delete it.

    Renaming first means a concurrent reader sees either the old complete
    entry or nothing, never a half-deleted one.
    """
    trash = temp_path(path.parent, ".trash-", path.name)
    try:
        os.replace(path, trash)
    except FileNotFoundError:
        return
    remove_tree(trash)


def _owner_is_dead(name: str) -> bool:
    """True for a temp entry whose creating process (on this host) no longer exists."""
    match = re.search(r"([A-Za-z0-9]+)-(\d+)-[0-9a-f]{8}$", name)
    if not match:
        return False
    host = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:20] or "host"
    if match.group(1) != host:
        return False
    pid = int(match.group(2))
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OSError):
        return False
    return False


def collect_garbage(directory: Path, max_age: float = 24 * 3600) -> None:
    """Remove temp entries left by crashed runs: owner dead, or older than ``max_age``.

    Only names with bleucli's temp prefixes are touched, and a failure to
    remove one is ignored: garbage is never mistaken for data anyway.
    """
    try:
        entries = list(directory.iterdir())
    except OSError:
        return
    now = time.time()
    for entry in entries:
        if not entry.name.startswith(_TEMP_PREFIXES):
            continue
        try:
            old = now - entry.lstat().st_mtime > max_age
        except OSError:
            continue
        if old or _owner_is_dead(entry.name):
            remove_tree(entry)


@contextlib.contextmanager
def cache_lock(root: Path, name: str) -> Iterator[bool]:
    """An advisory inter-process lock; yields whether it is actually held.

    The lock saves bandwidth only. When it cannot be taken (read-only cache,
    a filesystem where locking fails, the timeout, or
    ``BLEUCLI_TEST_NO_LOCK=1`` in the tests) the caller proceeds without it,
    and the atomic renames keep the result correct.
    """
    if os.environ.get("BLEUCLI_TEST_NO_LOCK"):
        yield False
        return
    timeout = float(os.environ.get("BLEUCLI_LOCK_TIMEOUT", "900"))
    try:
        import filelock

        lock_dir = root / "locks"
        lock_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        lock = filelock.FileLock(str(lock_dir / f"{re.sub(r'[^A-Za-z0-9._+-]', '_', name)}.lock"),
                                 timeout=timeout)
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:  # say it once: a silent wait of minutes looks like a hang
            logging.getLogger("bleucli.cache").warning(
                "waiting for %s: another bleucli process is preparing the same data (for up to %g s)",
                lock.lock_file, timeout)
            lock.acquire()
    except Exception:  # noqa: BLE001 - any lock failure means "proceed unlocked"
        yield False
        return
    try:
        yield True
    finally:
        with contextlib.suppress(Exception):
            lock.release()


def read_json(path: Path) -> Any | None:
    """Parsed JSON, or ``None`` if the file is missing, unreadable or not valid JSON."""
    try:
        from ..input.bounded import loads  # a duplicated key or deep nesting: a damaged manifest, made again

        return loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return None


def dump_json(data: Any) -> bytes:
    return (json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def tree_size(path: Path) -> int:
    """Total size in bytes of the regular files under ``path``."""
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for f in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, f)).st_size
    return total
