"""Cache robustness: damaged entries are rebuilt (or reported offline), a run killed at any
step leaves a cache the next run repairs, and concurrent cold-cache runs agree
(reliability.md rows 3, 4, 7, 15, 23)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bleucli import testsets as ts
from bleucli.errors import NotCachedError
from fast_subset import slow_except

from .conftest import leftovers

HELPER = Path(__file__).resolve().parent / "helpers" / "api_run.py"


def pair_dir(env, name="toy-sgml", pair="en-de") -> Path:
    return env.cache / "testsets" / name.replace("/", "+") / pair


def manifest(env, name="toy-sgml") -> dict:
    return json.loads((pair_dir(env, name) / "manifest.json").read_text())


def field_file(env, field: str, name="toy-sgml") -> Path:
    for entry in manifest(env, name)["fields"]:
        if entry["name"] == field:
            return pair_dir(env, name) / entry["file"]
    raise KeyError(field)


def expected_echo(corpus) -> list[str]:
    import re

    clean = lambda s: re.sub(r"\s+", " ", s.strip())  # noqa: E731
    return [f"{clean(s)}\t{clean(r)}" for s, r in zip(corpus.src, corpus.ref)]


# ---------------------------------------------------------------- row 7: corrupted later

def _same_length_edit(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[0] = lines[0][::-1]
    path.write_text("\n".join(lines), encoding="utf-8")


CORRUPTIONS = {
    "same_line_count_edit": _same_length_edit,
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:100]),
    "zero_bytes": lambda p: p.write_bytes(b""),
    "bit_flip": lambda p: p.write_bytes(bytes([p.read_bytes()[0] ^ 1]) + p.read_bytes()[1:]),
    "deleted": lambda p: p.unlink(),
    "replaced_by_dir": lambda p: (p.unlink(), p.mkdir()),
    "manifest_deleted": lambda p: (p.parent / "manifest.json").unlink(),
    "manifest_garbage": lambda p: (p.parent / "manifest.json").write_text("{not json"),
}


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_damaged_processed_field_is_rebuilt(env, corpus, how):
    want = ts.get_references("toy-sgml", "en-de")
    CORRUPTIONS[how](field_file(env, "ref"))
    # offline, the archive is intact: rebuilding needs no network and succeeds
    assert ts.get_references("toy-sgml", "en-de", offline=True) == want
    assert len(env.server.gets("sgml.tgz")) == 1


def test_damaged_field_and_archive_offline_is_reported(env):
    ts.download("toy-sgml")
    field_file(env, "ref").write_text("tampered\n")
    archive = env.cache / "downloads" / "sgml.tgz" / "sgml.tgz"
    archive.write_bytes(archive.read_bytes()[:-10])
    extracted = env.cache / "downloads" / "sgml.tgz" / "extracted" / "sgm" / "newstest2022-ende-ref.de.sgm"
    extracted.write_text("tampered")
    with pytest.raises(NotCachedError, match="damaged"):
        ts.get_references("toy-sgml", "en-de", offline=True)
    # online, the next run repairs everything from the server
    assert ts.get_references("toy-sgml", "en-de")[0][0]
    assert len(env.server.gets("sgml.tgz")) == 2


def test_planted_symlink_is_never_written_through(env, tmp_path):
    ts.download("toy-sgml")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = field_file(env, "ref")
    target.unlink()
    target.symlink_to(victim)
    ts.get_references("toy-sgml", "en-de")
    assert victim.read_text() == "precious"


def test_registry_change_invalidates_processed_data(env, corpus):
    ts.download("toy-sgml/tworefs")
    # Same set name, different references: the manifest's spec digest no longer matches.
    text = env.registry.read_text().replace(
        "refs: [sgm/newstest2022-ende-ref.de.sgm, sgm/newstest2022-ende-ref2.de.sgm]",
        "refs: [sgm/newstest2022-ende-ref2.de.sgm, sgm/newstest2022-ende-ref.de.sgm]")
    env.registry.write_text(text)
    refs = ts.get_references("toy-sgml/tworefs", "en-de")
    assert refs[0][0] == ts.get_references("toy-sgml/tworefs", "en-de")[0][0]
    import re

    assert refs[0] == [re.sub(r"\s+", " ", r.strip()) for r in corpus.ref2]


def test_read_only_populated_cache_still_works(env, corpus):
    if os.geteuid() == 0:
        pytest.skip("root ignores file modes")
    want = ts.get_source("toy-sgml", "en-de")
    for p in [env.cache, *env.cache.rglob("*")]:
        if p.is_dir():
            p.chmod(0o555)
    try:
        assert ts.get_source("toy-sgml", "en-de") == want
    finally:
        for p in [env.cache, *env.cache.rglob("*")]:
            if p.is_dir():
                p.chmod(0o755)


def test_cache_root_is_a_file(env, tmp_path):
    from bleucli.errors import CacheError

    bad = tmp_path / "file"
    bad.write_text("x")
    with pytest.raises(CacheError, match="not a directory"):
        ts.get_source("toy-sgml", "en-de", cache_dir=bad)


def test_stale_temp_files_are_ignored_and_collected(env, corpus):
    d = env.cache / "downloads" / "sgml.tgz"
    d.mkdir(parents=True)
    stale = d / ".part-sgml.tgz-otherhost-1-deadbeef"
    stale.write_bytes(b"garbage")
    old = time.time() - 3 * 24 * 3600
    os.utime(stale, (old, old))
    assert ts.echo("toy-sgml", "en-de", ["src", "ref"]) == expected_echo(corpus)
    assert not stale.exists()


# ---------------------------------------------------------------- row 3: killed part way

CRASH_POINTS = ["mid_download", "after_download", "after_store", "mid_extract", "before_extract_publish",
                "mid_process", "before_manifest", "before_publish"]


def run_helper(env, *, extra_env=None, go="-", name="toy-sgml"):
    environ = {**env.environ, **(extra_env or {})}
    return subprocess.Popen([sys.executable, str(HELPER), go, name, "en-de"], env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# a download killed part way, and a pair killed just before it is published, stay in the fast subset
@pytest.mark.parametrize("point", slow_except(CRASH_POINTS, {"mid_download", "before_publish"}))
def test_crash_at_each_step_then_recover(env, corpus, point):
    proc = run_helper(env, extra_env={"BLEUCLI_TEST_CRASH_AT": point})
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 137, err
    assert out == ""
    proc = run_helper(env)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    lines = out.split("\n")
    assert lines[:40] == expected_echo(corpus)
    assert leftovers(env.cache) == []  # the dead run's temp files were collected


def test_kill_9_during_a_slow_download_then_recover(env, corpus):
    env.server.script("sgml.tgz", "slow")
    proc = run_helper(env)
    deadline = time.monotonic() + 20
    part = None
    while time.monotonic() < deadline and part is None:
        found = list((env.cache / "downloads").rglob(".part-*")) if (env.cache / "downloads").exists() else []
        part = found[0] if found and env.server.gets("sgml.tgz") else None
        time.sleep(0.02)
    assert part is not None, "the download never started"
    time.sleep(0.3)  # some bytes are in flight (the server drips one per 50 ms)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    proc = run_helper(env)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.split("\n")[:40] == expected_echo(corpus)


# ---------------------------------------------------------------- row 4: concurrency

@pytest.mark.parametrize("no_lock", [False, True])
@pytest.mark.slow  # eight processes race for a cold cache, with and without the lock
def test_eight_processes_on_a_cold_cache(env, corpus, tmp_path, no_lock):
    go = tmp_path / "go"
    extra = {"BLEUCLI_TEST_NO_LOCK": "1"} if no_lock else {}
    procs = [run_helper(env, extra_env=extra, go=str(go)) for _ in range(8)]
    time.sleep(0.3)
    go.touch()
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [e for _, e in outs]
    assert len({out for out, _ in outs}) == 1
    assert outs[0][0].split("\n")[:40] == expected_echo(corpus)
    gets = len(env.server.gets("sgml.tgz"))
    assert 1 <= gets <= 8
    if not no_lock:
        assert gets == 1
    assert leftovers(env.cache) == []
