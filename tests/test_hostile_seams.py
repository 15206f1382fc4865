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

@pytest.mark.parametrize("method", ["floor", "add-k"])
@pytest.mark.parametrize("args", [["compare", "ref", "-i", "hyp", "hyp2"], ["self-bleu", "hyp"],
                                  ["ibleu", "ref", "-i", "hyp", "--source", "hyp2"],
                                  ["ibleu", "ref", "-i", "hyp", "--source", "hyp2", "--sentence-level"],
                                  ["pairwise", "pw.jsonl"]])
def test_a_smoothing_value_that_overflows_is_refused_by_every_command(files: Path, args: list[str], method: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """1e308 overflows 100 * k to inf: 'iBLEU came out as -inf' was a RuntimeError (exit 1), self-bleu printed
    0.0; every command refuses the value as the scoring command does (exit 2 naming --smooth-value)."""
    (files / "pw.jsonl").write_text(json.dumps({"hypotheses": ["a b c", "a b d"], "references": ["a b c"]}) + "\n")
    monkeypatch.chdir(files)
    result = invoke([*args, "-s", method, "--smooth-value", "1e308"])
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


# --- a key given twice in any JSON bleucli reads -----------------------------------------------------------------

def _shard_with_a_second(files: Path, key: str, value: str) -> Path:
    """A shard of ``bleucli stats`` whose header line holds ``key`` twice (the second time with ``value``)."""
    shard = files / "shard.json"
    assert invoke(["stats", str(files / "ref"), "-i", str(files / "hyp"), "-o", str(shard)]).exit_code == 0
    header, _, body = shard.read_text().partition("\n")
    document = json.loads(header)
    assert key in document
    first = json.dumps({key: document[key]}, separators=(",", ":"))[1:-1]
    assert first in header
    shard.write_text(header.replace(first, f'{first},"{key}":{value}', 1) + "\n" + body)
    return shard


DUPLICATED = {
    "--segment-scores JSON lines": (
        "scores.jsonl", '{"score": 0.3}\n{"score": 0.3, "score": 99}\n{"score": 0.1}\n',
        ["REF", "-i", "HYP", "--segment-scores", "comet", "FILE"],
        "scores.jsonl:2: not valid JSON: duplicated key score"),
    "--segment-scores COMET JSON": (
        "comet.json", '{"hyp": [\n {"COMET": 0.5},\n {"COMET": 0.1, "COMET": 0.9},\n {"COMET": 0.2}\n]}\n',
        ["REF", "-i", "HYP", "--segment-scores", "comet", "FILE"], "comet.json:3: not valid JSON: duplicated key "
                                                                     "hyp[1].COMET"),
    "--aligned JSON lines": (
        "aligned.jsonl", '{"hyp": "a b", "ref": "a b"}\n{"hyp": "a b", "ref": "a c", "hyp": "x"}\n',
        ["--aligned", "FILE"], "aligned.jsonl:2: invalid JSON (duplicated key hyp"),
    "--aligned JSON lines, -j 2": (
        "aligned.jsonl", '{"hyp": "a b", "ref": "a b"}\n' * 50 + '{"hyp": "a", "ref": {"x": 1, "x": 2}}\n',
        ["--aligned", "FILE", "-j", "2"], "aligned.jsonl:51: invalid JSON (duplicated key ref.x"),
    "pairwise": (
        "pw.jsonl", '{"hypotheses": ["a b", "a c"], "references": ["a b"], "references": ["x"]}\n',
        ["pairwise", "FILE"], "pw.jsonl:1: not valid JSON: duplicated key references"),
}


@pytest.mark.parametrize("case", list(DUPLICATED))
def test_a_duplicated_json_key_is_exit_3_naming_file_line_and_path(files: Path, case: str) -> None:
    """Python's parser keeps the last value of a repeated key: {"score": 0.3, "score": 99} scored 99, exit 0."""
    name, text, args, expected = DUPLICATED[case]
    (files / name).write_text(text)
    paths = {"REF": str(files / "ref"), "HYP": str(files / "hyp"), "FILE": str(files / name)}
    result = invoke([paths.get(arg, arg) for arg in args])
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    assert expected in _one_error_line(result.stderr)


@pytest.mark.parametrize("key, value", [("offset", "3"), ("segments", "2"), ("systems", '["x"]')])
def test_a_shard_with_a_duplicated_key_is_refused_by_merge(files: Path, key: str, value: str) -> None:
    shard = _shard_with_a_second(files, key, value)
    result = invoke(["merge", str(shard)])
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    assert f"shard.json: not a bleucli statistics shard: duplicated key {key} " in _one_error_line(result.stderr)


def test_a_per_segment_shard_line_with_a_duplicated_key_names_its_line(files: Path) -> None:
    shard = files / "rows.json"
    made = invoke(["stats", str(files / "ref"), "-i", str(files / "hyp"), "--per-segment", "-o", str(shard)])
    assert made.exit_code == 0, made.stderr
    lines = shard.read_text().splitlines()
    row = json.loads(lines[2])
    assert isinstance(row, (dict, list))
    lines[2] = '{"a": 1, "a": 2}' if isinstance(row, list) else lines[2][:-1] + ', "' + next(iter(row)) + '": 0}'
    shard.write_text("\n".join(lines) + "\n")
    result = invoke(["merge", str(shard)])
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    assert "rows.json:3: duplicated key " in _one_error_line(result.stderr)


def test_the_json_reader_names_the_first_repeated_key_with_its_path_and_line() -> None:
    from bleucli.input.bounded import DuplicateKeyError, loads

    assert loads('{"a": [1, {"b": 2}], "c": {"d": {}}}') == {"a": [1, {"b": 2}], "c": {"d": {}}}
    cases = {'{"score": 0.3, "score": 99}': ("score", 1),
             '{"a": [1, {"b": 1}],\n "s": [{}, {"x y": 1,\n "x y": 2}]}': ('s[1]["x y"]', 3),
             '[{"a": 1, "a": {"b": 1, "b": 2}}]': ("[0].a", 1),
             '{"k" : "v\\"" , "k": 1}': ("k", 1)}
    for text, (path, line) in cases.items():
        with pytest.raises(DuplicateKeyError) as raised:
            loads(text)
        assert (raised.value.path, raised.value.lineno) == (path, line), text
        assert isinstance(raised.value, ValueError)


def test_a_cache_manifest_with_a_duplicated_key_is_taken_as_damaged(tmp_path: Path) -> None:
    """The test-set cache's manifests are read through the same reader: a repeated key is a damaged manifest
    (``None``: prepared again), not one of its two values."""
    from bleucli.testsets.cache import read_json

    (tmp_path / "manifest.json").write_text('{"fields": 1, "fields": 2}')
    (tmp_path / "good.json").write_text('{"fields": 1}')
    assert read_json(tmp_path / "manifest.json") is None
    assert read_json(tmp_path / "good.json") == {"fields": 1}


# --- segment scores beyond what a float32 resample can sum ------------------------------------------------------

@pytest.mark.parametrize("mode", [["-pbs"], ["-par"], ["-ci", "-cin", "10"], [], ["compare"]])
def test_segment_scores_beyond_the_float32_range_are_exit_3_naming_the_line(files: Path, mode: list[str]) -> None:
    """1e39 with -pbs/-ci was exit 2 with a --smooth-value hint (the data was at fault, not the options), and
    with -par exit 0 with wrong p-values (the randomized deltas overflowed in float32)."""
    (files / "big").write_text("0.3\n1e39\n0.1\n")
    (files / "ok").write_text("0.3\n0.2\n0.1\n")
    inputs = [str(files / "ref"), "-i", str(files / "hyp"), str(files / "hyp2"), "--segment-scores", "comet",
              str(files / "big"), str(files / "ok")]
    result = invoke(["compare", *inputs, "-pbsn", "10"] if mode == ["compare"] else [*inputs, *mode])
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    line = _one_error_line(result.stderr)
    assert "big:2: 1e+39 is beyond the range of segment scores" in line and "3.333e+37" in line, line
    assert "--smooth-value" not in line


def test_segment_scores_within_the_range_are_resampled(files: Path) -> None:
    (files / "large").write_text("3e37\n-3e37\n1e37\n")
    (files / "ok").write_text("0.3\n0.2\n0.1\n")
    result = invoke([str(files / "ref"), "-i", str(files / "hyp"), str(files / "hyp2"), "--segment-scores", "comet",
                     str(files / "large"), str(files / "ok"), "-pbs", "-pbsn", "20", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["comet"]["score"] == pytest.approx(1e37 / 3)


# --- a smoothing value that makes a score infinite --------------------------------------------------------------

INFINITE_SMOOTHING = {
    "text": ["-f", "text"], "json": ["-f", "json"], "score only": ["-b"], "-sl": ["-sl"],
    "-ci": ["-ci", "-cin", "10"], "-pbs": ["-i", "hyp2", "-pbs", "-pbsn", "10"],
    "-par": ["-i", "hyp2", "-par", "-parn", "10"],
}


@pytest.mark.parametrize("method", ["add-k", "floor"])
@pytest.mark.parametrize("mode", list(INFINITE_SMOOTHING))
def test_a_smoothing_value_that_makes_a_score_infinite_is_refused(files: Path, method: str, mode: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """-s add-k -sv 1e308 printed "score": Infinity (not JSON) with exit 0, as sacreBLEU prints inf."""
    monkeypatch.chdir(files)
    result = invoke(["ref", "-i", "hyp", *INFINITE_SMOOTHING[mode], "-s", method, "-sv", "1e308"])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    assert "--smooth-value" in _one_error_line(result.stderr)


def test_the_largest_smoothing_value_gives_finite_scores_and_the_api_refuses_one_more() -> None:
    """The limit is exact: 100 x the largest accepted value is finite, 100 x the next float is not."""
    import math

    from bleucli import BLEU
    from bleucli.errors import OptionError
    from bleucli.metrics.bleu import MAX_SMOOTH_VALUE

    assert math.isfinite(100.0 * MAX_SMOOTH_VALUE) and not math.isfinite(100.0 * math.nextafter(MAX_SMOOTH_VALUE,
                                                                                                   math.inf))
    hyps, refs = ["the cat sat on a mat", "hello there"], [["the cat sat on the mat", "hello world"]]
    for method in ("add-k", "floor"):
        score = BLEU(smooth_method=method, smooth_value=MAX_SMOOTH_VALUE).corpus_score(hyps, refs)
        assert math.isfinite(score.score) and all(math.isfinite(p) for p in score.precisions)
        with pytest.raises(OptionError, match="--smooth-value"):
            BLEU(smooth_method=method, smooth_value=math.nextafter(MAX_SMOOTH_VALUE, math.inf))


# --- options given without the option they need, and -e ---------------------------------------------------------

def test_human_accuracy_without_a_paired_test_is_a_usage_error(files: Path) -> None:
    """--human-accuracy without -pbs/-par was ignored silently."""
    for extra in ([], ["-ci", "-cin", "10"]):
        result = invoke([str(files / "ref"), "-i", str(files / "hyp"), "--human-accuracy", *extra])
        assert result.exit_code == 2 and result.stdout == "", result.stderr
        line = _one_error_line(result.stderr)
        assert "--human-accuracy needs -pbs or -par" in line
    paired = invoke([str(files / "ref"), "-i", str(files / "hyp"), str(files / "hyp2"), "-pbs", "-pbsn", "10",
                     "--human-accuracy", "-f", "text"])
    assert paired.exit_code == 0, paired.stderr
    for option in ("--human-accuracy", "-d"):  # stats has no -pbs/-par and prints no score: both were ignored
        shard = invoke(["stats", str(files / "ref"), "-i", str(files / "hyp"), option])
        assert shard.exit_code == 2 and option in _one_error_line(shard.stderr)


@pytest.mark.parametrize("command", [[], ["stats"], ["compare"], ["rank"]])
@pytest.mark.parametrize("encoding", ["nonsense", "rot13", "undefined"])
def test_an_unknown_encoding_is_a_usage_error_naming_the_option(files: Path, command: list[str],
                                                                encoding: str) -> None:
    """-e nonsense was exit 3 (bad data) once the first file was decoded, -e undefined an internal error; the data
    is not at fault. The name is checked before any input is opened (after the other options, so that
    `-l -de`'s message stays the one about -l)."""
    systems = [str(files / "hyp"), str(files / "hyp2")] if command in (["compare"], ["rank"]) else [str(files / "hyp")]
    result = invoke([*command, str(files / "ref"), "-i", *systems, "-e", encoding])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    line = _one_error_line(result.stderr)
    assert "--encoding: " in line and encoding in line


def test_the_readers_raise_the_usage_error_for_an_unknown_encoding(files: Path) -> None:
    from bleucli.errors import OptionError
    from bleucli.input.reading import read_source

    with pytest.raises(OptionError, match="--encoding: unknown encoding 'nonsense'"):
        read_source(str(files / "ref"), "nonsense")


# --- the out-of-memory line names the options of the command that ran ---------------------------------------------

def test_the_out_of_memory_line_of_gleu_names_its_iterations(files: Path) -> None:
    result = _run(["gleu", "ref", "-i", "hyp", "--source", "hyp2", "--iterations", "2147483647"], cwd=files)
    assert result.returncode == 10 and result.stdout == b"", result.stderr
    line = _one_error_line(result.stderr)
    assert "fewer resamples (--iterations) or smaller inputs need less" in line and "-cin" not in line


@pytest.mark.parametrize("command, advice", [
    ("score", "fewer resamples (-cin, -pbsn, -parn), fewer systems, fewer -j workers or smaller inputs"),
    ("compare", "fewer resamples (-pbsn, -parn), fewer systems, fewer -j workers or smaller inputs"),
    ("gleu", "fewer resamples (--iterations) or smaller inputs"),
    ("self-bleu", "smaller inputs"), ("multi-bleu", "smaller inputs"),
    ("stats", "fewer systems, fewer -j workers or smaller inputs"),
])
def test_the_out_of_memory_advice_follows_the_command(command: str, advice: str) -> None:
    """The advice was the scoring command's (-cin, -pbsn, -parn) for every command, gleu and multi-bleu too."""
    from bleucli.cli import _needing_less, cli

    ctx = cli.make_context("bleucli", [command, "--help"], resilient_parsing=True)
    cli.resolve_command(ctx, [command])
    assert _needing_less() == advice


# --- the family commands' long lines -----------------------------------------------------------------------------

@pytest.mark.parametrize("args, stdin", [(["nltk", "long"], "hyp"), (["nltk", "ref"], "long"),
                                         (["self-bleu", "-"], "long"), (["pairwise", "long"], None),
                                         (["multi-bleu", "ref"], "long"), (["multi-bleu", "long"], "hyp"),
                                         (["gleu", "ref", "-i", "long", "--source", "hyp"], None)])
def test_a_family_commands_long_line_message_names_no_option_it_lacks(files: Path, args: list[str],
                                                                      stdin: str | None,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The family commands said "raise the limit with --max-line-bytes", an option they do not take."""
    (files / "long").write_text("a" * (1 << 20) + "b\n")
    monkeypatch.chdir(files)
    result = invoke(args, input=None if stdin is None else (files / stdin).read_bytes())
    assert result.exit_code == 3 and result.stdout == "", result.stderr
    line = _one_error_line(result.stderr)
    assert ":1: line is longer than 1,048,576 bytes: not text? (this command's fixed limit" in line
    assert "raise the limit with --max-line-bytes" not in line
