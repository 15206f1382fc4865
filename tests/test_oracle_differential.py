"""Differential test against the installed oracle (sacreBLEU 2.6.0) on randomised options.

Skipped when sacrebleu is not installed; the golden files cover the same
ground without it. The seed is printed on failure so a case can be replayed.
"""

from __future__ import annotations

import random
import warnings

import pytest

import datasets
from bleucli import BLEU
from fast_subset import slow_except

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as OracleBLEU  # noqa: E402

# every test here runs with the compiled and with the pure-Python n-gram matcher
pytestmark = pytest.mark.usefixtures("matcher")

SEED = random.randrange(1 << 30)


def _random_case(rng: random.Random):
    name = rng.choice(datasets.sets())
    refs = datasets.references(name)
    systems = datasets.systems(name) or {"ref2": refs[1]}
    system = rng.choice(sorted(systems))
    n = len(refs[0])
    start = rng.randrange(n)
    length = rng.choice([1, 2, 5, 50, 300, n])
    rows = list(range(start, min(n, start + length)))
    chosen_refs = refs[: rng.randint(1, len(refs))] if systems is not None else refs[:1]
    hyps = [systems[system][i] for i in rows]
    refs_subset = [[r[i] for i in rows] for r in chosen_refs]
    if rng.random() < 0.2 and len(refs_subset) > 1:  # variable number of references
        for i in range(0, len(rows), 3):
            refs_subset[-1][i] = None
    options = {
        "tokenize": rng.choice(["13a", "intl", "char", "none", "zh"]),
        "smooth_method": rng.choice(["exp", "floor", "add-k", "none"]),
        "lowercase": rng.random() < 0.3,
        "effective_order": rng.random() < 0.3,
        "max_ngram_order": rng.choice([4, 4, 4, 1, 2, 3, 5, 6, 9]),
        "force": True,
    }
    if options["smooth_method"] in ("floor", "add-k") and rng.random() < 0.5:
        options["smooth_value"] = rng.choice([0.0, 0.01, 0.5, 1, 2.5])
    return (name, system, rows[0], len(rows)), hyps, refs_subset, options


@pytest.mark.parametrize("case", slow_except(range(60), range(10)))
def test_random_options_equal_oracle(case: int) -> None:
    rng = random.Random(SEED + case)
    where, hyps, refs, options = _random_case(rng)
    ours = BLEU(**options).corpus_score(hyps, refs)
    theirs = OracleBLEU(**options).corpus_score(hyps, refs)
    context = (SEED, case, where, options)
    assert ours.score == theirs.score, context
    assert list(ours.counts) == list(theirs.counts), context
    assert list(ours.totals) == list(theirs.totals), context
    assert (ours.sys_len, ours.ref_len, ours.bp) == (theirs.sys_len, theirs.ref_len, theirs.bp), context
    oracle_signature = str(OracleBLEU(**options).corpus_score(hyps, refs) and _signature(options, refs))
    ours_signature = ours.signature.format()
    if options["max_ngram_order"] == 4:
        assert ours_signature.rsplit("|version:", 1)[0] == oracle_signature.rsplit("|version:", 1)[0], context


def _signature(options, refs) -> str:
    metric = OracleBLEU(**options)
    metric.corpus_score(["x"] * len(refs[0]), refs)
    return str(metric.get_signature())


@pytest.mark.parametrize("case", range(20))
def test_random_sentences_equal_oracle(case: int) -> None:
    rng = random.Random(SEED - case)
    where, hyps, refs, options = _random_case(rng)
    options["effective_order"] = rng.random() < 0.8
    ours, theirs = BLEU(**options), OracleBLEU(**options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, hyp in enumerate(hyps[:30]):
            seg_refs = [r[i] for r in refs if r[i] is not None]
            assert ours.sentence_score(hyp, seg_refs).score == theirs.sentence_score(hyp, seg_refs).score, \
                (SEED, case, where, i)
