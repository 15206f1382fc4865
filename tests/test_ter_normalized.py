"""TER with ``normalized=True`` equals sacreBLEU 2.6.0, which tokenizes references twice (issue 16.14).

sacreBLEU preprocesses each reference when it caches it and again when it
extracts its words; with Tercom normalization the second pass changes a
possessive ``'s`` before a comma or ``,.1``. Every path is checked on the
segments of ``tests/data`` where that happens: corpus statistics, corpus and
sentence scores, references given to the constructor, and the CLI's
``--ter-normalized`` with one and two workers. Values frozen by
``tests/golden/regenerate_ter_normalized.py``; the ``oracle`` tests recompute
them live.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleucli import TER, corpus_ter, sentence_ter
from conftest import invoke
from datasets import DATA, hypotheses, raw_bytes, set_file

GOLDEN = json.loads((Path(__file__).parent / "golden" / "ter_normalized.json").read_text(encoding="utf-8"))


def _id(case: dict) -> str:
    opts = ",".join(k for k, v in sorted(case["options"].items()) if v)
    return f"{case['set']}/{case['system']}/{len(case['refs'])}ref/{case['start']}-{case['stop']}/{opts}"


def _window(case: dict) -> tuple[list[str], list[list[str]]]:
    start, stop = case["start"], case["stop"]
    hyps = list(hypotheses(case["set"], case["system"])[start:stop])
    return hyps, [list(set_file(case["set"], rel)[start:stop]) for rel in case["refs"]]


def test_the_issue_example() -> None:
    assert sentence_ter(",.1", [",.1"], normalized=True).score == 66.66666666666666
    assert corpus_ter([",.1"], [[",.1"]], normalized=True).score == 66.66666666666666


@pytest.mark.parametrize("case", GOLDEN["strings"],
                         ids=[f"{c['hypothesis']!r}-{','.join(k for k, v in c['options'].items() if v)}"
                              for c in GOLDEN["strings"]])
def test_strings(case: dict, matcher: str) -> None:
    assert TER(**case["options"]).sentence_score(case["hypothesis"], case["references"]).score == case["score"]


def _fast_if_plain(cases: list[dict]) -> list:
    """The fast subset keeps ``normalized=True`` alone; its combinations with other options are slow."""
    return [pytest.param(c, id=_id(c), marks=[] if c["options"] == {"normalized": True} else [pytest.mark.slow])
            for c in cases]


@pytest.mark.parametrize("case", _fast_if_plain(GOLDEN["windows"]))
def test_windows_every_api_path(case: dict, matcher: str) -> None:
    hyps, refs = _window(case)
    metric = TER(**case["options"])
    assert metric.aggregate(metric.corpus_statistics(hyps, refs)) == case["statistics"]
    score = metric.corpus_score(hyps, refs)
    assert score.score == case["score"]
    assert str(score.signature).split("|version:")[0] == case["signature"].split("|version:")[0]
    cached = TER(**case["options"], references=refs)
    assert cached.corpus_score(hyps).score == case["score"]
    assert [metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)] == case["sentences"]
    if len(refs) == 1:
        assert [s.score for s in metric.sentence_scores(hyps, refs[0])] == [
            metric.sentence_score(h, refs[0]).score for h in hyps]


def _cli_score(tmp_path: Path, name: str, system: str, refs: list[str], jobs: int,
               options: list[str]) -> float:
    hyp = tmp_path / "hyp"
    hyp.write_bytes(raw_bytes(DATA / name / "sys" / f"{system}.{name.rsplit('-', 1)[1]}.gz"))
    ref_paths = []
    for k, rel in enumerate(refs):
        ref_paths.append(tmp_path / f"ref{k}")
        ref_paths[-1].write_bytes(raw_bytes(DATA / name / f"{rel}.gz"))
    result = invoke([*map(str, ref_paths), "-i", str(hyp), "-m", "ter", *options, "-j", str(jobs), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["unrounded_score"]


@pytest.mark.slow  # whole files through TER's shift search: seconds
@pytest.mark.parametrize("case", GOLDEN["full"], ids=[f"{c['set']}/{c['system']}" for c in GOLDEN["full"]])
def test_full_files(case: dict, matcher: str) -> None:
    hyps = list(hypotheses(case["set"], case["system"]))
    refs = [list(set_file(case["set"], rel)) for rel in case["refs"]]
    metric = TER(**case["options"])
    assert metric.aggregate(metric.corpus_statistics(hyps, refs)) == case["statistics"]
    assert metric.corpus_score(hyps, refs).score == case["score"]


@pytest.mark.slow  # whole files, twice, through the CLI
@pytest.mark.parametrize("jobs", [1, 2])
def test_cli_ter_normalized_full_file(tmp_path: Path, jobs: int) -> None:
    # ted-sk-en has 2,445 lines: two chunks, the changed segment 2267 in the second one
    case = next(c for c in GOLDEN["full"] if c["set"] == "ted-sk-en")
    assert _cli_score(tmp_path, "ted-sk-en", case["system"], case["refs"], jobs, ["--ter-normalized"]) \
        == case["score"]


def test_cli_ter_normalized_window(tmp_path: Path) -> None:
    case = next(c for c in GOLDEN["windows"] if c["set"] == "wmt17-en-de" and c["options"] == {"normalized": True})
    hyps, refs = _window(case)
    (tmp_path / "hyp").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "ref").write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    for jobs in ("1", "2"):
        result = invoke([str(tmp_path / "ref"), "-i", str(tmp_path / "hyp"), "-m", "ter", "--ter-normalized",
                         "-j", jobs, "-f", "json"])
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["unrounded_score"] == case["score"]
    result = invoke([str(tmp_path / "ref"), "-i", str(tmp_path / "hyp"), "-m", "ter", "--ter-normalized",
                     "-sl", "-f", "json"])
    assert [json.loads(line)["unrounded_score"] for line in result.stdout.splitlines()] == case["sentences"]


@pytest.mark.oracle
@pytest.mark.parametrize("case", _fast_if_plain(GOLDEN["windows"]))
def test_windows_against_sacrebleu(case: dict, matcher: str) -> None:
    metrics = pytest.importorskip("sacrebleu.metrics")
    hyps, refs = _window(case)
    oracle = metrics.TER(**case["options"])
    assert TER(**case["options"]).corpus_score(hyps, refs).score == oracle.corpus_score(hyps, refs).score
    for i, hyp in enumerate(hyps):
        seg_refs = [r[i] for r in refs]
        assert sentence_ter(hyp, seg_refs, **case["options"]).score == oracle.sentence_score(hyp, seg_refs).score


@pytest.mark.oracle
@pytest.mark.parametrize("options", [{"normalized": True}, {"normalized": True, "no_punct": True},
                                     {"normalized": True, "asian_support": True}, {}, {"no_punct": True}])
def test_short_strings_against_sacrebleu(options: dict, matcher: str) -> None:
    metrics = pytest.importorskip("sacrebleu.metrics")
    pieces = ["'s", ",", ".", "1", "a", " ", "'", "&quot;", "-", "中", "。"]
    oracle, ours = metrics.TER(**options), TER(**options)
    texts = [a + b + c for a in pieces for b in pieces for c in pieces]
    for ref in texts[::7]:
        for hyp in (ref, "a's , 1", ""):
            assert ours.sentence_score(hyp, [ref]).score == oracle.sentence_score(hyp, [ref]).score, (hyp, ref)
