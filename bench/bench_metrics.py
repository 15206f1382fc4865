"""Every metric side by side in one run: bleucli, sacreBLEU 2.6 and the peers that install here.

    python bench/bench_metrics.py [--repeat 3] [--parts api,cli,sentence,pairwise,pbs]
                                  [--pairs 20000] [--ter-pairs 10000] [--cli-lines 100000]
                                  [--cli-ter-lines 10000] [--sentences 2000] [--pairwise 100] [--pbs-systems 8]

One Markdown table, each row a workload, each figure the median CPU time of
``--repeat`` runs and its ratio to sacreBLEU's (sacreBLEU's time / the tool's),
with the peak RSS of the process that ran it. Every bleucli score is checked
equal to sacreBLEU's (the script stops if one differs); a peer's score is
printed beside it with whether it is equal.

* **api**: the Python API on ``--pairs`` unique WMT (hypothesis, reference)
  pairs (``bench_chrf_ter.mixed``: every shared set and system, each
  hypothesis line once), TER on the first ``--ter-pairs``: BLEU, chrF, chrF++,
  TER, each tool in its own fresh process (``--worker``), so its peak RSS is its
  own (interpreter and inputs included, the same for every tool). Peers:
  ``bleuscore`` (Rust; BLEU only: ``compute``, no smoothing, which changes
  nothing at corpus level) and ``sacrebleu-mojo``, each run only if it
  imports here, otherwise its column says why not.
* **cli**: the command line with start-up, fresh processes (``bench_cli.measure``):
  chrF2 on ``--cli-lines`` unique lines (``common.build_large_corpus``), TER
  on ``--cli-ter-lines``.
* **sentence**: ``CHRF().sentence_score`` per pair, ``--sentences`` pairs.
* **pairwise**: a ``--pairwise`` x ``--pairwise`` chrF matrix of real system
  lines: bleucli's ``pairwise_scores`` against fastchrf's ``pairwise_chrf``
  (Rust) and sacreBLEU's ``sentence_chrf`` in a loop; every bleucli cell must
  equal sacreBLEU's (fastchrf's cells are compared and reported).
* **pbs**: ``-pbs`` over ``--pbs-systems`` systems of WMT22 en-de (sorted
  names, the first is the baseline; reference ``ref.de``) with ``-m bleu chrf``,
  both CLIs in fresh processes, text output compared line by line (the
  version in the signatures aside).

bleucli's modules are byte-compiled first, as an installed package's are.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_chrf_ter import mixed  # noqa: E402
from bench_cli import measure  # noqa: E402
from bench_variants import sentences  # noqa: E402
from common import REPO, SHARED, build_large_corpus, clear_sacrebleu_caches, print_matcher  # noqa: E402

TOOLS = ("sacreBLEU", "bleucli", "bleuscore", "sacrebleu-mojo")
#: The last column: a peer of one workload only (fastchrf for the pairwise matrix).
OTHER = "other peer"
METRICS = {"BLEU": ("BLEU", {}), "chrF": ("CHRF", {}), "chrF++": ("CHRF", {"word_order": 2}), "TER": ("TER", {})}
PBS_SET = "wmt22-en-de"


# -- peers ------------------------------------------------------------------------------------------
def peer_status(tool: str) -> str | None:
    """None if ``tool`` imports here, else why it cannot run (for its column)."""
    module = {"bleuscore": "bleuscore", "sacrebleu-mojo": "sacrebleu_mojo"}[tool]
    try:
        __import__(module)
    except ImportError:
        if tool == "sacrebleu-mojo" and sys.version_info < (3, 12):
            return f"not installable: its wheels require Python >= 3.12 (here {sys.version.split()[0]})"
        return f"not installable here: `pip install {tool}` failed"
    return None


def score_once(tool: str, metric: str, hyps: list[str], refs: list[list[str]]) -> float | None:
    """One corpus score through ``tool``'s Python API (None: the tool has no such metric)."""
    cls_name, options = METRICS[metric]
    if tool == "sacreBLEU":
        import sacrebleu.metrics as oracle

        return getattr(oracle, cls_name)(**options, references=refs).corpus_score(hyps, None).score
    if tool == "bleucli":
        import bleucli

        return getattr(bleucli, cls_name)(**options, references=refs).corpus_score(hyps, None).score
    if tool == "bleuscore" and metric == "BLEU":
        import bleuscore

        result = bleuscore.compute(references=[list(r) for r in zip(*refs)], predictions=hyps, max_order=4)
        return 100 * result["bleu"]
    if tool == "sacrebleu-mojo":
        import sacrebleu_mojo  # type: ignore[import-not-found]

        scorer = getattr(sacrebleu_mojo, {"BLEU": "corpus_bleu", "chrF": "corpus_chrf"}.get(metric, ""), None)
        return None if scorer is None or metric in ("chrF++", "TER") else scorer(hyps, refs).score
    return None


def worker(tool: str, metric: str, pairs: int, repeat: int) -> None:
    """``--worker``: time one tool on one metric in this fresh process; print JSON."""
    hyps, refs = mixed(SHARED, pairs)
    times, score = [], None
    for _ in range(repeat):
        clear_sacrebleu_caches()
        start = time.process_time()
        score = score_once(tool, metric, hyps, refs)
        times.append(time.process_time() - start)
        if score is None:
            break
    print(json.dumps({"cpu": statistics.median(times), "score": score,
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def run_worker(tool: str, metric: str, pairs: int, repeat: int) -> dict:
    done = subprocess.run([sys.executable, __file__, "--worker", tool, metric, str(pairs), str(repeat)],
                          capture_output=True, text=True, check=True, cwd=REPO)
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- cells ------------------------------------------------------------------------------------------
def cell(cpu: float, base: float, rss_mb: float | None = None) -> str:
    memory = f", {rss_mb:,.0f} MiB" if rss_mb is not None else ""
    return f"{cpu:.3f} s ({base / cpu:.1f}x{memory})"


def same(ours: float, theirs: float, what: str) -> None:
    if ours != theirs:
        raise SystemExit(f"{what}: bleucli {ours!r} != sacreBLEU {theirs!r}")


# -- parts ------------------------------------------------------------------------------------------
def part_api(args: argparse.Namespace, peers: dict[str, str | None]) -> list[list[str]]:
    rows = []
    for metric in METRICS:
        pairs = args.ter_pairs if metric == "TER" else args.pairs
        results = {tool: run_worker(tool, metric, pairs, args.repeat) for tool in ("sacreBLEU", "bleucli")}
        base = results["sacreBLEU"]["cpu"]
        same(results["bleucli"]["score"], results["sacreBLEU"]["score"], f"API {metric}")
        row = [f"API {metric}, {pairs:,} unique pairs", cell(base, base, results["sacreBLEU"]["rss_mb"]),
               cell(results["bleucli"]["cpu"], base, results["bleucli"]["rss_mb"])]
        for tool in ("bleuscore", "sacrebleu-mojo"):
            if peers[tool] is not None:
                row.append("–")
                continue
            result = run_worker(tool, metric, pairs, args.repeat)
            if result["score"] is None:
                row.append("– (no such metric)")
            else:
                equal = "same score" if result["score"] == results["sacreBLEU"]["score"] else \
                    f"score {result['score']!r} vs {results['sacreBLEU']['score']!r}"
                row.append(f"{cell(result['cpu'], base, result['rss_mb'])}; {equal}")
        row.append("–")
        rows.append(row)
        print(" | ".join(row), flush=True)
    return rows


def _cli_scores(words: list[str]) -> list[str]:
    return [w for w in words if re.fullmatch(r"\d+\.\d+", w)]


def part_cli(args: argparse.Namespace) -> list[list[str]]:
    rows = []
    for metric, flag, lines in (("chrF2", "chrf", args.cli_lines), ("TER", "ter", args.cli_ter_lines)):
        hyp, ref = build_large_corpus(lines)
        theirs = measure([sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), "-m", flag, "-b"], args.repeat)
        ours = measure([sys.executable, "-m", "bleucli", str(ref), "-i", str(hyp), "-m", flag, "-b"], args.repeat)
        same(float(_cli_scores(ours["out"])[0]), float(_cli_scores(theirs["out"])[0]), f"CLI {metric}")  # type: ignore[arg-type]
        base = float(theirs["cpu"])  # type: ignore[arg-type]
        row = [f"CLI {metric}, {lines:,} unique lines (start-up included)",
               cell(base, base, float(theirs["rss_mb"])),  # type: ignore[arg-type]
               cell(float(ours["cpu"]), base, float(ours["rss_mb"])), "–", "–", "–"]  # type: ignore[arg-type]
        rows.append(row)
        print(" | ".join(row), flush=True)
    return rows


def median_cpu(function: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        clear_sacrebleu_caches()
        start = time.process_time()
        result = function()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def part_sentence(args: argparse.Namespace) -> list[list[str]]:
    import sacrebleu

    import bleucli

    hyps, refs = mixed(SHARED, args.sentences)
    ours_metric, their_metric = bleucli.CHRF(), sacrebleu.CHRF()
    ours_t, ours = median_cpu(lambda: [ours_metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])],
                              args.repeat)
    theirs_t, theirs = median_cpu(lambda: [their_metric.sentence_score(h, [r]).score
                                           for h, r in zip(hyps, refs[0])], args.repeat)
    if ours != theirs:
        raise SystemExit("sentence_score chrF: bleucli differs from sacreBLEU")
    row = [f"`sentence_score` chrF, {args.sentences:,} pairs", cell(theirs_t, theirs_t), cell(ours_t, theirs_t),
           "–", "–", "–"]
    print(" | ".join(row), flush=True)
    return [row]


def part_pairwise(args: argparse.Namespace) -> list[list[str]]:
    import sacrebleu

    import bleucli

    text = sentences(args.pairwise)
    metric = bleucli.CHRF()
    ours_t, ours = median_cpu(lambda: metric.pairwise_scores(text, text), args.repeat)
    theirs_t, theirs = median_cpu(lambda: [[sacrebleu.sentence_chrf(h, [r]).score for r in text] for h in text],
                                  args.repeat)
    if ours != theirs:
        raise SystemExit("pairwise chrF: a bleucli cell differs from sacreBLEU's sentence_chrf")
    row = [f"pairwise chrF, {args.pairwise}x{args.pairwise} (vs looping `sentence_chrf`)", cell(theirs_t, theirs_t),
           cell(ours_t, theirs_t), "–", "–"]
    try:
        from fastchrf import pairwise_chrf
    except ImportError:
        row.append("fastchrf not installed")
    else:
        fast_t, fast = median_cpu(lambda: pairwise_chrf([text], [text])[0], args.repeat)
        equal = sum(a == b for row_a, row_b in zip(fast, theirs) for a, b in zip(row_a, row_b))  # type: ignore[call-overload]
        row.append(f"fastchrf `pairwise_chrf` (Rust): {cell(fast_t, theirs_t)}; bleucli is {fast_t / ours_t:.2f}x "
                   f"fastchrf's speed; {equal:,} of {args.pairwise ** 2:,} fastchrf cells equal sacreBLEU's")
    print(" | ".join(row), flush=True)
    return [row]


def _normalised(words: list[str]) -> list[str]:
    return [re.sub(r"version:[\w.]+", "version:*", w) for w in words]


def interleaved(commands: list[list[str]], repeat: int) -> list[dict[str, Any]]:
    """:func:`bench_cli.measure` of each command, the commands taking turns (one run each, ``repeat`` times).

    A shared machine's speed drifts over minutes: with all of one tool's runs before the other's, the
    drift went into the ratio (the same two trees measured 0.34 s and 0.49 s a few minutes apart).
    Taking turns exposes both tools to the same drift; the medians are of each command's runs.
    """
    runs = [[measure(command, 1) for command in commands] for _ in range(repeat)]
    return [{"cpu": statistics.median(float(r[k]["cpu"]) for r in runs),  # type: ignore[arg-type]
             "rss_mb": max(float(r[k]["rss_mb"]) for r in runs),  # type: ignore[arg-type]
             "out": runs[0][k]["out"]} for k in range(len(commands))]


def part_pbs(args: argparse.Namespace) -> list[list[str]]:
    folder = SHARED / PBS_SET
    systems = [str(p) for p in sorted((folder / "sys").iterdir())[:args.pbs_systems]]
    tail = [str(folder / "ref.de"), "-i", *systems, "-m", "bleu", "chrf", "-pbs", "-f", "text"]
    theirs, ours = interleaved([[sys.executable, "-m", "sacrebleu", *tail], [sys.executable, "-m", "bleucli", *tail]],
                               args.repeat)
    if _normalised(ours["out"]) != _normalised(theirs["out"]):  # type: ignore[arg-type]
        raise SystemExit("-pbs: bleucli's output differs from sacreBLEU's")
    base = float(theirs["cpu"])  # type: ignore[arg-type]
    row = [f"`-pbs`, {len(systems)} systems x BLEU+chrF, {PBS_SET} (1,000 resamples, CLI)",
           cell(base, base, float(theirs["rss_mb"])),  # type: ignore[arg-type]
           cell(float(ours["cpu"]), base, float(ours["rss_mb"])), "–", "–", "–"]  # type: ignore[arg-type]
    print(" | ".join(row), flush=True)
    return [row]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--parts", default="api,cli,sentence,pairwise,pbs")
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--ter-pairs", type=int, default=10_000)
    parser.add_argument("--cli-lines", type=int, default=100_000)
    parser.add_argument("--cli-ter-lines", type=int, default=10_000)
    parser.add_argument("--sentences", type=int, default=2_000)
    parser.add_argument("--pairwise", type=int, default=100)
    parser.add_argument("--pbs-systems", type=int, default=8)
    parser.add_argument("--worker", nargs=4, metavar=("TOOL", "METRIC", "PAIRS", "REPEAT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        tool, metric, pairs, repeat = args.worker
        worker(tool, metric, int(pairs), int(repeat))
        return

    import sacrebleu

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "bleucli")], check=True,
                   stdout=subprocess.DEVNULL)
    print(f"sacreBLEU {sacrebleu.__version__}, Python {sys.version.split()[0]}, medians of {args.repeat}", flush=True)
    print_matcher()
    peers = {tool: peer_status(tool) for tool in ("bleuscore", "sacrebleu-mojo")}
    for tool, why in peers.items():
        print(f"{tool}: {why or 'installed'}", flush=True)
    parts: dict[str, Callable[[], list[list[str]]]] = {
        "api": lambda: part_api(args, peers),
        "cli": lambda: part_cli(args),
        "sentence": lambda: part_sentence(args),
        "pairwise": lambda: part_pairwise(args),
        "pbs": lambda: part_pbs(args),
    }
    rows = [row for name in args.parts.split(",") for row in parts[name]()]
    header = ["workload", "sacreBLEU 2.6", "bleucli", *(f"{t} ({peers[t]})" if peers[t] else t for t in TOOLS[2:]),
              OTHER]
    print()
    print("CPU seconds (medians), speed-up over sacreBLEU, peak RSS of the process where measured; "
          "every bleucli score identical to sacreBLEU's.")
    print()
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
