"""ntrex128 (bleucli's own addition) and download mirrors, against a real HTTP server on 127.0.0.1.

The server serves a tiny NTREX-shaped checkout made here (a few lines per
language, CRLF line ends as in NTREX), and the registry for it is made by the
same script that made the shipped entry (tests/golden/generate_ntrex_yaml.py).
With ``BLEUCLI_NTREX_CHECKOUT`` naming a checkout of NTREX, the shipped entry is
checked against it (checksums, sizes, pairs, line counts).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bleucli import testsets as ts

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "golden"))
import generate_ntrex_yaml as gen  # noqa: E402

from .conftest import invoke, write_lines  # noqa: E402

SHA = gen.COMMIT
SRC = ["The cat sat on the mat.", "It was a sunny day.", "Prices rose again.",
       "The minister resigned.", "Fans cheered loudly.", "Rain is expected tomorrow."]
DOCS = ["bbc.1", "bbc.1", "bbc.1", "reuters.7", "reuters.7", "reuters.7"]
REFS = {
    "deu": ["Die Katze saß auf der Matte.", "Es war ein sonniger Tag.", "Die Preise stiegen wieder.",
            "Der Minister trat zurück.", "Die Fans jubelten laut.", "Morgen wird Regen erwartet."],
    "spa": ["El gato se sentó en la alfombra.", "Era un día soleado.", "Los precios subieron otra vez.",
            "El ministro dimitió.", "Los aficionados aplaudieron.", "Se espera lluvia mañana."],
    "spa-MX": ["El gato se sentó en el tapete.", "Fue un día soleado.", "Los precios subieron de nuevo.",
               "El ministro renunció.", "Los fans vitorearon.", "Se espera lluvia para mañana."],
    "zho-CN": ["猫坐在垫子上。", "那是一个晴天。", "价格再次上涨。",
               "部长辞职了。", "球迷大声欢呼。", "预计明天有雨。"],
    "zho-TW": ["貓坐在墊子上。", "那是一個晴天。", "價格再次上漲。",
               "部長辭職了。", "球迷大聲歡呼。", "預計明天有雨。"],
    "jpn": ["猫がマットの上に座った。", "晴れた日だった。", "物価が再び上昇した。", "大臣が辞任した。",
            "ファンが大声で応援した。", "明日は雨の予報だ。"],
    "aze-Latn": ["Pişik xalçanın üstündə oturdu.", "Günəşli gün idi.", "Qiymətlər yenə qalxdı.",
                 "Nazir istefa verdi.", "Azarkeşlər ucadan alqışladılar.", "Sabah yağış gözlənilir."],
    "eng-GB": SRC,
}
REF2_SPA = ["El gato estaba sentado en la alfombra.", "Hacía un día de sol.", "Los precios volvieron a subir.",
            "El ministro presentó su dimisión.", "Los seguidores gritaron de alegría.", "Mañana lloverá."]
README = """# NTREX (test fixture)

```
@inproceedings{federmann-etal-2022-ntrex,
    title = "{NTREX}-128",
}
```
```
@inproceedings{barrault-etal-2019-findings,
    title = "Findings of WMT19",
}
```
"""


def crlf(lines: list[str]) -> bytes:
    return "".join(line + "\r\n" for line in lines).encode("utf-8")


def make_checkout(root: Path) -> dict[str, bytes]:
    """A tiny NTREX-shaped checkout; returns its files by path."""
    files = {gen.SOURCE: crlf(SRC), gen.DOCIDS: crlf(DOCS), "README.md": README.encode(),
             "NTREX-128/newstest2019-ref-2.spa.txt": crlf(REF2_SPA)}
    files.update({f"NTREX-128/newstest2019-ref.{code}.txt": crlf(lines) for code, lines in REFS.items()})
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    return files


class Ntrex:
    """The served fixture: its files, the original base URL and the server's request log."""

    def __init__(self, httpserver, files: dict[str, bytes], registry: Path, cache: Path) -> None:
        self.httpserver, self.files, self.registry, self.cache = httpserver, files, registry, cache
        self.prefix = f"/MicrosoftTranslator/NTREX/{SHA}"
        self.base_url = httpserver.url_for(self.prefix)

    def serve(self, prefix: str, overrides: dict[str, bytes] | None = None) -> None:
        """The files at their original URLs (``prefix``: the original's path), or the mirror layout under ``prefix``."""
        for path, data in self.files.items():
            body = (overrides or {}).get(path, data)
            where = f"{prefix}/{path}" if prefix == self.prefix else f"{prefix}/{self.mirror_path(path)}"
            self.httpserver.expect_request(where).respond_with_data(body, content_type="text/plain")

    def requests(self, prefix: str = "") -> list[str]:
        return [request.path for request, _ in self.httpserver.log if request.path.startswith(prefix)]

    def mirror_path(self, path: str) -> str:
        """Where a mirror keeps a file: ``<host>/<path of the original URL>``."""
        from urllib.parse import urlparse

        return f"{urlparse(self.base_url).hostname}{self.prefix}/{path}"


@pytest.fixture
def ntrex(tmp_path, httpserver, monkeypatch):
    checkout = tmp_path / "checkout"
    files = make_checkout(checkout)
    files.pop("README.md")
    registry = tmp_path / "testsets.yaml"
    env = Ntrex(httpserver, files, registry, tmp_path / "cache")
    registry.write_text(gen.registry_text(checkout, env.base_url), encoding="utf-8")
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy",
                "BLEUCLI_OFFLINE", "BLEUCLI_MIRROR", "SACREBLEU"):
        monkeypatch.delenv(key, raising=False)
    for key, value in {"BLEUCLI_CACHE_DIR": str(env.cache), "BLEUCLI_TESTSETS": str(registry),
                       "BLEUCLI_HTTP_TIMEOUT": "2,2", "BLEUCLI_DOWNLOAD_RETRIES": "0",
                       "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
                       "HOME": str(tmp_path / "home")}.items():
        monkeypatch.setenv(key, value)
    return env


# ------------------------------------------------------------------ the test set

def test_download_checksums_echo_and_docids(ntrex):
    ntrex.serve(ntrex.prefix)
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-de", "--echo", "src", "ref", "docid"])
    assert code == 0, err
    assert out.splitlines() == [f"{s}\t{r}\t{d}" for s, r, d in zip(SRC, REFS["deu"], DOCS)]
    assert ts.get_document_ids("ntrex128", "eng-deu") == DOCS
    assert ts.get_document_ids("ntrex128", "en-de") == DOCS  # the accessor resolves short codes too
    assert ts.fields("ntrex128", "eng-deu") == ["src", "ref", "docid"]
    # each file fetched once from the pinned URL, then served from the verified cache
    code, out2, _ = invoke(["-t", "ntrex128", "-l", "eng-deu", "--echo", "ref"])
    assert code == 0 and out2.splitlines() == REFS["deu"]
    assert sorted(ntrex.requests()) == sorted(f"{ntrex.prefix}/{p}" for p in
                                              (gen.SOURCE, gen.DOCIDS, "NTREX-128/newstest2019-ref.deu.txt"))


def test_a_changed_file_is_refused(ntrex):
    path = "NTREX-128/newstest2019-ref.deu.txt"
    changed = ntrex.files[path].replace(b"Katze", b"Kater")  # same size: only the checksum can tell
    ntrex.serve(ntrex.prefix, {path: changed})
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-de", "--echo", "ref"])
    assert code == 5 and out == ""
    assert "checksum mismatch" in err and "sha256" in err
    assert not list((ntrex.cache / "downloads").glob("ntrex128.ref.deu/*"))


def test_scoring_with_the_two_spanish_references(ntrex, tmp_path):
    ntrex.serve(ntrex.prefix)
    assert ts.reference_fields("ntrex128", "en-es") == ["ref:0", "ref:1"]
    hyp = write_lines(tmp_path / "hyp.es", ["El gato se sentó en la alfombra roja.", "Era un día de sol.",
                                            "Los precios subieron.", "El ministro dimitió ayer.",
                                            "Los aficionados gritaron.", "Lloverá mañana."])
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-es", "-i", str(hyp), "-m", "bleu", "chrf", "ter"])
    assert code == 0, err
    with_t = json.loads(out)
    refs = [write_lines(tmp_path / "ref0.es", REFS["spa"]), write_lines(tmp_path / "ref1.es", REF2_SPA)]
    code, out, err = invoke([str(refs[0]), str(refs[1]), "-i", str(hyp), "-m", "bleu", "chrf", "ter"])
    direct = json.loads(out)
    assert [s["score"] for s in with_t] == [s["score"] for s in direct]
    for ours, theirs in zip(with_t, direct):
        assert "nrefs:2|" in ours["signature"] and "lang:eng-spa|" in ours["signature"]
        assert ours["signature"] == theirs["signature"].replace("nrefs:2|", "nrefs:2|test:ntrex128|lang:eng-spa|")


def test_reverse_direction_swaps_the_roles(ntrex):
    ntrex.serve(ntrex.prefix)
    code, out, err = invoke(["-t", "ntrex128", "-l", "de-en", "--echo", "src", "ref", "docid"])
    assert code == 0, err
    assert out.splitlines() == [f"{r}\t{s}\t{d}" for s, r, d in zip(SRC, REFS["deu"], DOCS)]
    assert "eng_GB-eng" not in ts.language_pairs("ntrex128")  # eng-GB -> eng is not a translation direction


def test_two_letter_pairs_map_when_unambiguous(ntrex, tmp_path):
    ntrex.serve(ntrex.prefix)
    assert ts.resolve_pair("ntrex128", "en-de") == "eng-deu"
    assert ts.resolve_pair("ntrex128", "en-az") == "eng-aze_Latn"  # the only Azerbaijani
    assert ts.resolve_pair("ntrex128", "en-es") == "eng-spa"  # es is spa; spa-MX is es_MX
    assert ts.resolve_pair("ntrex128", "en-es_MX") == "eng-spa_MX"
    assert ts.resolve_pair("ntrex128", "en-zh_TW") == "eng-zho_TW"
    assert ts.resolve_pair("ntrex128", "zh_CN-en") == "zho_CN-eng"
    # ambiguous: a usage error that lists the candidates, before any download
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-zh", "--echo", "src"])
    assert code == 2 and "ambiguous" in err and "eng-zho_CN, eng-zho_TW" in err
    hyp = write_lines(tmp_path / "hyp", SRC)
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-zh", "-i", str(hyp)])
    assert code == 2 and "eng-zho_CN, eng-zho_TW" in err
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-xx", "-i", str(hyp)])
    assert code == 2 and "no language pair 'en-xx'" in err
    assert ntrex.requests() == []


@pytest.mark.parametrize(("pair", "tok"), [("en-zh_CN", "zh"), ("eng-zho_TW", "zh"), ("en-de", "13a"),
                                           ("zh_CN-en", "13a")])
def test_default_tokenizer_follows_the_target_language(ntrex, tmp_path, pair, tok):
    ntrex.serve(ntrex.prefix)
    target = pair.split("-", 1)[1]
    lines = SRC if target.startswith("en") else REFS[{"zh_CN": "zho-CN", "zho_TW": "zho-TW", "de": "deu"}[target]]
    hyp = write_lines(tmp_path / "hyp", lines)
    code, out, err = invoke(["-t", "ntrex128", "-l", pair, "-i", str(hyp)])
    assert code == 0, err
    assert f"|tok:{tok}|" in json.loads(out)["signature"]
    assert json.loads(out)["score"] == 100.0


def test_compare_and_stats_take_the_tokenizer_of_the_resolved_target(ntrex, tmp_path):
    """`-l en-zh_CN` is NTREX's zho_CN: compare and stats tokenize as the scoring command does (zh)."""
    ntrex.serve(ntrex.prefix)
    hyp = write_lines(tmp_path / "hyp", REFS["zho-CN"])
    other = write_lines(tmp_path / "other", SRC)
    code, out, err = invoke(["compare", "-t", "ntrex128", "-l", "en-zh_CN", "-i", str(hyp), str(other),
                             "--json", "-"])
    assert code == 0, err
    assert "|tok:zh|" in out and "|tok:13a|" not in out
    shard = tmp_path / "shard.json"
    code, out, err = invoke(["stats", "-t", "ntrex128", "-l", "en-zh_CN", "-i", str(hyp), "-o", str(shard)])
    assert code == 0, err
    assert "|tok:zh|" in shard.read_text(encoding="utf-8")


def test_japanese_and_korean_targets_pick_their_tokenizers(ntrex):
    registry = ts.describe("ntrex128")
    assert registry.language_code("jpn") == "ja" and registry.language_code("zho_CN") == "zh"
    data = ts.TestData(test_sets=("ntrex128",), pair="eng-jpn", references=[], full_length=0, keep=None,
                       data_hash="", reference_fields=(), target_language="ja")
    assert data.default_tokenizer == "ja-mecab"
    assert ts.TestData(test_sets=("ntrex128",), pair="eng-kor", references=[], full_length=0, keep=None,
                       data_hash="", reference_fields=(), target_language="ko").default_tokenizer == "ko-mecab"


def test_list_marks_the_addition_and_shows_the_caution(ntrex):
    code, out, err = invoke(["--list"])
    assert code == 0, err
    (line,) = [line for line in out.splitlines() if line.startswith("ntrex128")]
    assert line.endswith("[bleucli's own addition, not in sacreBLEU]")
    for pair in ("en-de", "de-en", "eng-deu", "en-zh"):
        code, out, err = invoke(["--list", "-l", pair])
        assert code == 0 and any(line.startswith("ntrex128") for line in out.splitlines()), pair
    code, out, err = invoke(["--list", "-l", "en-xx"])
    assert code == 0 and "ntrex128" not in out
    code, out, err = invoke(["--list", "-t", "ntrex128"])
    assert code == 0, err
    assert "# caution: NTREX-128 was translated from English" in out
    assert "eng-spa: src, ref:0, ref:1, docid" in out.splitlines()
    assert "deu-eng: src, ref, docid" in out.splitlines()
    code, out, err = invoke(["--list", "-t", "ntrex128", "-l", "en-de"])
    assert code == 0 and out.splitlines()[-1] == "eng-deu: src, ref, docid"


def test_citation_has_both_entries_the_licence_and_the_caution(ntrex):
    code, out, err = invoke(["-t", "ntrex128", "--citation"])
    assert code == 0, err
    assert "@inproceedings{federmann-etal-2022-ntrex," in out and "@inproceedings{barrault-etal-2019-findings," in out
    assert f"% licence: CC BY-SA 4.0 (Creative Commons Attribution-ShareAlike 4.0 International), " \
           f"https://github.com/MicrosoftTranslator/NTREX/blob/{SHA}/LICENSE.md" in out
    assert "% caution: NTREX-128 was translated from English" in out
    assert "% ntrex128 is bleucli's own addition to the registry (not in sacreBLEU)" in out


# ------------------------------------------------------------------ mirrors

def fill_mirror(ntrex, directory: Path, overrides: dict[str, bytes] | None = None) -> Path:
    for path, data in ntrex.files.items():
        target = directory / ntrex.mirror_path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((overrides or {}).get(path, data))
    return directory


def test_mirrors_are_tried_in_order_before_the_original(ntrex):
    ntrex.serve("/m1")
    ntrex.serve("/m2")
    ntrex.serve(ntrex.prefix)
    m1 = ntrex.httpserver.url_for("/m1")
    m2 = ntrex.httpserver.url_for("/m2")
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-de", "--echo", "ref", "--mirror", m1, "--mirror", m2])
    assert code == 0, err
    assert out.splitlines() == REFS["deu"]
    assert ntrex.requests() and all(p.startswith(f"/m1/{ntrex.mirror_path('')}") for p in ntrex.requests())


def test_a_bad_mirror_is_skipped_with_a_warning(ntrex, tmp_path, monkeypatch):
    html = b"<!DOCTYPE html><html><body>Sign in to the portal</body></html>"
    ntrex.serve("/portal", {p: html for p in ntrex.files})  # answers an HTML page for everything
    ntrex.serve(ntrex.prefix)
    wrong = fill_mirror(ntrex, tmp_path / "wrong", {"NTREX-128/newstest2019-ref.deu.txt": crlf(["x"] * 6)})
    good = fill_mirror(ntrex, tmp_path / "good")
    portal = ntrex.httpserver.url_for("/portal")
    monkeypatch.setenv("BLEUCLI_MIRROR", f"{portal} {wrong} {tmp_path / 'empty'} {good}")
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-de", "--echo", "ref"])
    assert code == 0, err
    assert out.splitlines() == REFS["deu"]
    assert f"mirror {portal}: size mismatch" in err and "HTML page instead of the file" in err
    assert f"mirror {wrong}: " in err and "does not have the registry's checksum" in err
    assert f"mirror {tmp_path / 'empty'}: no file" in err
    assert not any(p.startswith(ntrex.prefix) for p in ntrex.requests())  # the good mirror served them


def test_every_mirror_failing_falls_back_to_the_original(ntrex):
    ntrex.serve(ntrex.prefix)  # nothing under /gone: 404s
    gone = ntrex.httpserver.url_for("/gone")
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-de", "--echo", "ref", "--mirror", gone])
    assert code == 0, err
    assert out.splitlines() == REFS["deu"]
    assert f"mirror {gone}: could not download {gone}/{ntrex.mirror_path('')}" in err
    assert any(p.startswith(ntrex.prefix) for p in ntrex.requests())


def test_a_local_directory_mirror_works_offline_without_a_socket(ntrex, tmp_path, monkeypatch):
    mirror = fill_mirror(ntrex, tmp_path / "mirror")
    ntrex.serve("/m")
    url_mirror = ntrex.httpserver.url_for("/m")
    import socket

    def no_socket(*args, **kwargs):
        raise AssertionError("a socket was opened offline")

    monkeypatch.setattr(socket, "socket", no_socket)
    monkeypatch.setattr(socket, "create_connection", no_socket)
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-es", "--echo", "ref:1", "--offline",
                             "--mirror", url_mirror, "--mirror", f"file://{mirror}"])
    assert code == 0, err
    assert out.splitlines() == REF2_SPA
    monkeypatch.undo()


def test_compare_takes_its_test_set_from_a_mirror(ntrex, tmp_path):
    """`compare --mirror DIR --offline` finds the test set where `score` does."""
    mirror = fill_mirror(ntrex, tmp_path / "mirror")
    hyp = write_lines(tmp_path / "hyp", REFS["deu"])
    other = write_lines(tmp_path / "other", SRC)
    code, out, err = invoke(["compare", "-t", "ntrex128", "-l", "en-de", "-i", str(hyp), str(other), "--offline",
                             "--mirror", str(mirror), "--json", "-"])
    assert code == 0, err
    report = json.loads(out)
    assert str(hyp) in json.dumps(report["systems"]) and "lang:eng-deu" in out
    assert ntrex.requests() == []


def test_offline_without_a_local_mirror_is_not_cached(ntrex):
    ntrex.serve("/m")
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-de", "--echo", "ref", "--offline",
                             "--mirror", ntrex.httpserver.url_for("/m")])
    assert code == 5 and "offline" in err
    assert ntrex.requests() == []


def test_cache_export_round_trip(ntrex, tmp_path):
    ntrex.serve(ntrex.prefix)
    code, _, err = invoke(["--download", "ntrex128", "-l", "en-es"])
    assert code == 0, err
    exported = tmp_path / "shared"
    code, out, err = invoke(["cache", "export", str(exported)])
    assert code == 0, err
    assert out.strip() == f"4 download(s) in {exported}"  # src, docids, two Spanish references
    for path in (gen.SOURCE, gen.DOCIDS, "NTREX-128/newstest2019-ref.spa.txt",
                 "NTREX-128/newstest2019-ref-2.spa.txt"):
        assert (exported / ntrex.mirror_path(path)).read_bytes() == ntrex.files[path]
    before = len(ntrex.requests())
    other_cache = tmp_path / "other-cache"
    code, out, err = invoke(["--cache-dir", str(other_cache), "-t", "ntrex128", "-l", "en-es", "--echo", "src",
                             "ref:0", "ref:1", "--offline", "--mirror", str(exported)])
    assert code == 0, err
    assert out.splitlines() == [f"{s}\t{a}\t{b}" for s, a, b in zip(SRC, REFS["spa"], REF2_SPA)]
    assert len(ntrex.requests()) == before
    # exporting again leaves the verified files alone
    code, out, _ = invoke(["cache", "export", str(exported)])
    assert code == 0 and out.strip() == f"4 download(s) in {exported}"


def test_an_invalid_mirror_is_a_usage_error(ntrex):
    code, out, err = invoke(["-t", "ntrex128", "-l", "en-de", "--echo", "ref", "--mirror", "ftp://example.org"])
    assert code == 2 and "invalid mirror" in err


# ------------------------------------------------------------------ the shipped entry against NTREX itself

CHECKOUT = os.environ.get("BLEUCLI_NTREX_CHECKOUT")


@pytest.mark.skipif(not CHECKOUT, reason="set BLEUCLI_NTREX_CHECKOUT to a checkout of NTREX at the pinned commit")
def test_shipped_entry_matches_the_ntrex_checkout():
    checkout = Path(CHECKOUT or "")
    head = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0:
        assert head.stdout.strip() == SHA
    text = (REPO / "testsets.yaml").read_text(encoding="utf-8")
    _, downloads, testset = gen.existing_blocks(text)
    expected = gen.blocks(checkout, gen.RAW_BASE.format(commit=SHA), SHA)
    assert (downloads, testset) == expected  # every sha256, size, URL and pair
    reg = ts.describe("ntrex128", registry=REPO / "testsets.yaml")
    from bleucli.testsets.registry import load_registry

    downloads_by_id = load_registry(REPO / "testsets.yaml").downloads
    assert len(reg.files) == 130 and len(reg.pairs) == 127 + 124
    for ident in reg.files:
        download = downloads_by_id[ident]
        path = checkout / download.url.split(f"/{SHA}/", 1)[1]
        data = path.read_bytes()
        assert hashlib.sha256(data).hexdigest() == download.sha256 and len(data) == download.size
        assert data.count(b"\n") == 1997, ident
