"""tests/fast_subset.py names tests by id: an id that names no test stops the run with a usage error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import fast_subset
from fast_subset import stale_entries

TESTS = Path(__file__).resolve().parent

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from fast_subset import check_listed_tests_exist

LISTED = ["test_here.py::test_kept", "test_here.py::test_renamed", "gone/test_removed.py::test_old",
          "test_here.py::TestGroup::test_method", "test_here.py::TestGroup::test_gone"]


def pytest_collection_modifyitems(config, items):
    check_listed_tests_exist(config, items, LISTED)
"""

TESTS_HERE = """
import pytest

@pytest.mark.parametrize("n", [1, 2])
def test_kept(n):
    pass

class TestGroup:
    def test_method(self):
        pass
"""


def test_stale_entries_are_the_missing_functions_and_files(tmp_path: Path) -> None:
    modules = {"tests/fast_subset.py": fast_subset}
    listed = ["tests/fast_subset.py::slow_except", "tests/fast_subset.py::no_such_function",
              "tests/fast_subset.py::BLEU_SET", "tests/removed.py::test_x", "elsewhere/removed.py::test_x"]
    assert stale_entries(listed, modules, [tmp_path / "tests"], tmp_path) == [
        "tests/fast_subset.py::BLEU_SET", "tests/fast_subset.py::no_such_function", "tests/removed.py::test_x"]
    # a run that did not collect the file's directory does not judge it
    assert stale_entries(["tests/removed.py::test_x"], {}, [tmp_path / "other"], tmp_path) == []


def test_the_fast_subset_lists_only_existing_tests() -> None:
    listed = [*fast_subset.REPRESENTATIVES, *fast_subset.WAITING_OR_REPEATED, *fast_subset.COSTLY]
    assert all((TESTS.parent / entry.split("::")[0]).is_file() for entry in listed)


def test_a_stale_id_stops_the_run_naming_it(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_here.py").write_text(TESTS_HERE)
    (tmp_path / "gone").mkdir()

    def collect(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                               *args], cwd=tmp_path, capture_output=True, text=True,
                              env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})

    whole = collect()
    assert whole.returncode == 4, whole.stdout + whole.stderr
    assert ("lists tests that do not exist (renamed or removed?): gone/test_removed.py::test_old, "
            "test_here.py::TestGroup::test_gone, test_here.py::test_renamed") in whole.stderr
    # one test: the ids of its file are judged, those of files outside the run are not
    one = collect("test_here.py::test_kept[1]")
    assert one.returncode == 4, one.stdout + one.stderr
    assert ("(renamed or removed?): test_here.py::TestGroup::test_gone, test_here.py::test_renamed\n"
            in one.stderr)
