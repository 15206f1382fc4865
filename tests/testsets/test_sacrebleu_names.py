"""sacreBLEU's test-set functions under their own names (issue 16.12), against the local server.

``DATASETS``, ``get_source_file``, ``get_reference_files``, ``get_files``,
``download_test_set``, ``get_langpairs_for_testset``, ``get_available_testsets``
and ``get_available_testsets_for_langpair`` as ``sacrebleu`` (and
``sacrebleu.utils``) define them: paths of plain-text files, one segment per
line, holding exactly what ``bleucli.testsets`` returns (whose lines are checked
against sacreBLEU's own classes in ``test_sacrebleu_parity.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bleucli
from bleucli import testsets as ts
from bleucli.errors import NotCachedError, UnknownLanguagePairError, UnknownTestSetError

from .conftest import leftovers


def read(path: str) -> list[str]:
    with bleucli.smart_open(path) as handle:
        return [line.rstrip() for line in handle]


def test_source_and_reference_files_hold_the_scored_lines(env):
    source = bleucli.get_source_file("toy-sgml/tworefs", "en-de")
    assert isinstance(source, str) and Path(source).is_file()
    assert read(source) == ts.get_source("toy-sgml/tworefs", "en-de")
    refs = bleucli.get_reference_files("toy-sgml/tworefs", "en-de")
    assert len(refs) == 2 and all(isinstance(p, str) for p in refs)
    assert [read(p) for p in refs] == ts.get_references("toy-sgml/tworefs", "en-de")
    # WMT XML: the references -t scores against (here B only), not every ref field
    refs_b = bleucli.get_reference_files("toy-xml/B", "en-de")
    assert [read(p) for p in refs_b] == ts.get_references("toy-xml/B", "en-de")
    assert len(env.server.gets("sgml.tgz")) == 1  # downloaded once, then served from the cache
    assert leftovers(env.cache) == []


def test_get_files_lists_every_field_in_order(env):
    files = bleucli.get_files("toy-sgml", "en-de")
    assert len(files) == len(ts.fields("toy-sgml", "en-de")) == 5
    assert files[0] == bleucli.get_source_file("toy-sgml", "en-de")
    assert files[1:2] == bleucli.get_reference_files("toy-sgml", "en-de")
    assert read(files[2]) == ts.get_field_lines("toy-sgml", "en-de", "docid")
    assert bleucli.utils.get_files is bleucli.get_files


def test_download_test_set_one_pair_or_all(env):
    assert bleucli.download_test_set("toy-plain", "de-en") == bleucli.get_files("toy-plain", "de-en")
    every = bleucli.download_test_set("toy-plain")
    assert every == bleucli.get_files("toy-plain", "en-de") + bleucli.get_files("toy-plain", "de-en")
    assert len(env.server.gets("plain.zip")) == 1


def test_registry_queries(env):
    assert bleucli.get_langpairs_for_testset("toy-plain") == ["en-de", "de-en"]
    assert bleucli.get_langpairs_for_testset("no-such-set") == []  # sacreBLEU: [] rather than an error
    names = ["toy-plain", "toy-plain/gz", "toy-sgml", "toy-sgml/extra", "toy-sgml/tworefs", "toy-tsv", "toy-xml",
             "toy-xml/B"]
    assert bleucli.get_available_testsets() == sorted(names, reverse=True)
    assert bleucli.utils.get_available_testsets_for_langpair("de-en") == [
        "toy-sgml", "toy-sgml/tworefs", "toy-sgml/extra", "toy-xml", "toy-xml/B", "toy-tsv", "toy-plain",
        "toy-plain/gz"]
    datasets = bleucli.DATASETS
    assert set(datasets) == set(names)
    assert len(datasets) == 8 and "toy-sgml" in datasets and "wmt17" not in datasets
    assert datasets["toy-sgml"].name == "toy-sgml"
    assert datasets["toy-sgml"].description == "Toy WMT SGML set."
    assert datasets["toy-sgml"].citation.startswith("@misc{toy")
    assert list(datasets["toy-plain"].langpairs) == ["en-de", "de-en"]


def test_unknown_names_raise_typed_errors(env):
    with pytest.raises(UnknownTestSetError):
        bleucli.get_source_file("no-such-set", "en-de")
    with pytest.raises(UnknownLanguagePairError):
        bleucli.get_reference_files("toy-sgml", "fr-de")
    with pytest.raises(KeyError):
        bleucli.DATASETS["no-such-set"]


def test_offline_without_the_data(env, monkeypatch):
    monkeypatch.setenv("BLEUCLI_OFFLINE", "1")
    with pytest.raises(NotCachedError):
        bleucli.get_source_file("toy-tsv", "en-de")
    assert env.server.log == []
