"""Freeze TER-with-``normalized=True`` golden values from the oracle (sacreBLEU 2.6.0).

Usage (from the repository root, with sacrebleu==2.6.0 installed)::

    python tests/golden/regenerate_ter_normalized.py

sacreBLEU tokenizes TER's references twice (once when it caches them, once when
it extracts their words); with ``normalized=True`` the second pass changes some
of them: a possessive ``'s`` followed by a comma (``PLC's,``), ``,.1``. This
file freezes sacreBLEU's numbers for the segments of ``tests/data`` where that
happens, with windows around them (corpus statistics, corpus score, every
sentence score), the full files (corpus), and short made-up strings, into
``tests/golden/ter_normalized.json``; ``tests/test_ter_normalized.py`` compares
bleucli against it without sacreBLEU.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import datasets  # noqa: E402  (tests/datasets.py: the lines the tests score)

OUT = ROOT / "tests" / "golden" / "ter_normalized.json"

#: (set, systems, reference files, [start, stop) windows around the segments that change).
WINDOWS: list[tuple[str, list[str], list[str], list[tuple[int, int]]]] = [
    ("ted-sk-en", ["sys1", "sys2"], ["ref.en"], [(298, 308), (2265, 2269)]),
    ("wmt17-en-de", ["online-A.0", "PROMT-Rule-based.4735"], ["ref.de"], [(2800, 2815)]),
    # two references: the average reference length counts the twice-normalized words of each
    ("ted-sk-en", ["sys1"], ["ref.en", "sys/sys2.en"], [(298, 308), (2265, 2269)]),
]
#: Whole files, corpus score only (the tests mark these slow).
FULL: list[tuple[str, str, list[str]]] = [
    ("ted-sk-en", "sys1", ["ref.en"]),
    ("wmt17-en-de", "online-A.0", ["ref.de"]),
]
OPTIONS: list[dict[str, bool]] = [
    {"normalized": True},
    {"normalized": True, "no_punct": True},
    {"normalized": True, "case_sensitive": True},
    {"normalized": True, "asian_support": True},
]
#: Made-up (hypothesis, references) pairs, each scored with every entry of OPTIONS.
STRINGS: list[tuple[str, list[str]]] = [
    (",.1", [",.1"]),
    ("it's, fine", ["it's, fine"]),
    ("PLC's, boxes", ["PLC's, boxes", "the PLC's, boxes."]),
    ("a,.b 1,.2", ["a,.b 1,.2"]),
    ("x's. y's", ["x's. y's"]),
    ("", ["it's,"]),
    ("&quot;A's,&quot;", ["&quot;A's,&quot;"]),
]


def main() -> int:
    import sacrebleu
    from sacrebleu.metrics import TER

    assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__
    windows, full, strings = [], [], []
    for name, systems, ref_files, spans in WINDOWS:
        refs_all = [datasets.set_file(name, rel) for rel in ref_files]
        for system in systems:
            hyps_all = datasets.hypotheses(name, system)
            for start, stop in spans:
                hyps, refs = list(hyps_all[start:stop]), [list(r[start:stop]) for r in refs_all]
                for options in OPTIONS:
                    metric = TER(**options)
                    stats = metric._extract_corpus_statistics(hyps, refs)
                    windows.append({
                        "set": name, "system": system, "refs": ref_files, "start": start, "stop": stop,
                        "options": options, "statistics": [sum(col) for col in zip(*stats)],
                        "score": metric._aggregate_and_compute(stats).score,
                        "sentences": [metric.sentence_score(h, [r[i] for r in refs]).score
                                      for i, h in enumerate(hyps)],
                        "signature": str(metric.get_signature()),
                    })
    for name, system, ref_files in FULL:
        print(f"{name} {system} (full file)", file=sys.stderr)
        hyps = list(datasets.hypotheses(name, system))
        refs = [list(datasets.set_file(name, rel)) for rel in ref_files]
        metric = TER(normalized=True)
        stats = metric._extract_corpus_statistics(hyps, refs)
        full.append({"set": name, "system": system, "refs": ref_files, "options": {"normalized": True},
                     "statistics": [sum(col) for col in zip(*stats)],
                     "score": metric._aggregate_and_compute(stats).score})
    for hyp, refs in STRINGS:
        for options in OPTIONS:
            strings.append({"hypothesis": hyp, "references": refs, "options": options,
                            "score": TER(**options).sentence_score(hyp, refs).score})
    OUT.write_text(json.dumps({"sacrebleu": sacrebleu.__version__, "windows": windows, "full": full,
                               "strings": strings}, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}: {len(windows)} windows, {len(full)} full files, {len(strings)} strings",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
