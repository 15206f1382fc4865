"""``bleucli rank -t NAME -l PAIR``: the ranking of a test set is the ranking of the same lines given as files,
with the set's fields in the signature."""

from __future__ import annotations

import json

from bleucli import testsets as ts

from .conftest import invoke, write_lines


def test_rank_on_a_test_set_equals_rank_on_its_files(env, corpus, tmp_path):
    n = len(ts.get_source("toy-xml", "en-de"))
    systems = [write_lines(tmp_path / "b.de", corpus.sys_b[:n]), write_lines(tmp_path / "p.de", corpus.sys_p[:n]),
               write_lines(tmp_path / "r.de", list(reversed(corpus.sys_p[:n])))]
    ref = write_lines(tmp_path / "ref.de", ts.get_references("toy-xml", "en-de")[0])
    code, out, err = invoke(["rank", "-t", "toy-xml", "-l", "en-de", "-i", *systems, "-pbsn", "200", "-f", "json"])
    assert code == 0, err
    with_t = json.loads(out)["rankings"][0]
    code, out, err = invoke(["rank", ref, "-i", *systems, "-pbsn", "200", "-f", "json"])
    assert code == 0, err
    direct = json.loads(out)["rankings"][0]
    assert with_t["systems"] == direct["systems"] and with_t["pairs"] == direct["pairs"]
    assert with_t["signature"] == direct["signature"].replace("corr:holm|", "corr:holm|test:toy-xml|lang:en-de|")
