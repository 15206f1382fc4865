"""`bleucli stats` on shards + `bleucli merge` print exactly what `bleucli` prints for the whole corpus.

Real WMT22 en-de outputs (examples/, two references, or three with the first repeated so that
TER's average reference lengths are thirds), cut at random lines into 1 to 7 shards, merged in a
shuffled order: the output is byte for byte the single run's, in JSON and in text.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import EXAMPLES, invoke

REFS = [EXAMPLES / "ref.de", EXAMPLES / "ref2.de"]
SYSTEMS = [EXAMPLES / "Online-B.de", EXAMPLES / "Lan-Bridge.de"]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def _shards(tmp_path: Path, refs: list[Path], cuts: list[int], options: list[str]) -> list[str]:
    """Cut every file at ``cuts`` and run `bleucli stats` on each piece; returns the shard paths."""
    n = len(_lines(refs[0]))
    bounds = list(zip([0, *cuts], [*cuts, n]))
    shards = []
    for k, (start, stop) in enumerate(bounds):
        folder = tmp_path / f"part{k}"
        folder.mkdir()
        ref_paths = [_write(folder / f"ref{j}", _lines(r)[start:stop]) for j, r in enumerate(refs)]
        sys_paths = [_write(folder / s.name, _lines(s)[start:stop]) for s in SYSTEMS]
        shard = str(tmp_path / f"shard{k}.json")
        result = invoke(["stats", *ref_paths, "-i", *sys_paths, *options, "--offset", str(start), "-o", shard])
        assert result.exit_code == 0, result.stderr
        shards.append(shard)
    return shards


def _single(tmp_path: Path, refs: list[Path], options: list[str], output: list[str]) -> str:
    """The single run, with the system files named as in the shards (names are part of the output)."""
    folder = tmp_path / "whole"
    folder.mkdir(exist_ok=True)
    sys_paths = [_write(folder / s.name, _lines(s)) for s in SYSTEMS]
    result = invoke([*map(str, refs), "-i", *sys_paths, *options, *output])
    assert result.exit_code == 0, result.stderr
    return result.stdout.replace(str(folder) + "/", "")


@pytest.mark.parametrize("pieces", [1, 3, 7])
@pytest.mark.parametrize("refs", [REFS, [REFS[0], REFS[1], REFS[0]]], ids=["2refs", "3refs"])
def test_merged_shards_print_the_single_run(tmp_path: Path, pieces: int, refs: list[Path]) -> None:
    options = ["-m", "bleu", "chrf", "ter", "-cw", "2"]
    rng = random.Random(pieces)
    cuts = sorted(rng.sample(range(1, 100), pieces - 1))
    shards = _shards(tmp_path, refs, cuts, options)
    rng.shuffle(shards)
    for output in (["-f", "json"], ["-f", "text", "-w", "6"]):
        merged = invoke(["merge", *shards, *output])
        assert merged.exit_code == 0, merged.stderr
        names_as_given = merged.stdout.replace(str(tmp_path) + "/", "")
        for k in range(pieces):
            names_as_given = names_as_given.replace(f"part{k}/", "")
        assert names_as_given == _single(tmp_path, refs, options, output)


def test_one_system_json_is_the_single_runs(tmp_path: Path) -> None:
    shard = tmp_path / "s.json"
    assert invoke(["stats", str(REFS[0]), "-i", str(SYSTEMS[0]), "-o", str(shard)]).exit_code == 0
    merged = json.loads(invoke(["merge", str(shard)]).stdout)
    single = json.loads(invoke([str(REFS[0]), "-i", str(SYSTEMS[0])]).stdout)
    assert merged == single and merged["unrounded_score"] == single["unrounded_score"]


def test_shards_that_do_not_belong_together_are_refused(tmp_path: Path) -> None:
    ref, hyp = str(REFS[0]), str(SYSTEMS[0])

    def shard(name: str, *options: str) -> str:
        path = str(tmp_path / name)
        result = invoke(["stats", ref, "-i", hyp, "-o", path, *options])
        assert result.exit_code == 0, result.stderr
        return path

    base = shard("base.json")
    cases = {
        "options": shard("lc.json", "-lc", "--offset", "100"),
        "systems": str(tmp_path / "two.json"),
        "overlaps": shard("overlap.json", "--offset", "50"),
        "gap": shard("gap.json", "--offset", "150"),
    }
    assert invoke(["stats", ref, "-i", hyp, hyp.replace("Online-B", "Lan-Bridge"), "-o", cases["systems"],
                   "--offset", "100"]).exit_code == 0
    for what, other in cases.items():
        result = invoke(["merge", base, other])
        assert result.exit_code == 3, (what, result.stderr)
        assert result.stdout == "" and result.stderr.count("\n") == 1, what
    assert invoke(["merge", base, shard("next.json", "--offset", "100")]).exit_code == 0


def test_a_file_that_is_not_a_shard_is_one_clear_error(tmp_path: Path) -> None:
    for content in ("not json", '{"format": "something else"}', '{"format": "bleucli-stats/1"}'):
        path = tmp_path / "bad.json"
        path.write_text(content, encoding="utf-8")
        result = invoke(["merge", str(path)])
        assert result.exit_code == 3 and str(path) in result.stderr and "Traceback" not in result.stderr


def test_the_shard_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "shard.json"
    result = invoke(["stats", str(REFS[0]), "-i", str(tmp_path / "missing.de"), "-o", str(target)])
    assert result.exit_code == 3 and not target.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("test", [["-ci", "-cin", "40"], ["-pbs", "-pbsn", "40"], ["-par", "-parn", "40"], []],
                         ids=["ci", "paired-bs", "paired-ar", "corpus"])
def test_per_segment_shards_run_significance_tests_like_the_single_run(tmp_path: Path, test: list[str]) -> None:
    options = ["-m", "bleu", "ter"]
    shards = _shards(tmp_path, [REFS[0], REFS[1], REFS[0]], [30, 70], [*options, "--per-segment"])
    systems_for = (lambda names: names[:1]) if test[:1] == ["-ci"] else (lambda names: names)
    if test[:1] == ["-ci"]:  # one system: shards of the first system alone
        for path in shards:
            Path(path).unlink()
        shards = []
        for k, (start, _stop) in enumerate([(0, 30), (30, 70), (70, 100)]):
            folder = tmp_path / f"part{k}"
            refs = [str(folder / f"ref{j}") for j in range(3)]
            shard = str(tmp_path / f"one{k}.json")
            result = invoke(["stats", *refs, "-i", str(folder / SYSTEMS[0].name), *options, "--per-segment",
                             "--offset", str(start), "-o", shard])
            assert result.exit_code == 0, result.stderr
            shards.append(shard)
    merged = invoke(["merge", *reversed(shards), *test, "-f", "text"])
    assert merged.exit_code == 0, merged.stderr
    folder = tmp_path / "whole"
    folder.mkdir()
    systems = [_write(folder / s.name, _lines(s)) for s in systems_for(SYSTEMS)]
    single = invoke([str(REFS[0]), str(REFS[1]), str(REFS[0]), "-i", *systems, *options, *test, "-f", "text"])
    assert single.exit_code == 0, single.stderr
    normalise = merged.stdout.replace(str(tmp_path / "part0") + "/", "")
    assert normalise == single.stdout.replace(str(folder) + "/", "")


def test_significance_needs_per_segment_shards(tmp_path: Path) -> None:
    shard = tmp_path / "sums.json"
    assert invoke(["stats", str(REFS[0]), "-i", *map(str, SYSTEMS), "-o", str(shard)]).exit_code == 0
    result = invoke(["merge", str(shard), "-pbs"])
    assert result.exit_code == 3 and "--per-segment" in result.stderr


def test_a_truncated_per_segment_shard_is_refused(tmp_path: Path) -> None:
    shard = tmp_path / "rows.jsonl"
    assert invoke(["stats", str(REFS[0]), "-i", str(SYSTEMS[0]), "--per-segment", "-o", str(shard)]).exit_code == 0
    lines = shard.read_text(encoding="utf-8").splitlines()
    shard.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    result = invoke(["merge", str(shard)])
    assert result.exit_code == 3 and "truncated" in result.stderr
