"""The test-set flags end to end: CliRunner and real processes against the local server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bleucli import testsets as ts

from .conftest import invoke, write_lines

REPO = Path(__file__).resolve().parents[2]
WAIT_THEN_CLI = Path(__file__).resolve().parent / "helpers" / "wait_then_cli.py"


def run(env, args, stdin=None, extra=None):
    environ = {**env.environ, "PYTHONPATH": str(REPO), **(extra or {})}
    return subprocess.run([sys.executable, "-m", "bleucli", *args], input=stdin, capture_output=True,
                          env=environ, cwd=REPO)


@pytest.mark.parametrize("name", ["toy-sgml", "toy-xml", "toy-tsv", "toy-plain"])
def test_t_scoring_equals_scoring_the_files(env, corpus, tmp_path, name):
    n = len(ts.get_source(name, "en-de"))
    hyp = write_lines(tmp_path / "hyp.de", corpus.sys_b[:n])
    ref = write_lines(tmp_path / "ref.de", ts.get_references(name, "en-de")[0])
    code, out, err = invoke(["-t", name, "-l", "en-de", "-i", str(hyp)])
    assert code == 0, err
    with_t = json.loads(out)
    code, out, err = invoke([str(ref), "-i", str(hyp)])
    direct = json.loads(out)
    assert with_t["score"] == direct["score"]
    assert with_t["signature"] == direct["signature"].replace("nrefs:1|", f"nrefs:1|test:{name}|lang:en-de|")
    assert with_t["test_set"]["name"] == name and len(with_t["test_set"]["data_sha256"]) == 64


def test_origlang_scoring_equals_scoring_the_subset(env, corpus, tmp_path):
    hyp = write_lines(tmp_path / "hyp.de", corpus.sys_b)
    refs = ts.get_references("toy-sgml", "en-de", origlang="de")[0]
    ref = write_lines(tmp_path / "ref.de", refs)
    sub_hyp = write_lines(tmp_path / "sub.de", corpus.sys_b[12:22])
    code, out, err = invoke(["-t", "toy-sgml", "-l", "en-de", "--origlang", "de", "-i", str(hyp), "-b", "-w", "6"])
    assert code == 0, err
    _, direct, _ = invoke([str(ref), "-i", str(sub_hyp), "-b", "-w", "6"])
    assert out == direct
    # the full test set is required: a subset-sized hypothesis is a length error (exit 3)
    code, out, err = invoke(["-t", "toy-sgml", "-l", "en-de", "--origlang", "de", "-i", str(sub_hyp)])
    assert code == 3 and "has 10 lines but test set toy-sgml (en-de) has 40" in err and out == ""


def test_echo_equals_the_source_data(env, corpus):
    code, out, err = invoke(["-t", "toy-tsv", "-l", "en-de", "--echo", "src"])
    assert code == 0, err
    assert out == "".join(s.rstrip() + "\n" for s in corpus.src)
    code, out, _ = invoke(["-t", "toy-xml", "-l", "en-de", "--echo", "src", "ref:B", "docid"])
    assert len(out.split("\n")[0].split("\t")) == 3


def test_pipe_echo_translate_score(env, corpus, tmp_path):
    """bleucli -t X --echo src | translate | bleucli -t X, as real processes on a cold cache."""
    environ = {**env.environ, "PYTHONPATH": str(REPO)}
    echo = subprocess.Popen([sys.executable, "-m", "bleucli", "-t", "toy-xml", "-l", "en-de", "--echo", "PROMT"],
                            stdout=subprocess.PIPE, env=environ, cwd=REPO)
    score = subprocess.run([sys.executable, "-m", "bleucli", "-t", "toy-xml", "-l", "en-de", "-b", "-w", "8"],
                           stdin=echo.stdout, capture_output=True, env=environ, cwd=REPO)
    echo.stdout.close()
    assert echo.wait() == 0 and score.returncode == 0, score.stderr
    hyp = write_lines(tmp_path / "p.de", ts.get_field_lines("toy-xml", "en-de", "PROMT"))
    ref = write_lines(tmp_path / "r.de", ts.get_references("toy-xml", "en-de")[0])
    _, direct, _ = invoke([str(ref), "-i", str(hyp), "-b", "-w", "8"])
    assert score.stdout.decode() == direct


def test_comma_list_concatenates(env, corpus, tmp_path):
    hyp = write_lines(tmp_path / "hyp.de", corpus.sys_b + corpus.sys_b)
    code, out, err = invoke(["-t", "toy-sgml,toy-tsv", "-l", "en-de", "-i", str(hyp), "-f", "text"])
    assert code == 0, err
    assert "|test:toy-sgml,toy-tsv|lang:en-de|" in out


def test_list_and_citation(env):
    code, out, _ = invoke(["--list"])
    assert code == 0 and out.startswith("The available test sets are:\n") and "toy-xml" in out
    code, out, _ = invoke(["--list", "-t", "toy-xml"])
    assert out == "en-de: src, ref:A, ref:B, docid, origlang, Online-B, PROMT, domain\n"
    code, out, _ = invoke(["-t", "toy-sgml", "--citation"])
    assert code == 0 and out == "@misc{toy, title={Toy}}\n"


FAILURES = [
    # (server script for mtnt.tar.gz, registry overrides, args, exit code, message)
    (None, None, ["-t", "toy-tsvv", "-l", "en-de", "--echo", "src"], 2, "did you mean: toy-tsv"),
    (None, None, ["-t", "toy-tsv", "-l", "en-fr", "--echo", "src"], 2, "available: en-de"),
    ((("status", 404),), None, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], 4, "HTTP 404"),
    ((("redirect", "file:///etc/passwd"),), None, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], 6,
     "refusing redirect"),
    (("html",), None, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], 5, "HTML page"),
    (None, {"mtnt.tar.gz": "0" * 64}, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"], 5, "checksum mismatch"),
    (None, None, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src", "--offline"], 5, "offline"),
]


@pytest.mark.parametrize(("script", "overrides", "args", "code", "message"), FAILURES)
def test_failures_have_exit_codes_and_one_line(env, corpus, script, overrides, args, code, message):
    if script:
        env.server.script("mtnt.tar.gz", *script)
    if overrides:
        env.write_registry(overrides=overrides)
    proc = run(env, args)
    err = proc.stderr.decode()
    assert proc.returncode == code, err
    assert message in err and err.count("bleucli: error:") == 1 and "Traceback" not in err
    assert proc.stdout == b""
    # a plain rerun recovers once the fault is gone
    env.write_registry()
    if code in (4, 5, 6) and "offline" not in message:
        again = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"])
        assert again.returncode == 0 and again.stdout.decode() == "".join(s.rstrip() + "\n" for s in corpus.src)


def test_hostile_archive_and_bad_registry_exit_6(env, tmp_path):
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("../../evil")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    env.server.files["mtnt.tar.gz"] = buf.getvalue()
    env.write_registry()
    proc = run(env, ["-t", "toy-tsv", "-l", "en-de", "--echo", "src"])
    assert proc.returncode == 6 and b"unsafe archive member" in proc.stderr
    env.registry.write_text("schema: 1\ndownloads: {}\ntestsets:\n  a: 1\n  a: 2\n")
    proc = run(env, ["--list"])
    assert proc.returncode == 6 and b"duplicate key" in proc.stderr


def test_cache_commands(env):
    assert invoke(["-t", "toy-sgml", "--download", "toy-sgml"])[0] == 0
    code, out, _ = invoke(["cache", "path"])
    assert out.strip() == str(env.cache)
    code, out, _ = invoke(["cache", "list"])
    assert "sgml.tgz" in out and "toy-sgml en-de" in out
    assert invoke(["cache", "verify"])[0] == 0
    (env.cache / "testsets" / "toy-sgml" / "en-de" / "f00.txt").write_text("x\n")
    code, out, _ = invoke(["cache", "verify"])
    assert code == 5 and "BAD  testset   toy-sgml en-de: damaged field(s): src" in out
    code, out, _ = invoke(["cache", "remove", "--all"])
    assert code == 0 and not (env.cache / "testsets").exists()
    assert invoke(["cache", "remove"])[0] == 2


@pytest.mark.slow  # eight processes race for a cold cache
def test_eight_cli_processes_on_a_cold_cache(env, corpus, tmp_path):
    hyp = write_lines(tmp_path / "hyp.de", corpus.sys_b)
    go = tmp_path / "go"
    environ = {**env.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, str(WAIT_THEN_CLI), str(go), "-t", "toy-sgml", "-l", "en-de", "-i", str(hyp)]
    procs = [subprocess.Popen(cmd, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(8)]
    time.sleep(0.3)
    go.touch()
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [e for _, e in outs]
    assert len({o for o, _ in outs}) == 1
    assert json.loads(outs[0][0])["signature"].startswith("nrefs:1|test:toy-sgml|lang:en-de|")
    assert len(env.server.gets("sgml.tgz")) == 1


def test_plain_scoring_does_not_import_network_or_yaml(tmp_path):
    ref = write_lines(tmp_path / "r", ["a b c"])
    code = ("import sys; from bleucli.cli import run; run(['" + str(ref) + "', '-i', '" + str(ref) + "']); "
            "run(['--version']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('requests', 'yaml', 'urllib3', 'filelock', 'platformdirs')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.stdout.strip().endswith("[]"), proc.stdout + proc.stderr
