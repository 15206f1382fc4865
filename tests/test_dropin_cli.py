"""Issue 16's command-line drop-in items: what a sacreBLEU user's script passes or expects.

Each test fails on the bleucli before the fix; ``oracle`` tests run sacreBLEU
2.6.0 itself on the same files and compare the output.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bleucli import __version__
from conftest import EXAMPLES, REPO, invoke, run_subprocess
from fast_subset import slow_except
from terminal import run_in_pty

HAS_SACREBLEU = importlib.util.find_spec("sacrebleu") is not None
SLOW = pytest.mark.slow
needs_sacrebleu = pytest.mark.skipif(not HAS_SACREBLEU, reason="needs sacrebleu 2.6.0 (the oracle extra)")


def sacrebleu(args: list[str], stdin: bytes | None = None, cwd: Path | None = None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """sacreBLEU 2.6.0's command line, as a real process (no colours, no format variable)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "NO_COLOR")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "sacrebleu", *args], input=stdin, capture_output=True,
                          cwd=cwd, env=environ)


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ 16: -nr N strips the end of the line only

def test_num_refs_keeps_trailing_spaces_inside_a_line(tmp_path: Path) -> None:
    """sacreBLEU rstrip()s the line, then splits it: 'a b ' keeps its space for --chrf-whitespace."""
    refs = write(tmp_path / "refs.tsv", ["a b \tab"])
    hyp = write(tmp_path / "hyp", ["a b"])
    result = invoke([refs, "-nr", "2", "-i", hyp, "-m", "chrf", "--chrf-whitespace", "-b", "-w", "4"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "68.8623\n"  # sacreBLEU 2.6.0; bleucli printed 100.0000


@pytest.mark.oracle
@needs_sacrebleu
@pytest.mark.parametrize("lines", slow_except([["a b \tab"], ["a b\t a b "], ["x  \t\ty \t z  \t"], ["a\tb c \r"]],
                                              [["a b \tab"]]))
def test_num_refs_whitespace_matches_sacrebleu(tmp_path: Path, lines: list[str]) -> None:
    refs = write(tmp_path / "refs.tsv", lines)
    nrefs = str(lines[0].rstrip().count("\t") + 1)
    hyp = write(tmp_path / "hyp", ["a b"])
    args = [refs, "-nr", nrefs, "-i", hyp, "-m", "chrf", "bleu", "--chrf-whitespace", "-b", "-w", "6"]
    theirs = sacrebleu(args)
    assert theirs.returncode == 0, theirs.stderr
    ours = invoke(args)
    assert ours.exit_code == 0, ours.stderr
    assert json.loads(ours.stdout) == json.loads(theirs.stdout)


# ------------------------------------------------------------------ 6: BLEU above 100 (floor smoothing, -sv > 1)

FLOOR_OUTPUTS = [[], ["-f", "text"], ["-b"], ["-sl"], ["-m", "bleu", "chrf", "-b"],
                 ["-m", "bleu", "chrf", "-f", "text"], ["-ci", "-f", "text"]]


@pytest.fixture
def floor_files(tmp_path: Path) -> tuple[str, str]:
    return write(tmp_path / "ref", ["a b c e"]), write(tmp_path / "hyp", ["a b c d"])


def test_bleu_above_100_is_printed_not_an_internal_error(floor_files: tuple[str, str]) -> None:
    ref, hyp = floor_files
    result = run_subprocess([ref, "-i", hyp, "-s", "floor", "-sv", "1e6", "-w", "4", "-b"])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"2236.0680\n", b"")
    record = json.loads(run_subprocess([ref, "-i", hyp, "-s", "floor", "-sv", "1e6"]).stdout)
    assert record["score"] == 2236.1 and record["unrounded_score"] == 2236.0679774997902


@pytest.mark.parametrize("mode", [["-b"], [], ["-f", "text"], ["-sl"]])
def test_infinite_bleu_is_refused_naming_the_smoothing_value(floor_files: tuple[str, str], mode: list[str]) -> None:
    """-sv 1e308 overflows a precision to inf: sacreBLEU prints 'inf' (and Infinity, not JSON); bleucli never
    prints a non-finite score: the value is refused before anything is read, a usage error (exit 2)."""
    ref, hyp = floor_files
    result = invoke([ref, "-i", hyp, "-s", "floor", "-sv", "1e308", *mode])
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    assert "--smooth-value" in result.stderr and "inf" in result.stderr and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("mode", slow_except([["-ci"], ["-ci", "-f", "text"], ["-pbs"], ["-par"]], [["-pbs"]]))
def test_infinite_bleu_has_no_interval_or_p_value(floor_files: tuple[str, str], mode: list[str]) -> None:
    """inf - inf is NaN (sacreBLEU prints 'μ = inf ± nan'): a usage error naming the cause, exit 2."""
    ref, hyp = floor_files
    systems = [hyp, ref] if mode[0] != "-ci" else [hyp]
    result = run_subprocess([ref, "-i", *systems, "-s", "floor", "-sv", "1e308", *mode])
    assert result.returncode == 2 and result.stdout == b""
    assert b"inf" in result.stderr and b"--smooth-value" in result.stderr and b"Traceback" not in result.stderr


@pytest.mark.oracle
@needs_sacrebleu
@pytest.mark.parametrize("value", slow_except(["1e6", "1e300", "1e306"], {"1e306"}))
@pytest.mark.parametrize("mode", FLOOR_OUTPUTS)
def test_bleu_above_100_matches_sacrebleu(floor_files: tuple[str, str], value: str, mode: list[str]) -> None:
    if value != "1e6" and "-ci" in mode:
        pytest.skip("sacreBLEU's interval is 'inf ± nan' there: refused by bleucli (the test above)")
    ref, hyp = floor_files
    args = [ref, "-i", hyp, "-s", "floor", "-sv", value, "-w", "4", *mode]
    theirs = sacrebleu(args)
    ours = invoke(args)
    assert (ours.exit_code, theirs.returncode) == (0, 0), ours.stderr
    expected = theirs.stdout.decode().replace("version:2.6.0", f"version:{__version__}")
    if mode:
        assert ours.stdout == expected
    else:  # JSON: sacreBLEU's keys and values (bleucli's extras come after them)
        mine, their = json.loads(ours.stdout), json.loads(expected)
        their["version"] = __version__
        assert {key: mine[key] for key in their} == their


# ------------------------------------------------------------------ 3: tab-separated stdin

def _pasted(*names: str) -> bytes:
    columns = [(EXAMPLES / name).read_text(encoding="utf-8").splitlines() for name in names]
    return "".join("\t".join(row) + "\n" for row in zip(*columns)).encode()


def test_pasted_systems_on_stdin_are_a_table_through_a_real_pipe() -> None:
    """`paste a b | bleucli ref -f text`: sacreBLEU's two-system table (it printed one wrong score, exit 0)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("BLEUCLI_FORMAT", None)
    ref = str(EXAMPLES / "ref.de")
    pipeline = subprocess.run(
        f"paste {EXAMPLES / 'Online-B.de'} {EXAMPLES / 'Lan-Bridge.de'} | {sys.executable} -m bleucli {ref} -f text",
        shell=True, capture_output=True, env=env, executable="/bin/bash")
    assert pipeline.returncode == 0 and pipeline.stderr == b"", pipeline.stderr
    rows = pipeline.stdout.decode().splitlines()
    assert rows[3] == "│ System 1 │  38.6  │" and rows[5] == "│ System 2 │  39.3  │"


def test_lines_with_a_different_number_of_tabs_fail_naming_stdin_and_the_line() -> None:
    ref = str(EXAMPLES / "ref.de")
    one_line_differs = (EXAMPLES / "Online-B.de").read_bytes().replace(b"\n", b"\textra\n", 1)
    for stdin, line in [(one_line_differs, 2),
                        (_pasted("Online-B.de", "Lan-Bridge.de").replace(b"\t", b" ", 1), 2),
                        ((EXAMPLES / "Online-B.de").read_bytes() + b"a\tb\n", 101)]:
        result = run_subprocess([ref, "-b"], stdin=stdin)
        assert result.returncode == 3 and result.stdout == b""
        assert result.stderr.decode().startswith(f"bleucli: error: <stdin>:{line}: "), result.stderr
        assert b"--no-tsv" in result.stderr and result.stderr.count(b"\n") == 1


def test_no_tsv_reads_stdin_as_one_system_whose_lines_hold_tabs() -> None:
    ref = str(EXAMPLES / "ref.de")
    ragged = (EXAMPLES / "Online-B.de").read_bytes().replace(b" ", b"\t", 3)
    result = run_subprocess([ref, "-b", "--no-tsv"], stdin=ragged)
    assert (result.returncode, result.stderr) == (0, b"")
    spaced = run_subprocess([ref, "-b"], stdin=ragged.replace(b"\t", b" "))
    assert result.stdout == spaced.stdout  # a tab is whitespace inside a hypothesis


def test_sentence_level_refuses_several_stdin_columns() -> None:
    result = run_subprocess([str(EXAMPLES / "ref.de"), "-sl"], stdin=_pasted("Online-B.de", "Lan-Bridge.de"))
    assert result.returncode == 2 and result.stdout == b"" and b"--no-tsv" in result.stderr


@pytest.mark.oracle
@needs_sacrebleu
@pytest.mark.parametrize("mode", [["-f", "text"], [], pytest.param(["-m", "bleu", "chrf", "-f", "text"], marks=SLOW),
                                  pytest.param(["-pbs", "-pbsn", "20", "-f", "text"], marks=SLOW),
                                  pytest.param(["-par", "-parn", "20"], marks=SLOW)])
def test_stdin_columns_match_sacrebleu(mode: list[str]) -> None:
    stdin = _pasted("Online-B.de", "Lan-Bridge.de", "Online-B.de")
    args = ["ref.de", *mode]
    theirs = sacrebleu(args, stdin=stdin, cwd=EXAMPLES)
    ours = run_subprocess([str(EXAMPLES / "ref.de"), *mode], stdin=stdin)
    assert (ours.returncode, theirs.returncode) == (0, 0), ours.stderr
    expected = theirs.stdout.decode().replace("version:2.6.0", f"version:{__version__}")
    # sacreBLEU names no baseline for stdin columns ("compared to ."); bleucli names it, "Baseline"
    expected = expected.replace("pairwise compared to .", "pairwise compared to Baseline.")
    if "-f" in mode:
        assert ours.stdout.decode() == expected
    else:  # JSON: sacreBLEU's list, each entry a subset of ours
        mine, their = json.loads(ours.stdout), json.loads(expected)
        assert [{k: m[k] for k in t} if "-par" not in mode else {"system": m["system"]}
                for m, t in zip(mine, their)] == ([{"system": t["system"]} for t in their] if "-par" in mode
                                                  else their)


# ------------------------------------------------------------------ 4: -nc, colours on a terminal, SACREBLEU_FORMAT

def _tty_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "SACREBLEU_FORMAT", "BLEUCLI_FORMAT")}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


PAIRED = ["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-pbs", "-pbsn", "100", "-f", "text"]
RED_P_VALUE = "\x1b[31m(p = "


@pytest.mark.slow
def test_p_values_are_red_on_a_terminal_only(tmp_path: Path) -> None:
    bleucli = [sys.executable, "-m", "bleucli"]
    code, tty = run_in_pty([*bleucli, *PAIRED], _tty_env(), tmp_path, EXAMPLES)
    assert code == 0 and RED_P_VALUE.encode() in tty, tty
    assert b"\x1b[33mBaseline: Online-B.de\x1b[0m" in tty  # the baseline in yellow, as sacreBLEU
    for flags, env in ([["-nc"], _tty_env()], [["--no-color"], _tty_env()], [[], _tty_env(NO_COLOR="1")]):
        code, plain = run_in_pty([*bleucli, *PAIRED, *flags], env, tmp_path, EXAMPLES)
        assert code == 0 and b"\x1b[" not in plain and b"(p = " in plain
    piped = subprocess.run([*bleucli, *PAIRED], capture_output=True, env=_tty_env(), cwd=EXAMPLES)
    assert piped.returncode == 0 and b"\x1b[" not in piped.stdout  # not a terminal: no colour


@pytest.mark.oracle
@needs_sacrebleu
@pytest.mark.parametrize("args", [
    PAIRED,
    pytest.param(["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-par", "-parn", "50", "-f", "text"], marks=SLOW),
    pytest.param(["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-f", "text", "-m", "bleu", "chrf"], marks=SLOW),
    pytest.param(["ref.de", "-i", "Online-B.de", "-ci", "-cin", "50", "-f", "text", "-m", "bleu", "ter"], marks=SLOW),
    pytest.param(["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-pbs", "-pbsn", "50", "-f", "text", "-nc"],
                 marks=SLOW),
])
def test_terminal_colours_match_sacrebleu(tmp_path: Path, args: list[str]) -> None:
    code, ours = run_in_pty([sys.executable, "-m", "bleucli", *args], _tty_env(), tmp_path, EXAMPLES)
    their_code, theirs = run_in_pty([sys.executable, "-m", "sacrebleu", *args], _tty_env(), tmp_path, EXAMPLES)
    assert (code, their_code) == (0, 0)
    theirs = theirs.removesuffix(b"\x1b[0m")  # colorama resets the terminal at exit: invisible
    assert ours.decode() == theirs.decode().replace("version:2.6.0", f"version:{__version__}")


@pytest.mark.parametrize(("variables", "flags", "shape"), [
    ({"SACREBLEU_FORMAT": "text"}, [], "text"),
    ({"SACREBLEU_FORMAT": "TEXT"}, [], "text"),  # any case, as sacreBLEU reads it
    ({"SACREBLEU_FORMAT": "yaml"}, [], "json"),  # not one of sacreBLEU's formats: ignored, as sacreBLEU does
    ({"SACREBLEU_FORMAT": "text", "BLEUCLI_FORMAT": "json"}, [], "json"),  # bleucli's own variable first
    ({"SACREBLEU_FORMAT": "text"}, ["-f", "json"], "json"),  # a flag wins over a variable in bleucli
])
def test_sacrebleu_format_is_honoured_where_bleucli_format_is_unset(variables: dict[str, str], flags: list[str],
                                                                     shape: str) -> None:
    env = _tty_env(**variables)
    result = subprocess.run([sys.executable, "-m", "bleucli", "ref.de", "-i", "Online-B.de", *flags],
                            capture_output=True, env=env, cwd=EXAMPLES)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"BLEU|" if shape == "text" else b"{")


# ------------------------------------------------------------------ 7: help, global options before a command, README

def test_help_is_an_overview_of_usages_grouped_options_commands_and_exit_codes() -> None:
    from bleucli.cli import LAZY_COMMANDS
    from bleucli.clikit.report import ExitCode

    for flag in ("--help", "-h"):
        result = run_subprocess([flag])
        assert result.returncode == 0 and result.stderr == b""
        text = result.stdout.decode()
        assert text.startswith("Usage: bleucli [OPTIONS] REF... [-i SYSTEM...]\n"
                               "       bleucli [OPTIONS] COMMAND [ARGS]...\n")
        assert "bleucli score" not in text.splitlines()[0]
        sections = [line[:-1] for line in text.splitlines() if line and not line[0].isspace() and line.endswith(":")]
        assert sections[:3] == ["Input", "Standard test sets", "Metrics"] and "Other options" not in sections
        assert sections[-2:] == ["Commands", "Exit codes"]
        commands = text.split("\nCommands:\n")[1].split("\n\n")[0]
        names = [line.split()[0] for line in commands.splitlines() if not line.startswith("   ")]
        assert sorted(names) == sorted({"score", *LAZY_COMMANDS})
        assert "(Napoles et al. 2015/2016)" in " ".join(commands.split())  # not cut at "et al."
        codes = text.split("\nExit codes:\n")[1]
        assert [int(line.split()[0]) for line in codes.splitlines() if line[:3].strip().isdigit()] == \
            [int(code) for code in ExitCode]


def test_each_error_class_carries_its_documented_exit_code() -> None:
    from bleucli import errors
    from bleucli.clikit.report import exit_code_for
    from bleucli.shards.format import ShardError

    expected = {"BleucliError": 3, "OptionError": 2, "InputError": 3, "LengthMismatchError": 3,
                "SegmentTooLongError": 3, "SignatureMismatchError": 7, "TestSetError": 3, "UnknownTestSetError": 2,
                "UnknownLanguagePairError": 2, "UnknownFieldError": 2, "RegistryError": 6, "DownloadError": 4,
                "RedirectError": 6, "IntegrityError": 5, "NotCachedError": 5, "UnsafeArchiveError": 6,
                "CacheError": 3}
    for name, code in expected.items():
        cls = getattr(errors, name)
        assert int(exit_code_for(cls.__new__(cls))) == code, name
    assert int(exit_code_for(ShardError("x"))) == 3
    assert int(exit_code_for(KeyError("x"))) == 1  # anything else is a bug


def test_every_scoring_option_has_a_section() -> None:
    from bleucli.cli.score import score
    from bleucli.clikit.help import OTHER, grouped_help_records

    ctx = score.make_context("bleucli", [], resilient_parsing=True)
    groups = grouped_help_records(score, ctx)
    assert OTHER not in [title for title, _ in groups]
    shown = sum(len(rows) for _, rows in groups)
    assert shown == len([p for p in score.get_params(ctx) if isinstance(p, __import__("click").Option)])
    assert "Exit codes:" in invoke(["score", "--help"]).stdout


def test_options_before_a_command_apply_to_it(tmp_path: Path) -> None:
    cache = tmp_path / "my cache"
    result = run_subprocess(["--cache-dir", str(cache), "cache", "path"])
    assert (result.returncode, result.stdout.decode()) == (0, f"{cache}\n"), result.stderr
    for args in (["--cache-dir", str(cache), "cache", "list"], ["-q", "cache", "list"],
                 [f"--cache-dir={cache}", "-q", "cache", "list"], ["-q", "score", "--version"]):
        result = run_subprocess(args)
        assert result.returncode == 0 and result.stderr == b"", (args, result.stderr)
    result = run_subprocess(["--offline", "cache", "list"])
    assert result.returncode == 2 and b"--offline does not apply to 'bleucli cache list'" in result.stderr


def test_the_readme_has_no_command_that_pastes_as_a_pipeline_of_subcommands() -> None:
    """`bleucli cache list | verify | ...` ran `verify` as a shell command."""
    import re

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:sh|console|bash)\n(.*?)```", readme, flags=re.S)
    for line in (line for block in blocks for line in block.splitlines()):
        for stage in line.split("#")[0].split("|")[1:]:
            assert stage.split()[:1] != [] and stage.split()[0] not in ("verify", "remove", "path", "list"), line


@pytest.mark.oracle
@pytest.mark.slow
@needs_sacrebleu
@pytest.mark.parametrize("extra", [[], ["-m", "chrf", "ter", "-b"], ["-f", "json", "-ci", "-cin", "20"]])
def test_detail_without_a_test_set_matches_sacrebleu(extra: list[str]) -> None:
    """-d with reference files: the score as text, then sacreBLEU's "No subset information found" line."""
    args = ["ref.de", "-i", "Online-B.de", "-d", *extra]
    theirs = sacrebleu(args, cwd=EXAMPLES)
    ours = subprocess.run([sys.executable, "-m", "bleucli", *args], capture_output=True, cwd=EXAMPLES,
                          env=_tty_env())
    assert (ours.returncode, theirs.returncode) == (0, 0), ours.stderr
    assert ours.stdout.decode() == theirs.stdout.decode().replace("2.6.0", __version__)
