"""Freeze jfleg's GLEU (keisks/jfleg ``eval/gleu.py``) into tests/golden/gleu_jfleg.json.

Runs the script itself, from a fetched copy of keisks/jfleg, under two
interpreters: Python 2.7 (with numpy 1.16 and scipy 1.2: the semantics of the
published JFLEG numbers, Python 2's ``random.randint``) and Python 3 (with the
numpy and scipy installed there: Python 3's ``random.randint``, which draws
other reference indices from the same seeds). Besides the strings the script
prints (``'%f'`` mean and std, ``'(%.3f,%.3f)'`` interval), the full floats
are recorded: this file's RUNNER wraps ``GLEU.get_gleu_stats`` (the script's
own method, called unchanged) to keep its argument (the GLEU of every
iteration) and the same ``np.mean``/``np.std``/``scipy.stats.norm.interval``
values as floats.

Usage: python tests/golden/regenerate_gleu.py JFLEG_GIT_DIR PYTHON2 [PYTHON3]
(for example ``<mirror>/keisks+jfleg/repo /usr/bin/python2``).
The inputs are tests/variants/data/jfleg/ (the JFLEG dev and test sets, copied
from the same repository) decompressed into a temporary directory.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
JFLEG = HERE.parent / "variants" / "data" / "jfleg"

#: Runs under the oracle's interpreter (Python 2 and 3): imports gleu.py and calls it as its __main__ does.
RUNNER = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import scipy.stats
import gleu as oracle

recorded = []
original = oracle.GLEU.get_gleu_stats
def get_gleu_stats(self, scores):
    mean = np.mean(scores)
    std = np.std(scores)
    ci = scipy.stats.norm.interval(0.95, loc=mean, scale=std)
    recorded.append({"iterations": [repr(float(s)) for s in scores], "mean": repr(float(mean)),
                     "std": repr(float(std)), "ci": [repr(float(ci[0])), repr(float(ci[1]))]})
    return original(self, scores)
oracle.GLEU.get_gleu_stats = get_gleu_stats

spec = json.loads(sys.argv[2])
calculator = oracle.GLEU(spec["n"])
calculator.load_sources(spec["src"])
calculator.load_references(spec["refs"])
printed = [g for g in calculator.run_iterations(num_iterations=spec["iter"], source=spec["src"],
                                                hypothesis=spec["hyp"], per_sent=spec["per_sent"])]
if spec["per_sent"]:  # one record per sentence: the GLEU against each reference, smoothed
    out = {"sentences": recorded, "printed": printed}
else:
    out = recorded[-1]
    out["printed"] = printed[0]
sys.stdout.write(json.dumps(out))
'''

#: name -> (set, hypothesis file, reference files, order, iterations)
CASES = {
    "dev-source": ("dev", "dev.src", ["dev.ref0", "dev.ref1", "dev.ref2", "dev.ref3"], 4, 500),
    "test-source": ("test", "test.src", ["test.ref0", "test.ref1", "test.ref2", "test.ref3"], 4, 500),
    "dev-ref0-vs-refs123": ("dev", "dev.ref0", ["dev.ref1", "dev.ref2", "dev.ref3"], 4, 500),
    "test-source-two-refs-order3-iter50": ("test", "test.src", ["test.ref1", "test.ref3"], 3, 50),
    # gleu.py --sent: per sentence, mean/std/interval of the smoothed GLEU against each reference
    "dev-ref0-vs-refs123-sentences": ("dev", "dev.ref0", ["dev.ref1", "dev.ref2", "dev.ref3"], 4, 500),
}
#: Cases run with gleu.py's --sent (per_sent=True).
SENTENCE_CASES = {"dev-ref0-vs-refs123-sentences"}


def main(jfleg_git: str, python2: str, python3: str = sys.executable) -> None:
    results: dict[str, dict[str, object]] = {"python2": {}, "python3": {}}
    commit = subprocess.run(["git", "--git-dir", jfleg_git, "rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as work:
        script = subprocess.run(["git", "--git-dir", jfleg_git, "show", "HEAD:eval/gleu.py"], check=True,
                                capture_output=True).stdout
        (Path(work) / "gleu.py").write_bytes(script)
        for path in JFLEG.glob("*.gz"):
            (Path(work) / path.name[:-3]).write_bytes(gzip.decompress(path.read_bytes()))
        versions = {}
        for sampling, python in (("python2", python2), ("python3", python3)):
            versions[sampling] = subprocess.run([python, "-c", "import sys, numpy, scipy; print(sys.version.split()[0],"
                                                 " numpy.__version__, scipy.__version__)"],
                                                check=True, capture_output=True, text=True).stdout.strip()
            for name, (_, hyp, refs, n, iterations) in CASES.items():
                spec = {"n": n, "iter": iterations, "src": f"{work}/{hyp.split('.')[0]}.src",
                        "hyp": f"{work}/{hyp}", "refs": [f"{work}/{r}" for r in refs],
                        "per_sent": name in SENTENCE_CASES}
                run = subprocess.run([python, "-W", "ignore", "-c", RUNNER, work, json.dumps(spec)], check=True,
                                     capture_output=True, text=True)
                results[sampling][name] = json.loads(run.stdout)
                print(sampling, name, str(results[sampling][name]["printed"])[:80], flush=True)
    out = {"oracle": f"keisks/jfleg@{commit} eval/gleu.py", "interpreters": versions, "cases": CASES,
           "sentence_cases": sorted(SENTENCE_CASES), "results": results}
    (HERE / "gleu_jfleg.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
