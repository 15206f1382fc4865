"""Reading bytes into lines: sacreBLEU's splitting, strict decoding, clear errors."""

from __future__ import annotations

import gzip
import io

import pytest

from bleucli.errors import InputError
from bleucli.input.reading import decode_source, iter_lines, read_source, split_lines


@pytest.mark.parametrize(
    "text, lines",
    [("", []), ("a\n", ["a"]), ("a", ["a"]), ("a\n\n", ["a", ""]), ("a \r\nb\t\n", ["a", "b"]),
     ("a\rb\n", ["a\rb"]), ("a\u2028b\n", ["a\u2028b"]), ("\n", [""])],
)
def test_split_lines(text: str, lines: list[str]) -> None:
    assert split_lines(text) == lines


def test_decode_error_points_at_line_and_column() -> None:
    with pytest.raises(InputError) as info:
        decode_source(b"ok\nalso ok\nbad \xc3\x28 here\n", "f.txt")
    assert info.value.source == "f.txt" and info.value.line == 3
    assert "column 5" in str(info.value) and str(info.value).startswith("f.txt:3: ")


def test_other_encodings() -> None:
    source = decode_source("Grüße\n".encode("latin-1"), "f", "latin-1")
    assert source.lines() == ["Grüße"]
    utf16 = decode_source("a\nb\n".encode("utf-16"), "f", "utf-16")
    assert utf16.lines() == ["a", "b"]
    with pytest.raises(InputError, match="NUL"):
        decode_source("a\nb\n".encode("utf-16-le"), "f")


def test_bom_is_kept_and_noticed() -> None:
    source = decode_source(b"\xef\xbb\xbfa b\n", "f")
    assert source.lines() == ["\ufeffa b"] and "byte order mark" in source.notices[0]


def test_gzip_is_read_transparently(tmp_path) -> None:
    path = tmp_path / "x.txt.gz"
    path.write_bytes(gzip.compress(b"a\nb\n"))
    assert read_source(str(path)).lines() == ["a", "b"]
    broken = tmp_path / "broken.gz"
    broken.write_bytes(b"not gzip")
    with pytest.raises(InputError, match="cannot read"):
        read_source(str(broken))


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"\n\n", b"a", b"a\n", b"a\r\nb\r\n", b"x" * 200_000, b"x" * 200_000 + b"\ny" + b"z" * 70_000,
     b"ab\n" * 50_000 + b"c", b"\n" * 70_000],
)
def test_lines_across_block_boundaries(data: bytes, tmp_path) -> None:
    """Block reading splits exactly like line iteration, lines longer than a block included."""
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    expected = [line.decode().rstrip() for line in io.BytesIO(data)]
    assert list(iter_lines(str(path))) == expected


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1", "cp1252"])
def test_errors_deep_in_a_file_name_their_line(encoding: str, tmp_path) -> None:
    """Blocks are decoded at once, but a NUL (or bad byte) still names its own line, in any block."""
    good = "Zeile\n".encode(encoding)
    path = tmp_path / "input.txt"
    path.write_bytes(good * 30_000 + b"a\x00b\n" + good * 10)
    with pytest.raises(InputError, match="NUL") as caught:
        list(iter_lines(str(path), encoding=encoding))
    assert caught.value.line == 30_001
    if encoding == "utf-8":
        path.write_bytes(good * 25_000 + b"ok \xff\n" + good * 10)
        with pytest.raises(InputError, match="column 4") as caught:
            list(iter_lines(str(path)))
        assert caught.value.line == 25_001


def test_line_by_line_encodings_name_the_line_too(tmp_path) -> None:
    path = tmp_path / "input.txt"
    path.write_bytes("\u65e5\u672c\n".encode("shift_jis") * 20_000 + b"ok \xff\n")
    with pytest.raises(InputError, match="not valid shift_jis") as caught:
        list(iter_lines(str(path), encoding="shift_jis"))
    assert caught.value.line == 20_001


def test_block_decoding_equals_line_decoding(tmp_path) -> None:
    text = "".join(f"Satz {i} \u00e4\u00f6\u00fc \u4e2d\u6587 \r\n" if i % 3 else f"\ufeff{i}\t \n"
                   for i in range(40_000))
    path = tmp_path / "input.txt"
    path.write_bytes(text.encode("utf-8"))
    expected = [line.rstrip() for line in text.split("\n")[:-1]]
    assert list(iter_lines(str(path))) == expected
    assert list(iter_lines(str(path), strip=False)) == [line[:-1] if line.endswith("\r") else line
                                                         for line in text.split("\n")[:-1]]


# --- the newline scanner: compiled (memchr) and pure Python give the same answers -----------------------


def _scanners() -> list[object]:
    from bleucli.input.reading import _python_newlines
    from bleucli.metrics.compiled import compiled_matcher

    compiled = compiled_matcher()
    return [_python_newlines] + ([compiled.newlines] if compiled is not None else [])


def _model_newlines(data: bytes, start: int, end: int, limit: int) -> tuple[int, int]:
    """The spec, the slow way: walk byte by byte."""
    found, position = 0, start
    for i in range(start, end):
        if found == limit:
            break
        if data[i] == 0x0A:
            found, position = found + 1, i + 1
    return found, position


@pytest.mark.parametrize("scanner", _scanners(), ids=lambda s: getattr(s, "__module__", "?"))
def test_newline_scanner_matches_a_byte_by_byte_model(scanner) -> None:  # type: ignore[no-untyped-def]
    import random

    rng = random.Random(23)
    for _ in range(3000):
        data = bytes(rng.choice(b"ab\n\n\r\x00\xff") for _ in range(rng.randint(0, 40)))
        start = rng.randint(0, len(data))
        end = rng.randint(start, len(data))
        limit = rng.choice([-1, 0, 1, 2, 3, rng.randint(0, 20)])
        for buffer in (data, bytearray(data)):  # what the readers pass
            expected = _model_newlines(data, start, end, limit)
            assert scanner(buffer, start, end, limit) == expected, (data, start, end, limit)


def test_compiled_newline_scanner_refuses_ranges_outside_the_buffer() -> None:
    from bleucli.metrics.compiled import compiled_matcher

    compiled = compiled_matcher()
    if compiled is None:
        pytest.skip("the compiled extension is not built")
    for start, end in ((-1, 2), (0, 4), (3, 2)):
        with pytest.raises(ValueError, match="start and end"):
            compiled.newlines(b"a\nb", start, end, -1)
    with pytest.raises(TypeError):
        compiled.newlines("a\nb", 0, 3, -1)  # text has no byte buffer


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "python"])
def test_newline_offsets_and_counts_of_files(tmp_path, monkeypatch: pytest.MonkeyPatch, pure: bool) -> None:  # type: ignore[no-untyped-def]
    import random

    from bleucli.input import ranges as file_ranges

    if pure:
        monkeypatch.setenv("BLEUCLI_PURE_PYTHON", "1")
    monkeypatch.setattr(file_ranges, "_SCAN_BLOCK", 7)  # many blocks: counts and offsets cross block edges
    rng = random.Random(5)
    for trial in range(60):
        data = bytes(rng.choice(b"xy\n") for _ in range(rng.randint(0, 50)))
        path = tmp_path / f"f{trial}"
        path.write_bytes(data)
        total = data.count(b"\n")
        counts = sorted(rng.randint(0, total + 2) for _ in range(rng.randint(1, 4)))
        expected = [None if c > total else (0 if c == 0 else [i for i, b in enumerate(data) if b == 0x0A][c - 1] + 1)
                    for c in counts]
        assert file_ranges.newline_offsets(str(path), counts) == expected, (data, counts)
        start = rng.randint(0, len(data))
        end = rng.randint(start, len(data))
        assert file_ranges.count_newlines(str(path), start, end) == data[start:end].count(b"\n")
        assert file_ranges.count_newlines(str(path), start) == data[start:].count(b"\n")
