"""sacreBLEU's test-set flags for ``bleucli [score]``: -t/-l, --echo, --list, --citation, --download,
--origlang, --subset, plus --cache-dir, --offline and --testsets.

Everything here is a thin layer over :mod:`bleucli.testsets`; the library does
the work and raises typed errors, each carrying its exit code (:mod:`bleucli.errors`).
requests and PyYAML are imported only when a test-set option is actually used.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import sys
from collections.abc import Callable
from typing import Any

import click

from ..clikit import report
from ..clikit.output import emit
from ..options import RunOptions, TestSetOptions

#: Every test-set option by its parameter name (the scoring command takes them all, ``compare`` a few).
_OPTIONS = {
    "test_set": click.option("-t", "--test-set", "test_set", default=None, metavar="NAME[,NAME...]",
        help="Score against a standard test set (a comma list concatenates sets); see --list."),
    "langpair": click.option("-l", "--language-pair", "langpair", default=None, metavar="SRC-TGT",
        help="Language pair of the test set (also picks the default tokenizer, e.g. zh)."),
    "echo": click.option("--echo", "echo", multiple=True, metavar="FIELD...",
        help="Print fields of the test set (src, ref, ref:NAME, docid, genre, origlang, domain, "
             "system names, or all), tab-separated, and exit."),
    "list_sets": click.option("--list", "list_sets", is_flag=True,
        help="List test sets (filtered by -l), or the fields of -t, and exit."),
    "citation": click.option("--citation", "--cite", "citation", is_flag=True,
        help="Print the BibTeX citation of -t and exit."),
    "download": click.option("--download", "download", default=None, metavar="NAME",
        help="Download and prepare a test set (all pairs, or -l) and exit."),
    "origlang": click.option("-ol", "--origlang", default=None, metavar="LANG",
        help="Only segments whose original language is LANG ('non-LANG' negates)."),
    "subset": click.option("--subset", default=None, metavar="REGEX",
        help="Only segments whose document domain/annotation matches REGEX."),
    "cache_dir": click.option("--cache-dir", default=None, metavar="DIR", envvar="BLEUCLI_CACHE_DIR",
        help="Test-set cache directory. Env: BLEUCLI_CACHE_DIR [default: the user cache dir]."),
    "offline": click.option("--offline", is_flag=True, default=None,
        help="Never use the network; fail if data is not cached. Env: BLEUCLI_OFFLINE=1."),
    "mirrors": click.option(
        "--mirror", "mirrors", multiple=True, metavar="URL_OR_DIR", envvar="BLEUCLI_MIRROR",
        help="Try this mirror (a base URL or a local directory holding <host>/<path> of the original URLs) "
             "before the original URL; repeatable, tried in order. Env: BLEUCLI_MIRROR (space-separated)."),
    "testsets_registry": click.option(
        "--testsets", "testsets_registry", default=None, metavar="PATH", envvar="BLEUCLI_TESTSETS",
        help="Test-set registry file. Env: BLEUCLI_TESTSETS [default: the shipped testsets.yaml]."),
}

TESTSET_KEYS = ("test_set", "langpair", "echo", "list_sets", "citation", "download", "origlang", "subset",
                "cache_dir", "offline", "mirrors", "testsets_registry")


def testset_options(command: Callable[..., Any], keys: tuple[str, ...] = TESTSET_KEYS) -> Callable[..., Any]:
    """Add the test-set options named by ``keys`` (default: all) to a click command."""
    for key in reversed(keys):
        command = _OPTIONS[key](command)
    return command


# ------------------------------------------------------------------ progress

class ProgressBar:
    """Download progress on stderr, drawn by ``click.progressbar``, one bar per file, only on a terminal.

    The library (which never imports click) reports ``(url, bytes_done,
    bytes_total_or_None)``; this turns the reports into bar updates. A download
    that starts again from zero (a server that ignored ``Range``) gets a new bar.
    click hides the cursor while a bar is drawn, so every bar is finished when
    the command ends, also when the download failed (``close``, registered on the
    click context), or the user's terminal would be left without a cursor. A
    notice from the library (a retry) finishes the bar first, so that it gets a
    line of its own.
    """

    #: the bar being drawn, finished before a library notice is printed
    active: ProgressBar | None = None

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self._bar: Any = None
        self._url: str | None = None
        self._done = 0

    @classmethod
    def if_tty(cls) -> ProgressBar | None:
        try:
            if sys.stderr is None or not sys.stderr.isatty():
                return None
        except (ValueError, OSError):
            return None
        bar = cls()
        context = click.get_current_context(silent=True)
        if context is not None:
            context.call_on_close(bar.close)
        return bar

    def __call__(self, url: str, done: int, total: int | None) -> None:
        try:
            if self._bar is None or url != self._url or done < self._done:
                self.close()
                self._url, self._done = url, 0
                self._bar = click.progressbar(
                    length=total, iterable=None if total else itertools.count(), file=self.stream,
                    label=f"Downloading {url.rsplit('/', 1)[-1]}", show_eta=bool(total),
                    item_show_func=_megabytes, width=30)
                self._bar.__enter__()
                ProgressBar.active = self
            self._bar.update(done - self._done, (done, total))
            self._done = done
            if total is not None and done >= total:
                self.close()
        except (OSError, ValueError):  # stderr closed under us: progress is not worth an error
            self._bar = None

    def close(self) -> None:
        """Finish the current bar (newline, cursor shown again)."""
        bar, self._bar = self._bar, None
        if ProgressBar.active is self:
            ProgressBar.active = None
        if bar is not None:
            with contextlib.suppress(OSError, ValueError):
                bar.render_finish()


def _megabytes(item: tuple[int, int | None] | None) -> str | None:
    if item is None:
        return None
    done, total = item
    return f"{done / 1e6:.1f}/{total / 1e6:.1f} MB" if total else f"{done / 1e6:.1f} MB"


#: The name of the handler that shows the library's log records on stderr (installed once per process).
_LIBRARY_LOG_HANDLER = "bleucli.cli"


def _show_library_log() -> None:
    """Show what the test-set library logs while it works (retries, waiting for a lock) on stderr, as it happens.

    The library never prints; its ``bleucli.*`` loggers are the channel for
    notices that cannot wait until the command ends. Shown whether or not
    stderr is a TTY: a CI log must say why a step takes long. ``logging`` is
    imported here, not at module level: it costs more instructions than the rest
    of this module, and plain scoring never reaches the test-set library.
    """
    import logging

    class ReportHandler(logging.Handler):
        """Each record as one ``bleucli: warning:`` line."""

        def emit(self, record: logging.LogRecord) -> None:
            if ProgressBar.active is not None:  # a notice on a line of its own, not after the bar
                ProgressBar.active.close()
            report.warning(record.getMessage())

    logger = logging.getLogger("bleucli")
    if not any(handler.get_name() == _LIBRARY_LOG_HANDLER for handler in logger.handlers):
        handler = ReportHandler()
        handler.set_name(_LIBRARY_LOG_HANDLER)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


def _library_kwargs(o: dict[str, Any] | TestSetOptions) -> dict[str, Any]:
    _show_library_log()
    if isinstance(o, TestSetOptions):
        return {"cache_dir": o.cache_dir, "offline": o.offline, "registry": o.registry,
                "progress": ProgressBar.if_tty(), "mirrors": o.mirrors}
    return {"cache_dir": o["cache_dir"], "offline": o["offline"] or None, "registry": o["testsets_registry"],
            "progress": ProgressBar.if_tty(), "mirrors": tuple(o.get("mirrors") or ())}


# ------------------------------------------------------------------ actions that replace scoring

def early_action(o: dict[str, Any]) -> int | None:
    """Run --download/--list/--citation/--echo if given; ``None`` means "go on and score"."""
    from .. import testsets as ts

    if o["download"]:
        with _cache_errors(f"download {o['download']}", o):
            paths = ts.download(o["download"], o["langpair"], **_library_kwargs(o))
        if not o.get("quiet"):
            report_info(f"{o['download']}: {len(paths)} language pair(s) ready in the cache")
        return 0
    if o["list_sets"]:
        _list(o)
        return 0
    if o["citation"]:
        if not o["test_set"]:
            raise click.UsageError("--citation needs a test set (-t)")
        # A set without a citation is a fact about the registry, not a failure of the command:
        # exit 0 with a warning, as sacreBLEU's intent (it warns), so `--citation` loops over sets work.
        for name in ts.split_test_sets(o["test_set"]):
            testset = ts.describe(name, registry=o["testsets_registry"])
            if testset.citation is None:
                report.warning(f"no citation found for {name}")
            else:
                emit(testset.citation.rstrip("\n"))
            notes = _set_notes(testset)
            if notes:  # BibTeX comments: the output can still be pasted into a .bib file
                emit("\n".join(f"% {line}" for line in notes))
        return 0
    if o["echo"]:
        if not o["test_set"] or not o["langpair"]:
            raise click.UsageError("--echo needs a test set (-t) and a language pair (-l)")
        _check_names(o)
        with _cache_errors(f"prepare {o['test_set']}", o):
            lines = ts.echo(o["test_set"], o["langpair"], list(o["echo"]), origlang=o["origlang"],
                            subset=o["subset"], **_library_kwargs(o))
        emit("\n".join(lines))
        return 0
    return None


def report_info(message: str) -> None:
    if sys.stderr is not None:
        try:
            sys.stderr.write(f"bleucli: {report.one_line(message)}\n")
        except (OSError, ValueError):
            pass


def _list(o: dict[str, Any]) -> None:
    from .. import testsets as ts

    if o["test_set"]:
        name = o["test_set"]
        testset = ts.describe(name, registry=o["testsets_registry"])
        pairs = [testset.resolve_pair(o["langpair"])] if o["langpair"] else list(testset.pairs)
        notes = _set_notes(testset)
        if notes:
            emit("\n".join(f"# {line}" for line in notes))
        for pair in pairs:
            emit(f"{pair}: {', '.join(ts.fields(name, pair, **_library_kwargs(o)))}")
        return
    sets = ts.list_testsets(o["langpair"], registry=o["testsets_registry"])
    header = f"The available test sets for {o['langpair']} are:" if o["langpair"] else "The available test sets are:"
    added = {name for name, _ in sets if ts.describe(name, registry=o["testsets_registry"]).origin == "bleucli"}
    emit("\n".join([header, *(f"{name:<30}: {description}{ADDITION_MARK if name in added else ''}"
                               for name, description in sets)]))


#: How ``--list`` marks a set that is bleucli's own addition.
ADDITION_MARK = " [bleucli's own addition, not in sacreBLEU]"


def _set_notes(testset: Any) -> list[str]:
    """What ``--citation`` and ``--list -t`` say besides the citation: origin, licence, caution."""
    notes = []
    if testset.origin == "bleucli":
        notes.append(f"{testset.name} is bleucli's own addition to the registry (not in sacreBLEU)")
    if testset.license:
        notes.append(f"licence: {testset.license}")
    if testset.note:
        notes.append(f"caution: {testset.note}")
    return [line for note in notes for line in note.splitlines()]


def _check_names(o: dict[str, Any]) -> None:
    """Unknown set/pair errors before any download (with suggestions / the available pairs)."""
    from .. import testsets as ts

    for name in ts.split_test_sets(o["test_set"]):
        ts.describe(name, registry=o["testsets_registry"]).pair(o["langpair"])


# ------------------------------------------------------------------ scoring against a test set

def test_data_for(options: RunOptions) -> Any | None:
    """The :class:`bleucli.testsets.TestData` for ``-t``, or ``None`` when scoring reference files."""
    t = options.testset
    if not t.test_set:
        if t.origlang or t.subset:
            raise click.UsageError("--origlang and --subset need a test set (-t)")
        if t.langpair is not None and not re.fullmatch(r"[^-\s]+-[^-\s]+", t.langpair):
            # the same src-tgt form -t requires: `-l en` would silently pick no target-language tokenizer
            raise click.UsageError(f"-l/--language-pair must be SRC-TGT (e.g. en-de), got '{t.langpair}'")
        return None
    if options.inputs.refs:
        raise click.UsageError("give either a test set (-t) or reference files, not both")
    if not t.langpair:
        raise click.UsageError("-t needs a language pair (-l); see --list -t NAME for the available ones")
    if options.inputs.num_refs != 1:
        raise click.UsageError("--num-refs applies to reference files, not to -t")
    from .. import testsets as ts

    for name in ts.split_test_sets(t.test_set):  # unknown set/pair errors before any download
        ts.describe(name, registry=t.registry).pair(t.langpair)
    with _cache_errors(f"prepare {t.test_set}", {"cache_dir": t.cache_dir}):
        return ts.load_test_data(t.test_set, t.langpair, origlang=t.origlang, subset=t.subset,
                                 **_library_kwargs(t))


def _cache_errors(operation: str, flags: Any) -> Any:
    """An ``OSError`` while the cache is read or filled is a cache error naming the path, not "cannot write output"."""
    from .cache import cache_errors

    return cache_errors(operation, flags.get("cache_dir") or os.environ.get("BLEUCLI_CACHE_DIR") or None)


def reference_names(data: Any) -> list[str]:
    return [f"{data.test}:{'+'.join(fields)}" for fields in zip(*data.reference_fields)] or [data.test]


def filter_systems(data: Any, names: list[str], streams: list[Any]) -> list[list[str]]:
    """Hypotheses must cover the full set(s); then the --origlang/--subset filter applies to them too."""
    return [data.filter_hypotheses(list(stream), source=name) for name, stream in zip(names, streams)]


def detail_rows(options: RunOptions, data: Any, metrics: Any, hypotheses: list[str]) -> list[Any]:
    """``-d``: each original language / subset group scored (an empty list without subset information).

    Like sacreBLEU, the groups are cut from the *full* set (the reference
    files, or a set without original languages, give none), and the metrics
    are listed in the order ``-m`` names them.
    """
    if data is None:
        return []
    from .. import testsets as ts
    from ..engine.pipeline import detail_scores

    t = options.testset
    with _cache_errors(f"prepare {t.test_set}", {"cache_dir": t.cache_dir}):
        groups = ts.detail_groups(t.test_set, t.langpair, origlang=t.origlang, subset=t.subset,
                                  **_library_kwargs(t))
        if not groups:
            return []
        full = data if t.origlang is None and t.subset is None else ts.load_test_data(
            t.test_set, t.langpair, **_library_kwargs(t))
    requested = [name.lower() for name in options.metrics.requested] or ["bleu"]
    ordered = sorted(metrics, key=lambda m: requested.index(_metric_option(m.name)))
    return detail_scores(ordered, hypotheses, full.references, [(g.key, g.keep) for g in groups])


def _metric_option(name: str) -> str:
    """The ``-m`` value of a metric by its score name (``chrF2++`` -> ``chrf``; a plugin's by its registry entry)."""
    from ..metrics import registry

    entry = registry.for_score(name)
    return entry.name if entry is not None else name.lower()


def json_extra(data: Any) -> dict[str, Any]:
    """The JSON ``test_set`` object: the set's names, pair, filters and the reference data hash."""
    return {"name": data.test, "language_pair": data.pair, "data_sha256": data.data_hash,
            "origlang": data.origlang, "subset": data.subset}


def test_set_field(options: RunOptions, data: Any, field: str) -> list[str] | None:
    """A field (``src``, ``docid``) of every set of ``-t``, concatenated and filtered as the references are.

    ``None`` when a set lacks the field (plain and TSV sets may have no ``docid``).
    """
    from .. import testsets as ts

    t = options.testset
    lines: list[str] = []
    with _cache_errors(f"prepare {t.test_set}", {"cache_dir": t.cache_dir}):
        for name in data.test_sets:
            if field not in ts.fields(name, t.langpair, **_library_kwargs(t)):
                return None
            lines += ts.get_field_lines(name, t.langpair, field, origlang=t.origlang, subset=t.subset,
                                        **_library_kwargs(t))
    return lines
