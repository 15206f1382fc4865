"""Live differential test against sacreBLEU 2.6 on randomised BLEU options (skipped without it)."""

from __future__ import annotations

import random

import pytest

import datasets
import sigdata
from bleucli.metrics.bleu import BLEU
from bleucli.significance import confidence_interval, paired_test
from fast_subset import slow_except

sacrebleu = pytest.importorskip("sacrebleu")
np = pytest.importorskip("numpy")
pytestmark = pytest.mark.oracle


def _configs(count: int) -> list[dict]:
    rnd = random.Random(4242)
    configs = []
    for _ in range(count):
        smooth = rnd.choice(["exp", "floor", "add-k", "none"])
        configs.append({
            "metric": {
                "tokenize": rnd.choice(["13a", "none", "intl", "char"]),
                "lowercase": rnd.random() < 0.5,
                "smooth_method": smooth,
                # sacreBLEU's AR adds add-k in place to int64 rows, truncating a fractional k;
                # integer k (the default 1) behaves the same in both.
                "smooth_value": {"floor": rnd.choice([None, 0.01, 0.5]), "add-k": rnd.choice([None, 2])}.get(smooth),
                "effective_order": rnd.random() < 0.3,
            },
            "nrefs": rnd.choice([1, 3]),
            "lines": rnd.choice([60, 250]),
            "seed": rnd.randint(1, 10**6),
            "n_bs": rnd.choice([41, 200]),
            "n_ar": rnd.choice([64, 333]),
        })
    return configs


CONFIGS = _configs(6)


# the last config (character tokens, 250 lines, three references) takes seconds: slow
@pytest.mark.parametrize("config", slow_except(CONFIGS, CONFIGS[:5]),
                         ids=lambda c: "-".join(str(v) for v in c["metric"].values()))
def test_matches_live_oracle(config: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", str(config["seed"]))
    lines = config["lines"]
    refs = [s[:lines] for s in datasets.references(sigdata.WMT21)[: config["nrefs"]]]
    names = sigdata.WMT21_SYSTEMS[:3]
    hyps = [datasets.system(sigdata.WMT21, n)[:lines] for n in names]
    ours = BLEU(**config["metric"])
    stats = [ours.corpus_statistics(h, refs) for h in hyps]
    for test, n in (("bs", config["n_bs"]), ("ar", config["n_ar"])):
        oracle = {"BLEU": sacrebleu.BLEU(references=refs, **config["metric"])}
        signatures, scores = PairedTest(list(zip(names, hyps)), oracle, None, test, n)()
        result = paired_test(test, ours, stats[0], stats[1:], n, config["seed"], names=names)
        for row, expected in zip(result.rows, scores["BLEU"]):
            assert (row.score, row.mean, row.ci, row.p_value) == (
                expected.score, expected.mean, expected.ci, expected.p_value)
        assert result.signature.format().rsplit("|", 1)[0] == str(signatures["BLEU"]).rsplit("|", 1)[0]
    score = sacrebleu.BLEU(**config["metric"]).corpus_score(hyps[1], refs, n_bootstrap=config["n_bs"])
    ci = confidence_interval(ours, stats[1], config["n_bs"], config["seed"])
    assert (ci.score, ci.mean, ci.ci) == (score.score, score._mean, score._ci)


# TER's shift search on 80 lines takes seconds per resampling test: slow
@pytest.mark.parametrize("metric", slow_except(["chrF2++", "chrF2-eps", "TER", "TER-normalized"],
                                               {"chrF2++", "chrF2-eps"}))
def test_chrf_and_ter_match_live_oracle(metric: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The significance code has nothing BLEU-specific: chrF and TER give sacreBLEU's numbers too."""
    from sacrebleu.significance import PairedTest

    from bleucli import CHRF, TER

    options = {"chrF2++": (CHRF, {"word_order": 2}), "chrF2-eps": (CHRF, {"eps_smoothing": True}),
               "TER": (TER, {}), "TER-normalized": (TER, {"normalized": True})}
    ours_class, kwargs = options[metric]
    oracle_class = sacrebleu.CHRF if ours_class is CHRF else sacrebleu.TER
    seed = 777
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    refs = [s[:80] for s in datasets.references(sigdata.WMT21)[:2]]
    names = sigdata.WMT21_SYSTEMS[:3]
    hyps = [datasets.system(sigdata.WMT21, n)[:80] for n in names]
    ours = ours_class(**kwargs)
    stats = [ours.corpus_statistics(h, refs) for h in hyps]
    for test, n in (("bs", 50), ("ar", 70)):
        oracle = {"m": oracle_class(references=refs, **kwargs)}
        _, scores = PairedTest(list(zip(names, hyps)), oracle, None, test, n)()
        result = paired_test(test, ours, stats[0], stats[1:], n, seed, names=names)
        (expected_rows,) = [v for k, v in scores.items() if k != "System"]
        for row, expected in zip(result.rows, expected_rows):
            assert (row.score, row.mean, row.ci, row.p_value) == (
                expected.score, expected.mean, expected.ci, expected.p_value)
    assert confidence_interval(ours, stats[1], 60, seed).score == ours.score_from_statistics(
        ours.aggregate(stats[1])).score
