"""Run NLTK 3.10's BLEU and GLEU tests against ``bleucli.family.nltk``.

    python tests/conformance/run_nltk_tests.py PATH_TO_NLTK_SDIST_OR_CHECKOUT [--update]

``PATH`` is NLTK 3.10.x's sdist (``pip download --no-deps --no-binary :all:
"nltk>=3.10,<3.11"``) or a checkout. Its ``nltk/test/unit/translate/test_bleu.py``,
``nltk/test/bleu.doctest`` and the docstring examples of ``nltk/translate/bleu_score.py``
and ``gleu_score.py`` (``nltk_docstrings.py``) are copied to a temporary directory and
run with pytest (NLTK's doctest flags), with NLTK's own package from ``PATH`` on the
path but ``nltk.translate.bleu_score`` and ``nltk.translate.gleu_score`` importing as
``bleucli.family.nltk``. No nltk_data is installed or fetched (the one test that reads
it fails on NLTK itself too). The outcomes are compared with ``nltk_expected.json``;
``--update`` also runs them against NLTK's own modules and rewrites the file.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from common import HERE, check, run_pytest, scratch_dir, unpacked

FROZEN = HERE / "nltk_expected.json"
ALIASES = {"nltk.translate.bleu_score": "bleucli.family.nltk", "nltk.translate.gleu_score": "bleucli.family.nltk"}
FLAGS = ["-o", "doctest_optionflags=ELLIPSIS NORMALIZE_WHITESPACE IGNORE_EXCEPTION_DETAIL", "--doctest-glob=*.doctest"]


def run(root: Path, scratch: Path, against: str) -> dict[str, str]:
    work = scratch / against
    work.mkdir()
    shutil.copy(root / "nltk/test/unit/translate/test_bleu.py", work / "test_bleu.py")
    shutil.copy(root / "nltk/test/bleu.doctest", work / "bleu.doctest")
    shutil.copy(HERE / "nltk_docstrings.py", work / "test_nltk_docstrings.py")
    files = ["test_bleu.py", "bleu.doctest", "test_nltk_docstrings.py"]
    os.environ["BLEUCLI_NLTK_ROOT"] = str(root)
    os.environ.setdefault("NLTK_DATA", str(scratch / "no-nltk-data"))
    return run_pytest([*FLAGS, *files], work, ALIASES if against == "bleucli" else {}, [root])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1].strip())
    parser.add_argument("path", type=Path, help="NLTK 3.10.x's sdist (.tar.gz) or checkout")
    parser.add_argument("--update", action="store_true",
                        help="also run against NLTK's own modules and rewrite nltk_expected.json")
    args = parser.parse_args(argv)
    with scratch_dir() as tmp:
        scratch = Path(tmp)
        root = unpacked(args.path.resolve(), scratch)
        needed = ["nltk/test/unit/translate/test_bleu.py", "nltk/test/bleu.doctest",
                  "nltk/translate/bleu_score.py", "nltk/translate/gleu_score.py"]
        missing = [name for name in needed if not (root / name).is_file()]
        if missing:
            print(f"{args.path}: missing {', '.join(missing)}", file=sys.stderr)
            return 2
        upstream = run(root, scratch, "nltk") if args.update else None
        bleucli = run(root, scratch, "bleucli")
    return check("NLTK 3.10", FROZEN, "nltk", bleucli, upstream, args.update,
                 {"aliases": ALIASES})


if __name__ == "__main__":
    sys.exit(main())
