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
