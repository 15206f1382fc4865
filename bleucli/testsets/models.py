"""SentencePiece models for spBLEU, fetched and verified like test-set downloads.

sacreBLEU 2.6 downloads ``flores101``, ``flores200`` and ``spBLEU-1K`` models
into ``~/.sacrebleu/models/`` without any checksum and loads whatever file sits
there, signing the score ``tok:flores101`` all the same. Here a model is an
entry of the registry's ``models:`` section (URL, optional size and checksum),
downloaded through :func:`downloader.fetch` (atomic, size-capped, verified), and
checked against a recorded checksum *every time it is loaded*:

* the registry's sha256/md5 when it has one;
* otherwise the sha256 pinned in the cache manifest at the first download
  (the real files could not be fetched where bleucli is built, so the shipped
  registry has no checksums yet). A model file without a manifest was never
  verified by bleucli and is fetched again.

This module is the tokenizers' model provider: ``import bleucli`` hands
:func:`load_model` to :func:`bleucli.tokenizers.set_spm_model_provider`, so
that the (core) tokenizers never import this wing.

A mismatch is an :class:`IntegrityError`, never a score. Layout:
``<cache>/models/<name>/<file>`` and ``<cache>/models/<name>/manifest.json``.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import IntegrityError, NotCachedError, RegistryError
from ..tokenizers.tok_spm import LoadedModel
from .registry import ModelSpec

if TYPE_CHECKING:  # pragma: no cover
    from .registry import Registry

_SHA256_RE = re.compile(r"[0-9a-f]{64}")

MANIFEST = "manifest.json"


def model_spec(registry: Registry, name: str) -> ModelSpec:
    """The registry's entry for ``name``, or a :class:`RegistryError` naming the registry."""
    try:
        return registry.models[name]
    except KeyError:
        raise RegistryError(f"{registry.path}: no SentencePiece model '{name}' in the registry's "
                            "models section") from None


def model_dir(root: Path, spec: ModelSpec) -> Path:
    return root / "models" / spec.name


def _recorded(spec: ModelSpec, manifest: Any) -> tuple[str, str, bool] | None:
    """``(algorithm, digest, pinned)`` the file is held to, or ``None`` when nothing is recorded."""
    if spec.sha256:
        return "sha256", spec.sha256, False
    if spec.md5:
        return "md5", spec.md5, False
    if isinstance(manifest, dict) and manifest.get("url") == spec.url and manifest.get("file") == spec.file \
            and isinstance(manifest.get("sha256"), str) and _SHA256_RE.fullmatch(manifest["sha256"]):
        return "sha256", manifest["sha256"], True
    return None


def check_model_bytes(spec: ModelSpec, path: Path, data: bytes, manifest: Any) -> str | None:
    """The sha256 of ``data`` if it matches the recorded checksum; ``None`` if nothing is recorded.

    Raises :class:`IntegrityError` on a mismatch (a tampered or damaged file).
    """
    sha256 = hashlib.sha256(data).hexdigest()
    recorded = _recorded(spec, manifest)
    if recorded is None:
        return None
    algorithm, expected, pinned = recorded
    actual = sha256 if algorithm == "sha256" else hashlib.md5(data).hexdigest()
    if spec.size is not None and len(data) != spec.size:
        raise IntegrityError(f"cached model {path} has {len(data)} bytes, the registry says {spec.size}; "
                             f"delete it (bleucli cache remove {spec.name}) to download it again",
                             spec.url, str(spec.size), str(len(data)))
    if actual != expected:
        origin = "pinned at its first download" if pinned else "in the registry"
        raise IntegrityError(f"cached model {path} does not match its {algorithm} {origin} "
                             f"(expected {expected}, got {actual}); refusing to score with it. "
                             f"Delete it (bleucli cache remove {spec.name}) to download it again",
                             spec.url, expected, actual)
    return sha256


def load_model(name: str, *, cache_dir: str | os.PathLike[str] | None = None, offline: bool | None = None,
               registry: Registry | str | os.PathLike[str] | None = None) -> LoadedModel:
    """The verified bytes of registry model ``name``, downloading them on first use.

    Raises :class:`NotCachedError` offline when the model is not cached,
    :class:`IntegrityError` when the cached file does not match its checksum,
    and the downloader's errors when fetching fails.
    """
    from . import cache
    from .registry import Registry as RegistryType
    from .registry import load_registry

    reg = registry if isinstance(registry, RegistryType) else load_registry(registry)
    spec = model_spec(reg, name)
    root = cache.resolve_cache_root(cache_dir)
    directory = model_dir(root, spec)
    path = directory / spec.file
    loaded = _load_cached(spec, path)
    if loaded is not None:
        return loaded
    if cache.offline_requested(offline):
        raise NotCachedError(f"SentencePiece model '{name}' ({spec.url}) is not cached in {directory} and "
                             "offline mode is on (BLEUCLI_OFFLINE/--offline); run once with network access")
    cache.make_dirs(directory)
    with cache.cache_lock(root, f"model-{spec.name}"):
        cache.collect_garbage(directory)
        loaded = _load_cached(spec, path)  # another process may have fetched it meanwhile
        if loaded is not None:
            return loaded
        return _download(spec, path)


def _load_cached(spec: ModelSpec, path: Path) -> LoadedModel | None:
    from . import cache

    if not path.is_file() or path.is_symlink():
        return None
    data = path.read_bytes()
    sha256 = check_model_bytes(spec, path, data, cache.read_json(path.parent / MANIFEST))
    if sha256 is None:  # never verified by bleucli: fetch it again
        return None
    return LoadedModel(spec.name, path, data, sha256, spec.signature)


def _download(spec: ModelSpec, path: Path) -> LoadedModel:
    from ..errors import warn
    from . import cache
    from .downloader import fetch
    from .registry import Download

    if path.exists() or path.is_symlink():
        cache.move_aside_and_remove(path)
    manifest_path = path.parent / MANIFEST
    if manifest_path.exists():
        cache.move_aside_and_remove(manifest_path)
    download = Download(id=f"model-{spec.name}", url=spec.url, md5=spec.md5, sha256=spec.sha256,
                        unpack="none", size=spec.size)
    fetch(download, path)
    data = path.read_bytes()
    sha256 = hashlib.sha256(data).hexdigest()
    pinned = not (spec.sha256 or spec.md5)
    manifest = {"url": spec.url, "file": spec.file, "sha256": sha256, "size": len(data),
                "md5": hashlib.md5(data).hexdigest(), "pinned": pinned}
    cache.atomic_write_bytes(manifest_path, cache.dump_json(manifest))
    if pinned:
        warn(f"SentencePiece model '{spec.name}' downloaded from {spec.url}: the registry has no checksum "
             f"for it, so its sha256 {sha256} ({len(data)} bytes) is now pinned in {manifest_path} and "
             "every later load is held to it")
    return LoadedModel(spec.name, path, data, sha256, spec.signature)
