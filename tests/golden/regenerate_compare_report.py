"""Regenerate tests/golden/compare_report.html: the report of examples/ (Online-B vs Lan-Bridge, 100 lines).

Run from the repository root after a deliberate change to the report:

    python tests/golden/regenerate_compare_report.py

The command runs in a temporary directory holding copies of the inputs, so the
command line recorded in the page names them relatively (as the test does).
Look at the diff before committing: every byte of the page is checked.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bleucli.cli import run  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name in ("ref.de", "Online-B.de", "Lan-Bridge.de"):
            shutil.copy(ROOT / "examples" / name, Path(folder) / name)
        here = Path.cwd()
        try:
            import os

            os.chdir(folder)
            code = run(["compare", "ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "--html", "report.html", "-q"])
            if code != 0:
                raise SystemExit(code)
            shutil.copy(Path(folder) / "report.html", ROOT / "tests" / "golden" / "compare_report.html")
        finally:
            os.chdir(here)


if __name__ == "__main__":
    main()
