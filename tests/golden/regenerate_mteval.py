"""Freeze NIST mteval-v11b's and mteval-v13a's BLEU (closest and shortest reference length) into
tests/golden/mteval_bp.json.

Usage (perl on PATH; the scripts are read from a clone of moses-smt/mosesdecoder,
never copied here)::

    python tests/golden/regenerate_mteval.py /path/to/mosesdecoder[.git]

Made with mosesdecoder @ 34452895f350bf097b21ee514a529a1dc542243c, perl 5.36.
Data (``SETS``): the first LINES segments of wmt21-en-de (three references)
for three systems and the same three shortened (``cut``: two thirds of each
line's words, so that the brevity penalty bites); and whole sets chosen
because their lines hold non-ASCII spaces (U+00A0 in wmt17-en-de,
wmt21-en-ru, wmt22-en-de; U+3000 in wmt22-zh-en), each as one-document SGML.
mteval-v11b reads bytes and does not split on non-ASCII whitespace: bleucli
reproduces it with ``-tok 11b``. wmt21-en-de is also scored on the segments
without any non-ASCII space (``ascii-space``), where ``13a`` and ``11b`` agree.
Each script runs case-sensitively (``-c``) with ``-b`` (BLEU only). mteval
prints BLEU with four decimals; the tests check that bleucli gives the same
four decimals.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets import DATA, lines  # noqa: E402

OUT = Path(__file__).resolve().parent / "mteval_bp.json"
LINES = 500
#: set -> (references, systems, first LINES segments only, shortened copies too)
SETS = {
    "wmt21-en-de": (["ref.de.gz", "ref2.de.gz", "ref3.de.gz"], ["Online-W", "UEdin", "happypoet"], True),
    "wmt17-en-de": (["ref.de.gz"], ["PROMT-Rule-based.4735", "uedin-nmt.4722"], False),
    "wmt21-en-ru": (["ref.ru.gz", "ref2.ru.gz"], ["Online-W", "NiuTrans"], False),
    "wmt22-en-de": (["ref.de.gz", "ref2.de.gz"], ["Online-B", "JDExploreAcademy"], False),
    "wmt22-zh-en": (["ref.en.gz", "ref2.en.gz"], ["AISP-SJTU", "Online-B"], False),
}
RUNS = {
    "v13a-closest": ("mteval-v13a.pl", ["--brevity-penalty", "closest"]),
    "v13a-shortest": ("mteval-v13a.pl", ["--brevity-penalty", "shortest"]),
    "v11b": ("mteval-v11b.pl", []),
}


def sgml(kind: str, docs: dict[str, list[str]]) -> str:
    head = {"src": '<srcset setid="t" srclang="en">', "ref": '<refset setid="t" srclang="en" trglang="de">',
            "tst": '<tstset setid="t" srclang="en" trglang="de">'}[kind]
    parts = [head]
    for sysid, segments in docs.items():
        parts.append(f'<doc sysid="{sysid}" docid="d1" genre="news">')
        parts += [f'<seg id="{i}">{text}</seg>' for i, text in enumerate(segments, start=1)]
        parts.append("</doc>")
    parts.append(f"</{kind}set>")
    return "\n".join(parts) + "\n"


#: Non-ASCII whitespace: mteval-v13a (UTF-8) splits on it, mteval-v11b (bytes) does not.
UNICODE_SPACE = re.compile("[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def cut(line: str) -> str:
    """A shortened hypothesis (its first two thirds of words), so that the brevity penalty bites."""
    words = line.split(" ")
    return " ".join(words[: max(1, 2 * len(words) // 3)])


def data(test_set: str, subset: str = "all") -> tuple[list[list[str]], dict[str, list[str]]]:
    """References and hypotheses of a run: ``all`` segments (the first LINES of a set marked so), or
    ``ascii-space`` (only the segments where no file has non-ASCII whitespace)."""
    ref_names, system_names, first_lines = SETS[test_set]
    folder = DATA / test_set
    end = LINES if first_lines else None
    refs = [lines(folder / name)[:end] for name in ref_names]
    suffix = ref_names[0].split(".", 1)[1]
    systems = {name: lines(folder / "sys" / f"{name}.{suffix}")[:end] for name in system_names}
    if first_lines:
        systems.update({f"{name}-cut": [cut(line) for line in systems[name]] for name in system_names})
    keep = range(len(refs[0]))
    if subset == "ascii-space":
        columns = [*refs, *systems.values()]
        keep = [i for i in keep if not any(UNICODE_SPACE.search(column[i]) for column in columns)]
    return ([[r[i] for i in keep] for r in refs], {name: [h[i] for i in keep] for name, h in systems.items()})


def subsets(test_set: str) -> tuple[str, ...]:
    return ("all", "ascii-space") if test_set == "wmt21-en-de" else ("all",)


def main() -> None:
    moses = Path(sys.argv[1])
    results: dict[str, dict[str, dict[str, dict[str, str]]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for script in {s for s, _ in RUNS.values()}:
            (folder / script).write_bytes(subprocess.run(
                ["git", "--git-dir", str(moses), "show", f"HEAD:scripts/generic/{script}"],
                check=True, capture_output=True).stdout)
        for test_set in SETS:
            for subset in subsets(test_set):
                refs, systems = data(test_set, subset)
                (folder / "src.sgm").write_text(sgml("src", {"src": ["x"] * len(refs[0])}), encoding="utf-8")
                (folder / "ref.sgm").write_text(sgml("ref", {f"ref{i}": r for i, r in enumerate(refs)}),
                                                encoding="utf-8")
                for system, hyp in systems.items():
                    (folder / "tst.sgm").write_text(sgml("tst", {system: hyp}), encoding="utf-8")
                    for run, (script, args) in RUNS.items():
                        done = subprocess.run(["perl", script, "-c", "-b", *args, "-s", "src.sgm", "-r", "ref.sgm",
                                               "-t", "tst.sgm"], cwd=folder, capture_output=True, check=True)
                        score = re.search(rb"BLEU score = ([0-9.]+) for system", done.stdout)
                        assert score, done.stdout.decode(errors="replace")
                        value = score.group(1).decode()
                        results.setdefault(test_set, {}).setdefault(subset, {}).setdefault(system, {})[run] = value
                        print(test_set, subset, system, run, value, flush=True)
    OUT.write_text(json.dumps({"moses": "34452895f350bf097b21ee514a529a1dc542243c", "lines": LINES,
                               "scores": results}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
