"""Every file bleucli opens is bounded: regular files only, a size cap, a JSON nesting limit.

Exit codes go through real processes (``python -m bleucli``): a FIFO or
``/dev/zero`` must end at once with exit 3 and one line naming the file, never
hang, never be read whole, never be an internal error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, invoke, run_subprocess

REF = str(EXAMPLES / "ref.de")
HYP = str(EXAMPLES / "Online-B.de")

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")


def _one_error_line(stderr: bytes | str, name: str) -> None:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    assert text.count("\n") == 1 and name in text and "internal error" not in text, text


def _spm_model_cases(tmp_path: Path) -> dict[str, str]:
    cases = {"directory": str(tmp_path)}
    if os.path.exists("/dev/zero"):
        cases["/dev/zero"] = "/dev/zero"
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "model.fifo"
        os.mkfifo(fifo)
        cases["fifo"] = str(fifo)
    big = tmp_path / "big.model"
    with open(big, "wb") as handle:  # sparse: 65 MiB on paper, nothing on disk
        handle.truncate((64 << 20) + 1)
    cases["over 64 MiB"] = str(big)
    return cases


def test_spm_model_must_be_a_regular_file_within_the_cap(tmp_path: Path) -> None:
    pytest.importorskip("sentencepiece")
    for what, model in _spm_model_cases(tmp_path).items():
        for tokenize in (["-tok", "spm"], []):
            proc = run_subprocess([REF, "-i", HYP, *tokenize, "--spm-model", model], timeout=60)
            assert proc.returncode == 3, (what, proc.stderr)
            _one_error_line(proc.stderr, model)


def test_spm_model_cap_is_documented() -> None:
    result = invoke(["--help"])
    assert "--spm-model" in result.stdout and "64 MiB" in result.stdout


@pytest.mark.parametrize("tokenizer", ["13a", "flores200", "none"])
def test_spm_model_with_another_tokenizer_is_a_usage_error_before_the_file_is_opened(tokenizer: str) -> None:
    # /dev/zero would never end if it were read: the usage error comes first
    proc = run_subprocess([REF, "-i", HYP, "-tok", tokenizer, "--spm-model", "/dev/zero"], timeout=60)
    assert proc.returncode == 2, proc.stderr
    _one_error_line(proc.stderr, "spm")


def _deep_jsonl(tmp_path: Path, depth: int, line: int = 150) -> Path:
    path = tmp_path / "deep.jsonl"
    good = '{"hyp": "a b c", "ref": "a b d"}\n'
    deep = '{"hyp": ' + "[" * depth + "]" * depth + ', "ref": "x"}\n'
    path.write_text(good * (line - 1) + deep + good * 200, encoding="utf-8")
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("depth", [70, 2000, 100_000])
def test_deeply_nested_aligned_jsonl_is_exit_3_with_file_and_line(tmp_path: Path, jobs: str, depth: int) -> None:
    path = _deep_jsonl(tmp_path, depth)
    proc = run_subprocess(["--aligned", str(path), "-j", jobs], timeout=120)
    assert proc.returncode == 3, proc.stderr
    _one_error_line(proc.stderr, f"{path}:150:")
    assert b"nested" in proc.stderr


def test_aligned_jsonl_nested_within_the_limit_is_judged_by_its_type(tmp_path: Path) -> None:
    path = _deep_jsonl(tmp_path, 60, line=3)
    result = invoke(["--aligned", str(path)])
    assert result.exit_code == 3 and f"{path}:3:" in result.stderr and "not a string" in result.stderr


def test_aligned_directory_is_exit_3_like_an_input_directory(tmp_path: Path) -> None:
    for args in (["--aligned", str(tmp_path)], [REF, "-i", str(tmp_path)]):
        proc = run_subprocess(args, timeout=60)
        assert proc.returncode == 3, (args, proc.stderr)
        _one_error_line(proc.stderr, str(tmp_path))


@pytest.mark.parametrize("args", [["--aligned", "x.jsonl", "--columns", ""], [REF, "-i", HYP, "--columns", ""],
                                  ["--aligned", "x.tsv", "--columns", ","]])
def test_empty_columns_is_a_usage_error(args: list[str]) -> None:
    result = invoke(args)
    assert result.exit_code == 2 and "--columns" in result.stderr, result.stderr


def test_the_json_depth_check_ignores_brackets_in_strings() -> None:
    from bleucli.input.bounded import loads, nesting_depth

    text = '{"hyp": "' + "[" * 5000 + '", "ref": "\\"{{{"}'
    assert nesting_depth(text) == 1 and loads(text)["ref"] == '"{{{'
    with pytest.raises(ValueError, match="nested"):
        loads("[" * 65 + "]" * 65)
    assert loads("[" * 64 + "]" * 64) is not None
    assert sys.getrecursionlimit() > 64
