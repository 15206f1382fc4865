"""A test set's fields (``test:``, ``lang:``, ``origlang:``) are in every mode's signature and checked by
``--expect-signature`` everywhere: before the pipeline was one, ``-ci``/``-pbs``/``-par`` printed
signatures without them and ignored the expectation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import invoke, write_lines

SET = "toy-sgml"


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


SACREBLEU_SIGNATURE = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:*"


@pytest.mark.parametrize("mode", ["corpus", "systems", "confidence", "paired-bs"])
def test_a_sacrebleu_signature_checks_a_test_set_run(systems: tuple[str, str], mode: str) -> None:
    """sacreBLEU 2's signatures have no test:/lang:, which only name the data (issue 16.5)."""
    resampled = mode in ("confidence", "paired-bs")
    expected = SACREBLEU_SIGNATURE
    if resampled:
        expected = expected.replace("nrefs:1|", "nrefs:1|bs:10|seed:12345|")
    code, out, err = invoke([*_modes(*systems)[mode], "--expect-signature", expected])
    assert code == 0 and out, (code, err)


@pytest.mark.parametrize("expected", [
    SACREBLEU_SIGNATURE.replace("tok:13a", "tok:intl"),  # a field that changes the number
    "test:toy-sgml|lang:en-de|" + SACREBLEU_SIGNATURE.replace("case:mixed", "case:lc"),
    "test:toy-xml|" + SACREBLEU_SIGNATURE,  # a data name the expectation does mention
    "lang:de-en|" + SACREBLEU_SIGNATURE,
])
def test_fields_that_differ_still_fail(systems: tuple[str, str], expected: str) -> None:
    code, out, err = invoke([*_modes(*systems)["corpus"], "--expect-signature", expected])
    assert code == 7 and out == "", (code, err)


def test_origlang_changes_the_number_so_it_is_always_compared(systems: tuple[str, str]) -> None:
    """A filtered run (origlang:de) does not match a signature that does not say so."""
    code, _, err = invoke(["-t", SET, "-l", "en-de", "-i", systems[0], "--origlang", "de",
                           "--expect-signature", SACREBLEU_SIGNATURE])
    assert code == 7 and "origlang" in err
    code, _, err = invoke(["-t", SET, "-l", "en-de", "-i", systems[0], "--origlang", "de",
                           "--expect-signature", "origlang:de|" + SACREBLEU_SIGNATURE])
    assert code == 0, err


def test_signature_diff_ignores_unmentioned_data_names() -> None:
    code, out, err = invoke(["signature", "diff", SACREBLEU_SIGNATURE.replace("version:*", "version:2.6.0"),
                             "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|test:wmt17|lang:en-de|version:2.6.0"])
    assert code == 0, (out, err)
