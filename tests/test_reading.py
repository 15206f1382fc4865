"""Reading bytes into lines: sacreBLEU's splitting, strict decoding, clear errors."""

from __future__ import annotations

import gzip
import io

import pytest

from bleucli.errors import InputError
from bleucli.reading import decode_source, iter_lines, read_source, split_lines


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
