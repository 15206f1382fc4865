"""Real processes and pipes: `cat sys | bleucli ref`, `| head`, start-up imports."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLES, REPO, run_subprocess


def test_pipe_from_cat(example_ref: str, example_sys: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    cat = subprocess.Popen(["cat", example_sys], stdout=subprocess.PIPE)
    out = subprocess.run([sys.executable, "-m", "bleucli", example_ref, "-b"], stdin=cat.stdout,
                         capture_output=True, env=env, check=True)
    cat.wait()
    assert out.stdout == b"38.6\n" and out.stderr == b""


def test_python_dash_m_and_json(example_ref: str, example_sys: str) -> None:
    result = run_subprocess([example_ref, "-i", example_sys])
    assert result.returncode == 0
    assert json.loads(result.stdout)["verbose_score"].startswith("66.8/44.4/31.6/23.6")


def test_broken_pipe_exits_quietly(tmp_path: Path) -> None:
    big = (EXAMPLES / "Online-B.de").read_bytes() * 400  # 40,000 lines
    refs = tmp_path / "ref.de"
    refs.write_bytes((EXAMPLES / "ref.de").read_bytes() * 400)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    pipeline = subprocess.run(
        f"{sys.executable} -m bleucli {shlex.quote(str(refs))} -sl -b -q | head -n 1",
        shell=True, input=big, capture_output=True, env=env, executable="/bin/bash",
    )
    assert pipeline.stdout == b"58.1\n"
    assert pipeline.stderr == b"", pipeline.stderr


def test_closed_stdin_and_stdout_are_clean_errors(example_ref: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    closed_in = subprocess.run(f"{sys.executable} -m bleucli {example_ref} <&-", shell=True,
                               capture_output=True, env=env, executable="/bin/bash")
    assert closed_in.returncode == 3 and b"standard input is closed" in closed_in.stderr
    closed_out = subprocess.run(f"{sys.executable} -m bleucli {example_ref} -i {example_ref} >&-", shell=True,
                                capture_output=True, env=env, executable="/bin/bash")
    assert closed_out.returncode == 74 and b"Traceback" not in closed_out.stderr


def test_disk_full_is_reported(example_ref: str) -> None:
    if not os.path.exists("/dev/full"):
        return
    with open("/dev/full", "wb") as full:
        result = subprocess.run([sys.executable, "-m", "bleucli", example_ref, "-i", example_ref], stdout=full,
                                stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert result.returncode == 74 and b"cannot write output" in result.stderr


def _modules_after(args: list[str]) -> set[str]:
    code = (
        "import sys\nfrom bleucli.cli import cli\n"
        f"code = cli.main({args!r}, prog_name='bleucli', standalone_mode=False)\n"
        "sys.stdout.flush()\n"
        "print('MODULES', ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))
    line = [x for x in result.stderr.splitlines() if x.startswith("MODULES")][0]
    return set(line.split()[1:])


def test_startup_does_not_import_heavy_modules(example_ref: str, example_sys: str) -> None:
    for args in (["--help"], ["--version"], [example_ref, "-i", example_sys, "-b"]):
        loaded = _modules_after(args)
        for heavy in ("requests", "yaml", "numpy", "sacrebleu"):
            assert heavy not in loaded, (args, heavy)
