"""``bleucli.sacrebleu.alias``: code that says ``import sacrebleu`` runs unchanged on bleucli.

Each test runs in its own Python process (the alias changes how ``sacrebleu`` imports for
the rest of a process, and other tests import the real sacreBLEU as their oracle). The
version check is the one Hugging Face ``evaluate``'s sacrebleu, chrf and ter metrics make
(``version.parse(sacrebleu.__version__) < version.parse("1.4.12")`` refuses); the calls are
the ones those metrics make (``corpus_bleu`` with the references transposed, ``CHRF`` and
``TER`` objects with their arguments), on real WMT data, compared with the real sacreBLEU
when it is installed. ``tests/conformance/run_evaluate_metrics.py`` runs evaluate's own
metric scripts both ways.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from conftest import REPO
from datasets import references, system


def _python(code: str, *args: str, pure: bool = False, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("BLEUCLI_PURE_PYTHON", None)
    if pure:
        env["BLEUCLI_PURE_PYTHON"] = "1"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          cwd=cwd, check=False, timeout=120)


def test_sacrebleu_is_bleucli_with_the_mirrored_version() -> None:
    code = """
import json
from bleucli.sacrebleu.alias import SACREBLEU_VERSION, install, installed
install(); install()  # twice: nothing more happens
import sacrebleu, sacrebleu.metrics.bleu, sacrebleu.tokenizers.tokenizer_13a
from sacrebleu import CHRF
from sacrebleu.metrics import BLEU
from sacrebleu.version import __version__ as version_module
import bleucli, bleucli.metrics.bleu, bleucli.tokenizers.tokenizer_13a
from packaging import version
print(json.dumps({
    "version": sacrebleu.__version__, "mirrored": SACREBLEU_VERSION, "version_module": version_module,
    "bleucli_version": [sacrebleu.BLEUCLI_VERSION, bleucli.__version__, sacrebleu.version.BLEUCLI_VERSION],
    "evaluate_check_passes": not version.parse(sacrebleu.__version__) < version.parse("1.4.12"),
    "same_modules": [sacrebleu.metrics.bleu is bleucli.metrics.bleu, sacrebleu.metrics is bleucli.metrics,
                     sacrebleu.tokenizers.tokenizer_13a is bleucli.tokenizers.tokenizer_13a],
    "same_names": [BLEU is bleucli.BLEU, CHRF is bleucli.CHRF, sacrebleu.corpus_bleu is bleucli.corpus_bleu],
    "spec": sacrebleu.metrics.bleu.__spec__.name, "installed": installed(),
    "listed": "corpus_bleu" in dir(sacrebleu) and "__version__" in dir(sacrebleu),
}))
"""
    done = _python(code)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    from bleucli import __version__

    assert seen["version"] == seen["mirrored"] == seen["version_module"] == "2.6.0"
    assert seen["bleucli_version"] == [__version__] * 3  # bleucli's own version is not touched
    assert seen["evaluate_check_passes"] and seen["installed"] and seen["listed"]
    assert seen["same_modules"] == [True] * 3 and seen["same_names"] == [True] * 3
    assert seen["spec"] == "bleucli.metrics.bleu"


def test_the_mirrored_version_is_the_oracles() -> None:
    """``SACREBLEU_VERSION`` names the sacreBLEU whose numbers the oracle tests check."""
    from importlib.metadata import version

    from bleucli.sacrebleu.alias import SACREBLEU_VERSION

    pytest.importorskip("sacrebleu", reason="needs the oracle (bleucli[oracle])")
    assert version("sacrebleu") == SACREBLEU_VERSION


#: The calls evaluate's three metrics make, as data: (function, keyword arguments).
EVALUATE_CALLS = [
    ("bleu", {}), ("bleu", {"smooth_method": "floor", "smooth_value": 0.01}), ("bleu", {"lowercase": True}),
    ("bleu", {"tokenize": "intl", "use_effective_order": True}), ("bleu", {"smooth_method": "add-k",
                                                                           "smooth_value": 2, "force": True}),
    ("chrf", {}), ("chrf", {"word_order": 2}), ("chrf", {"char_order": 4, "beta": 1, "eps_smoothing": True}),
    ("chrf", {"whitespace": True, "lowercase": True}),
    ("ter", {}), ("ter", {"normalized": True, "ignore_punct": True}), ("ter", {"case_sensitive": True}),
    ("ter", {"support_zh_ja_chars": True}),
]

#: One side: ``sys.argv[1]`` is "bleucli" (alias installed) or "sacrebleu"; the data and calls on stdin.
EVALUATE_LIKE = """
import json, sys
if sys.argv[1] == "bleucli":
    from bleucli.sacrebleu.alias import install
    install()
import sacrebleu as scb
from sacrebleu import CHRF, TER
data = json.load(sys.stdin)
out = []
for hyps, refs in data["inputs"]:  # refs: one list of references per prediction, as evaluate takes them
    streams = [[per_prediction[i] for per_prediction in refs] for i in range(len(refs[0]))]
    for name, kwargs in data["calls"]:
        if name == "bleu":
            s = scb.corpus_bleu(hyps, streams, **kwargs)
            out.append(repr({"score": s.score, "counts": s.counts, "totals": s.totals, "precisions": s.precisions,
                             "bp": s.bp, "sys_len": s.sys_len, "ref_len": s.ref_len}))
        elif name == "chrf":
            args = [kwargs.get("char_order", CHRF.CHAR_ORDER), kwargs.get("word_order", CHRF.WORD_ORDER),
                    kwargs.get("beta", CHRF.BETA), kwargs.get("lowercase", False), kwargs.get("whitespace", False),
                    kwargs.get("eps_smoothing", False)]
            s = CHRF(*args).corpus_score(hyps, streams)
            out.append(repr({"score": s.score, "char_order": s.char_order, "word_order": s.word_order,
                             "beta": s.beta}))
        else:
            s = TER(normalized=kwargs.get("normalized", False), no_punct=kwargs.get("ignore_punct", False),
                    asian_support=kwargs.get("support_zh_ja_chars", False),
                    case_sensitive=kwargs.get("case_sensitive", False)).corpus_score(hyps, streams)
            out.append(repr({"score": s.score, "num_edits": s.num_edits, "ref_length": s.ref_length}))
print(json.dumps({"module": scb.BLEU.__module__.split(".")[0], "results": out}))
"""


@cache
def _evaluate_side(side: str, pure: bool) -> dict[str, object]:
    lines = 25
    refs = references("wmt22-en-de")
    inputs = []
    for name in ("Online-B", "PROMT"):
        hyps = system("wmt22-en-de", name)[:lines]
        inputs.append((hyps, [[stream[k] for stream in refs] for k in range(lines)]))  # two references each
        inputs.append((hyps, [[refs[0][k]] for k in range(lines)]))  # one
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("BLEUCLI_PURE_PYTHON", None)
    if pure:
        env["BLEUCLI_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "-c", EVALUATE_LIKE, side], input=json.dumps(
        {"inputs": inputs, "calls": EVALUATE_CALLS}), env=env, capture_output=True, text=True, check=False,
        timeout=300)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.slow  # sacreBLEU's TER takes seconds on these lines
def test_evaluates_calls_under_the_alias_equal_sacrebleu(matcher: str) -> None:
    """Every value and type (lists, not tuples; floats to the last digit) is sacreBLEU's."""
    pytest.importorskip("sacrebleu", reason="needs the oracle (bleucli[oracle])")
    ours = _evaluate_side("bleucli", pure=matcher == "python")
    theirs = _evaluate_side("sacrebleu", pure=False)
    assert (ours["module"], theirs["module"]) == ("bleucli", "sacrebleu")
    assert ours["results"] == theirs["results"]


def test_install_refuses_when_the_real_sacrebleu_is_already_imported() -> None:
    code = """
import sys, types
sys.modules["sacrebleu"] = types.ModuleType("sacrebleu")
from bleucli.sacrebleu.alias import install, installed
try:
    install()
except ImportError as error:
    print("refused:", error, installed())
"""
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: sacrebleu is already imported") and done.stdout.endswith(" False\n")


def test_uninstall_gives_sacrebleu_back() -> None:
    code = """
import sys
from bleucli.sacrebleu.alias import install, uninstall, installed
install()
import sacrebleu.metrics
assert sacrebleu.__version__ == "2.6.0" and "sacrebleu.metrics" in sys.modules
uninstall()
print(installed(), sorted(name for name in sys.modules if name.split(".")[0] == "sacrebleu"))
"""
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "False []\n"


def test_python_m_runs_a_script_with_the_alias(tmp_path: Path) -> None:
    script = tmp_path / "score.py"
    script.write_text("import sys\nimport sacrebleu\n"
                      "print(sys.argv[1:], sacrebleu.__version__, sacrebleu.BLEU.__module__)\n", encoding="utf-8")
    done = _python("import runpy; runpy.run_module('bleucli.sacrebleu.alias', run_name='__main__')",
                   str(script), "a", "-b")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "['a', '-b'] 2.6.0 bleucli.metrics.bleu\n"
    usage = _python("import runpy; runpy.run_module('bleucli.sacrebleu.alias', run_name='__main__')")
    assert usage.returncode == 2 and usage.stderr.startswith("usage: python -m bleucli.sacrebleu.alias")
