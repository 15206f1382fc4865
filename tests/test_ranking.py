"""``bleucli rank``: every pair's p-value equals -pbs/-par's, Holm, zero deltas, clusters, rank ranges,
human accuracy (Kocmi et al. 2024) against mt-thresholds, and the command's outputs."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest

import datasets
from bleucli.metrics.bleu import BLEU
from bleucli.significance import paired_approximate_randomization, paired_bootstrap
from bleucli.significance.human_accuracy import FITS, fit_name, human_accuracy
from bleucli.significance.ranking import (
    adjust,
    default_resamples,
    holm,
    rank_intervals,
    rank_systems,
    wmt_clusters,
)
from conftest import invoke

np = pytest.importorskip("numpy")

#: Real WMT21 bn-hi outputs (9 systems, 503 segments).
SET = "wmt21-bn-hi"


@cache
def _lines() -> tuple[list[str], list[list[str]], list[str]]:
    names = sorted(datasets.system_name(p) for p in datasets.system_paths(SET))
    return names, [list(datasets.system(SET, n)) for n in names], list(datasets.references(SET)[0])


def _statistics(count: int | None = None) -> tuple[BLEU, list, list[str]]:
    names, systems, ref = _lines()
    metric = BLEU()
    chosen = slice(None) if count is None else slice(count)
    stats = [metric.corpus_statistics(hyps, [ref]) for hyps in systems[chosen]]
    return metric, stats, names[chosen]


# -- p-values: exactly -pbs's and -par's for every pair ------------------------------------------
@pytest.mark.parametrize("seed, systems", [(12345, 5), pytest.param(7, None, marks=pytest.mark.slow)])
def test_bootstrap_p_values_equal_paired_bootstrap_for_every_pair(matcher: str, seed: int, systems: int | None) -> None:
    metric, stats, names = _statistics(systems)
    ranking = rank_systems(metric, stats, names, test="bs", n=1000, seed=seed)
    for i in range(len(stats) - 1):
        result = paired_bootstrap(metric, stats[i], stats[i + 1:], 1000, seed)
        for j, row in enumerate(result.systems, i + 1):
            assert ranking.pair(i, j).p_value == row.p_value, (names[i], names[j])
            assert ranking.pair(j, i).delta == row.score - result.baseline.score


def test_randomization_p_values_equal_paired_ar_for_every_pair(matcher: str) -> None:
    metric, stats, names = _statistics(5)
    ranking = rank_systems(metric, stats, names, test="ar", n=640, n_bootstrap=200, seed=12345)
    for i in range(len(stats) - 1):
        result = paired_approximate_randomization(metric, stats[i], stats[i + 1:], 640, 12345)
        for j, row in enumerate(result.systems, i + 1):
            assert ranking.pair(i, j).p_value == row.p_value, (names[i], names[j])
    assert ranking.n == 640 and ranking.n_bootstrap == 200


@pytest.mark.parametrize("kind, test", [
    ("chrF", "bs"), ("TER", "ar"),
    *(pytest.param(kind, test, marks=pytest.mark.slow)
      for kind, test in (("chrF", "ar"), ("chrF++", "bs"), ("chrF++", "ar"), ("TER", "bs"))),
])
def test_p_values_equal_the_paired_tests_for_chrf_and_ter(matcher: str, kind: str, test: str) -> None:
    """chrF and TER keep their resampled scores in float32 (as sacreBLEU): the same numbers here."""
    from bleucli import CHRF, TER
    from bleucli.significance import paired_test

    names, systems, ref = _lines()
    metric = {"chrF": lambda: CHRF(), "chrF++": lambda: CHRF(word_order=2), "TER": lambda: TER()}[kind]()
    stats = [metric.corpus_statistics(hyps[:150], [ref[:150]]) for hyps in systems[:3]]
    ranking = rank_systems(metric, stats, names[:3], test=test, n=128, n_bootstrap=64, seed=12345)
    for i in range(2):
        result = paired_test(test, metric, stats[i], stats[i + 1:], 128, 12345)  # type: ignore[arg-type]
        for j, row in enumerate(result.systems, i + 1):
            assert ranking.pair(i, j).p_value == row.p_value, (kind, test, i, j)
    assert ranking.lower_is_better == (kind == "TER")


def _pbs_json(args: list[str]) -> list[dict]:
    result = invoke(args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("test", ["bs", pytest.param("ar", marks=pytest.mark.slow)])
def test_command_p_values_equal_the_scoring_commands(tmp_path: Path, test: str) -> None:
    """``bleucli rank`` and ``bleucli REF -i A B C -pbs/-par`` print the same p-values for A's pairs."""
    ref_path, paths = _rank_files(tmp_path, 3, 150)
    flag, count = ("-pbs", "-pbsn") if test == "bs" else ("-par", "-parn")
    scoring = _pbs_json([ref_path, "-i", *paths, flag, count, "500", "-m", "bleu", "chrf", "-f", "json"])
    result = invoke(["rank", ref_path, "-i", *paths, flag, count, "500", "-pbsn", "500", "-m", "bleu", "chrf",
                     "-f", "json"])
    assert result.exit_code == 0, result.stderr
    rankings = {r["metric"]: r for r in json.loads(result.stdout)["rankings"]}
    for entry in scoring[1:]:
        for metric in ("BLEU", "chrF2"):
            pair = [p for p in rankings[metric]["pairs"]
                    if {p["system_a"], p["system_b"]} == {paths[0], entry["system"]}]
            assert len(pair) == 1
            assert pair[0]["p_value"] == entry[metric]["p_value"]


# -- Holm ------------------------------------------------------------------------------------
def _step_down_rejections(p_values: list[float], alpha: float) -> set[int]:
    """Holm's procedure as written: reject in ascending order while p_(k) <= alpha / (m - k + 1)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected: set[int] = set()
    for k, i in enumerate(order):
        if p_values[i] > alpha / (len(p_values) - k):
            break
        rejected.add(i)
    return rejected


def test_holm_on_a_hand_computed_case() -> None:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)
    assert holm([0.5, 0.9]) == [1.0, 1.0]  # monotone: the larger p-value is never adjusted below the smaller
    assert adjust([0.01, 0.2], "none") == [0.01, 0.2]


def test_holm_rejects_what_the_step_down_procedure_rejects() -> None:
    generator = random.Random(3)
    for _ in range(300):
        m = generator.randint(1, 40)
        p_values = [generator.choice([1 / 1001, 2 / 1001, 0.01, 1.0]) if generator.random() < 0.3
                    else generator.random() ** 3 for _ in range(m)]
        adjusted = holm(p_values)
        for alpha in (0.01, 0.05, 0.1):
            assert {i for i, q in enumerate(adjusted) if q <= alpha} == _step_down_rejections(p_values, alpha)
        assert all(q >= p for p, q in zip(p_values, adjusted))


def test_too_few_resamples_for_the_pairs_are_announced() -> None:
    metric, stats, names = _statistics(4)
    with pytest.warns(Warning, match=r"with 100 resamples and 6 pairs the smallest adjusted p-value is 0.0594"):
        ranking = rank_systems(metric, stats, names, n=100)
    assert not any(p.significant for p in ranking.pairs)


def test_default_resamples_make_the_smallest_adjusted_p_value_reachable() -> None:
    assert default_resamples(2) == 1000 and default_resamples(2, "ar") == 10000
    assert default_resamples(9) == 1000  # 36 pairs: 36 / 1001 < 0.05
    assert default_resamples(11) == 2000  # 55 pairs: 55 / 1001 > 0.05, 55 / 2001 < 0.05
    for systems in range(2, 40):
        n = default_resamples(systems)
        pairs = systems * (systems - 1) // 2
        assert pairs / (n + 1) < 0.05
        assert n == 1000 or pairs / (n - 1000 + 1) >= 0.05  # rounded up to 1000s, no more
    assert default_resamples(11, correction="none") == 1000


# -- the zero-delta rule --------------------------------------------------------------------
def test_identical_outputs_are_never_significant() -> None:
    metric, stats, names = _statistics(2)
    ranking = rank_systems(metric, [stats[0], stats[0], stats[1]], ["a", "a again", "b"], n=1000)
    pair = ranking.pair(0, 1)
    assert pair.zero_delta and pair.p_value == 1.0 and pair.p_adjusted == 1.0 and not pair.significant
    # sacreBLEU's test calls the same output significantly different from itself
    assert paired_bootstrap(metric, stats[0], [stats[0]], 1000).systems[0].p_value == 1 / 1001


def test_equal_statistics_with_different_segments_are_never_significant() -> None:
    metric, stats, _ = _statistics(1)
    shuffled = list(stats[0])
    random.Random(1).shuffle(shuffled)  # the same corpus totals, different segments
    ranking = rank_systems(metric, [stats[0], shuffled], ["a", "b"], n=1000)
    assert ranking.pair(0, 1).delta == 0.0
    assert ranking.pair(0, 1).p_value == 1.0 and not ranking.pair(0, 1).significant


def test_scoring_command_keeps_sacrebleus_p_value_and_warns(tmp_path: Path) -> None:
    _, systems, ref = _lines()
    ref_path, first, second = tmp_path / "ref.hi", tmp_path / "a.hi", tmp_path / "a-again.hi"
    ref_path.write_text("\n".join(ref[:100]) + "\n", encoding="utf-8")
    for path in (first, second):
        path.write_text("\n".join(systems[0][:100]) + "\n", encoding="utf-8")
    result = invoke([str(ref_path), "-i", str(first), str(second), "-pbs", "-f", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)[1]["BLEU"]["p_value"] == 1 / 1001
    assert "observed delta of exactly 0" in result.stderr


# -- clusters and rank ranges: constructed cases with known answers ---------------------------
def _matrix(size: int, different: set[tuple[int, int]]) -> list[list[bool]]:
    return [[(a, b) in different or (b, a) in different for b in range(size)] for a in range(size)]


def test_clusters_all_far_apart() -> None:
    everything = {(a, b) for a in range(4) for b in range(4) if a != b}
    assert wmt_clusters(_matrix(4, everything)) == [1, 2, 3, 4]


def test_clusters_all_identical() -> None:
    assert wmt_clusters(_matrix(4, set())) == [1, 1, 1, 1]


def test_clusters_chain() -> None:
    # A ~ B, B ~ C, A > C: one cluster (B's range reaches C); D significantly below all
    different = {(0, 2), (0, 3), (1, 3), (2, 3)}
    assert wmt_clusters(_matrix(4, different)) == [1, 1, 1, 2]
    # A > everything, B ~ D (D's reach from B passes over C): A | B C D
    different = {(0, 1), (0, 2), (0, 3), (1, 2), (2, 3)}
    assert wmt_clusters(_matrix(4, different)) == [1, 2, 2, 2]


def test_rank_intervals_on_known_resamples() -> None:
    far = [np.full(100, 30.0), np.full(100, 20.0), np.full(100, 10.0)]
    assert rank_intervals(far) == [(1, 1), (2, 2), (3, 3)]
    assert rank_intervals(far, lower_is_better=True) == [(3, 3), (2, 2), (1, 1)]
    assert rank_intervals([np.zeros(50), np.zeros(50)]) == [(1, 1), (1, 1)]
    swapping = np.arange(100) % 2  # two systems that take turns being best
    assert rank_intervals([swapping, 1 - swapping]) == [(1, 2), (1, 2)]


def _degraded(reference: list[str], share: float, seed: int) -> list[str]:
    generator = random.Random(seed)
    out = []
    for line in reference:
        words = line.split()
        out.append(" ".join(w if generator.random() > share else "xyz" for w in words))
    return out


def test_ranking_of_systems_far_apart(matcher: str) -> None:
    _, _, ref = _lines()
    metric = BLEU()
    systems = [_degraded(ref, share, k) for k, share in enumerate((0.6, 0.1, 0.35))]
    stats = [metric.corpus_statistics(s, [ref]) for s in systems]
    ranking = rank_systems(metric, stats, ["worst", "best", "middle"], n=1000)
    assert ranking.order == (1, 2, 0)
    assert ranking.clusters == (3, 1, 2)
    assert ranking.rank_ranges == ((3, 3), (1, 1), (2, 2))
    assert all(p.significant for p in ranking.pairs)


def test_ranking_of_identical_systems(matcher: str) -> None:
    metric, stats, _ = _statistics(1)
    ranking = rank_systems(metric, stats * 3, ["a", "b", "c"], n=1000)
    assert ranking.clusters == (1, 1, 1)
    assert ranking.rank_ranges == ((1, 1), (1, 1), (1, 1))
    assert all(p.p_value == 1.0 and not p.significant for p in ranking.pairs)


def test_ranking_of_real_systems_is_consistent() -> None:
    metric, stats, names = _statistics()
    ranking = rank_systems(metric, stats, names)
    scores = [ranking.scores[s] for s in ranking.order]
    assert scores == sorted(scores, reverse=True)
    clusters = [ranking.clusters[s] for s in ranking.order]
    assert clusters == sorted(clusters) and clusters[0] == 1
    # a cluster boundary: every system above significantly better than every system below
    for k in range(1, len(clusters)):
        if clusters[k] != clusters[k - 1]:
            for upper in ranking.order[:k]:
                for lower in ranking.order[k:]:
                    assert ranking.pair(upper, lower).significant
    for low, high in ranking.rank_ranges:
        assert 1 <= low <= high <= len(names)
    assert "sig:0.05|corr:holm" in ranking.signature.format()


# -- human accuracy ---------------------------------------------------------------------------
#: mt-thresholds 1.0.4's ``accuracy(delta, metric)`` (percent), frozen for runs without it.
FROZEN = {
    "bleu": {0.0: 44.166666666666124, 0.5: 54.63437520937767, 1.0: 63.988657959214336, 2.0: 77.16423696506311},
    "chrf": {0.0: 46.499999999986, 0.5: 59.128446571380984, 1.0: 70.02201684669014, 2.0: 83.95889907320793},
    "spbleu200": {0.0: 45.49999999999397, 0.5: 54.566955855604505, 1.0: 62.941316518461946,
                  2.0: 75.91368973259682},
    "comet22": {0.0: 48.111870669421414, 0.5: 77.46187911325228, 1.0: 90.89162407021773, 2.0: 95.89372014990586},
    "metricx-23-large": {0.0: 46.80388812272244, 0.5: 93.60759210533018, 1.0: 93.60777624508266,
                         2.0: 93.60777624544488},
}


def test_human_accuracy_equals_frozen_mt_thresholds() -> None:
    names = {"bleu": ("BLEU", None), "chrf": ("chrF2", None), "spbleu200": ("BLEU", "flores200"),
             "comet22": ("Unbabel/wmt22-comet-da", None), "metricx-23-large": ("metricx-23-large", None)}
    for fit, values in FROZEN.items():
        metric, tokenizer = names[fit]
        assert fit_name(metric, tokenizer) == fit
        for delta, expected in values.items():
            got = human_accuracy(delta, metric, tokenizer)
            assert got is not None
            assert round(100 * got, 3) == round(expected, 3)
            assert human_accuracy(-delta, metric, tokenizer) == got  # the accuracy of |delta|


def test_human_accuracy_equals_mt_thresholds_live() -> None:
    mt_thresholds = pytest.importorskip("mt_thresholds")
    assert set(FITS) == set(mt_thresholds.METRICS)
    names = {"bleu": "BLEU", "chrf": "chrF2"}
    for fit in FITS:
        for delta in (0.0, 0.05, 0.3, 0.8, 1.0, 1.7, 3.0, 10.0):
            ours = human_accuracy(delta, names.get(fit, fit))
            assert ours is not None
            assert round(100 * ours, 3) == round(mt_thresholds.accuracy(delta, fit), 3), (fit, delta)


def test_metrics_without_a_fit_show_nothing() -> None:
    for name in ("TER", "chrF2++", "chrF1", "BLEU-nltk", "my-metric"):
        assert human_accuracy(1.0, name) is None
    assert human_accuracy(float("nan"), "BLEU") is None


def test_ranking_pairs_carry_human_accuracy() -> None:
    metric, stats, names = _statistics(3)
    ranking = rank_systems(metric, stats, names, n=200)
    for pair in ranking.pairs:
        assert pair.human_accuracy == human_accuracy(pair.delta, "BLEU")


# -- the command ------------------------------------------------------------------------------
@pytest.fixture
def files(tmp_path: Path) -> tuple[str, list[str]]:
    """120 segments of four real systems and the reference, as plain files."""
    names, systems, ref = _lines()
    ref_path = tmp_path / "ref.hi"
    ref_path.write_text("\n".join(ref[:120]) + "\n", encoding="utf-8")
    paths = []
    for name, hyps in list(zip(names, systems))[:4]:
        path = tmp_path / f"{name}.hi"
        path.write_text("\n".join(hyps[:120]) + "\n", encoding="utf-8")
        paths.append(str(path))
    return str(ref_path), paths


def test_command_text(files: tuple[str, list[str]]) -> None:
    ref, paths = files
    result = invoke(["rank", ref, "-i", *paths, "-m", "bleu", "ter", "-pbsn", "300"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "BLEU ranking: paired bootstrap resampling, 300 resamples, seed 12345; Holm-adjusted p <= 0.05" in out
    assert "TER ranking" in out
    assert "Rank range" in out and "Human acc." in out and "Kocmi et al. 2024" in out
    assert " - BLEU       nrefs:1|bs:300|seed:12345|sig:0.05|corr:holm|" in out


def test_command_json_schema(files: tuple[str, list[str]]) -> None:
    ref, paths = files
    result = invoke(["rank", ref, "-i", *paths, "-m", "bleu", "ter", "-f", "json", "-pbsn", "300",
                     "--correction", "none", "--alpha", "0.1", "--seed", "3"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["rankings"]
    bleu, ter = data["rankings"]
    assert set(bleu) == {"metric", "test", "resamples", "bootstrap_resamples", "seed", "alpha", "correction",
                         "lower_is_better", "signature", "systems", "pairs"}
    assert (bleu["metric"], bleu["test"], bleu["seed"], bleu["alpha"], bleu["correction"]) == \
        ("BLEU", "bs", 3, 0.1, "none")
    assert "|sig:0.1|corr:none|" in bleu["signature"]
    assert [s["rank"] for s in bleu["systems"]] == [1, 2, 3, 4]
    for system in bleu["systems"]:
        assert set(system) == {"rank", "system", "score", "cluster", "rank_range"}
    assert len(bleu["pairs"]) == 6
    for pair in bleu["pairs"]:
        assert set(pair) == {"system_a", "system_b", "delta", "p_value", "p_adjusted", "significant", "zero_delta",
                             "human_accuracy"}
        assert pair["p_adjusted"] == pair["p_value"]  # --correction none
        assert set(pair["human_accuracy"]) == {"accuracy", "citation"}
        assert "Navigating the Metrics Maze" in pair["human_accuracy"]["citation"]
    assert ter["lower_is_better"] is True
    assert all(p["human_accuracy"] is None for p in ter["pairs"])  # no fit for TER: nothing, not a guess
    scores = [s["score"] for s in ter["systems"]]
    assert scores == sorted(scores)


def test_command_latex_and_markdown(files: tuple[str, list[str]]) -> None:
    ref, paths = files
    latex = invoke(["rank", ref, "-i", *paths, "-f", "latex"])
    assert latex.exit_code == 0, latex.stderr
    lines = latex.stdout.splitlines()
    assert "\\begin{tabular}{rrlr}" in lines and "\\toprule" in lines and "\\bottomrule" in lines
    assert lines.count("\\midrule") >= 1
    body = lines[lines.index("\\midrule") + 1:lines.index("\\bottomrule")]
    assert sum(1 for line in body if line.endswith("\\\\")) == 4
    markdown = invoke(["rank", ref, "-i", *paths, "-f", "markdown"])
    assert markdown.exit_code == 0
    assert "| Rank | Cluster | Rank range | System | BLEU |" in markdown.stdout


def test_command_errors(files: tuple[str, list[str]]) -> None:
    ref, paths = files
    result = invoke(["rank", ref, "-i", paths[0]])
    assert result.exit_code == 2 and "at least two systems" in result.stderr
    result = invoke(["rank", ref, "-i", *paths, "-pbs", "-par"])
    assert result.exit_code == 2
    result = invoke(["rank", "-i", *paths])
    assert result.exit_code == 2


# -- compare: the same rankings, zero deltas, human accuracy, --min-accuracy -------------------------
def test_compare_shows_the_rankings_and_human_accuracy(files: tuple[str, list[str]], tmp_path: Path) -> None:
    ref, paths = files
    out = tmp_path / "report.json"
    result = invoke(["compare", ref, "-i", *paths[:3], "-m", "bleu", "ter", "-pbsn", "300", "--json", str(out),
                     "--markdown", "-", "-q"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    ranked = invoke(["rank", ref, "-i", *paths[:3], "-m", "bleu", "ter", "-pbsn", "300", "-f", "json"])
    assert report["rankings"] == json.loads(ranked.stdout)["rankings"]
    bleu = report["systems"][1]["metrics"]["BLEU"]
    assert bleu["human_accuracy"]["accuracy"] == human_accuracy(bleu["delta"], "BLEU")
    assert report["systems"][1]["metrics"]["TER"]["human_accuracy"] is None
    assert report["systems"][0]["metrics"]["BLEU"]["human_accuracy"] is None
    assert "| Human acc. |" in result.stdout and "### BLEU ranking" in result.stdout


def test_compare_gives_a_zero_delta_p_1(files: tuple[str, list[str]], tmp_path: Path) -> None:
    ref, paths = files
    copy = tmp_path / "copy.hi"
    copy.write_text(Path(paths[0]).read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "report.json"
    result = invoke(["compare", ref, "-i", paths[0], str(copy), paths[1], "-pbsn", "200", "--json", str(out), "-q"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["systems"][1]["metrics"]["BLEU"]["p_value"] == 1.0
    assert report["pairwise_p_values"][0][1] == 1.0


def test_fail_if_worse_with_min_accuracy(files: tuple[str, list[str]], tmp_path: Path) -> None:
    ref, paths = files
    references = [Path(ref).read_text(encoding="utf-8").splitlines()]
    scores = {path: BLEU().corpus_score(Path(path).read_text(encoding="utf-8").splitlines(), references).score
              for path in paths}
    best = max(paths, key=lambda p: scores[p])
    worst = min(paths, key=lambda p: scores[p])
    delta = scores[best] - scores[worst]
    accuracy = human_accuracy(delta, "BLEU")
    assert accuracy is not None
    base = ["compare", ref, "-i", best, worst, "-pbsn", "100", "--fail-if-worse", "-q", "--json", str(tmp_path / "r")]
    significant = invoke(base)
    if significant.exit_code != 8:
        pytest.skip("the worst system is not significantly worse on these lines")
    assert invoke([*base, "--min-accuracy", f"{accuracy - 0.01:.4f}"]).exit_code == 8
    assert invoke([*base, "--min-accuracy", f"{accuracy + 0.01:.4f}"]).exit_code == 0
    assert invoke([*base, "-m", "ter", "--min-accuracy", "0.5"]).exit_code == 0  # no fit for TER: never fails
    assert invoke(["compare", ref, "-i", best, worst, "--min-accuracy", "0.8"]).exit_code == 2


@pytest.mark.parametrize("flag", ["-pbs", pytest.param("-par", marks=pytest.mark.slow)])
def test_paired_json_carries_human_accuracy(files: tuple[str, list[str]], flag: str) -> None:
    ref, paths = files
    result = invoke([ref, "-i", *paths[:3], flag, "-pbsn", "100", "-parn", "100", "-m", "bleu", "ter", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert rows[0]["BLEU"]["human_accuracy"] is None  # the baseline
    for row in rows[1:]:
        accuracy = row["BLEU"]["human_accuracy"]
        assert accuracy["delta"] == row["BLEU"]["score"] - rows[0]["BLEU"]["score"]
        assert accuracy["accuracy"] == human_accuracy(accuracy["delta"], "BLEU")
        assert "Navigating the Metrics Maze" in accuracy["citation"]
        assert row["TER"]["human_accuracy"] is None


def test_command_refuses_bad_input_in_one_line(files: tuple[str, list[str]], tmp_path: Path) -> None:
    ref, paths = files
    short = tmp_path / "short.hi"
    short.write_text("one line\n", encoding="utf-8")
    result = invoke(["rank", ref, "-i", paths[0], str(short)])
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1 and str(short) in result.stderr and "Traceback" not in result.stderr


# -- rank with document resampling and segment scores ------------------------------------------
def _rank_files(tmp_path: Path, count: int = 3, lines: int = 120) -> tuple[str, list[str]]:
    names, systems, ref = _lines()
    ref_path = tmp_path / "ref.hi"
    ref_path.write_text("\n".join(ref[:lines]) + "\n", encoding="utf-8")
    paths = []
    for name, hyps in list(zip(names, systems))[:count]:
        path = tmp_path / f"{name}.hi"
        path.write_text("\n".join(hyps[:lines]) + "\n", encoding="utf-8")
        paths.append(str(path))
    return str(ref_path), paths


def _baseline_pairs(ranking: dict, baseline: str) -> dict[str, float]:
    """The p-value of every pair of ``baseline`` with another system, by that system."""
    return {(p["system_b"] if p["system_a"] == baseline else p["system_a"]): p["p_value"]
            for p in ranking["pairs"] if baseline in (p["system_a"], p["system_b"])}


def test_rank_resampling_documents_gives_the_document_p_values_of_pbs(tmp_path: Path) -> None:
    """``rank --resample-unit document`` tests each pair as ``-pbs --resample-unit document`` does (same
    seed, same documents), records ``unit:doc``, and with one segment per document equals segment resampling."""
    ref, paths = _rank_files(tmp_path)
    docids = tmp_path / "docids"
    docids.write_text("".join(f"doc{k // 7}\n" for k in range(120)), encoding="utf-8")  # 18 documents
    common = ["-pbsn", "300", "-m", "bleu", "chrf", "-f", "json"]
    scoring = _pbs_json([ref, "-i", *paths, "-pbs", *common, "--resample-unit", "document", "--docids", str(docids)])
    result = invoke(["rank", ref, "-i", *paths, *common, "--resample-unit", "document", "--docids", str(docids)])
    assert result.exit_code == 0, result.stderr
    rankings = {r["metric"]: r for r in json.loads(result.stdout)["rankings"]}
    for metric in ("BLEU", "chrF2"):
        assert "unit:doc" in rankings[metric]["signature"]
        by_system = _baseline_pairs(rankings[metric], paths[0])
        for entry in scoring[1:]:
            assert by_system[entry["system"]] == entry[metric]["p_value"]
    by_segment = invoke(["rank", ref, "-i", *paths, *common])
    assert by_segment.exit_code == 0, by_segment.stderr
    assert json.loads(by_segment.stdout)["rankings"][0]["pairs"] != rankings["BLEU"]["pairs"]
    # one segment per document: exactly segment resampling (only the signature says unit:doc)
    docids.write_text("".join(f"doc{k}\n" for k in range(120)), encoding="utf-8")
    single = invoke(["rank", ref, "-i", *paths, *common, "--resample-unit", "document", "--docids", str(docids)])
    assert single.exit_code == 0, single.stderr
    for one, other in zip(json.loads(single.stdout)["rankings"], json.loads(by_segment.stdout)["rankings"]):
        assert one["pairs"] == other["pairs"] and one["systems"] == other["systems"]


def test_rank_document_options_are_checked(tmp_path: Path) -> None:
    ref, paths = _rank_files(tmp_path)
    docids = tmp_path / "docids"
    docids.write_text("a\n" * 119, encoding="utf-8")
    result = invoke(["rank", ref, "-i", *paths, "--resample-unit", "document"])
    assert result.exit_code == 2 and "--docids" in result.stderr
    result = invoke(["rank", ref, "-i", *paths, "--docids", str(docids)])
    assert result.exit_code == 2 and "--resample-unit document" in result.stderr
    result = invoke(["rank", ref, "-i", *paths, "--resample-unit", "document", "--docids", str(docids)])
    assert result.exit_code == 3 and "docids" in result.stderr and "119" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_rank_takes_segment_scores_as_a_metric(tmp_path: Path) -> None:
    """A ``--segment-scores`` metric is ranked like any other: its p-values are ``-pbs``'s for it."""
    ref, paths = _rank_files(tmp_path)
    rng = random.Random(7)
    files = []
    for k, _ in enumerate(paths):
        path = tmp_path / f"comet{k}.txt"
        path.write_text("".join(f"{rng.gauss(0.80 + 0.01 * k, 0.05):.6f}\n" for _ in range(120)), encoding="utf-8")
        files.append(str(path))
    common = ["-pbsn", "300", "-m", "bleu", "--segment-scores", "COMET", *files, "-f", "json"]
    scoring = _pbs_json([ref, "-i", *paths, "-pbs", *common])
    result = invoke(["rank", ref, "-i", *paths, *common])
    assert result.exit_code == 0, result.stderr
    rankings = {r["metric"]: r for r in json.loads(result.stdout)["rankings"]}
    assert set(rankings) == {"BLEU", "COMET"}
    by_system = _baseline_pairs(rankings["COMET"], paths[0])
    for entry in scoring[1:]:
        assert by_system[entry["system"]] == entry["COMET"]["p_value"]


def test_pbs_human_accuracy_table_is_added_after_sacrebleus_block(tmp_path: Path) -> None:
    """``-pbs --human-accuracy`` prints sacreBLEU's table and explanation unchanged, then each delta's
    estimated human accuracy (the JSON's values), only for the metrics with a published fit."""
    ref, paths = _rank_files(tmp_path)
    args = [ref, "-i", *paths, "-pbs", "-pbsn", "200", "-m", "bleu", "chrf", "ter", "-nc"]
    plain = invoke([*args, "-f", "text"])
    added = invoke([*args, "-f", "text", "--human-accuracy"])
    data = _pbs_json([*args, "-f", "json"])
    assert plain.exit_code == 0 and added.exit_code == 0, added.stderr
    head, signatures = plain.stdout.split("\n\n-----------------\nMetric signatures", 1)
    assert added.stdout.startswith(head + "\n\n")
    assert added.stdout.endswith("\n\n-----------------\nMetric signatures" + signatures)
    block = added.stdout[len(head) + 2:-len("\n\n-----------------\nMetric signatures" + signatures)]
    assert "Δ BLEU → human acc." in block and "Δ chrF2 → human acc." in block and "TER" not in block
    assert "Kocmi" in block
    for entry in data[1:]:
        line = next(row for row in block.splitlines() if f" {entry['system']} │" in row)
        for metric in ("BLEU", "chrF2"):
            accuracy = entry[metric]["human_accuracy"]
            assert f"{accuracy['delta']:+.2f} → {100 * accuracy['accuracy']:.1f}%" in line
    latex = invoke([*args, "-f", "latex", "--human-accuracy"])
    assert latex.exit_code == 0 and latex.stdout.count("\\toprule") == 2
