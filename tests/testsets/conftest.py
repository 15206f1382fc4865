"""Fixtures for the test-set tests: a fault-injecting HTTP server on 127.0.0.1, real
archives built from WMT22 lines (tests/testsets/data), and a registry pointing at them.

No test here touches the internet: the registry only names 127.0.0.1 URLs, and
``BLEUCLI_CACHE_DIR``/``BLEUCLI_TESTSETS`` point into ``tmp_path``.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import io
import os
import socket
import struct
import tarfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import datasets


def data_lines(name: str) -> list[str]:
    return datasets.lines(datasets.TESTSET_DATA / name)


# --------------------------------------------------------------------------- raw formats

#: Document structure of the synthetic test set: (docid, origlang, genre, domain, number of segments).
DOCS = [("doc-en-1", "en", "news", "news", 12), ("doc-de-1", "de", "news", "social", 10),
        ("doc-en-2", "en", "speech", "news", 18)]
# wmt-sgml subset annotations for the docs (as SUBSETS does for wmt18/19).
SUBSETS = {"doc-en-1": "US-politics", "doc-de-1": "EU-sport", "doc-en-2": "GB-politics"}


def sgml_file(lines: list[str], side: str, lang: str) -> str:
    """A WMT-style SGML file (one <seg> per line, a <doc> line per document)."""
    out = [f'<{side}set setid="newstest2022" srclang="en" trglang="de">']
    i = 0
    for docid, origlang, genre, _domain, n in DOCS:
        out.append(f'<doc sysid="ref" docid="{docid}" genre="{genre}" origlang="{origlang}">')
        for k in range(n):
            # sacreBLEU does not unescape entities, nor should we: keep them literal.
            out.append(f'<seg id="{k + 1}">  {html.escape(lines[i], quote=False)}  </seg>')
            i += 1
        out.append("</doc>")
    out.append(f"</{side}set>")
    return "\n".join(out) + "\n"


def wmt_xml_file(src: list[str], refs: dict[str, list[str]], systems: dict[str, list[str]]) -> str:
    """A WMT21+ XML file with two references, systems, a test-suite doc and a segment without refs."""
    parts = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="generaltest2022">']
    i = 0
    for docid, origlang, _genre, domain, n in DOCS:
        parts.append(f'<collection id="general"><doc id="{docid}" origlang="{origlang}" domain="{domain}">')
        parts.append('<src lang="en"><p>')
        for k in range(n):
            parts.append(f'<seg id="{k + 1}">{html.escape(src[i + k])}</seg>')
        parts.append("</p></src>")
        for label, lines in refs.items():
            parts.append(f'<ref lang="de" translator="{label}"><p>')
            for k in range(n):
                # Segment 3 of the second doc has no reference at all: it must be dropped.
                text = "" if (docid == "doc-de-1" and k == 2) else html.escape(lines[i + k])
                parts.append(f'<seg id="{k + 1}">{text}</seg>')
            parts.append("</p></ref>")
        for system, lines in systems.items():
            parts.append(f'<hyp system="{system}" language="de"><p>')
            for k in range(n):
                parts.append(f'<seg id="{k + 1}">{html.escape(lines[i + k])}</seg>')
            parts.append("</p></hyp>")
        parts.append("</doc></collection>")
        i += n
    parts.append('<collection id="ts"><doc id="ts-1" origlang="en" testsuite="x"><src lang="en"><p>'
                 '<seg id="1">test suite</seg></p></src><ref lang="de" translator="A"><p>'
                 '<seg id="1">Testsuite</seg></p></ref></doc></collection>')
    parts.append("</dataset>")
    return "\n".join(parts) + "\n"


def tar_bytes(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1_600_000_000
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


@dataclass
class Corpus:
    """The raw files served, and the lines each field must come out as."""

    files: dict[str, bytes]
    src: list[str]
    ref: list[str]
    ref2: list[str]
    sys_b: list[str]
    sys_p: list[str]


def build_corpus() -> Corpus:
    src, ref, ref2 = data_lines("src.en"), data_lines("ref.de"), data_lines("ref2.de")
    sys_b, sys_p = data_lines("Online-B.de"), data_lines("PROMT.de")
    sgml = tar_bytes({
        "sgm/newstest2022-ende-src.en.sgm": sgml_file(src, "src", "en").encode(),
        "sgm/newstest2022-ende-ref.de.sgm": sgml_file(ref, "ref", "de").encode(),
        "sgm/newstest2022-ende-ref2.de.sgm": sgml_file(ref2, "ref", "de").encode(),
    })
    xml = tar_bytes({"xml/generaltest2022.en-de.all.xml": wmt_xml_file(
        src, {"A": ref, "B": ref2}, {"Online-B": sys_b, "PROMT": sys_p}).encode()})
    tsv_lines = "".join(f"{i}\t{s}\t{r}\n" for i, (s, r) in enumerate(zip(src, ref)))
    tsv = tar_bytes({"MTNT/test.en-de.tsv": tsv_lines.encode()})
    plain = zip_bytes({"plain/test.en": ("\n".join(src) + "\n").encode(),
                       "plain/test.de": ("\n".join(ref) + "\n").encode()})
    extra_ref = ("\n".join(ref2) + "\n").encode()
    gz_ref = gzip.compress(("\n".join(ref2) + "\n").encode(), mtime=0)
    return Corpus(files={"sgml.tgz": sgml, "xml.tar.gz": xml, "mtnt.tar.gz": tsv, "plain.zip": plain,
                         "extra.ref": extra_ref, "ref2.de.gz": gz_ref},
                  src=src, ref=ref, ref2=ref2, sys_b=sys_b, sys_p=sys_p)


def registry_yaml(base_url: str, files: dict[str, bytes], *, checksum: str = "sha256",
                  overrides: dict[str, str] | None = None) -> str:
    """A registry for the served files; ``overrides`` replaces a file's checksum (typo tests)."""
    overrides = overrides or {}
    kinds = {"sgml.tgz": "tar", "xml.tar.gz": "tar", "mtnt.tar.gz": "tar", "plain.zip": "zip",
             "extra.ref": "none", "ref2.de.gz": "gzip"}
    lines = ["schema: 1", "downloads:"]
    for name, data in files.items():
        digest = overrides.get(name) or hashlib.new(checksum, data).hexdigest()
        lines += [f"  {name}:", f"    url: {base_url}/files/{name}", f"    {checksum}: '{digest}'",
                  f"    unpack: {kinds[name]}"]
    subsets = "\n".join(f"      {k}: {v}" for k, v in SUBSETS.items())
    lines.append(f"""testsets:
  toy-sgml:
    description: Toy WMT SGML set.
    citation: |
      @misc{{toy, title={{Toy}}}}
    format: wmt-sgml
    files: [sgml.tgz]
    meta: [docid, genre, origlang]
    subsets:
{subsets}
    pairs:
      en-de:
        src: sgm/newstest2022-ende-src.en.sgm
        refs: [sgm/newstest2022-ende-ref.de.sgm]
  toy-sgml/tworefs:
    description: Toy SGML set with two references.
    format: wmt-sgml
    files: [sgml.tgz]
    meta: [docid, genre, origlang]
    pairs:
      en-de:
        src: sgm/newstest2022-ende-src.en.sgm
        refs: [sgm/newstest2022-ende-ref.de.sgm, sgm/newstest2022-ende-ref2.de.sgm]
  toy-sgml/extra:
    description: Toy SGML set with an extra plain reference.
    format: wmt-sgml
    files: [sgml.tgz, extra.ref]
    meta: [docid, genre, origlang]
    pairs:
      en-de:
        src: {{file: sgml.tgz, path: sgm/newstest2022-ende-src.en.sgm}}
        refs: [{{file: extra.ref, format: plain}}]
  toy-xml:
    description: Toy WMT XML set.
    format: wmt-xml
    files: [xml.tar.gz]
    refs: [A]
    pairs:
      en-de: {{path: xml/generaltest2022.en-de.all.xml}}
  toy-xml/B:
    description: Toy WMT XML set scored against B.
    format: wmt-xml
    files: [xml.tar.gz]
    refs: [A]
    pairs:
      en-de: {{path: xml/generaltest2022.en-de.all.xml, refs: [B]}}
  toy-tsv:
    description: Toy TSV set.
    format: tsv
    files: [mtnt.tar.gz]
    pairs:
      en-de:
        src: {{file: mtnt.tar.gz, path: MTNT/test.en-de.tsv, column: 1}}
        refs: [{{file: mtnt.tar.gz, path: MTNT/test.en-de.tsv, column: 2}}]
  toy-plain:
    description: Toy plain-text set.
    format: plain
    files: [plain.zip, ref2.de.gz]
    pairs:
      en-de:
        src: {{file: plain.zip, path: plain/test.en}}
        refs: [{{file: plain.zip, path: plain/test.de}}]
      de-en:
        src: {{file: plain.zip, path: plain/test.de}}
        refs: [{{file: plain.zip, path: plain/test.en}}]
  toy-plain/gz:
    description: Toy plain-text set with a gzipped reference.
    format: plain
    files: [plain.zip, ref2.de.gz]
    pairs:
      en-de:
        src: {{file: plain.zip, path: plain/test.en}}
        refs: [{{file: ref2.de.gz}}]
""")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the server

@dataclass
class Server:
    """A real HTTP server with per-path fault scripts and a request log."""

    base_url: str
    files: dict[str, bytes]
    faults: dict[str, list] = field(default_factory=dict)
    log: list[dict] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: set when the test ends: releases responses held open by the "stall" fault
    release: threading.Event = field(default_factory=threading.Event)
    #: how many responses a "stall" fault holds open right now
    stalled: int = 0

    def script(self, name: str, *behaviours: object) -> None:
        """Faults served for the next requests of ``/files/<name>``, then normal answers."""
        with self.lock:
            self.faults[name] = list(behaviours)

    def gets(self, name: str) -> list[dict]:
        with self.lock:
            return [r for r in self.log if r["path"] == f"/files/{name}"]

    def next_fault(self, name: str) -> object:
        with self.lock:
            script = self.faults.get(name)
            if script:
                return script.pop(0)
            return "ok"


def _make_handler(server: Server) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # keep pytest output clean
            pass

        def _headers(self, status: int, headers: dict[str, str]) -> None:
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()

        def do_GET(self) -> None:  # noqa: N802 - http.server API
            with server.lock:
                server.log.append({"path": self.path, "range": self.headers.get("Range"),
                                   "if_range": self.headers.get("If-Range"),
                                   "accept_encoding": self.headers.get("Accept-Encoding"),
                                   "during_stall": server.stalled > 0})
            if not self.path.startswith("/files/"):
                self._headers(404, {"Content-Length": "0", "Connection": "close"})
                return
            name = self.path[len("/files/"):]
            body = server.files.get(name)
            if body is None:
                self._headers(404, {"Content-Length": "9", "Connection": "close"})
                self.wfile.write(b"not found")
                return
            fault = server.next_fault(name)
            kind = fault[0] if isinstance(fault, tuple) else fault
            etag = '"' + hashlib.md5(body).hexdigest() + '"'
            base = {"ETag": etag, "Accept-Ranges": "bytes", "Connection": "close",
                    "Content-Type": "application/octet-stream"}
            half = body[: len(body) // 2]
            if kind == "status":
                code = fault[1]  # type: ignore[index]
                extra = {"Retry-After": "0"} if code == 429 else {}
                self._headers(code, {"Content-Length": "5", "Connection": "close", **extra})
                self.wfile.write(b"error")
            elif kind == "status_retry_date":  # (kind, code, seconds): Retry-After as an HTTP date that far ahead
                from email.utils import formatdate

                when = formatdate(time.time() + fault[2], usegmt=True)  # type: ignore[index]
                self._headers(fault[1], {"Content-Length": "5", "Connection": "close",  # type: ignore[index]
                                         "Retry-After": when})
                self.wfile.write(b"error")
            elif kind == "trunc_cl":
                self._headers(200, {**base, "Content-Length": str(len(body))})
                self.wfile.write(half)
                self.wfile.flush()
            elif kind == "trunc_cl_change":
                self._headers(200, {**base, "Content-Length": str(len(body))})
                self.wfile.write(half)
                self.wfile.flush()
                server.files[name] = fault[1]  # type: ignore[index]
            elif kind == "trunc_nocl":
                self._headers(200, {k: v for k, v in base.items() if k not in ("ETag", "Accept-Ranges")})
                self.wfile.write(half)
                self.wfile.flush()
            elif kind == "reset":
                self._headers(200, {**base, "Content-Length": str(len(body))})
                self.wfile.write(half)
                self.wfile.flush()
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
            elif kind == "stall":
                # 10 bytes, then silence until the test ends (at most fault[1] seconds, a safety net):
                # only the client's read timeout can end this response in time.
                self._headers(200, {**base, "Content-Length": str(len(body))})
                self.wfile.write(body[:10])
                self.wfile.flush()
                with server.lock:
                    server.stalled += 1
                try:
                    server.release.wait(fault[1] if isinstance(fault, tuple) else 60)  # type: ignore[index]
                finally:
                    with server.lock:
                        server.stalled -= 1
            elif kind == "slow":
                self._headers(200, {**base, "Content-Length": str(len(body))})
                try:
                    for i in range(len(body)):
                        self.wfile.write(body[i:i + 1])
                        self.wfile.flush()
                        time.sleep(0.05)
                except OSError:
                    pass
            elif kind == "html":
                page = b"<!DOCTYPE html><html><body>Please log in to the hotel Wi-Fi</body></html>"
                self._headers(200, {"Content-Type": "text/html", "Content-Length": str(len(page)),
                                    "Connection": "close"})
                self.wfile.write(page)
            elif kind == "redirect":
                self._headers(302, {"Location": fault[1], "Content-Length": "0",  # type: ignore[index]
                                    "Connection": "close"})
            elif kind == "gzenc":
                self._headers(200, {**base, "Content-Encoding": "gzip", "Content-Length": str(len(body))})
                self.wfile.write(body)
            elif kind == "huge":
                self._headers(200, {**base, "Content-Length": str(10 << 30)})
                self.wfile.write(body[:100])
            elif kind == "range_wrong" and self.headers.get("Range"):
                self._headers(206, {**base, "Content-Range": f"bytes 0-{len(body) - 1}/{len(body)}",
                                    "Content-Length": str(len(body))})
                self.wfile.write(body)
            elif kind == "ok_norange" or (kind == "range_ignored"):
                self._headers(200, {**base, "Content-Length": str(len(body))})
                self.wfile.write(body)
            else:  # ok: honour Range when If-Range still matches
                rng = self.headers.get("Range")
                if rng and rng.startswith("bytes=") and self.headers.get("If-Range") in (None, etag):
                    start = int(rng[len("bytes="):].split("-")[0])
                    chunk = body[start:]
                    self._headers(206, {**base, "Content-Length": str(len(chunk)),
                                        "Content-Range": f"bytes {start}-{len(body) - 1}/{len(body)}"})
                    self.wfile.write(chunk)
                else:
                    self._headers(200, {**base, "Content-Length": str(len(body))})
                    self.wfile.write(body)

    return Handler


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return build_corpus()


@pytest.fixture
def server(corpus: Corpus):
    srv = Server(base_url="", files=dict(corpus.files))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(srv))
    httpd.daemon_threads = True
    srv.base_url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield srv
    srv.release.set()
    httpd.shutdown()
    httpd.server_close()


@dataclass
class Env:
    """Paths and environment of one test: its cache, registry and server."""

    cache: Path
    registry: Path
    server: Server
    environ: dict[str, str]

    def write_registry(self, **kwargs: object) -> None:
        self.registry.write_text(registry_yaml(self.server.base_url, self.server.files, **kwargs),  # type: ignore[arg-type]
                                 encoding="utf-8")


@pytest.fixture
def env(tmp_path: Path, server: Server, monkeypatch: pytest.MonkeyPatch) -> Env:
    cache = tmp_path / "cache"
    registry = tmp_path / "testsets.yaml"
    settings = {
        "BLEUCLI_CACHE_DIR": str(cache),
        "BLEUCLI_TESTSETS": str(registry),
        "BLEUCLI_HTTP_TIMEOUT": "2,1",
        "BLEUCLI_RETRY_BACKOFF": "0.01",
        "BLEUCLI_DOWNLOAD_RETRIES": "3",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy",
                "BLEUCLI_OFFLINE", "BLEUCLI_TEST_CRASH_AT", "BLEUCLI_TEST_NO_LOCK"):
        monkeypatch.delenv(key, raising=False)
    for key, value in settings.items():
        monkeypatch.setenv(key, value)
    e = Env(cache=cache, registry=registry, server=server, environ=dict(os.environ))
    e.write_registry()
    return e


def snapshot(path: Path) -> dict[str, bytes | None]:
    """Every entry under ``path`` (file contents, or None for dirs/links)."""
    out: dict[str, bytes | None] = {}
    for p in sorted(path.rglob("*")):
        rel = str(p.relative_to(path))
        out[rel] = p.read_bytes() if p.is_file() and not p.is_symlink() else None
    return out


def leftovers(cache: Path) -> list[str]:
    """Temporary entries (.part-/.tmp-/.trash-) left in the cache."""
    return [str(p) for p in cache.rglob("*") if p.name.startswith((".part-", ".tmp-", ".trash-"))]


def invoke(args: list[str], input: str | bytes | None = None) -> tuple[int, str, str]:
    """``bleucli ARGS`` in-process (CliRunner): its exit code, stdout and stderr."""
    from click.testing import CliRunner

    from bleucli.cli import cli

    result = CliRunner().invoke(cli, args, input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def write_lines(path: Path, lines: list[str]) -> str:
    """``lines`` written to ``path`` (UTF-8, one a line), as the file name a command line takes."""
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)
