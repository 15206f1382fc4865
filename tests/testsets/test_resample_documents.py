"""``--resample-unit document`` with ``-t``: the test set's doc ids, filtered as its references are.

A run on a served test set must give the numbers of the same lines given as
files with ``--docids``; a set without doc ids is a usage error asking for them.
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


def _numbers(out: str) -> list:
    return [{k: v for k, v in entry["BLEU"].items() if k != "signature"} for entry in json.loads(out)]


def test_test_set_doc_ids_are_those_of_the_same_lines_as_files(env, corpus, tmp_path):
    full = [write_lines(tmp_path / f"{k}.de", lines) for k, lines in enumerate((corpus.sys_b, corpus.sys_p))]
    code, out, err = invoke(["-t", "toy-sgml", "-l", "en-de", "-ol", "en", "-i", *full, "-pbs",
                             "--resample-unit", "document"])
    assert code == 0, err
    with_t = json.loads(out)
    assert "|seed:12345|unit:doc|test:toy-sgml|" in with_t[1]["BLEU"]["signature"]
    # the same lines as files: origlang en keeps the documents doc-en-1 and doc-en-2
    docids = ts.get_field_lines("toy-sgml", "en-de", "docid", origlang="en")
    keep = [i for i, d in enumerate(ts.get_field_lines("toy-sgml", "en-de", "docid")) if d in set(docids)]
    ref = write_lines(tmp_path / "ref.de", ts.get_references("toy-sgml", "en-de", origlang="en")[0])
    files = [write_lines(tmp_path / f"f{k}.de", [lines[i] for i in keep])
             for k, lines in enumerate((corpus.sys_b, corpus.sys_p))]
    docs = write_lines(tmp_path / "docs.txt", docids)
    code, out, err = invoke([ref, "-i", *files, "-pbs", "--resample-unit", "document", "--docids", docs])
    assert code == 0, err
    assert _numbers(out) == [{k: v for k, v in entry["BLEU"].items() if k != "signature"} for entry in with_t]


def test_a_test_set_without_doc_ids_asks_for_them(env, corpus, tmp_path):
    n = len(ts.get_source("toy-plain", "en-de"))
    hyp = write_lines(tmp_path / "b.de", corpus.sys_b[:n])
    code, _, err = invoke(["-t", "toy-plain", "-l", "en-de", "-i", hyp, "-ci", "--resample-unit", "document"])
    assert code == 2 and "has no doc ids: give them with --docids FILE" in err, err
