"""Metric plugins: examples/plugin_metric installed into a venv and used by every command.

The slow tests build a temporary virtual environment that sees this
interpreter's packages (bleucli and its dependencies, no network), install a
copy of ``examples/plugin_metric`` into it with ``pip --no-build-isolation``
and run ``python -m bleucli -m lenratio`` through the scoring modes, ``stats``/
``merge``, the significance tests and ``compare``. The fast ones load a plugin
in-process from a hand-made ``*.dist-info`` directory on ``sys.path``.

Nothing is written into the repository: the example is copied to a temporary
directory first, and the data come from ``examples/``.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

import bleucli.render.records  # noqa: F401  # its signature-key table is built at import: with the built-ins only
from bleucli.errors import OptionError
from bleucli.metrics import registry
from conftest import EXAMPLES, REPO

PLUGIN = REPO / "examples" / "plugin_metric"
REF, SYS_A, SYS_B = (EXAMPLES / name for name in ("ref.de", "Online-B.de", "Lan-Bridge.de"))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _expected(hyp_path: Path, ref_path: Path, chars: bool = False) -> tuple[float, int, int]:
    """LenRatio by hand: one reference, so the closest reference is the reference."""
    def length(line: str) -> int:
        return sum(not c.isspace() for c in line) if chars else len(line.split())

    hyp = sum(map(length, _lines(hyp_path)))
    ref = sum(map(length, _lines(ref_path)))
    return 100 * hyp / ref, hyp, ref


# -- in-process: the registry loading entry points from dist-info directories ------------------------------------------
def _fake_distribution(root: Path, dist: str, entry_points: str, modules: dict[str, str]) -> None:
    info = root / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    for name, text in modules.items():
        (root / f"{name}.py").write_text(text, encoding="utf-8")


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory on ``sys.path`` with a copy of the example's package; the registry re-reads plugins."""
    shutil.copytree(PLUGIN / "bleucli_lenratio", tmp_path / "bleucli_lenratio",
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(registry, "_entries", None)
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith(("bleucli_lenratio", "fake_")):
            del sys.modules[name]


def test_registry_loads_an_entry_point(plugin_path: Path) -> None:
    _fake_distribution(plugin_path, "bleucli_lenratio", "[bleucli.metrics]\nlenratio = bleucli_lenratio:ENTRY\n", {})
    entry = registry.get("lenratio")
    assert entry.origin == "bleucli-lenratio" and entry.signature_family == "LenRatio"
    assert registry.metric_names(["LenRatio", "bleu"]) == ("bleu", "lenratio")
    assert "bleucli_lenratio.metric" not in sys.modules  # the metric's module is imported on first use only
    metric = entry.build(entry.options(tokenize="split"), references=[_lines(REF)])
    score = metric.corpus_score(_lines(SYS_A))
    expected, hyp, ref = _expected(SYS_A, REF)
    assert score.score == pytest.approx(expected, rel=1e-15) and (score.hyp_length, score.ref_length) == (hyp, ref)
    assert score.signature.format(short=True).startswith("#:1|t:split|r:closest|v:")
    flags = {"metrics": ("lenratio",), "lenratio_tokenize": "chars"}
    options = registry.metric_options_from_flags(flags)
    assert options.of("lenratio") == entry.options(tokenize="chars")


def test_score_name_maps_back_to_the_plugin_name(plugin_path: Path) -> None:
    """A plugin whose -m name is not its lower-cased score name (``-t -d`` orders scores by it)."""
    from bleucli.testsets.cli import _metric_option

    _fake_distribution(plugin_path, "fake_lr", "[bleucli.metrics]\nlr = fake_lr_entry:ENTRY\n",
                       {"fake_lr_entry": "from bleucli_lenratio import ENTRY as _E\nENTRY = _E._replace(name='lr')\n"})
    assert _metric_option("LenRatio") == "lr" and _metric_option("chrF2++") == "chrf"


@pytest.mark.parametrize(("entry_points", "modules", "message"), [
    ("[bleucli.metrics]\nbroken = fake_broken:ENTRY\n", {"fake_broken": "raise ImportError('no numpy here')\n"},
     "metric plugin 'broken' (fake-broken: fake_broken:ENTRY) cannot be loaded: ImportError: no numpy here"),
    ("[bleucli.metrics]\nnotentry = fake_notentry:ENTRY\n", {"fake_notentry": "ENTRY = 42\n"},
     "is not a bleucli MetricEntry"),
    ("[bleucli.metrics]\nother = bleucli_lenratio:ENTRY\n", {}, "the entry point's name must be the metric's name"),
    ("[bleucli.metrics]\nbleu = bleucli_lenratio:ENTRY\n", {}, "would replace the built-in metric"),
])
def test_a_broken_plugin_is_a_clear_option_error(plugin_path: Path, entry_points: str, modules: dict[str, str],
                                                  message: str) -> None:
    dist = next(iter(modules), "fake_other")
    _fake_distribution(plugin_path, dist, entry_points, modules)
    with pytest.warns(registry.PluginWarning, match="it is left out") as caught:
        names = list(registry.entries())
    name = entry_points.splitlines()[1].split(" =")[0]
    assert names[:3] == ["bleu", "chrf", "ter"] and names.count(name) == (name == "bleu")  # the others still work
    assert message in str(caught[0].message)
    if name == "bleu":
        assert registry.get(name).origin == "bleucli"
        return
    with pytest.raises(OptionError, match="metric plugin") as error:
        registry.get(name)
    assert message in str(error.value)


def test_the_plugin_index_follows_installs_and_survives_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index of entry points is rebuilt when a directory on the path changes, and a damaged one is ignored."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("BLEUCLI_CACHE_DIR", str(tmp_path / "cache"))
    assert [entry for entry in registry._declared_entry_points() if entry[2] == "fake-later"] == []
    (index,) = (tmp_path / "cache" / "plugins").iterdir()
    _fake_distribution(site, "fake_later", "[bleucli.metrics]\nlater = fake_later:ENTRY\n", {})
    assert ("later", "fake_later:ENTRY", "fake-later") in registry._declared_entry_points()
    for damage in (b"", b"\xff\xfe", index.read_bytes()[:-20] + b"\tone field too many\t\n", b"\x00" * 100):
        index.write_bytes(damage)
        assert ("later", "fake_later:ENTRY", "fake-later") in registry._declared_entry_points()
    assert index.read_bytes().startswith(b"bleucli-plugin-index/1\n")


def test_a_broken_plugin_through_the_command_line(tmp_path: Path) -> None:
    """One warning line (none with -q), every other metric still scores, and -m of it exits 2 with the reason."""
    _fake_distribution(tmp_path / "site", "fake_cli_broken", "[bleucli.metrics]\nbroken = fake_cli_broken:ENTRY\n",
                       {"fake_cli_broken": "raise ImportError('no numpy here')\n"})
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"), "BLEUCLI_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONDONTWRITEBYTECODE": "1"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bleucli", str(REF), "-i", str(SYS_A), *args], env=env,
                              capture_output=True, text=True, timeout=120)

    scored = run("-b")
    assert scored.returncode == 0 and scored.stdout.strip() == "38.6", scored.stderr
    assert scored.stderr.splitlines() == [
        "bleucli: warning: metric plugin 'broken' (fake-cli-broken: fake_cli_broken:ENTRY) cannot be loaded: "
        "ImportError: no numpy here; it is left out"]
    quiet = run("-b", "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""
    asked = run("-m", "broken")
    assert asked.returncode == 2 and "cannot be loaded: ImportError: no numpy here" in asked.stderr.splitlines()[-1]
    assert asked.stdout == "" and "Traceback" not in asked.stderr


# -- the example installed in a venv, through the command line ---------------------------------------------------------
@pytest.fixture(scope="module")
def plugin_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv that sees this interpreter's packages, with a copy of examples/plugin_metric pip-installed into it.

    ``venv --system-site-packages`` would see the *base* interpreter's packages,
    not those of a venv the tests run in; a ``.pth`` line adding this
    interpreter's site directories (their ``.pth`` files too: editable installs)
    works in both cases, offline.
    """
    root = tmp_path_factory.mktemp("plugin")
    source = root / "src"
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist"))
    env_dir = root / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    parents = [*site.getsitepackages(), site.getusersitepackages()]
    (Path(purelib) / "_bleucli_test_parent.pth").write_text(
        "import site; " + "; ".join(f"site.addsitedir({path!r})" for path in parents) + "\n", encoding="utf-8")
    install = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                              "--no-index", str(source)], capture_output=True, text=True, env=_env(), cwd=root)
    assert install.returncode == 0, install.stdout + install.stderr
    return python


def _env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("BLEUCLI_", "SACREBLEU")) and key not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONPATH"] = str(REPO)  # bleucli from this checkout, as the other subprocess tests run it
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.update(extra)
    return env


def _bleucli(python: Path, *args: object, code: int = 0, **env: str) -> str:
    result = subprocess.run([python, "-m", "bleucli", *map(str, args)], capture_output=True, text=True,
                            env=_env(**env), cwd=python.parent.parent.parent)
    assert result.returncode == code, result.stderr
    return result.stdout if code == 0 else result.stderr


def _json(python: Path, *args: object, **env: str) -> object:
    return json.loads(_bleucli(python, *args, **env))


@pytest.mark.slow
def test_corpus_score(plugin_venv: Path) -> None:
    expected, hyp, ref = _expected(SYS_A, REF)
    for env in ({}, {"BLEUCLI_PURE_PYTHON": "1"}):
        record = _json(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", **env)
        assert isinstance(record, dict)
        assert record["name"] == "LenRatio" and record["unrounded_score"] == pytest.approx(expected, rel=1e-15)
        assert record["score"] == round(expected, 1) and (record["hyp_length"], record["ref_length"]) == (hyp, ref)
        assert record["verbose_score"] == f"{hyp}/{ref}"
        assert _bleucli(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "-b", **env) == f"{expected:.1f}\n"
    # next to the built-in metrics, in printing order
    assert _json(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "bleu", "-b") == [38.6, 102.0]


@pytest.mark.slow
def test_help_signature_and_flag(plugin_venv: Path) -> None:
    usage = _bleucli(plugin_venv, "--help")
    assert "LenRatio (plugin bleucli-lenratio" in usage and "--lenratio-tokenize [split|chars]" in usage
    assert "bleu, chrf, ter, lenratio" in usage
    line = _bleucli(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "-f", "text")
    assert line.startswith("LenRatio|nrefs:1|tok:split|ref:closest|version:")
    short = _bleucli(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "-f", "text", "--short")
    assert short.startswith("LenRatio|#:1|t:split|r:closest|v:")
    chars, hyp, ref = _expected(SYS_A, REF, chars=True)
    record = _json(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "--lenratio-tokenize", "chars")
    assert isinstance(record, dict)
    assert record["unrounded_score"] == pytest.approx(chars, rel=1e-15) and record["tok"] == "chars"
    assert record["unrounded_score"] != pytest.approx(_expected(SYS_A, REF)[0])
    _bleucli(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "-b", "--expect-signature",
             "LenRatio|nrefs:1|tok:split|ref:closest|version:*")
    mismatch = _bleucli(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "--expect-signature",
                        "LenRatio|#:1|t:chars|r:closest|v:*", code=7)
    assert "tok: expected chars, got split" in mismatch


@pytest.mark.slow
def test_sentence_level(plugin_venv: Path) -> None:
    lines = _bleucli(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "-sl", "-b").split()
    expected = [100 * len(h.split()) / len(r.split()) for h, r in zip(_lines(SYS_A), _lines(REF))]
    assert lines == [f"{value:.1f}" for value in expected]


@pytest.mark.slow
def test_jobs_and_dask_equal_one_process(plugin_venv: Path, tmp_path: Path) -> None:
    # 5,000 segments: three chunks per system, so -j 2 really splits the work
    ref, sys_a, sys_b = (tmp_path / path.name for path in (REF, SYS_A, SYS_B))
    for big, path in ((ref, REF), (sys_a, SYS_A), (sys_b, SYS_B)):
        big.write_bytes(path.read_bytes() * 50)
    single = _bleucli(plugin_venv, ref, "-i", sys_a, sys_b, "-m", "lenratio", "chrf", "-j", "1")
    assert _bleucli(plugin_venv, ref, "-i", sys_a, sys_b, "-m", "lenratio", "chrf", "-j", "2") == single
    has_dask = subprocess.run([plugin_venv, "-c", "import dask.distributed"], env=_env(), capture_output=True)
    if has_dask.returncode != 0:
        pytest.skip("dask is not importable in the venv")
    assert _bleucli(plugin_venv, ref, "-i", sys_a, sys_b, "-m", "lenratio", "chrf", "--dask", "local:1") == single


@pytest.mark.slow
def test_stats_and_merge(plugin_venv: Path, tmp_path: Path) -> None:
    pieces = []
    for first, last in ((0, 40), (40, 100)):
        ref, hyp = tmp_path / f"ref.{first}", tmp_path / f"hyp.{first}"
        ref.write_text("".join(line + "\n" for line in _lines(REF)[first:last]), encoding="utf-8")
        hyp.write_text("".join(line + "\n" for line in _lines(SYS_A)[first:last]), encoding="utf-8")
        shard = tmp_path / f"shard.{first}.json"
        shard.write_text(_bleucli(plugin_venv, "stats", ref, "-i", hyp, "-m", "lenratio", "--lenratio-tokenize",
                                  "chars", "--offset", first), encoding="utf-8")
        pieces.append(shard)
    single = _json(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "--lenratio-tokenize", "chars")
    assert _json(plugin_venv, "merge", *pieces) == single
    document = json.loads(pieces[1].read_text(encoding="utf-8"))
    assert document["options"]["lenratio"] == {"tokenize": "chars"}
    statistics = document["metrics"][0]["statistics"][0]["values"]
    statistics[0] = -statistics[0]  # negative, though the sum over both shards stays positive
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    error = _bleucli(plugin_venv, "merge", pieces[0], bad, code=3)
    assert "impossible lenratio statistics for system 1: statistic 1 is" in error


@pytest.mark.slow
def test_significance(plugin_venv: Path) -> None:
    interval = _json(plugin_venv, REF, "-i", SYS_A, "-m", "lenratio", "-ci", "-cin", 200)
    assert isinstance(interval, dict) and interval["bs"] == "200" and interval["confidence_mean"] > 90
    for test in (["-pbs", "-pbsn", "200"], ["-par", "-parn", "200"]):
        table = _json(plugin_venv, REF, "-i", SYS_A, SYS_B, "-m", "lenratio", *test)
        assert isinstance(table, list) and table[0]["LenRatio"]["p_value"] is None
        assert 0 < table[1]["LenRatio"]["p_value"] <= 1
        text = _bleucli(plugin_venv, REF, "-i", SYS_A, SYS_B, "-m", "lenratio", *test, "-f", "text")
        assert "LenRatio" in text and "(p = 0." in text


@pytest.mark.slow
def test_compare(plugin_venv: Path, tmp_path: Path) -> None:
    report = _json(plugin_venv, "compare", REF, "-i", SYS_A, SYS_B, "-m", "lenratio", "-pbsn", 200, "--json", "-",
                   "--html", tmp_path / "report.html")
    assert isinstance(report, dict) and report["signatures"]["LenRatio"].startswith("nrefs:1|tok:split|ref:closest")
    baseline, other = report["systems"]
    assert baseline["metrics"]["LenRatio"]["score"] == pytest.approx(_expected(SYS_A, REF)[0])
    assert 0 < other["metrics"]["LenRatio"]["p_value"] <= 1
    assert "LenRatio" in (tmp_path / "report.html").read_text(encoding="utf-8")
    markdown = _bleucli(plugin_venv, "compare", REF, "-i", SYS_A, SYS_B, "-m", "lenratio", "-pbsn", 200,
                        "--markdown", "-")
    assert "Δ LenRatio" in markdown and "`LenRatio|nrefs:1|tok:split|ref:closest|version:" in markdown
