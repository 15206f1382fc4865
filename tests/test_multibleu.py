"""bleucli multi-bleu / multi-bleu-detok against Moses' scripts' frozen output (tests/golden/multibleu.json).

The goldens were made by running the scripts with perl
(tests/golden/regenerate_multibleu.py): real data (ted-sk-en tokenized and
detokenized, wmt21-en-de with several references) and edge cases (a missing
reference line, no 4-gram match, references found by stem, Unicode and
ASCII whitespace, -lc, the detok script's chop, CRLF, gzip). stdout must be
byte-identical, with the compiled and with the pure-Python n-gram matcher.
Where the script prints a number for input it cannot score (a reference file
shorter than the hypothesis), the golden case is marked ``refused``: bleucli
exits 3 with one line instead.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from conftest import invoke, run_subprocess
from datasets import DATA

GOLDEN = json.loads((Path(__file__).parent / "golden" / "multibleu.json").read_text(encoding="utf-8"))
ANCHOR = "BLEU = 22.44, 59.7/30.3/17.2/10.1 (BP=0.947, ratio=0.948, hyp_len=45672, ref_len=48183)\n"


def materialise(case: dict, folder: Path) -> bytes:
    for name, content in case.get("data_files", {}).items():
        (folder / name).write_bytes(gzip.decompress((DATA / content).read_bytes()))
    for name, content in case.get("files", {}).items():
        if content.startswith("GZ:"):
            (folder / name).write_bytes(gzip.compress(content[3:].encode("latin-1"), mtime=0))
        else:
            (folder / name).write_bytes(content.encode("utf-8"))
    if "data_stdin" in case:
        return gzip.decompress((DATA / case["data_stdin"]).read_bytes())
    return case["stdin"].encode("utf-8")


@pytest.mark.parametrize("index", range(len(GOLDEN["cases"])))
def test_same_line_as_the_perl_script(index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      matcher: str) -> None:
    case = GOLDEN["cases"][index]
    stdin = materialise(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    result = invoke([case["script"], *case["args"]], input=stdin)
    assert (result.exit_code, result.stdout) == (case["exit"], case["stdout"])
    if "refused" in case:
        assert case["refused"] in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_anchor_line_ted_sk_en() -> None:
    assert GOLDEN["cases"][0]["stdout"] == ANCHOR


def test_subprocess_stdout_stderr_and_exit_code(tmp_path: Path) -> None:
    (tmp_path / "ref").write_bytes(gzip.decompress((DATA / "ted-sk-en/tok/ref.en.gz").read_bytes()))
    hyp = gzip.decompress((DATA / "ted-sk-en/tok/sys1.en.gz").read_bytes())
    done = run_subprocess(["multi-bleu", str(tmp_path / "ref")], stdin=hyp)
    assert done.returncode == 0 and done.stdout.decode() == ANCHOR
    assert b"not comparable across papers" in done.stderr


@pytest.mark.parametrize(("script", "ref", "stdin", "message"), [
    ("multi-bleu", b"a b c\n", b"", "no hypothesis lines"),
    ("multi-bleu", b"\n\n", b"a b\nc d\n", "references have no tokens"),
    ("multi-bleu", b"a b\n", b"\n", "hypotheses have no tokens"),
    ("multi-bleu-detok", b"a b\n", b"a \xff b\n", "<stdin>, line 1: not valid UTF-8"),
    ("multi-bleu-detok", b"a \xc3 b\n", b"a b\n", "ref, line 1: not valid UTF-8"),
])
def test_where_the_scripts_fail_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str,
                                                 ref: bytes, stdin: bytes, message: str) -> None:
    (tmp_path / "ref").write_bytes(ref)
    monkeypatch.chdir(tmp_path)
    result = invoke([script, "ref"], input=stdin)
    assert result.exit_code == 3 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_missing_reference_file_and_skipped_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(["multi-bleu", "nothing"], input=b"a\n")
    assert result.exit_code == 3 and "could not find reference file nothing" in result.stderr
    (tmp_path / "ref").write_bytes(b"a b c d\n")
    result = invoke(["multi-bleu-detok", "ref", "typo"], input=b"a b c d\n")
    assert result.exit_code == 0 and result.stdout.startswith("BLEU = 100.00")
    assert "reference file typo does not exist" in result.stderr
    assert invoke(["multi-bleu"], input=b"a\n").exit_code == 2


@pytest.mark.parametrize("script", ["multi-bleu", "multi-bleu-detok"])
def test_an_empty_reference_file_is_exit_3_in_one_line(tmp_path: Path, script: str) -> None:
    (tmp_path / "ref").write_bytes(b"")
    (tmp_path / "ref2").write_bytes(b"a b c\n")
    for refs in (["ref"], ["ref2", str(tmp_path / "ref")]):
        proc = run_subprocess([script, *(str(tmp_path / r) if r in ("ref", "ref2") else r for r in refs)],
                              stdin=b"a b c\n", timeout=60)
        assert proc.returncode == 3 and proc.stdout == b"", proc.stderr
        assert proc.stderr.count(b"\n") == 1 and b"empty reference file" in proc.stderr


@pytest.mark.parametrize("script", ["multi-bleu", "multi-bleu-detok"])
def test_a_reference_file_shorter_than_the_hypothesis_is_exit_3_naming_it(tmp_path: Path, script: str) -> None:
    """The script scores the lines past the file's end against length 9999: a number nobody can use."""
    (tmp_path / "long").write_bytes(b"a b c\nd e f\ng h i\n")
    (tmp_path / "short").write_bytes(b"a b c\nd e f\n")
    hyp = b"a b c\nd e f\ng h i\n"
    for refs in (["short"], ["long", "short"]):
        proc = run_subprocess([script, *(str(tmp_path / r) for r in refs)], stdin=hyp, timeout=60)
        assert proc.returncode == 3 and proc.stdout == b"", proc.stderr
        assert proc.stderr.count(b"\n") == 1
        assert f"{tmp_path / 'short'}: 2 reference lines for 3 hypothesis lines".encode() in proc.stderr
    # more reference lines than hypothesis lines is what the script scores (the rest is ignored)
    proc = run_subprocess([script, str(tmp_path / "long")], stdin=b"a b c\nd e f\n", timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith(b"BLEU = ")
