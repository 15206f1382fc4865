"""``-d/--detail``: sacreBLEU's per-origlang / per-subset breakdown of a test set's score (issue 16.4).

The toy sets are served by a real HTTP server on 127.0.0.1 (conftest.py); the
oracle test runs sacreBLEU 2.6.0's own command line on the same raw files
(helpers/sacrebleu_cli.py) and compares the output byte for byte.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bleucli import __version__
from bleucli import testsets as ts

from .conftest import write_lines

REPO = Path(__file__).resolve().parents[2]
SACREBLEU_CLI = Path(__file__).resolve().parent / "helpers" / "sacrebleu_cli.py"


def run(env, args: list[str], extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environ = {**env.environ, "PYTHONPATH": str(REPO), **(extra or {})}
    for name in ("BLEUCLI_FORMAT", "SACREBLEU_FORMAT", "NO_COLOR"):
        environ.pop(name, None)
    return subprocess.run([sys.executable, "-m", "bleucli", *args], capture_output=True, env=environ, cwd=REPO)


def hypotheses(name: str, corpus, tmp_path: Path) -> str:
    """The Online-B output over the whole set (WMT XML: the system field, aligned with its segments)."""
    lines = ts.echo(name, "en-de", ["Online-B"]) if name == "toy-xml" else corpus.sys_b
    return write_lines(tmp_path / f"{name}.hyp", lines)


EXPECTED_SGML = """\
BLEU|nrefs:1|test:toy-sgml|lang:en-de|case:mixed|eff:no|tok:13a|smooth:exp|version:{v} = 42.8 71.1/49.4/35.9/26.6 \
(BP = 1.000 ratio = 1.013 hyp_len = 759 ref_len = 749)
origlang=de domain=ALL      : sentences=10     BLEU = 34.1
origlang=de country=EU      : sentences=10     BLEU = 34.1
origlang=de domain=sport    : sentences=10     BLEU = 34.1
origlang=en domain=ALL      : sentences=30     BLEU = 44.9
origlang=en country=GB      : sentences=18     BLEU = 41.3
origlang=en country=US      : sentences=12     BLEU = 49.4
origlang=en domain=politics : sentences=30     BLEU = 44.9
"""


def test_detail_breaks_the_score_down_by_origlang_and_subset(env, corpus, tmp_path: Path) -> None:
    """sacreBLEU's lines (frozen from sacreBLEU 2.6.0); JSON is replaced by text, as in sacreBLEU."""
    result = run(env, ["-t", "toy-sgml", "-l", "en-de", "-i", hypotheses("toy-sgml", corpus, tmp_path), "-d"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == EXPECTED_SGML.format(v=__version__)


@pytest.mark.slow
def test_detail_without_subset_information(env, corpus, tmp_path: Path) -> None:
    hyp = write_lines(tmp_path / "hyp", corpus.sys_b)
    result = run(env, ["-t", "toy-plain", "-l", "en-de", "-i", hyp, "-d", "-b"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines()[1:] == [
        "No subset information found. Consider using --origlang argument."]


@pytest.mark.slow
def test_detail_with_origlang_breaks_down_that_language_only(env, corpus, tmp_path: Path) -> None:
    """sacreBLEU iterates the letters of --origlang here ('e', 'n') and crashes; bleucli takes the language."""
    hyp = hypotheses("toy-sgml", corpus, tmp_path)
    result = run(env, ["-t", "toy-sgml", "-l", "en-de", "-i", hyp, "-d", "--origlang", "en", "-b"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == [
        "44.9",
        "origlang=en domain=ALL      : sentences=30     BLEU = 44.9",
        "origlang=en country=GB      : sentences=18     BLEU = 41.3",
        "origlang=en country=US      : sentences=12     BLEU = 49.4",
        "origlang=en domain=politics : sentences=30     BLEU = 44.9",
    ]


@pytest.mark.slow
def test_detail_is_ignored_with_several_systems(env, corpus, tmp_path: Path) -> None:
    hyp = hypotheses("toy-sgml", corpus, tmp_path)
    other = write_lines(tmp_path / "p.de", corpus.sys_p)
    result = run(env, ["-t", "toy-sgml", "-l", "en-de", "-i", hyp, other, "-d"])
    assert result.returncode == 0 and b"--detail" in result.stderr
    assert result.stdout.decode().startswith("\u2552")  # the text table: -d replaces JSON by text, as in sacreBLEU


@pytest.mark.oracle
@pytest.mark.skipif(importlib.util.find_spec("sacrebleu") is None, reason="needs sacrebleu")
@pytest.mark.parametrize(("name", "extra"), [
    pytest.param("toy-sgml", ["-m", "bleu", "chrf"], marks=pytest.mark.slow),
    pytest.param("toy-sgml", ["-m", "ter", "bleu", "-w", "4", "-b"], marks=pytest.mark.slow),
    pytest.param("toy-sgml", ["--subset", "politics", "-f", "json"], marks=pytest.mark.slow),
    pytest.param("toy-sgml", ["-ci", "-cin", "20", "-sh"], marks=pytest.mark.slow),
    pytest.param("toy-xml", [], marks=pytest.mark.slow),
    pytest.param("toy-xml", ["--subset", "news", "-m", "chrf", "-cw", "2"], marks=pytest.mark.slow),
    pytest.param("toy-plain", [], marks=pytest.mark.slow),
])
def test_detail_matches_sacrebleu(env, corpus, tmp_path: Path, name: str, extra: list[str]) -> None:
    hyp = hypotheses(name, corpus, tmp_path)
    args = ["-t", name, "-l", "en-de", "-i", hyp, "-d", *extra]
    scratch = tmp_path / "sacrebleu"
    scratch.mkdir()
    environ = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "NO_COLOR")}
    theirs = subprocess.run([sys.executable, str(SACREBLEU_CLI), str(scratch), *args], capture_output=True,
                            env=environ)
    assert theirs.returncode == 0, theirs.stderr
    ours = run(env, args)
    assert ours.returncode == 0, ours.stderr
    expected = theirs.stdout.decode().replace("version:2.6.0", f"version:{__version__}").replace(
        "v:2.6.0", f"v:{__version__}")
    # bleucli's signatures name the test set (test:/lang:, and origlang:/subset: when filtered)
    got = ours.stdout.decode()
    for field in ("test", "lang", "origlang", "subset"):
        for short in (field, {"test": "t", "lang": "l", "origlang": "o", "subset": "S"}[field]):
            got = "".join(part for part in _split_fields(got, short))
    assert got == expected


def _split_fields(text: str, key: str) -> list[str]:
    """``text`` without ``|key:value`` signature fields."""
    import re

    return [re.sub(rf"\|{re.escape(key)}:[^|\s]+", "", text)]


@pytest.mark.oracle
@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("sacrebleu") is None, reason="needs sacrebleu")
def test_detail_colours_on_a_terminal_match_sacrebleu(env, corpus, tmp_path: Path) -> None:
    """On a terminal sacreBLEU paints each -d label yellow; so does bleucli, byte for byte."""
    from terminal import run_in_pty

    args = ["-t", "toy-sgml", "-l", "en-de", "-i", hypotheses("toy-sgml", corpus, tmp_path), "-d", "-b"]
    scratch = tmp_path / "sacrebleu"
    scratch.mkdir()
    environ = {k: v for k, v in env.environ.items() if k not in ("SACREBLEU_FORMAT", "NO_COLOR", "BLEUCLI_FORMAT")}
    their_code, theirs = run_in_pty([sys.executable, str(SACREBLEU_CLI), str(scratch), *args], environ, tmp_path)
    code, ours = run_in_pty([sys.executable, "-m", "bleucli", *args], {**environ, "PYTHONPATH": str(REPO)},
                            tmp_path, REPO)
    assert (code, their_code) == (0, 0)
    assert b"\x1b[33moriglang=de domain=ALL      \x1b[0m: sentences=10" in ours
    assert ours == theirs.removesuffix(b"\x1b[0m")  # colorama resets the terminal at exit: invisible
