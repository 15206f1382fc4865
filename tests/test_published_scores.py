"""Third-party expected values: organisers' published BLEU and sacreBLEU 2.6.0's own table.

PUBLISHED_SCORES.tsv rows (``bleu-A``, ``bleu-refA``, ``bleu-all``...) were
computed by the WMT organisers; SACREBLEU_2.6.0.tsv by sacreBLEU itself on the
same files. Nobody on this project produced either number.
"""

from __future__ import annotations

import json
import re

import pytest

import datasets
from bleucli import BLEU
from fast_subset import BLEU_SET, slow_except

# every test here runs with the compiled and with the pure-Python n-gram matcher
pytestmark = pytest.mark.usefixtures("matcher")

SETS_WITH_PUBLISHED = [s for s in datasets.sets() if datasets.tsv_rows(s, "PUBLISHED_SCORES.tsv")]


def _reference_letters(name: str) -> dict[str, int]:
    """Map a reference letter (A, B, C...) to its stream index, from PROVENANCE.json."""
    provenance = datasets.provenance(name)
    files = provenance.get("files", provenance)
    letters = {}
    for index, path in enumerate(datasets.reference_paths(name)):
        origin = json.dumps(files.get(path.name[: -len(".gz")], ""))
        match = re.search(r"ref\.?([A-Z])\b", origin)
        assert match, (name, path.name, origin)
        letters[match.group(1)] = index
    return letters


def _published_tokenizer(name: str) -> str:
    target = datasets.target_language(name)
    return {"zh": "zh", "ja": "char"}.get(target, "13a")


@pytest.mark.parametrize("name", slow_except(SETS_WITH_PUBLISHED, {BLEU_SET}))
def test_published_organiser_bleu_reproduces(name: str) -> None:
    letters = _reference_letters(name)
    refs = datasets.references(name)
    systems = datasets.systems(name)
    rows = [r for r in datasets.tsv_rows(name, "PUBLISHED_SCORES.tsv")
            if r["metric"].startswith("bleu-") and r["system"] in systems]
    assert rows, name
    metrics: dict[str, BLEU] = {}
    for row in rows:
        label = row["metric"][len("bleu-"):]
        if label == "all":
            # wmt23-en-he: refB was added to the repository after the scores were published
            indices = [letters["A"]] if name == "wmt23-en-he" else sorted(letters.values())
        else:
            indices = [letters[label[-1]]]
        key = ",".join(map(str, indices))
        if key not in metrics:
            metrics[key] = BLEU(tokenize=_published_tokenizer(name), force=True,
                                references=[refs[i] for i in indices])
        score = metrics[key].corpus_score(systems[row["system"]]).score
        assert round(score, 6) == round(float(row["score"]), 6), (name, row)


ORACLE_TABLE_TOKENIZERS = {"13a", "zh", "char"}


@pytest.mark.parametrize("name", slow_except(datasets.sets(), {BLEU_SET}))
def test_sacrebleu_table_reproduces_exactly(name: str) -> None:
    rows = [r for r in datasets.tsv_rows(name, "SACREBLEU_2.6.0.tsv") if r["tokenize"] in ORACLE_TABLE_TOKENIZERS]
    assert rows, name
    refs = datasets.references(name)
    systems = datasets.systems(name) or {"ref2-as-hypothesis": refs[1]}
    checked = 0
    metrics: dict[tuple[str, str], BLEU] = {}
    for row in rows:
        if row["system"] not in systems:
            continue
        key = (row["tokenize"], row["refs"])
        if key not in metrics:  # reference statistics computed once per tokenizer and reference set
            chosen = refs[:1] if row["refs"] == "ref1" else refs
            metrics[key] = BLEU(tokenize=row["tokenize"], force=True, references=chosen)
        score = metrics[key].corpus_score(systems[row["system"]])
        assert score.score == float(row["bleu"]), (name, row)
        assert (score.sys_len, score.ref_len) == (int(row["sys_len"]), int(row["ref_len"]))
        assert score.signature.format().rsplit("|version:", 1)[0] == row["signature"].rsplit("|version:", 1)[0]
        checked += 1
    assert checked
