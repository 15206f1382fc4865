"""Cache management: list with sizes, verify finds damage without changing anything, remove."""

from __future__ import annotations

from bleucli import testsets as ts
from bleucli.testsets.manage import list_cache, remove_from_cache, verify_cache


def test_list_verify_remove(env):
    ts.download("toy-sgml")
    ts.download("toy-tsv")
    entries = list_cache(env.cache)
    assert {(e.kind, e.name) for e in entries} == {
        ("download", "sgml.tgz"), ("download", "mtnt.tar.gz"),
        ("testset", "toy-sgml en-de"), ("testset", "toy-tsv en-de")}
    assert all(e.size > 0 for e in entries)
    assert all(r.ok for r in verify_cache(env.cache))

    ref = next((env.cache / "testsets" / "toy-sgml" / "en-de").glob("f01.txt"))
    ref.write_text("tampered\n")
    archive = env.cache / "downloads" / "mtnt.tar.gz" / "mtnt.tar.gz"
    archive.write_bytes(b"x" + archive.read_bytes()[1:])
    bad = {r.entry.name: r.problem for r in verify_cache(env.cache) if not r.ok}
    assert bad == {"toy-sgml en-de": "damaged field(s): ref", "mtnt.tar.gz": "checksum mismatch"}
    assert ref.read_text() == "tampered\n"  # verify changes nothing

    removed = remove_from_cache(env.cache, "toy-tsv")
    assert {p.name for p in removed} == {"toy-tsv", "mtnt.tar.gz"}
    remove_from_cache(env.cache, "toy-sgml")  # sgml.tgz is shared with other sets: kept
    assert [e.name for e in list_cache(env.cache)] == ["sgml.tgz"]
    remove_from_cache(env.cache)
    assert list_cache(env.cache) == []
