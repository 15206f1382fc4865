"""The fault matrix (reliability.md section 4, rows 1, 2, 6, 7, 9, 10, 16, 17): each fault ends with
a correct cache or a clean error, and a plain rerun recovers once the fault is gone."""

from __future__ import annotations

import gzip
import socket

import pytest

from bleucli import testsets as ts
from bleucli.errors import DownloadError, IntegrityError, NotCachedError, RedirectError

from .conftest import leftovers


def final_download(env, name: str):
    return env.cache / "downloads" / name / name


def assert_clean_failure(env, name: str) -> None:
    """Nothing stored under the final name, no temp file left behind."""
    assert not final_download(env, name).exists()
    assert leftovers(env.cache) == []


def assert_recovers(env, corpus) -> None:
    assert ts.get_source("toy-tsv", "en-de") == [s.rstrip() for s in corpus.src]
    assert leftovers(env.cache) == []


# -- row 1: truncated without Content-Length -> checksum mismatch, nothing kept, next run re-downloads
def test_truncated_without_content_length(env, corpus):
    env.server.script("mtnt.tar.gz", "trunc_nocl")
    with pytest.raises(IntegrityError) as err:
        ts.get_source("toy-tsv", "en-de")
    message = str(err.value)
    assert err.value.expected in message and err.value.actual in message
    assert env.server.base_url + "/files/mtnt.tar.gz" in message
    assert_clean_failure(env, "mtnt.tar.gz")
    assert_recovers(env, corpus)
    assert len(env.server.gets("mtnt.tar.gz")) == 2


# -- row 2: truncated with Content-Length / connection reset mid-body -> resumed with Range + If-Range
@pytest.mark.parametrize("fault", ["trunc_cl", "reset"])
def test_cut_mid_stream_is_resumed(env, corpus, fault):
    env.server.script("mtnt.tar.gz", fault)
    assert_recovers(env, corpus)
    gets = env.server.gets("mtnt.tar.gz")
    assert len(gets) == 2
    if fault == "trunc_cl":  # (after a TCP reset the kernel may drop bytes already received)
        size = len(corpus.files["mtnt.tar.gz"])
        assert gets[1]["range"] == f"bytes={size // 2}-"
        assert gets[1]["if_range"] and gets[1]["if_range"].startswith('"')


def test_cut_forever_gives_download_error(env):
    env.server.script("mtnt.tar.gz", *["trunc_cl"] * 10)
    with pytest.raises(DownloadError, match="gave up after 4 attempts"):
        ts.get_source("toy-tsv", "en-de")
    assert_clean_failure(env, "mtnt.tar.gz")


# -- row 17: server ignores Range (200) -> restart from zero; 206 at the wrong offset -> restart
def test_range_ignored_restarts_from_zero(env, corpus):
    env.server.script("mtnt.tar.gz", "trunc_cl", "range_ignored")
    assert_recovers(env, corpus)
    assert env.server.gets("mtnt.tar.gz")[1]["range"] is not None


def test_range_wrong_offset_restarts(env, corpus):
    env.server.script("mtnt.tar.gz", "trunc_cl", "range_wrong")
    assert_recovers(env, corpus)
    gets = env.server.gets("mtnt.tar.gz")
    assert len(gets) == 3 and gets[2]["range"] is None


# -- row 10: 5xx and 429 retried; 404 not retried
@pytest.mark.parametrize("code", [500, 503, 429])
def test_transient_status_is_retried(env, corpus, code):
    env.server.script("mtnt.tar.gz", ("status", code), ("status", code))
    assert_recovers(env, corpus)
    assert len(env.server.gets("mtnt.tar.gz")) == 3


def test_persistent_500_fails_cleanly(env, corpus):
    env.server.script("mtnt.tar.gz", *[("status", 500)] * 10)
    with pytest.raises(DownloadError, match="HTTP 500"):
        ts.get_source("toy-tsv", "en-de")
    assert len(env.server.gets("mtnt.tar.gz")) == 4
    assert_clean_failure(env, "mtnt.tar.gz")
    env.server.script("mtnt.tar.gz")  # the fault is gone
    assert_recovers(env, corpus)


def test_404_is_not_retried(env, corpus):
    env.server.script("mtnt.tar.gz", ("status", 404))
    with pytest.raises(DownloadError, match="HTTP 404"):
        ts.get_source("toy-tsv", "en-de")
    assert len(env.server.gets("mtnt.tar.gz")) == 1
    assert_clean_failure(env, "mtnt.tar.gz")
    assert_recovers(env, corpus)


def test_stall_ends_within_the_read_timeout(env, corpus):
    # The server sends 10 bytes and then holds the response open until the test ends, so
    # only the read timeout (1 s in the fixture) can end it: retry -> resumed.
    env.server.script("mtnt.tar.gz", ("stall", 60))
    assert_recovers(env, corpus)
    first, retry = env.server.gets("mtnt.tar.gz")
    assert first["range"] is None
    assert retry["during_stall"]  # the client gave up on the stalled response by itself
    assert retry["range"] == "bytes=10-"


def test_overall_deadline_bounds_a_slow_drip(env, monkeypatch):
    monkeypatch.setenv("BLEUCLI_DOWNLOAD_DEADLINE", "1")
    # The drip (one byte per 50 ms) would deliver the whole file in minutes, and then
    # succeed: the error naming the deadline shows the deadline ended it.
    env.server.script("mtnt.tar.gz", "slow")
    with pytest.raises(DownloadError, match="deadline"):
        ts.get_source("toy-tsv", "en-de")
    assert_clean_failure(env, "mtnt.tar.gz")


def test_connection_refused(env, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    text = env.registry.read_text().replace(env.server.base_url, f"http://127.0.0.1:{port}")
    env.registry.write_text(text)
    with pytest.raises(DownloadError, match="connection failed"):
        ts.get_source("toy-tsv", "en-de")
    assert leftovers(env.cache) == []


# -- row 6: HTML page instead of the file; checksum typo in the registry; gzip Content-Encoding
def test_html_page_instead_of_file(env, corpus):
    env.server.script("mtnt.tar.gz", "html")
    with pytest.raises(IntegrityError, match="HTML page"):
        ts.get_source("toy-tsv", "en-de")
    assert_clean_failure(env, "mtnt.tar.gz")
    assert_recovers(env, corpus)


def test_registry_checksum_typo(env):
    env.write_registry(overrides={"mtnt.tar.gz": "0" * 64})
    with pytest.raises(IntegrityError, match="0{64}") as err:
        ts.get_source("toy-tsv", "en-de")
    assert err.value.expected == "0" * 64
    assert_clean_failure(env, "mtnt.tar.gz")


def test_md5_only_registry_is_verified(env, corpus):
    env.write_registry(checksum="md5")
    assert_recovers(env, corpus)
    env.write_registry(checksum="md5", overrides={"plain.zip": "0" * 32})
    with pytest.raises(IntegrityError, match="md5"):
        ts.get_source("toy-plain", "en-de")


def test_gzip_content_encoding_hashes_raw_bytes(env, corpus):
    env.server.script("mtnt.tar.gz", "gzenc")
    assert_recovers(env, corpus)


# -- row 9: size cap
def test_size_cap_from_content_length(env, monkeypatch):
    env.server.script("mtnt.tar.gz", "huge")
    with pytest.raises(DownloadError, match="size cap"):
        ts.get_source("toy-tsv", "en-de")
    assert_clean_failure(env, "mtnt.tar.gz")
    monkeypatch.setenv("BLEUCLI_MAX_DOWNLOAD_BYTES", "100")
    with pytest.raises(DownloadError, match="size cap"):
        ts.get_source("toy-tsv", "en-de")


# -- row 10: redirects
@pytest.mark.parametrize("target", ["file:///etc/passwd", "ftp://127.0.0.1/x.tgz"])
def test_redirect_to_other_scheme_is_refused(env, target, tmp_path):
    env.server.script("mtnt.tar.gz", ("redirect", target))
    with pytest.raises(RedirectError, match="refusing redirect"):
        ts.get_source("toy-tsv", "en-de")
    assert_clean_failure(env, "mtnt.tar.gz")


def test_redirect_to_http_is_followed(env, corpus):
    env.server.script("mtnt.tar.gz", ("redirect", "/files/mtnt.tar.gz"))
    assert_recovers(env, corpus)


def test_redirect_loop_is_bounded(env):
    env.server.script("mtnt.tar.gz", *[("redirect", "/files/mtnt.tar.gz")] * 20)
    with pytest.raises(DownloadError, match="redirects"):
        ts.get_source("toy-tsv", "en-de")


# -- row 16: upstream changed (new ETag) between a cut and the resume: If-Range makes the
# server send the new body whole, and its checksum says the registry needs an update.
def test_upstream_changed_during_resume(env, corpus):
    env.server.script("mtnt.tar.gz", ("trunc_cl_change", gzip.compress(b"new release")))
    with pytest.raises(IntegrityError, match="changed upstream"):
        ts.get_source("toy-tsv", "en-de")
    gets = env.server.gets("mtnt.tar.gz")
    assert len(gets) == 2 and gets[1]["if_range"] is not None
    assert_clean_failure(env, "mtnt.tar.gz")


# -- offline
def test_offline_never_opens_a_socket(env, corpus, monkeypatch):
    def no_connect(*args, **kwargs):
        raise AssertionError("a socket was opened in offline mode")

    with monkeypatch.context() as m:
        m.setattr(socket.socket, "connect", no_connect)
        m.setenv("BLEUCLI_OFFLINE", "1")
        with pytest.raises(NotCachedError, match="offline"):
            ts.get_source("toy-tsv", "en-de")
    assert env.server.log == []
    ts.download("toy-tsv")
    with monkeypatch.context() as m:
        m.setattr(socket.socket, "connect", no_connect)
        assert ts.get_source("toy-tsv", "en-de", offline=True) == [s.rstrip() for s in corpus.src]


def test_progress_callback_is_called(env):
    calls = []
    ts.download("toy-tsv", progress=lambda url, done, total: calls.append((url, done, total)))
    size = len(env.server.files["mtnt.tar.gz"])
    assert calls and calls[-1][1] == size and calls[-1][2] == size


# -- issue 16.18: the retry policy is urllib3's Retry, which also reads Retry-After as an HTTP date (RFC 9110)
@pytest.mark.slow  # waits the second or two the server asks for
def test_retry_after_http_date_is_honoured(env, corpus, caplog):
    import re

    env.server.script("mtnt.tar.gz", ("status_retry_date", 503, 2))
    with caplog.at_level("WARNING", logger="bleucli.download"):
        assert_recovers(env, corpus)
    waits = [float(m.group(1)) for r in caplog.records if (m := re.search(r"retrying in ([0-9.]+) s", r.getMessage()))]
    assert len(waits) == 1 and 0.5 <= waits[0] <= 2.5, caplog.text  # the date, not the 0.01 s backoff
    assert len(env.server.gets("mtnt.tar.gz")) == 2
