"""Every mode ends in the same final step: the expected signature is checked, then the result printed.

Before the pipeline was one, ``-ci``, ``-pbs`` and ``-par`` returned early and
``--expect-signature`` was silently ignored there (exit 0 with ``nrefs:2``
expected against one reference). Each mode is run here with a wrong and a
right expectation.
"""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES, invoke

REF = str(EXAMPLES / "ref.de")
SYS_A = str(EXAMPLES / "Online-B.de")
SYS_B = str(EXAMPLES / "Lan-Bridge.de")

#: mode -> (arguments, the signature it prints, in short form, without the version)
MODES: dict[str, tuple[list[str], str]] = {
    "corpus": ([REF, "-i", SYS_A], "#:1|c:mixed|e:no|tok:13a|s:exp"),
    "systems": ([REF, "-i", SYS_A, SYS_B], "#:1|c:mixed|e:no|tok:13a|s:exp"),
    "sentence": ([REF, "-i", SYS_A, "-sl"], "#:1|c:mixed|e:yes|tok:13a|s:exp"),
    "confidence": ([REF, "-i", SYS_A, "-ci", "-cin", "20"], "#:1|bs:20|rs:12345|c:mixed|e:no|tok:13a|s:exp"),
    "paired-bs": ([REF, "-i", SYS_A, SYS_B, "-pbs", "-pbsn", "20"], "#:1|bs:20|rs:12345|c:mixed|e:no|tok:13a|s:exp"),
    "paired-ar": ([REF, "-i", SYS_A, SYS_B, "-par", "-parn", "20"], "#:1|ar:20|rs:12345|c:mixed|e:no|tok:13a|s:exp"),
    "chrf-ci": ([REF, "-i", SYS_A, "-m", "chrf", "-ci", "-cin", "20"],
                "chrF2|#:1|bs:20|rs:12345|c:mixed|e:yes|nc:6|nw:0|s:no"),
}


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BLEUCLI_SEED", raising=False)


@pytest.mark.parametrize("mode", list(MODES))
def test_a_wrong_expected_signature_fails_in_every_mode(mode: str) -> None:
    arguments, _ = MODES[mode]
    result = invoke([*arguments, "--expect-signature", "nrefs:2|version:*"])
    assert result.exit_code == 7, (result.exit_code, result.stderr)
    assert result.stdout == "" and "nrefs" in result.stderr


@pytest.mark.parametrize("mode", list(MODES))
def test_the_right_expected_signature_passes_in_every_mode(mode: str) -> None:
    arguments, signature = MODES[mode]
    result = invoke([*arguments, "--expect-signature", f"{signature}|v:*"])
    assert result.exit_code == 0, (result.exit_code, result.stderr)
    assert result.stdout


@pytest.mark.parametrize("mode", ["confidence", "paired-bs", "paired-ar"])
def test_resampling_fields_are_part_of_the_checked_signature(mode: str) -> None:
    arguments, signature = MODES[mode]
    other = signature.replace(":20|", ":21|")
    result = invoke([*arguments, "--expect-signature", f"{other}|v:*"])
    assert result.exit_code == 7 and ("bs" in result.stderr or "ar" in result.stderr)


def test_a_malformed_expectation_is_refused_before_any_work() -> None:
    result = invoke([REF, "-i", SYS_A, "-ci", "--expect-signature", "nrefs"])
    assert result.exit_code == 2 and result.stdout == ""


def test_confidence_json_carries_the_checked_signature() -> None:
    result = invoke([REF, "-i", SYS_A, "-ci", "-cin", "20"])
    data = json.loads(result.stdout)
    assert data["signature"].startswith("nrefs:1|bs:20|seed:12345|")
    assert (data["bs"], data["seed"]) == ("20", "12345")


def test_version_says_when_the_pure_python_matchers_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleucli.metrics.compiled import implementation
    from conftest import run_subprocess

    monkeypatch.delenv("BLEUCLI_PURE_PYTHON", raising=False)
    plain = run_subprocess(["--version"]).stdout.decode()
    assert plain.startswith("bleucli ")
    assert ("pure-Python n-gram matchers" in plain) == (implementation() == "python")
    monkeypatch.setenv("BLEUCLI_PURE_PYTHON", "1")
    assert "pure-Python n-gram matchers" in run_subprocess(["--version"]).stdout.decode()


def test_subcommands_are_imported_only_when_used() -> None:
    """Start-up pays for the scoring command only: the other commands are loaded on demand."""
    import subprocess
    import sys

    from conftest import REPO

    code = ("import sys\nfrom bleucli.cli import run\nrun({args})\n"
            "print(sorted(m for m in sys.modules if m.startswith('bleucli.cli.')))")
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    plain = subprocess.run([sys.executable, "-c", code.format(args=[REF, "-i", SYS_A, "-b"])],
                           capture_output=True, text=True, env=env, check=True).stdout.splitlines()[-1]
    for module in ("stats", "compare", "variants", "multibleu", "bleu_family", "cache", "signature"):
        assert f"bleucli.cli.{module}'" not in plain, module
    merged = subprocess.run([sys.executable, "-c", code.format(args=["signature", "diff", "nrefs:1", "nrefs:1"])],
                            capture_output=True, text=True, env=env, check=True).stdout.splitlines()[-1]
    assert "bleucli.cli.signature'" in merged
