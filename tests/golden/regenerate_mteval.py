"""Freeze NIST mteval-v11b's and mteval-v13a's BLEU (closest and shortest reference length) into
tests/golden/mteval_bp.json.

Usage (perl on PATH; the scripts are read from a clone of moses-smt/mosesdecoder,
never copied here)::

    python tests/golden/regenerate_mteval.py /path/to/mosesdecoder[.git]

Made with mosesdecoder @ 34452895f350bf097b21ee514a529a1dc542243c, perl 5.36.
Data: the first LINES segments of wmt21-en-de (three references) for three
systems and the same three shortened (``cut``: two thirds of each line's words,
so that the brevity penalty bites), written as one-document SGML; mteval-v11b
reads bytes and does not split on non-ASCII whitespace, so it runs on the
segments without any (``ascii-space``); each script runs case-sensitively
(``-c``) with ``-b`` (BLEU only). mteval prints BLEU with four decimals; the
tests check that ``bleucli --ref-length`` gives the same four decimals.
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
SET = "wmt21-en-de"
LINES = 500
SYSTEMS = ["Online-W", "UEdin", "happypoet"]
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


def data(subset: str) -> tuple[list[list[str]], dict[str, list[str]]]:
    """References and hypotheses of a run: ``all`` LINES segments, or ``ascii-space`` (only the segments
    where no file has non-ASCII whitespace, which mteval-v11b does not split on)."""
    refs = [lines(DATA / SET / name)[:LINES] for name in ("ref.de.gz", "ref2.de.gz", "ref3.de.gz")]
    systems = {name: lines(DATA / SET / "sys" / f"{name}.de.gz")[:LINES] for name in SYSTEMS}
    systems.update({f"{name}-cut": [cut(line) for line in systems[name]] for name in SYSTEMS})
    keep = range(LINES)
    if subset == "ascii-space":
        columns = [*refs, *systems.values()]
        keep = [i for i in range(LINES) if not any(UNICODE_SPACE.search(column[i]) for column in columns)]
    return ([[r[i] for i in keep] for r in refs], {name: [h[i] for i in keep] for name, h in systems.items()})


def main() -> None:
    moses = Path(sys.argv[1])
    results: dict[str, dict[str, dict[str, str]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for script in {s for s, _ in RUNS.values()}:
            (folder / script).write_bytes(subprocess.run(
                ["git", "--git-dir", str(moses), "show", f"HEAD:scripts/generic/{script}"],
                check=True, capture_output=True).stdout)
        for subset in ("all", "ascii-space"):
            refs, systems = data(subset)
            (folder / "src.sgm").write_text(sgml("src", {"src": ["x"] * len(refs[0])}), encoding="utf-8")
            (folder / "ref.sgm").write_text(sgml("ref", {f"ref{i}": r for i, r in enumerate(refs)}),
                                            encoding="utf-8")
            for system, hyp in systems.items():
                (folder / "tst.sgm").write_text(sgml("tst", {system: hyp}), encoding="utf-8")
                for run, (script, args) in RUNS.items():
                    if subset == "all" and run == "v11b":
                        continue
                    done = subprocess.run(["perl", script, "-c", "-b", *args, "-s", "src.sgm", "-r", "ref.sgm",
                                           "-t", "tst.sgm"], cwd=folder, capture_output=True, check=True)
                    score = re.search(rb"BLEU score = ([0-9.]+) for system", done.stdout)
                    assert score, done.stdout.decode(errors="replace")
                    results.setdefault(subset, {}).setdefault(system, {})[run] = score.group(1).decode()
                    print(subset, system, run, score.group(1).decode())
    OUT.write_text(json.dumps({"moses": "34452895f350bf097b21ee514a529a1dc542243c", "set": SET, "lines": LINES,
                               "scores": results}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
