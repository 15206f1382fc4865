"""How the input of a run is cut into parts for workers, and the one runner of a reducer over the parts.

:func:`partition` is the only place that decides how input reaches the workers:

* **chunks**: this process reads the streams (stdin, ``.gz``, a test set, or
  files when one process scores) and sends them in chunks of
  :data:`~bleucli.engine.executor.CHUNK_SEGMENTS` segments;
* **file line ranges**: several processes and every input a plain file: the
  lines are indexed here and each task reads its own line range of every file;
* **byte cuts**: summed statistics where :attr:`Workers.forks`: the first file
  is cut into one part per worker at byte offsets (small files: at an index of
  their lines), each part finding the same lines in the other files itself;
* **aligned ranges**: several processes and an ``--aligned`` file: each task
  reads and parses its own partition.

:func:`run_parts` runs a reducer (``sums``, ``rows`` or ``sentences``) over
the parts, in input order, on :class:`~bleucli.engine.executor.Workers`. Each
part knows the line number of its first segment, so a too-long segment is named
(file and line) in one place (:func:`_run_part`), and suspicious hypotheses
(BLEU's tokenized periods) are counted there and reported once per system when
all parts are in.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice, repeat, zip_longest
from operator import is_
from typing import TYPE_CHECKING, Any

from ..errors import InputError, LengthMismatchError, SegmentTooLongError
from ..frozen import Frozen
from ..input.aligned import AlignedFile, aligned_source
from ..input.reading import FileLines, bom_notice
from ..input.sources import Streams
from ..statistics import Statistics, total
from .executor import CHUNK_SEGMENTS, Workers
from .progress import advance, standing_for, watched

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Executor

    from ..input.ranges import LineIndex, LineRange
    from ..metrics.base import Metric

#: ``(hypotheses of each system, references of each segment)``
Chunk = tuple[list[list[str]], list[tuple[str, ...]]]

#: Lines per range when workers read files themselves (a task takes one or more ranges).
RANGE_LINES = 1000
MAX_TASK_LINES = 20_000
#: Below this size (of the first file) summed statistics cut plain files at an index of their lines (cheap
#: there); above it, at byte offsets of the first file, each part finding its own lines (:class:`CutPart`).
SPLIT_MIN_BYTES = 1 << 20

_END = object()


# -- aligned reading ------------------------------------------------------------------------------------------------
def aligned_segments(
    systems: Sequence[Iterable[str]],
    references: Sequence[Iterable[str]],
    system_names: Sequence[str],
    reference_names: Sequence[str],
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """``(hypotheses, references)`` of each segment; unequal or empty streams are errors."""
    iterators = [iter(s) for s in systems] + [iter(r) for r in references]
    names = [*system_names, *reference_names]
    n_systems = len(systems)
    count = 0
    for row in zip_longest(*iterators, fillvalue=_END):
        if any(map(is_, row, repeat(_END))):
            _length_error(row, count, iterators, names, n_systems)
        count += 1
        yield row[:n_systems], row[n_systems:]  # type: ignore[misc]  # _END ruled out above
    if count == 0:
        raise InputError(f"is empty (and so is {reference_names[0]})", system_names[0])


def aligned_chunks(
    systems: Sequence[Iterable[str]],
    references: Sequence[Iterable[str]],
    system_names: Sequence[str],
    reference_names: Sequence[str],
    size: int = CHUNK_SEGMENTS,
) -> Iterator[Chunk]:
    """:func:`aligned_segments` by chunks of ``size`` segments: ``(hypotheses of each system, references of
    each segment)``.

    Each stream is read ``size`` lines at a time (``islice``, in C), not row by row: a 200,000-line corpus
    otherwise spends a fifth of its compiled 13a scoring time aligning rows. Unequal streams give the error
    of :func:`aligned_segments`, with every stream's full line count.
    """
    iterators = [iter(s) for s in systems] + [iter(r) for r in references]
    names = [*system_names, *reference_names]
    n_systems = len(systems)
    count = 0
    while True:
        columns = [list(islice(it, size)) for it in iterators]
        length = len(columns[0])
        if any(len(column) != length for column in columns):
            _report_lengths([count + len(column) + sum(1 for _ in it) for column, it in zip(columns, iterators)],
                            names, n_systems)
        if not length:
            break
        count += length
        yield columns[:n_systems], list(zip(*columns[n_systems:]))
    if count == 0:
        raise InputError(f"is empty (and so is {reference_names[0]})", system_names[0])


def read_aligned_range(line_range: LineRange, source: AlignedFile) -> Chunk:
    """A partition of an aligned file: its hypothesis column(s) and each segment's references."""
    from ..input.ranges import read_range

    rows = list(source.rows(read_range(line_range, source.encoding, strip=False), line_range.first_line))
    return [[row[0] for row in rows]], [tuple(row[1:]) for row in rows]


# -- parts: what a task reads -----------------------------------------------------------------------------------------
class ChunkPart(Frozen):
    """Segments this process has read: one chunk whose first segment is line ``first_line``."""

    first_line: int
    systems: list[list[str]]
    references: list[tuple[str, ...]]

    def open(self) -> tuple[int, Iterable[Chunk]]:
        return self.first_line, ((self.systems, self.references),)


class RangesPart(Frozen):
    """The same lines of every file (systems first), one :class:`LineRange` each, read by the task in chunks."""

    ranges: list[LineRange]
    n_systems: int
    encoding: str
    system_names: list[str]
    reference_names: list[str]

    def open(self) -> tuple[int, Iterable[Chunk]]:
        from ..input.ranges import iter_range

        columns = [iter_range(line_range, self.encoding) for line_range in self.ranges]
        return self.ranges[0].first_line, aligned_chunks(columns[:self.n_systems], columns[self.n_systems:],
                                                         self.system_names, self.reference_names)


class AlignedPart(Frozen):
    """A partition (line range) of an ``--aligned`` file, read and parsed by the task."""

    line_range: LineRange
    source: AlignedFile

    def open(self) -> tuple[int, Iterable[Chunk]]:
        return self.line_range.first_line, (read_aligned_range(self.line_range, self.source),)


class CutPart(Frozen):
    """The lines of bytes ``start`` to ``end`` of the first file and the same lines of the others.

    The first part reads the other files from their start, as many lines as the first file gives. A later
    part counts the newlines of the first file before ``start`` (and to ``end``) and finds where those
    lines start in the other files (one scan with :func:`~bleucli.input.reading.newline_scanner`: about 7 ms
    of a 0.235 s part of the 200,000-line bench corpus); any file with too few lines, or a last part whose
    files end after different numbers of lines, gives the error of unequal files with each file's full count.
    """

    start: int
    end: int
    paths: list[str]
    encoding: str
    limits: list[int]
    system_names: list[str]
    reference_names: list[str]

    def open(self) -> tuple[int, Iterable[Chunk]]:
        from ..input.ranges import LineRange, count_newlines, iter_range, newline_offsets

        paths, names = self.paths, [*self.system_names, *self.reference_names]
        n_systems = len(self.system_names)
        first_path, others = paths[0], paths[1:]
        last = self.end == os.path.getsize(first_path)
        if self.start == 0:
            before = 0
            bounds: list[tuple[int, int | None]] = [(0, None)] * len(others)
        else:
            before = count_newlines(first_path, 0, self.start)
            targets = [before] if last else [before, before + count_newlines(first_path, self.start, self.end)]
            bounds = []
            for path in others:
                offsets = newline_offsets(path, targets)
                if None in offsets:
                    _report_full_lengths(paths, names, n_systems)
                bounds.append((offsets[0], None if last else offsets[1]))  # type: ignore[arg-type]  # not None
        columns = [iter_range(LineRange(first_path, self.start, self.end, before + 1), self.encoding,
                              self.limits[0])]
        for path, (low, high), limit in zip(others, bounds, self.limits[1:]):
            end = os.path.getsize(path) if high is None else high
            columns.append(iter_range(LineRange(path, low, end, before + 1), self.encoding, limit))
        lead, rest = columns[0], columns[1:]

        def chunks() -> Iterator[Chunk]:
            while chunk := list(islice(lead, CHUNK_SEGMENTS)):
                aligned = [chunk, *(list(islice(column, len(chunk))) for column in rest)]
                if any(len(column) != len(chunk) for column in aligned):
                    _report_full_lengths(paths, names, n_systems)
                yield aligned[:n_systems], list(zip(*aligned[n_systems:]))
            if last and any(next(column, _END) is not _END for column in rest):  # another file goes on
                _report_full_lengths(paths, names, n_systems)

        return before + 1, chunks()


Part = ChunkPart | RangesPart | AlignedPart | CutPart


class Plan(Frozen):
    """How a run's input is cut: its parts, and whether they are one per worker (:meth:`Workers.split`)."""

    parts: Iterable[Part]
    split: bool = False


# -- the partitioner --------------------------------------------------------------------------------------------------
def partition(streams: Streams, workers: Workers, one_per_worker: bool = False) -> Plan:
    """The one decision of how ``streams`` are cut for ``workers``.

    ``one_per_worker``: the reducer's result of a part is small whatever its size (summed statistics), so
    plain files may be cut into exactly one part per worker, run by :meth:`Workers.split` (this process
    scoring the first part, forked children the others). Otherwise: an aligned file or plain files read by
    the tasks when several processes work, or chunks read here.
    """
    files = [*streams.systems, *streams.references]
    if workers.parallel:
        aligned = aligned_source(files)
        if aligned is not None and aligned.seekable():
            return Plan(_aligned_parts(workers, aligned))
        if _plain_files(files):
            if one_per_worker and workers.forks:
                return Plan(_one_part_per_worker(workers, streams), split=True)
            return Plan(_range_parts(workers, streams))
    return Plan(_chunk_parts(streams))


def _chunk_parts(streams: Streams) -> Iterator[ChunkPart]:
    """Chunks read here, in order, each knowing the line of its first segment."""
    first = 1
    for systems, references in aligned_chunks(streams.systems, streams.references, streams.system_names,
                                              streams.reference_names):
        yield ChunkPart(first, systems, references)
        first += len(references)


def _plain_files(streams: Sequence[Iterable[str]]) -> bool:
    """Whether every stream is a file that workers can read ranges of, all in one encoding."""
    return (all(isinstance(s, FileLines) and s.seekable() for s in streams)
            and len({s.encoding for s in streams}) == 1)  # type: ignore[attr-defined]


def _steps_per_task(lines: int, workers: Workers) -> int:
    """Index steps per task: about eight tasks per worker, at most MAX_TASK_LINES lines each."""
    return max(1, min(MAX_TASK_LINES, lines // (8 * workers.workers)) // RANGE_LINES)


def _indexed_files(streams: Streams) -> tuple[list[FileLines], list[LineIndex]]:
    """Plain files indexed every RANGE_LINES lines.

    Lines are counted first, so unequal lengths and empty inputs are reported before any scoring, with the
    same messages as when streaming.
    """
    from ..input.ranges import index_lines

    system_names, reference_names = streams.system_names, streams.reference_names
    files: list[FileLines] = [*streams.systems, *streams.references]  # type: ignore[list-item]  # checked
    indexes = [index_lines(f.path, RANGE_LINES, f.max_line_bytes) for f in files]
    counts = [index.lines for index in indexes]
    if len(set(counts)) > 1:
        _report_lengths(counts, [*system_names, *reference_names], len(system_names))
    if counts[0] == 0:
        raise InputError(f"is empty (and so is {reference_names[0]})", system_names[0])
    for source, index in zip(files, indexes):
        if index.has_bom and source.notices is not None:
            source.notices.append(bom_notice(source.path))
    return files, indexes


def _ranges_part(streams: Streams, ranges: list[LineRange], encoding: str) -> RangesPart:
    return RangesPart(ranges, len(streams.systems), encoding, list(streams.system_names),
                      list(streams.reference_names))


def _range_parts(workers: Workers, streams: Streams) -> list[RangesPart]:
    """The aligned line ranges of plain files, a task's worth each (about eight tasks per worker)."""
    from ..input.ranges import aligned_ranges

    files, indexes = _indexed_files(streams)
    steps = _steps_per_task(indexes[0].lines, workers)
    return [_ranges_part(streams, ranges, files[0].encoding) for ranges in aligned_ranges(indexes, steps)]


def _one_part_per_worker(workers: Workers, streams: Streams) -> list[RangesPart] | list[CutPart]:
    """Plain files cut into one part per worker, with no pass over the files first.

    The first file is cut at byte offsets (just after a newline) into parts of about equal size, and each
    part finds the same lines in the other files itself (:class:`CutPart`); unequal line counts show there,
    and are reported with every file's count. Small inputs are cut at an index of their lines instead.
    """
    from ..input.ranges import balanced_ranges, cut_after_newline
    from ..input.reading import UTF8_BOM

    files: list[FileLines] = [*streams.systems, *streams.references]  # type: ignore[list-item]  # checked
    paths = [f.path for f in files]
    sizes = [os.path.getsize(path) for path in paths]
    if min(sizes) == 0 or sizes[0] < SPLIT_MIN_BYTES:
        files, indexes = _indexed_files(streams)
        return [_ranges_part(streams, ranges, files[0].encoding)
                for ranges in balanced_ranges(indexes, workers.workers)]
    for source in files:
        with open(source.path, "rb") as handle:
            if handle.read(len(UTF8_BOM)) == UTF8_BOM and source.notices is not None:
                source.notices.append(bom_notice(source.path))
    parts = workers.workers
    cuts = [0]
    for j in range(1, parts):
        cut = cut_after_newline(paths[0], sizes[0] * j // parts)
        if cuts[-1] < cut < sizes[0]:
            cuts.append(cut)
    cuts.append(sizes[0])
    limits = [f.max_line_bytes for f in files]
    names = (list(streams.system_names), list(streams.reference_names))
    return [CutPart(start, end, paths, files[0].encoding, limits, *names) for start, end in zip(cuts, cuts[1:])]


def _aligned_parts(workers: Workers, source: AlignedFile) -> list[AlignedPart]:
    """The partitions (line ranges) of an aligned file, a task's worth each."""
    from ..input.ranges import aligned_ranges, index_lines

    index = index_lines(source.path, RANGE_LINES, source.max_line_bytes)
    if index.lines == 0:
        raise InputError("is empty", source.path)
    return [AlignedPart(ranges[0], source) for ranges in aligned_ranges([index], _steps_per_task(index.lines,
                                                                                                   workers))]


# -- reducers and the runner ------------------------------------------------------------------------------------------
class Job(Frozen):
    """What every task of a run shares (sent to each worker once): the metrics, the reducer and the names."""

    metrics: list[Metric[Any]]
    #: ``sums`` (Statistics ``[metric][system]``), ``rows`` (``[metric][system][segment]``) or
    #: ``sentences`` (the first metric's statistics of each segment of the first system)
    reducer: str
    system_names: list[str]
    reference_names: list[str]


def _chunk_sums(metrics: Sequence[Metric[Any]], systems: list[list[str]],
                references: list[tuple[str, ...]]) -> list[list[Statistics]]:
    return [metric.chunk_statistics(systems, references) for metric in metrics]


def _chunk_rows(metrics: Sequence[Metric[Any]], systems: list[list[str]],
                references: list[tuple[str, ...]]) -> list[list[Any]]:
    return [metric.chunk_rows(systems, references) for metric in metrics]


def _chunk_sentences(metrics: Sequence[Metric[Any]], systems: list[list[str]],
                     references: list[tuple[str, ...]]) -> list[list[Any]]:
    """Each segment's statistics, as :meth:`Metric.single_use_statistics` computes them one by one."""
    metric = metrics[0]
    rows = []
    for i, (hypothesis, segment_references) in enumerate(zip(systems[0], references)):
        try:
            rows.append(metric.single_use_statistics(hypothesis, segment_references))
        except SegmentTooLongError as exc:
            exc.segment = i
            raise
    return rows


def _combine_sums(results: list[list[list[Statistics]]]) -> list[list[Statistics]]:
    if len(results) == 1:
        return results[0]
    # not None: a part holds at least one chunk
    return [[total(part[m][k] for part in results) for k in range(len(results[0][m]))]  # type: ignore[misc]
            for m in range(len(results[0]))]


def _combine_rows(results: list[list[list[Any]]]) -> list[list[Any]]:
    """Each system's rows of the chunks, joined (:func:`~bleucli.statistics.concatenate_rows`: the compiled
    metrics' int64 blocks stay one block)."""
    if len(results) == 1:
        return results[0]
    from .rows import concatenate_rows

    return [[concatenate_rows([part[m][k] for part in results]) for k in range(len(results[0][m]))]
            for m in range(len(results[0]))]


def _combine_sentences(results: list[list[Any]]) -> list[Any]:
    return results[0] if len(results) == 1 else [row for part in results for row in part]


_REDUCERS: dict[str, tuple[Any, Any]] = {
    "sums": (_chunk_sums, _combine_sums),
    "rows": (_chunk_rows, _combine_rows),
    "sentences": (_chunk_sentences, _combine_sentences),
}


def _run_part(job: Job, part: Part) -> tuple[Any, list[list[int]], int]:
    """A task: read a part, reduce its chunks, and count its suspicious hypotheses.

    Its segments advance the watched phase (:mod:`bleucli.engine.progress`): chunk by chunk when the
    part runs in the watching process, else the third element of the result, counted there on its return.

    The one place where a too-long segment is named (file and line): only the part knows where its
    chunks start.
    """
    reduce_chunk, combine = _REDUCERS[job.reducer]
    metrics = job.metrics
    suspicious = [[0] * len(job.system_names) for _ in metrics]
    count = job.reducer != "sentences"  # sentence scores do not warn about tokenized output
    first, chunks = part.open()
    start, here = first, watched()  # in the watching process: count each chunk now, else the part once back
    results = []
    for systems, references in chunks:
        if count:
            for metric, counts in zip(metrics, suspicious):
                for k, hypotheses in enumerate(systems):
                    counts[k] += metric.count_suspicious(hypotheses)
        try:
            results.append(reduce_chunk(metrics, systems, references))
        except SegmentTooLongError as exc:
            raise exc.at(job.system_names, job.reference_names, first) from None
        first += len(references)
        if here:
            advance(len(references))
    return combine(results), suspicious, 0 if here else first - start


def run_parts(metrics: Sequence[Metric[Any]], streams: Streams, reducer: str, jobs: int = 1,
              executor: Executor | None = None) -> Iterator[Any]:
    """The reduced result of each part of ``streams`` (:func:`partition`), in input order.

    ``reducer``: ``sums``, ``rows`` or ``sentences`` (see :class:`Job`). The parts run on
    :class:`Workers` (``jobs`` processes, or ``executor``); once all are in, each metric reports each
    system's suspicious hypotheses.
    """
    n_systems = len(streams.systems)
    job = Job(list(metrics), reducer, list(streams.system_names), list(streams.reference_names))
    suspicious = [[0] * n_systems for _ in metrics]
    with Workers(job, jobs, executor=executor) as workers:
        plan = partition(streams, workers, one_per_worker=reducer == "sums")
        if plan.split:  # the main process's part stands for all on the bar; the rest is counted when in
            parts = [(p,) for p in plan.parts]
            with standing_for(len(parts)) as estimated:
                done = workers.split(_run_part, parts)
            actual = sum(segments for _, _, segments in done[1:]) + estimated[0] // len(parts)
            advance(max(0, actual - estimated[0]))
            results: Iterable[tuple[Any, list[list[int]], int]] = [(r, found, 0) for r, found, _ in done]
        else:
            results = workers.map(_run_part, ((p,) for p in plan.parts))
        for result, found, segments in results:
            if segments:  # a part scored by another process
                advance(segments)
            for mine, more in zip(suspicious, found):
                for k in range(n_systems):
                    mine[k] += more[k]
            yield result
    for k in range(n_systems):
        for metric, counts in zip(metrics, suspicious):
            metric.report_suspicious(counts[k])


# -- unequal streams --------------------------------------------------------------------------------------------------
def _length_error(row: tuple, done: int, iterators: list[Iterator[str]], names: Sequence[str], n_systems: int) -> None:
    """Count what is left of every stream so the message can give full line counts."""
    counts = [done + (0 if item is _END else 1 + sum(1 for _ in it)) for item, it in zip(row, iterators)]
    _report_lengths(counts, names, n_systems)


def _report_full_lengths(paths: list[str], names: list[str], n_systems: int) -> None:
    """Raise the error of unequal files, counting every file's lines (a part sees only its own)."""
    from ..input.ranges import count_lines

    _report_lengths([count_lines(path) for path in paths], names, n_systems)


def _report_lengths(counts: Sequence[int], names: Sequence[str], n_systems: int) -> None:
    """Raise the error for streams of unequal length (the first reference is the yardstick)."""
    reference_count = counts[n_systems]
    reference_name = names[n_systems]
    for name, lines in zip(names, counts):
        if lines != reference_count:
            if lines == 0:
                raise InputError(f"is empty, but reference {reference_name} has {reference_count} lines", name)
            kind = "hypothesis" if names.index(name) < n_systems else "reference"
            raise LengthMismatchError(
                f"{kind} {name} has {lines} lines but reference {reference_name} has {reference_count}"
            )
    raise AssertionError("streams of equal length reported as different")  # pragma: no cover


__all__ = ["partition", "run_parts", "Plan", "Job", "ChunkPart", "RangesPart", "AlignedPart", "CutPart",
           "aligned_segments", "aligned_chunks", "read_aligned_range", "RANGE_LINES", "SPLIT_MIN_BYTES"]
