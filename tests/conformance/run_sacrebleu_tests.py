"""Run sacreBLEU 2.6.0's own ``test/`` folder against bleucli.

    python tests/conformance/run_sacrebleu_tests.py PATH_TO_SACREBLEU_SDIST_OR_CHECKOUT [--update]

``PATH`` is sacreBLEU 2.6.0's sdist (``pip download --no-deps --no-binary :all:
sacrebleu==2.6.0``) or a checkout of its repository at v2.6.0: anything holding
``test/``. The folder is copied to a temporary directory and run with pytest, with the
name ``sacrebleu`` importing as ``bleucli`` (``sacrebleu.metrics.bleu`` is
``bleucli.metrics.bleu``, and so on; see ``conformance_plugin.py``). The tests that need
the network are deselected (``NETWORK_TESTS``) and every other connection is blocked.
The per-test outcomes are compared with ``sacrebleu_expected.json``; ``--update`` first
runs the same folder against the real sacreBLEU of that path (its ``sacrebleu/`` package)
and rewrites the file with both. Exit status 0 when the outcomes equal the frozen ones.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from common import check, run_pytest, scratch_dir, unpacked

FROZEN = Path(__file__).resolve().parent / "sacrebleu_expected.json"

# they download test sets (or read what a download left); sacreBLEU itself fails them offline
NETWORK_TESTS = (
    "test/test_api.py",
    "test/test_dataset.py::test_maybe_download",
    "test/test_dataset.py::test_process_to_text",
    "test/test_dataset.py::test_get_files_and_fieldnames",
    "test/test_dataset.py::test_source_and_references",
    "test/test_dataset.py::test_wmt22_references",
)


def run(root: Path, scratch: Path, against: str) -> dict[str, str]:
    work = scratch / against
    work.mkdir()
    shutil.copytree(root / "test", work / "test")
    deselect = [arg for test in NETWORK_TESTS for arg in ("--deselect", test)]
    if against == "bleucli":
        return run_pytest(["test", *deselect], work, {"sacrebleu": "bleucli"}, [])
    # the real sacreBLEU of the sdist, shadowing any installed one
    return run_pytest(["test", *deselect], work, {}, [root])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1].strip())
    parser.add_argument("path", type=Path, help="sacreBLEU 2.6.0's sdist (.tar.gz) or checkout")
    parser.add_argument("--update", action="store_true",
                        help="also run against the real sacreBLEU and rewrite sacrebleu_expected.json")
    args = parser.parse_args(argv)
    with scratch_dir() as tmp:
        scratch = Path(tmp)
        root = unpacked(args.path.resolve(), scratch)
        if not (root / "test").is_dir():
            print(f"{args.path}: no test/ folder in it", file=sys.stderr)
            return 2
        upstream = run(root, scratch, "sacrebleu") if args.update else None
        bleucli = run(root, scratch, "bleucli")
    return check("sacreBLEU 2.6.0", FROZEN, "sacrebleu", bleucli, upstream, args.update,
                 {"deselected_network_tests": list(NETWORK_TESTS)})


if __name__ == "__main__":
    sys.exit(main())
