"""Freeze chrF/chrF++/TER golden values from the oracle (sacreBLEU 2.6.0).

Usage (from the repository root, with sacrebleu==2.6.0 installed)::

    python tests/golden/regenerate_chrf_ter.py [--copy-from /path/to/shared/data]

``--copy-from`` first (re)copies the test data it needs into ``tests/data``
(gzip -9n compressed, byte-exact after decompression). The golden values are then
computed by sacreBLEU on those copies and written to
``tests/golden/chrf_ter.json``; the tests compare bleucli against that file,
so they run without sacreBLEU. Published organiser chrF rows
(``PUBLISHED_SCORES.tsv``) are copied alongside, together with the reference
files they were computed against; a row is only kept if the oracle reproduces
it, and the script reports any that it does not.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import datasets  # noqa: E402  (tests/datasets.py: the lines the tests score)

DATA = datasets.DATA
OUT = ROOT / "tests" / "golden" / "chrf_ter.json"

#: Set -> (target language, systems to copy). wmt24pp-en-ko has no systems:
#: its pre-edit reference (ref2) is scored as a hypothesis against ref.
SETS: dict[str, tuple[str, list[str]]] = {
    "ted-sk-en": ("en", ["sys1", "sys2"]),
    "wmt17-en-de": ("de", ["online-A.0", "PROMT-Rule-based.4735"]),
    "wmt21-bn-hi": ("hi", ["TRANSSION", "Online-B"]),
    "wmt21-en-de": ("de", ["Facebook-AI", "HuaweiTSC"]),
    "wmt21-en-ja": ("ja", ["capitalmarvel", "Online-A"]),
    "wmt21-en-ru": ("ru", ["Online-A", "NiuTrans"]),
    "wmt22-de-en": ("en", ["Online-A", "Lan-Bridge"]),
    "wmt22-en-cs": ("cs", ["Online-A", "Lan-Bridge"]),
    "wmt22-en-de": ("de", ["Online-A", "Lan-Bridge"]),
    "wmt22-en-ja": ("ja", ["Online-W", "Online-A"]),
    "wmt22-en-ru": ("ru", ["Online-A", "Lan-Bridge"]),
    "wmt22-en-zh": ("zh", ["Online-A", "HuaweiTSC"]),
    "wmt22-zh-en": ("en", ["Online-W", "Online-A"]),
    "wmt23-en-he": ("he", ["ONLINE-B", "Lan-BridgeMT"]),
    "wmt24pp-en-ko": ("ko", []),
}

#: Lines used for the option variants (the full files are used for the defaults).
VARIANT_LINES = 300
#: Lines used for TER with Asian support (sacreBLEU is slow on character-split CJK).
ASIAN_LINES = 120
#: Lines with per-sentence scores.
SENTENCE_LINES = 40

CHRF_VARIANTS: dict[str, dict[str, object]] = {
    "chrF2": {},
    "chrF2++": {"word_order": 2},
    "eps": {"eps_smoothing": True},
    "whitespace": {"whitespace": True},
    "lowercase": {"lowercase": True},
    "beta3": {"beta": 3},
    "chrF3++-eps-ws-lc": {"beta": 3, "word_order": 2, "eps_smoothing": True, "whitespace": True, "lowercase": True},
}
TER_VARIANTS: dict[str, dict[str, object]] = {
    "default": {},
    "normalized": {"normalized": True},
    "no_punct": {"no_punct": True},
    "case_sensitive": {"case_sensitive": True},
    "norm_punct_cs": {"normalized": True, "no_punct": True, "case_sensitive": True},
}
TER_ASIAN_VARIANTS: dict[str, dict[str, object]] = {
    "asian_norm": {"normalized": True, "asian_support": True},
    "asian_punct": {"no_punct": True, "asian_support": True},
    "asian_norm_punct": {"normalized": True, "no_punct": True, "asian_support": True},
}
ASIAN_LANGS = {"zh", "ja"}


def read_lines(path: Path) -> list[str]:
    """Lines of a data file as the tests read them (split on LF only: ``splitlines`` would split
    on U+001C-U+001E too)."""
    return list(datasets.read(path))


def copy_data(source: Path) -> None:
    """Copy refs and the chosen systems of every set, gzip-compressed like the rest of tests/data,
    plus provenance files."""
    for name, (lang, systems) in SETS.items():
        src_dir = source / name
        dst_dir = DATA / name
        (dst_dir / "sys" if systems else dst_dir).mkdir(parents=True, exist_ok=True)
        files = sorted(p.name for p in src_dir.glob(f"ref*.{lang}"))
        files += [f"sys/{s}.{lang}" for s in systems]
        for rel in files:
            data = (src_dir / rel).read_bytes()
            (dst_dir / f"{rel}.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
        for extra in ("PROVENANCE.json", "PUBLISHED_SCORES.tsv"):
            if (src_dir / extra).exists():
                shutil.copyfile(src_dir / extra, dst_dir / extra)


def ref_files(name: str) -> list[str]:
    lang = SETS[name][0]
    return sorted(p.name[:-3] for p in (DATA / name).glob(f"ref*.{lang}.gz"))


def hypotheses(name: str) -> dict[str, list[str]]:
    lang, systems = SETS[name]
    if not systems:
        return {"ref2-as-hypothesis": read_lines(DATA / name / f"ref2.{lang}.gz")}
    return {s: read_lines(DATA / name / "sys" / f"{s}.{lang}.gz") for s in systems}


def published_ref_letter(name: str) -> dict[str, str]:
    """Map a published reference label (A, refA...) to our file name, from PROVENANCE.json."""
    prov = datasets.provenance(name)["files"]
    out = {}
    for ours, theirs in prov.items():
        if ours.startswith("ref"):
            label = theirs.split(".ref.")[1].rsplit(".", 1)[0]
            out[label] = ours
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copy-from", type=Path, help="shared data directory to copy test data from")
    parser.add_argument("--published-only", action="store_true",
                        help="keep the corpus/sentence values in the existing file, redo the published rows")
    args = parser.parse_args()
    if args.copy_from:
        copy_data(args.copy_from)

    import sacrebleu
    from sacrebleu.metrics import CHRF, TER

    assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__
    corpus_cases: list[dict] = []
    sentence_cases: list[dict] = []
    published: list[dict] = []
    problems: list[str] = []

    def run(metric_name: str, options: dict, name: str, system: str, refs_used: list[str], lines: int | None) -> None:
        hyps = hypotheses(name)[system]
        refs = [read_lines(DATA / name / f"{r}.gz") for r in refs_used]
        if lines is not None:
            hyps, refs = hyps[:lines], [r[:lines] for r in refs]
        metric = (CHRF if metric_name == "chrf" else TER)(**options)
        stats = metric._extract_corpus_statistics(hyps, refs)
        score = metric._aggregate_and_compute(stats)
        total = [sum(col) for col in zip(*stats)]
        corpus_cases.append({
            "set": name, "system": system, "metric": metric_name, "options": options,
            "refs": refs_used, "lines": lines, "score": score.score, "name": score.name,
            "signature": str(metric.get_signature()), "statistics": total,
        })

    if args.published_only:
        previous = json.loads(OUT.read_text(encoding="utf-8"))
        corpus_cases, sentence_cases = previous["corpus"], previous["sentence"]
    for name in SETS:
        lang = SETS[name][0]
        refs_all = ref_files(name)
        if name == "wmt24pp-en-ko":
            refs_all = [f"ref.{lang}"]  # ref2 is the hypothesis
        ref_sets = [refs_all[:1]] + ([refs_all] if len(refs_all) > 1 else [])
        for system in ([] if args.published_only else hypotheses(name)):
            print(f"{name} {system}", file=sys.stderr)
            for refs_used in ref_sets:
                run("chrf", {}, name, system, refs_used, None)
                run("chrf", {"word_order": 2}, name, system, refs_used, None)
                for options in CHRF_VARIANTS.values():
                    run("chrf", options, name, system, refs_used, VARIANT_LINES)
                for options in TER_VARIANTS.values():
                    run("ter", options, name, system, refs_used, VARIANT_LINES)
                if lang in ASIAN_LANGS:
                    for options in TER_ASIAN_VARIANTS.values():
                        run("ter", options, name, system, refs_used, ASIAN_LINES)
            run("ter", {}, name, system, refs_all[:1], None)
            # Sentence level, against every reference.
            hyps = hypotheses(name)[system][:SENTENCE_LINES]
            refs = [read_lines(DATA / name / f"{r}.gz")[:SENTENCE_LINES] for r in refs_all]
            for metric_name, options in (
                ("chrf", {}), ("chrf", {"word_order": 2, "eps_smoothing": True}),
                ("ter", {}), ("ter", {"normalized": True, "asian_support": lang in ASIAN_LANGS}),
            ):
                if metric_name == "ter" and options.get("asian_support"):
                    hyps_here, refs_here = hyps[:10], [r[:10] for r in refs]
                else:
                    hyps_here, refs_here = hyps, refs
                metric = (CHRF if metric_name == "chrf" else TER)(**options)  # type: ignore[arg-type]
                scores = [metric.sentence_score(h, [r[i] for r in refs_here]).score
                          for i, h in enumerate(hyps_here)]
                sentence_cases.append({"set": name, "system": system, "metric": metric_name, "options": options,
                                       "refs": refs_all, "lines": len(hyps_here), "scores": scores})

        pub_path = DATA / name / "PUBLISHED_SCORES.tsv"
        if pub_path.exists():
            labels = published_ref_letter(name)
            rows = [line.split("\t") for line in pub_path.read_text().splitlines()[1:]]
            for _pair, system, _id, _constrained, metric_label, value in rows:
                if not metric_label.startswith("chrf-") or system not in SETS[name][1]:
                    continue
                label = metric_label[len("chrf-"):]
                # "all" is all references in our order; for the wmt22 zh pairs the organisers
                # gave them in the order B, A (which decides chrF's ties); wmt23-en-he used refA only.
                candidates = [refs_all, refs_all[::-1], refs_all[:1]] if label == "all" else (
                    [[labels[label]]] if label in labels else [])
                hyps = hypotheses(name)[system]
                for refs_used in candidates:
                    refs = [read_lines(DATA / name / f"{r}.gz") for r in refs_used]
                    oracle = CHRF().corpus_score(hyps, refs).score
                    if abs(oracle - float(value)) < 1e-9:
                        published.append({"set": name, "system": system, "row": metric_label,
                                          "published": float(value), "refs": refs_used, "oracle": oracle})
                        break
                else:
                    problems.append(f"{name} {system} {metric_label}={value}: not reproduced by the oracle")

    OUT.write_text(json.dumps({
        "sacrebleu": sacrebleu.__version__,
        "variant_lines": VARIANT_LINES,
        "asian_lines": ASIAN_LINES,
        "corpus": corpus_cases,
        "sentence": sentence_cases,
        "published_chrf": published,
    }, indent=1, ensure_ascii=False) + "\n")
    for problem in problems:
        print("WARNING:", problem, file=sys.stderr)
    print(f"wrote {OUT}: {len(corpus_cases)} corpus, {len(sentence_cases)} sentence, "
          f"{len(published)} published rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
