"""Issue 17.5 / 17.7 / 16.8-16.9: cache and download failures say what failed, where, with the README's exit code."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 60


def run(env, args, extra=None):
    environ = {**env.environ, "PYTHONPATH": str(REPO), **(extra or {})}
    return subprocess.run([sys.executable, "-m", "bleucli", *args], capture_output=True, env=environ, cwd=REPO,
                          timeout=TIMEOUT)


@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (root only): a disk that really fills."""
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount_point)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True)


def test_cache_path_too_long_is_a_cache_error(env, tmp_path):
    long_path = str(tmp_path / ("a" * 300))
    for args in (["cache", "list", "--cache-dir", long_path], ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"]):
        result = run(env, args, {"BLEUCLI_CACHE_DIR": long_path})
        assert result.returncode == 3, result.stderr
        assert b"cannot write output" not in result.stderr
        assert result.stderr.startswith(f"bleucli: error: cache {long_path}: cannot ".encode())
        assert b"File name too long" in result.stderr and result.stderr.count(b"\n") == 1


def test_remove_on_read_only_cache_names_path_and_operation(env, small_tmpfs):
    cache = small_tmpfs / "cache"
    filled = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], {"BLEUCLI_CACHE_DIR": str(cache)})
    assert filled.returncode == 0, filled.stderr
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    result = run(env, ["cache", "remove", "toy-tsv", "--cache-dir", str(cache)])
    assert result.returncode == 3, result.stderr
    assert result.stderr.startswith(f"bleucli: error: cache {cache}: cannot remove toy-tsv: Read-only".encode())
    assert result.stderr.count(b"\n") == 1


def test_disk_full_in_the_cache_is_not_an_output_error(env, small_tmpfs):
    cache = small_tmpfs / "cache"
    (small_tmpfs / "filler").write_bytes(b"\0" * (60 << 10))
    result = run(env, ["-t", "toy-xml", "-l", "en-de", "--echo", "src"], {"BLEUCLI_CACHE_DIR": str(cache)})
    assert result.returncode in (3, 4), result.stderr
    assert b"cannot write output" not in result.stderr and b"Traceback" not in result.stderr
    assert b"No space left on device" in result.stderr and result.stderr.count(b"\n") == 1
    assert result.stdout == b""
