"""`bleucli signature diff A B`."""

from __future__ import annotations

from conftest import invoke

A = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"


def test_identical_signatures_match() -> None:
    result = invoke(["signature", "diff", A, "BLEU|#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0"])
    assert result.exit_code == 0 and result.stdout == "signatures match\n"


def test_differences_are_listed_field_by_field() -> None:
    result = invoke(["signature", "diff", A, "nrefs:2|case:lc|eff:no|tok:13a|smooth:exp|version:0.1.0"])
    assert result.exit_code == 7
    assert result.stdout.splitlines() == ["nrefs: 1 -> 2", "case: mixed -> lc", "version: 2.6.0 -> 0.1.0"]
    assert result.stderr.startswith("bleucli: error: signature mismatch")


def test_version_wildcard_and_missing_fields() -> None:
    assert invoke(["signature", "diff", A.replace("2.6.0", "*"), A.replace("2.6.0", "9.9")]).exit_code == 0
    result = invoke(["signature", "diff", A, "nrefs:1|case:mixed|eff:no|tok:13a|version:2.6.0"])
    assert result.exit_code == 7 and "smooth: exp -> (absent)" in result.stdout


def test_malformed_signature_is_a_usage_error() -> None:
    result = invoke(["signature", "diff", A, "nrefs:1|what:is|this:1"])
    assert result.exit_code == 2 and "unknown signature key 'what'" in result.stderr


def test_different_metrics_never_match() -> None:
    result = invoke(["signature", "diff", "BLEU|" + A,
                     "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"])
    assert result.exit_code == 7
