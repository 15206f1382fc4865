"""Make a (test set, language pair) available in the cache, and read it back verified.

The pipeline is download -> extract -> process; each stage's output is
published atomically and re-verified by the next stage, so a run killed at
any point leaves a cache the next run repairs without help:

* a download is used only after its checksum matched (re-hashed when it is
  read for extraction or processing, so a damaged file is fetched again);
* an extraction is used only if its manifest exists (written last) and
  belongs to the archive's current checksum; each member read is re-hashed;
* a processed pair is used only if its manifest exists (written last), was
  built from the same registry entry, and each field file matches its sha256.

Anything that fails these checks is rebuilt (or, offline, reported with
:class:`NotCachedError`). Locks only avoid duplicate work.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from ..errors import CacheError, DownloadError, IntegrityError, NotCachedError, OptionError
from . import cache
from .cache import EXTRACT_MANIFEST, MANIFEST, PROCESSING_VERSION
from .crash import crash_point
from .downloader import DownloadPolicy, ProgressCallback, fetch, log
from .registry import Download, Location, PairSpec, Registry, TestSet


@dataclass(frozen=True)
class CacheContext:
    """Where the cache is and how to fill it (threaded through every call)."""

    root: Path
    offline: bool = False
    policy: DownloadPolicy | None = None
    progress: ProgressCallback | None = None
    #: base URLs or local directories holding downloads as ``<mirror>/<host>/<path>``, tried in order
    #: before the original URL (see :func:`mirror_sources`)
    mirrors: tuple[str, ...] = ()


def _safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._-+" else "_" for c in name)


def download_dir(ctx: CacheContext, download: Download) -> Path:
    return ctx.root / "downloads" / download.id


def download_path(ctx: CacheContext, download: Download) -> Path:
    return download_dir(ctx, download) / _safe_name(download.basename)


def pair_dir(ctx: CacheContext, testset: TestSet, pair: str) -> Path:
    return ctx.root / "testsets" / testset.dirname / pair


def spec_digest(registry: Registry, testset: TestSet, pair: PairSpec) -> str:
    """A digest of everything in the registry that determines a pair's processed data.

    Stored in the manifest: if the registry entry changes (new URL, checksum,
    member, reference labels), the cached pair no longer matches and is rebuilt
    instead of silently serving stale data (sacreBLEU #172, #261).
    """
    downloads = sorted({loc.file for loc in pair.locations()})
    payload = {
        "processing": PROCESSING_VERSION,
        "format": testset.format,
        "meta": list(testset.meta),
        "refs": list(testset.refs),
        "pair": repr(pair),
        "downloads": [[d, registry.downloads[d].sha256, registry.downloads[d].md5] for d in downloads],
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


# --------------------------------------------------------------------------- downloads

def _verify_download_file(path: Path, download: Download) -> bool:
    algorithm, expected = ("sha256", download.sha256) if download.sha256 else ("md5", download.md5)
    try:
        digests, size = cache.file_digests(path, (algorithm,))
    except OSError:
        return False
    if download.size is not None and size != download.size:
        return False
    return digests[algorithm] == expected


def sacrebleu_cache_dir() -> Path | None:
    """sacreBLEU's cache (``$SACREBLEU``, else ``~/.sacrebleu``) if it exists; a relative ``$SACREBLEU`` is ignored.

    sacreBLEU resolves a relative ``$SACREBLEU`` against each working directory;
    guessing which one was meant could pick up anything, so it is not used.
    """
    configured = os.environ.get("SACREBLEU")
    directory = Path(configured).expanduser() if configured else Path.home() / ".sacrebleu"
    return directory if directory.is_absolute() and directory.is_dir() else None


def _sacrebleu_candidates(download: Download) -> list[Path]:
    """Files of sacreBLEU's cache that may hold ``download``: ``<set>/raw/<set with / as _>.<URL basename>``."""
    root = sacrebleu_cache_dir()
    if root is None:
        return []
    suffix = "." + download.basename
    try:
        found = [*root.glob(f"*/raw/*{suffix}"), *root.glob(f"*/*/raw/*{suffix}")]
    except OSError:
        return []
    return sorted(p for p in found if p.is_file() and not p.is_symlink())


def _copy_from_sacrebleu(ctx: CacheContext, download: Download, path: Path) -> bool:
    """Take ``download`` from sacreBLEU's cache (read only) if a file there has the registry's checksum.

    Users who already downloaded WMT sets with sacreBLEU need no network. The
    candidate is checked, copied under a temporary name, and the copy checked
    again before it gets its final name: sacreBLEU keeps damaged files (a
    truncated download stays), and it may rewrite a file while we copy.
    """
    return any(_copy_verified(candidate, download, path) for candidate in _sacrebleu_candidates(download))


def _copy_verified(candidate: Path, download: Download, path: Path) -> bool:
    """Copy ``candidate`` to ``path`` if it (and then its copy) has the registry's checksum."""
    if not _verify_download_file(candidate, download):
        return False
    cache.make_dirs(path.parent)
    temp = cache.temp_path(path.parent, ".part-", path.name)
    try:
        shutil.copyfile(candidate, temp)
        if _verify_download_file(temp, download):
            os.replace(temp, path)
            cache.fsync_dir(path.parent)
            return True
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    return False


# --------------------------------------------------------------------------- mirrors

def mirror_sources(mirrors: Iterable[str] | None = None) -> tuple[str, ...]:
    """The mirrors to use: ``mirrors`` if any, else ``$BLEUCLI_MIRROR`` (whitespace-separated).

    Each is a base URL (``http(s)://...``) or a local directory (a path or a
    ``file://`` URL); anything else is an :class:`OptionError`.
    """
    found = tuple(m for m in (mirrors or ()) if m) or tuple(os.environ.get("BLEUCLI_MIRROR", "").split())
    for mirror in found:
        if "://" in mirror and not mirror.lower().startswith(("http://", "https://", "file://")):
            raise OptionError(f"invalid mirror {mirror!r}: give an http(s) base URL or a local directory")
    return found


def mirror_is_url(mirror: str) -> bool:
    return mirror.lower().startswith(("http://", "https://"))


def mirror_relative_path(url: str) -> str | None:
    """``<host>/<path>`` of ``url``, where a mirror keeps its file (``None`` if the URL cannot be mapped safely)."""
    from urllib.parse import unquote, urlparse

    parsed = urlparse(url)
    host = parsed.hostname or ""
    parts = [unquote(p) for p in parsed.path.split("/")[1:]]
    if (not host or not parts or any(p in ("", ".", "..") or "/" in p or "\\" in p or "\0" in p for p in parts)
            or host in (".", "..")):
        return None
    return "/".join([host, *parts])


def mirror_directory(mirror: str) -> Path:
    if mirror.lower().startswith("file://"):
        from urllib.parse import unquote, urlparse

        return Path(unquote(urlparse(mirror).path))
    return Path(mirror).expanduser()


def _from_mirror(ctx: CacheContext, mirror: str, download: Download, path: Path) -> bool:
    """Try one mirror: ``True`` if it gave the verified file (now at ``path``), else a warning and ``False``."""
    import dataclasses
    from urllib.parse import quote

    relative = mirror_relative_path(download.url)
    if relative is None:
        return False
    if mirror_is_url(mirror):
        url = mirror.rstrip("/") + "/" + "/".join(quote(p) for p in relative.split("/"))
        try:
            fetch(dataclasses.replace(download, url=url), path, ctx.policy, ctx.progress)
            return True
        except DownloadError as exc:  # a refused redirect too
            problem = str(exc)
        except IntegrityError as exc:
            problem = str(exc)
    else:
        candidate = mirror_directory(mirror).joinpath(*relative.split("/"))
        if not candidate.is_file():
            problem = f"no file {candidate}"
        elif _copy_verified(candidate, download, path):
            return True
        else:
            problem = f"{candidate} does not have the registry's checksum ({_declared(download)})"
    log.warning("mirror %s: %s; trying the next source", mirror, problem)
    return False


def ensure_download(ctx: CacheContext, download: Download) -> Path:
    """The verified local copy of a download, fetching it if missing or damaged.

    A copy in sacreBLEU's cache that matches the registry's checksum is used
    before the network (also with ``offline``), whether our own copy is
    missing or damaged: it replaces a damaged one by rename, so an offline
    machine with an intact sacreBLEU cache repairs itself.
    """
    path = download_path(ctx, download)
    if path.is_file() and not path.is_symlink() and _verify_download_file(path, download):
        return path
    if not path.is_dir() and _copy_from_sacrebleu(ctx, download, path):
        return path
    # offline, only local-directory mirrors may be used (never a socket)
    mirrors = [m for m in ctx.mirrors if not (ctx.offline and mirror_is_url(m))]
    if ctx.offline and not mirrors:
        _offline_error(download, path)
    directory = download_dir(ctx, download)
    cache.make_dirs(directory)
    with cache.cache_lock(ctx.root, f"download-{download.id}"):
        cache.collect_garbage(directory)
        # Another process may have finished while we waited for the lock.
        if path.is_file() and not path.is_symlink() and _verify_download_file(path, download):
            return path
        if path.exists() or path.is_symlink():
            cache.move_aside_and_remove(path)
        try:
            for mirror in mirrors:
                if _from_mirror(ctx, mirror, download, path):
                    return path
            if ctx.offline:
                _offline_error(download, path)
            fetch(download, path, ctx.policy, ctx.progress)
        except BaseException:
            # fetch leaves nothing behind; neither should we: an empty directory showed up in
            # `cache list` as a 0-byte download and made `cache verify` report it damaged
            with contextlib.suppress(OSError):
                directory.rmdir()  # only if empty: another process's files stay
            raise
        crash_point("after_store")
    return path


def _offline_error(download: Download, path: Path) -> None:
    state = "is damaged" if path.exists() else "is not cached"
    raise NotCachedError(f"{download.url} {state} and offline mode is on (BLEUCLI_OFFLINE/--offline); "
                         "run once with network access")


def _declared(download: Download) -> str:
    """The checksum the registry declares, as ``algorithm:hex``."""
    return f"sha256:{download.sha256}" if download.sha256 else f"md5:{download.md5}"


def _valid_extraction_manifest(extracted: Path, download: Download) -> dict[str, Any] | None:
    """The extraction's member manifest if it belongs to the download's declared checksum, else ``None``."""
    manifest = cache.read_json(extracted / EXTRACT_MANIFEST)
    if (isinstance(manifest, dict) and manifest.get("declared") == _declared(download)
            and isinstance(manifest.get("members"), dict)):
        return manifest
    return None


def _extraction_valid(extracted: Path, download: Download) -> bool:
    return _valid_extraction_manifest(extracted, download) is not None


def ensure_extracted(ctx: CacheContext, download: Download, *, force: bool = False) -> tuple[Path, dict[str, Any]]:
    """The extraction directory of an archive download and its member manifest.

    The fast path trusts an extraction whose manifest (written last) names the
    checksum the registry declares for the archive; each member is re-hashed
    when read, so a damaged member still triggers ``force`` re-extraction.
    Re-extracting needs no network while the archive itself is intact.
    """
    from .extract import extract_archive

    directory = download_dir(ctx, download)
    extracted = directory / "extracted"
    # The manifest is read once and returned as validated (reading it again could see another
    # process's replacement, or nothing).
    if not force and (valid := _valid_extraction_manifest(extracted, download)) is not None:
        return extracted, valid
    archive = ensure_download(ctx, download)
    with cache.cache_lock(ctx.root, f"extract-{download.id}"):
        cache.collect_garbage(directory)
        if not force and (valid := _valid_extraction_manifest(extracted, download)) is not None:
            return extracted, valid
        staging = cache.temp_path(directory, ".tmp-", "extract")
        staging.mkdir(mode=0o700)
        try:
            manifest = extract_archive(archive, download.unpack, staging, _declared(download))
            _publish_dir(staging, extracted, lambda p: not force and _extraction_valid(p, download))
        finally:
            cache.remove_tree(staging)
    return extracted, manifest


def _publish_dir(staging: Path, final: Path, existing_ok: Any) -> None:
    """Rename ``staging`` to ``final``; an existing valid ``final`` wins, an invalid one is replaced."""
    cache.fsync_dir(staging)
    for _ in range(5):
        try:
            os.rename(staging, final)
            cache.fsync_dir(final.parent)
            return
        except OSError:
            if not final.exists():
                raise
            if existing_ok(final):
                return
            cache.move_aside_and_remove(final)
    raise CacheError(f"could not publish {final} (another process keeps replacing it)")


def read_location(ctx: CacheContext, registry: Registry, location: Location) -> bytes:
    """A location's bytes, verified against the download's checksum or the extraction manifest."""
    download = registry.downloads[location.file]
    if download.unpack in ("none", "gzip"):
        path = ensure_download(ctx, download)
        data = path.read_bytes()
        # Re-verify what was read (the file may have changed since ensure_download checked).
        algorithm, expected = ("sha256", download.sha256) if download.sha256 else ("md5", download.md5)
        if hashlib.new(algorithm, data).hexdigest() != expected:
            raise IntegrityError(f"{path} changed while being read", download.url)
        name = download.basename
    else:
        assert location.path is not None
        for attempt in range(2):
            extracted, manifest = ensure_extracted(ctx, download, force=attempt > 0)
            entry = manifest["members"].get(location.path)
            if entry is None:
                links = manifest.get("skipped_links", [])
                kind = "a link (links are not extracted)" if location.path in links else "not in the archive"
                raise IntegrityError(f"{location.path} is {kind} {download.url}", download.url)
            member = _read_member(extracted, location.path, entry["sha256"])
            if member is not None:
                data = member
                break
        else:
            raise IntegrityError(f"extracted copy of {location.path} from {download.url} keeps failing "
                                 "verification", download.url)
        name = location.path
    if name.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise IntegrityError(f"cannot decompress {name}: {exc}", download.url) from None
    return data


def _read_member(extracted: Path, path: str, sha256: str) -> bytes | None:
    """An extracted member's bytes, or ``None`` if it cannot be read or does not match ``sha256``."""
    try:
        data = extracted.joinpath(*path.split("/")).read_bytes()
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == sha256 else None


# --------------------------------------------------------------------------- processed pairs

@dataclass(frozen=True)
class PairData:
    """A verified processed pair: manifest plus a way to read each field's lines."""

    directory: Path
    manifest: dict[str, Any]

    @property
    def field_names(self) -> list[str]:
        return [f["name"] for f in self.manifest["fields"] if not f["name"].startswith(".")]

    @property
    def scoring_refs(self) -> list[str]:
        return list(self.manifest["scoring_refs"])

    def field_sha256(self, name: str) -> str:
        return self._entry(name)["sha256"]

    def _entry(self, name: str) -> dict[str, Any]:
        for entry in self.manifest["fields"]:
            if entry["name"] == name:
                return entry
        raise KeyError(name)

    def field_path(self, name: str) -> Path:
        """The file holding the field's lines (one per line, ``\n``-terminated), as verified by the manifest."""
        return self.directory / self._entry(name)["file"]

    def has_field(self, name: str) -> bool:
        return any(entry["name"] == name for entry in self.manifest["fields"])

    def read_raw(self, name: str) -> list[str] | None:
        """The field's lines as stored, or ``None`` if the file does not match the manifest."""
        entry = self._entry(name)
        try:
            data = (self.directory / entry["file"]).read_bytes()
        except OSError:
            return None
        if len(data) != entry["size"] or hashlib.sha256(data).hexdigest() != entry["sha256"]:
            return None
        text = data.decode("utf-8")
        lines = text.split("\n")[:-1] if text else []
        if len(lines) != entry["lines"]:
            return None
        return lines


def _manifest_ok(manifest: Any, digest: str) -> TypeGuard[dict[str, Any]]:
    return (isinstance(manifest, dict) and manifest.get("spec") == digest
            and isinstance(manifest.get("fields"), list) and isinstance(manifest.get("scoring_refs"), list))


def _pair_valid(directory: Path, digest: str) -> bool:
    manifest = cache.read_json(directory / MANIFEST)
    if not _manifest_ok(manifest, digest):
        return False
    data = PairData(directory, manifest)
    return all(data.read_raw(entry["name"]) is not None for entry in manifest["fields"])


def _build_pair(ctx: CacheContext, registry: Registry, testset: TestSet, pair: PairSpec, digest: str) -> None:
    from .formats import process

    processed = process(testset, pair, lambda loc: read_location(ctx, registry, loc))
    lengths = {name: len(lines) for name, lines in processed.fields.items()}
    if len(set(lengths.values())) > 1:
        raise IntegrityError(f"{testset.name}/{pair.name}: fields have different numbers of lines "
                             f"({', '.join(f'{k}={v}' for k, v in lengths.items())})")
    final = pair_dir(ctx, testset, pair.name)
    parent = final.parent
    cache.make_dirs(parent)
    cache.collect_garbage(parent)
    staging = cache.temp_path(parent, ".tmp-", pair.name)
    staging.mkdir(mode=0o700)
    try:
        entries = []
        all_fields = list(processed.fields.items())
        if processed.filter:
            all_fields.append((".filter", processed.filter))
        first = True
        for index, (name, lines) in enumerate(all_fields):
            data = "".join(line + "\n" for line in lines).encode("utf-8")
            file_name = f"f{index:02d}.txt"
            sha = cache.write_new_file(staging / file_name, data)
            entries.append({"name": name, "file": file_name, "sha256": sha, "size": len(data),
                            "lines": len(lines)})
            if first:
                first = False
                crash_point("mid_process")
        manifest = {"schema": 1, "testset": testset.name, "pair": pair.name, "spec": digest,
                    "fields": entries, "scoring_refs": processed.scoring_refs}
        crash_point("before_manifest")
        cache.write_new_file(staging / MANIFEST, cache.dump_json(manifest))
        crash_point("before_publish")
        _publish_dir(staging, final, lambda p: _pair_valid(p, digest))
    finally:
        cache.remove_tree(staging)


def load_pair(ctx: CacheContext, registry: Registry, testset: TestSet, pair_name: str,
              needed: Iterable[str] | None = None) -> tuple[PairData, dict[str, list[str]]]:
    """The processed pair (building it if needed) and the verified lines of ``needed`` fields.

    ``needed=None`` reads every field (used by ``download`` and ``cache verify``).
    A pair whose manifest or files do not verify is rebuilt once; offline, a
    rebuild that needs the network raises :class:`NotCachedError`.
    """
    pair = testset.pair(pair_name)
    pair_name = pair.name
    digest = spec_digest(registry, testset, pair)
    directory = pair_dir(ctx, testset, pair_name)
    for attempt in range(3):
        manifest = cache.read_json(directory / MANIFEST)
        if _manifest_ok(manifest, digest):
            data = PairData(directory, manifest)
            names = [e["name"] for e in manifest["fields"]] if needed is None else \
                [n for n in needed if data.has_field(n)]
            lines = _read_fields(data, names)
            if lines is not None:
                return data, lines
        if attempt == 2:
            break
        with cache.cache_lock(ctx.root, f"process-{testset.dirname}-{pair_name}"):
            if _pair_valid(directory, digest):
                continue
            _build_pair(ctx, registry, testset, pair, digest)
    raise CacheError(f"{testset.name}/{pair_name}: the cached data keeps failing verification in {directory}")


def _read_fields(data: PairData, names: Iterable[str]) -> dict[str, list[str]] | None:
    """The verified lines of each named field, or ``None`` if any field fails verification."""
    lines: dict[str, list[str]] = {}
    for name in names:
        raw = data.read_raw(name)
        if raw is None:
            return None
        lines[name] = raw
    return lines
