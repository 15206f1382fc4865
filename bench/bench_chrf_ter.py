"""Time bleucli's chrF/chrF++/TER against sacreBLEU 2.6.0's, side by side, in one run.

Usage::

    python bench/bench_chrf_ter.py [--data ../shared/data] [--runs 5] [--big-runs 3] [--skip-big]
    python bench/bench_chrf_ter.py --chrf-targets [--runs 3] [--cli-lines 100000]

``--chrf-targets`` measures chrF's rows instead (:func:`chrf_targets`): the Python API on 20,000
unique pairs (chrF2, chrF2++), ``sentence_score`` on 5,000 of them, a 100x100 ``pairwise_scores``
matrix against fastchrf's ``pairwise_chrf`` (every cell checked against sacreBLEU's
``sentence_chrf``), and the command line (start-up included, CPU of the process and its peak
memory) on ``--cli-lines`` unique lines.
    python bench/bench_chrf_ter.py --ter [--runs 5]     # only TER's rows (below)

Two corpora:

* ``wmt17-en-de``: 3004 segments, system LIUM-NMT.4900 against the reference.
* ``mixed-100k``: 100,000 (hypothesis, reference) pairs concatenated from every
  shared set and system, keeping a pair only if its hypothesis line has not
  been seen before (so no tokenizer cache can help either side).

Each timing is one library call as the CLI makes it: build the metric with the
references (both libraries cache reference n-grams/words), then score the
system. Runs of the two libraries alternate, so both see the same machine load;
the median of the runs is reported, with the ratio sacreBLEU/bleucli and a
check that the two scores are equal as floats. Times are process CPU time
(the machine is shared; CPU time is less sensitive to other load than wall time).

TER's rows (``--ter`` runs only these; they also follow the chrF rows):

* ``mixed-10k``: TER through the Python API on the first 10,000 pairs of the
  unique corpus above, every segment score compared too (``sentence_score``
  of each pair by both libraries, outside the timing).
* ``cli-10k``: ``python -m bleucli REF -i HYP -m ter -b`` against ``python -m
  sacrebleu`` on 10,000 unique lines (``common.build_large_corpus``), fresh
  processes, start-up included, CPU time of the process and its peak RSS.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def read(path: Path) -> list[str]:
    """Lines as the CLIs read them (trailing whitespace stripped)."""
    return [line.rstrip() for line in path.read_text(encoding="utf-8").split("\n")[:-1]]


def wmt17(data: Path) -> tuple[list[str], list[list[str]]]:
    base = data / "wmt17-en-de"
    return read(base / "sys" / "LIUM-NMT.4900.de"), [read(base / "ref.de")]


def mixed(data: Path, size: int = 100_000) -> tuple[list[str], list[list[str]]]:
    hyps: list[str] = []
    refs: list[str] = []
    seen: set[str] = set()
    sets = sorted(p for p in data.iterdir() if p.is_dir())
    while len(hyps) < size:
        before = len(hyps)
        for base in sets:
            ref_path = next(base.glob("ref.*"))
            ref = read(ref_path)
            systems = sorted((base / "sys").glob("*")) if (base / "sys").exists() else [base / f"ref2{ref_path.suffix}"]
            for sys_path in systems:
                for hyp, r in zip(read(sys_path), ref):
                    if hyp not in seen:
                        seen.add(hyp)
                        hyps.append(hyp)
                        refs.append(r)
                        if len(hyps) == size:
                            return hyps, [refs]
        if len(hyps) == before:
            raise SystemExit(f"only {len(hyps)} unique lines available")
    return hyps, [refs]


def timed(fn: Callable[[], float]) -> tuple[float, float]:
    start = time.process_time()
    score = fn()
    return time.process_time() - start, score


def _score(cls: type, options: dict, hyps: list[str], refs: list[list[str]]) -> float:
    """One metric built with ``references=`` and scored on ``hyps`` (bleucli's and sacreBLEU's API alike)."""
    return cls(**options, references=refs).corpus_score(hyps, None).score


def bench(label: str, hyps: list[str], refs: list[list[str]], runs: int, configs) -> list[tuple]:
    import sacrebleu.metrics as oracle

    import bleucli
    rows = []
    for name, cls_name, options in configs:
        ours_t, theirs_t = [], []
        ours_s = theirs_s = None
        ours_cls, theirs_cls = getattr(bleucli, cls_name), getattr(oracle, cls_name)
        for _ in range(runs):
            t, ours_s = timed(partial(_score, ours_cls, options, hyps, refs))
            ours_t.append(t)
            t, theirs_s = timed(partial(_score, theirs_cls, options, hyps, refs))
            theirs_t.append(t)
        ours_m, theirs_m = statistics.median(ours_t), statistics.median(theirs_t)
        row = (label, len(hyps), name, ours_m, theirs_m, theirs_m / ours_m, ours_s == theirs_s, ours_s)
        rows.append(row)
        print(f"{label:<12} {len(hyps):>7} {name:<10} bleucli {ours_m:8.2f}s  sacreBLEU {theirs_m:8.2f}s  "
              f"x{theirs_m / ours_m:5.1f}  equal={ours_s == theirs_s}  score={ours_s:.6f}", flush=True)
    return rows


CONFIGS = [
    ("chrF2", "CHRF", {}),
    ("chrF2++", "CHRF", {"word_order": 2}),
    ("TER", "TER", {}),
]


def _median_pair(runs: int, ours: Callable[[], object], theirs: Callable[[], object]) -> tuple[float, float, bool]:
    """Median CPU seconds of two alternating callables, and whether their results were equal."""
    ours_t, theirs_t = [], []
    equal = True
    for _ in range(runs):
        t, a = timed(ours)  # type: ignore[arg-type]
        ours_t.append(t)
        t, b = timed(theirs)  # type: ignore[arg-type]
        theirs_t.append(t)
        equal = equal and a == b
    return statistics.median(ours_t), statistics.median(theirs_t), equal


def _report(label: str, n: int, name: str, ours: float, theirs: float, equal: bool, rival: str = "sacreBLEU") -> tuple:
    print(f"{label:<12} {n:>7} {name:<10} bleucli {ours:8.3f}s  {rival} {theirs:8.3f}s  x{theirs / ours:5.1f}  "
          f"equal={equal}", flush=True)
    return (label, n, name, ours, theirs, theirs / ours, equal, rival)


def chrf_targets(data: Path, runs: int = 3, pairs: int = 20_000, sentences: int = 5_000,
                 cli_lines: int = 100_000) -> list[tuple]:
    """chrF's rows: Python API, sentence_score, a 100x100 pairwise matrix, the command line.

    Each row: (label, size, name, bleucli seconds, rival seconds, ratio, equal, rival); CPU time,
    medians of ``runs`` alternating runs (the command line: ``bench_cli.measure``, start-up and
    peak memory of each process included).
    """
    import sacrebleu.metrics as oracle
    from sacrebleu import sentence_chrf

    import bleucli
    rows = []
    hyps, refs = mixed(data, pairs)
    rows += bench(f"unique-{pairs // 1000}k", hyps, refs, runs, CONFIGS[:2])

    ours_metric, their_metric = bleucli.CHRF(), oracle.CHRF()
    pairs_list = list(zip(hyps[:sentences], refs[0][:sentences]))
    rows.append(_report("sentence", len(pairs_list), "chrF2", *_median_pair(
        runs, lambda: [ours_metric.sentence_score(h, [r]).score for h, r in pairs_list],
        lambda: [their_metric.sentence_score(h, [r]).score for h, r in pairs_list])))

    try:
        import fastchrf
    except ImportError:
        print("pairwise: fastchrf not installed, row skipped", flush=True)
    else:
        matrix_hyps, matrix_refs = hyps[:100], refs[0][:100]
        ours_t, rust_t, equal = _median_pair(
            runs, lambda: bleucli.CHRF().pairwise_scores(matrix_hyps, matrix_refs),
            lambda: fastchrf.pairwise_chrf([matrix_hyps], [matrix_refs])[0])
        ours = bleucli.CHRF().pairwise_scores(matrix_hyps, matrix_refs)
        exact = ours == [[sentence_chrf(h, [r]).score for r in matrix_refs] for h in matrix_hyps]
        rows.append(_report("pairwise", 100 * 100, "chrF2", ours_t, rust_t, exact, "fastchrf"))
        print(f"{'':<12} every cell equals sacreBLEU's sentence_chrf: {exact}; equal to fastchrf's: {equal}",
              flush=True)

    import tempfile

    from bench_cli import measure
    cli_hyps, cli_refs = mixed(data, cli_lines)
    with tempfile.TemporaryDirectory() as tmp:
        ref_path, hyp_path = Path(tmp) / "ref", Path(tmp) / "hyp"
        ref_path.write_text("".join(line + "\n" for line in cli_refs[0]), encoding="utf-8")
        hyp_path.write_text("".join(line + "\n" for line in cli_hyps), encoding="utf-8")
        args = (str(ref_path), "-i", str(hyp_path), "-m", "chrf", "-b")
        ours_run = measure([sys.executable, "-m", "bleucli", *args], runs)
        theirs_run = measure([sys.executable, "-m", "sacrebleu", *args], 1)
    row = _report("cli", cli_lines, "chrF2", ours_run["cpu"], theirs_run["cpu"],  # type: ignore[arg-type]
                  ours_run["out"] == theirs_run["out"])
    print(f"{'':<12} peak memory: bleucli {ours_run['rss_mb']:.1f} MiB, sacreBLEU {theirs_run['rss_mb']:.1f} MiB",
          flush=True)
    rows.append(row + (ours_run["rss_mb"], theirs_run["rss_mb"]))
    return rows
def ter_segments_equal(hyps: list[str], refs: list[list[str]]) -> bool:
    """Every pair's ``sentence_score`` equal in both libraries (TER's per-segment numbers)."""
    import sacrebleu.metrics as oracle

    import bleucli
    ours, theirs = bleucli.TER(), oracle.TER()
    return all(ours.sentence_score(h, [r]).score == theirs.sentence_score(h, [r]).score
               for h, r in zip(hyps, refs[0]))


def ter_cli(runs: int) -> tuple:
    """TER through both command lines on 10,000 unique lines, runs alternating; CPU medians, peak RSS."""
    import subprocess

    from bench_cli import _scores, bleucli, measure, sacrebleu
    from common import REPO, build_large_corpus

    # byte-compiled first, as an installed package is (bench_cli.py does the same)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "bleucli")], check=True,
                   stdout=subprocess.DEVNULL)
    hyp, ref = build_large_corpus(10_000)
    ours_runs, theirs_runs = [], []
    for _ in range(runs):
        ours_runs.append(measure(bleucli(str(ref), "-i", str(hyp), "-m", "ter"), 1))
        theirs_runs.append(measure(sacrebleu(str(ref), "-i", str(hyp), "-m", "ter"), 1))
    ours_m = statistics.median(float(r["cpu"]) for r in ours_runs)
    theirs_m = statistics.median(float(r["cpu"]) for r in theirs_runs)
    equal = _scores(ours_runs[0]["out"]) == _scores(theirs_runs[0]["out"])  # type: ignore[arg-type]
    rss = max(float(r["rss_mb"]) for r in ours_runs), max(float(r["rss_mb"]) for r in theirs_runs)
    print(f"{'cli-10k':<12} {10_000:>7} {'TER':<10} bleucli {ours_m:8.2f}s  sacreBLEU {theirs_m:8.2f}s  "
          f"x{theirs_m / ours_m:5.1f}  equal={equal}  peak RSS bleucli {rss[0]:.0f} MB, sacreBLEU {rss[1]:.0f} MB",
          flush=True)
    return ours_m, theirs_m, equal, rss


def ter_rows(data: Path, runs: int) -> None:
    """TER's rows: the Python API on 10,000 unique pairs (segments compared too) and the CLI on 10,000 lines."""
    hyps, refs = mixed(data, 10_000)
    bench("mixed-10k", hyps, refs, runs, [("TER", "TER", {})])
    print(f"{'mixed-10k':<12} {len(hyps):>7} {'TER':<10} every sentence_score equal: "
          f"{ter_segments_equal(hyps, refs)}", flush=True)
    ter_cli(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--runs", type=int, default=5, help="runs per library on the 3k set (median)")
    parser.add_argument("--big-runs", type=int, default=3, help="runs per library on the 100k corpus (median)")
    parser.add_argument("--skip-big", action="store_true", help="only the 3k set")
    parser.add_argument("--chrf-targets", action="store_true", help="chrF's rows: API, sentence, pairwise, CLI")
    parser.add_argument("--cli-lines", type=int, default=100_000, help="unique lines of --chrf-targets' CLI row")
    parser.add_argument("--ter", action="store_true", help="only TER's rows (API on 10k pairs, CLI on 10k lines)")
    args = parser.parse_args()
    import sacrebleu
    print(f"sacreBLEU {sacrebleu.__version__}, Python {sys.version.split()[0]}", flush=True)
    from common import print_matcher

    print_matcher()
    if args.chrf_targets:
        chrf_targets(args.data, args.runs, cli_lines=args.cli_lines)
        return 0
    if args.ter:
        ter_rows(args.data, args.runs)
        return 0
    hyps, refs = wmt17(args.data)
    bench("wmt17-en-de", hyps, refs, args.runs, CONFIGS)
    if not args.skip_big:
        hyps, refs = mixed(args.data)
        bench("mixed-100k", hyps, refs, args.big_runs, CONFIGS)
    ter_rows(args.data, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
