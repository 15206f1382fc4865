"""Upstream test suites run against bleucli (``tests/conformance/``; see tests/README.md).

The upstream tests are never fetched here: the two runs happen only when
``BLEUCLI_SACREBLEU_SDIST`` / ``BLEUCLI_NLTK_SDIST`` name sacreBLEU 2.6.0's and NLTK 3.10's
sdists (or checkouts) already on disk, and assert the frozen outcomes; evaluate's metric
scripts run when ``BLEUCLI_EVALUATE_CHECKOUT`` names a checkout of its repository and
evaluate is installed. The alias the runs
rely on is checked on a small generated test, without any sdist.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CONFORMANCE = Path(__file__).parent / "conformance"


def run_script(script: str, variable: str) -> str:
    path = os.environ.get(variable)
    if not path:
        pytest.skip(f"set {variable} to the sdist (or checkout) to run its tests against bleucli")
    done = subprocess.run([sys.executable, str(CONFORMANCE / script), path], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "outcomes equal the frozen list" in done.stdout
    return done.stdout


def test_sacrebleu_own_tests() -> None:
    out = run_script("run_sacrebleu_tests.py", "BLEUCLI_SACREBLEU_SDIST")
    assert "sacreBLEU 2.6.0 tests against bleucli: 130/130 passed" in out


def test_nltk_own_tests() -> None:
    out = run_script("run_nltk_tests.py", "BLEUCLI_NLTK_SDIST")
    assert "NLTK 3.10 tests against bleucli: 22/23 passed" in out
    assert "of the 22 passing on nltk, bleucli passes 22" in out


@pytest.mark.slow  # evaluate writes every call to disk: minutes
def test_evaluate_metric_scripts() -> None:
    """Hugging Face evaluate's sacrebleu/chrf/ter scripts give sacreBLEU's results on bleucli's alias."""
    import importlib.util

    if importlib.util.find_spec("evaluate") is None:
        pytest.skip("needs evaluate (pip install evaluate) to load its metric scripts")
    path = os.environ.get("BLEUCLI_EVALUATE_CHECKOUT")
    if not path:
        pytest.skip("set BLEUCLI_EVALUATE_CHECKOUT to a checkout of huggingface/evaluate")
    done = subprocess.run([sys.executable, str(CONFORMANCE / "run_evaluate_metrics.py"), path, "--lines", "20",
                           "--sentences", "2"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2.6.0 under bleucli's alias" in done.stdout


def test_the_alias_imports_bleucli_under_the_upstream_name(tmp_path: Path) -> None:
    sys.path.insert(0, str(CONFORMANCE))
    try:
        from common import run_pytest
    finally:
        sys.path.remove(str(CONFORMANCE))
    (tmp_path / "test_alias.py").write_text(
        "import socket\n"
        "import pytest\n"
        "import sacrebleu\n"
        "from sacrebleu.metrics import BLEU\n"
        "import sacrebleu.metrics.bleu as bleu_module\n"
        "import nltk_alias_probe\n"
        "def test_names():\n"
        "    import bleucli, bleucli.metrics.bleu\n"
        "    assert sacrebleu is bleucli and bleu_module is bleucli.metrics.bleu\n"
        "    assert BLEU is bleucli.metrics.bleu.BLEU and bleu_module.__spec__.name == 'bleucli.metrics.bleu'\n"
        "    assert nltk_alias_probe.sentence_gleu([[1, 2, 3]], [1, 2, 4]) == 0.5\n"
        "def test_offline():\n"
        "    with pytest.raises(OSError):\n"
        "        socket.create_connection(('192.0.2.1', 80), timeout=1)\n"
        "def test_failing():\n"
        "    assert False\n",
        encoding="utf-8")
    outcomes = run_pytest(["test_alias.py"], tmp_path,
                          {"sacrebleu": "bleucli", "nltk_alias_probe": "bleucli.family.nltk"}, [])
    assert outcomes == {"test_alias.py::test_failing": "failed", "test_alias.py::test_names": "passed",
                        "test_alias.py::test_offline": "passed"}
