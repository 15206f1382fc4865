"""Scoring any number of systems against references read in lockstep, in constant memory.

sacreBLEU reads every file into memory before scoring. Here the references
and all systems are consumed one segment at a time: each segment's reference
statistics are computed once and reused for every system, and only running
sums are kept, so memory does not grow with the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice, repeat, zip_longest
from operator import is_
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import InputError, LengthMismatchError, SegmentTooLongError
from ..input.aligned import AlignedFile, aligned_source
from ..input.reading import FileLines, bom_notice
from ..metrics.base import Metric, Score, chunks
from ..statistics import Statistics, sum_rows, total
from .executor import CHUNK_SEGMENTS, Workers

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Executor

_END = object()


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
) -> Iterator[tuple[list[list[str]], list[tuple[str, ...]]]]:
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


def score_streams(
    metric: Metric[Any],
    systems: Sequence[Iterable[str]],
    references: Sequence[Iterable[str]],
    system_names: Sequence[str],
    reference_names: Sequence[str],
    jobs: int = 1,
) -> list[Score]:
    """Corpus scores of every system under one metric (see :func:`score_streams_multi`)."""
    scores = score_streams_multi([metric], systems, references, system_names, reference_names, jobs)
    return [row[0] for row in scores]


def score_streams_multi(
    metrics: Sequence[Metric[Any]],
    systems: Sequence[Iterable[str]],
    references: Sequence[Iterable[str]],
    system_names: Sequence[str],
    reference_names: Sequence[str],
    jobs: int = 1,
    executor: Executor | None = None,
) -> list[list[Score]]:
    """Corpus scores ``[system][metric]``, reading all streams once, one segment at a time.

    See :func:`stream_statistics`; the scores do not depend on ``jobs``.
    """
    streams = Streams(system_names, systems, reference_names, references)
    sums = stream_statistics(metrics, streams, jobs, executor)
    nrefs = len(references)
    return [[metric.score_from_statistics(per_metric[k].totals(), nrefs) for metric, per_metric in zip(metrics, sums)]
            for k in range(len(systems))]


class Streams(NamedTuple):
    """Opened input streams and their names (files, stdin columns or a test set's fields)."""

    system_names: Sequence[str]
    systems: Sequence[Iterable[str]]
    reference_names: Sequence[str]
    references: Sequence[Iterable[str]]
    #: the systems came from stdin columns (paired tables then use sacreBLEU's Baseline, System 1...)
    from_stdin: bool = False

    def chunks(self, metrics: Sequence[Metric[Any]]) -> Iterator[tuple[list[list[str]], list[tuple[str, ...]]]]:
        """Task arguments: chunks of aligned segments, ``(hypotheses of each system, each segment's references)``.

        Each metric counts the suspicious hypotheses (BLEU: tokenized periods) of each chunk as it is read,
        and reports each system's count once the streams end, as the parallel path does.
        """
        suspicious = [[0] * len(self.systems) for _ in metrics]
        for systems, references in aligned_chunks(self.systems, self.references, self.system_names,
                                                  self.reference_names):
            for metric, counts in zip(metrics, suspicious):
                for k, hypotheses in enumerate(systems):
                    counts[k] += metric.count_suspicious(hypotheses)
            yield systems, references
        for k in range(len(self.systems)):
            for metric, counts in zip(metrics, suspicious):
                metric.report_suspicious(counts[k])


def stream_statistics(
    metrics: Sequence[Metric[Any]], streams: Streams, jobs: int = 1, executor: Executor | None = None
) -> list[list[Statistics]]:
    """Summed :class:`Statistics` ``[metric][system]`` of whole streams, in constant memory.

    Each segment's references are prepared once for all systems and only
    running sums are kept. The work is cut into chunks run by
    :class:`~bleucli.engine.executor.Workers` (``jobs`` processes, or ``executor``).
    When several processes run and every input is a plain file, each task
    reads its own line ranges (the parent only counts lines); otherwise the
    parent reads the segments and sends them in chunks.
    """
    with Workers(list(metrics), jobs, executor=executor) as workers:
        aligned = aligned_source([*streams.systems, *streams.references])
        if workers.parallel and aligned is not None and aligned.seekable():
            parts = _aligned_range_parts(workers, metrics, streams, aligned)  # partitions read by the tasks
        elif workers.forks and _plain_files([*streams.systems, *streams.references]):
            parts = _file_split_parts(workers, metrics, streams)  # one line range per process, this one included
        elif workers.parallel and _plain_files([*streams.systems, *streams.references]):
            parts = _file_range_parts(workers, metrics, streams)  # names the line of a too-long segment itself
        else:
            parts = workers.map(_chunk_sums, streams.chunks(metrics))
        collected: list[list[list[Statistics]]] = [[[] for _ in streams.systems] for _ in metrics]
        done = 0
        try:
            for part in parts:
                for mine, theirs in zip(collected, part):
                    for per_system, statistics in zip(mine, theirs):
                        per_system.append(statistics)
                done += 1
        except SegmentTooLongError as exc:  # results come in order: the failed task is number `done`
            raise exc.at(streams.system_names, streams.reference_names, done * CHUNK_SEGMENTS + 1) from None
    # not None: aligned_segments refuses empty input
    return [[total(per_system) for per_system in per_metric] for per_metric in collected]  # type: ignore[misc]


def stream_rows(
    metrics: Sequence[Metric[Any]], streams: Streams, jobs: int = 1, executor: Executor | None = None
) -> list[list[list[list[Any]]]]:
    """Per-segment statistics rows ``[metric][system][segment]`` (what resampling tests need).

    The same chunks and executor as :func:`stream_statistics`, keeping every
    row instead of their sums.
    """
    rows: list[list[list[list[Any]]]] = [[[] for _ in streams.systems] for _ in metrics]
    with Workers(list(metrics), jobs, executor=executor) as workers:
        done = 0
        try:
            for part in workers.map(_chunk_rows, streams.chunks(metrics)):
                for mine, theirs in zip(rows, part):
                    for system_rows, more in zip(mine, theirs):
                        system_rows.extend(more)
                done += 1
        except SegmentTooLongError as exc:
            raise exc.at(streams.system_names, streams.reference_names, done * CHUNK_SEGMENTS + 1) from None
    return rows


def _chunk_sums(metrics: Sequence[Metric[Any]], systems: list[list[str]],
                refs: list[tuple[str, ...]]) -> list[list[Statistics]]:
    """A task: the chunk's statistics ``[metric][system]``."""
    return [metric.chunk_statistics(systems, refs) for metric in metrics]


def _chunk_rows(metrics: Sequence[Metric[Any]], systems: list[list[str]],
                refs: list[tuple[str, ...]]) -> list[list[list[list[Any]]]]:
    """A task: the chunk's rows ``[metric][system][segment]``."""
    return [metric.chunk_rows(systems, refs) for metric in metrics]


#: Lines per range when workers read files themselves (a task takes one or more ranges).
RANGE_LINES = 1000
MAX_TASK_LINES = 20_000


def _plain_files(streams: Sequence[Iterable[str]]) -> bool:
    """Whether every stream is a file that workers can read ranges of, all in one encoding."""
    return (all(isinstance(s, FileLines) and s.seekable() for s in streams)
            and len({s.encoding for s in streams}) == 1)  # type: ignore[attr-defined]


def _file_range_parts(
    workers: Workers, metrics: Sequence[Metric[Any]], streams: Streams
) -> Iterator[list[list[Statistics]]]:
    """Chunk statistics of whole files, each task reading its own line ranges.

    The parent counts lines first, so unequal lengths and empty inputs are
    reported before any scoring, with the same messages as when streaming.
    Suspicious hypotheses (BLEU's tokenized periods) are counted in the tasks
    and reported here, once per system, when all parts are in.
    """
    tasks, encoding = _plain_file_tasks(workers, streams)
    arguments = ((ranges, len(streams.systems), encoding) for ranges in tasks)
    yield from _collect_range_parts(workers, metrics, streams, _range_sums, arguments, tasks)


def _plain_file_tasks(workers: Workers, streams: Streams, parts: int | None = None) -> tuple[list[list[Any]], str]:
    """The aligned line ranges of plain files, a task's worth each (or ``parts`` ranges), and their encoding.

    Lines are counted first, so unequal lengths and empty inputs are reported
    before any scoring, with the same messages as when streaming.
    """
    from ..input.ranges import aligned_ranges, balanced_ranges, index_lines

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
    if parts is not None:
        return balanced_ranges(indexes, parts), files[0].encoding
    return list(aligned_ranges(indexes, _steps_per_task(counts[0], workers))), files[0].encoding


def _steps_per_task(lines: int, workers: Workers) -> int:
    """Index steps per task: about eight tasks per worker, at most MAX_TASK_LINES lines each."""
    return max(1, min(MAX_TASK_LINES, lines // (8 * workers.workers)) // RANGE_LINES)


#: Below this size (of the first file) ``--jobs`` cuts plain files at an index of their lines (cheap there);
#: above it, at byte offsets of the first file, each part finding its own lines (:func:`_cut_part_sums`).
SPLIT_MIN_BYTES = 1 << 20


def _file_split_parts(
    workers: Workers, metrics: Sequence[Metric[Any]], streams: Streams
) -> Iterator[list[list[Statistics]]]:
    """Statistics of plain files cut into one part per worker, this process scoring the first.

    No pass over the files comes first: the first file is cut at byte offsets (just after a newline) into
    parts of about equal size, and each part finds the same lines in the other files itself
    (:func:`_cut_part_sums`); unequal line counts show there, and are reported with every file's count.
    Small inputs are cut at an index of their lines instead. Each part streams its lines in chunks and
    sends back only its summed statistics: :class:`Statistics` add in order, so the result is the same.
    """
    import os

    files: list[FileLines] = [*streams.systems, *streams.references]  # type: ignore[list-item]  # checked
    paths = [f.path for f in files]
    names = (list(streams.system_names), list(streams.reference_names))
    sizes = [os.path.getsize(path) for path in paths]
    if min(sizes) == 0 or sizes[0] < SPLIT_MIN_BYTES:
        tasks, encoding = _plain_file_tasks(workers, streams, parts=workers.workers)
        results = workers.split(_range_part_sums, [(ranges, encoding, *names) for ranges in tasks])
    else:
        from ..input.ranges import cut_after_newline
        from ..input.reading import UTF8_BOM

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
        results = workers.split(_cut_part_sums, [(start, end, paths, files[0].encoding, limits, *names)
                                                 for start, end in zip(cuts, cuts[1:])])
    suspicious: list[list[Any]] = [[0] * len(streams.systems) for _ in metrics]
    for part, found in results:
        suspicious = [sum_rows([mine, more]) for mine, more in zip(suspicious, found)]
        yield part
    for metric, per_system in zip(metrics, suspicious):
        for count in per_system:
            metric.report_suspicious(count)


def _cut_part_sums(
    metrics: Sequence[Metric[Any]], start: int, end: int, paths: list[str], encoding: str, limits: list[int],
    system_names: list[str], reference_names: list[str],
) -> tuple[list[list[Statistics]], list[list[int]]]:
    """A part: the lines of bytes ``start`` to ``end`` of the first file and the same lines of the others.

    The first part reads the other files from their start, as many lines as the first file gives. A later
    part counts the newlines of the first file before ``start`` (and to ``end``) and finds where those
    lines start in the other files (one scan with :func:`~bleucli.input.reading.newline_scanner`: about 7 ms of a
    0.235 s part of the 200,000-line bench corpus);
    any file with too few lines, or a last part whose files end after different numbers of lines, gives
    the error of unequal files with each file's full count.
    """
    from ..input.ranges import LineRange, count_newlines, iter_range, newline_offsets

    names = [*system_names, *reference_names]
    first_path, others = paths[0], paths[1:]
    last = end == _file_size(first_path)
    if start == 0:
        before = 0
        bounds: list[tuple[int, int | None]] = [(0, None)] * len(others)
    else:
        before = count_newlines(first_path, 0, start)
        targets = [before] if last else [before, before + count_newlines(first_path, start, end)]
        bounds = []
        for path in others:
            offsets = newline_offsets(path, targets)
            if None in offsets:
                _report_full_lengths(paths, names, len(system_names))
            bounds.append((offsets[0], None if last else offsets[1]))  # type: ignore[arg-type]  # not None
    columns = [iter_range(LineRange(first_path, start, end, before + 1), encoding, limits[0])]
    for path, (low, high), limit in zip(others, bounds, limits[1:]):
        columns.append(iter_range(LineRange(path, low, _file_size(path) if high is None else high, before + 1),
                                  encoding, limit))
    n_systems = len(system_names)
    lead, rest = columns[0], columns[1:]

    def chunks() -> Iterator[tuple[list[list[str]], list[tuple[str, ...]]]]:
        while chunk := list(islice(lead, CHUNK_SEGMENTS)):
            aligned = [chunk, *(list(islice(column, len(chunk))) for column in rest)]
            if any(len(column) != len(chunk) for column in aligned):
                _report_full_lengths(paths, names, n_systems)
            yield aligned[:n_systems], list(zip(*aligned[n_systems:]))
        if last and any(next(column, _END) is not _END for column in rest):  # another file goes on
            _report_full_lengths(paths, names, n_systems)

    return _part_sums(metrics, chunks(), system_names, reference_names, before + 1)


def _range_part_sums(
    metrics: Sequence[Metric[Any]], ranges: list[Any], encoding: str, system_names: list[str],
    reference_names: list[str],
) -> tuple[list[list[Statistics]], list[list[int]]]:
    """A part: the summed statistics ``[metric][system]`` of line ranges read in chunks, and suspicious counts."""
    from ..input.ranges import iter_range

    n_systems = len(system_names)
    columns = [iter_range(line_range, encoding) for line_range in ranges]
    chunks = aligned_chunks(columns[:n_systems], columns[n_systems:], system_names, reference_names)
    return _part_sums(metrics, chunks, system_names, reference_names, ranges[0].first_line)


def _part_sums(
    metrics: Sequence[Metric[Any]], chunks: Iterable[tuple[list[list[str]], list[tuple[str, ...]]]],
    system_names: list[str], reference_names: list[str], first: int,
) -> tuple[list[list[Statistics]], list[list[int]]]:
    """The summed statistics ``[metric][system]`` of a part's chunks of segments, and its suspicious counts.

    ``first`` is the line number of the part's first segment: a too-long segment is named here (file
    and line), since only the part knows where its chunks start.
    """
    n_systems = len(system_names)
    sums: list[list[list[Statistics]]] = [[[] for _ in range(n_systems)] for _ in metrics]
    suspicious = [[0] * n_systems for _ in metrics]
    for systems, refs in chunks:
        for metric, counts in zip(metrics, suspicious):
            for k, hypotheses in enumerate(systems):
                counts[k] += metric.count_suspicious(hypotheses)
        try:
            for mine, theirs in zip(sums, _chunk_sums(metrics, systems, refs)):
                for per_system, statistics in zip(mine, theirs):
                    per_system.append(statistics)
        except SegmentTooLongError as exc:
            raise exc.at(system_names, reference_names, first) from None
        first += len(refs)
    # not None: a part holds at least one line
    return [[total(per_system) for per_system in per_metric] for per_metric in sums], suspicious  # type: ignore[misc]


def _file_size(path: str) -> int:
    import os

    return os.path.getsize(path)


def _report_full_lengths(paths: list[str], names: list[str], n_systems: int) -> None:
    """Raise the error of unequal files, counting every file's lines (a part sees only its own)."""
    from ..input.ranges import count_lines

    _report_lengths([count_lines(path) for path in paths], names, n_systems)


def _collect_range_parts(
    workers: Workers, metrics: Sequence[Metric[Any]], streams: Streams, task: Any, arguments: Iterable[tuple],
    tasks: Sequence[Sequence[Any]],
) -> Iterator[list[list[Statistics]]]:
    """Run range tasks in order; name the line of a too-long segment; report suspicious hypotheses at the end."""
    system_names, reference_names = streams.system_names, streams.reference_names
    n_systems = len(system_names)
    suspicious: list[list[Any]] = [[0] * n_systems for _ in metrics]
    done = 0
    try:
        for part, found in workers.map(task, arguments):
            suspicious = [sum_rows([mine, more]) for mine, more in zip(suspicious, found)]
            yield part
            done += 1
    except SegmentTooLongError as exc:  # results come in order: the failed task is number `done`
        raise exc.at(system_names, reference_names, tasks[done][0].first_line) from None
    for metric, per_system in zip(metrics, suspicious):
        for count in per_system:
            metric.report_suspicious(count)


def _aligned_range_parts(
    workers: Workers, metrics: Sequence[Metric[Any]], streams: Streams, source: AlignedFile
) -> Iterator[list[list[Statistics]]]:
    """Chunk statistics of an aligned file, each task reading and parsing its own partition (line range)."""
    from ..input.ranges import aligned_ranges, index_lines

    index = index_lines(source.path, RANGE_LINES, source.max_line_bytes)
    if index.lines == 0:
        raise InputError("is empty", source.path)
    tasks = list(aligned_ranges([index], _steps_per_task(index.lines, workers)))
    arguments = ((ranges[0], source) for ranges in tasks)
    yield from _collect_range_parts(workers, metrics, streams, _aligned_range_sums, arguments, tasks)


def read_aligned_range(line_range: Any, source: AlignedFile) -> tuple[list[list[str]], list[tuple[str, ...]]]:
    """A partition of an aligned file: its hypothesis column(s) and each segment's references."""
    from ..input.ranges import read_range

    rows = list(source.rows(read_range(line_range, source.encoding, strip=False), line_range.first_line))
    return [[row[0] for row in rows]], [tuple(row[1:]) for row in rows]


def _aligned_range_sums(
    metrics: Sequence[Metric[Any]], line_range: Any, source: AlignedFile
) -> tuple[list[list[Statistics]], list[list[int]]]:
    """A task: read one partition of an aligned file, then its statistics and suspicious counts."""
    systems, refs = read_aligned_range(line_range, source)
    suspicious = [[metric.count_suspicious(hyps) for hyps in systems] for metric in metrics]
    return [metric.chunk_statistics(systems, refs) for metric in metrics], suspicious


def _range_sums(
    metrics: Sequence[Metric[Any]], ranges: list[Any], n_systems: int, encoding: str
) -> tuple[list[list[Statistics]], list[list[int]]]:
    """A task: read the line ranges of every file, then the chunk's statistics and suspicious counts."""
    from ..input.ranges import read_range

    columns = [read_range(line_range, encoding) for line_range in ranges]
    systems = columns[:n_systems]
    suspicious = [[metric.count_suspicious(hyps) for hyps in systems] for metric in metrics]
    return _chunk_sums(metrics, systems, list(zip(*columns[n_systems:]))), suspicious


def sentence_scores(
    metric: Metric[Any],
    system: Iterable[str],
    references: Sequence[Iterable[str]],
    system_name: str,
    reference_names: Sequence[str],
) -> Iterator[Score]:
    """One score per segment, produced as the input is read (the CLI holds them until the last one is in)."""
    nrefs = len(references)
    segments = aligned_segments([system], references, [system_name], reference_names)
    for line, ((hyp,), refs) in enumerate(segments, 1):
        try:
            statistics = metric.single_use_statistics(hyp, refs)
        except SegmentTooLongError as exc:
            raise exc.at([system_name], list(reference_names), line) from None
        yield metric.score_from_statistics(statistics, nrefs)


def parallel_sentence_scores(
    metric: Metric[Any], streams: Streams, jobs: int = 1, executor: Executor | None = None
) -> Iterator[Score]:
    """:func:`sentence_scores` computed by workers (``jobs`` processes or ``executor``), in input order.

    Plain files and an aligned file are read in partitions (line ranges) by
    the tasks themselves; other inputs (stdin, ``.gz``, a test set) are read
    here and sent in chunks. Each segment's statistics are
    computed as :func:`sentence_scores` computes them, and scored here, so
    every number is the same as in one process.
    """
    nrefs = len(streams.references)
    names = (streams.system_names, streams.reference_names)
    with Workers([metric], jobs, executor=executor) as workers:
        aligned = aligned_source([*streams.systems, *streams.references])
        if aligned is not None and aligned.seekable():
            from ..input.ranges import aligned_ranges, index_lines

            index = index_lines(aligned.path, RANGE_LINES, aligned.max_line_bytes)
            if index.lines == 0:
                raise InputError("is empty", aligned.path)
            tasks = aligned_ranges([index], _steps_per_task(index.lines, workers))
            first_lines = [ranges[0].first_line for ranges in tasks]
            parts = workers.map(_aligned_range_sentences, ((ranges[0], aligned) for ranges in tasks))
        elif _plain_files([*streams.systems, *streams.references]):
            tasks, encoding = _plain_file_tasks(workers, streams)
            first_lines = [ranges[0].first_line for ranges in tasks]
            parts = workers.map(_range_sentences, ((ranges, encoding) for ranges in tasks))
        else:
            segments = aligned_segments(streams.systems, streams.references, *names)
            first_lines = None
            parts = workers.map(_chunk_sentences, ((chunk,) for chunk in chunks(segments, CHUNK_SEGMENTS)))
        done = 0
        try:
            for rows in parts:
                for statistics in rows:
                    yield metric.score_from_statistics(statistics, nrefs)
                done += 1
        except SegmentTooLongError as exc:  # results come in order: the failed task is number `done`
            first = first_lines[done] if first_lines is not None else done * CHUNK_SEGMENTS + 1
            raise exc.at(*names, first) from None


def _chunk_sentences(metrics: Sequence[Metric[Any]], chunk: list[Any]) -> list[list[Any]]:
    """A task: each segment's statistics, as :func:`sentence_scores` computes them."""
    metric = metrics[0]
    rows = []
    for i, ((hyp, *_), refs) in enumerate(chunk):
        try:
            rows.append(metric.single_use_statistics(hyp, refs))
        except SegmentTooLongError as exc:
            exc.segment = i
            raise
    return rows


def _range_sentences(metrics: Sequence[Metric[Any]], ranges: list[Any], encoding: str) -> list[list[Any]]:
    """A task: read the same line range of the hypothesis and every reference file, then each segment's statistics."""
    from ..input.ranges import read_range

    hyps, *refs = [read_range(line_range, encoding) for line_range in ranges]
    return _chunk_sentences(metrics, [((hyp,), seg_refs) for hyp, seg_refs in zip(hyps, zip(*refs))])


def _aligned_range_sentences(metrics: Sequence[Metric[Any]], line_range: Any, source: AlignedFile) -> list[list[Any]]:
    """A task: read one partition of an aligned file, then each segment's statistics."""
    systems, refs = read_aligned_range(line_range, source)
    return _chunk_sentences(metrics, [((hyp,), seg_refs) for hyp, seg_refs in zip(systems[0], refs)])


def _length_error(row: tuple, done: int, iterators: list[Iterator[str]], names: Sequence[str], n_systems: int) -> None:
    """Count what is left of every stream so the message can give full line counts."""
    counts = [done + (0 if item is _END else 1 + sum(1 for _ in it)) for item, it in zip(row, iterators)]
    _report_lengths(counts, names, n_systems)


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
