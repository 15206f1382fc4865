"""The test-set API end to end against the local server: every raw format, fields, filters."""

from __future__ import annotations

import re

import pytest

from bleucli import testsets as ts
from bleucli.errors import (
    InputError,
    LengthMismatchError,
    OptionError,
    UnknownFieldError,
    UnknownLanguagePairError,
    UnknownTestSetError,
)

from .conftest import DOCS, leftovers


def clean(s: str) -> str:
    return re.sub(r"\s+", " ", s.strip())


DROPPED = 12 + 2  # doc-de-1, segment 3: no reference text -> dropped by the WMT XML reader


def without_dropped(lines: list[str]) -> list[str]:
    return [x for i, x in enumerate(lines) if i != DROPPED]


def test_sgml_fields_and_lines(env, corpus):
    assert ts.fields("toy-sgml", "en-de") == ["src", "ref", "docid", "genre", "origlang"]
    assert ts.get_source("toy-sgml", "en-de") == [clean(s) for s in corpus.src]
    assert ts.get_references("toy-sgml", "en-de") == [[clean(r) for r in corpus.ref]]
    docids = ts.get_field_lines("toy-sgml", "en-de", "docid")
    assert docids == [d for d, _o, _g, _dom, n in DOCS for _ in range(n)]
    assert ts.get_field_lines("toy-sgml", "en-de", "origlang")[12:14] == ["de", "de"]
    assert leftovers(env.cache) == []


def test_sgml_two_refs_named_like_sacrebleu(env, corpus):
    assert ts.fields("toy-sgml/tworefs", "en-de")[:3] == ["src", "ref:0", "ref:1"]
    refs = ts.get_references("toy-sgml/tworefs", "en-de")
    assert refs == [[clean(r) for r in corpus.ref], [clean(r) for r in corpus.ref2]]
    # 'ref' is accepted for backwards compatibility and means the first reference.
    assert ts.get_field_lines("toy-sgml/tworefs", "en-de", "ref") == refs[0]


def test_sgml_extra_plain_reference(env, corpus):
    assert ts.get_references("toy-sgml/extra", "en-de") == [[r.rstrip() for r in corpus.ref2]]


def test_wmt_xml_fields_refs_and_systems(env, corpus):
    fields = ts.fields("toy-xml", "en-de")
    assert fields == ["src", "ref:A", "ref:B", "docid", "origlang", "Online-B", "PROMT", "domain"]
    assert ts.get_source("toy-xml", "en-de") == without_dropped([clean(s) for s in corpus.src])
    assert ts.get_references("toy-xml", "en-de") == [without_dropped([clean(r) for r in corpus.ref])]
    assert ts.get_references("toy-xml/B", "en-de") == [without_dropped([clean(r) for r in corpus.ref2])]
    assert ts.get_field_lines("toy-xml", "en-de", "PROMT") == without_dropped([clean(s) for s in corpus.sys_p])
    assert ts.reference_fields("toy-xml/B", "en-de") == ["ref:B"]
    # test-suite documents are skipped
    assert "ts-1" not in ts.get_field_lines("toy-xml", "en-de", "docid")


def test_tsv_columns(env, corpus):
    assert ts.get_source("toy-tsv", "en-de") == [s.rstrip() for s in corpus.src]
    assert ts.get_references("toy-tsv", "en-de") == [[r.rstrip() for r in corpus.ref]]


def test_plain_zip_and_gzip(env, corpus):
    assert ts.get_source("toy-plain", "de-en") == [r.rstrip() for r in corpus.ref]
    assert ts.get_references("toy-plain/gz", "en-de") == [[r.rstrip() for r in corpus.ref2]]


def test_shared_archive_downloaded_once(env):
    ts.download("toy-sgml")
    ts.download("toy-sgml/tworefs")
    ts.download("toy-sgml/extra")
    assert len(env.server.gets("sgml.tgz")) == 1
    assert all(r["accept_encoding"] == "identity" for r in env.server.log)


def test_echo_concatenates_and_tab_joins(env, corpus):
    lines = ts.echo("toy-sgml,toy-tsv", "en-de", ["src", "ref"])
    assert len(lines) == 80
    assert lines[0] == f"{clean(corpus.src[0])}\t{clean(corpus.ref[0])}"
    assert lines[40] == f"{corpus.src[0].rstrip()}\t{corpus.ref[0].rstrip()}"
    with pytest.raises(UnknownFieldError, match="available: src, ref, docid"):
        ts.echo("toy-sgml", "en-de", ["nope"])
    assert len(ts.echo("toy-xml", "en-de", ["all"])[0].split("\t")) == 8
    with pytest.raises(OptionError):
        ts.echo("toy-xml", "en-de", ["all", "src"])


@pytest.mark.parametrize("name", ["toy-sgml", "toy-xml"])
def test_origlang_filter(env, corpus, name):
    src = ts.get_source(name, "en-de")
    en = ts.get_source(name, "en-de", origlang="en")
    de = ts.get_source(name, "en-de", origlang="de")
    non_en = ts.get_source(name, "en-de", origlang="non-en")
    assert de == non_en
    assert len(en) + len(de) == len(src)
    assert en[:12] == src[:12] and de[0] == src[12]
    assert ts.get_source(name, "en-de", origlang="fr") == []


def test_subset_filter(env):
    src = ts.get_source("toy-sgml", "en-de")
    politics = ts.get_source("toy-sgml", "en-de", subset="politics")
    assert politics == src[:12] + src[22:]
    assert ts.get_source("toy-sgml", "en-de", subset="country:GB") == src[22:]
    xml_src = ts.get_source("toy-xml", "en-de")
    assert ts.get_source("toy-xml", "en-de", subset="soc") == xml_src[12:21]
    with pytest.raises(OptionError, match="no subset annotation"):
        ts.get_source("toy-sgml/tworefs", "en-de", subset="x")
    with pytest.raises(OptionError, match="WMT SGML or WMT XML"):
        ts.get_source("toy-tsv", "en-de", origlang="en")


def test_test_data_filters_hypotheses_and_checks_length(env, corpus):
    data = ts.load_test_data("toy-sgml", "en-de", origlang="de")
    assert data.full_length == 40
    hyps = [f"h{i}" for i in range(40)]
    assert data.filter_hypotheses(hyps) == hyps[12:22]
    assert data.references == [[clean(r) for r in corpus.ref][12:22]]
    with pytest.raises(LengthMismatchError, match="39 lines .* has 40"):
        data.filter_hypotheses(hyps[:-1])
    assert data.signature_fields() == {"test": "toy-sgml", "lang": "en-de", "origlang": "de", "subset": None}
    with pytest.raises(InputError, match="contains no sentence with origlang=fr"):
        ts.load_test_data("toy-sgml", "en-de", origlang="fr")


def test_data_hash_changes_with_reference_data(env):
    a = ts.data_hash("toy-sgml", "en-de")
    assert a == ts.data_hash("toy-sgml", "en-de")
    assert a != ts.data_hash("toy-sgml/extra", "en-de")
    assert re.fullmatch(r"[0-9a-f]{64}", a)


def test_concatenation_needs_same_number_of_refs(env):
    with pytest.raises(OptionError, match="different numbers of references"):
        ts.load_test_data("toy-sgml,toy-sgml/tworefs", "en-de")
    both = ts.load_test_data("toy-sgml,toy-tsv", "en-de")
    assert both.full_length == 80 and both.test == "toy-sgml,toy-tsv"


def test_unknown_names(env):
    with pytest.raises(UnknownTestSetError) as err:
        ts.get_source("toy-sgm", "en-de")
    assert "toy-sgml" in err.value.suggestions
    with pytest.raises(UnknownLanguagePairError) as err2:
        ts.get_source("toy-plain", "en-fr")
    assert err2.value.available == ["en-de", "de-en"]
    assert env.server.log == []  # no download for a bad name


def test_listing_and_citation(env):
    names = [n for n, _ in ts.list_testsets()]
    assert names == sorted(names) and "toy-xml" in names
    # -l matches either direction (sacreBLEU's --list -l)
    assert [n for n, _ in ts.list_testsets("de-en")] == names
    assert ts.citation("toy-sgml").startswith("@misc{toy")
    assert ts.citation("toy-tsv") is None
    assert ts.language_pairs("toy-plain") == ["en-de", "de-en"]


def test_default_tokenizer_by_target_language():
    assert ts.default_tokenizer("en-zh") == "zh"
    assert ts.default_tokenizer("zh-en") == "13a"
