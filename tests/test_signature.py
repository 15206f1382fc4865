"""Signature strings: sacreBLEU's v2 format, short form, parsing and comparison."""

from __future__ import annotations

import pytest

from bleucli import BLEU
from bleucli.errors import OptionError
from bleucli.signature import Signature, parse_signature


def _sig(**kwargs) -> Signature:
    return BLEU(**kwargs).corpus_score(["a b c"], [["a b c"]]).signature


def test_default_signature_matches_sacrebleu_format() -> None:
    sig = _sig().with_fields()
    text = sig.format()
    assert text.rsplit("|version:", 1)[0] == "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp"
    assert sig.format(short=True).rsplit("|v:", 1)[0] == "#:1|c:mixed|e:no|tok:13a|s:exp"


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({"smooth_method": "floor"}, "smooth:floor[0.10]"),
        ({"smooth_method": "add-k", "smooth_value": 2}, "smooth:add-k[2.00]"),
        ({"lowercase": True, "tokenize": "intl"}, "case:lc|eff:no|tok:intl"),
        ({"effective_order": True}, "eff:yes"),
        ({"max_ngram_order": 6}, "smooth:exp|order:6|version:"),
    ],
)
def test_fields(kwargs, expected) -> None:
    assert expected in _sig(**kwargs).format()


def test_global_fields_keep_sacrebleu_order() -> None:
    sig = _sig().with_fields(bs=1000, seed=12345, test="wmt17", lang="en-de")
    assert sig.format().startswith("nrefs:1|bs:1000|seed:12345|test:wmt17|lang:en-de|case:mixed|")
    assert sig.format(short=True).startswith("#:1|bs:1000|rs:12345|t:wmt17|l:en-de|c:mixed|")
    assert sig.format().endswith(sig.to_dict()["version"]) and list(sig.to_dict())[-1] == "version"


def test_json_fields_and_string_come_from_the_same_object() -> None:
    sig = _sig(smooth_method="floor")
    assert "|".join(f"{k}:{v}" for k, v in sig.to_dict().items()) == sig.format()


@pytest.mark.parametrize(
    "text",
    [
        "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0",
        "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0",
        "BLEU|#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0",
    ],
)
def test_parse_long_and_short(text: str) -> None:
    _, fields = parse_signature(text)
    assert fields == {"nrefs": "1", "case": "mixed", "eff": "no", "tok": "13a", "smooth": "exp", "version": "2.6.0"}


@pytest.mark.parametrize("text", ["nrefs:1|bogus:2", "nrefs1", "nrefs:1|nrefs:2", "XYZ|nrefs:1"])
def test_parse_rejects_malformed(text: str) -> None:
    with pytest.raises(OptionError):
        parse_signature(text)


def test_diff_lists_each_field_and_wildcards() -> None:
    sig = _sig()
    _, expected = parse_signature("nrefs:1|case:lc|eff:no|tok:intl|smooth:exp|version:0.0.0")
    assert [d[0] for d in sig.diff(expected)] == ["case", "tok", "version"]
    _, wildcard = parse_signature("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:*")
    assert sig.diff(wildcard) == []
    _, missing = parse_signature("nrefs:1|case:mixed|eff:no|tok:13a|version:*")
    assert sig.diff(missing) == [("smooth", None, "exp")]
