"""``--resample-unit document`` with ``-t``: the test set's doc ids, filtered as its references are.

A run on a served test set must give the numbers of the same lines given as
files with ``--docids``; a set without doc ids is a usage error asking for them.
"""

from __future__ import annotations

import json

from bleucli import testsets as ts

from .conftest import invoke, write_lines


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


def test_segment_scores_of_the_whole_set_are_filtered_like_the_hypotheses(env, corpus, tmp_path):
    """With -t -ol, a score file holds a score per line of the whole set; the kept lines' scores are averaged."""
    full = [write_lines(tmp_path / f"{k}.de", lines) for k, lines in enumerate((corpus.sys_b, corpus.sys_p))]
    n = len(corpus.sys_b)
    values = [[(i * 7 + k) % 10 / 10 for i in range(n)] for k in range(2)]
    scores = [write_lines(tmp_path / f"{k}.scores", [repr(v) for v in vs]) for k, vs in enumerate(values)]
    keep = [d in set(ts.get_field_lines("toy-sgml", "en-de", "docid", origlang="de"))
            for d in ts.get_field_lines("toy-sgml", "en-de", "docid")]
    code, out, err = invoke(["-t", "toy-sgml", "-l", "en-de", "-ol", "de", "-i", *full,
                             "--segment-scores", "Q", *scores, "-f", "json"])
    assert code == 0, err
    for entry, vs in zip(json.loads(out), values):
        kept = [v for v, k in zip(vs, keep) if k]
        total = 0.0
        for v in kept:
            total += v
        assert entry["scores"]["Q"]["unrounded_score"] == total / len(kept)
    code, out, err = invoke(["compare", "-t", "toy-sgml", "-l", "en-de", "-ol", "de", "-i", *full,
                             "--segment-scores", "Q", *scores, "--json", "-"])
    assert code == 0, err
    assert json.loads(out)["systems"][0]["metrics"]["Q"]["score"] == entry_score(values[0], keep)
    short = write_lines(tmp_path / "short.scores", ["0.5"] * (n - 3))
    code, _, err = invoke(["-t", "toy-sgml", "-l", "en-de", "-ol", "de", "-i", full[0],
                           "--segment-scores", "Q", short])
    assert code == 3 and f"{short}:{n - 2}: missing score" in err and f"the {n} segments of the test set" in err, err


def entry_score(values: list[float], keep: list[bool]) -> float:
    total = 0.0
    kept = [v for v, k in zip(values, keep) if k]
    for v in kept:
        total += v
    return total / len(kept)
