"""Aligned line ranges of plain files, for worker processes that read their own input.

With ``--jobs``, handing every segment's text from the parent to the workers
(reading, decoding, pickling, unpickling) costs about as much as scoring it,
and the parent competes with the workers for the CPUs. Instead the parent
only counts lines: one pass over the raw bytes of each file, noting where
every ``step``-th line starts. Line ``k * step`` starts at a different byte in
each file, but it is the same segment, so a worker given the byte ranges of
one step in every file reads exactly the segments the others do not, and
decodes them with the same checks and error messages as the streaming reader.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import BinaryIO

from ..errors import InputError
from ..frozen import Frozen
from .reading import (
    DEFAULT_MAX_LINE_BYTES,
    UTF8_BOM,
    _decoded_batches,
    check_line_lengths,
    decode_lines,
    decodes_whole,
    newline_scanner,
    open_binary,
)

_INDEX_BLOCK = 1 << 16  # smaller than `step` lines, so a block rarely holds two marks


class LineIndex(Frozen):
    """Where every ``step``-th line of a file starts, and how many lines it has."""

    path: str
    step: int
    lines: int
    starts: tuple[int, ...]  # byte offset of line 0, step, 2*step, ... (those < lines), then the file size
    has_bom: bool


def index_lines(path: str, step: int, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> LineIndex:
    """Count the lines of ``path`` (split on ``\\n`` only, as the reader does) and note range starts.

    A line over ``max_line_bytes`` (0: no limit) is refused here, before any worker reads it whole.
    """
    starts = [0]
    seen = 0  # newlines before the current search position
    offset = 0  # byte offset of the current block
    next_mark = step
    last_byte = b""
    has_bom = False
    pending = 0  # bytes of the line that runs on past the current block
    with open_binary(path) as handle:
        try:
            while block := handle.read(_INDEX_BLOCK):
                if offset == 0:
                    has_bom = block.startswith(UTF8_BOM)
                remaining = block.count(b"\n")
                if max_line_bytes:
                    cut = block.rfind(b"\n")
                    check_line_lengths(block, cut, pending, max_line_bytes, path, seen)
                    pending = pending + len(block) if cut < 0 else len(block) - cut - 1
                position = 0
                while seen + remaining >= next_mark:
                    # the newline that ends line number next_mark is in this block
                    need = next_mark - seen
                    rest = block[position:] if position else block
                    position = len(block) - len(rest.split(b"\n", need)[-1])
                    starts.append(offset + position)
                    remaining -= need
                    seen = next_mark
                    next_mark += step
                seen += remaining
                offset += len(block)
                last_byte = block[-1:]
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", source=path) from None
    lines = seen + (1 if last_byte not in (b"", b"\n") else 0)  # a last line without a newline counts
    if len(starts) > 1 and starts[-1] == offset:
        starts.pop()  # a mark at the very end of the file starts no line
    return LineIndex(path, step, lines, (*starts, offset), has_bom)


class LineRange(Frozen):
    """Lines ``first_line`` ... of one file, bytes ``start`` to ``end``."""

    path: str
    start: int
    end: int
    first_line: int  # 1-based number of the first line, for error messages


def aligned_ranges(indexes: list[LineIndex], steps_per_range: int = 1) -> list[list[LineRange]]:
    """The k-th range of every file, for each k: the same segments in every file.

    A range spans ``steps_per_range`` index steps. The files must have the
    same number of lines (the caller checks first).
    """
    step = indexes[0].step
    marks = len(indexes[0].starts) - 1
    result = []
    for k in range(0, marks, steps_per_range):
        end = min(k + steps_per_range, marks)
        result.append([LineRange(index.path, index.starts[k], index.starts[end], k * step + 1) for index in indexes])
    return result


def balanced_ranges(indexes: list[LineIndex], parts: int) -> list[list[LineRange]]:
    """At most ``parts`` aligned ranges (as :func:`aligned_ranges` gives them) of about equal bytes.

    The cut is at the index mark where the bytes of all files read so far come nearest to each
    part's share: work follows bytes (characters to tokenize) more closely than lines, and WMT
    corpora mix sets of very different line lengths.
    """
    step = indexes[0].step
    marks = len(indexes[0].starts) - 1
    ends = [sum(index.starts[k] for index in indexes) for k in range(marks + 1)]  # bytes before mark k
    parts = min(parts, max(1, marks))  # each cut is a distinct mark: more parts add none (-j 10**20 looped)
    cuts = [0]
    for j in range(1, parts):
        share = ends[-1] * j / parts
        k = bisect_left(ends, share, cuts[-1] + 1, marks)
        if k > cuts[-1] + 1 and share - ends[k - 1] < ends[k] - share:
            k -= 1
        if k < marks:
            cuts.append(k)
    cuts.append(marks)
    return [[LineRange(index.path, index.starts[a], index.starts[b], a * step + 1) for index in indexes]
            for a, b in zip(cuts, cuts[1:])]


def read_range(line_range: LineRange, encoding: str, strip: bool = True) -> list[str]:
    """The ``rstrip()``ped lines of a range (raw with ``strip=False``), decoded and checked as the streaming
    reader does."""
    try:
        with open_binary(line_range.path) as handle:
            handle.seek(line_range.start)
            data = handle.read(line_range.end - line_range.start)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=line_range.path) from None
    if decodes_whole(encoding) and b"\x00" not in data:
        try:
            lines = data.decode(encoding).split("\n")
        except UnicodeDecodeError:
            pass  # decoded line by line below, to name the line
        else:
            if lines[-1] == "":
                lines.pop()
            return [line.rstrip() for line in lines] if strip else lines
    raw_lines = data.split(b"\n")
    if raw_lines[-1] == b"":
        raw_lines.pop()
    decoded = decode_lines(raw_lines, line_range.path, encoding, line_range.first_line)
    return [line.rstrip() for line in decoded] if strip else list(decoded)



class _RangeReader:
    """Bytes ``start`` to ``end`` of an open file, as the streaming reader reads a file."""

    def __init__(self, handle: BinaryIO, start: int, end: int) -> None:
        handle.seek(start)
        self._handle = handle
        self._left = end - start

    def read(self, size: int = -1) -> bytes:
        size = self._left if size < 0 else min(size, self._left)
        data = self._handle.read(size) if size else b""
        self._left -= len(data)
        return data

    read1 = read


def iter_range(line_range: LineRange, encoding: str, max_line_bytes: int = 0) -> Iterator[str]:
    """The ``rstrip()``ped lines of a range, read in blocks as :func:`~bleucli.input.reading.iter_lines` reads a file.

    :func:`read_range` reads a range whole; this keeps memory flat for long ranges (one range per
    process) and is faster too: decoding and splitting 64 KiB blocks stays in the CPU caches.
    Errors name the file's line numbers. Lines over ``max_line_bytes`` (0: no limit; :func:`index_lines`
    checks them for the ranges it makes) are refused as the streaming reader refuses them.
    """
    handle = open_binary(line_range.path)
    try:
        reader = _RangeReader(handle, line_range.start, line_range.end)
        for lines in _decoded_batches(reader, line_range.path, encoding, max_line_bytes,  # type: ignore[arg-type]
                                      first_line=line_range.first_line):
            yield from map(str.rstrip, lines)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=line_range.path) from None
    finally:
        handle.close()


_SCAN_BLOCK = 1 << 20


def _scan_blocks(path: str, start: int, end: int | None) -> Iterator[tuple[int, bytearray, int]]:
    """``(offset, buffer, size)`` for each block of bytes ``start`` to ``end`` (the file's end if None) of
    ``path``, read into one reused 1 MiB buffer: ``buffer[:size]`` is the file from ``offset``."""
    buffer = bytearray(_SCAN_BLOCK)
    try:
        with open_binary(path) as handle:
            handle.seek(start)
            offset, left = start, (end - start if end is not None else -1)
            while left:
                size = handle.readinto(memoryview(buffer)[:left] if 0 < left < _SCAN_BLOCK  # type: ignore[attr-defined]
                                       else buffer)
                if not size:
                    break
                yield offset, buffer, size
                offset += size
                left = left - size if left > 0 else left
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=path) from None


def newline_offsets(path: str, counts: list[int]) -> list[int | None]:
    """For each of ``counts`` (ascending), the byte offset just after that many newlines (0 for 0), or None
    where the file has fewer: where line ``count + 1`` starts.

    One pass over 1 MiB blocks with :func:`newline_scanner`, reading no further than the last count.
    """
    scan = newline_scanner()
    found: list[int | None] = []
    wanted = iter(counts)
    target = next(wanted, None)
    seen = 0
    while target == 0:  # before the first newline: the file's start
        found.append(0)
        target = next(wanted, None)
    if target is not None:
        for offset, buffer, size in _scan_blocks(path, 0, None):
            position = 0
            while target is not None:
                more, position = scan(buffer, position, size, target - seen)
                seen += more
                if seen < target:
                    break  # the next block
                while target == seen:  # reached (repeated counts share the offset)
                    found.append(offset + position)
                    target = next(wanted, None)
            if target is None:
                break
    return found + [None] * (len(counts) - len(found))


def count_newlines(path: str, start: int = 0, end: int | None = None) -> int:
    """The newlines in bytes ``start`` to ``end`` (the file's end if None) of ``path``."""
    scan = newline_scanner()
    return sum(scan(buffer, 0, size, -1)[0] for _, buffer, size in _scan_blocks(path, start, end))


def count_lines(path: str) -> int:
    """Lines as the reader counts them: newlines, plus a last line without one."""
    try:
        with open_binary(path) as handle:
            handle.seek(0, 2)
            size = handle.tell()
            last = b"\n"
            if size:
                handle.seek(size - 1)
                last = handle.read(1)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=path) from None
    return count_newlines(path) + (last != b"\n")


def cut_after_newline(path: str, position: int) -> int:
    """The offset just after the first newline at or after ``position`` (the file size if there is none)."""
    try:
        with open_binary(path) as handle:
            handle.seek(position)
            offset = position
            while block := handle.read(_INDEX_BLOCK):
                found = block.find(b"\n")
                if found >= 0:
                    return offset + found + 1
                offset += len(block)
            return offset
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=path) from None
