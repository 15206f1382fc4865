"""Issue 17.5 / 17.7 / 16.8-16.9: cache and download failures say what failed, where, with the README's exit code."""

from __future__ import annotations

import shutil
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


# --- 16.8 / 17.7: no retry of what cannot succeed; retries and lock waits are said on stderr ---------------------


def _point_registry_at(env, base_url: str) -> None:
    env.registry.write_text(env.registry.read_text().replace(env.server.base_url, base_url))


def test_unresolvable_host_fails_at_once_without_retries(env):
    _point_registry_at(env, "http://no-such-host.invalid")
    result = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"],
                 {"BLEUCLI_DOWNLOAD_RETRIES": "5", "BLEUCLI_RETRY_BACKOFF": "30"})  # a retry would hit the timeout
    assert result.returncode == 4, result.stderr
    assert b"cannot resolve the host name" in result.stderr and b"not retried" in result.stderr
    assert b"retrying" not in result.stderr and result.stderr.count(b"\n") == 1


def test_connection_refused_is_not_retried(env):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    _point_registry_at(env, f"http://127.0.0.1:{port}")
    result = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"],
                 {"BLEUCLI_DOWNLOAD_RETRIES": "5", "BLEUCLI_RETRY_BACKOFF": "30"})
    assert result.returncode == 4 and b"connection refused; not retried" in result.stderr, result.stderr
    assert b"retrying" not in result.stderr


def test_retries_are_announced_on_a_non_tty_stderr(env):
    env.server.script("mtnt.tar.gz", ("status", 503), ("status", 503))
    result = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"])
    assert result.returncode == 0, result.stderr
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 2 and all(line.startswith("bleucli: warning: downloading ") for line in lines), lines
    assert "HTTP 503" in lines[0] and "retrying in" in lines[0] and "(attempt 2 of 4)" in lines[0]


def test_full_disk_during_download_is_not_retried(env, small_tmpfs):
    cache = small_tmpfs / "cache"
    (small_tmpfs / "filler").write_bytes(b"\0" * (62 << 10))
    result = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], {"BLEUCLI_CACHE_DIR": str(cache)})
    assert result.returncode == 3, result.stderr
    assert b"No space left on device" in result.stderr and b"retrying" not in result.stderr
    assert len(env.server.gets("mtnt.tar.gz")) <= 1


def test_waiting_for_the_cache_lock_is_said_once(env):
    from bleucli.testsets.cache import cache_lock

    cache = Path(env.environ["BLEUCLI_CACHE_DIR"])
    with cache_lock(cache, "process-toy-tsv-en-de") as held:  # another process prepares the same pair
        assert held
        result = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], {"BLEUCLI_LOCK_TIMEOUT": "1"})
    assert result.returncode == 0, result.stderr  # the lock only saves bandwidth: it goes on without it
    waits = [line for line in result.stderr.decode().splitlines() if "waiting for" in line]
    assert len(waits) == 1 and "another bleucli process" in waits[0], result.stderr


# --- 16.9: a failed download leaves nothing; `cache remove NAME` removes what `cache verify` names -------------


def test_failed_download_leaves_nothing_to_list_or_verify(env):
    _point_registry_at(env, "http://no-such-host.invalid")
    assert run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"]).returncode == 4
    listed = run(env, ["cache", "list"])
    assert listed.returncode == 0 and listed.stdout.decode().splitlines() == ["total 0 B"], listed.stdout
    verified = run(env, ["cache", "verify"])
    assert verified.returncode == 0 and b"0 damaged" in verified.stdout, verified.stdout


def test_cache_remove_takes_the_names_verify_gives(env):
    assert run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"]).returncode == 0
    verified = run(env, ["cache", "verify"]).stdout.decode().splitlines()
    downloads = [line.split()[2] for line in verified if line.split()[1:2] == ["download"]]
    assert downloads, verified
    for name in downloads:
        removed = run(env, ["cache", "remove", name])
        assert removed.returncode == 0 and removed.stdout.decode().startswith("removed "), removed
    after = run(env, ["cache", "verify"]).stdout.decode()
    assert not any(f" {name}" in after for name in downloads), after


def test_citation_of_a_set_without_one_is_a_warning_with_exit_0(env):
    result = run(env, ["-t", "toy-tsv", "--citation"])
    assert result.returncode == 0 and result.stdout == b""
    assert result.stderr == b"bleucli: warning: no citation found for toy-tsv\n"
    both = run(env, ["-t", "toy-tsv,toy-sgml", "--citation"])
    assert both.returncode == 0 and both.stdout == b"@misc{toy, title={Toy}}\n", both


# --- 16.11: an existing sacreBLEU cache is used read-only, each file checked against the registry ------------


def _sacrebleu_cache(tmp_path: Path, corpus, content: bytes | None = None) -> Path:
    root = tmp_path / "sacrebleu-cache"
    raw = root / "toy-tsv" / "raw"
    raw.mkdir(parents=True)
    (raw / "toy-tsv.mtnt.tar.gz").write_bytes(corpus.files["mtnt.tar.gz"] if content is None else content)
    return root


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def test_sacrebleu_cache_is_used_without_network(env, corpus, tmp_path):
    sacrebleu_root = _sacrebleu_cache(tmp_path, corpus)
    before = _tree(sacrebleu_root)
    _point_registry_at(env, "http://no-such-host.invalid")  # no network: only the sacreBLEU copy can serve
    for extra in ({"SACREBLEU": str(sacrebleu_root)}, {"HOME": str(tmp_path), "SACREBLEU": ""}):
        if not extra["SACREBLEU"]:
            sacrebleu_root.rename(tmp_path / ".sacrebleu")
            sacrebleu_root = tmp_path / ".sacrebleu"
            run(env, ["cache", "remove", "--all"])
        result = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], extra)
        assert result.returncode == 0, result.stderr
        assert result.stdout.decode().splitlines() == [s.rstrip() for s in corpus.src]
        assert _tree(sacrebleu_root) == before  # read only
    assert env.server.gets("mtnt.tar.gz") == []


def test_a_damaged_sacrebleu_copy_is_not_used(env, corpus, tmp_path):
    good = corpus.files["mtnt.tar.gz"]
    sacrebleu_root = _sacrebleu_cache(tmp_path, corpus, good[: len(good) // 2])  # sacreBLEU keeps truncated files
    offline = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src", "--offline"],
                  {"SACREBLEU": str(sacrebleu_root)})
    assert offline.returncode == 5 and b"not cached" in offline.stderr, offline.stderr
    online = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], {"SACREBLEU": str(sacrebleu_root)})
    assert online.returncode == 0 and len(env.server.gets("mtnt.tar.gz")) == 1, online.stderr


def test_offline_a_damaged_own_copy_is_replaced_from_the_sacrebleu_cache(env, corpus, tmp_path):
    """Issue 17: with --offline, a damaged archive in bleucli's cache is repaired from sacreBLEU's read-only cache."""
    sacrebleu_root = _sacrebleu_cache(tmp_path, corpus)
    before = _tree(sacrebleu_root)
    filled = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"])
    assert filled.returncode == 0, filled.stderr
    archives = [p for p in (env.cache / "downloads").rglob("mtnt.tar.gz") if p.is_file()]
    assert len(archives) == 1
    good = archives[0].read_bytes()
    archives[0].write_bytes(good[: len(good) // 2])  # a damaged copy of our own
    for derived in (env.cache / "testsets", archives[0].parent / "extracted"):
        shutil.rmtree(derived)  # so that the archive is needed again
    result = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src", "--offline"],
                 {"SACREBLEU": str(sacrebleu_root)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == [s.rstrip() for s in corpus.src]
    assert archives[0].read_bytes() == good
    assert _tree(sacrebleu_root) == before  # read only
    assert len(env.server.gets("mtnt.tar.gz")) == 1  # the first fill only
