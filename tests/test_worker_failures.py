"""Worker processes die with their parent, and a dead worker is noticed at once (real processes and signals).

`-j N` runs its work in worker processes: a pool (stdin, significance tests) or forked
children (`-j 2` on plain files, ``Workers.split``). SIGTERM and Ctrl-C to bleucli stop them
all (exit 143 and 130, one line at most); a worker killed by a signal (the OOM killer's SIGKILL)
is exit 9 naming the signal, at once rather than when the parent next looks; a parent killed by
SIGKILL takes its workers with it (``PR_SET_PDEATHSIG``). Under ``--dask``: a scheduler that
cannot be reached is exit 4 within the connect timeout, a data error raised on a worker is the
same one line as without Dask, Ctrl-C is exit 130 and quiet.

The children of a process are found in /proc (each ``/proc/<pid>/stat``'s parent pid), so these
tests are Linux-only. The inputs are 200,000 lines scored with TER, a run of tens of seconds, so
that the workers are busy when they are signalled; the bounds on time ("within 10 s") are there
to fail rather than hang, not to measure speed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO
from processes import children

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")

LINES = 200_000


def _repeat(source: Path, target: Path) -> str:
    lines = source.read_text(encoding="utf-8").splitlines()
    target.write_text("".join(f"{lines[k % len(lines)]}\n" for k in range(LINES)), encoding="utf-8")
    return str(target)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A reference and a system of 200,000 lines each (the examples repeated)."""
    folder = tmp_path_factory.mktemp("big")
    return _repeat(EXAMPLES / "ref.de", folder / "ref.de"), _repeat(EXAMPLES / "Online-B.de", folder / "sys.de")


def _alive(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(pid)
        except OSError:
            pass
    return alive


def _gone_within(pids: list[int], seconds: float) -> list[int]:
    """The processes of ``pids`` still alive after ``seconds`` (polled, so it returns as soon as none is)."""
    deadline = time.monotonic() + seconds
    while _alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _alive(pids)


def _cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) the processes of ``pids`` have used so far."""
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return ticks / os.sysconf("SC_CLK_TCK")


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for name in ("BLEUCLI_FORMAT", "BLEUCLI_DEBUG"):
        env.pop(name, None)
    return env


def _start(args: list[str], stdin: str | None = None, **kwargs: object) -> subprocess.Popen[bytes]:
    source = open(stdin, "rb") if stdin is not None else subprocess.DEVNULL  # noqa: SIM115 - closed by the child
    try:
        return subprocess.Popen([sys.executable, "-m", "bleucli", *args], stdin=source, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=_env(), cwd=REPO, **kwargs)  # type: ignore[call-overload]
    finally:
        if stdin is not None:
            source.close()  # type: ignore[union-attr]


@pytest.fixture
def running(big: tuple[str, str], request: pytest.FixtureRequest,
            monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[subprocess.Popen[bytes], list[int]]]:
    """bleucli scoring TER over 200,000 lines in ``request.param`` mode, once all its workers are up.

    ``pool``: stdin with ``-j 4`` (a process pool of 4); ``significance``: ``-pbs -j 4`` (a pool);
    ``split``: plain files with ``-j 2``
    (one forked child, the parent runs the other part). TER's pure-Python search, so that the run
    lasts tens of seconds (the compiled one can finish before the signal on a quiet machine).
    """
    monkeypatch.setenv("BLEUCLI_PURE_PYTHON", "1")
    ref, system = big
    if request.param == "pool":
        process, expected = _start([ref, "-j", "4", "-m", "ter", "-b"], stdin=system), 4
    elif request.param == "significance":  # paired bootstrap of two systems: a pool of 4
        process, expected = _start([ref, "-i", system, ref, "-m", "ter", "-pbs", "-j", "4", "-b"]), 4
    else:
        process, expected = _start([ref, "-i", system, "-j", "2", "-m", "ter", "-b"]), 1
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 20
        while len(children(process.pid)) < expected:
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail(f"bleucli did not start {expected} workers: {process.communicate()[1]!r}")
            time.sleep(0.05)
        time.sleep(0.5)  # the workers are at work
        workers = children(process.pid)
        yield process, workers
    finally:
        _kill(process, workers)


def _kill(process: subprocess.Popen[bytes], workers: list[int]) -> None:
    """Whatever a failed test left running: workers left behind would hold the pipes (and a CPU) for minutes."""
    for pid in _alive(workers):
        os.kill(pid, signal.SIGKILL)
    if process.poll() is None:
        process.kill()
    try:
        process.communicate(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - a grandchild holds the pipes
        pass


def _finish(process: subprocess.Popen[bytes], seconds: float = 10) -> tuple[int, str]:
    """The exit code and stderr of ``process``, once its stderr is closed (by it and by any worker left behind)."""
    _, err = process.communicate(timeout=seconds)
    return process.returncode, err.decode()


def _lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip()]


SIGNALS = [pytest.param("pool", signal.SIGTERM, marks=pytest.mark.slow, id="pool-SIGTERM"),
           pytest.param("pool", signal.SIGINT, marks=pytest.mark.slow, id="pool-SIGINT"),
           pytest.param("split", signal.SIGTERM, id="split-SIGTERM"),
           pytest.param("split", signal.SIGINT, marks=pytest.mark.slow, id="split-SIGINT"),
           pytest.param("significance", signal.SIGTERM, marks=pytest.mark.slow, id="significance-SIGTERM")]


@pytest.mark.parametrize(("running", "number"), SIGNALS, indirect=["running"])
def test_sigterm_and_ctrl_c_end_every_worker(running: tuple[subprocess.Popen[bytes], list[int]],
                                             number: signal.Signals) -> None:
    process, workers = running
    started = time.monotonic()
    os.kill(process.pid, number)
    code, stderr = _finish(process)
    assert code == (143 if number == signal.SIGTERM else 130), stderr
    assert time.monotonic() - started < 10
    assert len(_lines(stderr)) <= 1 and "Traceback" not in stderr, stderr
    assert _gone_within(workers, 2) == []


@pytest.mark.parametrize("running", [pytest.param("pool", marks=pytest.mark.slow), "split",
                                     pytest.param("significance", marks=pytest.mark.slow)], indirect=True)
def test_a_killed_worker_is_noticed_at_once_and_named(
        running: tuple[subprocess.Popen[bytes], list[int]]) -> None:
    process, workers = running
    started = time.monotonic()
    os.kill(workers[0], signal.SIGKILL)  # as the OOM killer does
    code, stderr = _finish(process)
    elapsed = time.monotonic() - started
    assert code == 9, stderr
    assert _lines(stderr) == ["bleucli: error: a worker process was killed by signal 9 (SIGKILL; out of memory?)"]
    assert elapsed < 10  # the whole run takes tens of seconds; before, the death was seen only at its end
    assert _gone_within(workers, 2) == []


@pytest.mark.slow
@pytest.mark.parametrize("running", ["pool", "split"], indirect=True)
def test_workers_die_with_a_parent_killed_by_sigkill(running: tuple[subprocess.Popen[bytes], list[int]]) -> None:
    process, workers = running
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    assert _gone_within(workers, 2) == []


# --- Dask ---------------------------------------------------------------------------------------

def _long_reference(tmp_path: Path) -> str:
    """The example reference with line 51 over TER's 2,000-word limit (an error raised on a worker)."""
    lines = (EXAMPLES / "ref.de").read_text(encoding="utf-8").splitlines()
    lines[50] = " ".join(["wort"] * 3000)
    target = tmp_path / "long.de"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(target)


@pytest.mark.dask
@pytest.mark.slow
def test_a_data_error_on_a_dask_worker_is_the_same_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    args = [_long_reference(tmp_path), "-i", str(EXAMPLES / "Online-B.de"), "-m", "ter", "-b"]
    alone = _finish(_start(args), 60)
    on_cluster = _finish(_start([*args, "--dask", "local:2"]), 60)
    assert alone[0] == on_cluster[0] == 3
    assert _lines(alone[1]) == _lines(on_cluster[1]) == [alone[1].strip()]
    assert "long.de:51: TER: reference of 3,000 words" in alone[1]


@pytest.mark.dask
@pytest.mark.slow
def test_an_unreachable_scheduler_is_exit_4_within_the_connect_timeout() -> None:
    pytest.importorskip("distributed")
    started = time.monotonic()
    code, stderr = _finish(_start([str(EXAMPLES / "ref.de"), "-i", str(EXAMPLES / "Online-B.de"),
                                   "--dask", "tcp://127.0.0.1:1"]), 60)
    assert code == 4, stderr
    assert time.monotonic() - started < 15  # CONNECT_TIMEOUT is 5 s; it was 30 s, then exit 2
    assert len(_lines(stderr)) == 1
    assert stderr.startswith("bleucli: error: cannot reach the Dask scheduler at tcp://127.0.0.1:1 (tried for 5 s)")


@pytest.mark.dask
@pytest.mark.slow
def test_ctrl_c_under_dask_is_130_and_quiet(big: tuple[str, str]) -> None:
    pytest.importorskip("distributed")
    ref, system = big
    # its own session, so that Ctrl-C can go to the whole process group as a terminal sends it
    process = _start([ref, "-i", system, "-m", "ter", "-b", "--dask", "local:2"], start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        # the tasks are running: the cluster's processes have spent 6 s of CPU (starting takes about 2 s;
        # a Ctrl-C while it starts: the test above)
        while _cpu_seconds(children(process.pid)) < 6:
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)
        code, stderr = _finish(process, 60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert code == 130, stderr
    assert _lines(stderr) == ["bleucli: error: interrupted"], stderr


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.dask
@pytest.mark.slow
@pytest.mark.parametrize("after", [0.0, 0.4, 0.8, 1.2])
def test_ctrl_c_while_the_dask_cluster_starts_is_130_and_quiet(big: tuple[str, str], after: float) -> None:
    """SIGINT is ignored while ``local:2`` starts (its workers inherit that); a sentinel process of the same
    process group dies of a Ctrl-C then, and the command closes the cluster and exits 130 once it is up."""
    pytest.importorskip("distributed")
    ref, system = big
    process = _start([ref, "-i", system, "-m", "ter", "-b", "--dask", "local:2"], start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not any(b"SIG_DFL" in _cmdline(pid) for pid in children(process.pid)):  # the start began
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(after)
        os.killpg(process.pid, signal.SIGINT)
        code, stderr = _finish(process, 60)
        gone = time.monotonic() + 5
        while _group_alive(process.pid) and time.monotonic() < gone:
            time.sleep(0.1)
        assert not _group_alive(process.pid), "a process of the run outlived it"
    finally:
        if process.poll() is None or _group_alive(process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert code == 130, stderr
    assert _lines(stderr) == ["bleucli: error: interrupted"], stderr


@pytest.mark.dask
@pytest.mark.slow
def test_a_lost_scheduler_is_exit_4_in_one_line(big: tuple[str, str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    import json

    # TER's pure-Python search (in the command and the workers), so that the run is still going when the
    # scheduler is killed: the compiled search scores these 200,000 lines in about as long as the wait below
    monkeypatch.setenv("BLEUCLI_PURE_PYTHON", "1")
    ref, system = big
    address_file = tmp_path / "scheduler.json"
    env = dict(_env(), DASK_DISTRIBUTED__WORKER__DAEMON="False")
    processes = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", "0", "--dashboard-address", ":0", "--scheduler-file", str(address_file)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)]
    try:
        deadline = time.monotonic() + 60
        while not address_file.exists() or not address_file.read_text():
            assert processes[0].poll() is None and time.monotonic() < deadline, "the dask scheduler did not start"
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
        process = _start([ref, "-i", system, "-m", "ter", "-b", "--dask", address])
        time.sleep(4)  # connected, the tasks sent
        assert process.poll() is None
        processes[0].kill()
        code, stderr = _finish(process, 60)
    finally:
        for started in processes:
            started.kill()
            started.wait(timeout=20)
    assert code == 4, stderr
    assert _lines(stderr) == [f"bleucli: error: lost the Dask scheduler at {address} during the run "
                              "(its tasks were cancelled)"], stderr
