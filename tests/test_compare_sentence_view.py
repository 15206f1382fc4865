"""``bleucli compare``'s sentence view: counted with arrays and split over ``-j`` workers, the same report.

The sentence view counts BLEU's clipped matches of every output at once
(:mod:`bleucli.report.matching`), places each distinct output of a segment once,
and with ``-j 2`` highlights part of the segments in a forked worker while this
process makes the buckets. None of it may change a byte: each output is checked
against :func:`bleucli.report.compare.highlight` (the one-output path, made of
``counted_ngrams``, ``longest_orders`` and ``place_tokens``), and whole reports
(Markdown, JSON, HTML) with ``-j 1`` against ``-j 2``. Bad input stays one line
with its documented exit code when the sentence view runs in workers.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from bleucli.metrics.bleu import BLEU
from bleucli.options import MetricOptions, RunOptions
from bleucli.report.compare import compare, highlight
from conftest import invoke
from datasets import DATA, read
from processes import children


def write(path: Path, lines: list[str] | tuple[str, ...]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("folder, tokenize, lowercase, max_order", [
    ("wmt21-en-de", "13a", False, 4), ("wmt22-en-zh", "zh", True, 4), ("wmt22-en-ja", "char", False, 6),
])
def test_every_output_is_highlighted_as_alone(matcher, folder, tokenize, lowercase, max_order):
    """Counted n-grams, orders, differing tokens and places equal the one-output highlighting, with every
    reference of the set, a system given twice (equal outputs are placed once) and an empty output."""
    path = DATA / folder
    target = folder.rsplit("-", 1)[1]
    refs = [list(read(path / f"ref{k}.{target}.gz")[:60]) for k in ("", "2", "3")
            if (path / f"ref{k}.{target}.gz").exists()]
    names = sorted(p.name for p in (path / "sys").iterdir())[:3]
    systems = [list(read(path / "sys" / name)[:60]) for name in names]
    systems.append(list(systems[1]))
    systems[2][7] = ""
    options = RunOptions(metrics=MetricOptions(bleu=MetricOptions().bleu._replace(
        tokenize=tokenize, lowercase=lowercase, max_order=max_order)))
    result = compare(options, [*names, "copy"], systems, [f"ref{k}" for k in range(len(refs))], refs)
    bleu = BLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=max_order)
    for segment in result.segments:
        for k, entry in enumerate(segment.systems):
            other = segment.systems[1 if k == 0 else 0].hypothesis
            matches, counted, spans, unplaced = highlight(bleu, entry.hypothesis, list(segment.references), other)
            assert (entry.matches, entry.counted, tuple(entry.spans), entry.unplaced) == (
                matches, counted, spans, unplaced), (segment.number, k)
    listed = {d.ngram for comparison in result.ngrams for d in (*comparison.better, *comparison.worse)}
    assert listed  # the n-gram lists, ranked from the counts kept while highlighting


def test_the_report_is_the_same_with_one_worker_and_two(tmp_path):
    """Markdown, JSON and HTML byte for byte, with -j 2 on more segments than one worker's minimum."""
    folder = DATA / "wmt21-en-de"
    refs = [write(tmp_path / f"ref{k}.de", read(folder / f"ref{k}.de.gz")) for k in ("", "2")]
    names = sorted(p.name for p in (folder / "sys").iterdir())[:2]
    systems = [write(tmp_path / name.replace(".gz", ""), read(folder / "sys" / name)) for name in names]
    outputs = {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        out.mkdir()
        result = invoke(["compare", *refs, "-i", *systems, "-m", "bleu", "chrf", "-pbsn", "100", "-j", jobs, "-q",
                         "--markdown", str(out / "r.md"), "--json", str(out / "r.json"), "--html", str(out / "r.html")])
        assert result.exit_code == 0, result.stderr
        outputs[jobs] = [(out / name).read_bytes() for name in ("r.md", "r.json", "r.html")]
    assert outputs["1"] == outputs["2"]
    assert b'"segments"' in outputs["2"][1] and len(outputs["2"][2]) > 100_000


def test_bad_input_is_one_line_with_its_exit_code_with_two_workers(tmp_path):
    folder = DATA / "wmt21-en-de"
    ref = write(tmp_path / "ref.de", read(folder / "ref.de.gz"))
    names = sorted(p.name for p in (folder / "sys").iterdir())[:2]
    systems = [write(tmp_path / name.replace(".gz", ""), read(folder / "sys" / name)) for name in names]
    short = write(tmp_path / "short.de", read(folder / "sys" / names[0])[:-1])
    bad = tmp_path / "bad.de"
    bad.write_bytes(Path(systems[1]).read_bytes().replace(b"\n", b"\xff\n", 1))
    for args, code, named in (
            ([ref, "-i", systems[0], short], 3, "short.de"),
            ([ref, "-i", systems[0], str(bad)], 3, "bad.de"),
            ([ref, "-i", systems[0], str(tmp_path / "missing.de")], 3, "missing.de"),
            ([ref, "-i", *systems, "--source", short], 3, "short.de"),
            ([ref, "-i", *systems, "--max-line-bytes", "50"], 3, "line"),
    ):
        result = invoke(["compare", *args, "-j", "2"])
        assert result.exit_code == code, result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and named in lines[0] and "Traceback" not in result.stderr, result.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux") or not hasattr(os, "fork"), reason="forks, reads /proc")
def test_a_worker_killed_while_it_highlights_is_a_worker_error_naming_the_signal():
    """The highlighting's worker is a forked child (Workers.split): killed by SIGKILL (the OOM killer) while
    this process makes the buckets, the run stops with exit 9's error, as every parallel path does."""
    from bleucli.engine.streaming import Streams, stream_rows
    from bleucli.errors import ExitCode, WorkerError
    from bleucli.metrics import registry
    from bleucli.report.compare import _segments, _Tokens

    folder = DATA / "wmt21-en-de"
    refs = [list(read(folder / "ref.de.gz"))]
    names = sorted(p.name for p in (folder / "sys").iterdir())[:4]
    systems = [list(read(folder / "sys" / name)) for name in names]
    options = MetricOptions()
    rows = stream_rows(registry.build_metrics(options, None, None, None), Streams(names, systems, ["ref"], refs))[0]
    metric = registry.build_metrics(options._replace(bleu=options.bleu._replace(effective_order=True)),
                                    None, None, None)[0]
    killed: list[int] = []
    before = set(children(os.getpid()))

    def kill_the_worker() -> None:  # runs in this process once the worker is forked
        for pid in set(children(os.getpid())) - before:
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        for _ in range(600):  # this process's own work: the error interrupts it (SIGCHLD), not after it
            time.sleep(0.1)

    with pytest.raises(WorkerError) as error:
        _segments(metric, _Tokens(metric, systems, refs), systems, refs, rows, None, None, 1, jobs=2,
                  alongside=[kill_the_worker])
    assert killed
    assert any(entry.name == "kill_the_worker" for entry in error.traceback)  # raised inside that work
    assert str(error.value) == "a worker process was killed by signal 9 (SIGKILL; out of memory?)"
    assert error.value.exit_code == ExitCode.WORKER == 9
