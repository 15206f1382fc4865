"""``bleucli compare`` on real sizes: generation time, report size, and the page in a browser.

    python bench/bench_compare.py [--repeat 3] [--systems 4] [--large 21000] [--browser]
    python bench/bench_compare.py --scale 25000 200000 [--before ../before]
    python bench/bench_compare.py --whole [--repeat 3] [--jobs 1 2] [--formats markdown json html] [--before ../before]

Every generation is a fresh process (``python -m bleucli compare REF -i SYS... --html``),
measured from a small wrapper process: wall time, CPU time (user + system) and peak
RSS. Medians over ``--repeat`` runs. Rows:

* the first ``--systems`` WMT17 en-de systems (3,004 segments), the issue's
  "3,000-segment, 4-system report";
* with ``--large N``: the same systems' lines repeated up to N segments, above
  the lazy-rendering threshold (20,000 rows), generated once.

With ``--browser`` (Playwright and /usr/bin/chromium), each report is opened from
``file://`` and the time to the ``load`` event, to a sort of the first delta
column and to a "worse than baseline" filter is measured in the page (median of
``--repeat``), with the number of rows in the DOM after opening. A sort and a
filter are timed twice: the script's own work (the click handler), and to the
next frame (the style, layout and paint the browser does after the handler
returns: what the reader waits for).

With ``--scale N...`` it measures instead ``compare`` at scale: N segments x 2
systems with a source, built from every set of the shared data that has a
source and two systems (source, first reference, first two systems, line-aligned),
shuffled (seed 1) and repeated up to N; a row per size, with the page's size.
``--before DIR`` adds the same row for another checkout (``PYTHONPATH=DIR``, its
C extension built), so before and after run under the same load.

With ``--whole`` it measures instead the whole ``compare`` run on all 16 WMT17 en-de
systems (3,004 segments) with BLEU, chrF and TER, per output format and ``-j``
(medians of ``--repeat``: wall, user CPU, CPU; ``--before DIR`` alternates with
another checkout's runs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import REPO, SHARED, read_lines

_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "user": usage.ru_utime,
                  "rss_kb": usage.ru_maxrss}))
"""

_IN_PAGE = """async () => {
    const frame = () => new Promise(done => requestAnimationFrame(() => setTimeout(done)));
    await frame();
    const t0 = performance.now();
    document.querySelector('button[data-key=d1]').click();
    const sorted = performance.now() - t0;
    await frame();
    const sortedFrame = performance.now() - t0;
    const sign = document.getElementById('f-sign');
    const t1 = performance.now();
    sign.value = 'worse'; sign.dispatchEvent(new Event('change'));
    const filtered = performance.now() - t1;
    await frame();
    const filteredFrame = performance.now() - t1;
    return {sorted, sortedFrame, filtered, filteredFrame};
}"""


def generate(command: list[str], repeat: int, cwd: Path = REPO) -> dict[str, float]:
    """Median wall and CPU, largest peak RSS of ``repeat`` runs of ``command`` from ``cwd``.

    ``python -m`` puts its working directory first on ``sys.path``: a checkout measured through
    ``PYTHONPATH`` must be the working directory too, or the code of ``cwd`` runs instead.
    """
    runs = []
    for _ in range(repeat):
        result = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True,
                                check=True, cwd=cwd)
        runs.append(json.loads(result.stdout))
    return {"wall": statistics.median(r["wall"] for r in runs), "cpu": statistics.median(r["cpu"] for r in runs),
            "user": statistics.median(r["user"] for r in runs), "rss_mb": max(r["rss_kb"] for r in runs) / 1024}


def in_browser(page_path: Path, repeat: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    runs = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for _ in range(repeat):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(page_path.as_uri(), wait_until="load")
            timing = page.evaluate("() => { const t = performance.getEntriesByType('navigation')[0];"
                                   " return {load: t.loadEventEnd, domRows: document.querySelectorAll("
                                   "'#sentences tbody tr').length}; }")
            timing.update(page.evaluate(_IN_PAGE))
            runs.append(timing)
            page.close()
        browser.close()
    return {key: statistics.median(r[key] for r in runs)
            for key in ("load", "domRows", "sorted", "sortedFrame", "filtered", "filteredFrame")}


def scale_inputs(size: int, folder: Path) -> list[Path]:
    """Source, reference and two systems of ``size`` segments from the shared sets (shuffled, repeated)."""
    import random

    quads: list[tuple[str, ...]] = []
    for data in sorted(p for p in SHARED.iterdir() if p.is_dir()):
        sources, refs = sorted(data.glob("src.*")), sorted(data.glob("ref.*"))
        systems = sorted((data / "sys").glob("*")) if (data / "sys").is_dir() else []
        if not sources or not refs or len(systems) < 2:
            continue
        quads += list(zip(*(read_lines(path) for path in (sources[0], refs[0], systems[0], systems[1]))))
    rng = random.Random(1)
    rows: list[tuple[str, ...]] = []
    while len(rows) < size:
        batch = quads[:]
        rng.shuffle(batch)
        rows += batch
    paths = [folder / f"{name}.{size}" for name in ("src", "ref", "A", "B")]
    for i, path in enumerate(paths):
        path.write_text("".join(row[i] + "\n" for row in rows[:size]), encoding="utf-8")
    return paths


def scale(sizes: list[int], before: str | None) -> None:
    import os

    print("| compare, 2 systems + source | checkout | wall | CPU | peak RSS | page |")
    print("|---|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        for size in sizes:
            src, ref, a, b = scale_inputs(size, out)
            for label, path in ([("before", before)] if before else []) + [("after", str(REPO))]:
                html = out / f"{label}.html"
                command = ["env", f"PYTHONPATH={os.path.abspath(path)}", sys.executable, "-m", "bleucli", "compare",
                           str(ref), "-i", str(a), str(b), "--source", str(src), "--html", str(html), "-q"]
                figures = generate(command, 1, cwd=Path(path).resolve())
                print(f"| {size:,} segments | {label} | {figures['wall']:.0f} s | {figures['cpu']:.0f} s | "
                      f"{figures['rss_mb']:,.0f} MB | {html.stat().st_size / 1e6:.0f} MB |", flush=True)
                html.unlink()


def whole_run(before: str | None, repeat: int, jobs: list[int], formats: list[str]) -> None:
    """``compare`` on every WMT17 en-de system (16 x 3,004 segments) with BLEU, chrF and TER, start to end.

    A row per output format and ``-j``, and per checkout with ``--before``: the runs of both checkouts
    alternate, so that both see the same load. Medians of ``repeat`` runs: wall time, user CPU and
    CPU (user + system) of the process and its workers, and the largest peak RSS of one process.
    """
    import os

    wmt17 = SHARED / "wmt17-en-de"
    systems = [str(path) for path in sorted((wmt17 / "sys").iterdir())]
    checkouts = ([("before", before)] if before else []) + [("after", str(REPO))]
    print(f"| compare, {len(systems)} WMT17 systems x BLEU, chrF, TER | checkout | wall s | user CPU s | CPU s "
          "| peak RSS MB |")
    print("|---|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for fmt in formats:
            for job in jobs:
                runs: dict[str, list[dict[str, float]]] = {label: [] for label, _ in checkouts}
                for _ in range(repeat):
                    for label, path in checkouts:
                        command = ["env", f"PYTHONPATH={os.path.abspath(path)}", sys.executable, "-m", "bleucli",
                                   "compare", str(wmt17 / "ref.de"), "-i", *systems, "-m", "bleu", "chrf", "ter",
                                   "-j", str(job), "-q", f"--{fmt}", str(Path(folder) / f"report.{fmt}")]
                        runs[label].append(generate(command, 1, cwd=Path(path).resolve()))
                for label, _ in checkouts:
                    figures = runs[label]
                    print(f"| `--{fmt}`, `-j {job}` | {label} | {statistics.median(r['wall'] for r in figures):.2f} | "
                          f"{statistics.median(r['user'] for r in figures):.2f} | "
                          f"{statistics.median(r['cpu'] for r in figures):.2f} | "
                          f"{max(r['rss_mb'] for r in figures):.0f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--large", type=int, default=0, help="also a report of this many segments (0: none)")
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--scale", type=int, nargs="+", default=None, metavar="N",
                        help="compare at scale: N segments x 2 systems with a source (no other row)")
    parser.add_argument("--before", default=None, metavar="DIR",
                        help="with --scale or --whole: another checkout, measured too")
    parser.add_argument("--whole", action="store_true",
                        help="compare on all 16 WMT17 systems with BLEU, chrF and TER, start to end (no other row)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="with --whole: the -j values")
    parser.add_argument("--formats", nargs="+", default=["markdown"], choices=["markdown", "json", "html"],
                        help="with --whole: the outputs, a row each")
    args = parser.parse_args()
    if args.scale:
        scale(args.scale, args.before)
        return
    if args.whole:
        whole_run(args.before, args.repeat, args.jobs, args.formats)
        return

    wmt17 = SHARED / "wmt17-en-de"
    ref = wmt17 / "ref.de"
    systems = sorted((wmt17 / "sys").iterdir())[:args.systems]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        cases = [(f"wmt17-en-de, {len(read_lines(ref)):,} segments, {len(systems)} systems", ref, systems,
                  args.repeat)]
        if args.large:
            big_ref = out / "ref.de"
            lines = read_lines(ref)
            big_ref.write_text("".join(lines[i % len(lines)] + "\n" for i in range(args.large)), encoding="utf-8")
            big_systems = []
            for path in systems:
                lines = read_lines(path)
                big = out / path.name
                big.write_text("".join(lines[i % len(lines)] + "\n" for i in range(args.large)), encoding="utf-8")
                big_systems.append(big)
            cases.append((f"wmt17-en-de repeated, {args.large:,} segments, {len(systems)} systems (lazy)", big_ref,
                          big_systems, 1))
        print("| report | generation wall | CPU | peak RSS | HTML size |"
              + (" load | rows in DOM | sort | sort, to next frame | filter | filter, to next frame |"
                 if args.browser else ""))
        print("|---|---:|---:|---:|---:|" + ("---:|---:|---:|---:|---:|---:|" if args.browser else ""))
        for label, reference, inputs, repeat in cases:
            html = out / "report.html"
            figures = generate([sys.executable, "-m", "bleucli", "compare", str(reference), "-i",
                                *map(str, inputs), "--html", str(html), "-q"], repeat)
            row = (f"| {label} | {figures['wall']:.1f} s | {figures['cpu']:.1f} s | {figures['rss_mb']:.0f} MB | "
                   f"{html.stat().st_size / 1e6:.1f} MB |")
            if args.browser:
                page = in_browser(html, args.repeat)
                row += (f" {page['load'] / 1000:.2f} s | {page['domRows']:,.0f} | {page['sorted']:.0f} ms | "
                        f"{page['sortedFrame']:.0f} ms | {page['filtered']:.0f} ms | {page['filteredFrame']:.0f} ms |")
            print(row, flush=True)


if __name__ == "__main__":
    main()
