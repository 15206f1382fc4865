"""Hostile archives (reliability.md row 8): nothing is written outside the staging directory,
nothing is published, and the error names the member. Built in the test, never committed."""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from bleucli.errors import UnsafeArchiveError
from bleucli.testsets.extract import extract_archive

from .conftest import snapshot


def tar_with(tmp_path: Path, *members: tuple[tarfile.TarInfo, bytes | None]) -> Path:
    path = tmp_path / "evil.tgz"
    with tarfile.open(path, "w:gz") as tar:
        ok = tarfile.TarInfo("ok/first.txt")
        ok.size = 3
        tar.addfile(ok, io.BytesIO(b"ok\n"))  # a harmless member *before* the bad one
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def info(name: str, kind: bytes = tarfile.REGTYPE, linkname: str = "", mode: int = 0o644) -> tarfile.TarInfo:
    i = tarfile.TarInfo(name)
    i.type = kind
    i.linkname = linkname
    i.mode = mode
    return i


CASES = {
    "dotdot": [(info("../../escape.txt"), b"x")],
    "absolute": [(info("/tmp/bleucli-abs-escape.txt"), b"x")],
    "symlink_out": [(info("lnk", tarfile.SYMTYPE, "/etc"), None), (info("lnk/passwd"), b"x")],
    "symlink_dotdot": [(info("a/lnk", tarfile.SYMTYPE, "../../.."), None)],
    "hardlink_out": [(info("hl", tarfile.LNKTYPE, "/etc/passwd"), None)],
    "hardlink_dotdot": [(info("hl", tarfile.LNKTYPE, "../outside"), None)],
    "char_device": [(info("dev/null", tarfile.CHRTYPE), None)],
    "block_device": [(info("dev/sda", tarfile.BLKTYPE), None)],
    "fifo": [(info("pipe", tarfile.FIFOTYPE), None)],
    "duplicate": [(info("ok/first.txt"), b"overwrite")],
    "backslash": [(info("..\\..\\x"), b"x")],
    "file_then_dir": [(info("ok/first.txt/inner"), b"x")],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_unsafe_tar_member_writes_nothing(tmp_path, case):
    archive = tar_with(tmp_path, *CASES[case])
    area = tmp_path / "area"
    staging = area / "staging"
    staging.mkdir(parents=True)
    before = snapshot(tmp_path)
    with pytest.raises(UnsafeArchiveError) as err:
        extract_archive(archive, "tar", staging, "sha256:x")
    assert "unsafe archive member" in str(err.value)
    # Validation happens before any write: not even the harmless first member exists.
    assert snapshot(tmp_path) == before
    assert not Path("/tmp/bleucli-abs-escape.txt").exists()


def test_setuid_bits_are_not_kept(tmp_path):
    archive = tar_with(tmp_path, (info("bin/tool", mode=0o4777), b"#!/bin/sh\n"))
    staging = tmp_path / "staging"
    staging.mkdir()
    manifest = extract_archive(archive, "tar", staging, "sha256:x")
    mode = (staging / "bin" / "tool").stat().st_mode
    assert not mode & (stat.S_ISUID | stat.S_ISGID | stat.S_IWOTH)
    assert set(manifest["members"]) == {"ok/first.txt", "bin/tool"}


def test_inside_links_are_skipped_not_created(tmp_path):
    archive = tar_with(tmp_path, (info("ok/alias", tarfile.SYMTYPE, "first.txt"), None))
    staging = tmp_path / "staging"
    staging.mkdir()
    manifest = extract_archive(archive, "tar", staging, "sha256:x")
    assert manifest["skipped_links"] == ["ok/alias"]
    assert not (staging / "ok" / "alias").exists() and not (staging / "ok" / "alias").is_symlink()


@pytest.mark.parametrize("name", ["../../zip-escape.txt", "/abs/zip.txt", "a/../../b.txt", "c:/x.txt"])
def test_unsafe_zip_names(tmp_path, name):
    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("ok.txt", "ok")
        zf.writestr(name, "x")
    staging = tmp_path / "staging"
    staging.mkdir()
    before = snapshot(tmp_path)
    with pytest.raises(UnsafeArchiveError):
        extract_archive(path, "zip", staging, "sha256:x")
    assert snapshot(tmp_path) == before


def test_zip_symlink_out(tmp_path):
    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as zf:
        link = zipfile.ZipInfo("lnk")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    staging = tmp_path / "staging"
    staging.mkdir()
    with pytest.raises(UnsafeArchiveError, match="symlink"):
        extract_archive(path, "zip", staging, "sha256:x")
    assert list(staging.iterdir()) == []


def test_not_an_archive(tmp_path):
    path = tmp_path / "bad.tgz"
    path.write_bytes(b"<html>not a tarball</html>")
    staging = tmp_path / "staging"
    staging.mkdir()
    with pytest.raises(UnsafeArchiveError, match="cannot read archive"):
        extract_archive(path, "tar", staging, "sha256:x")


def test_hostile_archive_through_the_api(env, tmp_path):
    """A served archive whose checksum matches the registry but which is hostile: exit-6 class
    error, nothing published in the cache, nothing written outside it."""
    from bleucli import testsets as ts

    evil = tar_with(tmp_path, (info("../../../escape.txt"), b"x")).read_bytes()
    env.server.files["mtnt.tar.gz"] = evil
    env.write_registry()
    with pytest.raises(UnsafeArchiveError):
        ts.get_source("toy-tsv", "en-de")
    assert not (env.cache / "downloads" / "mtnt.tar.gz" / "extracted").exists()
    assert not list(tmp_path.rglob("escape.txt"))
    assert not (env.cache / "testsets").exists() or not list((env.cache / "testsets").rglob("manifest.json"))
