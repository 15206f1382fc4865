"""Regenerate tests/golden/significance_chrf_ter.json from the oracle (sacrebleu 2.6.0 + numpy).

    python tests/golden/regenerate_significance_chrf_ter.py

Paired bootstrap (50 resamples) and approximate randomization (70 trials),
seed 777, on the first 80 segments of wmt21-en-de (two references, three
systems), for chrF2++, chrF2 with eps smoothing, TER and normalized TER, all
through sacreBLEU's own PairedTest. These metrics keep their resampled scores
in float32 inside sacreBLEU, which bleucli must reproduce. Floats are stored as
JSON numbers (shortest repr, so they round-trip exactly).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

import sacrebleu  # noqa: E402
from sacrebleu.significance import PairedTest  # noqa: E402

import datasets  # noqa: E402  (tests/datasets.py)
import sigdata  # noqa: E402  (tests/sigdata.py)

OUT = HERE / "significance_chrf_ter.json"

#: name -> (sacreBLEU class name, keyword arguments shared by both tools)
METRICS = {
    "chrF2++": ("CHRF", {"word_order": 2}),
    "chrF2-eps": ("CHRF", {"eps_smoothing": True}),
    "TER": ("TER", {}),
    "TER-normalized": ("TER", {"normalized": True}),
}
SEED, LINES, N_REFS, N_BS, N_AR = 777, 80, 2, 50, 70


def main() -> None:
    os.environ["SACREBLEU_SEED"] = str(SEED)
    refs = [s[:LINES] for s in datasets.references(sigdata.WMT21)[:N_REFS]]
    names = sigdata.WMT21_SYSTEMS[:3]
    named = [(n, datasets.system(sigdata.WMT21, n)[:LINES]) for n in names]
    cases = []
    for label, (cls, kwargs) in METRICS.items():
        for test, n in (("bs", N_BS), ("ar", N_AR)):
            metric = getattr(sacrebleu, cls)(references=refs, **kwargs)
            _, scores = PairedTest(named, {"m": metric}, None, test, n)()
            (rows,) = [v for k, v in scores.items() if k != "System"]
            cases.append({"metric": label, "class": cls, "kwargs": kwargs, "test": test, "n": n, "rows": [
                {"score": float(r.score), "mean": None if r.mean is None else float(r.mean),
                 "ci": None if r.ci is None else float(r.ci),
                 "p_value": None if r.p_value is None else float(r.p_value)} for r in rows]})
    OUT.write_text(json.dumps({"sacrebleu": sacrebleu.__version__, "seed": SEED, "lines": LINES, "nrefs": N_REFS,
                               "systems": names, "cases": cases}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
