"""``bleucli compare -t NAME -l PAIR``: references and source from a test set served on 127.0.0.1.

The report of a test set must be the report of the same lines given as files
(scores, p-values, sentence BLEU), with the set's fields in every signature,
and its source shown; the filters (``--origlang``) apply to the systems and the
source as they do to the references.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bleucli import testsets as ts
from bleucli.cli import cli


def invoke(args):
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


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
