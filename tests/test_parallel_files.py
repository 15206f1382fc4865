"""``--jobs`` on plain files: workers read their own line ranges (bleucli.input.ranges).

Everything the streaming reader does must hold when the input is cut into
byte ranges: the same lines (CRLF, a BOM, no final newline, empty lines),
the same statistics, and the same errors and warnings naming the same lines.
"""

from __future__ import annotations

import gc
import gzip
import os
import random
from pathlib import Path
from typing import Any

import pytest

import datasets
from bleucli import BLEU, CHRF, TER
from bleucli.engine import partition, streaming
from bleucli.engine.executor import Workers
from bleucli.errors import InputError, LengthMismatchError
from bleucli.input.ranges import LineRange, aligned_ranges, index_lines, read_range
from bleucli.input.reading import FileLines, iter_lines
from conftest import invoke

NAME = "wmt22-en-de"


def write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def real_files(tmp_path: Path, n_systems: int = 3) -> tuple[list[str], list[str]]:
    """Plain-text copies of real WMT22 en-de systems and both references."""
    refs = [write(tmp_path / p.name[:-3], datasets.raw_bytes(p)) for p in datasets.reference_paths(NAME)]
    systems = [write(tmp_path / p.name[:-3], datasets.raw_bytes(p)) for p in datasets.system_paths(NAME)[:n_systems]]
    return systems, refs


@pytest.mark.parametrize("ending", [b"\n", b"", b"\r\n"])
@pytest.mark.parametrize("step", [1, 2, 3, 7, 1000])
def test_index_matches_the_reader(tmp_path: Path, ending: bytes, step: int) -> None:
    rng = random.Random(step)
    for trial in range(20):
        lines = [rng.choice([b"", b"a", b"b c", "\u00e9t\u00e9".encode(), b"x\r", b"  "]) * rng.randint(0, 3)
                 for _ in range(rng.randint(0, 40))]
        data = (ending.join(lines) + (ending if lines and trial % 2 else b"")) if lines else b""
        path = write(tmp_path / f"f{trial}.txt", data)
        index = index_lines(path, step)
        expected = list(iter_lines(path))
        assert index.lines == len(expected)
        if not expected:
            continue
        ranges = aligned_ranges([index], 1)
        assert [r[0].first_line for r in ranges] == list(range(1, len(expected) + 1, step))
        assert [line for (r,) in ranges for line in read_range(r, "utf-8")] == expected
        # grouped ranges cover the same lines
        assert [line for (r,) in aligned_ranges([index], 3) for line in read_range(r, "utf-8")] == expected


@pytest.mark.slow  # three metrics on three full WMT22 systems, twice (-j 2 is also run on real files below)
@pytest.mark.parametrize("range_lines", [1, 97, 1000])
def test_workers_reading_files_equal_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 range_lines: int) -> None:
    monkeypatch.setattr(partition, "RANGE_LINES", range_lines)
    systems, refs = real_files(tmp_path)
    names = [Path(p).name for p in systems]
    for metrics in ([BLEU()], [BLEU(tokenize="intl"), CHRF(word_order=2), TER()]):
        serial = streaming.score_streams_multi(metrics, [FileLines(p) for p in systems], [FileLines(p) for p in refs],
                                               names, refs)
        parallel = streaming.score_streams_multi(metrics, [FileLines(p) for p in systems],
                                                 [FileLines(p) for p in refs], names, refs, jobs=2)
        assert [[s.to_dict() for s in row] for row in parallel] == [[s.to_dict() for s in row] for row in serial]
        first_system = datasets.systems(NAME)[datasets.system_name(datasets.system_paths(NAME)[0])]
        assert parallel[0][0].score == metrics[0].corpus_score(first_system, datasets.references(NAME)).score


def test_bom_crlf_and_missing_final_newline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partition, "RANGE_LINES", 2)
    ref = write(tmp_path / "ref", "\ufeffDer Hund .\r\nEine Katze\r\n\r\nzwei Vögel\r\nEnde".encode())
    hyp = write(tmp_path / "hyp", b"Der Hund.\nEine Katze!\n\nzwei Vogel\nEnde\n")
    results = []
    for jobs in (1, 2):
        notices: list[str] = []
        (score,) = streaming.score_streams(BLEU(), [FileLines(hyp, notices=notices)],
                                           [FileLines(ref, notices=notices)], ["hyp"], ["ref"], jobs=jobs)
        results.append((score.to_dict(), notices))
    assert results[0] == results[1]
    assert len(results[0][1]) == 1 and "byte order mark" in results[0][1][0]


def test_decoding_error_names_the_line_in_a_later_range(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partition, "RANGE_LINES", 3)
    ref = write(tmp_path / "ref", b"".join(b"line %d\n" % i for i in range(1, 21)))
    hyp = write(tmp_path / "hyp", b"".join(b"line %d\n" % i if i != 14 else b"bad \xff\n" for i in range(1, 21)))
    messages = []
    for jobs in (1, 2):
        with pytest.raises(InputError) as caught:
            streaming.score_streams(BLEU(), [FileLines(hyp)], [FileLines(ref)], ["hyp"], ["ref"], jobs=jobs)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert "14" in messages[0] and "hyp" in messages[0]


def test_nul_byte_is_reported_in_workers_too(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref", b"a\nb\nc\n")
    hyp = write(tmp_path / "hyp", b"a\nb\x00\nc\n")
    messages = []
    for jobs in (1, 2):
        with pytest.raises(InputError, match="NUL") as caught:
            streaming.score_streams(BLEU(), [FileLines(hyp)], [FileLines(ref)], ["hyp"], ["ref"], jobs=jobs)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def test_unequal_and_empty_files_are_refused_before_scoring(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref", b"a\nb\nc\n")
    short = write(tmp_path / "short", b"a\nb\n")
    empty = write(tmp_path / "empty", b"")
    for jobs in (1, 2):
        with pytest.raises(LengthMismatchError, match="hypothesis short has 2 lines but reference ref has 3"):
            streaming.score_streams(BLEU(), [FileLines(short)], [FileLines(ref)], ["short"], ["ref"], jobs=jobs)
        with pytest.raises(InputError, match="is empty, but reference ref has 3 lines"):
            streaming.score_streams(BLEU(), [FileLines(empty)], [FileLines(ref)], ["empty"], ["ref"], jobs=jobs)
        with pytest.raises(InputError, match=r"is empty \(and so is ref\)"):
            streaming.score_streams(BLEU(), [FileLines(empty)], [FileLines(empty)], ["empty"], ["ref"], jobs=jobs)


def test_cli_warnings_and_output_do_not_depend_on_jobs(tmp_path: Path) -> None:
    lines = [f"Satz Nummer {i} ." for i in range(150)]  # tokenized periods: the CLI warns
    ref = write(tmp_path / "ref.txt", "\n".join(lines).encode())
    hyp = write(tmp_path / "hyp.txt", "\n".join(line.replace("Nummer", "Nr.") for line in lines).encode())
    results = [invoke([ref, "-i", hyp, "-j", str(jobs)]) for jobs in (1, 2)]
    assert results[0].exit_code == results[1].exit_code == 0
    assert results[0].stdout == results[1].stdout
    assert results[0].stderr == results[1].stderr and "tokenized period" in results[0].stderr


def test_cli_bad_input_with_jobs_is_one_line_and_exit_3(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.txt", b"a b\n" * 5000)
    hyp = write(tmp_path / "hyp.txt", b"a b\n" * 4000 + b"a \xfe\n" + b"a b\n" * 999)
    result = invoke([ref, "-i", hyp, "-j", "2"])
    assert result.exit_code == 3
    assert result.stderr.strip().count("\n") == 0 and "4001" in result.stderr and "hyp.txt" in result.stderr


def test_stdin_and_gzip_still_use_the_parent_reader(tmp_path: Path) -> None:
    systems, refs = real_files(tmp_path, 1)
    gz = tmp_path / "sys.gz"
    gz.write_bytes(gzip.compress(Path(systems[0]).read_bytes()))
    assert not FileLines(str(gz)).seekable() and FileLines(systems[0]).seekable()
    outputs = {invoke([refs[0], "-i", str(gz), "-j", "2"]).stdout,
               invoke([refs[0], "-j", "2"], input=Path(systems[0]).read_bytes()).stdout,
               invoke([refs[0], "-i", systems[0], "-j", "2"]).stdout}
    assert len(outputs) == 1


def test_line_range_reads_exactly_its_bytes(tmp_path: Path) -> None:
    path = write(tmp_path / "f", b"one\ntwo\nthree\n")
    assert read_range(LineRange(path, 4, 8, 2), "utf-8") == ["two"]
    assert read_range(LineRange(path, 8, 14, 3), "utf-8") == ["three"]


# --- one line range per process, this process scoring the first (Workers.split) --------------------------------

_PIDS: list[int] = []


class _RecordingBLEU(BLEU):
    """BLEU noting which process scores each chunk (only this process's list is seen here)."""

    def chunk_statistics(self, systems, references):  # type: ignore[no-untyped-def]
        _PIDS.append(os.getpid())
        return super().chunk_statistics(systems, references)


def test_parent_scores_the_first_range_and_a_child_the_rest(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref", b"".join(b"the line %d is here\n" % i for i in range(5000)))
    hyp = write(tmp_path / "hyp", b"".join(b"the line %d was here\n" % (i * 7 % 5000) for i in range(5000)))
    _PIDS.clear()
    (serial,) = streaming.score_streams(_RecordingBLEU(), [FileLines(hyp)], [FileLines(ref)], ["hyp"], ["ref"])
    _PIDS.clear()
    (parallel,) = streaming.score_streams(_RecordingBLEU(), [FileLines(hyp)], [FileLines(ref)], ["hyp"], ["ref"],
                                          jobs=2)
    assert parallel.to_dict() == serial.to_dict()
    # this process scored its half (2,500 lines: two chunks), the other half was scored elsewhere
    assert _PIDS == [os.getpid()] * 2


def test_too_long_segment_in_a_later_chunk_of_the_second_range(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partition, "RANGE_LINES", 100)  # 50 marks: ranges of lines 1-2500 and 2501-5000
    long = b" ".join(b"w%d" % k for k in range(40))
    ref = write(tmp_path / "ref", b"a b c\n" * 5000)
    hyp = write(tmp_path / "hyp", b"a b c\n" * 4799 + long + b"\n" + b"a b c\n" * 200)
    messages = []
    for jobs in (1, 2):
        with pytest.raises(InputError) as caught:
            streaming.score_streams(TER(max_words=30), [FileLines(hyp)], [FileLines(ref)], ["hyp"], ["ref"],
                                    jobs=jobs)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and messages[0].startswith("hyp:4800: TER: hypothesis of 40 words")


def test_rows_and_sentences_of_workers_reading_files_equal_one_process(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """stream_rows and sentence scores take the file-range path with -j 2, with the same rows and errors."""
    monkeypatch.setattr(partition, "RANGE_LINES", 50)
    random.seed(7)
    words = "the a house is small big . , it was".split()
    ref = write(tmp_path / "ref", "".join(" ".join(random.choices(words, k=8)) + "\n" for _ in range(3000)).encode())
    hyp = write(tmp_path / "hyp", "".join(" ".join(random.choices(words, k=7)) + "\n" for _ in range(3000)).encode())
    metrics = [BLEU(), CHRF(), TER()]

    def rows(jobs: int) -> Any:
        streams = streaming.Streams(["hyp"], [FileLines(hyp)], ["ref"], [FileLines(ref)])
        return streaming.stream_rows(metrics, streams, jobs)

    def sentences(jobs: int) -> list[Any]:
        streams = streaming.Streams(["hyp"], [FileLines(hyp)], ["ref"], [FileLines(ref)])
        return [s.score for s in streaming.parallel_sentence_scores(BLEU(effective_order=True), streams, jobs)]

    calls: list[int] = []
    original = partition._range_parts
    monkeypatch.setattr(partition, "_range_parts", lambda *args: calls.append(1) or original(*args))
    assert rows(2) == rows(1) and sentences(2) == sentences(1)
    assert calls == [1, 1]  # -j 2: both read by the tasks themselves
    long = b" ".join(b"w%d" % k for k in range(40))
    hyp = write(tmp_path / "hyp", b"a b c\n" * 2799 + long + b"\n" + b"a b c\n" * 200)
    ref = write(tmp_path / "ref", b"a b c\n" * 3000)
    messages = []
    for jobs in (1, 2):
        with pytest.raises(InputError) as caught:
            streaming.stream_rows([TER(max_words=30)], streaming.Streams(["hyp"], [FileLines(hyp)], ["ref"],
                                                                         [FileLines(ref)]), jobs)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and messages[0].startswith("hyp:2800: TER: hypothesis of 40 words")


def _part(context: dict[str, Any], value: int) -> tuple[int, int]:
    if value < 0:
        raise InputError("a bad part", "file", -value)
    return context["scale"](value), os.getpid()


def test_workers_split_runs_the_first_part_here_and_keeps_order() -> None:
    context = {"scale": lambda value: value * 10}  # not picklable: reaches the children by fork
    with Workers(context, jobs=3) as workers:
        assert workers.forks
        results = workers.split(_part, [(1,), (2,), (3,)])
        assert [value for value, _ in results] == [10, 20, 30]
        assert results[0][1] == os.getpid() and len({pid for _, pid in results}) == 3
        with pytest.raises(InputError, match="file:7: a bad part"):  # the first failed part's error
            workers.split(_part, [(1,), (-7,), (-9,)])
        with pytest.raises(InputError, match="file:5: a bad part"):  # this process's own part failing
            workers.split(_part, [(-5,), (2,), (3,)])
        assert gc.get_freeze_count() == 0  # frozen for the forks only, even when a part failed
    with Workers(context, jobs=1) as workers:  # one worker: everything here
        assert not workers.forks
        assert workers.split(_part, [(1,), (2,)]) == [(10, os.getpid()), (20, os.getpid())]


# --- cut at byte offsets, each part finding its own lines (no index pass; inputs of SPLIT_MIN_BYTES and more) ---


@pytest.mark.parametrize("jobs", [2, 3])
@pytest.mark.parametrize("ending", [b"\n", b"", b"\r\n"])
def test_byte_cut_parts_equal_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int,
                                          ending: bytes) -> None:
    monkeypatch.setattr(partition, "SPLIT_MIN_BYTES", 0)
    rng = random.Random(jobs)
    words = ["der", "Hund", "bellt", ".", "eine", "Katze", "schläft", "", "1,5", "Vögel"]
    lines = [[" ".join(rng.choice(words) for _ in range(rng.randint(0, 12))) for _ in range(3000)]
             for _ in range(3)]  # two systems, one reference: lines of unrelated lengths in each file
    for column in lines:
        column[-1] = "Ende"  # an empty last line without a final newline would be no line
    paths = [write(tmp_path / f"f{k}", (ending or b"\n").join(line.encode() for line in column) + ending)
             for k, column in enumerate(lines)]
    metrics = [BLEU(), CHRF(), TER()]
    runs = [streaming.score_streams_multi(metrics, [FileLines(p) for p in paths[:2]], [FileLines(paths[2])],
                                          ["a", "b"], ["r"], jobs=j) for j in (1, jobs)]
    assert [[s.to_dict() for s in row] for row in runs[1]] == [[s.to_dict() for s in row] for row in runs[0]]


@pytest.mark.parametrize("where", ["first part", "last part", "longer"])
def test_byte_cut_parts_report_unequal_files_with_full_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              where: str) -> None:
    monkeypatch.setattr(partition, "SPLIT_MIN_BYTES", 0)
    ref_lines = 4000 if where != "longer" else 3000
    ref = write(tmp_path / "ref", b"ein langer Satz hier\n" * ref_lines)
    hyp_lines = {"first part": 1000, "last part": 3000, "longer": 3999}[where]
    hyp = write(tmp_path / "hyp", b"a b\n" * hyp_lines)  # short lines: the cut in hyp falls early in ref
    messages = []
    for jobs in (1, 2):
        with pytest.raises(LengthMismatchError) as caught:
            streaming.score_streams(BLEU(), [FileLines(hyp)], [FileLines(ref)], ["hyp"], ["ref"], jobs=jobs)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == f"hypothesis hyp has {hyp_lines} lines but reference ref has {ref_lines}"


def test_byte_cut_errors_name_lines_of_later_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partition, "SPLIT_MIN_BYTES", 0)
    ref = write(tmp_path / "ref", "\ufeff".encode() + b"".join(b"line %d\n" % i for i in range(1, 5001)))
    for bad, line in ((b"bad \xff", 4321), (b"x" * 300, 4500)):
        hyp = write(tmp_path / "hyp", b"".join(b"line %d\n" % i if i != line else bad + b"\n" for i in range(1, 5001)))
        messages = []
        for jobs in (1, 2):
            with pytest.raises(InputError) as caught:
                streaming.score_streams(BLEU(), [FileLines(hyp, max_line_bytes=200)],
                                        [FileLines(ref, max_line_bytes=200)], ["hyp"], ["ref"], jobs=jobs)
            messages.append(str(caught.value))
        assert messages[0] == messages[1] and messages[0].startswith(f"{hyp}:{line}: ")
    notices: list[str] = []
    (score,) = streaming.score_streams(BLEU(), [FileLines(ref)], [FileLines(ref, notices=notices)], ["h"], ["r"],
                                       jobs=2)
    assert score.counts == score.totals and score.sys_len == 10_000  # lines of two tokens: no 3-grams
    assert len(notices) == 1 and "byte order mark" in notices[0]
