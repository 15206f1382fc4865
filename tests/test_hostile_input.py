"""Issue 17: bounded and honest under hostile input (endless streams, full disks, broken pipes, huge lines).

Every case runs the real CLI (or the real writer) in a real subprocess with a
memory ceiling and a timeout, so a regression shows as a failed assertion, not
as a machine that swaps or a test run that hangs.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO
from fast_subset import slow_except

MEMORY_CEILING = 1 << 30  # 1 GiB of address space for every child process
TIMEOUT = 60


def _limits(file_size: int | None = None) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CEILING, MEMORY_CEILING))
        if file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    return apply


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra)
    env.pop("BLEUCLI_FORMAT", None)
    env.pop("PYTHONUNBUFFERED", None)
    env.update(extra)
    return env


def _bash(command: str, **extra: str) -> subprocess.CompletedProcess[bytes]:
    """Run a shell pipeline; its last line of stdout is ``rc=<exit code of the first command>``."""
    return subprocess.run(["bash", "-c", f"{command}; echo rc=${{PIPESTATUS[0]}}"], capture_output=True,
                          env=_env(**extra), cwd=REPO, timeout=TIMEOUT, preexec_fn=_limits())


@pytest.fixture(scope="module")
def big_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """40,000 lines: `-sl` writes megabytes, far more than a pipe holds."""
    folder = tmp_path_factory.mktemp("big")
    ref, hyp = folder / "ref.de", folder / "hyp.de"
    ref.write_bytes((EXAMPLES / "ref.de").read_bytes() * 400)
    hyp.write_bytes((EXAMPLES / "Online-B.de").read_bytes() * 400)
    return ref, hyp


# --- 16.2 / 17.4: a reader that goes away gives 141, buffered or not ---------------------------------------


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("reader", ["head -n 1", "true"])
def test_broken_pipe_exits_141(big_pair: tuple[Path, Path], unbuffered: str, reader: str) -> None:
    ref, hyp = big_pair
    extra = {"PYTHONUNBUFFERED": unbuffered} if unbuffered else {}
    result = _bash(f"{sys.executable} -m bleucli {ref} -i {hyp} -sl | {reader}", **extra)
    assert result.stdout.splitlines()[-1] == b"rc=141", result
    assert b"Traceback" not in result.stderr and b"error" not in result.stderr, result.stderr


# --- 17.2 / 17.3: a result that cannot be written in full is exit 74, whatever the buffering -------------------

_EMIT_BIG = (
    "import sys\n"
    "from bleucli.cli import _run_guarded\n"
    "from bleucli.clikit.output import emit\n"
    "sys.exit(_run_guarded(lambda: emit('x' * 3_000_000)))\n"
)


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "unbuffered"])
def test_size_limited_output_is_exit_74(tmp_path: Path, unbuffered: str) -> None:
    """`ulimit -f`: the kernel takes part of one large write and says nothing; the rest must be reported."""
    out = tmp_path / "out.txt"
    extra = {"PYTHONUNBUFFERED": unbuffered} if unbuffered else {}
    with out.open("wb") as sink:
        result = subprocess.run([sys.executable, "-c", _EMIT_BIG], stdout=sink, stderr=subprocess.PIPE,
                                env=_env(**extra), timeout=TIMEOUT, preexec_fn=_limits(file_size=1 << 20))
    assert out.stat().st_size == 1 << 20  # the limit was reached: the test did exercise a short write
    assert result.returncode == 74, result.stderr
    assert result.stderr.count(b"\n") == 1 and b"cannot write output" in result.stderr


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "unbuffered"])
def test_unbuffered_pipe_closed_mid_write_is_141(unbuffered: str) -> None:
    """One large write into a pipe whose reader leaves: the kernel returns a partial count, not EPIPE."""
    extra = {"PYTHONUNBUFFERED": unbuffered} if unbuffered else {}
    script = _EMIT_BIG.replace("'", '"')
    result = _bash(f"{sys.executable} -c '{script}' | head -c 10 >/dev/null", **extra)
    assert result.stdout.splitlines()[-1] == b"rc=141", result


def test_dev_full_is_one_line_exit_74(big_pair: tuple[Path, Path]) -> None:
    ref, hyp = big_pair
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this machine")
    for unbuffered in ("", "1"):
        extra = {"PYTHONUNBUFFERED": unbuffered} if unbuffered else {}
        with open("/dev/full", "wb") as full:
            result = subprocess.run([sys.executable, "-m", "bleucli", str(ref), "-i", str(hyp), "-q"], stdout=full,
                                    stderr=subprocess.PIPE, env=_env(**extra), timeout=TIMEOUT,
                                    preexec_fn=_limits())
        assert result.returncode == 74, result.stderr
        assert result.stderr.count(b"\n") == 1, result.stderr


# --- 17.1: endless input is refused as it arrives, in flat memory ----------------------------------------------

ENDLESS_CEILING = 512 << 20  # address space: the old reader passed it within a second of /dev/zero


def _endless_limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ENDLESS_CEILING, ENDLESS_CEILING))


@pytest.mark.parametrize("where", ["hypothesis", "reference", "stdin", "stdin-no-nul", "file-j2"])
def test_endless_input_is_exit_3_in_flat_memory(tmp_path: Path, where: str) -> None:
    ref = str(EXAMPLES / "ref.de")
    if where == "stdin-no-nul":  # no NUL, no newline: only the line limit stops it
        command = f"yes | tr -d '\\n' | {sys.executable} -m bleucli {ref} -b"
    elif where == "file-j2":  # a regular file of one 3 MB line, indexed for worker processes
        long_line = tmp_path / "long.txt"
        long_line.write_bytes(b"a " * 1_500_000 + b"\n")
        command = f"{sys.executable} -m bleucli {long_line} -i {long_line} -b -j 2"
    else:
        args = {"hypothesis": f"{ref} -i /dev/zero", "reference": f"/dev/zero -i {ref}",
                "stdin": f"{ref} < /dev/zero"}[where]
        command = f"{sys.executable} -m bleucli {args} -b"
    result = subprocess.run(["bash", "-c", command], capture_output=True, env=_env(), timeout=TIMEOUT,
                            preexec_fn=_endless_limits)
    assert result.returncode == 3, result.stderr
    assert result.stdout == b""
    assert result.stderr.count(b"\n") == 1 and b"Traceback" not in result.stderr
    assert b":1: " in result.stderr  # file and line


def test_max_line_bytes_raises_the_limit(tmp_path: Path) -> None:
    long_line = tmp_path / "long.txt"
    long_line.write_bytes(b"x\n" * 5 + b"a " * 600_000 + b"\n")
    refused = subprocess.run([sys.executable, "-m", "bleucli", str(long_line), "-i", str(long_line), "-b"],
                             capture_output=True, env=_env(), timeout=TIMEOUT, preexec_fn=_limits())
    assert refused.returncode == 3 and f"{long_line}:6: line is longer than 1,048,576 bytes".encode() in refused.stderr
    for value in ("2000000", "0"):
        accepted = subprocess.run([sys.executable, "-m", "bleucli", str(long_line), "-i", str(long_line), "-b",
                                   "--max-line-bytes", value], capture_output=True, env=_env(), timeout=TIMEOUT,
                                  preexec_fn=_limits())
        assert (accepted.returncode, accepted.stdout) == (0, b"100.0\n"), accepted.stderr


# --- 17.6: TER refuses a segment over --ter-max-words instead of running for minutes -----------------------------


def test_ter_long_segment_is_refused_with_file_and_line(tmp_path: Path) -> None:
    """A 200,000-word line (sacreBLEU: hours, gigabytes) stops at once, naming the line, with every -j."""
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n" * 1500 + "x y " * 100_000 + "\n" + "a b\n" * 3)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\n" * 1504)
    for extra in ([], ["-j", "2"], ["-sl"], ["-sl", "-j", "2"], ["-ci"]):
        result = subprocess.run([sys.executable, "-m", "bleucli", str(ref), "-i", str(hyp), "-m", "ter", "-q",
                                 *extra], capture_output=True, env=_env(), timeout=TIMEOUT, preexec_fn=_limits())
        assert result.returncode == 3, (extra, result.stderr)
        assert result.stderr.startswith(f"bleucli: error: {ref}:1501: TER: reference of 200,000 words".encode())
        assert result.stderr.count(b"\n") == 1 and result.stdout == b""


@pytest.mark.oracle
def test_ter_max_words_bounds_and_keeps_sacrebleu_numbers(tmp_path: Path) -> None:
    pytest.importorskip("sacrebleu", reason="needs the oracle (bleucli[oracle])")
    from sacrebleu.metrics import TER as OracleTER

    from bleucli.errors import SegmentTooLongError
    from bleucli.metrics.ter import TER

    hyp = " ".join(f"w{k % 7}" for k in range(40))
    ref = " ".join(f"w{k % 5}" for k in range(30))
    expected = OracleTER().corpus_score([hyp], [[ref]]).score
    assert TER(max_words=40).corpus_score([hyp], [[ref]]).score == expected
    assert TER(max_words=0).corpus_score([hyp], [[ref]]).score == expected
    with pytest.raises(SegmentTooLongError, match="hypothesis of 40 words, over the limit of 39"):
        TER(max_words=39).corpus_score([hyp], [[ref]])
    with pytest.raises(SegmentTooLongError, match="reference of 30 words"):
        TER(max_words=29).corpus_score(["a"], [[ref]])
    refs, hyps = tmp_path / "r", tmp_path / "h"
    refs.write_text(f"{ref}\na\n")
    hyps.write_text(f"{hyp}\na\n")
    command = [sys.executable, "-m", "bleucli", str(refs), "-i", str(hyps), "-m", "ter", "-b"]
    refused = subprocess.run([*command, "--ter-max-words", "35"], capture_output=True, env=_env(), timeout=TIMEOUT)
    assert refused.returncode == 3 and f"{hyps}:1: TER: hypothesis of 40 words".encode() in refused.stderr
    accepted = subprocess.run([*command, "--ter-max-words", "0"], capture_output=True, env=_env(), timeout=TIMEOUT)
    oracle = OracleTER().corpus_score([hyp, "a"], [[ref, "a"]])
    assert accepted.returncode == 0 and accepted.stdout.decode().strip() == f"{oracle.score:.1f}"


# --- 17.7: the smaller ones -----------------------------------------------------------------------------------


def test_compute_bleu_refuses_impossible_statistics() -> None:
    from bleucli.errors import InputError
    from bleucli.metrics.bleu import compute_bleu

    with pytest.raises(InputError, match="1-gram matches \\(5\\) must be between 0 and the 1-gram total \\(1\\)"):
        compute_bleu([5] * 4, [1] * 4, 1, 1)
    for counts, totals, sys_len in (([-1, 0, 0, 0], [1] * 4, 1), ([1] * 4, [1] * 3, 1), ([1] * 4, [1] * 4, -2)):
        with pytest.raises(InputError):
            compute_bleu(counts, totals, sys_len, 1)


@pytest.mark.parametrize("hypotheses", [None, 5, 2.5], ids=["None", "int", "float"])
def test_api_wrong_hypotheses_are_bleucli_errors(hypotheses: object) -> None:
    from bleucli.compat import corpus_bleu, corpus_chrf, corpus_ter
    from bleucli.errors import InputError
    from bleucli.metrics.bleu import BLEU

    for call in (lambda: corpus_bleu(hypotheses, [["a"]]), lambda: corpus_chrf(hypotheses, [["a"]]),
                 lambda: corpus_ter(hypotheses, [["a"]]), lambda: BLEU(references=[["a"]]).corpus_score(hypotheses),
                 lambda: corpus_bleu(["a"], (stream for stream in [["a"]]))):
        with pytest.raises(InputError, match="must be a list"):
            call()  # type: ignore[no-untyped-call]


@pytest.mark.parametrize("pair", ["en", "en-zh-xx", "en-", "-de"])
def test_language_pair_with_reference_files_must_be_src_tgt(pair: str) -> None:
    ref = str(EXAMPLES / "ref.de")
    result = subprocess.run([sys.executable, "-m", "bleucli", ref, "-i", ref, "-l", pair, "-b"], capture_output=True,
                            env=_env(), timeout=TIMEOUT)
    assert result.returncode == 2 and b"must be SRC-TGT" in result.stderr, result.stderr


def test_relative_cache_dir_in_the_environment_is_refused(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "bleucli", "cache", "path"], capture_output=True, cwd=tmp_path,
                            env=_env(BLEUCLI_CACHE_DIR="relative/cache"), timeout=TIMEOUT)
    assert result.returncode == 3 and b"BLEUCLI_CACHE_DIR must be an absolute path" in result.stderr
    flag = subprocess.run([sys.executable, "-m", "bleucli", "cache", "path", "--cache-dir", "here"],
                          capture_output=True, cwd=tmp_path, env=_env(), timeout=TIMEOUT)
    assert flag.returncode == 0 and flag.stdout.decode().strip() == str(tmp_path / "here")


# --- issue 17: -sl prints nothing when a later segment ends the run with an error ---------------------------


@pytest.mark.parametrize("failure", slow_except(["ter-too-long", "fewer-lines", "undecodable"], {"ter-too-long"}))
def test_sentence_level_prints_nothing_when_a_later_segment_fails(tmp_path: Path, failure: str) -> None:
    """A pipe must not read 4,000 sentence scores and then an exit code of 3: every segment is checked
    before the first line is written (the scores are held in a spooled file, bounded in memory)."""
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    # 4,000 lines: more than the reader's first 64 KiB block, so the last line is read after the first score
    ref.write_text("the cat sat on the mat\n" * 4000 + "a b c d e f g h\n", encoding="utf-8")
    hyp_bytes = b"the cat is on the mat\n" * 4000 + b"a b c\n"
    metric = ["-m", "ter", "--ter-max-words", "7"] if failure == "ter-too-long" else ["-m", "bleu"]
    if failure == "fewer-lines":
        hyp_bytes = hyp_bytes[: -len(b"a b c\n")]
    elif failure == "undecodable":
        hyp_bytes += b"caf\xe9\n"
        ref.write_text(ref.read_text() + "cafe\n", encoding="utf-8")
    hyp.write_bytes(hyp_bytes)
    result = _bash(f"{sys.executable} -m bleucli {ref} -i {hyp} {' '.join(metric)} -sl | cat")
    assert result.stdout.decode().splitlines() == ["rc=3"], result.stdout[:300]
    assert result.stderr.startswith(b"bleucli: error: ") and result.stderr.count(b"\n") == 1, result.stderr


# --- more than the machine gives: a clear exit 10, not "internal error" ------------------------------------------


@pytest.mark.parametrize("option", ["-pbs -pbsn", "-par -parn", "-ci -cin", "compare -pbsn"])
def test_out_of_memory_is_one_line_exit_10(option: str) -> None:
    """100 million resamples need gigabytes for their statistics; under a 1 GiB ceiling the allocation
    fails, which is the machine's limit and must say so, with nothing on stdout."""
    ref, first, second = (str(EXAMPLES / name) for name in ("ref.de", "Online-B.de", "Lan-Bridge.de"))
    flags = option.split()
    if flags[0] == "compare":
        command = [sys.executable, "-m", "bleucli", "compare", ref, "-i", first, second, flags[1], "100000000"]
    else:
        systems = [first] if flags[0] == "-ci" else [first, second]
        command = [sys.executable, "-m", "bleucli", ref, "-i", *systems, "-m", "bleu", "chrf", *flags, "100000000"]
    result = subprocess.run(command, capture_output=True, env=_env(), timeout=TIMEOUT, preexec_fn=_limits())
    assert result.returncode == 10, result.stderr
    assert result.stdout == b""
    assert result.stderr.count(b"\n") == 1 and result.stderr.startswith(b"bleucli: error: out of memory: "), \
        result.stderr
