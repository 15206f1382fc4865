"""The docstring examples of NLTK's ``bleu_score.py`` and ``gleu_score.py`` as pytest tests.

Copied next to the upstream tests by ``run_nltk_tests.py`` (it is not one of bleucli's
tests). ``BLEUCLI_NLTK_ROOT`` names the NLTK sdist or checkout; each docstring with
examples is one test, run with the globals of the module it documents as imported in this
process: NLTK's own, or ``bleucli.family.nltk`` under the conformance alias.
"""
from __future__ import annotations

import ast
import doctest
import importlib
import os
from pathlib import Path

import pytest

MODULES = ("nltk.translate.bleu_score", "nltk.translate.gleu_score")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL  # nltk/test/pytest.ini


def _docstrings(module: str) -> list[tuple[str, str, int]]:
    path = Path(os.environ["BLEUCLI_NLTK_ROOT"], *module.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        doc = ast.get_docstring(node, clean=True) if isinstance(
            node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if doc and ">>>" in doc:
            found.append((prefix, doc, getattr(node, "lineno", 1)))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, f"{prefix}.{child.name}")

    visit(tree, module)
    return found


CASES = [case for module in MODULES for case in _docstrings(module)]


@pytest.mark.parametrize("name, doc, lineno", CASES, ids=[case[0] for case in CASES])
def test_docstring(name: str, doc: str, lineno: int) -> None:
    module = next(m for m in MODULES if name == m or name.startswith(m + "."))
    globs = dict(vars(importlib.import_module(module)))
    test = doctest.DocTestParser().get_doctest(doc, globs, name, module, lineno)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    result = runner.run(test, out=report.append)
    assert result.failed == 0, "".join(report)
