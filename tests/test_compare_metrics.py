"""``bleucli compare`` for every metric of ``-m``: sentence scores, buckets, direction and ``--fail-if-worse``.

Each metric's numbers are checked against the scoring command itself: the
sentence scores against ``-sl -m METRIC``, a bucket's score and CI against
``bleucli REF -i SYS -m METRIC -ci`` on files holding only the bucket's lines.
TER is lower-is-better: an improvement is styled ``pos`` and a loss ``neg``,
and ``--fail-if-worse`` reads its direction.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import invoke
from datasets import DATA, read


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def pair(tmp_path: Path) -> tuple[str, list[str], str]:
    """40 segments of wmt22-en-de: a reference, two systems and ten documents of four segments."""
    folder = DATA / "wmt22-en-de"
    ref = write(tmp_path / "ref.de", read(folder / "ref.de.gz")[:40])
    systems = [write(tmp_path / f"{name}.de", read(folder / "sys" / f"{name}.de.gz")[:40])
               for name in ("Online-A", "Lan-Bridge")]
    docs = write(tmp_path / "docs.txt", [f"doc-{i // 4}" for i in range(40)])
    return ref, systems, docs


def cli_json(args: list[str]) -> dict:
    result = invoke(args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def sentence_level(ref: str, system: str, metric: str) -> list[float]:
    result = invoke([ref, "-i", system, "-sl", "-m", metric, "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line)["unrounded_score"] for line in result.stdout.splitlines()]


def test_sentence_chrf_and_ter_are_what_sl_prints(pair, matcher):
    ref, systems, _ = pair
    report = cli_json(["compare", ref, "-i", *systems, "-m", "bleu", "chrf", "ter", "-pbsn", "100", "--json", "-"])
    for k, system in enumerate(systems):
        for metric, name in (("chrf", "chrF2"), ("ter", "TER")):
            got = [segment["systems"][k]["sentence_scores"][name] for segment in report["segments"]]
            assert got == sentence_level(ref, system, metric), (k, metric)
        assert all(list(s["systems"][k]["sentence_scores"]) == ["chrF2", "TER"] for s in report["segments"])


@pytest.mark.parametrize(("metric", "name"), [("ter", "TER"), ("chrf", "chrF2")])
def test_each_metric_has_its_own_length_buckets_equal_to_ci_on_the_buckets_lines(pair, tmp_path, metric, name,
                                                                                matcher):
    ref, systems, _ = pair
    report = cli_json(["compare", ref, "-i", *systems, "-m", metric, "-pbsn", "200", "--json", "-"])
    buckets = [b for b in report["buckets"] if b["kind"] == "reference length" and b["metric"] == name]
    bleu_buckets = [b for b in report["buckets"] if b["kind"] == "reference length" and b["metric"] == "BLEU"]
    assert [b["segments"] for b in buckets] == [b["segments"] for b in bleu_buckets]  # the same groups
    assert sum(b["count"] for b in buckets) == 40 and all(b["measure"] == name for b in buckets)
    bucket = max(buckets, key=lambda b: b["count"])
    picked = [report["segments"][n - 1] for n in bucket["segments"]]
    sub_ref = write(tmp_path / "sub.ref", [s["references"][0] for s in picked])
    for k in range(2):
        sub_sys = write(tmp_path / f"sub{k}.sys", [s["systems"][k]["hypothesis"] for s in picked])
        printed = cli_json([sub_ref, "-i", sub_sys, "-m", metric, "-ci", "-cin", "200", "-f", "json"])
        assert (bucket["values"][k], bucket["ci"][k]) == (printed["unrounded_score"], printed["ci"])


def test_sentence_ter_bins_count_the_sl_scores(pair):
    ref, systems, _ = pair
    report = cli_json(["compare", ref, "-i", *systems, "-m", "ter", "-pbsn", "100", "--json", "-"])
    bins = [b for b in report["buckets"] if b["kind"] == "sentence TER"]
    cutoffs = [10, 20, 30, 40, 50, 60, 70, 80, 90, float("inf")]
    labels = ["<10"] + [f"[{a},{b})" for a, b in zip(cutoffs, cutoffs[1:-1])] + [">=90"]
    for k, system in enumerate(systems):
        slot = [next(b for b, cut in enumerate(cutoffs) if score < cut)
                for score in sentence_level(ref, system, "ter")]
        for bucket in bins:
            members = [i + 1 for i, s in enumerate(slot) if s == labels.index(bucket["label"])]
            assert bucket["by_system"][k] == members and bucket["values"][k] == len(members)
        assert sum(b["values"][k] for b in bins) == 40


def test_document_buckets_for_each_metric_score_the_documents_lines(pair, tmp_path):
    ref, systems, docs = pair
    report = cli_json(["compare", ref, "-i", *systems, "--docids", docs, "-m", "ter", "chrf", "-pbsn", "100",
                       "--json", "-"])
    for metric, name in (("ter", "TER"), ("chrf", "chrF2")):
        documents = [b for b in report["buckets"] if b["kind"] == "document" and b["metric"] == name]
        assert [b["label"] for b in documents] == [f"doc-{i}" for i in range(10)]
        bucket = documents[3]
        picked = [report["segments"][n - 1] for n in bucket["segments"]]
        sub_ref = write(tmp_path / "doc.ref", [s["references"][0] for s in picked])
        sub_sys = write(tmp_path / "doc.sys", [s["systems"][1]["hypothesis"] for s in picked])
        assert bucket["values"][1] == cli_json([sub_ref, "-i", sub_sys, "-m", metric, "-f", "json"])["unrounded_score"]


def _cells(page: str, table_id: str) -> list[list[str]]:
    """The rows of a table of the page, each as its cells' opening tags."""
    body = page.split(f'<table id="{table_id}">', 1)[1].split("</table>", 1)[0]
    return [re.findall(r"<t[dh][^>]*>", row) for row in body.split("<tr")[2:]]


def test_a_ter_improvement_is_styled_as_an_improvement(tmp_path):
    """The candidate's TER is lower (better) and its BLEU higher: both deltas are ``pos``, everywhere."""
    folder = DATA / "wmt22-en-de"
    reference = read(folder / "ref.de.gz")[:30]
    good = list(reference[:20]) + list(read(folder / "sys" / "Online-A.de.gz")[20:30])
    weak = read(folder / "sys" / "Online-A.de.gz")[:30]
    ref, base, better = (write(tmp_path / name, lines)
                         for name, lines in (("ref", reference), ("weak", weak), ("good", good)))
    html = tmp_path / "report.html"
    result = invoke(["compare", ref, "-i", base, better, "-m", "bleu", "ter", "-pbsn", "100", "--html", str(html),
                     "--json", str(tmp_path / "report.json"), "-q"])
    assert result.exit_code == 0, result.stderr
    page = html.read_text(encoding="utf-8")
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["systems"][1]["metrics"]["TER"]["delta"] < 0 < data["systems"][1]["metrics"]["BLEU"]["delta"]
    # System, then (score, delta, p) per metric, and human accuracy after the p-value of a metric with a
    # published fit: BLEU (score, delta, p, accuracy), TER (score, delta, p)
    candidate = _cells(page, "systems")[1]
    assert len(candidate) == 8
    assert 'class="num pos"' in candidate[2] and 'class="num pos"' in candidate[6]
    # the sentence table: a segment whose TER fell (the first 20 are the reference itself) has a "pos" TER delta
    rows = page.split('<table id="sentences">', 1)[1].split("</table>", 1)[0].split("</tr>")[1:21]
    for row, segment in zip(rows, data["segments"]):
        ter = [e["sentence_scores"]["TER"] for e in segment["systems"]]
        delta_cell = re.findall(r'<td class="num ?([a-z]*)">', row)[-1]
        assert delta_cell == ("pos" if ter[1] < ter[0] else "neg" if ter[1] > ter[0] else ""), segment["number"]
    # a TER length bucket where the candidate is better is "pos" too
    ter_lengths = [b for b in data["buckets"] if b["kind"] == "reference length" and b["metric"] == "TER"]
    table = page.split('<h3 id="b-reference-length-TER">', 1)[1].split("</table>", 1)[0]
    for bucket, row in zip(ter_lengths, table.split("<tbody>", 1)[1].split("</tr>")):
        delta = bucket["values"][1] - bucket["values"][0]
        expected = "pos" if delta < 0 else "neg" if delta > 0 else ""
        assert re.findall(r'<td class="num ?([a-z]*)">', row)[-1] == expected


def test_fail_if_worse_reads_ters_direction(tmp_path):
    folder = DATA / "wmt22-en-de"
    reference = read(folder / "ref.de.gz")[:40]
    ref = write(tmp_path / "ref", reference)
    perfect = write(tmp_path / "perfect", reference)
    system = write(tmp_path / "system", read(folder / "sys" / "Online-A.de.gz")[:40])
    worse = invoke(["compare", ref, "-i", perfect, system, "-m", "ter", "-pbsn", "200", "--fail-if-worse", "-q"])
    assert worse.exit_code == 8 and "system (TER)" in worse.stderr
    better = invoke(["compare", ref, "-i", system, perfect, "-m", "ter", "-pbsn", "200", "--fail-if-worse", "-q"])
    assert better.exit_code == 0, better.stderr
