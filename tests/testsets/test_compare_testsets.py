"""``bleucli compare -t NAME -l PAIR``: references and source from a test set served on 127.0.0.1.

The report of a test set must be the report of the same lines given as files
(scores, p-values, sentence BLEU), with the set's fields in every signature,
and its source shown; the filters (``--origlang``) apply to the systems and the
source as they do to the references.
"""

from __future__ import annotations

import json

import pytest

from bleucli import testsets as ts

from .conftest import invoke, write_lines


def test_compare_on_a_test_set_equals_compare_on_its_files(env, corpus, tmp_path):
    n = len(ts.get_source("toy-xml", "en-de"))
    base = write_lines(tmp_path / "b.de", corpus.sys_b[:n])
    other = write_lines(tmp_path / "p.de", corpus.sys_p[:n])
    ref = write_lines(tmp_path / "ref.de", ts.get_references("toy-xml", "en-de")[0])
    src = write_lines(tmp_path / "src.en", ts.get_source("toy-xml", "en-de"))
    code, out, err = invoke(["compare", "-t", "toy-xml", "-l", "en-de", "-i", base, other, "--json", "-"])
    assert code == 0, err
    with_t = json.loads(out)
    code, out, err = invoke(["compare", ref, "-i", base, other, "--source", src, "--json", "-"])
    assert code == 0, err
    direct = json.loads(out)
    assert with_t["systems"] == direct["systems"]
    assert with_t["segments"][5]["source"] == ts.get_source("toy-xml", "en-de")[5]
    assert [s["source"] for s in with_t["segments"]] == [s["source"] for s in direct["segments"]]
    assert with_t["signatures"]["BLEU"] == direct["signatures"]["BLEU"].replace(
        "nrefs:1|", "nrefs:1|test:toy-xml|lang:en-de|")
    assert with_t["inputs"][0]["role"] == "test set" and with_t["inputs"][0]["name"] == "toy-xml (en-de)"
    assert with_t["command"].startswith("bleucli compare -t toy-xml -i ")
    # and the scoring command against the same set prints the same p-value
    code, out, err = invoke(["-t", "toy-xml", "-l", "en-de", "-i", base, other, "-pbs", "-f", "json"])
    assert code == 0, err
    assert json.loads(out)[1]["BLEU"]["p_value"] == with_t["systems"][1]["metrics"]["BLEU"]["p_value"]


def test_origlang_filters_systems_and_source_like_the_references(env, corpus, tmp_path):
    base = write_lines(tmp_path / "b.de", corpus.sys_b)
    other = write_lines(tmp_path / "p.de", corpus.sys_p)
    code, out, err = invoke(["compare", "-t", "toy-sgml", "-l", "en-de", "-ol", "de", "-i", base, other,
                             "--json", "-"])
    assert code == 0, err
    report = json.loads(out)
    assert [s["source"] for s in report["segments"]] == ts.get_source("toy-sgml", "en-de", origlang="de")
    assert [s["systems"][0]["hypothesis"] for s in report["segments"]] == corpus.sys_b[12:22]
    assert "origlang:de" in report["signatures"]["BLEU"]


def test_test_set_errors_are_one_line_with_documented_codes(env, corpus, tmp_path):
    base = write_lines(tmp_path / "b.de", corpus.sys_b)
    short = write_lines(tmp_path / "short.de", corpus.sys_p[:5])
    code, _, err = invoke(["compare", "-t", "toy-sgml", "-l", "en-de", "-i", base, short])
    assert code == 3 and "short.de has 5 lines but test set toy-sgml (en-de) has 40" in err
    code, _, err = invoke(["compare", base, "-t", "toy-sgml", "-l", "en-de", "-i", base, short])
    assert code == 2 and "either a test set (-t) or reference files" in err
    code, _, err = invoke(["compare", "-i", base, short])
    assert code == 2 and "-t NAME -l PAIR" in err
    code, _, err = invoke(["compare", "-t", "toy-sgml", "-i", base, short])
    assert code == 2 and "needs a language pair" in err


@pytest.mark.slow  # scores every document of both systems with the CLI
def test_a_test_sets_doc_ids_give_the_document_view(env, corpus, tmp_path):
    """Each document's BLEU is the scoring command's BLEU of that document's lines."""
    n = len(ts.get_source("toy-xml", "en-de"))
    base = write_lines(tmp_path / "b.de", corpus.sys_b[:n])
    other = write_lines(tmp_path / "p.de", corpus.sys_p[:n])
    code, out, err = invoke(["compare", "-t", "toy-xml", "-l", "en-de", "-i", base, other, "--json", "-"])
    assert code == 0, err
    report = json.loads(out)
    docids = ts.get_field_lines("toy-xml", "en-de", "docid")
    assert [s["document"] for s in report["segments"]] == docids
    documents = [b for b in report["buckets"] if b["kind"] == "document"]
    assert [(b["label"], b["count"]) for b in documents] == [("doc-en-1", 12), ("doc-de-1", 9), ("doc-en-2", 18)]
    refs = ts.get_references("toy-xml", "en-de")[0]
    for bucket in documents:
        lines = [i - 1 for i in bucket["segments"]]
        assert [docids[i] for i in lines] == [bucket["label"]] * bucket["count"]
        ref = write_lines(tmp_path / "doc.ref", [refs[i] for i in lines])
        for k, system in enumerate((corpus.sys_b, corpus.sys_p)):
            hyp = write_lines(tmp_path / "doc.hyp", [system[i] for i in lines])
            code, out, err = invoke([ref, "-i", hyp, "-f", "json"])
            assert json.loads(out)["unrounded_score"] == bucket["values"][k]
    # an SGML set has doc ids too, filtered by --origlang with everything else
    full = [write_lines(tmp_path / f"{k}.de", lines) for k, lines in enumerate((corpus.sys_b, corpus.sys_p))]
    code, out, err = invoke(["compare", "-t", "toy-sgml", "-l", "en-de", "-ol", "de", "-i", *full, "--json", "-"])
    assert code == 0, err
    assert {s["document"] for s in json.loads(out)["segments"]} == {"doc-de-1"}


def test_docids_file_with_reference_files(env, corpus, tmp_path):
    ref = write_lines(tmp_path / "ref.de", corpus.ref[:20])
    base = write_lines(tmp_path / "b.de", corpus.sys_b[:20])
    other = write_lines(tmp_path / "p.de", corpus.sys_p[:20])
    docids = write_lines(tmp_path / "docs.txt", ["a"] * 5 + ["b<script>"] * 15)
    code, out, err = invoke(["compare", ref, "-i", base, other, "--docids", docids, "--json", "-"])
    assert code == 0, err
    report = json.loads(out)
    assert [(b["label"], b["count"]) for b in report["buckets"] if b["kind"] == "document"] == [
        ("a", 5), ("b<script>", 15)]
    assert report["inputs"][1] == {"role": "doc ids", "name": docids, "sha256": report["inputs"][1]["sha256"]}
    html = tmp_path / "r.html"
    code, _, err = invoke(["compare", ref, "-i", base, other, "--docids", docids, "--html", str(html)])
    assert code == 0, err
    page = html.read_text(encoding="utf-8")
    assert "<h2 id=\"h-documents\">Documents</h2>" in page and "b&lt;script&gt;" in page and "b<script>" not in page
    short = write_lines(tmp_path / "short.txt", ["a"] * 3)
    code, _, err = invoke(["compare", ref, "-i", base, other, "--docids", short])
    assert code == 3 and err.strip() == f"bleucli: error: {short}: has 3 lines, the references 20"
