"""What the README and ``--help`` promise about installing and exit codes is what bleucli does.

- every extra an error message names exists in pyproject.toml, in both install forms
  (an index's ``bleucli[X]`` and a checkout's ``.[X]``), and the README shows both and the
  wheel's;
- docs/exit-codes.md (the README's link for exit codes) lists exactly the codes of
  :class:`bleucli.errors.ExitCode`, in its order;
- ``-V``'s help describes what ``-V`` prints.
"""

from __future__ import annotations

import re

from conftest import REPO, invoke


def test_install_hint_names_both_forms_of_an_existing_extra() -> None:
    from bleucli.errors import install_hint

    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    extras = pyproject.split("[project.optional-dependencies]")[1].split("\n[")[0]
    for extra in ("ja", "ko", "spm", "dask"):
        assert re.search(rf"^{extra} = \[", extras, flags=re.MULTILINE), extra
        assert install_hint(extra) == (f"pip install 'bleucli[{extra}]' "
                                       f"(from a checkout of bleucli: pip install '.[{extra}]')")


def test_every_missing_extra_message_uses_the_hint() -> None:
    """No message in the package spells an install command of an extra by hand."""
    for path in sorted((REPO / "bleucli").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            if "Error(" in line or "raise" in line:
                assert "pip install 'bleucli[" not in line, f"{path.name}: {line.strip()}"


def test_readme_installs_extras_from_a_checkout_and_from_a_wheel() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install '.[ja]'" in readme
    assert 'pip install "$(ls dist/bleucli-*.whl)[ja]"' in readme
    assert "pip wheel . --no-deps -w dist" in readme


def test_exit_code_table_is_the_one_of_errors() -> None:
    from bleucli.errors import ExitCode

    table = (REPO / "docs" / "exit-codes.md").read_text(encoding="utf-8")
    codes = [int(m) for m in re.findall(r"^\| (\d+) \|", table, flags=re.MULTILINE)]
    assert codes == [int(code) for code in ExitCode]
    assert "[docs/exit-codes.md](docs/exit-codes.md)" in (REPO / "README.md").read_text(encoding="utf-8")


def test_version_help_says_what_version_prints() -> None:
    from bleucli import __version__

    help_text = " ".join(invoke(["--help"]).stdout.split())
    assert "-V, --version Print 'bleucli VERSION' and exit. A note follows it when the C extension is not in " \
           "use (not built, or BLEUCLI_PURE_PYTHON set) and the pure-Python n-gram matchers run." in help_text
    printed = invoke(["-V"]).stdout
    assert printed.startswith(f"bleucli {__version__}")
    from bleucli.metrics.compiled import implementation

    assert ("pure-Python n-gram matchers" in printed) == (implementation() == "python")
