"""Scoring on a Dask cluster gives what one process gives, byte for byte.

A LocalCluster of two worker processes (`--dask local:2`), and a real `dask scheduler`
with two `dask worker` processes on 127.0.0.1 started here: the same executor seam
(`bleucli.engine.executor.Workers` over a `concurrent.futures.Executor`) as `-j N`. Plain files
go as line ranges the workers read themselves; stdin goes in chunks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, invoke

pytestmark = [pytest.mark.dask, pytest.mark.slow]

REFS = [str(EXAMPLES / "ref.de"), str(EXAMPLES / "ref2.de"), str(EXAMPLES / "ref.de")]  # 3 refs: TER thirds
SYSTEMS = [str(EXAMPLES / "Online-B.de"), str(EXAMPLES / "Lan-Bridge.de")]
METRICS = ["-m", "bleu", "chrf", "ter", "-cw", "2"]


def _bigger(tmp_path: Path) -> tuple[list[str], list[str]]:
    """The examples repeated to 3,000 lines, so that the work is cut into several tasks."""
    def repeat(path: str, name: str) -> str:
        lines = Path(path).read_text(encoding="utf-8").splitlines() * 30
        target = tmp_path / name
        target.write_text("".join(f"{k} {line}\n" for k, line in enumerate(lines)), encoding="utf-8")
        return str(target)

    refs = [repeat(r, f"ref{k}") for k, r in enumerate(REFS)]
    systems = [repeat(s, Path(s).name) for s in SYSTEMS]
    return refs, systems


def test_a_local_cluster_gives_the_single_process_result(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    refs, systems = _bigger(tmp_path)
    single = invoke([*refs, "-i", *systems, *METRICS])
    assert single.exit_code == 0, single.stderr
    cluster = invoke([*refs, "-i", *systems, *METRICS, "--dask", "local:2"])
    assert cluster.exit_code == 0, cluster.stderr
    assert cluster.stdout == single.stdout
    jobs = invoke([*refs, "-i", *systems, *METRICS, "-j", "2"])
    assert jobs.stdout == single.stdout
    shard = tmp_path / "shard.json"
    assert invoke(["stats", *refs, "-i", *systems, *METRICS, "--dask", "local:2", "-o", str(shard)]).exit_code == 0
    merged = invoke(["merge", str(shard)])
    assert merged.exit_code == 0, merged.stderr
    assert merged.stdout == single.stdout


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[str]:
    """A `dask scheduler` and two `dask worker` processes on 127.0.0.1; yields the scheduler address."""
    pytest.importorskip("distributed")
    address_file = tmp_path / "scheduler.json"
    env = dict(os.environ, PYTHONPATH=str(REPO), DASK_DISTRIBUTED__WORKER__DAEMON="False")
    processes = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", "0", "--dashboard-address", ":0", "--scheduler-file", str(address_file)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)]
    try:
        deadline = time.monotonic() + 60
        while not address_file.exists() or not address_file.read_text():
            if time.monotonic() > deadline or processes[0].poll() is not None:
                pytest.fail("the dask scheduler did not start")
            time.sleep(0.2)
        address = json.loads(address_file.read_text())["address"]
        for _ in range(2):
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--nworkers", "1",
                 "--host", "127.0.0.1", "--no-dashboard"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
        from distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def test_a_real_scheduler_and_two_workers_give_the_single_process_result(tmp_path: Path, scheduler: str) -> None:
    refs, systems = _bigger(tmp_path)
    single = subprocess.run([sys.executable, "-m", "bleucli", *refs, "-i", *systems, *METRICS],
                            capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)))
    on_cluster = subprocess.run([sys.executable, "-m", "bleucli", *refs, "-i", *systems, *METRICS, "--dask", scheduler],
                                capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert single.returncode == 0 and on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stdout == single.stdout
    stdin = subprocess.run([sys.executable, "-m", "bleucli", *refs, "-m", "bleu", "-tok", "intl", "--dask", scheduler],
                           input=Path(systems[0]).read_bytes(), capture_output=True,
                           env=dict(os.environ, PYTHONPATH=str(REPO)))
    alone = invoke([*refs, "-i", systems[0], "-m", "bleu", "-tok", "intl"])
    assert stdin.returncode == 0, stdin.stderr
    assert json.loads(stdin.stdout)["unrounded_score"] == json.loads(alone.stdout)["unrounded_score"]


def test_without_dask_the_flag_is_one_clear_usage_error() -> None:
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from bleucli.cli import run\n"
            f"sys.exit(run([{REFS[0]!r}, '-i', {SYSTEMS[0]!r}, '--dask', 'local:2']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert done.returncode == 2 and "pip install 'bleucli[dask]'" in done.stderr
    assert "from a checkout of bleucli: pip install '.[dask]'" in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_malformed_address_is_a_usage_error() -> None:
    pytest.importorskip("distributed")
    result = invoke([REFS[0], "-i", SYSTEMS[0], "--dask", "local:zero"])
    assert result.exit_code == 2 and "local:N" in result.stderr
