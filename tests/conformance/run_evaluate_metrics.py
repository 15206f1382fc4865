"""Run Hugging Face ``evaluate``'s sacrebleu, chrf and ter metrics on bleucli and on sacreBLEU.

    python tests/conformance/run_evaluate_metrics.py PATH_TO_EVALUATE_CHECKOUT [--lines N]

``PATH`` is a checkout of the ``evaluate`` repository (anything holding
``metrics/sacrebleu/sacrebleu.py``, ``metrics/chrf/chrf.py`` and ``metrics/ter/ter.py``):
the metric scripts are loaded from there with ``evaluate.load(path)``, never from the
Hub, and never copied into this repository. Run it with a Python where ``evaluate``
and sacreBLEU are installed (``pip install evaluate``).

Each metric is computed twice, in two child processes, on the same calls: once as
``evaluate`` runs it (``import sacrebleu`` is sacreBLEU), once with bleucli's alias
installed (``bleucli.sacrebleu.alias.install()``: ``import sacrebleu`` is bleucli). The
calls are real WMT outputs and references of ``tests/data`` (corpus scores over the
first ``--lines`` lines, one and two references) and one call per line for sentence
scores, across the metrics' arguments. A call's result counts as identical when its
``repr`` is (the same keys, types and floats to the last digit), and an exception as
identical when its type name and message are. Exit status 0 when every call is.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
REPO = DATA.parent.parent

#: (set, target language, systems, tokenize argument of the sacrebleu metric for it)
SETS = (
    ("wmt22-en-de", "de", ("Online-B", "JDExploreAcademy"), None),
    ("wmt22-zh-en", "en", ("Online-B", "HuaweiTSC"), None),
    ("wmt22-en-zh", "zh", ("Online-B", "HuaweiTSC"), "zh"),
    ("wmt22-en-ja", "ja", ("Online-B", "NT5"), "ja-mecab"),
)

BLEU_ARGS = (
    {}, {"smooth_method": "floor", "smooth_value": 0.01}, {"smooth_method": "add-k", "smooth_value": 2},
    {"smooth_method": "none"}, {"lowercase": True}, {"force": True}, {"tokenize": "intl"}, {"tokenize": "char"},
    {"tokenize": "none"}, {"tokenize": "13a", "use_effective_order": True},
)
CHRF_ARGS = (
    {}, {"word_order": 2}, {"char_order": 4, "beta": 1}, {"lowercase": True}, {"whitespace": True},
    {"eps_smoothing": True}, {"word_order": 2, "eps_smoothing": True},
)
TER_ARGS = (
    {}, {"normalized": True}, {"ignore_punct": True}, {"support_zh_ja_chars": True}, {"case_sensitive": True},
    {"normalized": True, "ignore_punct": True, "case_sensitive": True},
)

#: What one child process runs: loads the three scripts and answers every call of ``calls.json``.
CHILD = r"""
import json, sys
side, metrics_dir, calls_file, out_file = sys.argv[1:5]
if side == "bleucli":
    from bleucli.sacrebleu.alias import install
    install()
import evaluate
import sacrebleu
assert (sacrebleu.__name__, type(sacrebleu.BLEU).__module__ and sacrebleu.BLEU.__module__.split(".")[0]) == (
    "sacrebleu", side), sacrebleu.BLEU.__module__
loaded = {name: evaluate.load(f"{metrics_dir}/{name}/{name}.py") for name in ("sacrebleu", "chrf", "ter")}
answers = []
for metric, kwargs, predictions, references in json.load(open(calls_file, encoding="utf-8")):
    try:
        answers.append(repr(loaded[metric].compute(predictions=predictions, references=references, **kwargs)))
    except Exception as error:  # the same failure on both sides is conformance too
        answers.append(f"{type(error).__name__}: {error}")
json.dump({"version": sacrebleu.__version__, "answers": answers}, open(out_file, "w", encoding="utf-8"))
"""


def _lines(path: Path, count: int) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [line.rstrip("\n") for _, line in zip(range(count), handle)]


def calls(count: int, sentences: int) -> list[tuple[str, dict[str, object], list[str], list[object]]]:
    """Every ``(metric, kwargs, predictions, references)`` both sides answer."""
    made: list[tuple[str, dict[str, object], list[str], list[object]]] = []
    for name, lang, systems, tokenize in SETS:
        folder = DATA / name
        refs = [_lines(path, count) for path in sorted(folder.glob(f"ref*.{lang}.gz"))]
        for system in systems:
            hyps = _lines(folder / "sys" / f"{system}.{lang}.gz", count)
            one = refs[0]  # evaluate's one-reference form: a string per prediction
            per_prediction = [list(group) for group in zip(*refs)]
            for references in ([*one], per_prediction):
                base = {"tokenize": tokenize} if tokenize else {}
                made += [("sacrebleu", {**base, **kwargs}, hyps, references) for kwargs in BLEU_ARGS]
                made += [("chrf", kwargs, hyps, references) for kwargs in CHRF_ARGS]
                made += [("ter", kwargs, hyps, references) for kwargs in TER_ARGS]
            for k in range(sentences):
                made += [("sacrebleu", {"use_effective_order": True}, [hyps[k]], [[one[k]]]),
                         ("chrf", {}, [hyps[k]], [[one[k]]]), ("ter", {}, [hyps[k]], [[one[k]]])]
    return made


def run_side(side: str, metrics_dir: Path, calls_file: Path, scratch: Path) -> dict[str, object]:
    out = scratch / f"{side}.json"
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_EVALUATE_OFFLINE="1",
               HF_HOME=str(scratch / f"hf-{side}"), PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, "-c", CHILD, side, str(metrics_dir), str(calls_file), str(out)],
                   env=env, check=True, cwd=scratch)
    answer: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="a checkout of huggingface/evaluate (holding metrics/)")
    parser.add_argument("--lines", type=int, default=100, help="lines of each system scored as a corpus")
    parser.add_argument("--sentences", type=int, default=10, help="lines of each system scored one by one")
    args = parser.parse_args(argv)
    metrics_dir = args.path.resolve() / "metrics"
    missing = [name for name in ("sacrebleu", "chrf", "ter") if not (metrics_dir / name / f"{name}.py").is_file()]
    if missing:
        print(f"{args.path}: no metrics/{missing[0]}/{missing[0]}.py in it", file=sys.stderr)
        return 2
    made = calls(args.lines, args.sentences)
    with tempfile.TemporaryDirectory(prefix="bleucli-evaluate-") as tmp:
        scratch = Path(tmp)
        calls_file = scratch / "calls.json"
        calls_file.write_text(json.dumps(made), encoding="utf-8")
        upstream = run_side("sacrebleu", metrics_dir, calls_file, scratch)
        ours = run_side("bleucli", metrics_dir, calls_file, scratch)
    pairs = list(zip(upstream["answers"], ours["answers"]))  # type: ignore[call-overload]
    same = sum(a == b for a, b in pairs)
    errors = sum(a == b and not a.startswith("{") for a, b in pairs)
    print(f"evaluate metrics: sacrebleu.__version__ is {upstream['version']} on sacreBLEU, "
          f"{ours['version']} under bleucli's alias")
    print(f"evaluate's sacrebleu/chrf/ter metrics: {same}/{len(pairs)} calls identical on bleucli "
          f"({errors} of them the same exception)")
    shown = 0
    for (metric, kwargs, _, _), (a, b) in zip(made, pairs):
        if a != b and shown < 10:
            shown += 1
            print(f"  {metric} {kwargs}: sacreBLEU {a}\n  {' ' * len(metric)} {' ' * len(str(kwargs))} bleucli   {b}")
    return 0 if same == len(pairs) else 1


if __name__ == "__main__":
    sys.exit(main())
