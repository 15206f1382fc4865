"""spBLEU (flores101/flores200/spBLEU-1K, spm): models through the verified cache, scores as sacreBLEU's.

Offline: a small SentencePiece model is trained at test time on 400 WMT22
German references and served by the local HTTP server of conftest.py through
a registry copy (``models:`` section). sacreBLEU 2.6.0, given the same model
file in its own cache (``$SACREBLEU/models/<file>``), must print the same
scores and signatures.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import datasets
from conftest import invoke
from tests.testsets.conftest import leftovers

spm = pytest.importorskip("sentencepiece", reason="needs bleucli[spm]")

MODEL_FILES = {"flores101": "sacrebleu_tokenizer_spm.model", "flores200": "flores200sacrebleuspm",
               "spBLEU-1K": "spbleu-1k_tokenizer_spm.model"}
LINES = 120


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    lines = list(datasets.set_file("wmt22-en-de", "ref.de"))[:400]
    buffer = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buffer, vocab_size=400,
                                   model_type="unigram", minloglevel=2)
    return buffer.getvalue()


def models_registry(base_url: str, checksums: dict[str, str] | None = None) -> str:
    """A registry with only a models section (``checksums``: sha256 the registry declares per model)."""
    checksums = checksums or {}
    lines = ["schema: 1", "downloads: {}", "testsets: {}", "models:"]
    for name, file in MODEL_FILES.items():
        lines += [f"  {name}:", f"    url: {base_url}/files/{file}", f"    signature: {name}"]
        if name in checksums:
            lines.append(f"    sha256: '{checksums[name]}'")
    return "\n".join(lines) + "\n"


@pytest.fixture
def spm_env(env, model_bytes):
    for file in MODEL_FILES.values():
        env.server.files[file] = model_bytes
    env.registry.write_text(models_registry(env.server.base_url), encoding="utf-8")
    return env


@pytest.fixture
def texts(tmp_path: Path) -> tuple[Path, Path]:
    ref, hyp = tmp_path / "ref.de", tmp_path / "hyp.de"
    ref.write_text("\n".join(datasets.set_file("wmt22-en-de", "ref.de")[:LINES]) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(datasets.set_file("wmt22-en-de", "sys/Online-A.de")[:LINES]) + "\n", encoding="utf-8")
    return ref, hyp


def score(ref: Path, hyp: Path, *args: str) -> tuple[int, dict, str]:
    result = invoke([str(ref), "-i", str(hyp), "-f", "json", *args])
    return result.exit_code, (json.loads(result.stdout) if result.exit_code == 0 else {}), result.stderr


def model_path(env, name: str) -> Path:
    return env.cache / "models" / name / MODEL_FILES[name]


# ------------------------------------------------------------------ download, pinning, verification

def test_first_download_pins_the_sha256_and_later_loads_are_held_to_it(spm_env, texts, model_bytes):
    code, first, err = score(*texts, "-tok", "flores200")
    assert code == 0, err
    assert first["signature"].split("|")[3] == "tok:flores200"
    sha = hashlib.sha256(model_bytes).hexdigest()
    assert sha in err and "pinned" in err  # printed once, on the first download
    manifest = json.loads((model_path(spm_env, "flores200").parent / "manifest.json").read_text())
    assert manifest["sha256"] == sha and manifest["pinned"] is True
    assert model_path(spm_env, "flores200").read_bytes() == model_bytes
    # later runs: from the cache, offline, no notice, same score
    code, again, err = score(*texts, "-tok", "flores200", "--offline")
    assert code == 0, err
    assert again["score"] == first["score"] and "pinned" not in err
    assert len(spm_env.server.gets(MODEL_FILES["flores200"])) == 1


def test_a_tampered_cached_model_is_refused_with_exit_5(spm_env, texts):
    assert score(*texts, "-tok", "flores101")[0] == 0
    path = model_path(spm_env, "flores101")
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    code, _, err = score(*texts, "-tok", "flores101")
    assert code == 5
    assert err.count("\n") == 1 and str(path) in err and "pinned at its first download" in err
    # bleucli cache verify reports it; remove lets the next run download it again
    verify = invoke(["cache", "verify"])
    assert verify.exit_code == 5 and "BAD  model     flores101: checksum mismatch" in verify.stdout
    assert invoke(["cache", "remove", "flores101"]).exit_code == 0
    assert score(*texts, "-tok", "flores101")[0] == 0
    assert invoke(["cache", "verify"]).exit_code == 0


def test_a_registry_checksum_is_enforced_on_download_and_on_load(spm_env, texts, model_bytes):
    wrong = hashlib.sha256(b"another model").hexdigest()
    spm_env.registry.write_text(models_registry(spm_env.server.base_url, {"spBLEU-1K": wrong}), encoding="utf-8")
    code, _, err = score(*texts, "-tok", "spBLEU-1K")
    assert code == 5 and "checksum mismatch" in err
    assert not model_path(spm_env, "spBLEU-1K").exists() and leftovers(spm_env.cache) == []
    right = hashlib.sha256(model_bytes).hexdigest()
    spm_env.registry.write_text(models_registry(spm_env.server.base_url, {"spBLEU-1K": right}), encoding="utf-8")
    code, result, err = score(*texts, "-tok", "spBLEU-1K")
    assert code == 0 and "pinned" not in err and result["signature"].split("|")[3] == "tok:spBLEU-1K"
    model_path(spm_env, "spBLEU-1K").write_bytes(model_bytes + b"\0")
    code, _, err = score(*texts, "-tok", "spBLEU-1K")
    assert code == 5 and "in the registry" in err


def test_offline_without_the_model_is_a_one_line_error(spm_env, texts):
    code, _, err = score(*texts, "-tok", "flores101", "--offline")
    assert code != 0 and "not cached" in err and err.count("\n") == 1
    assert spm_env.server.gets(MODEL_FILES["flores101"]) == []


def test_a_model_without_manifest_is_fetched_again(spm_env, texts, model_bytes):
    planted = model_path(spm_env, "flores101")
    planted.parent.mkdir(parents=True)
    planted.write_bytes(b"planted, never verified")
    code, _, err = score(*texts, "-tok", "flores101")
    assert code == 0, err
    assert planted.read_bytes() == model_bytes


def test_cache_list_shows_models(spm_env, texts):
    assert score(*texts, "-tok", "flores200")[0] == 0
    listed = invoke(["cache", "list"]).stdout
    assert any(line.startswith("model") and line.endswith("flores200") for line in listed.splitlines())


HELPER = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
from bleucli.testsets.models import load_model
load_model("flores101")
print("loaded")
"""


def test_kill_9_during_the_model_download_leaves_nothing_under_the_final_name(spm_env, texts, model_bytes):
    spm_env.server.script(MODEL_FILES["flores101"], "slow")
    proc = subprocess.Popen([sys.executable, "-c", HELPER], env=spm_env.environ, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    directory = spm_env.cache / "models" / "flores101"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not list(directory.glob(".part-*")):
        time.sleep(0.02)
    assert list(directory.glob(".part-*")), "the download never started"
    time.sleep(0.3)  # some bytes written (the server drips one per 50 ms)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert not model_path(spm_env, "flores101").exists()
    assert not (directory / "manifest.json").exists()
    code, _, err = score(*texts, "-tok", "flores101")  # the next run downloads it whole
    assert code == 0, err
    assert model_path(spm_env, "flores101").read_bytes() == model_bytes
    assert leftovers(spm_env.cache) == []


def test_crash_after_the_verified_download_leaves_nothing_under_the_final_name(spm_env, model_bytes):
    environ = {**spm_env.environ, "BLEUCLI_TEST_CRASH_AT": "after_download"}
    proc = subprocess.run([sys.executable, "-c", HELPER], env=environ, capture_output=True, timeout=60)
    assert proc.returncode == 137
    assert not model_path(spm_env, "flores101").exists()


# ------------------------------------------------------------------ scores and signatures

def test_local_model_signs_with_its_sha256_and_scores_as_the_registry_model(spm_env, texts, model_bytes, tmp_path):
    local = tmp_path / "my.model"
    local.write_bytes(model_bytes)
    code, own, err = score(*texts, "-tok", "spm", "--spm-model", str(local))
    assert code == 0, err
    assert own["signature"].split("|")[3] == f"tok:spm-{hashlib.sha256(model_bytes).hexdigest()[:12]}"
    code, flores, _ = score(*texts, "-tok", "flores101")
    assert own["unrounded_score"] == flores["unrounded_score"]
    # --spm-model alone implies -tok spm; with another tokenizer it is a usage error
    assert score(*texts, "--spm-model", str(local))[1]["signature"] == own["signature"]
    code, _, err = score(*texts, "-tok", "13a", "--spm-model", str(local))
    assert code == 2 and "spm" in err
    code, _, err = score(*texts, "-tok", "spm", "--spm-model", str(tmp_path / "missing.model"))
    assert code == 2 and "missing.model" in err


def test_spm_is_flores101_with_a_notice(spm_env, texts):
    code, old, err = score(*texts, "-tok", "spm")
    assert code == 0 and "flores101" in err
    assert old == score(*texts, "-tok", "flores101")[1]


@pytest.mark.parametrize("name", ["flores101", "flores200"])
def test_jobs_do_not_change_spbleu(spm_env, texts, name):
    one = score(*texts, "-tok", name)[1]
    two = score(*texts, "-tok", name, "-j", "2")[1]
    assert one == two


ORACLE = """
import json, sys
from sacrebleu.metrics import BLEU
ref, hyp, tok = sys.argv[1:4]
refs = [open(ref, encoding="utf-8").read().splitlines()]
hyps = open(hyp, encoding="utf-8").read().splitlines()
bleu = BLEU(tokenize=tok)
score = bleu.corpus_score(hyps, refs)
sentences = [BLEU(tokenize=tok, effective_order=True).sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])]
tokens = [bleu.tokenizer(line.rstrip()) for line in hyps]
print(json.dumps({"score": score.score, "signature": str(bleu.get_signature()), "sentences": sentences,
                  "tokens": tokens}))
"""


@pytest.mark.parametrize("name", ["flores101", "flores200", "spBLEU-1K"])
def test_scores_equal_sacrebleu_with_the_same_model_in_its_cache(spm_env, texts, model_bytes, tmp_path, name):
    pytest.importorskip("sacrebleu", reason="needs the oracle (bleucli[oracle])")
    sacre_dir = tmp_path / "sacrebleu"
    (sacre_dir / "models").mkdir(parents=True)
    (sacre_dir / "models" / MODEL_FILES[name]).write_bytes(model_bytes)
    environ = {**os.environ, "SACREBLEU": str(sacre_dir)}
    proc = subprocess.run([sys.executable, "-c", ORACLE, str(texts[0]), str(texts[1]), name], env=environ,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    oracle = json.loads(proc.stdout)
    code, ours, err = score(*texts, "-tok", name)
    assert code == 0, err
    assert ours["unrounded_score"] == oracle["score"]
    assert ours["signature"].split("|")[:-1] == oracle["signature"].split("|")[:-1]
    from bleucli import BLEU

    metric = BLEU(tokenize=name, effective_order=True)
    hyps = texts[1].read_text(encoding="utf-8").splitlines()
    refs = texts[0].read_text(encoding="utf-8").splitlines()
    assert [metric.tokenizer(h.rstrip()) for h in hyps] == oracle["tokens"]
    assert [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs)] == oracle["sentences"]
