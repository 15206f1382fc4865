"""Regenerate tests/golden/significance.json (and significance_render/) from the oracle.

Run from the repository root with sacrebleu 2.6.0 (and numpy) installed:

    python tests/golden/regenerate_significance.py

It takes a few minutes (sacreBLEU's paired tests on 16 systems are slow). What
it freezes, all through sacreBLEU's own code:

* wmt17-en-de, BLEU with ``tokenize='none'``, seed 12345, baseline LIUM-NMT.4900
  (sacreBLEU's test_significance.py setting): paired bootstrap with 2000
  resamples and approximate randomization with 10000 trials, every system;
* wmt21-en-de with its three references and default BLEU: paired bootstrap
  (1000) and AR (10000) on four systems;
* single-system bootstrap CIs (``corpus_score(n_bootstrap=...)``), with seed
  12345 and with seed 0;
* paired tests with seed 0, by calling sacreBLEU's comparison functions with an
  explicit ``seed=0`` (its CLI turns 0 into "unseeded", bleucli does not);
* the CLI's text/latex/json output of ``-pbs``/``-par``/``-ci`` on a small
  excerpt, in significance_render/.

Floats are stored as JSON numbers (shortest repr, so they round-trip exactly).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

import numpy  # noqa: E402
import sacrebleu  # noqa: E402
from sacrebleu import significance as sig  # noqa: E402
from sacrebleu.metrics import BLEU  # noqa: E402

import datasets  # noqa: E402  (tests/datasets.py)
import sigdata  # noqa: E402  (tests/sigdata.py)

OUT = HERE / "significance.json"
RENDER = HERE / "significance_render"


def result_row(name: str, result: object) -> dict:
    def num(x: object) -> float | None:
        return None if x is None else float(x)  # type: ignore[arg-type]

    return {"system": name, "score": num(result.score), "mean": num(result.mean),  # type: ignore[attr-defined]
            "ci": num(result.ci), "p_value": num(result.p_value)}  # type: ignore[attr-defined]


def paired(named_systems: list, metric_args: dict, refs: list, test: str, n: int, seed: str = "12345") -> dict:
    os.environ["SACREBLEU_SEED"] = seed
    metrics = {"BLEU": BLEU(references=refs, **metric_args)}
    test_obj = sig.PairedTest(named_systems, metrics, references=None, test_type=test, n_samples=n)
    signatures, scores = test_obj()
    return {
        "test": test, "n": n, "seed": int(seed), "metric_args": metric_args,
        "signature": str(signatures["BLEU"]),
        "rows": [result_row(name, r) for name, r in zip(scores["System"], scores["BLEU"])],
    }


def paired_seed_zero(named_systems: list, metric_args: dict, refs: list, test: str, n: int) -> dict:
    """sacreBLEU's comparisons with an explicit seed=0 (a real seed, as in bleucli)."""
    os.environ["SACREBLEU_SEED"] = "0"  # the baseline CI uses default_rng(0) in any case
    metrics = {"BLEU": BLEU(references=refs, **metric_args)}
    test_obj = sig.PairedTest(named_systems, metrics, references=None, test_type=test, n_samples=n)
    bl_result = test_obj._baseline_info["BLEU"][1]
    rows = [result_row(named_systems[0][0], bl_result)]
    for name, hyps in named_systems[1:]:
        _, results = test_obj._fn(test_obj._baseline_info, name, hyps, None, test_obj.metrics,
                                  test_obj.n_samples, test_obj.n_ar_confidence, 0)
        rows.append(result_row(name, results["BLEU"]))
    return {"test": test, "n": n, "seed": 0, "metric_args": metric_args, "rows": rows}


def confidence(system_name: str, hyps: list, refs: list, metric_args: dict, n: int, seed: str) -> dict:
    os.environ["SACREBLEU_SEED"] = seed
    metric = BLEU(**metric_args)
    score = metric.corpus_score(hyps, refs, n_bootstrap=n)
    return {"system": system_name, "n": n, "seed": int(seed), "metric_args": metric_args,
            "score": score.score, "mean": score._mean, "ci": score._ci,
            "signature": str(metric.get_signature())}


def render_outputs() -> dict:
    """CLI outputs on the first 300 lines of wmt21-en-de (3 refs, 3 systems)."""
    names = sigdata.WMT21_SYSTEMS[:3]
    outputs = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        refs = datasets.references(sigdata.WMT21)
        for k, stream in enumerate(refs):
            (folder / f"ref{k}").write_text("\n".join(stream[:300]) + "\n", encoding="utf-8")
        for name in names:
            (folder / name).write_text("\n".join(datasets.system(sigdata.WMT21, name)[:300]) + "\n", encoding="utf-8")
        ref_files = [f"ref{k}" for k in range(len(refs))]
        env = {**os.environ, "SACREBLEU_SEED": "12345", "NO_COLOR": "1"}
        env.pop("SACREBLEU_FORMAT", None)
        runs = {
            "bs": [*ref_files, "-i", *names, "-pbs"],
            "ar": [*ref_files, "-i", *names, "-par"],
            "bs_w2": [*ref_files, "-i", *names, "-pbs", "-w", "2"],
            "ci": [*ref_files, "-i", names[1], "-ci"],
        }
        for key, args in runs.items():
            formats = ["text"] if key == "ci" else ["text", "latex", "json"]
            for fmt in formats:
                proc = subprocess.run([sys.executable, "-m", "sacrebleu", "-q", "-nc", *args, "-f", fmt],
                                      cwd=folder, env=env, capture_output=True, text=True, check=True)
                outputs[f"{key}.{fmt}"] = proc.stdout
    return outputs


def main() -> None:
    wmt17_refs = datasets.references(sigdata.WMT17)
    wmt17 = [(n, datasets.system(sigdata.WMT17, n)) for n in sigdata.system_names(sigdata.WMT17)]
    wmt21_refs = datasets.references(sigdata.WMT21)
    wmt21 = [(n, datasets.system(sigdata.WMT21, n)) for n in sigdata.system_names(sigdata.WMT21)]
    none_tok = {"tokenize": "none"}
    golden = {
        "oracle": {"sacrebleu": sacrebleu.__version__, "numpy": numpy.__version__},
        "wmt17_bs": paired(wmt17, none_tok, wmt17_refs, "bs", 2000),
        "wmt17_ar": paired(wmt17, none_tok, wmt17_refs, "ar", 10000),
        "wmt21_bs": paired(wmt21, {}, wmt21_refs, "bs", 1000),
        "wmt21_ar": paired(wmt21, {}, wmt21_refs, "ar", 10000),
        "seed0_bs": paired_seed_zero(wmt21, {}, wmt21_refs, "bs", 1000),
        "seed0_ar": paired_seed_zero(wmt21, {}, wmt21_refs, "ar", 2000),
        "ci": [
            confidence(name, hyps, wmt17_refs, none_tok, 1000, "12345") for name, hyps in wmt17[:3]
        ] + [
            confidence(wmt17[1][0], wmt17[1][1], wmt17_refs, none_tok, 1000, "0"),
            confidence(wmt21[0][0], wmt21[0][1], wmt21_refs, {}, 2000, "12345"),
            confidence(wmt21[1][0], wmt21[1][1], wmt21_refs, {"lowercase": True}, 37, "7"),
        ],
    }
    OUT.write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")
    RENDER.mkdir(exist_ok=True)
    for key, text in render_outputs().items():
        (RENDER / f"{key}.txt").write_text(text, encoding="utf-8")
    print(f"wrote {OUT} and {RENDER}/")


if __name__ == "__main__":
    main()
