"""``--aligned FILE --columns HYP,REF...``: one TSV/JSONL file of segments gives what the plain files give.

Real WMT21 en-de data (three references, so TER's average reference length is a
float with thirds) written as a TSV and a JSON-lines file. With ``-j 2`` and on
a Dask ``LocalCluster`` of two workers the tasks read the file in partitions
(line ranges) themselves; corpus scores, ``-sl`` per-line scores (in input
order) and ``bleucli stats`` shards must equal the single-process run on the
plain files, byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import invoke
from datasets import DATA, lines

SET = DATA / "wmt21-en-de"
METRICS = ["-m", "bleu", "chrf", "ter"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Plain files (hypothesis, three references), the same segments as TSV (an id first) and as JSONL."""
    folder = tmp_path_factory.mktemp("aligned")
    hyp = lines(SET / "sys" / "Online-W.de.gz")
    refs = [lines(SET / name) for name in ("ref.de.gz", "ref2.de.gz", "ref3.de.gz")]
    out = {}
    for name, column in (("hyp", hyp), ("ref1", refs[0]), ("ref2", refs[1]), ("ref3", refs[2])):
        (folder / name).write_text("\n".join(column) + "\n", encoding="utf-8")
        out[name] = str(folder / name)
    rows = list(zip(hyp, *refs))
    assert not any("\t" in field for row in rows for field in row)
    (folder / "data.tsv").write_text("".join(f"{k}\t{h}\t{a}\t{b}\t{c}\n" for k, (h, a, b, c) in enumerate(rows)),
                                     encoding="utf-8")
    (folder / "data.jsonl").write_text("".join(json.dumps({"id": k, "mt": h, "refs_a": a, "refs_b": b, "refs_c": c},
                                                          ensure_ascii=False) + "\n"
                                               for k, (h, a, b, c) in enumerate(rows)), encoding="utf-8")
    out["tsv"], out["jsonl"] = str(folder / "data.tsv"), str(folder / "data.jsonl")
    return out


def _plain(files: dict[str, str], *args: str) -> str:
    result = invoke([files["ref1"], files["ref2"], files["ref3"], "-i", files["hyp"], *args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _aligned(files: dict[str, str], kind: str, *args: str) -> str:
    columns = "2,3,4,5" if kind == "tsv" else "mt,refs_a,refs_b,refs_c"
    result = invoke(["--aligned", files[kind], "--columns", columns, *args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_corpus_scores_equal_the_plain_files(files: dict[str, str], jobs: str) -> None:
    expected = _plain(files, *METRICS)
    for kind in ("tsv", "jsonl"):
        assert _aligned(files, kind, *METRICS, "-j", jobs) == expected, kind


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["bleu", "chrf"])
def test_sentence_scores_in_partitions_equal_the_single_process(files: dict[str, str], metric: str) -> None:
    expected = _plain(files, "-m", metric, "-sl", "-f", "json")
    assert len(expected.splitlines()) == 1002
    assert _aligned(files, "tsv", "-m", metric, "-sl", "-f", "json", "-j", "2") == expected
    assert _aligned(files, "jsonl", "-m", metric, "-sl", "-f", "json", "-j", "2") == expected
    assert _plain(files, "-m", metric, "-sl", "-f", "json", "-j", "2") == expected  # chunks sent by the parent


@pytest.mark.slow
def test_stats_shards_of_an_aligned_file_merge_to_the_single_run(files: dict[str, str], tmp_path: Path) -> None:
    expected = _plain(files, *METRICS)
    shard = tmp_path / "shard.json"
    made = invoke(["stats", "--aligned", files["jsonl"], "--columns", "mt,refs_a,refs_b,refs_c", *METRICS,
                   "-j", "2", "-o", str(shard)])
    assert made.exit_code == 0, made.stderr
    assert list(json.loads(shard.read_text())["input_sha256"]) == [files["jsonl"]]
    assert invoke(["merge", str(shard)]).stdout == expected


@pytest.mark.dask
@pytest.mark.slow
def test_a_local_cluster_reads_partitions_and_gives_the_single_process_result(files: dict[str, str],
                                                                              tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    expected = _plain(files, *METRICS)
    assert _aligned(files, "tsv", *METRICS, "--dask", "local:2") == expected
    sentences = _plain(files, "-m", "ter", "-sl", "-f", "json")
    assert _aligned(files, "jsonl", "-m", "ter", "-sl", "-f", "json", "--dask", "local:2") == sentences
    shard = tmp_path / "shard.json"
    made = invoke(["stats", "--aligned", files["tsv"], "--columns", "2,3,4,5", *METRICS, "--dask", "local:2",
                   "-o", str(shard)])
    assert made.exit_code == 0, made.stderr
    assert invoke(["merge", str(shard)]).stdout == expected


def test_default_columns_and_bad_rows(tmp_path: Path) -> None:
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("the cat sat\tthe cat sat\nhello\thello world\n", encoding="utf-8")
    jsonl = tmp_path / "pairs.jsonl"
    jsonl.write_text('{"hyp": "the cat sat", "ref": "the cat sat"}\n{"hyp": "hello", "ref": "hello world"}\n',
                     encoding="utf-8")
    ref, hyp = tmp_path / "ref", tmp_path / "hyp"
    ref.write_text("the cat sat\nhello world\n", encoding="utf-8")
    hyp.write_text("the cat sat\nhello\n", encoding="utf-8")
    plain = invoke([str(ref), "-i", str(hyp), "-b"])
    assert invoke(["--aligned", str(tsv), "-b"]).stdout == plain.stdout  # TSV default: 1,2
    assert invoke(["--aligned", str(jsonl), "-b"]).stdout == plain.stdout  # JSONL default: hyp,ref

    def error(args: list[str]) -> tuple[int, str]:
        result = invoke(args)
        return result.exit_code, result.stderr.strip()

    assert error(["--aligned", str(tsv), "--columns", "1,3"]) == (
        3, f"bleucli: error: {tsv}:1: expected at least 3 tab-separated fields, found 2")
    assert error(["--aligned", str(jsonl), "--columns", "hyp,refs"]) == (
        3, f"bleucli: error: {jsonl}:1: key 'refs' is missing")
    jsonl.write_text('{"hyp": "a", "ref": "a"}\n{"hyp": "b", "ref": 7}\n', encoding="utf-8")
    assert error(["--aligned", str(jsonl)]) == (3, f"bleucli: error: {jsonl}:2: key 'ref' is a int, not a string")
    jsonl.write_text('{"hyp": "a", "ref": "a"}\n["b"]\n', encoding="utf-8")
    assert error(["--aligned", str(jsonl)]) == (3, f"bleucli: error: {jsonl}:2: expected a JSON object")
    for args in (["--aligned", str(tsv), "-i", str(hyp)], ["--aligned", str(tsv), str(ref)],
                 ["--columns", "1,2", str(ref), "-i", str(hyp)], ["--aligned", str(tsv), "--columns", "hyp,ref"],
                 ["--aligned", str(tsv), "--columns", "1"], ["--aligned", str(tsv), "--columns", "1,1"]):
        code, message = error(args)
        assert code == 2 and message.count("\n") == 0, (args, message)


@pytest.mark.slow
def test_a_too_long_ter_segment_in_a_partition_is_named_and_nothing_printed(tmp_path: Path) -> None:
    """The partition that fails is found in order: its file and line, exit 3, no score on stdout."""
    tsv = tmp_path / "pairs.tsv"
    rows = ["a b c\ta b d"] * 2500 + ["w " * 30 + "\tshort"] + ["a b\ta b"] * 10
    tsv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    for extra in ([], ["-j", "2"]):
        for mode in ([], ["-sl"]):
            result = invoke(["--aligned", str(tsv), "-m", "ter", "--ter-max-words", "20", *mode, *extra])
            assert result.exit_code == 3, (extra, mode, result.stderr)
            assert result.stdout == ""
            assert result.stderr.startswith(f"bleucli: error: {tsv} (column 1):2501: TER: hypothesis of 30 words")
