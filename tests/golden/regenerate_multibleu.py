"""Freeze the output of Moses' multi-bleu.perl and multi-bleu-detok.perl into tests/golden/multibleu.json.

Usage (perl on PATH; the scripts are read from a clone of moses-smt/mosesdecoder,
never copied into this repository)::

    python tests/golden/regenerate_multibleu.py /path/to/mosesdecoder[.git]

Made with mosesdecoder @ 34452895f350bf097b21ee514a529a1dc542243c, perl 5.36.
Each case is the script, its arguments, the files it reads (small ones inline;
large ones named under tests/data), stdin, and what the script printed on
stdout with its exit code. tests/test_multibleu.py replays every case through
``bleucli multi-bleu`` / ``multi-bleu-detok``.

Deliberate departures: where the script prints a number for input it cannot
score (a reference file with fewer lines than the hypothesis, whose missing
lines it scores against the stand-in length 9999), bleucli refuses with exit 3
and prints nothing on stdout. Such a case carries ``"refused"`` (the part of
bleucli's one-line message the test checks) and keeps the script's own output
under ``perl_stdout``/``perl_exit``; its ``stdout``/``exit`` are bleucli's.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "multibleu.json"
SCRIPTS = {"multi-bleu": "scripts/generic/multi-bleu.perl", "multi-bleu-detok": "scripts/generic/multi-bleu-detok.perl"}

#: Large cases: files are paths under tests/data (gzip), written out plain for the script.
DATA_CASES = [
    ("multi-bleu", [], {"ref": "ted-sk-en/tok/ref.en.gz"}, "ted-sk-en/tok/sys1.en.gz"),
    ("multi-bleu", ["-lc"], {"ref": "ted-sk-en/tok/ref.en.gz"}, "ted-sk-en/tok/sys1.en.gz"),
    ("multi-bleu-detok", [], {"ref": "ted-sk-en/ref.en.gz"}, "ted-sk-en/sys/sys1.en.gz"),
    ("multi-bleu-detok", ["-lc"], {"ref": "ted-sk-en/ref.en.gz"}, "ted-sk-en/sys/sys2.en.gz"),
    ("multi-bleu-detok", [], {"ref": "wmt21-en-de/ref.de.gz", "ref2": "wmt21-en-de/ref2.de.gz",
                              "ref3": "wmt21-en-de/ref3.de.gz"}, "wmt21-en-de/sys/Online-W.de.gz"),
    ("multi-bleu", ["-lc"], {"ref": "wmt21-en-de/ref.de.gz", "ref2": "wmt21-en-de/ref2.de.gz"},
     "wmt21-en-de/sys/Online-W.de.gz"),
]

#: Small cases: every file inline (text, written as UTF-8 bytes unless given as latin-1 escapes).
EDGE_CASES = [
    # a hypothesis line with no reference line: the script scores it against length 9999; bleucli refuses
    ("multi-bleu", [], {"ref": "a b c d e\n"}, "a b c d e\na b c d e\n",
     "ref: 1 reference line for 2 hypothesis lines"),
    # no 4-gram match: BLEU = 0.00
    ("multi-bleu", [], {"ref": "a b c d e f\n"}, "a b c x e f\n"),
    # several references by stem: ref0, ref1, then ref itself, then extra files (one missing)
    ("multi-bleu", [], {"ref0": "the cat sat on the mat\n", "ref1": "a cat was sitting on a mat\n",
                        "ref": "there is a cat on the mat\n", "extra": "the cat sat on a mat today\n"},
     "the cat sat on the mat today\n"),
    # Unicode whitespace is not whitespace for multi-bleu.perl (bytes), is for the detok script;
    # U+001C..U+001F are whitespace for neither
    ("multi-bleu", [], {"ref": "caf\u00e9\u00a0au lait , s'il vous pla\u00eet \x1c x y z\n"},
     "caf\u00e9 au lait , s'il vous pla\u00eet \x1c x y z\n"),
    ("multi-bleu-detok", [], {"ref": "caf\u00e9\u00a0au lait, s'il vous pla\u00eet \x1c x\u3000y z.\n"},
     "caf\u00e9 au lait, s'il vous pla\u00eet \x1c x y z.\n"),
    # -lc: ASCII only for multi-bleu.perl; Perl lc (no final sigma) for the detok script
    ("multi-bleu", ["-lc"], {"ref": "\u00c4PFEL UND BIRNEN SIND GUT\n"}, "\u00e4pfel und birnen sind gut\n"),
    ("multi-bleu-detok", ["-lc"], {"ref": "\u039f\u0394\u039f\u03a3 \u039a\u0391\u0399 \u00c4PFEL SIND GUT\n"},
     "\u03bf\u03b4\u03bf\u03c3 \u03ba\u03b1\u03b9 \u00e4pfel sind gut\n"),
    # the detok script's chop: a last line without newline loses its last character
    ("multi-bleu-detok", [], {"ref": "one two three four five\nsix seven eight nine ten"},
     "one two three four five\nsix seven eight nine ten\n"),
    ("multi-bleu", [], {"ref": "one two three four five\nsix seven eight nine ten"},
     "one two three four five\nsix seven eight nine ten"),
    # CRLF, entities, numbers and punctuation through mteval-v13a
    ("multi-bleu-detok", [], {"ref": "It costs $3,000.50 (about &quot;a lot&quot;) - 1990-2000.\r\n"},
     "It costs $3,000.50 (about \"a lot\") - 1990-2000.\r\n"),
    ("multi-bleu", [], {"ref": "x y z w\r\n a  b\tc d \n"}, "x y z w\na b c d\n"),
    # gzip references
    ("multi-bleu", [], {"ref.gz": b"GZ:the quick brown fox jumps\n"}, "the quick brown fox jumps over\n"),
]


def materialise(folder: Path, files: dict, data: bool) -> None:
    for name, content in files.items():
        if data:
            (folder / name).write_bytes(gzip.decompress((TESTS / "data" / content).read_bytes()))
        elif isinstance(content, bytes) and content.startswith(b"GZ:"):
            (folder / name).write_bytes(gzip.compress(content[3:], mtime=0))
        else:
            (folder / name).write_bytes(content.encode("utf-8"))


def main() -> None:
    moses = Path(sys.argv[1])
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        scripts = {}
        for name, path in SCRIPTS.items():
            target = folder / Path(path).name
            target.write_bytes(subprocess.run(["git", "--git-dir", str(moses), "show", f"HEAD:{path}"],
                                              check=True, capture_output=True).stdout)
            scripts[name] = target
        for kind, all_cases in (("data", DATA_CASES), ("inline", EDGE_CASES)):
            for script, args, files, hyp, *refused in all_cases:
                work = folder / f"case{len(cases)}"
                work.mkdir()
                materialise(work, files, kind == "data")
                stdin = (gzip.decompress((TESTS / "data" / hyp).read_bytes()) if kind == "data"
                         else hyp.encode("utf-8"))
                stem = [n for n in files if not n.endswith("0") and not n.endswith("1") and n != "extra"][0]
                refs = [stem] + [n for n in files if n not in (stem, "ref0", "ref1")] + (
                    ["missing"] if "extra" in files else [])
                run = subprocess.run(["perl", str(scripts[script]), *args, *refs], input=stdin, cwd=work,
                                     capture_output=True)
                case = {"script": script, "args": [*args, *refs], "stdout": run.stdout.decode("utf-8"),
                        "exit": run.returncode}
                if refused:  # bleucli's answer; the script's is kept beside it
                    case = {"script": script, "args": [*args, *refs], "stdout": "", "exit": 3,
                            "refused": refused[0], "perl_stdout": run.stdout.decode("utf-8"),
                            "perl_exit": run.returncode}
                if kind == "data":
                    case.update(data_files=files, data_stdin=hyp)
                else:
                    case.update(files={k: (v.decode("latin-1") if isinstance(v, bytes) else v)
                                       for k, v in files.items()}, stdin=hyp)
                cases.append(case)
                print(script, args, refs, run.returncode, run.stdout.decode().strip())
    OUT.write_text(json.dumps({"moses": "34452895f350bf097b21ee514a529a1dc542243c", "cases": cases}, indent=1,
                              ensure_ascii=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
