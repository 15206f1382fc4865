"""Reading hypothesis and reference text exactly as sacreBLEU does, but failing loudly.

sacreBLEU splits files on ``\\n`` only and ``rstrip()``s every line; we do the
same for files *and* stdin (sacreBLEU's stdin uses universal newlines, so a
lone ``\\r`` scores differently there). What sacreBLEU does silently or with a
traceback is an :class:`~bleucli.errors.InputError` here, naming the file and
line: undecodable bytes, NUL bytes (binary or UTF-16 input), an empty input.
A UTF-8 byte order mark is kept, as sacreBLEU keeps it (published scores
depend on that), but reported through ``notices`` so the CLI can warn.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO, TypeVar

from ..errors import InputError, OptionError
from ..frozen import Frozen
from ..options import DEFAULT_MAX_LINE_BYTES  # an option default: the longest line read

STDIN_NAME = "<stdin>"
_BOM = "\ufeff"
UTF8_BOM = _BOM.encode("utf-8")


def bom_notice(name: str) -> str:
    """What the CLI says about a leading byte order mark (kept, as sacreBLEU keeps it)."""
    return (
        f"{name} starts with a UTF-8 byte order mark; it is kept as part of the first "
        "token, as sacreBLEU does, which lowers the score if the other side lacks it"
    )


class TextSource(Frozen):
    """The decoded text of one input and what is worth telling the user about it (``notices`` grows)."""

    name: str
    text: str
    notices: list[str]

    def lines(self) -> list[str]:
        """The lines as sacreBLEU scores them: split on ``\\n``, ``rstrip()``ped."""
        return split_lines(self.text)

    def raw_lines(self) -> list[str]:
        """The lines before stripping (for splitting tab-separated columns)."""
        return split_raw_lines(self.text)


class FileLines(Frozen):
    """The lines of a file named on the command line: iterated like :func:`iter_lines`.

    Keeping the path (rather than an open stream) lets parallel scoring hand
    workers byte ranges of the file to read themselves (:mod:`bleucli.input.ranges`).
    """

    path: str
    encoding: str = "utf-8"
    notices: list[str] | None = None
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES

    def __iter__(self) -> Iterator[str]:
        return iter_lines(self.path, encoding=self.encoding, notices=self.notices,
                          max_line_bytes=self.max_line_bytes)

    def seekable(self) -> bool:
        """Whether a range of lines can be read without reading what comes before it."""
        return not self.path.endswith(".gz") and _ascii_compatible(self.encoding) and os.path.isfile(self.path)


def read_bytes(path: str, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> bytes:
    """The raw content of ``path`` (``.gz`` decompressed), or an InputError naming it.

    Read in blocks, each line's length checked as it arrives (see :func:`read_stream`).
    """
    try:
        if path.endswith(".gz"):
            import gzip

            with gzip.open(path, "rb") as handle:
                return read_stream(handle, path, max_line_bytes)  # type: ignore[arg-type]
        with open(path, "rb") as handle:
            return read_stream(handle, path, max_line_bytes)
    except FileNotFoundError:
        raise InputError("no such file", source=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=path) from None
    except PermissionError:
        raise InputError("permission denied", source=path) from None
    except Exception as exc:  # gzip errors, I/O errors
        if not is_read_error(exc):
            raise
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"cannot read: {reason}", source=path) from None


def is_read_error(exc: BaseException) -> bool:
    """Whether ``exc`` is a failure to read a (possibly gzipped) file: an I/O error, a truncated gzip stream
    (EOFError), or damaged deflate data (``zlib.error``, which is neither: it was an internal error)."""
    if isinstance(exc, (OSError, EOFError)):
        return True
    import zlib  # loaded already whenever gzip ran

    return isinstance(exc, zlib.error)


def read_stream(stream: BinaryIO, name: str, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> bytes:
    """All of ``stream``, refusing a line longer than ``max_line_bytes`` as soon as it is seen.

    ``stream.read()`` on ``/dev/zero`` or an endless pipe would take all memory first.
    """
    return b"".join(_line_chunks(stream, name, max_line_bytes, keep_newlines=True))


def read_stdin(closed_hint: str = "", terminal_error: str | None = None) -> bytes:
    """All of the standard input as bytes, each line's length bounded as it arrives (the caller decodes).

    The one way the commands that take no ``--max-line-bytes`` (multi-bleu, nltk, pairwise...) read stdin:
    closed (``<&-``): an InputError ending in ``closed_hint``; a terminal: ``terminal_error`` as an
    InputError if given (rather than waiting for typed input), read otherwise.
    """
    stdin = stdin_buffer(closed_hint)  # CliRunner gives one too
    if terminal_error is not None and stdin.isatty():
        raise InputError(terminal_error)
    return read_stream(stdin, STDIN_NAME)


def stdin_buffer(hint: str = "") -> BinaryIO:
    """The bytes under ``sys.stdin``, or an InputError when the process was started with it closed (``<&-``).

    Python then sets ``sys.stdin`` to None: ``sys.stdin.buffer`` would be an AttributeError (an internal error).
    """
    import sys

    if sys.stdin is None:
        raise InputError(f"standard input is closed{hint}", "<stdin>")
    return sys.stdin.buffer


def decode_source(data: bytes, name: str, encoding: str = "utf-8") -> TextSource:
    """Decode raw bytes strictly, pointing at the file and line of any bad byte."""
    if b"\x00" in data and encoding.lower().replace("_", "-") in ("utf-8", "utf8", "ascii", "latin-1"):
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise InputError("contains a NUL byte: binary or UTF-16 input? (see --encoding)", name, line)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        raise InputError(
            f"not valid {encoding}: byte {data[exc.start:exc.start + 1]!r} at column "
            f"{exc.start - line_start + 1} (byte offset {exc.start}); see --encoding",
            name, line,
        ) from None
    except UnicodeError as exc:  # codecs such as punycode raise the base class, without a position
        raise InputError(f"not valid {encoding}: {exc}; see --encoding", name) from None
    except LookupError:
        raise OptionError(f"--encoding: {encoding_problem(encoding)}") from None
    source = TextSource(name, text, [])
    if text.startswith(_BOM):
        source.notices.append(bom_notice(name))
    return source


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only (a final newline ends the last line), then ``rstrip()``ped."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def split_raw_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only, *not* stripped (for tab-separated columns)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_source(path: str, encoding: str = "utf-8") -> TextSource:
    """Read a file (``-`` is not handled here: the CLI owns stdin)."""
    if os.path.isdir(path):
        raise InputError("is a directory, not a file", source=path)
    return decode_source(read_bytes(path), path, encoding)


def _ascii_compatible(encoding: str) -> bool:
    """Whether ``\\n`` is the single byte 0x0A in this encoding (so bytes can be split on it)."""
    try:
        return "\n".encode(encoding) == b"\n" and "a".encode(encoding) == b"a"
    except LookupError:
        raise OptionError(f"--encoding: {encoding_problem(encoding)}") from None


def encoding_problem(encoding: str) -> str | None:
    """Why ``encoding`` cannot decode text (unknown, or a codec such as ``rot13`` that is no text encoding), else None.

    A wrong name is the caller's mistake, not the data's: the commands check it as they parse ``-e``
    (a usage error, exit 2), and the readers raise :class:`~bleucli.errors.OptionError` for it.
    """
    try:
        info = codecs.lookup(encoding)
    except (LookupError, ValueError, TypeError):
        return f"unknown encoding {encoding!r}"
    if not getattr(info, "_is_text_encoding", True):
        return f"{encoding!r} is not a text encoding"
    if info.name == "undefined":
        return "'undefined' decodes nothing (it is Python's codec that always fails)"
    return None


def iter_lines(
    name: str,
    stream: BinaryIO | None = None,
    encoding: str = "utf-8",
    notices: list[str] | None = None,
    strip: bool = True,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[str]:
    """Yield the ``rstrip()``ped lines of a file (or of ``stream``) one at a time.

    With ``strip=False`` only a final ``\\r`` is removed, for input that is
    split into tab-separated columns before each column is stripped.

    The streaming twin of :func:`read_source` + ``lines()``: same splitting,
    same strict decoding and the same errors (with the line number), but
    constant memory, so a corpus of any size can be scored. Encodings in which
    a newline is not the byte 0x0A (UTF-16, UTF-32) are decoded whole instead.
    """
    if not _ascii_compatible(encoding):
        data = (read_stream(stream, name, max_line_bytes * 4) if stream is not None  # 4: UTF-32's widest
                else read_bytes(name, max_line_bytes * 4))
        source = decode_source(data, name, encoding)
        if notices is not None:
            notices.extend(source.notices)
        yield from source.lines() if strip else source.raw_lines()
        return
    handle = stream if stream is not None else open_binary(name)
    try:
        first = True
        for lines in _decoded_batches(handle, name, encoding, max_line_bytes):
            if first and lines:
                first = False
                if lines[0].startswith(_BOM) and notices is not None:
                    notices.append(bom_notice(name))
            if strip:
                yield from map(str.rstrip, lines)
            else:
                yield from (line[:-1] if line.endswith("\r") else line for line in lines)
    finally:
        if stream is None:
            handle.close()


def decodes_whole(encoding: str) -> bool:
    """Whether decoding many lines at once equals decoding them one by one.

    True where a newline byte can never be part of a multi-byte character and
    no decoder state carries over a line end (UTF-8, ASCII, Latin-1).
    """
    try:
        return codecs.lookup(encoding).name in ("utf-8", "ascii", "iso8859-1")
    except LookupError:
        return False


def _decoded_batches(
    handle: BinaryIO, name: str, encoding: str, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES, first_line: int = 1
) -> Iterator[list[str]]:
    """The decoded lines of each block read, errors naming their line.

    Where :func:`decodes_whole` allows, a block of lines is decoded with one
    call (several times faster than line by line); a block with a bad byte or
    a NUL, or in another encoding, is decoded line by line, naming the line.
    """
    whole = decodes_whole(encoding)
    number = first_line
    check_nul = codecs.lookup(encoding).name in _NUL_IS_SUSPICIOUS
    for chunk in _line_chunks(handle, name, max_line_bytes, check_nul=check_nul, first_line=first_line):
        lines = None
        if whole and b"\x00" not in chunk:
            try:
                lines = chunk.decode(encoding).split("\n")
            except UnicodeDecodeError:
                pass
        if lines is None:
            lines = list(decode_lines(chunk.split(b"\n"), name, encoding, number))
        number += len(lines)
        yield lines


def decode_lines(raw_lines: Iterable[bytes], name: str, encoding: str, first_number: int = 1) -> Iterator[str]:
    """Decode lines strictly; a bad byte or a suspicious NUL is an InputError naming the line."""
    check_nul = codecs.lookup(encoding).name in _NUL_IS_SUSPICIOUS
    for number, raw in enumerate(raw_lines, first_number):
        if check_nul and b"\x00" in raw:
            raise InputError("contains a NUL byte: binary or UTF-16 input? (see --encoding)", name, number)
        try:
            yield raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise InputError(
                f"not valid {encoding}: byte {raw[exc.start:exc.start + 1]!r} at column {exc.start + 1}; "
                "see --encoding", name, number,
            ) from None
        except UnicodeError as exc:  # codecs such as punycode raise the base class, without a position
            raise InputError(f"not valid {encoding}: {exc}; see --encoding", name, number) from None


_NUL_IS_SUSPICIOUS = {"utf-8", "ascii", "latin-1", "iso8859-1", "cp1252", "iso8859-15"}


def open_binary(path: str) -> BinaryIO:
    """A plain or gzipped file opened for binary reading, or an InputError naming it."""
    if os.path.isdir(path):
        raise InputError("is a directory, not a file", source=path)
    try:
        if path.endswith(".gz"):
            import gzip

            return gzip.open(path, "rb")  # type: ignore[return-value]
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError("no such file", source=path) from None
    except PermissionError:
        raise InputError("permission denied", source=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=path) from None


#: ``(buffer, start, end, limit) -> (found, position)``: see :func:`_python_newlines`.
NewlineScanner = Callable[[Any, int, int, int], tuple[int, int]]


def _python_newlines(buffer: Any, start: int, end: int, limit: int) -> tuple[int, int]:
    """The newlines in ``buffer[start:end]``, at most ``limit`` of them (negative: all), and the offset just
    after the last one found (``start`` if none): the compiled ``newlines``, for when it is not built."""
    found = buffer.count(b"\n", start, end)
    if limit < 0 or found <= limit:
        return found, (buffer.rfind(b"\n", start, end) + 1 if found else start)
    position = start
    for _ in range(limit):
        position = buffer.index(b"\n", position, end) + 1
    return limit, position


def newline_scanner() -> NewlineScanner:
    """The compiled scanner (memchr from one newline to the next, about three times faster than
    ``bytes.count`` on WMT text), or the pure-Python one under ``BLEUCLI_PURE_PYTHON`` or without the
    extension: both give the same answers (``tests/test_reading.py``)."""
    from ..metrics.compiled import compiled_matcher

    compiled = compiled_matcher()
    return getattr(compiled, "newlines", _python_newlines)


_BLOCK_BYTES = 1 << 16


def _line_chunks(
    handle: BinaryIO,
    name: str,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    check_nul: bool = False,
    keep_newlines: bool = False,
    first_line: int = 1,
) -> Iterator[bytes]:
    """The input in chunks of whole lines (split on b"\\n" only, never on \\r), read in blocks.

    Each chunk holds one or more lines joined by b"\\n", without the newline
    that ends the last one (with ``keep_newlines``, the blocks as read). Handling
    64 KiB blocks in C is several times faster than iterating a binary file line
    by line; ``read1`` returns what a pipe has, so streamed input is not held
    back waiting for a full block. A line longer than a block is collected in
    parts, never re-copied per block.

    Hostile input is refused as the bytes arrive, not once a newline comes
    (which may be never): a line longer than ``max_line_bytes`` (0: no limit),
    and with ``check_nul`` a NUL byte in a line still being collected. Errors
    number the handle's first line ``first_line`` (a range of a file).
    """
    read = getattr(handle, "read1", handle.read)
    scan = newline_scanner()
    parts: list[bytes] = []
    pending = 0  # bytes of the line being collected
    newlines = first_line - 1  # newlines before the current block
    try:
        while block := read(_BLOCK_BYTES):
            in_block, after_last = scan(block, 0, len(block), -1)
            cut = after_last - 1  # the last newline, or -1
            if max_line_bytes:
                check_line_lengths(block, cut, pending, max_line_bytes, name, newlines)
            if cut < 0:
                if check_nul and b"\x00" in block:
                    raise InputError("contains a NUL byte: binary or UTF-16 input? (see --encoding)",
                                     name, newlines + 1)
                pending += len(block)
                parts.append(block)
                continue
            newlines += in_block
            pending = len(block) - cut - 1
            if keep_newlines:
                parts.append(block)
                continue
            if parts:
                parts.append(block[:cut])
                yield b"".join(parts)
            else:
                yield block[:cut]
            parts = [block[cut + 1:]] if cut + 1 < len(block) else []
        if parts:
            yield b"".join(parts)
    except Exception as exc:
        if not is_read_error(exc):
            raise
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"cannot read: {reason}", source=name) from None


def check_line_lengths(block: bytes, cut: int, pending: int, limit: int, name: str, newlines: int) -> None:
    """Raise if a line that ends in, or runs through, ``block`` is longer than ``limit`` bytes.

    ``pending`` bytes of the current line came before ``block``; ``cut`` is its
    last newline (-1: none). Lines wholly inside a block shorter than the
    limit cannot exceed it, so the common case is two comparisons.
    """
    first = block.find(b"\n") if cut >= 0 else len(block)
    if pending + first > limit:
        raise line_too_long(name, newlines + 1, limit)
    if cut >= 0 and len(block) - cut - 1 > limit:
        raise line_too_long(name, newlines + block.count(b"\n") + 1, limit)
    if len(block) > limit and cut > first:  # a limit smaller than a block: look at every line
        start, number = first + 1, newlines + 2
        while (end := block.find(b"\n", start)) >= 0:
            if end - start > limit:
                raise line_too_long(name, number, limit)
            start, number = end + 1, number + 1


class LineTooLong(InputError):
    """A line over the limit of ``max_line_bytes``; ``limit`` is that limit."""

    def __init__(self, name: str, line: int, limit: int) -> None:
        self.limit = limit
        super().__init__(f"line is longer than {limit:,} bytes: not text? (raise the limit with --max-line-bytes, "
                         "0 for none)", name, line)

    def __reduce__(self) -> Any:  # raised in worker processes too: rebuilt from its fields, not its text
        return (LineTooLong, (self.source, self.line, self.limit))

    def without_option(self) -> InputError:
        """The same error for a command that has no ``--max-line-bytes``: the limit is fixed there."""
        return InputError(f"line is longer than {self.limit:,} bytes: not text? (this command's fixed limit; the "
                          "scoring command, stats and compare take --max-line-bytes)", self.source, self.line)


_Reader = TypeVar("_Reader", bound=Callable[..., Any])


def fixed_line_limit(read: _Reader) -> _Reader:
    """``read`` for a command without ``--max-line-bytes``: a line over the limit is reported without the option."""
    import functools

    @functools.wraps(read)
    def reading(*args: Any, **kwargs: Any) -> Any:
        try:
            return read(*args, **kwargs)
        except LineTooLong as exc:
            raise exc.without_option() from None

    return reading  # type: ignore[return-value]


def line_too_long(name: str, line: int, limit: int) -> InputError:
    """The error for a line over the limit: what the limit is and how to raise it."""
    return LineTooLong(name, line, limit)
