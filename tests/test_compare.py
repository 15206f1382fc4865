"""``bleucli compare``: its numbers are the CLI's, its highlighting is BLEU's counting, its page is safe.

The data model is checked against the scoring command itself (corpus mode,
``-pbs``, ``-par``, ``-sl``), so the report can never disagree with it; the
highlighting against the statistics rows BLEU sums; the HTML against hostile
text and for byte-for-byte determinism (tests/golden/compare_report.html,
made by tests/golden/regenerate_compare_report.py).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from bleucli.metrics.bleu import BLEU
from bleucli.options import MetricOptions, RunOptions
from bleucli.report.compare import compare, counted_ngrams, highlight, place_tokens
from conftest import invoke, run_subprocess
from datasets import DATA, EXAMPLES, read

GOLDEN = Path(__file__).parent / "golden" / "compare_report.html"


def write(path: Path, lines: list[str] | tuple[str, ...]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def three(tmp_path: Path) -> tuple[str, list[str]]:
    """60 segments of wmt22-en-de: a reference and three systems, as plain files."""
    folder = DATA / "wmt22-en-de"
    ref = write(tmp_path / "ref.de", read(folder / "ref.de.gz")[:60])
    systems = [write(tmp_path / f"{name}.de", read(folder / "sys" / f"{name}.de.gz")[:60])
               for name in ("Online-A", "Online-B", "Lan-Bridge")]
    return ref, systems


def cli_json(args: list[str]) -> object:
    result = invoke(args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# -- every number equals the CLI's --------------------------------------------------------------
def test_corpus_scores_cis_and_p_values_equal_the_scoring_command(three):
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems, "-m", "bleu", "chrf", "ter", "--json", "-"])
    paired = cli_json([ref, "-i", *systems, "-pbs", "-m", "bleu", "chrf", "ter", "-f", "json"])
    corpus = cli_json([ref, "-i", *systems, "-m", "bleu", "chrf", "ter", "-f", "json"])
    for k, system in enumerate(report["systems"]):
        for metric, numbers in system["metrics"].items():
            expected = paired[k][metric]
            assert numbers["score"] == expected["score"]
            assert numbers["mean"] == expected["mean"]
            assert numbers["ci"] == expected["ci"]
            assert numbers["p_value"] == expected["p_value"]
            assert numbers["score"] == corpus[k]["scores"][metric]["unrounded_score"]
    assert report["signatures"]["BLEU"] == paired[0]["BLEU"]["signature"].replace("bs:1000|seed:12345|", "")


@pytest.mark.parametrize("metric", ["ter", "chrf"])
def test_compare_scores_and_judges_the_metric_of_m(three, metric):
    """``compare -m ter`` (``-m chrf``) scores and tests that metric alone, as ``-pbs`` does; TER: lower is better."""
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems, "-m", metric, "--json", "-"])
    paired = cli_json([ref, "-i", *systems, "-m", metric, "-pbs", "-f", "json"])
    corpus = cli_json([ref, "-i", *systems, "-m", metric, "-f", "json"])
    names = list(report["signatures"])
    assert names == [name for name in paired[0] if name != "system"] and len(names) == 1
    (name,) = names
    assert name.lower().startswith(metric)
    lower_is_better = name == "TER"
    for k, system in enumerate(report["systems"]):
        assert list(system["metrics"]) == [name]
        numbers, expected = system["metrics"][name], paired[k][name]
        for key in ("score", "mean", "ci", "p_value"):
            assert numbers[key] == expected[key], (k, key)
        assert numbers["score"] == corpus[k]["scores"][name]["unrounded_score"]
        if k:
            significant = numbers["p_value"] <= 0.05
            worse = numbers["delta"] > 0 if lower_is_better else numbers["delta"] < 0
            assert numbers["worse"] == (significant and worse)
    assert report["signatures"][name] == paired[0][name]["signature"].replace("bs:1000|seed:12345|", "")


def test_compare_refuses_a_line_over_max_line_bytes_as_score_does(tmp_path, three):
    ref, systems = three
    lines = Path(systems[1]).read_text(encoding="utf-8").splitlines()
    limit = max(len(line.encode()) for path in (ref, *systems) for line in Path(path).read_text("utf-8").splitlines())
    long_system = write(tmp_path / "long.de", ["x" * (limit + 1), *lines[1:]])
    for args in ([ref, "-i", systems[0], long_system], ["compare", ref, "-i", systems[0], long_system]):
        result = invoke([*args, "--max-line-bytes", str(limit)])
        assert result.exit_code == 3, (args, result.stderr)
        assert "long.de:1" in result.stderr
    assert invoke(["compare", ref, "-i", systems[0], long_system, "--max-line-bytes", "0"]).exit_code == 0


def test_approximate_randomization_p_values_equal_par(three):
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems[:2], "-par", "-parn", "500", "--json", "-"])
    paired = cli_json([ref, "-i", *systems[:2], "-par", "-parn", "500", "-f", "json"])
    assert report["test"] == "ar"
    assert report["systems"][1]["metrics"]["BLEU"]["p_value"] == paired[1]["BLEU"]["p_value"]


def test_sentence_bleu_equals_sentence_level_mode(three):
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems[:2], "--json", "-"])
    for k, system in enumerate(systems[:2]):
        lines = invoke([ref, "-i", system, "-sl", "-f", "json"]).stdout.splitlines()
        expected = [json.loads(line)["unrounded_score"] for line in lines]
        got = [segment["systems"][k]["sentence_bleu"] for segment in report["segments"]]
        assert got == expected


def test_pairwise_matrix_is_each_pairs_own_test(three):
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems, "--json", "-"])
    second = cli_json([ref, "-i", systems[1], systems[2], "-pbs", "-f", "json"])
    assert report["pairwise_p_values"][1][2] == second[1]["BLEU"]["p_value"]
    assert report["pairwise_p_values"][2][1] == second[1]["BLEU"]["p_value"]
    assert report["pairwise_p_values"][0][1] == report["systems"][1]["metrics"]["BLEU"]["p_value"]


def test_length_buckets_score_summed_statistics(three):
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems[:2], "--json", "-"])
    buckets = [b for b in report["buckets"] if b["kind"] == "reference length"]
    assert sum(b["count"] for b in buckets) == 60
    bleu = BLEU()
    for bucket in buckets:
        members = [s for s in report["segments"]
                   if bucket["label"] == _bucket_label(len(bleu._tokens(s["references"][0])))]
        rows = [s["systems"][1]["statistics"] for s in members]
        assert len(members) == bucket["count"] and bucket["segments"] == [s["number"] for s in members]
        assert bleu.score_from_statistics(bleu.aggregate(rows), 1).score == bucket["values"][1]


def _bucket_label(length: int) -> str:
    for low, high in ((0, 10), (11, 20), (21, 30), (31, 40), (41, 60)):
        if low <= length <= high:
            return f"{low}-{high}"
    return ">60"


def test_a_length_buckets_ci_is_what_ci_prints_for_the_buckets_lines(three, tmp_path):
    """BLEU ± CI of a bucket = ``bleucli REF -i SYS -ci`` on files holding only the bucket's lines."""
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems[:2], "-pbsn", "300", "--json", "-"])
    bucket = next(b for b in report["buckets"] if b["kind"] == "reference length" and b["count"] >= 10)
    picked = [report["segments"][n - 1] for n in bucket["segments"]]
    sub_ref = write(tmp_path / "sub.ref", [s["references"][0] for s in picked])
    for k in range(2):
        sub_sys = write(tmp_path / f"sub{k}.sys", [s["systems"][k]["hypothesis"] for s in picked])
        printed = cli_json([sub_ref, "-i", sub_sys, "-ci", "-cin", "300", "-f", "json"])
        assert (bucket["values"][k], bucket["ci"][k]) == (printed["unrounded_score"], printed["ci"])


def _resampled(matrix: np.ndarray, n: int = 1000, seed: int = 12345) -> np.ndarray:
    """Column sums over sacreBLEU's own bootstrap draws (materialised, as its paired_bs does)."""
    idx = np.random.default_rng(seed).choice(matrix.shape[0], size=(n, matrix.shape[0]), replace=True)
    return matrix[idx].sum(axis=1).astype(np.float64)


def _half_width(values: np.ndarray) -> float:
    ordered = np.sort(values)
    low = len(ordered) // 40
    return float(0.5 * (ordered[len(ordered) - low - 1] - ordered[low]))


def test_sentence_bleu_bins_count_the_sl_scores_with_cis_over_the_pbs_resamples(three):
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems[:2], "--json", "-"])
    bins = [b for b in report["buckets"] if b["kind"] == "sentence BLEU"]
    cutoffs = [10, 20, 30, 40, 50, 60, 70, 80, 90, 1e9]
    labels = ["<10"] + [f"[{a},{b})" for a, b in zip(cutoffs, cutoffs[1:-1])] + [">=90"]
    for k, system in enumerate(systems[:2]):
        lines = invoke([ref, "-i", system, "-sl", "-f", "json"]).stdout.splitlines()
        scores = [json.loads(line)["unrounded_score"] for line in lines]
        slot = [next(b for b, cut in enumerate(cutoffs) if score < cut) for score in scores]
        for bucket in bins:
            b = labels.index(bucket["label"])
            members = [i + 1 for i, s in enumerate(slot) if s == b]
            assert bucket["by_system"][k] == members and bucket["values"][k] == len(members)
            indicator = np.array([[1 if s == b else 0] for s in slot])
            assert bucket["ci"][k] == _half_width(_resampled(indicator)[:, 0])
    assert sum(b["values"][0] for b in bins) == 60


def test_the_bootstrap_deltas_are_the_ones_pbs_reads_its_p_value_from(three):
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems, "--json", "-"])
    paired = cli_json([ref, "-i", *systems, "-pbs", "-f", "json"])
    for k, entry in enumerate(report["bootstrap_deltas"], 1):
        deltas = np.array(entry["deltas"])
        assert len(deltas) == 1000 and entry["system"] == systems[k]
        observed = abs(paired[k]["BLEU"]["score"] - paired[0]["BLEU"]["score"])
        diffs = np.abs(deltas)
        p_value = (int(np.sum(diffs - diffs.mean() > observed)) + 1) / 1001
        assert p_value == paired[k]["BLEU"]["p_value"]


def test_ngram_lists_count_the_matches_bleu_counted(three):
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems[:2], "--json", "-"])
    bleu = BLEU()
    found: list[dict[str, list[int]]] = [{}, {}]
    for segment in report["segments"]:
        for k, entry in enumerate(segment["systems"]):
            words = bleu._tokens(entry["hypothesis"])
            for n, starts in enumerate(entry["matched_ngrams"], 1):
                for start in starts:
                    found[k].setdefault(" ".join(words[start:start + n]), []).append(segment["number"])
    (lists,) = report["ngrams"]
    assert lists["better"] and lists["worse"]
    for side, sign in (("better", 1), ("worse", -1)):
        differences = [sign * (d["counts"][1] - d["counts"][0]) for d in lists[side]]
        assert all(v > 0 for v in differences) and differences == sorted(differences, reverse=True)
        for d in lists[side]:
            assert d["counts"] == [len(found[0].get(d["ngram"], [])), len(found[1].get(d["ngram"], []))]
            assert d["segments"] == sorted(set(found[0].get(d["ngram"], []) + found[1].get(d["ngram"], [])))
    best = max(len(v) - len(found[0].get(g, [])) for g, v in found[1].items())
    assert lists["better"][0]["counts"][1] - lists["better"][0]["counts"][0] == best


def test_word_f_measure_cis_come_from_the_pbs_resamples(three):
    from bleucli.report.compare import f_measure, word_frequency_statistics

    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems[:2], "--json", "-"])
    bleu = BLEU()
    reference = [bleu._tokens(s["references"][0]) for s in report["segments"]]
    outputs = [[bleu._tokens(s["systems"][k]["hypothesis"]) for s in report["segments"]] for k in range(2)]
    stats = word_frequency_statistics(reference, outputs)
    labels = ["<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000"]
    for bucket in (b for b in report["buckets"] if b["kind"] == "word frequency"):
        b = labels.index(bucket["label"])
        assert bucket["count"] == int(stats[:, 0, b].sum())
        for k in range(2):
            columns = _resampled(stats[:, [0, 1 + 2 * k, 2 + 2 * k], b])
            resampled_f = f_measure(columns[:, 2], columns[:, 0], columns[:, 1])
            assert bucket["ci"][k] == _half_width(resampled_f)


@pytest.mark.oracle
@pytest.mark.slow
def test_word_f_measure_equals_compare_mt(three):
    """compare-mt 0.2.10's FreqWordBucketer (frequencies from the reference) on BLEU's tokens.

    Needs ``pip install compare-mt==0.2.10 six matplotlib`` (not an extra: its wheel also installs a
    top-level ``tests`` package, which shadows this repository's ``tests`` package until removed).
    """
    bucketers = pytest.importorskip("compare_mt.bucketers", reason="compare-mt is not installed")
    ref, systems = three
    report = cli_json(["compare", ref, "-i", *systems, "--json", "-"])
    bleu = BLEU()
    reference = [bleu._tokens(s["references"][0]) for s in report["segments"]]
    outputs = [[bleu._tokens(s["systems"][k]["hypothesis"]) for s in report["segments"]] for k in range(3)]
    bucketer = bucketers.FreqWordBucketer(freq_data=reference)
    statistics = bucketer.calc_statistics(reference, outputs)[0]
    ours = {b["label"]: b for b in report["buckets"] if b["kind"] == "word frequency"}
    assert ours
    for b, label in enumerate(bucketer.bucket_strs):
        if label not in ours:
            assert all(statistics[k][b][:3] == (0, 0, 0) for k in range(3))
            continue
        assert ours[label]["count"] == statistics[0][b][1]
        assert ours[label]["values"] == [statistics[k][b][5] for k in range(3)]


# -- highlighting is BLEU's counting ------------------------------------------------------------
@pytest.mark.parametrize("folder, tokenize, lowercase", [
    ("wmt22-en-de", "13a", False), ("wmt22-en-de", "intl", True), ("wmt22-en-zh", "zh", False),
    ("wmt22-en-ja", "char", False),
])
def test_highlighted_ngrams_add_up_to_the_clipped_matches(folder, tokenize, lowercase):
    path = DATA / folder
    target = folder.rsplit("-", 1)[1]
    refs = [list(read(path / f"ref.{target}.gz")[:150])]
    if (path / f"ref2.{target}.gz").exists():
        refs.append(list(read(path / f"ref2.{target}.gz")[:150]))
    names = sorted(p.name for p in (path / "sys").iterdir())[:2]
    systems = [list(read(path / "sys" / name)[:150]) for name in names]
    options = RunOptions(metrics=MetricOptions(bleu=MetricOptions().bleu._replace(tokenize=tokenize,
                                                                                   lowercase=lowercase)))
    result = compare(options, names, systems, [f"ref{k}" for k in range(len(refs))], refs)
    placed = unplaced = 0
    for segment in result.segments:
        for entry in segment.systems:
            order = result.max_order
            assert entry.matches == entry.statistics[2:2 + order]
            assert tuple(len(starts) for starts in entry.counted) == entry.statistics[2:2 + order]
            assert len(entry.spans) + entry.unplaced == entry.statistics[0]
            for span in entry.spans:
                assert entry.hypothesis[span.start:span.end].strip() == entry.hypothesis[span.start:span.end]
            placed += len(entry.spans)
            unplaced += entry.unplaced
    assert placed > 1000 and unplaced == 0


def test_punctuation_split_off_by_the_tokenizer_is_not_highlighted():
    """A whitespace approximation would call ``year,`` unmatched; BLEU matches ``year`` and not ``,``."""
    bleu = BLEU()
    hypothesis = "It rained all year, then stopped."
    matches, counted, spans, unplaced = highlight(bleu, hypothesis, ["It rained all year then it stopped ."], None)
    shown = {hypothesis[s.start:s.end]: s.order for s in spans}
    assert shown["year"] == 4 and shown[","] == 0 and shown["stopped"] == 2 and shown["."] == 2
    assert matches == tuple(bleu.single_use_statistics(hypothesis, ("It rained all year then it stopped .",))[2:6])
    assert unplaced == 0


def test_clipping_counts_the_first_occurrences_only():
    counted = counted_ngrams("the the the cat".split(), ["the cat".split(), "the the dog".split()], 2)
    assert counted == [[0, 1, 3], [0, 2]]


def test_tokens_rewritten_by_13a_are_found_in_their_escaped_form():
    tokens = BLEU()._tokens('He said &quot;yes&quot; &amp; left')
    assert place_tokens('He said &quot;yes&quot; &amp; left', tokens, False) == [
        (0, 2), (3, 7), (8, 14), (14, 17), (17, 23), (24, 29), (30, 34)]


def test_lowercase_search_keeps_the_offsets_of_the_displayed_line():
    line = "İstanbul IS big"  # "İ".lower() is two characters
    assert place_tokens(line, ["i̇stanbul", "is", "big"], True) == [(0, 8), (9, 11), (12, 15)]


# -- the page ----------------------------------------------------------------------------
HOSTILE = [
    "</script><script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "שלום עולם, hello",
    "北京欢迎你 <b>bold</b>",
]


def hostile_report(tmp_path: Path) -> str:
    ref = write(tmp_path / "ref.txt", ["</script> alert", '"><img src=x>', "שלום עולם", "北京欢迎你"])
    base = write(tmp_path / "base<script>.txt", HOSTILE)
    other = write(tmp_path / 'other"><img src=x>.txt', list(reversed(HOSTILE)))
    out = tmp_path / "report.html"
    result = invoke(["compare", ref, "-i", base, other, "--html", str(out), "-q"])
    assert result.exit_code == 0, result.stderr
    return out.read_text(encoding="utf-8")


def test_hostile_text_is_escaped_everywhere(tmp_path):
    page = hostile_report(tmp_path)
    assert page.count("<script") == 2  # the JSON data block and the page's own script
    assert "<img" not in page and "<b>" not in page and "alert(1)</script>" not in page
    assert "<td class=\"txt\"><span class=\"t\">&lt;/script&gt; alert</span></td>" in page
    assert "base&lt;script&gt;.txt" in page and "other&quot;&gt;&lt;img src=x&gt;.txt" in page
    assert "onerror" in page and "alert" in page  # shown, as text
    assert "שלום עולם" in page and "北京欢迎你" in page
    data = re.search(r'<script type="application/json" id="bleucli-data">(.*?)</script>', page, re.S).group(1)
    assert "<" not in data and ">" not in data
    assert json.loads(data)["systems"][0].endswith("base<script>.txt")


def test_csp_allows_exactly_the_inline_style_and_script(tmp_path):
    page = hostile_report(tmp_path)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert csp.startswith("default-src 'none';")
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    script = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(script) == 1
    for directive, text in (("style-src", style), ("script-src", script[0])):
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"{directive} 'sha256-{digest}';" in csp
    assert "http://" not in page and "https://" not in page and "src=" not in page.replace("src=x", "")


def test_the_report_is_deterministic_and_matches_the_golden_file(tmp_path, monkeypatch):
    """Same inputs, same bytes: the golden file (tests/golden/regenerate_compare_report.py) is the report."""
    for name in ("ref.de", "Online-B.de", "Lan-Bridge.de"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    pages = []
    for out in ("a.html", "b.html"):
        result = invoke(["compare", "ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "--html", out, "-q"])
        assert result.exit_code == 0, result.stderr
        pages.append((tmp_path / out).read_bytes())
    assert pages[0] == pages[1]
    assert pages[0] == GOLDEN.read_bytes()


# -- the command --------------------------------------------------------------------------
def test_markdown_summary_is_the_default_output(three):
    ref, systems = three
    result = invoke(["compare", ref, "-i", *systems[:2]])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| System | BLEU (μ ± 95% CI) | Δ BLEU | p |")
    assert lines[2].startswith(f"| {systems[0]} (baseline) |")
    assert "`BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" in result.stdout


@pytest.mark.slow
def test_fail_if_worse_exits_8_only_when_a_system_is_significantly_worse(tmp_path):
    folder = DATA / "wmt22-en-de"
    ref = write(tmp_path / "ref.de", read(folder / "ref.de.gz")[:300])
    good = write(tmp_path / "good.de", read(folder / "sys" / "JDExploreAcademy.de.gz")[:300])
    truncated = [" ".join(line.split()[:3]) for line in read(folder / "sys" / "PROMT.de.gz")[:300]]
    bad = write(tmp_path / "bad.de", truncated)
    worse = run_subprocess(["compare", ref, "-i", good, bad, "--fail-if-worse"])
    assert worse.returncode == 8
    assert worse.stderr.decode().strip() == (
        f"bleucli: error: significantly worse than the baseline {good}: {bad} (BLEU)")
    assert "Significantly worse than the baseline" in worse.stdout.decode()
    better = run_subprocess(["compare", ref, "-i", bad, good, "--fail-if-worse"])
    assert better.returncode == 0, better.stderr


def test_bad_input_gives_one_line_errors_with_documented_codes(three, tmp_path):
    ref, systems = three
    short = write(tmp_path / "short.de", ["only one line"])
    result = invoke(["compare", ref, "-i", systems[0], short])
    assert result.exit_code == 3 and "short.de" in result.stderr and len(result.stderr.splitlines()) == 1
    result = invoke(["compare", ref, "-i", systems[0], str(tmp_path / "missing.de")])
    assert result.exit_code == 3 and "missing.de: no such file" in result.stderr
    result = invoke(["compare", ref, "-i", systems[0]])
    assert result.exit_code == 2 and "at least one system" in result.stderr
    result = invoke(["compare", ref, "-i", *systems[:2], "--source", short])
    assert result.exit_code == 3 and result.stderr.startswith(f"bleucli: error: {short}: has 1 lines")
    result = invoke(["compare", ref, "-i", *systems[:2], "--html", str(tmp_path / "no" / "dir.html")])
    assert result.exit_code == 74 and "dir.html" in result.stderr


def test_pages_above_the_lazy_threshold_carry_their_rows_in_the_escaped_data(tmp_path):
    from bleucli.report.html import LAZY_ROWS, comparison_page

    refs = [["</script> alert", '"><img src=x>', "שלום עולם", "北京欢迎你"]]
    result = compare(RunOptions(), ["a", "b"], [HOSTILE, list(reversed(HOSTILE))], ["ref"], refs)
    full, lazy = comparison_page(result), comparison_page(result, lazy_above=3)
    assert LAZY_ROWS == 20_000
    for page, rows_in_html in ((full, 4), (lazy, 0)):
        body = re.search(r'<table id="sentences">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
        assert body.count("<tr id=") == rows_in_html
        data_text = re.search(r'<script type="application/json" id="bleucli-data">(.*?)</script>', page, re.S).group(1)
        assert "<" not in data_text and ">" not in data_text and "&" not in data_text
        data = json.loads(data_text)
        assert ("table" in data) == (rows_in_html == 0)
    # the lazy page's rows travel as a compact table the script makes them from (the browser tests check the
    # rows it makes against the generator's): the texts once, as they are
    table = json.loads(re.search(r'id="bleucli-data">(.*?)</script>', lazy, re.S).group(1))["table"]
    assert table["hyp"] == [HOSTILE, list(reversed(HOSTILE))] and table["ref"] == refs
    assert [len(column) for column in table["hl"] + table["num"]] == [4] * 4
    assert "renders them as you scroll" in lazy and "renders them as you scroll" not in full
    # the full table is inside a noscript (a text node to a browser running the script), the lazy one is not
    assert re.search(r'<noscript id="rows-src"><table id="sentences">.*?</table></noscript>', full, re.S)
    assert '<noscript id="rows-src">' not in lazy
    hostile = comparison_page(compare(RunOptions(), ["a", "b"], [["</noscript><b>x"] * 2, ["ok", "</tr>"]], ["ref"],
                                      [["</noscript>", "</tbody>"]]))
    rows_held = re.search(r'<noscript id="rows-src">.*?<tbody>(.*)</tbody></table></noscript>', hostile, re.S).group(1)
    assert hostile.count("</noscript>") == 1 and rows_held.count("</tr>") == 2  # the script splits rows there


def test_every_pick_in_the_page_data_has_an_element(tmp_path):
    """A bootstrap histogram with every resample on one side gets one side's pick only."""
    from bleucli.report.html import comparison_page

    refs = [read(EXAMPLES / "ref.de")]
    systems = [read(EXAMPLES / "Online-B.de"), refs[0]]  # the reference itself: better in every resample
    result = compare(RunOptions(), ["Online-B", "the reference"], systems, ["ref"], refs)
    assert min(result.deltas[0]) > 0
    page = comparison_page(result)
    data = json.loads(re.search(r'id="bleucli-data">(.*?)</script>', page, re.S).group(1))
    in_page = {int(n) for n in re.findall(r'data-pick="(\d+)"', page)}
    assert in_page == set(range(len(data["picks"])))
    assert [p["sign"] for p in data["picks"] if "sign" in p] == ["better"]
