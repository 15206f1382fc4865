"""GLEU for GEC: identical to keisks/jfleg's eval/gleu.py, frozen under Python 2 and Python 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleucli.errors import InputError, OptionError
from bleucli.family.gleu import corpus_gleu, jfleg_gleu, jfleg_sentence_gleu, reference_choices, tokenizer_for
from conftest import invoke
from datasets import lines

HERE = Path(__file__).parent
JFLEG = HERE / "variants" / "data" / "jfleg"
GOLDEN = json.loads((HERE / "golden" / "gleu_jfleg.json").read_text())


def jfleg(name: str) -> list[str]:
    return lines(JFLEG / f"{name}.gz")


def run_case(name: str, sampling: str):  # type: ignore[no-untyped-def]
    split, hyp, refs, order, iterations = GOLDEN["cases"][name]
    return jfleg_gleu(jfleg(hyp), [jfleg(r) for r in refs], jfleg(f"{split}.src"), order=order,
                      iterations=iterations, sampling=sampling)


#: The fast subset keeps the small case with both samplings and the published test-set case with Python 2's.
FAST_CASES = {("test-source-two-refs-order3-iter50", "python2"), ("test-source-two-refs-order3-iter50", "python3"),
              ("test-source", "python2")}


def _slow_unless_fast(pairs: list[tuple[str, str]], fast: set) -> list:
    return [pytest.param(*pair, marks=[] if pair in fast else [pytest.mark.slow]) for pair in pairs]


def _reprs(values: object) -> list[str]:
    return [repr(float(v)) for v in values]  # type: ignore[attr-defined]


CORPUS_CASES = [name for name in sorted(GOLDEN["cases"]) if name not in GOLDEN["sentence_cases"]]


@pytest.mark.parametrize(("name", "sampling"), _slow_unless_fast(
    [(name, sampling) for name in CORPUS_CASES for sampling in ("python2", "python3")], FAST_CASES))
def test_equals_frozen_gleu_py_run(name: str, sampling: str) -> None:
    expected = GOLDEN["results"][sampling][name]
    result = run_case(name, sampling)
    assert _reprs(result.iterations) == expected["iterations"]
    assert repr(result.score) == expected["mean"]
    assert repr(result.std) == expected["std"]
    assert _reprs(result.ci) == expected["ci"]
    assert result.jfleg_strings() == expected["printed"]


@pytest.mark.parametrize("sampling", ["python2", pytest.param("python3", marks=pytest.mark.slow)])
def test_sentence_level_equals_frozen_gleu_py_sent(sampling: str) -> None:
    """gleu.py --sent: every sentence's mean, std and interval (nan where all references score the same)."""
    name = "dev-ref0-vs-refs123-sentences"
    split, hyp, refs, order, _ = GOLDEN["cases"][name]
    expected = GOLDEN["results"][sampling][name]
    result = jfleg_sentence_gleu(jfleg(hyp), [jfleg(r) for r in refs], jfleg(f"{split}.src"), order=order,
                                 sampling=sampling)
    assert len(result) == len(expected["sentences"]) == 754
    for got, want in zip(result, expected["sentences"]):
        assert _reprs(got.per_reference) == want["iterations"]
        assert (repr(got.mean), repr(got.std), _reprs(got.ci)) == (want["mean"], want["std"], want["ci"])
    assert [got.jfleg_strings() for got in result] == expected["printed"]
    assert any(got.std == 0 for got in result)  # the nan intervals are exercised


@pytest.mark.parametrize(("split", "published"), [pytest.param("dev", 38.21, marks=pytest.mark.slow), ("test", 40.54)])
def test_published_jfleg_source_scores_with_python2_sampling(split: str, published: float) -> None:
    refs = [jfleg(f"{split}.ref{k}") for k in range(4)]
    source = jfleg(f"{split}.src")
    assert round(jfleg_gleu(source, refs, source).score * 100, 2) == published
    assert round(jfleg_gleu(source, refs, source, sampling="python3").score * 100, 2) != published


def test_python2_and_python3_draw_differently_from_the_same_seeds() -> None:
    py2, py3 = reference_choices(3, 200, 4, "python2"), reference_choices(3, 200, 4, "python3")
    assert py2 != py3
    assert all(0 <= k < 4 for row in py2 + py3 for k in row)


def test_tokens_follow_the_interpreter() -> None:
    line = "a\u00a0b  c\td"
    assert tokenizer_for("python2")(line) == ["a\u00a0b", "c", "d"]
    assert tokenizer_for("python3")(line) == ["a", "b", "c", "d"]


def test_any_zero_statistic_gives_zero() -> None:
    assert corpus_gleu([5, 5, 3, 5, 0, 4]) == 0.0
    assert corpus_gleu([5, 5, 5, 5, 4, 4]) == 1.0


def test_bad_input() -> None:
    with pytest.raises(InputError, match="the source has 1 segments"):
        jfleg_gleu(["a b", "c"], [["a b", "c"]], ["a"])
    with pytest.raises(OptionError):
        jfleg_gleu(["a"], [["a"]], ["a"], sampling="python4")


def test_cli(tmp_path: Path) -> None:
    paths = {}
    for name in ("test.src", "test.ref0", "test.ref1", "test.ref2", "test.ref3"):
        paths[name] = tmp_path / name
        paths[name].write_text("".join(line + "\n" for line in jfleg(name)), encoding="utf-8")
    refs = [str(paths[f"test.ref{k}"]) for k in range(4)]
    src = str(paths["test.src"])
    result = invoke(["gleu", *refs, "-i", src, "--source", src])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    expected = GOLDEN["results"]["python2"]["test-source"]
    assert data["unrounded_score"] == float(expected["mean"]) and data["jfleg_output"] == expected["printed"]
    assert data["signature"] == f"nrefs:4|order:4|iter:500|sampling:python2|version:{data['version']}"
    text = invoke(["gleu", *refs, "-i", src, "--source", src, "-f", "text", "--sampling", "python3"])
    assert text.stdout.startswith("GLEU|nrefs:4|order:4|iter:500|sampling:python3|")
    assert f"= {float(GOLDEN['results']['python3']['test-source']['mean']):.6f} (std = " in text.stdout
    short = tmp_path / "short"
    short.write_text("one line\n")
    bad = invoke(["gleu", *refs, "-i", str(short), "--source", src])
    assert bad.exit_code == 3 and bad.stderr.startswith(f"bleucli: error: {refs[0]}: has 747 lines")
    assert invoke(["gleu", *refs, "-i", src, "--source", src, "--sampling", "py2"]).exit_code == 2


def test_cli_sentence_level(tmp_path: Path) -> None:
    name = "dev-ref0-vs-refs123-sentences"
    _, hyp, refs, _, _ = GOLDEN["cases"][name]
    paths = {}
    for file in (hyp, *refs, "dev.src"):
        paths[file] = tmp_path / file
        paths[file].write_text("".join(line + "\n" for line in jfleg(file)), encoding="utf-8")
    args = ["gleu", *(str(paths[r]) for r in refs), "-i", str(paths[hyp]), "--source", str(paths["dev.src"]),
            "--sentence-level"]
    result = invoke(args)
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    expected = GOLDEN["results"]["python2"][name]
    assert [row["jfleg_output"] for row in rows] == expected["printed"]
    assert [repr(row["mean"]) for row in rows] == [s["mean"] for s in expected["sentences"]]
    assert [row["ci"] is None for row in rows] == [s["ci"] == ["nan", "nan"] for s in expected["sentences"]]
    text = invoke([*args, "-f", "text", "-w", "3"]).stdout.splitlines()
    assert len(text) == 754 and text[6] == "7\t0.642\t0.000\t[nan, nan]"


def test_cli_one_reference(tmp_path: Path) -> None:
    for file in ("dev.src", "dev.ref0", "dev.ref1"):
        (tmp_path / file).write_text("".join(line + "\n" for line in jfleg(file)), encoding="utf-8")
    result = invoke(["gleu", str(tmp_path / "dev.ref1"), "-i", str(tmp_path / "dev.ref0"),
                     "--source", str(tmp_path / "dev.src")])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    one = jfleg_gleu(jfleg("dev.ref0"), [jfleg("dev.ref1")], jfleg("dev.src"))
    assert data["unrounded_score"] == one.score and data["nrefs"] == "1"
    assert len(set(one.iterations)) == 1  # one reference: every sampling picks it (np.mean may round the mean)
    assert data["jfleg_output"][0] == "%f" % one.iterations[0]  # noqa: UP031 - what gleu.py prints
