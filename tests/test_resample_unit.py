"""``--resample-unit document``: resampling whole documents for -ci, -pbs, -par and compare.

With one segment per document the numbers must be segment resampling's,
exactly (only the signature's ``unit:doc`` differs); on a real set with
documents (WMT24++ en-ko, 170 documents of 997 segments, its doc ids frozen in
tests/data) the intervals must be wider, since segments of one document vary together.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from conftest import EXAMPLES, invoke, run_subprocess

REF = str(EXAMPLES / "ref.de")
SYSTEMS = [str(EXAMPLES / "Online-B.de"), str(EXAMPLES / "Lan-Bridge.de"), str(EXAMPLES / "ref2.de")]
SEGMENTS = 100
KO = Path(__file__).parent / "data" / "wmt24pp-en-ko"


def _lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def _json(args: list[str]) -> object:
    result = invoke(args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _without_unit(data: object) -> str:
    return json.dumps(data).replace("unit:doc|", "").replace('"unit": "doc", ', "")


@pytest.mark.parametrize("flag", ["-ci", "-pbs", "-par"])
def test_one_segment_per_document_equals_segment_resampling(tmp_path: Path, matcher: str, flag: str) -> None:
    """Every number of every metric (BLEU, chrF, TER and segment scores) is the same; the signature says unit:doc."""
    docids = _lines(tmp_path / "docs.txt", [f"doc{i}" for i in range(SEGMENTS)])
    scores = [_lines(tmp_path / f"s{k}.txt", [repr(0.5 + ((i * 7 + k) % 13) / 37) for i in range(SEGMENTS)])
              for k in range(3)]
    systems = SYSTEMS[:1] if flag == "-ci" else SYSTEMS
    common = [REF, "-i", *systems, "-m", "bleu", "chrf", "ter", "--segment-scores", "COMET",
              *scores[:len(systems)], flag, "-parn", "2000"]  # any number of trials: 2,000 is quicker
    by_segment = _json(common)
    by_document = _json([*common, "--resample-unit", "document", "--docids", docids])
    assert "unit:doc|" in json.dumps(by_document) and "unit:doc" not in json.dumps(by_segment)
    assert _without_unit(by_document) == json.dumps(by_segment)


def test_document_rows_sum_each_documents_segments_contiguous_or_not() -> None:
    from bleucli.significance.units import document_index, document_rows

    rows = [[1, 2], [3, 4], [5, 6], [7, 8.5]]
    index = document_index(["b", "a", "b", "c"], 4)
    assert index == [[0, 2], [1], [3]]
    assert document_rows(rows, index) == [[6, 8], [3, 4], [7, 8.5]]


def _ko_files(tmp_path: Path) -> tuple[str, str, str]:
    paths = []
    for name in ("ref.ko", "ref2.ko", "docids.txt"):
        target = tmp_path / name
        target.write_bytes(gzip.decompress((KO / f"{name}.gz").read_bytes()))
        paths.append(str(target))
    return paths[0], paths[1], paths[2]


def test_documents_widen_the_intervals_on_a_real_set(tmp_path: Path, matcher: str) -> None:
    """WMT24++ en-ko, the pre-edit translation scored against the post-edited reference: every metric's
    95% interval is wider when whole documents are drawn."""
    ref, hyp, docids = _ko_files(tmp_path)
    common = [ref, "-i", hyp, "-m", "bleu", "chrf", "ter", "-tok", "13a", "-ci"]
    by_segment = _json(common)
    by_document = _json([*common, "--resample-unit", "document", "--docids", docids])
    for seg, doc in zip(by_segment, by_document):
        assert doc["unrounded_score"] == seg["unrounded_score"]
        assert doc["ci"] > 1.4 * seg["ci"], (seg["name"], seg["ci"], doc["ci"])


def test_compare_resamples_documents_as_the_scoring_command(tmp_path: Path) -> None:
    docids = _lines(tmp_path / "docs.txt", [f"d{i // 7}" for i in range(SEGMENTS)])
    paired = _json([REF, "-i", *SYSTEMS, "-pbs", "--resample-unit", "document", "--docids", docids])
    result = invoke(["compare", REF, "-i", *SYSTEMS, "--docids", docids, "--resample-unit", "document",
                     "--json", "-"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["resample_unit"] == "document"
    for k, entry in enumerate(report["systems"]):
        assert entry["metrics"]["BLEU"]["p_value"] == paired[k]["BLEU"]["p_value"]
        assert entry["metrics"]["BLEU"]["ci"] == paired[k]["BLEU"]["ci"]
    # the pairwise p-values too: system 1 against system 2 as -pbs with system 1 as the baseline
    pair = _json([REF, "-i", *SYSTEMS[1:], "-pbs", "--resample-unit", "document", "--docids", docids])
    assert report["pairwise_p_values"][1][2] == pair[1]["BLEU"]["p_value"]
    plain = invoke(["compare", REF, "-i", *SYSTEMS, "--docids", docids, "--json", "-"])
    assert json.loads(plain.stdout)["resample_unit"] == "segment"


@pytest.mark.parametrize(("extra", "code", "says"), [
    (["-ci", "--resample-unit", "document"], 2, "--docids FILE"),
    (["--resample-unit", "document", "--docids", "DOCS"], 2, "applies to -ci, -pbs and -par"),
    (["-ci", "--docids", "DOCS"], 2, "--resample-unit document"),
    (["-ci", "--resample-unit", "document", "--docids", "SHORT"], 3, "has 99 doc ids for 100 segments"),
    (["-ci", "--resample-unit", "document", "--docids", "EMPTY"], 3, ":5: empty doc id"),
])
def test_document_errors(tmp_path: Path, extra: list[str], code: int, says: str) -> None:
    files = {"DOCS": _lines(tmp_path / "docs.txt", ["a"] * SEGMENTS),
             "SHORT": _lines(tmp_path / "short.txt", ["a"] * (SEGMENTS - 1)),
             "EMPTY": _lines(tmp_path / "empty.txt", ["a"] * 4 + [""] + ["b"] * (SEGMENTS - 5))}
    args = [REF, "-i", SYSTEMS[0], *[files.get(word, word) for word in extra]]
    result = invoke(args)
    assert result.exit_code == code and says in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_document_resampling_in_a_real_process(tmp_path: Path) -> None:
    docids = _lines(tmp_path / "docs.txt", [f"d{i // 10}" for i in range(SEGMENTS)])
    result = run_subprocess([REF, "-i", *SYSTEMS[:2], "-par", "-parn", "500", "--resample-unit", "document",
                             "--docids", docids, "-f", "text"])
    assert result.returncode == 0, result.stderr
    assert b"ar:500|seed:12345|unit:doc|" in result.stdout


def test_merge_resamples_documents_as_the_scoring_command(tmp_path: Path) -> None:
    """Shards of per-segment statistics, merged with --docids, give the single run's document resampling."""
    docids = _lines(tmp_path / "docs.txt", [f"d{i // 7}" for i in range(SEGMENTS)])
    ref_lines = Path(REF).read_text(encoding="utf-8").splitlines()
    shards = []
    for start in (0, 60):
        stop = 60 if start == 0 else SEGMENTS
        ref = _lines(tmp_path / f"ref{start}", ref_lines[start:stop])
        hyps = [_lines(tmp_path / f"h{k}-{start}", Path(s).read_text(encoding="utf-8").splitlines()[start:stop])
                for k, s in enumerate(SYSTEMS[:2])]
        shard = str(tmp_path / f"shard{start}.json")
        result = invoke(["stats", ref, "-i", *hyps, "--per-segment", "--offset", str(start), "-o", shard])
        assert result.exit_code == 0, result.stderr
        shards.append(shard)
    merged = _json(["merge", *shards, "-pbs", "--resample-unit", "document", "--docids", docids])
    single = _json([REF, "-i", *SYSTEMS[:2], "-pbs", "--resample-unit", "document", "--docids", docids])
    for ours, theirs in zip(merged, single):
        assert {k: v for k, v in ours["BLEU"].items()} == {k: v for k, v in theirs["BLEU"].items()}
    result = invoke(["merge", *shards, "-pbs", "--resample-unit", "document"])
    assert result.exit_code == 2 and "--docids FILE" in result.stderr


@pytest.mark.slow  # three real systems of 2,037 segments, twice
def test_documents_widen_paired_intervals_of_real_mt_systems(tmp_path: Path) -> None:
    """WMT22 en-zh (181 documents): for every system and metric the document bootstrap's interval is
    wider, and its p-values are never smaller than the segment bootstrap's for these systems."""
    zh = Path(__file__).parent / "data" / "wmt22-en-zh"
    files = {}
    for name in ("ref.zh", "sys/Online-B.zh", "sys/JDExploreAcademy.zh", "sys/HuaweiTSC.zh", "docids.txt"):
        target = tmp_path / name.replace("/", "-")
        target.write_bytes(gzip.decompress((zh / f"{name}.gz").read_bytes()))
        files[name] = str(target)
    systems = [files["sys/Online-B.zh"], files["sys/JDExploreAcademy.zh"], files["sys/HuaweiTSC.zh"]]
    common = [files["ref.zh"], "-i", *systems, "-m", "bleu", "chrf", "-tok", "zh", "-pbs"]
    by_segment = _json(common)
    by_document = _json([*common, "--resample-unit", "document", "--docids", files["docids.txt"]])
    for seg, doc in zip(by_segment, by_document):
        for metric in ("BLEU", "chrF2"):
            assert doc[metric]["score"] == seg[metric]["score"]
            assert doc[metric]["ci"] > 1.5 * seg[metric]["ci"], (seg["system"], metric)
            if seg[metric]["p_value"] is not None:
                assert doc[metric]["p_value"] >= seg[metric]["p_value"], (seg["system"], metric)
