"""A test set's fields (``test:``, ``lang:``, ``origlang:``) are in every mode's signature and checked by
``--expect-signature`` everywhere: before the pipeline was one, ``-ci``/``-pbs``/``-par`` printed
signatures without them and ignored the expectation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bleucli.cli import cli

SET = "toy-sgml"


def invoke(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def systems(env, corpus, tmp_path: Path) -> tuple[str, str]:  # noqa: ARG001 - env: the local registry
    return write_lines(tmp_path / "b.de", corpus.sys_b), write_lines(tmp_path / "p.de", corpus.sys_p)


def _modes(a: str, b: str) -> dict[str, list[str]]:
    base = ["-t", SET, "-l", "en-de"]
    return {
        "corpus": [*base, "-i", a],
        "corpus-text": [*base, "-i", a, "-f", "text"],
        "systems": [*base, "-i", a, b, "-f", "text"],
        "sentence": [*base, "-i", a, "-sl"],
        "confidence": [*base, "-i", a, "-ci", "-cin", "10"],
        "paired-bs": [*base, "-i", a, b, "-pbs", "-pbsn", "10", "-f", "text"],
        "paired-ar": [*base, "-i", a, b, "-par", "-parn", "10", "-f", "text"],
        "origlang": [*base, "-i", a, "--origlang", "de", "-ci", "-cin", "10"],
    }


MODE_NAMES = ["corpus", "corpus-text", "systems", "sentence", "confidence", "paired-bs", "paired-ar", "origlang"]


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_every_mode_prints_the_test_set_fields(systems: tuple[str, str], mode: str) -> None:
    code, out, err = invoke(_modes(*systems)[mode])
    assert code == 0, err
    assert f"test:{SET}|lang:en-de|" in out
    if mode == "origlang":
        assert f"test:{SET}|lang:en-de|origlang:de|" in out
    if mode in ("corpus", "confidence", "origlang"):
        data = json.loads(out)
        assert (data["test"], data["lang"]) == (SET, "en-de")
        assert data["test_set"]["name"] == SET and len(data["test_set"]["data_sha256"]) == 64


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_every_mode_checks_the_test_set_fields(systems: tuple[str, str], mode: str) -> None:
    code, out, err = invoke([*_modes(*systems)[mode], "--expect-signature", "test:other-set|version:*"])
    assert code == 7 and out == "" and "test" in err, (code, err)
