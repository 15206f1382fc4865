"""Hostile input at the seams the fault matrix did not reach: every command, every numeric option at its limit.

Each case was an internal error (exit 1), a run without end, or a memory blow-up before its fix; now it is
one line on stderr naming the file (and line) or the option, with the documented exit code, and nothing on
stdout. The endless inputs run the real CLI in a subprocess under an address-space ceiling, so a regression
fails the test instead of swapping the machine; the others run in-process (CliRunner), which maps errors to
exit codes as the command line does.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, invoke
from fast_subset import slow_except

MEMORY_CEILING = 512 << 20  # bytes of address space for each child process
TIMEOUT = 60


def _ceiling() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CEILING, MEMORY_CEILING))


def _run(args: list[str], stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m bleucli ARGS`` with ``stdin`` the file of that path, under the memory ceiling."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("BLEUCLI_FORMAT", None)
    with open(stdin or os.devnull, "rb") as handle:
        return subprocess.run([sys.executable, "-m", "bleucli", *args], stdin=handle, capture_output=True, env=env,
                              cwd=cwd or REPO, timeout=TIMEOUT, preexec_fn=_ceiling)


def _one_error_line(stderr: str | bytes) -> str:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    errors = [line for line in text.splitlines() if "error:" in line]
    assert len(errors) == 1 and "Traceback" not in text and "internal error" not in text, text
    return errors[0]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "ref").write_text("the cat sat on the mat\nhello world\nfoo bar baz\n")
    (tmp_path / "hyp").write_text("the cat sat on a mat\nhello there world\nfoo baz bar\n")
    (tmp_path / "hyp2").write_text("a cat sat on the mat\nhello world\nbar baz\n")
    return tmp_path


# --- endless standard input: every command that reads stdin reads it in bounded lines -----------------------

STDIN_COMMANDS = {
    "multi-bleu": ["multi-bleu", "ref"],
    "multi-bleu-detok": ["multi-bleu-detok", "ref"],
    "nltk": ["nltk", "ref"],
    "which-bleu": ["which-bleu", "ref"],
    "pairwise": ["pairwise", "-"],
    "self-bleu": ["self-bleu", "-"],
    "gleu": ["gleu", "ref", "-i", "-", "--source", "hyp"],
    "google-bleu": ["google-bleu", "ref", "-i", "-"],
    "ibleu": ["ibleu", "ref", "-i", "-", "--source", "hyp"],
}


@pytest.mark.parametrize("command", slow_except(list(STDIN_COMMANDS), {"multi-bleu"}))
def test_dev_zero_on_stdin_is_exit_3_in_bounded_memory(files: Path, command: str) -> None:
    """stdin.read() of /dev/zero took 3.7 GB in 3 s (exit 10 under a ceiling, the machine's memory without)."""
    result = _run(STDIN_COMMANDS[command], stdin="/dev/zero", cwd=files)
    assert result.returncode == 3 and result.stdout == b"", result.stderr
    assert "<stdin>:1: line is longer than 1,048,576 bytes" in _one_error_line(result.stderr)


def test_multi_bleu_reference_dev_zero_is_exit_3_in_bounded_memory(files: Path) -> None:
    result = _run(["multi-bleu", "/dev/zero"], stdin=str(files / "hyp"), cwd=files)
    assert result.returncode == 3 and result.stdout == b"", result.stderr
    assert "/dev/zero:1: line is longer than" in _one_error_line(result.stderr)


def test_multi_bleu_still_scores_its_reference_files_and_gzip(files: Path) -> None:
    import gzip

    (files / "ref.gz").write_bytes(gzip.compress((files / "ref").read_bytes()))
    (files / "bad.gz").write_bytes(b"not gzip")
    plain = _run(["multi-bleu", "ref"], stdin=str(files / "hyp"), cwd=files)
    zipped = _run(["multi-bleu", "ref.gz"], stdin=str(files / "hyp"), cwd=files)
    assert plain.returncode == zipped.returncode == 0 and plain.stdout == zipped.stdout
    assert plain.stdout.startswith(b"BLEU = 41.91, 83.3/33.3/33.3/33.3")
    bad = _run(["multi-bleu", "bad.gz"], stdin=str(files / "hyp"), cwd=files)
    assert bad.returncode == 3 and bad.stdout == b"" and "bad.gz" in _one_error_line(bad.stderr)


# --- JSON: pairwise's lines are nested no deeper than the other JSON inputs -----------------------------------

@pytest.mark.parametrize("text", ["[" * 100_000, '{"hypotheses": ' + "[" * 3_000 + "]" * 3_000 + "}"])
def test_pairwise_json_nested_deep_is_exit_3_naming_the_line(files: Path, text: str) -> None:
    """json.loads recursed: RecursionError, an internal error (exit 1)."""
    (files / "deep.jsonl").write_text('{"hypotheses": ["a b"]}\n' + text + "\n")
    for args, stdin in ((["pairwise", str(files / "deep.jsonl")], None),
                        (["pairwise", "-"], (files / "deep.jsonl").read_text())):
        result = invoke(args, input=stdin)
        assert result.exit_code == 3 and result.stdout == "", result.stderr
        assert ":2: not valid JSON: JSON nested more than 64 levels deep" in _one_error_line(result.stderr)


# --- segment scores whose sum overflows ----------------------------------------------------------------------

@pytest.mark.parametrize("mode", [[], ["-ci", "-cin", "10"]])
def test_segment_scores_whose_sum_overflows_are_exit_3_naming_the_file(files: Path, mode: list[str]) -> None:
    """Each score is finite, their sum is not: math.fsum raised OverflowError (exit 1)."""
    (files / "big").write_text("1e308\n1e308\n1e308\n")
    result = invoke([str(files / "ref"), "-i", str(files / "hyp"), "--segment-scores", "comet", str(files / "big"),
                     *mode])
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    assert "big: the scores are too large" in _one_error_line(result.stderr)


# --- numeric options at their limits --------------------------------------------------------------------------

HUGE = "99999999999999999999"

LIMITS = {
    "chrF word order": (["-m", "chrf", "-cw", HUGE], "chrF word order must be at most 1,000"),
    "chrF char order": (["-m", "chrf", "-cc", HUGE], "chrF character order must be at most 1,000"),
    "chrF beta": (["-m", "chrf", "--chrf-beta", "1" + "0" * 200], "chrF beta must be at most 1,000,000"),
    "width": (["-w", HUGE], "'-w' / '--width'"),
    "-cin": (["-ci", "-cin", HUGE], "'-cin' / '--confidence-n'"),
    "-pbsn": (["-i", "hyp2", "-pbs", "-pbsn", HUGE], "'-pbsn' / '--paired-bs-n'"),
    "-parn": (["-i", "hyp2", "-par", "-parn", HUGE], "'-parn' / '--paired-ar-n'"),
    "-j on files": (["-j", HUGE], "'-j' / '--jobs'"),
    "-j with -pbs": (["-i", "hyp2", "-pbs", "-j", HUGE], "'-j' / '--jobs'"),
}


@pytest.mark.parametrize("case", list(LIMITS))
def test_numeric_options_beyond_their_limits_are_usage_errors(files: Path, case: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Each was an internal error (OverflowError, ValueError), or (-j on files) a loop of 10**20 turns."""
    monkeypatch.chdir(files)
    args, said = LIMITS[case]
    result = invoke(["ref", "-i", "hyp", *args])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    assert said in _one_error_line(result.stderr)


@pytest.mark.parametrize("args", [["compare", "ref", "-i", "hyp", "hyp2", "-j", HUGE],
                                  ["rank", "ref", "-i", "hyp", "hyp2", "-w", HUGE],
                                  ["rank", "ref", "-i", "hyp", "hyp2", "-pbsn", HUGE],
                                  ["merge", "-j", HUGE, "x.json"]])
def test_other_commands_bound_the_same_options(files: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(files)
    result = invoke(args)
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    _one_error_line(result.stderr)


def test_pairwise_chrf_word_order_beyond_the_limit_is_a_usage_error(files: Path) -> None:
    (files / "pw.jsonl").write_text(json.dumps({"hypotheses": ["a b c"], "references": ["a b d"]}) + "\n")
    result = invoke(["pairwise", str(files / "pw.jsonl"), "--metric", "chrf", "-cw", HUGE])
    assert result.exit_code == 2 and "chrF word order must be at most 1,000" in _one_error_line(result.stderr)


def test_limits_keep_the_largest_accepted_values_working(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(files)
    chrf = invoke(["ref", "-i", "hyp", "-m", "chrf", "-cc", "1000", "-cw", "1000", "--chrf-beta", "1000000", "-b"])
    assert chrf.exit_code == 0 and float(chrf.stdout) > 0, chrf.stderr
    wide = invoke(["ref", "-i", "hyp", "-w", "1074", "-b"])
    assert wide.exit_code == 0 and len(wide.stdout.strip().split(".")[1]) == 1074


def test_num_refs_beyond_the_fields_is_refused_at_the_first_line(files: Path) -> None:
    """-nr 10**20 was an OverflowError; -nr 10**7 took 21 s and 4.3 GB (a tee of 10**7 iterators) before exit 3."""
    result = invoke([str(files / "ref"), "-i", str(files / "hyp"), "-nr", HUGE])
    assert result.exit_code == 3 and result.stdout == ""
    assert f"ref:1: expected {HUGE} tab-separated references (--num-refs), found 1" in _one_error_line(result.stderr)


def test_a_codec_failing_without_a_position_is_exit_3_naming_the_file(files: Path) -> None:
    """punycode raises UnicodeError itself (not UnicodeDecodeError): it was an internal error."""
    for extra in ([], ["-j", "2"]):
        result = invoke([str(files / "ref"), "-i", str(files / "hyp"), "-e", "punycode", *extra])
        assert result.exit_code == 3 and result.stdout == "", result.stderr
        assert "not valid punycode" in _one_error_line(result.stderr)


# --- files that are not files ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["gleu", "ref", "-i", "DIR", "--source", "hyp"],
                                  ["gleu", "ref", "-i", "hyp", "--source", "DIR"],
                                  ["google-bleu", "DIR", "-i", "hyp"], ["ibleu", "ref", "-i", "DIR", "--source", "hyp"],
                                  ["self-bleu", "DIR"], ["pairwise", "DIR"]])
def test_a_directory_is_exit_3_in_every_command(files: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """click's Path(dir_okay=False) made it exit 2, a usage error; the scoring command says exit 3."""
    (files / "DIR").mkdir()
    monkeypatch.chdir(files)
    result = invoke(args)
    assert result.exit_code == 3 and result.stdout == ""
    assert "DIR: is a directory, not a file" in _one_error_line(result.stderr)


def test_compare_refuses_a_blank_document_id_as_the_scoring_command_does(files: Path) -> None:
    """compare took blank ids as one document "" (exit 0); --docids with -pbs refused them (exit 3)."""
    (files / "docids").write_text("d1\n \nd2\n")
    result = invoke(["compare", str(files / "ref"), "-i", str(files / "hyp"), str(files / "hyp2"),
                     "--docids", str(files / "docids"), "-pbsn", "10", "-q"])
    assert result.exit_code == 3 and result.stdout == ""
    assert "docids:2: empty doc id" in _one_error_line(result.stderr)


# --- standard input closed (``<&-``): Python's sys.stdin is None ---------------------------------------------

@pytest.mark.parametrize("command", slow_except(["nltk ref", "multi-bleu ref", "pairwise -", "self-bleu -",
                                                 "gleu ref -i - --source hyp"], {"nltk ref", "pairwise -"}))
def test_closed_stdin_is_exit_3_in_every_command(files: Path, command: str) -> None:
    """sys.stdin.buffer on a closed stdin was an AttributeError, an internal error (exit 1)."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run(["bash", "-c", f'"{sys.executable}" -m bleucli {command} <&-'], capture_output=True,
                            env=env, cwd=files, timeout=TIMEOUT)
    assert result.returncode == 3 and result.stdout == b"", result.stderr
    assert "<stdin>: standard input is closed" in _one_error_line(result.stderr)


# --- the family commands' numeric options ---------------------------------------------------------------------

@pytest.mark.parametrize("option", [["--epsilon", "nan", "--smoothing", "1"], ["--epsilon", "-1", "--smoothing", "1"],
                                    ["--k", "nan", "--smoothing", "4"], ["--k", "-5", "--smoothing", "4"],
                                    ["--alpha", "inf", "--smoothing", "6"]])
def test_nltk_smoothing_parameters_must_be_finite_and_not_negative(tmp_path: Path, option: list[str]) -> None:
    """NLTK drops a NaN or negative precision from the mean: the score was inflated (0.622 for 0.126), exit 0."""
    (tmp_path / "ref").write_text("a b x d y\n")
    (tmp_path / "hyp").write_text("a b c d e\n")
    result = invoke(["nltk", str(tmp_path / "ref"), "-i", str(tmp_path / "hyp"), *option])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    assert f"invalid {option[0]}" in _one_error_line(result.stderr)


@pytest.mark.parametrize("option", [["--max-order", HUGE], ["--max-order", "2147483647"], ["--min-order", HUGE]])
def test_google_bleu_orders_beyond_the_limit_are_usage_errors(files: Path, option: list[str]) -> None:
    """--max-order 10**20 was an internal error; 2147483647 ran for minutes (a loop over every order)."""
    result = invoke(["google-bleu", str(files / "ref"), "-i", str(files / "hyp"), *option])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    _one_error_line(result.stderr)


# --- merge: the corpus starts at segment 0 --------------------------------------------------------------------

def test_merge_refuses_shards_that_miss_the_first_lines(files: Path) -> None:
    """The shards of lines 3-5 and 6-8 merged without the shard of lines 0-2 printed the score of 2/3 of the
    corpus with exit 0: only gaps between shards were refused, not one before the first."""
    (files / "ref9").write_text((files / "ref").read_text() * 3)
    (files / "hyp9").write_text((files / "hyp").read_text() + (files / "hyp2").read_text() * 2)
    for start in (0, 3, 6):
        (files / f"ref{start}").write_text("".join((files / "ref9").read_text().splitlines(True)[start:start + 3]))
        (files / f"hyp{start}").write_text("".join((files / "hyp9").read_text().splitlines(True)[start:start + 3]))
        result = invoke(["stats", str(files / f"ref{start}"), "-i", str(files / f"hyp{start}"), "--offset", str(start),
                         "-o", str(files / f"shard{start}.json")])
        assert result.exit_code == 0, result.stderr
    whole = invoke([str(files / "ref9"), "-i", str(files / "hyp9"), "-b"])
    merged = invoke(["merge", *(str(files / f"shard{start}.json") for start in (6, 0, 3)), "-b"])
    assert merged.exit_code == 0 and merged.stdout == whole.stdout
    for shards in ((3, 6), (6,), (3,)):
        result = invoke(["merge", *(str(files / f"shard{start}.json") for start in shards), "-b"])
        assert result.exit_code == 3 and result.stdout == "", result.stderr
        assert f"shard{shards[0]}.json: the first shard starts at segment {shards[0]}, not 0" in \
            _one_error_line(result.stderr)


# --- gzip input with damaged deflate data ---------------------------------------------------------------------

def _damaged_deflate(data: bytes) -> bytes:
    """``data`` gzipped, with the first byte flip that makes zlib itself fail (not the CRC or length check)."""
    import gzip
    import zlib

    packed = gzip.compress(data, mtime=0)
    for position in range(10, len(packed) - 8):
        damaged = bytearray(packed)
        damaged[position] ^= 0x55
        try:
            gzip.decompress(bytes(damaged))
        except zlib.error:
            return bytes(damaged)
        except (OSError, EOFError):
            continue
    raise AssertionError("no byte flip makes zlib fail")


@pytest.mark.parametrize("args", [["--aligned", "bad.tsv.gz"], ["--aligned", "bad.tsv.gz", "-j", "2"],
                                  ["ref", "-i", "bad.gz"], ["bad.gz", "-i", "hyp"], ["nltk", "ref", "-i", "bad.gz"],
                                  ["compare", "ref", "-i", "hyp", "bad.gz"]])
def test_damaged_deflate_data_in_a_gzip_input_is_exit_3_naming_it(files: Path, args: list[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """zlib.error is neither OSError nor EOFError: a damaged .gz input was an internal error (exit 1)."""
    aligned = "".join(f"{h}\t{r}" for h, r in zip((files / "hyp").read_text().splitlines(True),
                                                     (files / "ref").read_text().splitlines(True)))
    (files / "bad.tsv.gz").write_bytes(_damaged_deflate(aligned.replace("\t", " x\t", 1).encode() * 50))
    (files / "bad.gz").write_bytes(_damaged_deflate((files / "hyp").read_bytes() * 50))
    monkeypatch.chdir(files)
    result = invoke(args)
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    assert "bad" in (line := _one_error_line(result.stderr)) and "cannot read: Error -3" in line


# --- JSON strings that are not Unicode text -------------------------------------------------------------------

@pytest.mark.parametrize("extra", [[], ["-j", "2"], ["-tok", "ja-mecab"]])
def test_a_lone_surrogate_in_aligned_json_is_exit_3_naming_the_line(tmp_path: Path, extra: list[str]) -> None:
    """A JSON \\ud800 escape is a str no UTF-8 file can hold: MeCab's binding raised TypeError (exit 1)."""
    if extra[-1:] == ["ja-mecab"]:
        pytest.importorskip("MeCab")
    path = tmp_path / "a.jsonl"
    path.write_text('{"hyp": "a b", "ref": "a b"}\n{"hyp": "a \\ud800 b", "ref": "a b"}\n'
                    '{"hyp": "\\ud83d\\ude00 x", "ref": "\\ud83d\\ude00 x"}\n')
    result = invoke(["--aligned", str(path), *extra])
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    assert "a.jsonl:2: key 'hyp' holds a lone surrogate (U+D800)" in _one_error_line(result.stderr)
    path.write_text('{"hyp": "\\ud83d\\ude00 x", "ref": "\\ud83d\\ude00 x"}\n')  # a pair is one astral character
    assert invoke(["--aligned", str(path), *extra, "-b"]).exit_code == 0


def test_a_lone_surrogate_in_pairwise_json_is_exit_3_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"hypotheses": ["a \\udfff b"], "references": ["a b"]}\n')
    result = invoke(["pairwise", str(path)])
    assert result.exit_code == 3 and result.stdout == ""
    assert 'p.jsonl:1: "hypotheses" holds a lone surrogate' in _one_error_line(result.stderr)


# --- a SentencePiece model file that is not one ---------------------------------------------------------------

@pytest.mark.parametrize("content", [b"", b"the cat sat on the mat\n"])
def test_a_spm_model_file_that_is_no_model_is_exit_3_naming_it(files: Path, content: bytes) -> None:
    """A regular file that is not a model was exit 2 (a usage error) naming no file."""
    pytest.importorskip("sentencepiece")
    (files / "model.spm").write_bytes(content)
    result = invoke([str(files / "ref"), "-i", str(files / "hyp"), "-tok", "spm", "--spm-model",
                     str(files / "model.spm")])
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    assert "model.spm: not a SentencePiece model (" in _one_error_line(result.stderr)


# --- the variants' infinite scores and compare's --min-accuracy -----------------------------------------------

@pytest.mark.parametrize("args", [["ibleu", "ref", "-i", "hyp", "--source", "hyp2"],
                                  ["ibleu", "ref", "-i", "hyp", "--source", "hyp2", "--sentence-level"],
                                  ["pairwise", "pw.jsonl"]])
def test_an_infinite_variant_score_is_the_smoothing_values_usage_error(files: Path, args: list[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """floor 1e308 overflows 100 * k to inf: 'iBLEU came out as -inf' was a RuntimeError, exit 1."""
    (files / "pw.jsonl").write_text(json.dumps({"hypotheses": ["a b c", "a b d"], "references": ["a b c"]}) + "\n")
    monkeypatch.chdir(files)
    result = invoke([*args, "-s", "floor", "--smooth-value", "1e308"])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    assert "a smaller --smooth-value gives finite scores" in _one_error_line(result.stderr)


@pytest.mark.parametrize("extra", [["--min-accuracy", "0.5"], ["--min-accuracy", "0.5", "--html", "page.html"],
                                   ["--min-accuracy", "nan", "--fail-if-worse"]])
def test_compare_min_accuracy_errors_come_before_any_output(files: Path, extra: list[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """--min-accuracy without --fail-if-worse printed the whole report (or wrote the page), then exit 2;
    --min-accuracy nan was taken, and no accuracy is >= NaN: --fail-if-worse could never fail."""
    monkeypatch.chdir(files)
    result = invoke(["compare", "ref", "-i", "hyp", "hyp2", "-pbsn", "10", "-q", *extra])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    assert "--min-accuracy" in _one_error_line(result.stderr)
    assert not (files / "page.html").exists()


# --- output files: whole or not at all, and a device or FIFO is never replaced -------------------------------

@pytest.mark.parametrize("flag", ["--html", "--json"])  # (the Markdown summary is smaller than the limit)
def test_a_failed_compare_output_leaves_no_half_file(files: Path, flag: str) -> None:
    """Under `ulimit -f` (a full disk) compare wrote the first 20 KiB of the page under its name, exit 74."""
    lines = (files / "hyp").read_text().splitlines(True)
    (files / "big_ref").write_text((files / "ref").read_text() * 400)
    (files / "big_a").write_text("".join(lines) * 400)
    (files / "big_b").write_text((files / "hyp2").read_text() * 400)
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    result = subprocess.run([sys.executable, "-m", "bleucli", "compare", "big_ref", "-i", "big_a", "big_b",
                             "-pbsn", "10", "-q", flag, "out"], capture_output=True, env=env, cwd=files,
                            timeout=TIMEOUT, preexec_fn=limit)
    assert result.returncode == 74 and result.stdout == b"", result.stderr
    assert "out: File too large" in _one_error_line(result.stderr)
    assert sorted(path.name for path in files.iterdir() if path.name.startswith((".bleucli", "out"))) == []


@pytest.mark.parametrize("args", [["stats", "ref", "-i", "hyp", "-o", "fifo"],
                                  ["compare", "ref", "-i", "hyp", "hyp2", "-pbsn", "10", "-q", "--markdown", "fifo"]])
def test_output_to_a_fifo_is_written_in_place_not_replaced(files: Path, args: list[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """stats -o wrote a temporary file and renamed it over the name: a FIFO (or, as root, /dev/null) was
    replaced by a regular file and its reader never got a byte."""
    import stat
    import threading

    fifo = files / "fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    monkeypatch.chdir(files)
    result = invoke(args)
    replaced = not stat.S_ISFIFO(os.stat(fifo).st_mode)
    if not replaced:
        reader.join(10)  # the writer closed its end: the reader reaches the end and returns
        if reader.is_alive():  # nothing opened the FIFO for writing: release the reader blocked in open()
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # the reader has gone in the meantime
                pass
            reader.join(10)
    assert result.exit_code == 0, result.stderr
    assert not replaced
    assert received and received[0].strip()


def test_gleu_iterations_beyond_memory_fail_at_once(files: Path) -> None:
    """--iterations 10**20 drew reference choices for ever, in growing memory; now the option's range is that
    of the other resampling counts, and a count no memory holds is exit 10 before any drawing."""
    huge = invoke(["gleu", str(files / "ref"), "-i", str(files / "hyp"), "--source", str(files / "hyp2"),
                   "--iterations", HUGE])
    assert huge.exit_code == 2 and "'--iterations'" in _one_error_line(huge.stderr)
    result = _run(["gleu", "ref", "-i", "hyp", "--source", "hyp2", "--iterations", "2147483647"], cwd=files)
    assert result.returncode == 10 and result.stdout == b"", result.stderr
    assert "out of memory" in _one_error_line(result.stderr)


@pytest.mark.parametrize("address", ["tcp://", "tcp://[::1", "tcp://127.0.0.1:abc", "local:99999999999999999999"])
def test_a_malformed_dask_address_is_a_usage_error(files: Path, address: str) -> None:
    """distributed's ValueError on a malformed address was an internal error (exit 1); local:10**20 started
    worker processes until it was killed."""
    pytest.importorskip("distributed")
    result = invoke([str(files / "ref"), "-i", str(files / "hyp"), "--dask", address])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    assert "--dask" in _one_error_line(result.stderr)
