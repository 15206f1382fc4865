"""Freeze Texygen's Self-BLEU numbers into tests/golden/self_bleu_texygen.json.

Runs geek-ai/Texygen's own ``utils/metrics/SelfBleu.py`` (``SelfBleu(test_text,
gram).get_score()``, its default fast mode: the first 500 lines, each against
the other 499 with NLTK's ``sentence_bleu`` and method1 smoothing) under NLTK
3.10, from a fetched copy of the repository. ``nltk.word_tokenize`` is
replaced by ``str.split`` (the issue's anchor figures are for whitespace
tokens, and bleucli does not reproduce NLTK's word tokenizer).

Usage: python tests/golden/regenerate_self_bleu.py TEXYGEN_GIT_DIR

TEXYGEN_GIT_DIR is a git directory of geek-ai/Texygen (for example the one the
``fetch`` tool leaves in ``<mirror>/geek-ai+Texygen/repo``); the script
exports its HEAD into a temporary directory and imports SelfBleu from there.
The inputs are the files listed in CASES, written to a temporary file line by
line as the tests read them.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from datasets import DATA, lines  # noqa: E402

TED_SYS1 = DATA / "ted-sk-en" / "tok" / "sys1.en.gz"


def random_corpus(seed: int, count: int, vocabulary: int) -> list[str]:
    """Short sentences over a small vocabulary, so n-grams repeat within and across sentences."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(vocabulary)]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(0, 12))) for _ in range(count)]


#: name -> lines; the tests rebuild the same lines (random_corpus is deterministic).
CASES = {
    "ted-sk-en-tok-sys1": lambda: lines(TED_SYS1),
    "random-seed1-600x20": lambda: random_corpus(1, 600, 20),
    "random-seed2-50x5": lambda: random_corpus(2, 50, 5),
}
ORDERS = (1, 2, 3, 4, 5)


def main(texygen_git: str) -> None:
    import nltk

    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as work:
        archive = subprocess.run(["git", "--git-dir", texygen_git, "archive", "HEAD", "utils"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", work], input=archive, check=True)
        commit = subprocess.run(["git", "--git-dir", texygen_git, "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
        sys.path.insert(0, work)
        nltk.word_tokenize = str.split  # whitespace tokens (see the module docstring)
        from utils.metrics.SelfBleu import SelfBleu

        for name, make in CASES.items():
            text = Path(work) / f"{name}.txt"
            text.write_text("".join(line + "\n" for line in make()), encoding="utf-8")
            results[name] = {}
            for gram in ORDERS:
                score = SelfBleu(test_text=str(text), gram=gram).get_score()
                results[name][str(gram)] = score
                print(name, gram, repr(score))
    out = {"oracle": f"geek-ai/Texygen@{commit} utils/metrics/SelfBleu.py, nltk {nltk.__version__}, "
                     "word_tokenize=str.split", "scores": results}
    (HERE / "self_bleu_texygen.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
