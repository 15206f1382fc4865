"""The registry: the shipped file is complete and valid; hostile or sloppy YAML is rejected with
an error naming the set and field; loading never executes anything (reliability.md row 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleucli.errors import RegistryError
from bleucli.testsets.registry import default_registry_path, load_registry, load_registry_file

REPO = Path(__file__).resolve().parents[2]

GOOD = """\
schema: 1
downloads:
  f.tgz:
    url: https://example.org/f.tgz
    sha256: '{sha}'
    unpack: tar
testsets:
  toy:
    description: Toy.
    format: wmt-sgml
    files: [f.tgz]
    meta: [docid]
    pairs:
      en-de:
        src: a/src.sgm
        refs: [a/ref.sgm]
""".replace("{sha}", "a" * 64)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "reg.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_good_minimal_registry(tmp_path):
    reg = load_registry_file(write(tmp_path, GOOD))
    toy = reg.get("toy")
    assert toy.pairs["en-de"].src.path == "a/src.sgm"
    assert reg.downloads["f.tgz"].sha256 == "a" * 64


BAD = {
    "duplicate set": (GOOD + "  toy:\n    description: again\n", "duplicate key 'toy'"),
    "duplicate field": (GOOD.replace("    format: wmt-sgml\n", "    format: wmt-sgml\n    format: plain\n"),
                        "duplicate key 'format'"),
    "norway pair": (GOOD.replace("      en-de:", "      no:"), "pairs (key): expected a string, got bool False"),
    "norway label": (GOOD.replace("    format: wmt-sgml", "    format: no"), "testsets.toy.format: expected a string"),
    "numeric checksum": (GOOD.replace("'" + "a" * 64 + "'", "1234"), "downloads.f.tgz.sha256: expected a string"),
    "float version": (GOOD.replace("schema: 1", "schema: 1.10"), "unsupported schema"),
    "bad checksum": (GOOD.replace("a" * 64, "z" * 64), "downloads.f.tgz.sha256: invalid value"),
    "no checksum": (GOOD.replace("    sha256: '" + "a" * 64 + "'\n", ""), "needs a checksum"),
    "unknown key": (GOOD.replace("    format: wmt-sgml", "    format: wmt-sgml\n    colour: red"),
                    "testsets.toy: unknown key(s) colour"),
    "file url": (GOOD.replace("https://example.org/f.tgz", "file:///etc/passwd"), "only http(s) URLs"),
    "dotdot member": (GOOD.replace("a/src.sgm", "../src.sgm"), "testsets.toy.pairs.en-de.src.path"),
    "absolute member": (GOOD.replace("a/src.sgm", "/src.sgm"), "must be relative"),
    "unknown file": (GOOD.replace("files: [f.tgz]", "files: [g.tgz]"), "unknown download 'g.tgz'"),
    "unknown format": (GOOD.replace("format: wmt-sgml", "format: html"), "choose from"),
    "bad set name": (GOOD.replace("  toy:", "  ../toy:"), "invalid test set name"),
    "alias": (GOOD.replace("    description: Toy.", "    description: &d Toy.\n    citation: *d"), "aliases"),
    "python tag": (GOOD.replace("Toy.", "!!python/object/apply:os.system ['touch CANARY']"),
                   "could not determine a constructor"),
    "malformed": (GOOD + "  - [unclosed\n", "invalid registry"),
    "not a mapping": ("- a\n- b\n", "top level: expected a mapping"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_registry(tmp_path, monkeypatch, case):
    text, message = BAD[case]
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, text)
    with pytest.raises(RegistryError) as err:
        load_registry_file(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)
    assert not (tmp_path / "CANARY").exists()


def test_env_var_selects_registry(tmp_path, monkeypatch):
    path = write(tmp_path, GOOD)
    monkeypatch.setenv("BLEUCLI_TESTSETS", str(path))
    assert default_registry_path() == path
    assert load_registry().names() == ["toy"]


# ------------------------------------------------------------------ the shipped registry

def test_shipped_registry_is_valid_and_complete(monkeypatch):
    monkeypatch.delenv("BLEUCLI_TESTSETS", raising=False)
    full = load_registry(REPO / "testsets.yaml")
    # bleucli's own additions (marked origin: bleucli) are checked in test_ntrex.py; the rest is sacreBLEU's
    assert {n for n, t in full.testsets.items() if t.origin == "bleucli"} == {"ntrex128"}
    sacrebleu_sets = {n: t for n, t in full.testsets.items() if t.origin == "sacrebleu"}
    used = {f for t in sacrebleu_sets.values() for f in t.files}
    reg = type(full)(path=full.path, testsets=sacrebleu_sets,
                     downloads={k: v for k, v in full.downloads.items() if k in used}, models=full.models)
    assert len(full.downloads) == len(reg.downloads) + len(full.get("ntrex128").files)
    # spec section 4.5: 67 test sets, 452 (set, pair) entries, 83 distinct pairs
    assert len(reg.testsets) == 67
    assert sum(len(t.pairs) for t in reg.testsets.values()) == 452
    assert len({p for t in reg.testsets.values() for p in t.pairs}) == 83
    assert len(reg.downloads) == 61  # shared archives declared once
    formats = {}
    for t in reg.testsets.values():
        formats[t.format] = formats.get(t.format, 0) + 1
    assert formats == {"wmt-xml": 11, "wmt-sgml": 35, "iwslt-xml": 9, "plain": 8, "tsv": 4}
    for d in reg.downloads.values():
        assert d.md5 and d.url.startswith("https://")
    # per-pair reference overrides (appendix A)
    assert reg.get("wmt22").pairs["cs-en"].refs == ("B",)
    assert reg.get("wmt22").pairs["liv-en"].refs == ("",)
    assert reg.get("wmt23").pairs["he-en"].refs == ("refB",)
    assert reg.get("wmt24").refs == ("refA",)
    assert reg.get("wmt21/AB").refs == ("A", "B")
    assert reg.get("wmt08").meta == ()
    assert reg.get("wmt14").meta == ("docid", "genre", "origlang")
    assert len(reg.get("wmt19").subsets) > 100
    assert sum(1 for t in reg.testsets.values() if t.citation) == 28
    # the wmt21 variants share one download
    assert {reg.get(n).files for n in ("wmt21", "wmt21/B", "wmt21/AB", "wmt21/C", "wmt21/AC", "wmt21/D")} \
        == {("wmt21.test.tgz",)}


def test_shipped_registry_is_inside_the_package_or_at_the_top(monkeypatch):
    monkeypatch.delenv("BLEUCLI_TESTSETS", raising=False)
    path = default_registry_path()
    assert path.is_file() and path.name == "testsets.yaml"


@pytest.mark.skipif(__import__("importlib").util.find_spec("sacrebleu") is None, reason="needs sacrebleu")
def test_shipped_registry_matches_sacrebleu_facts():
    """Differential: every sacreBLEU 2.6 set, pair, URL and MD5 is in the registry."""
    from sacrebleu.dataset import DATASETS

    reg = load_registry(REPO / "testsets.yaml")
    by_url = {d.url: d for d in reg.downloads.values()}
    assert {n for n, t in reg.testsets.items() if t.origin == "sacrebleu"} == set(DATASETS)
    assert {n for n, t in reg.testsets.items() if t.origin != "sacrebleu"} == {"ntrex128"}
    for name, dataset in DATASETS.items():
        testset = reg.get(name)
        assert list(testset.pairs) == list(dataset.langpairs), name
        assert [by_url[u].md5 for u in dataset.data] == list(dataset.md5), name
        assert sorted(testset.files) == sorted(by_url[u].id for u in dataset.data), name
        assert testset.description == dataset.description.strip()
