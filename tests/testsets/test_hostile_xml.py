"""Reliability spec R10 (matrix row 22): XML test sets never resolve external entities nor expand entity bombs.

Each hostile document is served by the test's HTTP server on 127.0.0.1 inside
the toy-xml archive, with the registry's checksum, and read through the real
download, extraction and preparation path by a ``bleucli`` subprocess under an
address-space ceiling. WMT XML files have no DTD, so a document declaring an
entity is refused (exit 6) whatever expat version Python links: the protection
of expat >= 2.4.1 against amplification is not relied upon.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from fast_subset import slow_except

from .conftest import sgml_file, tar_bytes

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 60
MEMORY_CEILING = 1 << 30  # address space of the bleucli process: a real bomb would pass it
SECRET = "TOP-SECRET-LINE-8c1f"
XML_MEMBER = "xml/generaltest2022.en-de.all.xml"
SGML_MEMBER = "sgm/newstest2022-ende-src.en.sgm"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CEILING, MEMORY_CEILING))


def _run(env, args: list[str]) -> subprocess.CompletedProcess:
    environ = {**env.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "bleucli", *args], capture_output=True, env=environ, cwd=REPO,
                          timeout=TIMEOUT, preexec_fn=_limit_memory)


def _dataset(doctype: str, text: str) -> str:
    """A minimal WMT XML test set whose one source segment holds ``text`` (the reference is plain)."""
    return (f'<?xml version="1.0" encoding="utf-8"?>\n{doctype}\n<dataset id="generaltest2022">'
            '<collection id="general"><doc id="d1" origlang="en">'
            f'<src lang="en"><p><seg id="1">{text}</seg></p></src>'
            '<ref lang="de" translator="A"><p><seg id="1">Hallo Welt</seg></p></ref>'
            "</doc></collection></dataset>\n")


def _laughs(levels: int) -> str:
    entities = ['<!ENTITY lol0 "lol">'] + [f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, levels)]
    return f"<!DOCTYPE dataset [{''.join(entities)}]>"


def _serve_xml(env, document: str) -> None:
    env.server.files["xml.tar.gz"] = tar_bytes({XML_MEMBER: document.encode()})
    env.write_registry()


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(SECRET + "\n", encoding="utf-8")
    return path


def _hostile_documents(secret: Path, base_url: str) -> dict[str, str]:
    uri = secret.as_uri()
    return {
        "xxe": _dataset(f'<!DOCTYPE dataset [<!ENTITY ext SYSTEM "{uri}">]>', "&ext;"),
        "xxe-parameter": _dataset(f'<!DOCTYPE dataset [<!ENTITY % ext SYSTEM "{uri}"> %ext;]>', "hello"),
        "xxe-http": _dataset(f'<!DOCTYPE dataset [<!ENTITY ext SYSTEM "{base_url}/files/extra.ref">]>', "&ext;"),
        "billion-laughs": _dataset(_laughs(10), "&lol9;"),
        "quadratic-blowup": _dataset(f'<!DOCTYPE dataset [<!ENTITY a "{"x" * 50_000}">]>', "&a;" * 50_000),
        "internal-entity": _dataset('<!DOCTYPE dataset [<!ENTITY a "harmless">]>', "&a;"),
    }


@pytest.mark.parametrize("kind", slow_except(["xxe", "xxe-parameter", "xxe-http", "billion-laughs",
                                              "quadratic-blowup", "internal-entity"], {"xxe", "billion-laughs"}))
def test_entity_declarations_in_wmt_xml_are_refused(env, secret, kind):
    _serve_xml(env, _hostile_documents(secret, env.server.base_url)[kind])
    result = _run(env, ["-t", "toy-xml", "-l", "en-de", "--echo", "src"])
    assert result.returncode == 6, result.stderr
    assert result.stdout == b""
    assert result.stderr.startswith(b"bleucli: error: ") and result.stderr.count(b"\n") == 1
    assert b"entity" in result.stderr and XML_MEMBER.encode() in result.stderr
    assert b"Traceback" not in result.stderr and SECRET.encode() not in result.stderr
    assert env.server.gets("extra.ref") == []  # nothing fetched on the document's behalf
    published = [p for p in (env.cache / "testsets").rglob("*") if p.is_file()] if (env.cache / "testsets").exists() \
        else []
    assert published == []  # nothing prepared from the hostile file
    assert not any(SECRET.encode() in p.read_bytes() for p in env.cache.rglob("*") if p.is_file())


@pytest.mark.slow
def test_external_dtd_is_never_fetched(env, secret):
    """A DOCTYPE naming an external DTD (no entity declared in the document) is parsed without loading it."""
    document = _dataset(f'<!DOCTYPE dataset SYSTEM "{env.server.base_url}/files/extra.ref">', "Hello world")
    _serve_xml(env, document)
    result = _run(env, ["-t", "toy-xml", "-l", "en-de", "--echo", "src"])
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"Hello world\n"
    assert env.server.gets("extra.ref") == []


@pytest.mark.slow
def test_sgml_entities_stay_literal_text(env, secret, corpus):
    """WMT SGML is read line by line as sacreBLEU does: a declared entity is never resolved, only kept as text."""
    doctype = f'<!DOCTYPE srcset [<!ENTITY ext SYSTEM "{secret.as_uri()}">]>\n'
    lines = ["&ext; is not expanded", *corpus.src[1:]]
    env.server.files["sgml.tgz"] = tar_bytes({SGML_MEMBER: (doctype + sgml_file(lines, "src", "en")).encode(),
                                              "sgm/newstest2022-ende-ref.de.sgm":
                                                  sgml_file(corpus.ref, "ref", "de").encode()})
    env.write_registry()
    result = _run(env, ["-t", "toy-sgml", "-l", "en-de", "--echo", "src"])
    assert result.returncode == 0, result.stderr
    first = result.stdout.decode().splitlines()[0]
    assert first == "&amp;ext; is not expanded"  # sgml_file escapes '&'; sacreBLEU does not unescape
    assert SECRET.encode() not in result.stdout
