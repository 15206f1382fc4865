"""The scoring command through CliRunner: output shapes, options and every bad-input case.

Expected text lines were printed by sacreBLEU 2.6.0's CLI on the same files
(examples/: the first 100 lines of WMT22 en-de); only the version differs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bleucli import BLEU, __version__
from conftest import EXAMPLES, invoke
from datasets import lines

SACREBLEU_TEXT = {
    (): "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 38.6 66.8/44.4/31.6/23.6 (BP = 1.000 ratio = 1.023 hyp_len = 2079 ref_len = 2033)",
    ("-w", "3"): "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 38.554 66.8/44.4/31.6/23.6 (BP = 1.000 ratio = 1.023 hyp_len = 2079 ref_len = 2033)",
    ("--short",): "BLEU|#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0 = 38.6 66.8/44.4/31.6/23.6 (BP = 1.000 ratio = 1.023 hyp_len = 2079 ref_len = 2033)",
    ("-lc", "-tok", "intl"): "BLEU|nrefs:1|case:lc|eff:no|tok:intl|smooth:exp|version:2.6.0 = 40.4 69.3/46.3/33.2/24.9 (BP = 1.000 ratio = 1.014 hyp_len = 2168 ref_len = 2139)",
    ("-s", "floor", "-sv", "0.2"): "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:floor[0.20]|version:2.6.0 = 38.6 66.8/44.4/31.6/23.6 (BP = 1.000 ratio = 1.023 hyp_len = 2079 ref_len = 2033)",
    ("-s", "add-k"): "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:add-k[1.00]|version:2.6.0 = 38.6 66.8/44.4/31.6/23.6 (BP = 1.000 ratio = 1.023 hyp_len = 2079 ref_len = 2033)",
}
SACREBLEU_SENTENCE_HEAD = [
    "BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 58.1 92.9/76.9/58.3/36.4 (BP = 0.931 ratio = 0.933 hyp_len = 14 ref_len = 15)",
    "BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 59.1 88.9/75.0/57.1/50.0 (BP = 0.895 ratio = 0.900 hyp_len = 9 ref_len = 10)",
    "BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 51.8 70.8/52.2/45.5/42.9 (BP = 1.000 ratio = 1.043 hyp_len = 24 ref_len = 23)",
]


def as_oracle(text: str) -> str:
    return text.replace(f"version:{__version__}", "version:2.6.0").replace(f"v:{__version__}", "v:2.6.0")


@pytest.mark.parametrize("options", list(SACREBLEU_TEXT))
def test_text_output_matches_sacrebleu(example_ref: str, example_sys: str, options: tuple) -> None:
    result = invoke([example_ref, "-i", example_sys, "-f", "text", *options])
    assert result.exit_code == 0, result.stderr
    assert as_oracle(result.stdout) == SACREBLEU_TEXT[options] + "\n"


def test_stdin_equals_file_input(example_ref: str, example_sys: str) -> None:
    data = open(example_sys, "rb").read()
    from_stdin = invoke([example_ref, "-f", "text"], input=data)
    from_file = invoke([example_ref, "-i", example_sys, "-f", "text"])
    dash = invoke([example_ref, "-i", "-", "-f", "text"], input=data)
    assert from_stdin.stdout == from_file.stdout == dash.stdout


def test_json_is_sacrebleus_object_plus_the_unrounded_score_and_signature(example_ref: str, example_sys: str) -> None:
    result = invoke([example_ref, "-i", example_sys])
    data = json.loads(result.stdout)
    expected = BLEU().corpus_score(lines(example_sys), [lines(example_ref)])
    assert data["score"] == 38.6 and data["unrounded_score"] == expected.score  # sacreBLEU rounds to -w
    assert json.loads(invoke([example_ref, "-i", example_sys, "-w", "3"]).stdout)["score"] == 38.554
    assert data["signature"] == str(expected.signature)
    assert data["signature_fields"] == expected.signature.to_dict()
    for key in ("counts", "totals", "precisions"):
        assert data[key] == list(getattr(expected, key))
    assert (data["bp"], data["sys_len"], data["ref_len"], data["nrefs"]) == (1.0, 2079, 2033, "1")
    assert data["name"] == "BLEU" and data["tok"] == "13a"


def test_format_from_environment_and_flag_precedence(example_ref: str, example_sys: str) -> None:
    env_text = invoke([example_ref, "-i", example_sys], env={"BLEUCLI_FORMAT": "text"})
    assert env_text.stdout.startswith("BLEU|")
    flag_wins = invoke([example_ref, "-i", example_sys, "-f", "json"], env={"BLEUCLI_FORMAT": "text"})
    assert flag_wins.stdout.startswith("{")
    bad = invoke([example_ref, "-i", example_sys], env={"BLEUCLI_FORMAT": "yaml"})
    assert bad.exit_code == 2 and "format" in bad.stderr.lower()


def test_score_only(example_ref: str, example_sys: str) -> None:
    assert invoke([example_ref, "-i", example_sys, "-b"]).stdout == "38.6\n"
    assert invoke([example_ref, "-i", example_sys, "-b", "-w", "4"]).stdout == "38.5542\n"


def test_sentence_level_matches_sacrebleu(example_ref: str, example_sys: str) -> None:
    result = invoke([example_ref, "-i", example_sys, "-sl"])
    out = result.stdout.splitlines()
    assert len(out) == 100
    assert [as_oracle(line) for line in out[:3]] == SACREBLEU_SENTENCE_HEAD
    json_lines = invoke([example_ref, "-i", example_sys, "-sl", "-f", "json"]).stdout.splitlines()
    assert len(json_lines) == 100 and json.loads(json_lines[0])["signature_fields"]["eff"] == "yes"
    numbers = invoke([example_ref, "-i", example_sys, "-sl", "-b"]).stdout.splitlines()
    assert numbers[:3] == ["58.1", "59.1", "51.8"]


def test_several_systems_table_and_json(example_ref: str) -> None:
    systems = [str(EXAMPLES / "Online-B.de"), str(EXAMPLES / "Lan-Bridge.de")]
    refs = [example_ref, str(EXAMPLES / "ref2.de")]
    text = invoke([*refs, "-i", *systems, "-f", "text"]).stdout
    assert systems[0] in text and systems[1] in text
    assert "Metric signatures" in text and " - BLEU       nrefs:2|case:mixed" in text
    data = json.loads(invoke([*refs, "-i", *systems]).stdout)
    assert [entry["system"] for entry in data] == systems
    for entry, path in zip(data, systems):
        expected = BLEU().corpus_score(lines(path), [lines(r) for r in refs])
        assert entry["BLEU"] == f"{expected.score:.1f}"  # sacreBLEU's table as JSON: strings
        assert entry["scores"]["BLEU"]["unrounded_score"] == expected.score
        assert entry["scores"]["BLEU"]["signature"] == str(expected.signature)


def test_num_refs_splits_tabs_like_separate_files(tmp_path, example_ref: str, example_sys: str) -> None:
    ref2 = str(EXAMPLES / "ref2.de")
    joined = tmp_path / "refs.tsv"
    joined.write_text("".join(f"{a}\t{b}\n" for a, b in zip(lines(example_ref), lines(ref2))), encoding="utf-8")
    separate = invoke([example_ref, ref2, "-i", example_sys])
    tabbed = invoke([str(joined), "-nr", "2", "-i", example_sys])
    assert json.loads(tabbed.stdout)["unrounded_score"] == json.loads(separate.stdout)["unrounded_score"]
    assert json.loads(tabbed.stdout)["nrefs"] == "2"


def test_num_refs_accepts_an_empty_last_field(tmp_path) -> None:
    refs = tmp_path / "refs.tsv"
    refs.write_text("a b c\t\nd e f\tx\n", encoding="utf-8")
    result = invoke([str(refs), "-nr", "2", "-b"], input="a b c\nd e f\n")
    assert result.exit_code == 0, result.stderr


def test_tsv_stdin_is_several_systems_unless_told_otherwise(example_ref: str) -> None:
    hyps = lines(EXAMPLES / "Online-B.de")
    others = lines(EXAMPLES / "Lan-Bridge.de")
    data = "".join(f"{a}\t{b}\n" for a, b in zip(hyps, others))
    for flags in ([], ["--tsv"]):  # sacreBLEU's guess is the default; --tsv says it explicitly
        asked = invoke([example_ref, *flags], input=data)
        names = [entry["system"] for entry in json.loads(asked.stdout)]
        assert names == ["System 1", "System 2"]
    one_column = invoke([example_ref, "--no-tsv"], input=data)
    assert one_column.exit_code == 0 and one_column.stderr == ""
    assert isinstance(json.loads(one_column.stdout), dict)  # one system whose lines hold tabs


def test_byte_order_mark_is_kept_with_a_warning(tmp_path, example_ref: str, example_sys: str) -> None:
    bom = tmp_path / "bom.de"
    bom.write_bytes(b"\xef\xbb\xbf" + open(example_sys, "rb").read())
    result = invoke([example_ref, "-i", str(bom)])
    assert "byte order mark" in result.stderr and str(bom) in result.stderr
    expected = BLEU().corpus_score(["\ufeff" + lines(example_sys)[0], *lines(example_sys)[1:]], [lines(example_ref)])
    assert json.loads(result.stdout)["unrounded_score"] == expected.score
    assert "byte order mark" not in invoke([example_ref, "-i", str(bom), "-q"]).stderr


def test_crlf_and_trailing_whitespace_are_stripped(tmp_path, example_ref: str, example_sys: str) -> None:
    crlf = tmp_path / "crlf.de"
    crlf.write_bytes(open(example_sys, "rb").read().replace(b"\n", b" \r\n"))
    plain = invoke([example_ref, "-i", example_sys, "-b", "-w", "6"]).stdout
    assert invoke([example_ref, "-i", str(crlf), "-b", "-w", "6"]).stdout == plain
    assert invoke([example_ref, "-b", "-w", "6"], input=crlf.read_bytes()).stdout == plain


def test_lone_carriage_return_is_not_a_line_break(tmp_path) -> None:
    ref = tmp_path / "ref"
    ref.write_text("a b c d\n", encoding="utf-8")
    # stdin and files agree: "\r" inside a line is whitespace, never a line break
    from_stdin = invoke([str(ref), "-b"], input=b"a b\rc d\n")
    hyp = tmp_path / "hyp"
    hyp.write_bytes(b"a b\rc d\n")
    assert from_stdin.stdout == invoke([str(ref), "-i", str(hyp), "-b"]).stdout == "100.0\n"


def test_expect_signature(example_ref: str, example_sys: str) -> None:
    good = f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:{__version__}"
    assert invoke([example_ref, "-i", example_sys, "--expect-signature", good, "-b"]).stdout == "38.6\n"
    wildcard = "BLEU|#:1|c:mixed|e:no|tok:13a|s:exp|v:*"
    assert invoke([example_ref, "-i", example_sys, "--expect-signature", wildcard]).exit_code == 0
    bad = invoke([example_ref, "-i", example_sys, "--expect-signature",
                  "nrefs:1|case:lc|eff:no|tok:intl|smooth:exp|version:2.6.0"])
    assert bad.exit_code == 7 and bad.stdout == ""
    message = bad.stderr.strip()
    assert message.count("\n") == 0
    for field in ("case: expected lc, got mixed", "tok: expected intl, got 13a", "version: expected 2.6.0"):
        assert field in message


def test_smooth_value_ignored_by_exp_is_reported(example_ref: str, example_sys: str) -> None:
    result = invoke([example_ref, "-i", example_sys, "-sv", "0.5", "-b"])
    assert result.exit_code == 0 and "ignored" in result.stderr


def test_max_order_appears_in_signature(example_ref: str, example_sys: str) -> None:
    data = json.loads(invoke([example_ref, "-i", example_sys, "--max-order", "2"]).stdout)
    assert data["signature_fields"]["order"] == "2" and len(data["counts"]) == 2


def test_version_and_help() -> None:
    assert invoke(["--version"]).stdout == f"bleucli {__version__}\n"
    help_text = invoke(["--help"]).stdout
    for flag in ("-tok", "--smooth-method", "--expect-signature", "--tsv", "--max-order"):
        assert flag in help_text


def _error_cases(tmp_path):
    ref = str(EXAMPLES / "ref.de")
    hyp = str(EXAMPLES / "Online-B.de")
    short = tmp_path / "short.de"
    short.write_text("eins\nzwei\n", encoding="utf-8")
    bad_utf8 = tmp_path / "latin1.de"
    bad_utf8.write_bytes(b"ok\nGr\xfc\xdfe\n")
    nul = tmp_path / "nul.de"
    nul.write_bytes(b"a\x00b\n")
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("a\tb\nonly one\n", encoding="utf-8")
    unreadable = tmp_path / "unreadable.de"
    unreadable.write_text("x\n", encoding="utf-8")
    unreadable.chmod(0)
    return [
        ("missing file", [ref, "-i", str(tmp_path / "nope.de")], None, 3, ["nope.de", "no such file"]),
        ("missing ref", [str(tmp_path / "nope.de"), "-i", hyp], None, 3, ["nope.de"]),
        ("directory", [ref, "-i", str(tmp_path)], None, 3, ["is a directory"]),
        ("invalid utf-8", [ref, "-i", str(bad_utf8)], None, 3, [f"{bad_utf8}:2", "utf-8"]),
        ("invalid utf-8 stdin", [ref], b"fine\n\xff\xfe\n", 3, ["<stdin>:2"]),
        ("nul byte", [ref, "-i", str(nul)], None, 3, [f"{nul}:1", "NUL"]),
        ("line counts", [ref, "-i", str(short)], None, 3, ["2 lines", "100", str(short), ref]),
        ("empty stdin", [ref], b"", 3, ["<stdin>", "empty"]),
        ("empty file", [ref, "-i", os.devnull], None, 3, ["empty"]),
        ("num-refs fields", [str(tsv), "-nr", "2"], b"a\nb\n", 3, [f"{tsv}:2", "expected 2"]),
        ("unknown tokenizer", [ref, "-i", hyp, "-tok", "spacy"], None, 2, ["spacy"]),
        ("nan smoothing", [ref, "-i", hyp, "-s", "floor", "-sv", "nan"], None, 2, ["finite"]),
        ("inf smoothing", [ref, "-i", hyp, "-s", "add-k", "-sv", "inf"], None, 2, ["finite"]),
        ("negative smoothing", [ref, "-i", hyp, "-s", "add-k", "-sv", "-5"], None, 2, [">= 0"]),
        ("bad width", [ref, "-i", hyp, "-w", "-3"], None, 2, ["-w"]),
        ("width not a number", [ref, "-i", hyp, "-w", "x"], None, 2, ["-w"]),
        ("sentence level with two systems", [ref, "-i", hyp, hyp + "x", "-sl"], None, 2, ["sentence-level"]),
        ("num-refs with two files", [ref, ref, "-nr", "2", "-i", hyp], None, 2, ["num-refs"]),
        ("tsv with files", [ref, "-i", hyp, "--tsv"], None, 2, ["--tsv"]),
        ("same system twice", [ref, "-i", hyp, hyp], None, 2, ["twice"]),
        ("no references", ["-i", hyp], None, 2, ["reference"]),
        ("bad expected signature", [ref, "-i", hyp, "--expect-signature", "nrefs1"], None, 2, ["nrefs1"]),
        ("unknown option", [ref, "--frobnicate"], None, 2, ["frobnicate"]),
        ("unknown encoding (a usage error)", [ref, "-i", hyp, "-e", "klingon"], None, 2, ["klingon", "--encoding"]),
    ] + ([] if os.geteuid() == 0 else [("unreadable", [ref, "-i", str(unreadable)], None, 3, ["permission denied"])])


def test_every_bad_input_gets_one_line_and_its_exit_code(tmp_path) -> None:
    for label, args, stdin, code, fragments in _error_cases(tmp_path):
        result = invoke(args, input=stdin)
        assert result.exit_code == code, (label, result.stderr)
        assert result.stdout == "", label
        assert "Traceback" not in result.stderr, label
        lines_ = result.stderr.strip().splitlines()
        assert len(lines_) == 1 and lines_[0].startswith("bleucli: error: "), (label, result.stderr)
        for fragment in fragments:
            assert fragment in lines_[0], (label, fragment, lines_[0])


def test_one_letter_options_are_spelled_long_before_click_parses() -> None:
    """click looks ``-i`` up as a long option first and builds a difflib "did you mean" on the miss;
    bleucli spells it ``--input`` beforehand. Values (even ``-b`` as a value) and ``--`` stay as written."""
    from bleucli.cli import _long_spellings
    from bleucli.cli.score import score

    args = ["ref", "-i", "h", "-b", "-w", "-b", "-lc", "--", "-i"]
    assert _long_spellings(score, args) == ["ref", "--input", "h", "--score-only", "--width", "-b", "-lc", "--", "-i"]
    assert _long_spellings(score, ["ref", "-i"]) == ["ref", "-i"]  # click's error names it as written


def test_an_option_missing_its_value_is_named_as_written(tmp_path: Path) -> None:
    ref = tmp_path / "ref"
    ref.write_text("a\n", encoding="utf-8")
    result = invoke([str(ref), "-i"])
    assert result.exit_code == 2 and "'-i'" in result.stderr
