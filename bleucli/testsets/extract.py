"""Unpack a downloaded archive into a staging directory, refusing anything unsafe.

sacreBLEU calls ``tarfile.extractall`` without a filter: a hostile or merely
odd tarball can write outside the cache, create device files or keep setuid
bits, and an extraction killed half way leaves a partial tree that is used
forever (reliability.md 2b). Here:

* every member is checked *before anything is written*: names must be
  relative, without ``..``, backslashes or NUL; duplicates, devices, FIFOs
  and links pointing outside are refused with :class:`UnsafeArchiveError`;
  links pointing inside are skipped (never created); member count and total
  size are capped (tar/zip bombs);
* only regular files and directories are created, by our own code (no
  ``extractall``, so no dependency on which ``filter=`` the running Python
  supports), with O_EXCL and mode 0600/0700, inside a staging directory
  that we created and that therefore contains no links;
* each member's sha256 is recorded in ``.bleucli-extract.json``, written last;
  the caller then renames the staging directory into place, so a crash at any
  point leaves either the old state or garbage under a temporary name.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
from pathlib import Path
from typing import Any

from ..errors import UnsafeArchiveError
from .cache import EXTRACT_MANIFEST
from .crash import crash_point

MAX_MEMBERS = 200_000
MAX_TOTAL_BYTES = 16 << 30


def safe_member_name(name: str) -> str:
    """The normalised relative name of an archive member, or :class:`UnsafeArchiveError`."""
    if "\0" in name or "\\" in name:
        raise UnsafeArchiveError(f"unsafe archive member {name!r}: NUL or backslash in the name", name)
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise UnsafeArchiveError(f"unsafe archive member {name!r}: absolute path", name)
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise UnsafeArchiveError(f"unsafe archive member {name!r}: '..' in the path", name)
    return "/".join(parts)


def _inside(base: str, target: str) -> bool:
    """Whether a link target (relative to ``base``, the link's directory) stays inside the archive root."""
    if target.startswith("/") or "\0" in target or "\\" in target:
        return False
    joined = posixpath.normpath(posixpath.join(base, target))
    return joined != ".." and not joined.startswith("../") and not joined.startswith("/")


class _Plan:
    """The validated list of what will be created."""

    def __init__(self) -> None:
        self.dirs: set[str] = set()
        self.files: dict[str, Any] = {}  # name -> archive-specific member handle
        self.skipped_links: list[str] = []
        self.total = 0
        self.count = 0

    def add_count(self, name: str) -> None:
        self.count += 1
        if self.count > MAX_MEMBERS:
            raise UnsafeArchiveError(f"archive has more than {MAX_MEMBERS} members", name)

    def add_file(self, name: str, size: int, handle: Any) -> None:
        if not name:
            raise UnsafeArchiveError("archive member with an empty name", name)
        if name in self.files or name in self.dirs:
            raise UnsafeArchiveError(f"unsafe archive member {name!r}: duplicate name", name)
        self.total += size
        if self.total > MAX_TOTAL_BYTES:
            raise UnsafeArchiveError(f"archive expands to more than {MAX_TOTAL_BYTES} bytes", name)
        self.files[name] = handle

    def add_dir(self, name: str) -> None:
        if name in self.files:
            raise UnsafeArchiveError(f"unsafe archive member {name!r}: duplicate name", name)
        if name:
            self.dirs.add(name)

    def check_tree(self) -> None:
        """A file may not also be used as a directory ('a' and 'a/b')."""
        for name in self.files:
            parent = posixpath.dirname(name)
            while parent:
                if parent in self.files:
                    raise UnsafeArchiveError(f"unsafe archive member {name!r}: parent {parent!r} is a file", name)
                parent = posixpath.dirname(parent)


def _plan_tar(tar: Any) -> _Plan:
    plan = _Plan()
    for member in tar:
        plan.add_count(member.name)
        name = safe_member_name(member.name)
        if member.isdir():
            plan.add_dir(name)
        elif member.isreg() and not member.issparse():
            plan.add_file(name, member.size, member)
        elif member.issym() or member.islnk():
            base = posixpath.dirname(name) if member.issym() else ""
            if not _inside(base, member.linkname):
                kind = "symlink" if member.issym() else "hardlink"
                raise UnsafeArchiveError(f"unsafe archive member {member.name!r}: {kind} to "
                                         f"{member.linkname!r} points outside the archive", member.name)
            plan.skipped_links.append(name)
        else:
            raise UnsafeArchiveError(f"unsafe archive member {member.name!r}: not a regular file or "
                                     "directory (device, FIFO or other special file)", member.name)
    plan.check_tree()
    return plan


def _plan_zip(archive: Any) -> _Plan:
    plan = _Plan()
    for info in archive.infolist():
        plan.add_count(info.filename)
        name = safe_member_name(info.filename)
        mode = info.external_attr >> 16
        if info.is_dir():
            plan.add_dir(name)
        elif stat.S_ISLNK(mode):
            target = archive.read(info).decode("utf-8", "replace") if info.file_size < 4096 else "/"
            if not _inside(posixpath.dirname(name), target):
                raise UnsafeArchiveError(f"unsafe archive member {info.filename!r}: symlink to {target!r} "
                                         "points outside the archive", info.filename)
            plan.skipped_links.append(name)
        elif mode and not (stat.S_ISREG(mode) or stat.S_IFMT(mode) == 0):
            raise UnsafeArchiveError(f"unsafe archive member {info.filename!r}: not a regular file",
                                     info.filename)
        else:
            plan.add_file(name, info.file_size, info)
    plan.check_tree()
    return plan


def _write_member(staging: Path, name: str, source: Any) -> dict[str, Any]:
    target = staging.joinpath(*name.split("/"))
    # Defence in depth: the staging dir holds only what we created, but check anyway.
    if os.path.commonpath([os.path.abspath(target), os.path.abspath(staging)]) != os.path.abspath(staging):
        raise UnsafeArchiveError(f"unsafe archive member {name!r}: resolves outside the staging directory", name)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    h = hashlib.sha256()
    size = 0
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    with os.fdopen(fd, "wb") as out:
        while chunk := source.read(1 << 20):
            size += len(chunk)
            h.update(chunk)
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    return {"sha256": h.hexdigest(), "size": size}


def extract_archive(archive: Path, kind: str, staging: Path, declared: str) -> dict[str, Any]:
    """Extract ``archive`` (``tar`` or ``zip``) into the existing, empty ``staging`` dir.

    Returns the manifest (also written to ``staging/.bleucli-extract.json``).
    Raises :class:`UnsafeArchiveError` before writing anything if any member
    is unsafe; a corrupt archive raises it too (the file is not what the
    registry described, although its checksum matched: refuse it).
    """
    members: dict[str, Any] = {}
    first = True
    try:
        if kind == "tar":
            import tarfile

            with tarfile.open(archive, "r:*") as tar:
                plan = _plan_tar(tar)
                for name in sorted(plan.dirs):
                    staging.joinpath(*name.split("/")).mkdir(parents=True, exist_ok=True, mode=0o700)
                for name, member in plan.files.items():
                    source = tar.extractfile(member)
                    assert source is not None
                    with source:
                        members[name] = _write_member(staging, name, source)
                    if first:
                        first = False
                        crash_point("mid_extract")
        elif kind == "zip":
            import zipfile

            with zipfile.ZipFile(archive) as zf:
                plan = _plan_zip(zf)
                for name in sorted(plan.dirs):
                    staging.joinpath(*name.split("/")).mkdir(parents=True, exist_ok=True, mode=0o700)
                for name, info in plan.files.items():
                    with zf.open(info) as source:
                        members[name] = _write_member(staging, name, source)
                    if first:
                        first = False
                        crash_point("mid_extract")
        else:  # pragma: no cover - the registry validates the kind
            raise ValueError(f"not an archive kind: {kind}")
    except UnsafeArchiveError:
        raise
    except (OSError, EOFError, ValueError) as exc:
        import tarfile
        import zipfile

        if isinstance(exc, (tarfile.TarError, zipfile.BadZipFile, EOFError)) or not isinstance(exc, OSError):
            raise UnsafeArchiveError(f"cannot read archive {archive.name}: {exc}") from None
        raise
    except Exception as exc:  # tarfile.TarError, zipfile.BadZipFile and friends
        raise UnsafeArchiveError(f"cannot read archive {archive.name}: {exc}") from None
    manifest = {"declared": declared, "members": members, "skipped_links": plan.skipped_links}
    from .cache import dump_json, write_new_file

    crash_point("before_extract_publish")
    write_new_file(staging / EXTRACT_MANIFEST, dump_json(manifest))
    return manifest
