"""``bleucli.utils.print_results_table`` prints sacreBLEU 2.6.0's bytes for the same input.

Scripts that call sacreBLEU's function build its input themselves (``PairedTest``'s
``(signatures, scores)``, or formatted score strings when no test is run), so the
check is on the function: both implementations get the same input (real WMT22
English-German outputs, three systems, BLEU and chrF) and must print the same
bytes, in every format sacreBLEU's command line offers (and two tabulate formats
given through ``args.format``), with colours and without.
The oracle tests skip without sacreBLEU; the frozen table checks the text format
without it.
"""

from __future__ import annotations

import contextlib
import io
from types import SimpleNamespace
from typing import Any

import pytest

from bleucli.version import __version__
from datasets import references, system

SYSTEMS = ("Online-B", "JDExploreAcademy", "PROMT")
LINES = 60
SIGNATURES = {"BLEU": "nrefs:1|ar:50|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0",
              "chrF2": "nrefs:1|ar:50|seed:12345|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0"}

#: sacreBLEU 2.6.0's ``print_results_table`` on these systems' first 60 lines: formatted score strings
#: (no test), width 2, text, no colour.
FROZEN_PLAIN = """\
╒══════════════════╤════════╤═════════╕
│           System │  BLEU  │  chrF2  │
╞══════════════════╪════════╪═════════╡
│         Online-B │ 40.33  │  67.34  │
├──────────────────┼────────┼─────────┤
│ JDExploreAcademy │ 42.31  │  68.93  │
├──────────────────┼────────┼─────────┤
│            PROMT │ 39.14  │  65.30  │
╘══════════════════╧════════╧═════════╛

-----------------
Metric signatures
-----------------
 - BLEU       nrefs:1|ar:50|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0
 - chrF2      nrefs:1|ar:50|seed:12345|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0
"""


def _data() -> tuple[list[tuple[str, list[str]]], list[str]]:
    refs = references("wmt22-en-de")[0][:LINES]
    return [(name, system("wmt22-en-de", name)[:LINES]) for name in SYSTEMS], refs


def _printed(function: Any, results: dict[str, list[Any]], signatures: dict[str, str], args: Any) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        function({key: list(value) for key, value in results.items()}, dict(signatures), args)
    return out.getvalue()


def _args(fmt: str, test: str, color: bool) -> SimpleNamespace:
    return SimpleNamespace(format=fmt, width=2, paired_bs=test == "bs", paired_ar=test == "ar", paired_bs_n=20,
                           paired_ar_n=20, no_color=not color, short=False)


def _plain_scores(metrics: dict[str, Any], systems: list[tuple[str, list[str]]]) -> dict[str, list[Any]]:
    """What sacreBLEU's command line gives the function without a test: ``score.format(width, True)``."""
    scores: dict[str, list[Any]] = {"System": [name for name, _ in systems]}
    for _, hyps in systems:
        for name in sorted(metrics):
            score = metrics[name].corpus_score(hyps, None)
            scores.setdefault(score.name, []).append(score.format(2, True))
    return scores


def test_the_table_without_a_test_is_sacrebleus_frozen_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleucli.metrics import BLEU, CHRF
    from bleucli.utils import print_results_table

    monkeypatch.delenv("NO_COLOR", raising=False)
    systems, refs = _data()
    scores = _plain_scores({"BLEU": BLEU(references=[refs]), "chrF2": CHRF(references=[refs])}, systems)
    given = {key: list(value) for key, value in scores.items()}
    assert _printed(print_results_table, scores, SIGNATURES, _args("text", "none", False)) == FROZEN_PLAIN
    assert scores == given  # the caller's dict is left as it was
    monkeypatch.setenv("NO_COLOR", "1")  # sacreBLEU's command line turns colours off for it too
    assert _printed(print_results_table, scores, SIGNATURES, _args("text", "none", True)) == FROZEN_PLAIN


@pytest.fixture(scope="module")
def oracle_results() -> dict[str, tuple[dict[str, list[Any]], dict[str, str]]]:
    """sacreBLEU's own inputs to the function: formatted strings, and ``PairedTest``'s for -pbs and -par."""
    pytest.importorskip("sacrebleu", reason="needs the oracle (bleucli[oracle])")
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    systems, refs = _data()
    made = {}
    # TER is left out: sacreBLEU's takes seconds here, and the table treats every metric alike
    metrics = {"BLEU": BLEU(references=[refs]), "chrF2": CHRF(references=[refs])}
    made["none"] = (_plain_scores(metrics, systems), {})
    for test in ("bs", "ar"):
        signatures, scores = PairedTest(systems, metrics, references=None, test_type=test, n_samples=20)()
        made[test] = (scores, {key: value.format(False) for key, value in signatures.items()})
    return made


@pytest.mark.parametrize("test", ["none", "bs", "ar"])
@pytest.mark.parametrize("fmt", ["text", "latex", "json", "github", ""])
def test_same_bytes_as_sacrebleu_for_the_same_input(oracle_results: Any, fmt: str, test: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import sacrebleu.utils as theirs

    import bleucli.utils as ours

    monkeypatch.delenv("NO_COLOR", raising=False)
    scores, signatures = oracle_results[test]
    if fmt == "json" and test == "bs":
        # sacreBLEU's json.dumps fails on its own bootstrap means (NumPy float32); bleucli writes them
        printed = _printed(ours.print_results_table, scores, signatures, _args(fmt, test, False))
        assert '"mean": ' in printed and printed.startswith("[\n    {\n")
        return
    for color in (False, True):
        monkeypatch.setattr(theirs.Color, "ENABLE_COLORS", color)
        expected = _printed(theirs.print_results_table, scores, signatures, _args(fmt, test, color))
        assert _printed(ours.print_results_table, scores, signatures, _args(fmt, test, color)) == expected


def test_bleucli_paired_test_through_the_table_is_sacrebleus(oracle_results: Any, matcher: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole chain: bleucli's ``PairedTest`` and table print what sacreBLEU's print."""
    import sacrebleu.utils as theirs

    from bleucli.metrics import BLEU, CHRF
    from bleucli.significance import PairedTest
    from bleucli.utils import print_results_table

    monkeypatch.setattr(theirs.Color, "ENABLE_COLORS", False)
    systems, refs = _data()
    metrics = {"BLEU": BLEU(references=[refs]), "chrF2": CHRF(references=[refs])}
    for test in ("bs", "ar"):
        signatures, scores = PairedTest(systems, metrics, references=None, test_type=test, n_samples=20)()
        expected_scores, expected_signatures = oracle_results[test]
        ours = {key: value.format(False).replace(f"version:{__version__}", "version:2.6.0")
                for key, value in signatures.items()}
        assert ours == expected_signatures
        assert _printed(print_results_table, scores, ours, _args("text", test, False)) == \
            _printed(theirs.print_results_table, expected_scores, expected_signatures, _args("text", test, False))
