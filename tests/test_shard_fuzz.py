"""Damaged shards, one case for each class of damage: `bleucli merge` refuses each with exit 3 and one line
naming the shard and the JSON path of the bad field; never an internal error, never a wrong number.

The shards are real ones (`bleucli stats` on WMT22 en-de lines), damaged field by field.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES, invoke, run_subprocess

Damage = Callable[[dict[str, Any]], Any]


def _lines(path: Path, n: int = 20) -> str:
    return "".join(path.read_text(encoding="utf-8").splitlines(keepends=True)[:n])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("inputs")
    files = {}
    for name in ("ref.de", "Online-B.de", "Lan-Bridge.de"):
        (folder / name).write_text(_lines(EXAMPLES / name), encoding="utf-8")
        files[name] = str(folder / name)
    return files


def _stats(inputs: dict[str, str], *options: str) -> str:
    result = invoke(["stats", inputs["ref.de"], "-i", inputs["Online-B.de"], inputs["Lan-Bridge.de"],
                     "-m", "bleu", "chrf", "ter", *options])
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def sums(inputs: dict[str, str]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(_stats(inputs))
    return document


@pytest.fixture(scope="module")
def per_segment(inputs: dict[str, str]) -> list[Any]:
    return [json.loads(line) for line in _stats(inputs, "--per-segment").splitlines()]


def _set(path: list[Any], value: Any) -> Damage:
    def damage(document: dict[str, Any]) -> None:
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return damage


def _delete(*path: Any) -> Damage:
    def damage(document: dict[str, Any]) -> None:
        target = document
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return damage


def _both(*damages: Damage) -> Damage:
    def damage(document: dict[str, Any]) -> None:
        for one in damages:
            one(document)
    return damage


BLEU_VALUES = ["metrics", 0, "statistics", 1, "values"]
TER = ["metrics", 2, "statistics", 0]

#: (damage, the JSON path or words the one error line must name)
SUMS_CASES: dict[str, tuple[Damage, str]] = {
    "missing key": (_delete("offset"), "the key 'offset' is missing"),
    "extra key": (_set(["extra"], 1), "extra: is not a key"),
    "offset a string": (_set(["offset"], "0"), 'offset: "0" is not a non-negative integer'),
    "offset null": (_set(["offset"], None), "offset: null is not"),
    "offset a list": (_set(["offset"], [0]), "offset: [0] is not"),
    "offset negative": (_set(["offset"], -5), "offset: -5 is not"),
    "offset a fraction": (_set(["offset"], 0.5), "offset: 0.5 is not"),
    "segments negative": (_set(["segments"], -1), "segments: -1 is not"),
    "segments a boolean": (_set(["segments"], True), "segments: true is not"),
    "nrefs zero": (_set(["nrefs"], 0), "nrefs: 0 is not an integer >= 1"),
    "systems not strings": (_set(["systems"], [1, 2]), "systems[0]: 1 is not a string"),
    "no systems": (_set(["systems"], []), "systems: [] is not a non-empty list"),
    "statistics nested wrong": (_set(["metrics", 0, "statistics"], [[1, 2]]), "metrics[0].statistics: expected"),
    "one system missing": (_set(["metrics", 1, "statistics"], [{"values": [], "ordered": {}}]),
                           "metrics[1].statistics: expected a list of 2"),
    "values too short": (_set(BLEU_VALUES, [1, 2, 3]), "metrics[0].statistics[1].values: expected 10 statistics"),
    "negative count": (_set([*BLEU_VALUES, 3], -1),
                       "metrics[0].statistics[1].values[3]: -1 is not a non-negative integer"),
    "boolean count": (_set([*BLEU_VALUES, 3], True), "metrics[0].statistics[1].values[3]: True is not"),
    "fractional count": (_set([*BLEU_VALUES, 3], 2.5), "metrics[0].statistics[1].values[3]: 2.5 is not"),
    "string count": (_set([*BLEU_VALUES, 3], "7"), "metrics[0].statistics[1].values[3]: '7' is not"),
    "matches above totals": (_set([*BLEU_VALUES, 5], 10**9), "metrics[0].statistics[1].values: 4-gram matches"),
    "hyp length is not the 1-gram count": (lambda d: d["metrics"][0]["statistics"][1]["values"].__setitem__(
        0, d["metrics"][0]["statistics"][1]["values"][0] + 1), "differs from the hypothesis length"),
    "chrF matches above counts": (_set(["metrics", 1, "statistics", 0, "values", 2], 10**9),
                                  "metrics[1].statistics[0].values: matches"),
    "TER float infinite (1e400)": (_set([*TER, "values", 1], float("inf")),
                                   "metrics[2].statistics[0].values[1]: inf is not a finite"),
    "TER float NaN": (_set([*TER, "values", 1], float("nan")), "metrics[2].statistics[0].values[1]: nan"),
    "TER column too short": (lambda d: d["metrics"][2]["statistics"][0]["ordered"]["1"].pop(),
                             "metrics[2].statistics[0].ordered.1: expected a list of 20 values"),
    "TER column value negative": (_set([*TER, "ordered", "1", 4], -3.0),
                                  "metrics[2].statistics[0].ordered.1[4]: -3.0 is not"),
    "TER column not the sum": (_set([*TER, "values", 1], 1.0),
                               "metrics[2].statistics[0].values[1]: 1.0 is not the sum"),
    "TER ordered keys": (_set([*TER, "ordered"], {}), "metrics[2].statistics[0].ordered: expected the keys"),
    "signature claims 13a with ja-mecab options": (_set(["options", "bleu", "tokenize"], "ja-mecab"),
                                                   "metrics[0].signature: tok is \"13a\""),
    "signature edited": (lambda d: d["metrics"][0].__setitem__("signature", d["metrics"][0]["signature"].replace(
        "smooth:exp", "smooth:floor")), "metrics[0].signature: smooth is \"floor\", but the shard's options give"),
    "signature of another nrefs": (_set(["nrefs"], 2), "metrics[0].signature: nrefs is \"1\""),
    "another bleucli version": (_set(["bleucli_version"], "0.0.1"), "written by bleucli \"0.0.1\""),
    "bad option value": (_set(["options", "bleu", "smooth_method"], "bogus"), "options.bleu: unknown smoothing"),
    "option of the wrong type": (_set(["options", "bleu", "max_order"], "4"), "options.bleu.max_order: \"4\""),
    "option infinite": (_set(["options", "bleu", "smooth_value"], float("inf")), "options.bleu.smooth_value"),
    "unknown option": (_set(["options", "chrf", "gamma"], 1), "options.chrf.gamma: is not a key"),
    "unknown metric": (_set(["options", "metrics"], ["bleu", "meteor", "ter"]), "options.metrics[1]"),
    "unknown tokenizer": (_both(_set(["options", "bleu", "tokenize"], "klingon")), "options.bleu"),
    "spm model file named (/dev/zero), never opened": (
        _both(_set(["options", "bleu", "tokenize"], "spm"), _set(["options", "bleu", "spm_model"], "/dev/zero")),
        "metrics[0].signature: tok is \"13a\""),
    "flores200 never downloaded": (_set(["options", "bleu", "tokenize"], "flores200"),
                                   "metrics[0].signature: tok is \"13a\""),
    "signature field infinite": (_set(["signature_fields", "test"], float("inf")), "signature_fields.test"),
}


def _run(tmp_path: Path, text: str, *args: str) -> Any:
    path = tmp_path / "shard2.json"
    path.write_text(text, encoding="utf-8")
    return path, invoke(["merge", str(path), *args])


def _dumps(document: Any) -> str:
    return json.dumps(document)  # NaN and Infinity as Python writes them: the reader must refuse them


@pytest.mark.parametrize("case", list(SUMS_CASES))
def test_a_damaged_shard_is_exit_3_naming_the_shard_and_the_field(tmp_path: Path, sums: dict[str, Any],
                                                                   case: str) -> None:
    damage, named = SUMS_CASES[case]
    document = copy.deepcopy(sums)
    damage(document)
    path, result = _run(tmp_path, _dumps(document))
    assert result.exit_code == 3, (case, result.stderr)
    assert result.stdout == "" and result.stderr.count("\n") == 1, (case, result.stderr)
    assert f"{path}: " in result.stderr and named in result.stderr, (case, result.stderr)
    assert "internal error" not in result.stderr and len(result.stderr) < 400


def test_the_undamaged_shard_merges(tmp_path: Path, sums: dict[str, Any]) -> None:
    _, result = _run(tmp_path, _dumps(sums))
    assert result.exit_code == 0, result.stderr


def test_1e400_in_the_json_text_is_refused(tmp_path: Path, sums: dict[str, Any]) -> None:
    document = copy.deepcopy(sums)
    document["metrics"][2]["statistics"][0]["ordered"]["1"][0] = 12345.5
    text = _dumps(document).replace("12345.5", "1e400")
    _, result = _run(tmp_path, text)
    assert result.exit_code == 3 and "ordered.1[0]: Infinity is not a finite" in result.stderr, result.stderr


#: lines[k] is line k + 1 (the header is line 1)
PER_SEGMENT_CASES: dict[str, tuple[Callable[[list[Any]], Any], str]] = {
    "row too short": (lambda lines: lines[3][0][1].pop(), ":4: [0][1]: expected 10 statistics"),
    "negative count": (lambda lines: lines[2][1][0].__setitem__(2, -1), ":3: [1][0][2]: -1 is not"),
    "fraction": (lambda lines: lines[1][0][0].__setitem__(4, 0.5), ":2: [0][0][4]: 0.5 is not"),
    "matches above totals": (lambda lines: lines[1][0][0].__setitem__(2, 999), ":2: [0][0]: 1-gram matches"),
    "TER NaN": (lambda lines: lines[6][2][1].__setitem__(1, float("nan")), ":7: [2][1][1]: nan"),
    "a system missing": (lambda lines: lines[6][2].pop(), ":7: expected 3 metrics x 2 systems"),
    "a segment line nested deep": (lambda lines: lines.__setitem__(9, json.loads("[" * 40 + "]" * 40)),
                                   ":10: not a bleucli statistics shard: JSON nested"),
}


@pytest.mark.parametrize("case", list(PER_SEGMENT_CASES))
def test_a_damaged_per_segment_line_is_exit_3_naming_the_line_and_field(tmp_path: Path, per_segment: list[Any],
                                                                        case: str) -> None:
    damage, named = PER_SEGMENT_CASES[case]
    lines = copy.deepcopy(per_segment)
    damage(lines)
    path, result = _run(tmp_path, "\n".join(map(_dumps, lines)) + "\n")
    assert result.exit_code == 3, (case, result.stderr)
    assert result.stderr.count("\n") == 1 and f"{path}{named}" in result.stderr, (case, result.stderr)


def test_a_mismatch_between_shards_names_the_field_not_a_dict(tmp_path: Path, inputs: dict[str, str]) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(_stats(inputs), encoding="utf-8")
    second.write_text(_stats(inputs, "-lc", "--offset", "20"), encoding="utf-8")
    result = invoke(["merge", str(first), str(second)])
    assert result.exit_code == 3 and result.stderr.count("\n") == 1
    assert "options.bleu.lowercase is true here and false there" in result.stderr
    assert len(result.stderr) < 300, result.stderr


def test_json_nested_a_thousand_deep_is_exit_3(tmp_path: Path) -> None:
    for depth in (1000, 100_000):
        path, result = _run(tmp_path, '{"format": "bleucli-stats/1", "x": ' + "[" * depth + "]" * depth + "}")
        assert result.exit_code == 3 and "nested" in result.stderr and f"{path}: " in result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/urandom"), reason="no /dev/urandom")
def test_merge_of_a_device_or_fifo_ends_at_once_with_exit_3(tmp_path: Path) -> None:
    targets = ["/dev/urandom", str(tmp_path)]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "shard.fifo")
        targets.append(str(tmp_path / "shard.fifo"))
    for target in targets:
        proc = run_subprocess(["merge", target], timeout=30)
        assert proc.returncode == 3 and proc.stderr.count(b"\n") == 1 and target.encode() in proc.stderr


def test_the_size_cap_is_documented_and_can_be_raised(tmp_path: Path, sums: dict[str, Any]) -> None:
    assert "--max-shard-bytes" in invoke(["merge", "--help"]).stdout
    text = _dumps(sums)
    path, result = _run(tmp_path, text, "--max-shard-bytes", str(len(text) - 1))
    assert result.exit_code == 3 and "--max-shard-bytes" in result.stderr and str(path) in result.stderr
    assert _run(tmp_path, text, "--max-shard-bytes", str(len(text)))[1].exit_code == 0
    stdin = invoke(["merge", "-", "--max-shard-bytes", "100"], input=text)
    assert stdin.exit_code == 3 and "<stdin>" in stdin.stderr
    assert invoke(["merge", "-"], input=text).exit_code == 0
