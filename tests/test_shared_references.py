"""Several systems against one set of references: each segment's references are tokenized and counted
once for all systems (BLEU's ``bleu_systems``, chrF's ``chrf_systems``), and the per-segment rows that
resampling tests draw from come as one int64 block per system (:class:`~bleucli.statistics.RowMatrix`).

Whatever is shared, every number must be the one each system gets when it is scored alone: the rows, their
sums, the corpus scores through the API and the CLI, and the ``-pbs``/``-par``/``-ci`` output, with
both matchers, every tokenizer the extension runs, lowercase, 1, 2 and 4 references, empty lines and
several n-gram orders.
"""

from __future__ import annotations

import json
import pickle
import random
import struct

import pytest

import datasets
from bleucli.engine.rows import RowMatrix, concatenate_rows
from bleucli.metrics import BLEU, CHRF
from bleucli.metrics.compiled import PURE_PYTHON_VARIABLE
from bleucli.statistics import Statistics, sum_rows
from conftest import invoke
from matchers import select_matcher

TOKENIZERS = ["13a", "intl", "zh", "char", "none"]
OPTIONS = [{}, {"lowercase": True}, {"ref_length": "shortest", "max_ngram_order": 2}, {"max_ngram_order": 6}]
SEGMENTS = 60


def corpus(seed: int) -> tuple[list[list[str]], list[tuple[str, ...]]]:
    """Real WMT21 en-de lines (3 systems, references from 1 to 4 per segment) with empty lines, a
    hypothesis equal to a reference, repeated hypotheses and random short lines of many scripts."""
    rng = random.Random(seed)
    refs = [stream[:SEGMENTS] for stream in datasets.references("wmt21-en-de")]
    outputs = list(datasets.systems("wmt21-en-de").values())
    systems = [list(output[:SEGMENTS]) for output in outputs[:3]]
    fourth = outputs[3][:SEGMENTS]  # a fourth reference for some segments
    words = ["a", "b", "A", "b.", "1,5", "\u00c9t\u00e9", "\u0130", "&amp;", "\U0001F600", "\u4e2d\u6587", "x-1", "."]
    segments: list[tuple[str, ...]] = []
    for i in range(SEGMENTS):
        count = (1, 2, 3, 4)[i % 4]
        segment = [refs[0][i], refs[1][i], refs[2][i], fourth[i]][:count]
        if i % 7 == 3:
            segment[0] = ""
        segments.append(tuple(segment))
    for k, system in enumerate(systems):
        for i in range(k, SEGMENTS, 9):
            system[i] = ""
        for i in range(k + 2, SEGMENTS, 11):
            system[i] = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
    systems[1][5] = segments[5][0]
    systems.append(list(systems[0]))  # a system equal to another
    return systems, segments


def pure_bleu(monkeypatch: pytest.MonkeyPatch, **options: object) -> BLEU:
    """The pure-Python BLEU (the reference), made whatever the matcher of the test."""
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    metric = BLEU(**options)  # type: ignore[arg-type]
    monkeypatch.delenv(PURE_PYTHON_VARIABLE)
    return metric


def fast_only(cases: list[tuple[object, ...]], fast: set[tuple[object, ...]], ids: list[str]) -> list[object]:
    """``cases`` as ``parametrize`` arguments, each marked ``slow`` unless its id is in ``fast`` (the fast
    subset keeps a few; the full suite runs all)."""
    return [pytest.param(*case, id=name, marks=() if name in fast else pytest.mark.slow)
            for case, name in zip(cases, ids)]


OPTION_IDS = ["default", "lowercase", "shortest-order2", "order6"]
BLEU_CASES = fast_only([(t, o) for t in TOKENIZERS for o in OPTIONS],
                       {"13a-default", "13a-lowercase", "zh-order6", "none-shortest-order2"},
                       [f"{t}-{i}" for t in TOKENIZERS for i in OPTION_IDS])


@pytest.mark.parametrize("tokenize, options", BLEU_CASES)
def test_bleu_systems_together_equal_each_alone(matcher: str, monkeypatch: pytest.MonkeyPatch, tokenize: str,
                                                options: dict[str, object]) -> None:
    systems, segments = corpus(len(tokenize))
    metric = BLEU(tokenize=tokenize, **options)  # type: ignore[arg-type]
    alone = [[metric.single_use_statistics(h, r) for h, r in zip(system, segments)] for system in systems]
    together = metric.chunk_rows(systems, segments)
    assert [list(rows) for rows in together] == alone
    assert [metric.chunk_rows([system], segments)[0] for system in systems] == alone
    assert [s.values for s in metric.chunk_statistics(systems, segments)] == [tuple(sum_rows(rows)) for rows in alone]
    reference = pure_bleu(monkeypatch, tokenize=tokenize, **options)
    assert [[reference.single_use_statistics(h, r) for h, r in zip(system, segments)] for system in systems] == alone
    if matcher == "compiled":
        assert all(type(rows) is RowMatrix and type(rows.data) is bytes for rows in together)
    # the API: corpus scores of several systems at once equal each system's corpus_score
    streams = [list(column) for column in zip(*[s + ("",) * (4 - len(s)) for s in segments])]
    streams = [[line if j < len(s) else None for line, s in zip(stream, segments)]  # type: ignore[misc]
               for j, stream in enumerate(streams)]
    from bleucli.engine.streaming import score_streams

    for effective_order in (False, True):
        scorer = BLEU(tokenize=tokenize, effective_order=effective_order, **options)  # type: ignore[arg-type]
        together_scores = score_streams(scorer, systems, [[line or "" for line in s] for s in streams[:1]],
                                        [f"s{k}" for k in range(len(systems))], ["r"])
        assert [s.score for s in together_scores] == [
            scorer.corpus_score(system, [[line or "" for line in streams[0]]]).score for system in systems]


def test_bleu_systems_refuse_what_one_system_refuses(matcher: str) -> None:
    """A bad hypothesis in a later system gives the error that system alone gives (not a crash, not
    another system's)."""
    metric = BLEU()
    segments = [("a b c",), ("d e",)]
    with pytest.raises(Exception) as alone:
        metric.chunk_rows([["a", 7]], segments)  # type: ignore[list-item]
    with pytest.raises(type(alone.value)) as together:
        metric.chunk_rows([["a b", "d"], ["a", 7]], segments)  # type: ignore[list-item]
    assert str(together.value) == str(alone.value)


def test_bleu_systems_arguments(matcher: str) -> None:
    if matcher != "compiled":
        pytest.skip("the extension's own function")
    from bleucli import _speedups  # type: ignore[attr-defined]

    systems = _speedups.bleu_systems
    assert systems([["a b", "c"], ["a", "c d"]], [("a b",), ("c d", "c")], "13a", 2, False, False, 0) == [
        [3, 3, 3, 1, 3, 1], [3, 4, 3, 1, 3, 1]]
    blocks = systems([["a b"], ["a"]], [("a b",)], "13a", 2, False, False, 2)
    assert [RowMatrix(b, 6) for b in blocks] == [[[2, 2, 2, 1, 2, 1]], [[1, 2, 1, 0, 1, 0]]]
    assert systems([["a b"]], [("a b",)], "13a", 2, False, False, 1) == [[[2, 2, 2, 1, 2, 1]]]
    assert systems([], [("a",)], "13a", 2, False, False, 2) == []
    with pytest.raises(ValueError, match="one sequence of references per hypothesis"):
        systems([["a"], ["a", "b"]], [("a",)], "13a", 2, False, False, 2)
    with pytest.raises(TypeError, match="must be a str"):
        systems([["a"], [b"a"]], [("a",)], "13a", 2, False, False, 2)
    with pytest.raises(TypeError, match="must be a str"):
        systems([["a"]], [(None,)], "13a", 2, False, False, 2)
    with pytest.raises(ValueError, match="rows must be 0"):
        systems([["a"]], [("a",)], "13a", 2, False, False, 3)
    with pytest.raises(TypeError, match="bleu_systems"):
        systems([["a"]], [("a",)], "13a", 2, False, False)
    assert _speedups.bleu_statistics(["a b"], [("a b",)], "13a", 1, False, False, 2) == struct.pack("4q", 2, 2, 2, 2)
    # systems that agree on a segment (the same object, an equal str, a str subclass whose lower() differs)
    class Shouting(str):
        def lower(self) -> str:
            return "x y z"

    texts = ["a b c", "".join(["a b", " c"]), "a b c", Shouting("a b c"), "A B C"]
    refs1 = [("a b c d", "x y z")]
    for lowercase in (False, True):
        expected = [_speedups.bleu_statistics([t], refs1, "13a", 4, lowercase, False, 1) for t in texts]
        assert systems([[t] for t in texts], refs1, "13a", 4, lowercase, False, 1) == expected
    # orders beyond those whose tables are kept for all systems: each hypothesis counted on its own, same rows
    line = " ".join("abcabcabdabcabcabcabd" * 2)
    hyps, refs = [line, line[::-1], line[:9]], [(line, line[4:]), (line[::-1],), (line[:9], "a b")]
    for order in (1, 16, 17, 40):
        assert systems([hyps, hyps[::-1]], refs, "none", order, False, False, 1) == [
            _speedups.bleu_statistics(h, refs, "none", order, False, False, 1) for h in (hyps, hyps[::-1])]


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_rows_are_blocks_equal_to_each_system_alone(matcher: str, word_order: int) -> None:
    systems, segments = corpus(word_order)
    metric = CHRF(word_order=word_order)
    alone = [[metric.single_use_statistics(h, r) for h, r in zip(system, segments)] for system in systems]
    together = metric.chunk_rows(systems, segments)
    assert together == alone
    assert metric.chunk_rows(systems[:1], segments) == alone[:1]
    if matcher == "compiled":
        assert all(type(rows) is RowMatrix for rows in together)


def test_row_matrix_is_a_sequence_of_rows() -> None:
    np = pytest.importorskip("numpy")
    rows = [[1, 2, 3], [4, 5, -6], [7, 8, 2**40]]
    matrix = RowMatrix(struct.pack("9q", *(v for row in rows for v in row)), 3)
    assert len(matrix) == 3 and matrix[0] == [1, 2, 3] and matrix[-1] == [7, 8, 2**40]
    assert list(matrix) == rows and matrix.tolist() == rows and matrix == rows and rows == matrix
    assert matrix[1:] == rows[1:] and matrix[::2] == rows[::2] and matrix[5:] == []
    assert matrix.column_sums() == sum_rows(rows) == [12, 15, 2**40 - 3]
    assert Statistics.of_rows(matrix) == Statistics.of_rows(rows)
    assert pickle.loads(pickle.dumps(matrix)) == matrix
    with pytest.raises(IndexError):
        matrix[3]
    with pytest.raises(ValueError):
        RowMatrix(b"x" * 12, 1)
    array = np.asarray(matrix)
    assert array.dtype == np.int64 and array.tolist() == rows and not array.flags.writeable
    assert np.shares_memory(array, np.frombuffer(matrix.data, dtype=np.int64))  # read in place, not copied
    copied = np.array(matrix)
    assert copied.flags.writeable and not np.shares_memory(copied, array) and copied.tolist() == rows
    assert np.asarray(matrix, dtype=np.float32).tolist() == rows
    parts = [matrix[:1], matrix[1:]]
    joined = concatenate_rows(parts)
    assert type(joined) is RowMatrix and joined == matrix
    assert concatenate_rows([matrix[:1], rows[1:]]) == rows
    assert RowMatrix(b"", 3).tolist() == [] and len(RowMatrix(b"", 3)) == 0


def write_corpus(tmp_path, systems: list[list[str]], segments: list[tuple[str, ...]], nrefs: int) -> tuple[list[str],
                                                                                                           list[str]]:
    """Files of the systems and of ``nrefs`` reference streams (each segment's first references, the
    last one repeated where a segment has fewer)."""
    refs = []
    for j in range(nrefs):
        path = tmp_path / f"ref{j}.txt"
        path.write_text("".join(s[min(j, len(s) - 1)] + "\n" for s in segments), encoding="utf-8")
        refs.append(str(path))
    hyps = []
    for k, system in enumerate(systems):
        path = tmp_path / f"sys{k}.txt"
        path.write_text("".join(line + "\n" for line in system), encoding="utf-8")
        hyps.append(str(path))
    return refs, hyps


CLI_FLAGS = [[], ["-lc"], ["-tok", "none"], ["-tok", "char"], ["-tok", "intl"], ["-tok", "zh"]]


CLI_IDS = [f"{'-'.join(flags) or '13a'}-{nrefs}" for flags in CLI_FLAGS for nrefs in (1, 2, 4)]
CLI_CASES = fast_only([(flags, nrefs) for flags in CLI_FLAGS for nrefs in (1, 2, 4)],
                      {"13a-2", "-lc-4", "-tok-char-1"}, CLI_IDS)


@pytest.mark.parametrize("flags, nrefs", CLI_CASES)
def test_cli_several_systems_score_as_each_alone(matcher: str, tmp_path, flags: list[str], nrefs: int) -> None:
    systems, segments = corpus(nrefs)
    refs, hyps = write_corpus(tmp_path, systems[:3], segments, nrefs)
    together = invoke([*refs, "-i", *hyps, "-m", "bleu", "chrf", "-f", "json", "--force", *flags])
    assert together.exit_code == 0, together.stderr
    rows = json.loads(together.stdout)
    for hyp, row in zip(hyps, rows):
        alone = invoke([*refs, "-i", hyp, "-m", "bleu", "chrf", "-f", "json", "--force", *flags])
        assert alone.exit_code == 0, alone.stderr
        scores = {score["name"]: score for score in json.loads(alone.stdout)}
        for name, score in row["scores"].items():
            assert (score["unrounded_score"], score.get("verbose_score")) == (
                scores[name]["unrounded_score"], scores[name].get("verbose_score"))


@pytest.mark.parametrize("mode", [["-pbs", "-pbsn", "200"],
                                  pytest.param(["-par", "-parn", "200"], marks=pytest.mark.slow)], ids=["pbs", "par"])
def test_cli_paired_tests_are_the_pure_pythons(monkeypatch: pytest.MonkeyPatch, tmp_path, mode: list[str]) -> None:
    """The paired tests' text from the blocks of rows is the pure-Python rows' text, byte for byte
    (with several references and the chunks of more than one part: -j 2). Both matchers run here."""
    select_matcher(monkeypatch, "compiled")
    systems, segments = corpus(5)
    refs, hyps = write_corpus(tmp_path, systems, segments, 2)
    arguments = [*refs, "-i", *hyps, "-m", "bleu", "chrf", "ter", "-f", "text", "--force", *mode]
    got = invoke(arguments)
    assert got.exit_code == 0, got.stderr
    parallel = invoke([*arguments, "-j", "2"])
    assert parallel.stdout == got.stdout
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    expected = invoke(arguments)
    assert expected.exit_code == 0, expected.stderr
    assert got.stdout == expected.stdout


def test_cli_confidence_interval_is_the_pure_pythons(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """-ci from a block of rows (one system) equals the pure-Python rows' text. Both matchers run here."""
    select_matcher(monkeypatch, "compiled")
    systems, segments = corpus(6)
    refs, hyps = write_corpus(tmp_path, systems[:1], segments, 4)
    arguments = [*refs, "-i", *hyps, "-m", "bleu", "chrf", "-f", "text", "--force", "-ci", "--confidence-n", "200"]
    got = invoke(arguments)
    assert got.exit_code == 0, got.stderr
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert invoke(arguments).stdout == got.stdout
