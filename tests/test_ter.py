"""TER: sacreBLEU's test vectors, the Tercom heuristics that decide scores, and options.

Vectors marked "sacreBLEU test" come from sacreBLEU's test/test_ter.py (checked
there at 1e-3); every other expected value was produced by sacreBLEU 2.6.0 and
is compared exactly. Real-data goldens live in test_chrf_ter_golden.py.
"""

from __future__ import annotations

import pytest

from bleucli import TER, corpus_ter, sentence_ter
from bleucli.metrics import ter_edit
from bleucli.metrics.ter_edit import _Pair, shift_edit_distance
from bleucli.signature import parse_signature

GERMAN_HYPS = [
    'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere Größe .',
    'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
    'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
    'Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .',
    'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
]
GERMAN_REFS = [
    'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten wird .',
    'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
    'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte ein .',
    'Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über die Bühne bewegt .',
    'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
]


@pytest.mark.parametrize("hyps, refs, expected", [  # sacreBLEU test
    (["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"], 0),
    (["dddd eeee ffff"], ["aaaa bbbb cccc"], 1),
    ([""], ["a"], 1),
    (["d e f g h a b c"], ["a b c d e f g h"], 1 / 8),
    (GERMAN_HYPS, GERMAN_REFS, 0.136),
])
def test_sacrebleu_vectors(hyps, refs, expected):
    assert abs(TER().corpus_score(hyps, [refs]).score - 100 * expected) < 1e-3


README_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
README_REFS = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
               ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]


@pytest.mark.parametrize("options, score, edits, length, signature", [
    ({}, 40.0, 6, 15.0, "nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no"),
    ({"normalized": True}, 33.33333333333333, 6, 18.0, "nrefs:2|case:lc|tok:tercom|norm:yes|punct:yes|asian:no"),
    ({"case_sensitive": True}, 40.0, 6, 15.0, "nrefs:2|case:mixed|tok:tercom|norm:no|punct:yes|asian:no"),
    ({"no_punct": True, "asian_support": True}, 40.0, 6, 15.0,
     "nrefs:2|case:lc|tok:tercom|norm:no|punct:no|asian:yes"),
])
def test_readme_corpus(options, score, edits, length, signature):
    result = TER(**options).corpus_score(README_HYPS, README_REFS)
    assert (result.score, result.num_edits, result.ref_length) == (score, edits, length)
    assert result.name == "TER"
    assert result.signature.format().rsplit("|version:", 1)[0] == signature
    assert result.format(width=2).endswith(f" = {score:.2f}")


def test_short_signature_round_trips_through_parse_signature():
    result = TER().corpus_score(README_HYPS, README_REFS)
    short = result.signature.format(short=True)
    assert short.rsplit("|v:", 1)[0] == "#:2|c:lc|t:tercom|nr:no|pn:yes|as:no"
    name, fields = parse_signature(f"TER|{short}")
    assert name == "TER" and fields == result.signature.to_dict()
    # with a test set, `t` occurs twice (test, then tok): both are read back
    with_test = result.signature.with_fields(test="wmt17")
    assert parse_signature(with_test.format(short=True), metric="TER")[1] == with_test.to_dict()


def test_multiple_references_take_min_edits_and_average_length():
    assert corpus_ter(["a b"], [["a b c d"], ["x"]]).score == 80.0  # 2 edits / 2.5
    assert TER().corpus_statistics(["a b"], [["a b c d"], ["x"]]) == [[2, 2.5]]


def test_empty_references_and_hypotheses():
    assert TER().corpus_score(["a b c"], [[""]]).score == 100.0
    assert TER().corpus_score([""], [[""]]).score == 0.0
    assert TER().corpus_score([""], [["a b"]]).score == 100.0
    # a None reference is no reference; '' is a real, empty one
    assert TER().corpus_statistics(["a b", "c"], [["a b c d", ""], ["x", None]]) == [[2, 2.5], [1, 0.0]]


def test_ter_can_exceed_100():
    assert TER().corpus_score(["x y z w v"], [["a"]]).score == 500.0


def test_case_sensitivity():
    assert sentence_ter("A B", ["a b"]).score == 0.0
    assert sentence_ter("A B", ["a b"], case_sensitive=True).score == 100.0


def test_single_shift():
    assert shift_edit_distance("d e f g h a b c".split(), "a b c d e f g h".split()) == 1


# A pair on which the 1000-candidate cap decides the result (oracle: 14; 12 without the cap).
CAP_HYP = "a a a a b b a c c c a a c a b b a b b a a b a b b c c a c c c b a b b b b c b".split()
CAP_REF = "b c b c c c c a b a c a a a b b a b c a c a a c a b b a b a a a c c b a a a a".split()


def test_candidate_cap_is_part_of_the_result(monkeypatch):
    assert shift_edit_distance(CAP_HYP, CAP_REF) == 14
    monkeypatch.setattr(ter_edit, "MAX_SHIFT_CANDIDATES", 10 ** 9)
    assert shift_edit_distance(CAP_HYP, CAP_REF) == 12


# A pair whose best alignment leaves the +-25 beam: sacreBLEU's distance is 61,
# the unrestricted Levenshtein distance only 54.
BEAM_HYP = ("206 260 308 388 228 352 200 231 395 348 250 251 284 202 221 234 338 204 328 221 346 327 337 "
            "250 307 217 301 249 156 95 68 35 47 173 1 86 128 118 154 20 85 141 157 179 10 186 97 43 180 "
            "115 185 108 40 43 60 13 28 33 129 151 16").split()
BEAM_REF = ("156 95 68 35 47 173 1 86 128 118 154 20 85 141 157 179 10 186 97 43 180 115 185 108 40 43 60 "
            "13 28 33 129 151 16 198 176 98 191 26 74 52 172 57 185 107 22 197 68 53 101 71 87 11 51 181 1 "
            "105 14 96 125").split()


def test_beam_limits_the_alignment():
    pair = _Pair(len(BEAM_HYP), BEAM_REF)
    assert pair.states(BEAM_HYP)[-1][2] == 54  # unrestricted
    assert pair.exact(BEAM_HYP)[0] == 61       # beamed, as sacreBLEU
    assert shift_edit_distance(BEAM_HYP, BEAM_REF) == 61


def _plain_levenshtein(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


@pytest.mark.parametrize("seed", range(5))
def test_bit_parallel_rows_equal_plain_levenshtein(seed):
    import random
    rng = random.Random(seed)
    for _ in range(40):
        ref = [rng.choice("abcde") for _ in range(rng.randint(1, 70))]
        hyp = [rng.choice("abcdef") for _ in range(rng.randint(0, 70))]
        assert _Pair(len(hyp), ref).states(hyp)[-1][2] == _plain_levenshtein(hyp, ref)


def test_trailing_whitespace_is_ignored_and_tokens_split_on_any_whitespace():
    assert TER().corpus_score(["a\tb  "], [["a b"]]).score == 0.0


def test_score_from_summed_float_statistics():
    np = pytest.importorskip("numpy")
    metric = TER()
    rows = metric.corpus_statistics(README_HYPS, README_REFS)
    summed = np.asarray(rows, dtype=float).sum(axis=0)
    result = metric.score_from_statistics(summed)
    assert result.score == 40.0 and type(result.score) is float
    assert result.num_edits == 6 and type(result.num_edits) is int


def test_to_dict():
    data = TER().corpus_score(README_HYPS, README_REFS).to_dict()
    assert (data["name"], data["score"], data["num_edits"], data["ref_length"], data["nrefs"]) == \
        ("TER", 40.0, 6, 15.0, "2")
    assert data["signature_fields"]["tok"] == "tercom"


def test_cached_references():
    assert TER(references=README_REFS).corpus_score(README_HYPS).score == 40.0
