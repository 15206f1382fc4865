"""What both conformance scripts share: run pytest on a temporary copy, compare outcomes.

The upstream tests are read from the sdist or checkout the developer names; they are
copied to a temporary directory for the run and never into this repository.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def unpacked(path: Path, scratch: Path) -> Path:
    """The root of the sdist or checkout at ``path`` (a ``.tar.gz`` is unpacked into ``scratch``)."""
    if path.is_dir():
        return path
    if path.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(path) as archive:
            archive.extractall(scratch / "sdist", filter="data")
        roots = [p for p in (scratch / "sdist").iterdir() if p.is_dir()]
        if len(roots) != 1:
            raise SystemExit(f"{path}: expected one top-level directory, found {len(roots)}")
        return roots[0]
    raise SystemExit(f"{path}: neither a directory nor a .tar.gz sdist")


def run_pytest(args: list[str], cwd: Path, aliases: dict[str, str], pythonpath: list[Path],
               offline: bool = True) -> dict[str, str]:
    """Run pytest in a child process with the conformance plugin; per-test outcomes by id."""
    out = cwd / ".conformance-outcomes.json"
    env = dict(os.environ)
    env.update({
        "BLEUCLI_CONFORMANCE_ALIASES": json.dumps(aliases),
        "BLEUCLI_CONFORMANCE_OUT": str(out),
        "PYTHONPATH": os.pathsep.join([str(HERE), *map(str, pythonpath)]),
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    if offline:
        env["BLEUCLI_CONFORMANCE_OFFLINE"] = "1"
    (cwd / "pytest.ini").write_text("[pytest]\naddopts =\n", encoding="utf-8")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conformance_plugin",
               "--rootdir", str(cwd), "-c", str(cwd / "pytest.ini"), *args]
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL if not os.environ.get(
        "BLEUCLI_CONFORMANCE_VERBOSE") else None, check=False)
    if not out.exists():
        raise SystemExit(f"pytest wrote no outcomes: {' '.join(command)}")
    outcomes: dict[str, str] = json.loads(out.read_text(encoding="utf-8"))
    return outcomes


def tally(outcomes: dict[str, str]) -> str:
    counts = Counter(outcomes.values())
    return f"{counts['passed']}/{len(outcomes)} passed ({counts['failed']} failed, {counts['skipped']} skipped)"


def check(name: str, frozen_file: Path, upstream_key: str, bleucli: dict[str, str],
          upstream: dict[str, str] | None, update: bool, extra: dict[str, object]) -> int:
    """Write (``update``) or compare the frozen outcomes; print the figures; the exit status."""
    if update:
        assert upstream is not None
        record = {**extra, "bleucli": bleucli, upstream_key: upstream}
        frozen_file.write_text(json.dumps(record, indent=1, sort_keys=False) + "\n", encoding="utf-8")
        print(f"wrote {frozen_file.relative_to(REPO)}")
    frozen = json.loads(frozen_file.read_text(encoding="utf-8"))
    when = "" if upstream is not None else f" (frozen in {frozen_file.name}; --update reruns it)"
    upstream = upstream if upstream is not None else frozen[upstream_key]
    print(f"{name} tests against {upstream_key}: {tally(upstream)}{when}")
    print(f"{name} tests against bleucli: {tally(bleucli)}")
    passing_upstream = [t for t, o in upstream.items() if o == "passed"]
    regressions = [t for t in passing_upstream if bleucli.get(t) != "passed"]
    print(f"of the {len(passing_upstream)} passing on {upstream_key}, bleucli passes "
          f"{len(passing_upstream) - len(regressions)}")
    for test in regressions:
        print(f"  passes on {upstream_key}, not on bleucli: {test} ({bleucli.get(test, 'not run')})")
    status = 0
    differences = sorted(set(bleucli) | set(frozen["bleucli"]))
    differences = [t for t in differences if bleucli.get(t) != frozen["bleucli"].get(t)]
    for test in differences:
        print(f"  differs from {frozen_file.name}: {test}: frozen "
              f"{frozen['bleucli'].get(test, 'absent')}, now {bleucli.get(test, 'absent')}")
        status = 1
    print("outcomes equal the frozen list" if not status else "outcomes differ from the frozen list")
    return status


def scratch_dir() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="bleucli-conformance-")
