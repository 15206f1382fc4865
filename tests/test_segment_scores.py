"""``--segment-scores NAME FILE...``: any metric's segment scores as a metric whose score is their mean.

The numbers are checked against sacreBLEU's own significance code applied to a
sacreBLEU metric whose score is the mean of the same numbers (an oracle test,
skipped without sacrebleu), and every kind of bad score file must be exit 3
with one line naming the file (and the line, when there is one).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
from pathlib import Path

import pytest

from conftest import EXAMPLES, invoke, run_subprocess

REF = str(EXAMPLES / "ref.de")
SYSTEMS = [str(EXAMPLES / "Online-B.de"), str(EXAMPLES / "Lan-Bridge.de"), str(EXAMPLES / "ref2.de")]
SEGMENTS = 100


def _scores(seed: int, shift: float = 0.0) -> list[float]:
    """COMET-like segment scores (full double precision, some negative)."""
    rng = random.Random(seed)
    return [rng.gauss(0.78 + shift, 0.12) for _ in range(SEGMENTS)]


def _write(path: Path, scores: list[float], kind: str = "plain") -> str:
    if kind == "plain":
        path.write_text("".join(f"{s!r}\n" for s in scores))
    elif kind == "jsonl":
        path.write_text("".join(json.dumps({"score": s, "id": i}) + "\n" for i, s in enumerate(scores)))
    return str(path)


@pytest.fixture
def score_files(tmp_path: Path) -> tuple[list[str], list[list[float]]]:
    values = [_scores(1), _scores(2, 0.01), _scores(3, -0.05)]
    return [_write(tmp_path / f"s{k}.txt", v) for k, v in enumerate(values)], values


def _json(args: list[str]) -> object:
    result = invoke(args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_corpus_score_is_the_mean_and_the_signature_names_the_files(score_files: tuple) -> None:
    files, values = score_files
    data = _json([REF, "-i", *SYSTEMS, "--segment-scores", "COMET", *files])
    for entry, scores in zip(data, values):
        comet = entry["scores"]["COMET"]
        total = 0.0
        for s in scores:  # left to right, as sacreBLEU sums statistics
            total += s
        assert comet["unrounded_score"] == total / len(scores)
        assert comet["segments"] == SEGMENTS and comet["sum"] == total
    digests = ",".join(hashlib.sha256(Path(f).read_bytes()).hexdigest()[:12] for f in files)
    signature = data[0]["scores"]["COMET"]["signature"]
    assert f"|scores:{digests}|agg:mean|" in signature and signature.startswith("nrefs:1|")


def test_unrounded_score_and_formats_agree(tmp_path: Path) -> None:
    """A number a line, JSON lines and COMET's --to_json give the same mean (the exact float)."""
    from bleucli.metrics.segment_scores import read_score_file

    scores = _scores(5)
    plain = _write(tmp_path / "a.txt", scores)
    jsonl = _write(tmp_path / "a.jsonl", scores, "jsonl")
    comet = tmp_path / "comet.json"
    entries = [{"src": "s", "mt": "m", "ref": "r", "COMET": s} for s in scores]
    comet.write_text(json.dumps({"sys/Online-B.de": entries, "sys/Lan-Bridge.de": entries[::-1]}, indent=4))
    assert read_score_file(plain).scores == scores
    assert read_score_file(jsonl).scores == scores
    assert read_score_file(str(comet), "Online-B.de").scores == scores
    assert read_score_file(str(comet), "elsewhere/Lan-Bridge.de").scores == scores[::-1]
    with pytest.raises(Exception, match="holds the segments of 2 systems"):
        read_score_file(str(comet), "PROMT.de")


def test_ci_pbs_par_and_lower_is_better_through_the_cli(score_files: tuple) -> None:
    files, _ = score_files
    ci = _json([REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", files[0], "-ci", "-w", "4"])
    comet = [record for record in ci if record["name"] == "COMET"][0]
    assert comet["signature"].startswith("nrefs:1|bs:1000|seed:12345|scores:")
    for flag in ("-pbs", "-par"):
        data = _json([REF, "-i", *SYSTEMS, "--segment-scores", "MQM", *files, "--lower-is-better", "MQM", flag,
                      "-parn", "2000"])
        assert data[1]["MQM"]["p_value"] is not None
    from bleucli.metrics import registry

    assert registry.for_score("MQM").lower_is_better
    assert not registry.for_score("COMET").lower_is_better


def _sacrebleu_mean_metric(values: list[list[float]]):  # type: ignore[no-untyped-def]
    """A sacreBLEU metric whose score is the mean of given numbers (hypothesis ``k:i`` has ``values[k][i]``)."""
    from sacrebleu.metrics.base import Metric, Score, Signature
    from sacrebleu.utils import sum_of_lists

    class MeanSignature(Signature):
        pass

    class Mean(Metric):
        _SIGNATURE_TYPE = MeanSignature

        def _aggregate_and_compute(self, stats):  # type: ignore[no-untyped-def]
            return self._compute_score_from_stats(sum_of_lists(stats))

        def _compute_score_from_stats(self, stats):  # type: ignore[no-untyped-def]
            return Score("MEAN", stats[0] / stats[1])

        def _preprocess_segment(self, sent):  # type: ignore[no-untyped-def]
            return sent

        def _extract_reference_info(self, refs):  # type: ignore[no-untyped-def]
            return {}

        def _compute_segment_statistics(self, hypothesis, ref_kwargs):  # type: ignore[no-untyped-def]
            k, i = map(int, hypothesis.split(":"))
            return [values[k][i], 1]

    return Mean()


def test_significance_equals_sacrebleus_machinery_on_a_mean_metric(score_files: tuple,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Same seed, same resamples: -ci, -pbs and -par of segment scores are sacreBLEU's numbers."""
    pytest.importorskip("sacrebleu")
    from sacrebleu.significance import PairedTest

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("BLEUCLI_SEED", raising=False)
    files, values = score_files
    hyps = [[f"{k}:{i}" for i in range(SEGMENTS)] for k in range(len(values))]
    refs = [["r"] * SEGMENTS]
    oracle = _sacrebleu_mean_metric(values)
    expected = oracle.corpus_score(hyps[0], refs, n_bootstrap=1000)
    ci = _json([REF, "-i", SYSTEMS[0], "--segment-scores", "MEAN", files[0], "-ci"])
    mean_record = [record for record in ci if record["name"] == "MEAN"][0]
    assert mean_record["unrounded_score"] == expected.score
    assert (mean_record["mean"], mean_record["ci"]) == (expected._mean, expected._ci)
    for test, flag in (("bs", "-pbs"), ("ar", "-par")):
        named = [(f"s{k}", h) for k, h in enumerate(hyps)]
        _, results = PairedTest(named, {"MEAN": _sacrebleu_mean_metric(values)}, refs, test_type=test)()
        data = _json([REF, "-i", *SYSTEMS, "--segment-scores", "MEAN", *files, flag])
        for entry, result in zip(data, results["MEAN"]):
            got = entry["MEAN"]
            assert got["score"] == result.score
            assert got["p_value"] == result.p_value
            if test == "bs":
                assert (got["mean"], got["ci"]) == (result.mean, result.ci)


@pytest.mark.parametrize(("content", "line", "says"), [
    ("0.5\nnan\n", 2, "not a finite number"),
    ("0.5\ninf\n", 2, "not a finite number"),
    ("0.5\n-Infinity\n", 2, "not a finite number"),
    ("0.5\n1e999\n", 2, "too large"),
    ("0.5\ngood\n", 2, "is not a number"),
    ("0.5\n\n0.7\n", 2, "empty line"),
    ("0.5\n1_000\n", 2, "is not a number"),
    ('{"score": 0.5}\n{"score": "0.7"}\n', 2, "not a number"),
    ('{"score": 0.5}\n{"score": NaN}\n', 2, "not a finite number"),
    ('{"score": 0.5}\n{"value": 1}\n', 2, "'score'"),
    ('{"score": 0.5}\n{"score": 0.5\n', 2, "not valid JSON"),
    ('{"a.txt": [{"COMET": 0.5}, {"COMET": true}]}', None, "segment 2"),
    ('{"a.txt": [{"COMET": 0.5}, {"mt": "x"}]}', None, "segment 2"),
    ("", None, "is empty"),
    ("\n\n", None, "is empty"),
    ("0.5\x00\n", 1, "NUL"),
    ("0.5\n\xff\xfe\n", 2, "not valid UTF-8"),
])
def test_bad_score_files_are_exit_3_naming_file_and_line(tmp_path: Path, content: str, line: int | None,
                                                         says: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content.encode("latin-1") if "\xff" in content else content.encode())
    result = invoke([REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", str(path)])
    assert result.exit_code == 3, result.stderr
    where = f"{path}:{line}:" if line is not None else f"{path}:"
    assert where in result.stderr and says in result.stderr, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(("count", "line", "says"), [(SEGMENTS - 1, SEGMENTS, "missing score"),
                                                    (SEGMENTS + 2, SEGMENTS + 1, "102 scores for 100")])
def test_a_count_differing_from_the_hypotheses_is_exit_3(tmp_path: Path, count: int, line: int, says: str) -> None:
    path = _write(tmp_path / "short.txt", [0.5] * count)
    result = invoke([REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", path, "-ci"])
    assert result.exit_code == 3 and f"{path}:{line}:" in result.stderr and says in result.stderr, result.stderr


@pytest.mark.parametrize("kind", ["directory", "fifo", "dev-zero", "missing", "too-large"])
def test_files_that_are_not_score_files_are_refused_at_once(tmp_path: Path, kind: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory, a FIFO (never opened for a blocking read), /dev/zero, a missing or a huge file: exit 3."""
    path = tmp_path / kind
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif kind == "dev-zero":
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero here")
        path = Path("/dev/zero")
    elif kind == "too-large":
        from bleucli.metrics import segment_scores

        monkeypatch.setattr(segment_scores, "MAX_SCORE_FILE_BYTES", 10)
        path.write_text("0.5\n" * SEGMENTS)
    result = invoke([REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", str(path)])
    assert result.exit_code == 3 and f"{path}:" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_usage_errors(score_files: tuple) -> None:
    files, _ = score_files
    cases = [
        ([REF, "-i", *SYSTEMS[:2], "--segment-scores", "COMET", files[0]], "1 file(s) for 2 system(s)"),
        ([REF, "-i", SYSTEMS[0], "--segment-scores", "BLEU", files[0]], "the metric bleu's"),
        ([REF, "-i", SYSTEMS[0], "--segment-scores", "chrF2", files[0]], "the metric chrf's"),
        ([REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", files[0], "--lower-is-better", "MQM"],
         "no --segment-scores metric"),
        ([REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", files[0], "--segment-scores", "COMET", files[1]],
         "given twice"),
    ]
    for args, says in cases:
        result = invoke(args)
        assert result.exit_code == 2 and says in result.stderr, (args, result.stderr)


def test_several_segment_score_metrics_keep_their_files(score_files: tuple) -> None:
    files, values = score_files
    data = _json([REF, "-i", *SYSTEMS[:2], "--segment-scores", "A", files[0], files[1],
                  "--segment-scores", "B", files[2], files[0], "-w", "6"])
    assert data[0]["scores"]["A"]["score"] == round(statistics.fmean(values[0]), 6)
    assert data[1]["scores"]["B"]["score"] == round(statistics.fmean(values[0]), 6)
    assert data[0]["scores"]["B"]["score"] == round(statistics.fmean(values[2]), 6)


def test_compare_takes_segment_scores(score_files: tuple) -> None:
    files, _ = score_files
    result = invoke(["compare", REF, "-i", *SYSTEMS, "--segment-scores", "MQM", *files, "--lower-is-better", "MQM",
                     "--json", "-"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert "MQM" in data["signatures"] and "agg:mean" in data["signatures"]["MQM"]
    worse = [entry["metrics"]["MQM"]["worse"] for entry in data["systems"]]
    deltas = [entry["metrics"]["MQM"]["delta"] for entry in data["systems"]]
    # lower is better: a lower MQM is never "worse"
    assert all(not w for w, d in zip(worse, deltas) if d < 0)


def test_segment_scores_in_a_real_process(score_files: tuple) -> None:
    files, _ = score_files
    result = run_subprocess([REF, "-i", *SYSTEMS[:2], "--segment-scores", "COMET", *files[:2], "-pbs", "-f", "text",
                             "-w", "4"])
    assert result.returncode == 0, result.stderr
    assert b"COMET" in result.stdout and b"agg:mean" in result.stdout
    bad = Path(files[1]).with_name("bad.txt")
    bad.write_text("0.5\n" * 10 + "oops\n")
    result = run_subprocess([REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", str(bad)])
    assert result.returncode == 3 and f"{bad}:11:".encode() in result.stderr


def test_workers_and_modes_that_do_not_take_segment_scores(score_files: tuple) -> None:
    """-j 2 gives the same numbers; -sl, stdin and stats refuse segment scores (usage errors)."""
    files, _ = score_files
    args = [REF, "-i", *SYSTEMS[:2], "--segment-scores", "COMET", *files[:2], "-pbs"]
    assert _json([*args, "-j", "2"]) == _json(args)
    result = invoke([REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", files[0], "-sl"])
    assert result.exit_code == 2 and "--sentence-level" in result.stderr
    result = invoke([REF, "--segment-scores", "COMET", files[0]], input="a\n" * SEGMENTS)
    assert result.exit_code == 2 and "-i files" in result.stderr
    result = invoke(["stats", REF, "-i", SYSTEMS[0], "--segment-scores", "COMET", files[0]])
    assert result.exit_code == 2 and "No such option" in result.stderr


def test_negative_scores_in_every_mode(tmp_path: Path) -> None:
    """COMET, MetricX differences or z-scores may be negative: a negative mean is a score like any other."""
    files = [_write(tmp_path / f"z{k}.txt", [s - 2.0 - k / 10 for s in _scores(k)]) for k in range(2)]
    for args in ([], ["-f", "latex"], ["-par", "-parn", "500"]):
        result = invoke([REF, "-i", *SYSTEMS[:2], "--segment-scores", "Z", *files, "-w", "3", *args])
        assert result.exit_code == 0 and "-1." in result.stdout, (args, result.stderr)
    result = invoke([REF, "-i", SYSTEMS[0], "--segment-scores", "Z", files[0], "-ci", "-f", "text"])
    assert result.exit_code == 0 and "= -1.2" in result.stdout, result.stderr
    result = invoke(["compare", REF, "-i", *SYSTEMS[:2], "--segment-scores", "Z", *files])
    assert result.exit_code == 0 and "| -1.2" in result.stdout, result.stderr
