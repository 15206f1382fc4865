"""The engine's progress seam: what a command's bar is told, and that being watched changes no number.

A recording reporter stands where the CLI puts click's bar: each phase must
end with exactly its announced length (the bar would otherwise stop short of,
or run past, 100%), and every score, p-value and ranking must be the same as
in a run nobody watches, with one process or several.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import datasets
from bleucli import BLEU
from bleucli.engine import progress
from bleucli.engine.executor import Workers
from bleucli.engine.pipeline import input_segments, run
from bleucli.engine.streaming import Streams, stream_rows
from bleucli.input.reading import FileLines
from bleucli.options import RunOptions, SignificanceOptions

NAME = "wmt22-en-de"


class Recorder:
    """A :class:`bleucli.engine.progress.Reporter` keeping each phase's label, length and units advanced."""

    def __init__(self) -> None:
        self.phases: list[tuple[str, int | None, list[int]]] = []

    @contextlib.contextmanager
    def __call__(self, label: str, length: progress.Length) -> Iterator[Callable[[int], None]]:
        units: list[int] = []
        self.phases.append((label, length() if callable(length) else length, units))
        yield units.append

    def totals(self) -> list[tuple[str, int | None, int]]:
        return [(label, length, sum(units)) for label, length, units in self.phases]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], str]:
    """Plain copies of three real systems (2,037 segments) and their reference."""
    folder = tmp_path_factory.mktemp("progress")
    ref = folder / "ref.de"
    ref.write_bytes(datasets.raw_bytes(datasets.reference_paths(NAME)[0]))
    systems = []
    for path in datasets.system_paths(NAME)[:3]:
        systems.append(folder / path.name[:-3])
        systems[-1].write_bytes(datasets.raw_bytes(path))
    return [str(p) for p in systems], str(ref)


def streams(files: tuple[list[str], str], n_systems: int = 3) -> Streams:
    systems, ref = files
    return Streams([Path(p).name for p in systems[:n_systems]], [FileLines(p) for p in systems[:n_systems]],
                   ["ref.de"], [FileLines(ref)])


def options(test: str | None = None, seed: int | None = 12345, jobs: int = 1) -> RunOptions:
    return RunOptions(significance=SignificanceOptions(test, 100, 100, 100, seed), jobs=jobs)


@pytest.mark.parametrize("jobs", [1, 2])
def test_corpus_scoring_counts_every_segment_and_scores_the_same(files, matcher, jobs):
    metrics = [BLEU()]
    quiet = run(options(jobs=jobs), metrics, streams(files, 1))
    recorder = Recorder()
    watched = run(options(jobs=jobs), metrics, streams(files, 1), progress=recorder)
    ((label, length, units),) = recorder.totals()
    assert (label, length) == ("Scoring", 2037)
    # -j 2 on plain files: the main process scores one of two parts side by side with a forked child, each
    # of its segments standing for two until the child's count comes back; the bar reaches its end either way
    assert units == 2037 if jobs == 1 else units >= 2037
    assert [[s.score for s in row] for row in watched.scores] == [[s.score for s in row] for row in quiet.scores]
    assert [str(s) for row in watched.scores for s in row] == [str(s) for row in quiet.scores for s in row]


@pytest.mark.parametrize(("test", "seed", "jobs"), [("bs", 12345, 1), ("bs", None, 1), ("ar", 12345, 2)])
def test_a_paired_test_counts_each_matrix_of_resamples_and_gives_the_same_p_values(files, matcher, test, seed,
                                                                                   jobs):
    metrics = [BLEU()]
    recorder = Recorder()
    watched = run(options(test, seed, jobs), metrics, streams(files), progress=recorder)
    label = "Paired bootstrap" if test == "bs" else "Approximate randomization"
    units = progress.paired_units(test, 3, seed is not None)
    assert recorder.totals() == [("Scoring", 2037, 2037), (label, units, units)]
    if seed is not None:  # unseeded resamples differ from run to run
        quiet = run(options(test, seed, jobs), metrics, streams(files))
        assert [(r.score, r.p_value, r.mean, r.ci) for p in watched.paired for r in p.rows] == \
               [(r.score, r.p_value, r.mean, r.ci) for p in quiet.paired for r in p.rows]


@pytest.mark.parametrize("jobs", [1, 2])
def test_sentence_scores_count_every_segment_as_consumed_and_score_the_same(files, matcher, jobs):
    """``-sl``: the scores are made as the CLI reads them, after ``run`` returns; the phase lasts as long."""
    metrics = [BLEU(effective_order=True)]
    quiet = run(RunOptions(sentence_level=True, jobs=jobs), metrics, streams(files, 1))
    recorder = Recorder()
    watched = run(RunOptions(sentence_level=True, jobs=jobs), metrics, streams(files, 1), progress=recorder)
    assert recorder.phases == []  # nothing scored yet: the bar opens with the first score asked for
    assert watched.sentences is not None and quiet.sentences is not None
    scores = [str(s) for s in watched.sentences]
    ((label, length, units),) = recorder.totals()
    assert (label, length) == ("Scoring", 2037)
    assert units == 2037 if jobs == 1 else units >= 2037
    assert not progress.watched()  # the phase ended with the last score
    assert scores == [str(s) for s in quiet.sentences]


def test_a_confidence_interval_counts_its_segments_and_each_metric(files, matcher):
    from bleucli import CHRF

    metrics = [BLEU(), CHRF()]
    recorder = Recorder()
    watched = run(options("ci"), metrics, streams(files, 1), progress=recorder)
    assert recorder.totals() == [("Scoring", 2037, 2037), ("Bootstrap", 2, 2)]
    quiet = run(options("ci"), metrics, streams(files, 1))
    assert [(c.score, c.mean, c.ci) for c in watched.confidence] == [(c.score, c.mean, c.ci) for c in quiet.confidence]


def test_the_units_of_a_paired_test_are_the_matrices_it_scores():
    assert progress.paired_units("bs", 5, seeded=True) == 5  # one set of resamples for all
    assert progress.paired_units("bs", 5, seeded=False) == 9  # the baseline's, then a pair per system
    assert progress.paired_units("ar", 5, seeded=True) == 8
    assert progress.ranking_units("bs", 4) == 4
    assert progress.ranking_units("ar", 4) == 16


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_ranking_counts_each_matrix_and_ranks_the_same(files, matcher, test):
    from bleucli.significance.ranking import rank_systems

    metric = BLEU()
    (rows,) = stream_rows([metric], streams(files))
    names = ["A", "B", "C"]
    quiet = rank_systems(metric, rows, names, test=test, n=100, n_bootstrap=100, nrefs=1)
    recorder = Recorder()
    with progress.phase(recorder, "Ranking", progress.ranking_units(test, 3)):
        watched = rank_systems(metric, rows, names, test=test, n=100, n_bootstrap=100, nrefs=1)
    assert recorder.totals() == [("Ranking", progress.ranking_units(test, 3), progress.ranking_units(test, 3))]
    assert watched == quiet


def _is_watched(context: object, index: int) -> bool:
    return progress.watched()


def test_worker_processes_never_advance_the_parents_bar():
    """A forked worker inherits the watched phase; it must forget it (only the drawing process counts)."""
    recorder = Recorder()
    with progress.phase(recorder, "Working", 4):
        assert progress.watched()
        with Workers(None, 2, tasks=4) as workers:
            assert list(workers.map(_is_watched, [(i,) for i in range(4)])) == [False] * 4
    assert not progress.watched()


def test_nobody_watching_costs_nothing_and_changes_nothing():
    with progress.phase(None, "Scoring", lambda: pytest.fail("the length is asked for only by a reporter")):
        assert not progress.watched()
        progress.advance(5)


def test_the_length_of_stdin_is_unknown_and_of_a_file_its_lines(files, tmp_path):
    from bleucli.input.aligned import AlignedFile, open_aligned

    assert input_segments(streams(files)) == 2037
    systems, ref = files
    hyps, refs = (Path(p).read_text(encoding="utf-8").splitlines() for p in (systems[0], ref))
    aligned = tmp_path / "aligned.tsv"
    aligned.write_text("".join(f"{h}\t{r}\n" for h, r in zip(hyps, refs)), encoding="utf-8")
    hyp_column, ref_columns = open_aligned(AlignedFile.build(str(aligned)))
    assert input_segments(Streams(["aligned"], hyp_column, ["ref"], ref_columns)) == 2037
    assert input_segments(Streams(["-"], [iter(["a", "b"])], ["ref"], [iter(["a", "b"])])) is None
