"""Cache management behind ``bleucli cache``: list with sizes, verify, remove.

sacreBLEU's standard support answer is "delete ~/.sacrebleu/X and retry";
bleucli repairs damaged entries by itself, and these functions give a user
(or CI) a way to see what is cached, check it, and clear it deliberately.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import cache
from .cache import MANIFEST
from .prepare import CacheContext, PairData, _extraction_valid, _verify_download_file, spec_digest
from .registry import Registry, load_registry


@dataclass(frozen=True)
class CacheEntry:
    """One cached item: a download (``kind="download"``) or a processed pair (``kind="testset"``)."""

    kind: str
    name: str
    path: Path
    size: int


@dataclass(frozen=True)
class VerifyResult:
    """The state of one cached item: ``ok``, or a short description of the problem."""

    entry: CacheEntry
    ok: bool
    problem: str = ""


def _registry(registry: Registry | str | os.PathLike[str] | None) -> Registry:
    return registry if isinstance(registry, Registry) else load_registry(registry)


def list_cache(root: Path) -> list[CacheEntry]:
    """Everything under the cache root, downloads first, with sizes in bytes."""
    entries: list[CacheEntry] = []
    downloads = root / "downloads"
    if downloads.is_dir():
        for d in sorted(downloads.iterdir()):
            if d.is_dir() and not d.name.startswith("."):
                entries.append(CacheEntry("download", d.name, d, cache.tree_size(d)))
    testsets = root / "testsets"
    if testsets.is_dir():
        for s in sorted(testsets.iterdir()):
            if not s.is_dir() or s.name.startswith("."):
                continue
            for p in sorted(s.iterdir()):
                if p.is_dir() and not p.name.startswith("."):
                    entries.append(CacheEntry("testset", f"{s.name.replace('+', '/')} {p.name}", p,
                                              cache.tree_size(p)))
    models = root / "models"  # SentencePiece models (testsets/models.py)
    if models.is_dir():
        for m in sorted(models.iterdir()):
            if m.is_dir() and not m.name.startswith("."):
                entries.append(CacheEntry("model", m.name, m, cache.tree_size(m)))
    return entries


def verify_cache(root: Path, registry: Registry | str | os.PathLike[str] | None = None) -> list[VerifyResult]:
    """Re-hash every cached item against the registry and the manifests; changes nothing."""
    reg = _registry(registry)
    results = []
    for entry in list_cache(root):
        if entry.kind == "download":
            download = reg.downloads.get(entry.name)
            if download is None:
                results.append(VerifyResult(entry, False, "not in the registry (stale)"))
                continue
            ctx = CacheContext(root=root, offline=True)
            from .prepare import download_path

            path = download_path(ctx, download)
            if not path.is_file():
                results.append(VerifyResult(entry, False, "download missing"))
            elif not _verify_download_file(path, download):
                results.append(VerifyResult(entry, False, "checksum mismatch"))
            elif download.unpack in ("tar", "zip") and (entry.path / "extracted").exists() \
                    and not _extraction_valid(entry.path / "extracted", download):
                results.append(VerifyResult(entry, False, "incomplete extraction"))
            else:
                results.append(VerifyResult(entry, True))
        elif entry.kind == "model":
            results.append(_verify_model(entry, reg))
        else:
            set_name, pair = entry.name.rsplit(" ", 1)
            testset = reg.testsets.get(set_name)
            if testset is None or pair not in testset.pairs:
                results.append(VerifyResult(entry, False, "not in the registry (stale)"))
                continue
            manifest: Any = cache.read_json(entry.path / MANIFEST)
            if not isinstance(manifest, dict) or not isinstance(manifest.get("fields"), list):
                results.append(VerifyResult(entry, False, "manifest missing or unreadable"))
            elif manifest.get("spec") != spec_digest(reg, testset, testset.pairs[pair]):
                results.append(VerifyResult(entry, False, "built from a different registry entry"))
            else:
                data = PairData(entry.path, manifest)
                bad = [f["name"] for f in manifest["fields"] if data.read_raw(f["name"]) is None]
                results.append(VerifyResult(entry, not bad, f"damaged field(s): {', '.join(bad)}" if bad else ""))
    return results


def _verify_model(entry: CacheEntry, reg: Registry) -> VerifyResult:
    from ..errors import IntegrityError
    from .models import MANIFEST as MODEL_MANIFEST
    from .models import check_model_bytes

    spec = reg.models.get(entry.name)
    if spec is None:
        return VerifyResult(entry, False, "not in the registry (stale)")
    path = entry.path / spec.file
    if not path.is_file():
        return VerifyResult(entry, False, "model missing")
    try:
        recorded = check_model_bytes(spec, path, path.read_bytes(), cache.read_json(entry.path / MODEL_MANIFEST))
    except IntegrityError:
        return VerifyResult(entry, False, "checksum mismatch")
    return VerifyResult(entry, recorded is not None, "" if recorded is not None else "no recorded checksum")


def remove_from_cache(root: Path, testset: str | None = None,
                      registry: Registry | str | os.PathLike[str] | None = None) -> list[Path]:
    """Remove one test set (its processed pairs and the downloads only it uses), one download, or everything.

    Returns the removed paths. Removal renames first, so a concurrent run sees
    either the complete entry or nothing.
    """
    removed: list[Path] = []
    if testset is None:
        for sub in ("downloads", "testsets", "models"):
            path = root / sub
            if path.exists():
                cache.move_aside_and_remove(path)
                removed.append(path)
        return removed
    reg = _registry(registry)
    if testset in reg.models and testset not in reg.testsets:  # a SentencePiece model
        model = root / "models" / testset
        if model.exists():
            cache.move_aside_and_remove(model)
            removed.append(model)
        return removed
    download = root / "downloads" / testset
    if testset not in reg.testsets and "/" not in testset and download.is_dir():
        # a download by the name `cache list` and `cache verify` show (shared by several sets, say)
        cache.move_aside_and_remove(download)
        return [download]
    target = reg.get(testset)
    still_used = {f for name, t in reg.testsets.items() if name != testset for f in t.files}
    processed = root / "testsets" / target.dirname
    if processed.exists():
        cache.move_aside_and_remove(processed)
        removed.append(processed)
    for file_id in target.files:
        path = root / "downloads" / file_id
        if file_id not in still_used and path.exists():
            cache.move_aside_and_remove(path)
            removed.append(path)
    return removed


def export_cache(root: Path, directory: Path, registry: Registry | str | os.PathLike[str] | None = None) -> list[Path]:
    """Copy every verified download of the cache into ``directory`` as a mirror (``<host>/<path>``).

    What ``--mirror DIR`` / ``BLEUCLI_MIRROR`` read: one machine with network
    access fills a shared directory for the others. Only downloads the registry
    declares and whose checksum still matches are written (each under a
    temporary name, then renamed); a file already there with the right
    checksum is left alone. Returns the files written or found in place.
    """
    import shutil

    from .prepare import download_path, mirror_relative_path

    reg = _registry(registry)
    ctx = CacheContext(root=root, offline=True)
    out: list[Path] = []
    for download in reg.downloads.values():
        source = download_path(ctx, download)
        relative = mirror_relative_path(download.url)
        if relative is None or not source.is_file() or source.is_symlink() \
                or not _verify_download_file(source, download):
            continue
        target = directory.joinpath(*relative.split("/"))
        if target.is_file() and _verify_download_file(target, download):
            out.append(target)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = cache.temp_path(target.parent, ".part-", target.name)
        try:
            shutil.copyfile(source, temp)
            os.replace(temp, target)
        finally:
            if temp.exists():
                temp.unlink()
        out.append(target)
    return out
