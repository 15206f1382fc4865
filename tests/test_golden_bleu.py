"""bleucli against frozen sacreBLEU 2.6.0 results (tests/golden/bleu.json).

Every set, system and tokenizer with one and with all references; a grid of
smoothing, case and max-order settings; sentence-level scores. Equality is
exact: same floats, same statistics, same signature (except the version).
Regenerate with tests/golden/regenerate_bleu.py.
"""

from __future__ import annotations

import json
import warnings
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import pytest

import datasets
from bleucli import BLEU
from fast_subset import BLEU_SET, slow_except

# every test here runs with the compiled and with the pure-Python n-gram matcher
pytestmark = pytest.mark.usefixtures("matcher")

GOLDEN = Path(__file__).parent / "golden" / "bleu.json"


@lru_cache(maxsize=1)
def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def _systems(name: str) -> dict[str, list[str]]:
    return datasets.systems(name) or {"ref2-as-hypothesis": datasets.references(name)[1]}


def _refs(name: str, key: str) -> list[list[str]]:
    refs = datasets.references(name)
    return refs[:1] if key == "1" else refs


def _check(record: dict, score) -> None:
    where = (record["set"], record["system"], record["refs"], record["options"])
    assert score.score == record["score"], where
    assert list(score.counts) == record["counts"], where
    assert list(score.totals) == record["totals"], where
    assert list(score.precisions) == record["precisions"], where
    assert score.bp == record["bp"], where
    assert (score.sys_len, score.ref_len) == (record["sys_len"], record["ref_len"]), where
    fields = score.signature.to_dict()
    order = record["options"].get("max_ngram_order", 4)
    # bleucli records a max order other than 4 (sacreBLEU cannot); every other field must match
    assert fields.pop("order", None) == (str(order) if order != 4 else None), where
    fields.pop("version")
    assert "|".join(f"{k}:{v}" for k, v in fields.items()) == record["signature"], where


def _corpus_groups() -> dict[tuple[str, str, str], list[dict]]:
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for record in golden()["corpus"]:
        groups[(record["set"], record["refs"], record["options"]["tokenize"])].append(record)
    return groups


def test_golden_file_covers_every_set_system_and_tokenizer() -> None:
    groups = _corpus_groups()
    for name in datasets.sets():
        tokenizers = {"13a", "intl", "char", "none"} | ({"zh"} if datasets.target_language(name) == "zh" else set())
        ref_keys = {"1", "all"} if len(datasets.references(name)) > 1 and datasets.systems(name) else {"1"}
        for key in ref_keys:
            for tok in tokenizers:
                scored = {r["system"] for r in groups[(name, key, tok)]}
                assert scored == set(_systems(name)), (name, key, tok)


@pytest.mark.parametrize("name", slow_except(datasets.sets(), {BLEU_SET}))
def test_corpus_bleu_equals_oracle(name: str) -> None:
    systems = _systems(name)
    for (set_name, key, tok), records in _corpus_groups().items():
        if set_name != name:
            continue
        metric = BLEU(tokenize=tok, force=True, references=_refs(name, key))
        for record in records:
            _check(record, metric.corpus_score(systems[record["system"]]))


@pytest.mark.parametrize("name", slow_except(datasets.sets(), {BLEU_SET}))
def test_option_grid_equals_oracle(name: str) -> None:
    systems = _systems(name)
    records = [r for r in golden()["grid"] if r["set"] == name]
    assert records
    for record in records:
        metric = BLEU(force=True, **record["options"])
        _check(record, metric.corpus_score(systems[record["system"]], _refs(name, record["refs"])))


@pytest.mark.parametrize("name", slow_except(datasets.sets(), {BLEU_SET}))
def test_sentence_bleu_equals_oracle(name: str) -> None:
    systems = _systems(name)
    for record in [r for r in golden()["sentence"] if r["set"] == name]:
        refs = _refs(name, record["refs"])
        hyps = systems[record["system"]][: record["lines"]]
        metric = BLEU(**record["options"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the effective-order advice for eff=False
            scores = [metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
        assert scores == record["scores"], (name, record["options"])
        assert metric.signature().format().rsplit("|version:", 1)[0] == record["signature"]

