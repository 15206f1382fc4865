"""The metric registry: everything bleucli knows about a metric, in one entry per metric.

An entry (:class:`MetricEntry`) holds the metric's class (imported on first
use), its options record and so its defaults, its signature keys, its
command-line flags and ``--help`` section (as data: the CLI turns them into
click options), whether higher or lower is better, and the schema of its
statistics rows, which ``bleucli merge`` checks shards against. Every command
reads metrics from here: ``-m NAME``, ``--help``, the signature, ``-sl``,
``-j``/``--dask``, ``stats``/``merge``, ``-ci``/``-pbs``/``-par`` and
``compare``.

Built-in metrics and plugins take the same path. A plugin is an installed
distribution that declares an entry point in the group ``bleucli.metrics``
whose object is a :class:`MetricEntry` (see ``docs/plugins.md`` and
``examples/plugin_metric``). Adding a built-in metric is one module with its
:class:`~bleucli.metrics.base.Metric` subclass and one entry in :data:`BUILTIN`.

The registry is read at every start-up (the scoring command's flags come from
it), so this module and the plugins' entry modules stay light: a metric's own
module is imported only when the metric is built.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import BleucliWarning, OptionError
from ..frozen import Frozen
from ..options import (
    MAX_ORDER_LIMIT,
    REF_LENGTHS,
    SMOOTH_DEFAULTS,
    BLEUOptions,
    CHRFOptions,
    MetricOptions,
    SegmentScoreOptions,
    TEROptions,
)

if TYPE_CHECKING:  # pragma: no cover
    from .base import Metric

#: The entry-point group a plugin declares its :class:`MetricEntry` in.
ENTRY_POINT_GROUP = "bleucli.metrics"


class Flag(Frozen):
    """One command-line option of a metric, as data.

    ``field`` is the options record's field it sets; the option's default is
    that field's default. ``kind`` is ``flag`` (a boolean switch), ``int``,
    ``float``, ``str``, ``path`` (a file) or ``choice`` (``choices`` lists
    them, or names a function returning them, imported when the CLI is built).
    ``dest`` is the parameter name commands receive (default: the long spelling
    with dashes as underscores).
    """

    spellings: tuple[str, ...]
    field: str
    help: str
    kind: str = "flag"
    choices: tuple[str, ...] | str = ()
    minimum: int | None = None
    maximum: int | None = None
    metavar: str | None = None
    dest: str = ""

    @property
    def name(self) -> str:
        """The parameter name a command receives this flag's value under."""
        if self.dest:
            return self.dest
        long = max(self.spellings, key=len)
        return long.lstrip("-").replace("-", "_")


class StatisticsSchema(Frozen):
    """What a valid statistics row of a metric looks like, for data read back from a shard.

    ``columns`` gives the row's length for an options record; columns listed in
    ``real_columns`` are floats (non-negative and finite), every other column
    is a non-negative integer (``bool`` is refused). ``check`` tests the
    invariants between columns of a *summed* row (BLEU: matches <= totals) and
    returns a message naming the first one broken, or ``None``.
    """

    columns: Callable[[Any], int]
    real_columns: frozenset[int] = frozenset()
    check: Callable[[Sequence[Any], Any], str | None] | None = None

    def problem(self, row: Sequence[Any], options: Any) -> str | None:
        """Why ``row`` cannot be a statistics row of this metric under ``options`` (``None``: it can)."""
        found = self.row_problem(row, options)
        if found is None:
            return None
        column, message = found
        return message if column is None else f"statistic {column + 1} is {message}"

    def row_problem(self, row: Sequence[Any], options: Any) -> tuple[int | None, str] | None:
        """``(column, message)`` of the first thing wrong with ``row`` (``column``: 0-based, ``None`` when
        the row as a whole is wrong: its length or an invariant), or ``None``.

        For a bad column the message starts with the value (``-1 is not a non-negative integer``),
        so that a caller can prefix where it is.
        """
        expected = self.columns(options)
        if not isinstance(row, (list, tuple)) or len(row) != expected:
            got = len(row) if isinstance(row, (list, tuple)) else type(row).__name__
            return None, f"expected {expected} statistics, got {got}"
        for index, value in enumerate(row):
            if index in self.real_columns:
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                        or value < 0:
                    return index, f"{value!r} is not a finite non-negative number"
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                return index, f"{value!r} is not a non-negative integer"
        problem = self.check(row, options) if self.check is not None else None
        return None if problem is None else (None, problem)


class MetricEntry(Frozen):
    """One metric as every command sees it (see the module docstring).

    ``name`` is what ``-m`` takes (lower case); ``metric`` the class as
    ``"module:Class"``; ``options`` the options record (a
    :class:`~bleucli.frozen.Frozen` subclass whose defaults are the metric's);
    ``signature_family`` the metric name the signature's keys belong to
    (``chrF2++`` and ``chrF3`` are ``chrF``); ``signature_keys`` those keys,
    long -> short, in the order they are written; ``sentence_field`` an options
    field that ``-sl`` switches on (BLEU's effective order).
    """

    name: str
    metric: str
    options: type
    signature_family: str
    signature_keys: Mapping[str, str]
    statistics: StatisticsSchema
    flags: tuple[Flag, ...] = ()
    help_section: str = ""
    lower_is_better: bool = False
    sentence_field: str | None = None
    #: the score's name extends the family with its options (``chrF2++``, ``chrF3``)
    family_prefixed: bool = False
    #: where the entry came from: ``bleucli`` or the distribution of a plugin
    origin: str = "bleucli"

    def names_score(self, score_name: str) -> bool:
        """Whether a score called ``score_name`` (``BLEU``, ``chrF2++``) is this metric's."""
        family = self.signature_family
        return score_name == family or (self.family_prefixed and score_name.startswith(family))

    def load(self) -> type[Metric[Any]]:
        """The metric class (its module is imported now)."""
        import importlib

        module, _, attribute = self.metric.partition(":")
        metric: type[Metric[Any]] = getattr(importlib.import_module(module), attribute)
        return metric

    def build(self, options: Any = None, references: Sequence[Sequence[str | None]] | None = None,
              trg_lang: str = "", models: dict[str, Any] | None = None) -> Metric[Any]:
        """The metric configured by ``options`` (this entry's record; ``None``: the defaults)."""
        record = self.options() if options is None else options
        return self.load().from_options(record, references=references, trg_lang=trg_lang, models=models)

    def options_from_flags(self, flags: Mapping[str, Any], sentence_level: bool = False) -> Any:
        """The options record from a command's parsed flags (a flag not given, or ``None``, keeps the default)."""
        values = {}
        for flag in self.flags:
            value = flags.get(flag.name)
            if value is not None:
                values[flag.field] = value
        if self.sentence_field is not None:
            values[self.sentence_field] = sentence_level
        return self.options(**values)


# -- the built-in metrics ---------------------------------------------------------------------------------------------
def _bleu_columns(options: BLEUOptions) -> int:
    return 2 + 2 * options.max_order


def _bleu_check(row: Sequence[int], options: BLEUOptions) -> str | None:
    order = options.max_order
    # the hypothesis length is its number of unigrams, and a hypothesis has no more n+1-grams than n-grams
    if row[2 + order] != row[0]:
        return f"the 1-gram count ({row[2 + order]}) differs from the hypothesis length ({row[0]})"
    for n in range(1, order):
        if row[2 + order + n] > row[2 + order + n - 1]:
            return (f"the {n + 1}-gram count ({row[2 + order + n]}) exceeds the {n}-gram count "
                    f"({row[2 + order + n - 1]})")
    for n in range(order):
        if row[2 + n] > row[2 + order + n]:
            return f"{n + 1}-gram matches ({row[2 + n]}) exceed the {n + 1}-gram count ({row[2 + order + n]})"
    return None


def _chrf_columns(options: CHRFOptions) -> int:
    return 3 * (options.char_order + options.word_order)


def _chrf_check(row: Sequence[int], options: CHRFOptions) -> str | None:
    for start in range(0, len(row), 3):
        hyp, ref, match = row[start:start + 3]
        if match > hyp or match > ref:
            return f"matches ({match}) exceed the n-gram counts ({hyp}, {ref}) of statistics {start + 1}-{start + 3}"
    return None


BUILTIN: tuple[MetricEntry, ...] = (
    MetricEntry(
        name="bleu", metric="bleucli.metrics.bleu:BLEU", options=BLEUOptions, signature_family="BLEU",
        signature_keys={"case": "c", "eff": "e", "tok": "tok", "smooth": "s", "order": "ord", "reflen": "rl"},
        statistics=StatisticsSchema(columns=_bleu_columns, check=_bleu_check),
        sentence_field="effective_order",
        help_section="BLEU",
        flags=(
            Flag(("-tok", "--tokenize"), "tokenize", kind="choice", choices="bleucli.tokenizers:available_tokenizers",
                 help="Tokenizer [default: 13a; zh, ja-mecab, ko-mecab for Chinese, Japanese, Korean targets]."),
            Flag(("--spm-model",), "spm_model", kind="path", metavar="FILE",
                 help="A local SentencePiece model for -tok spm (signed tok:spm-<its sha256, 12 digits>): a regular "
                      "file of at most 64 MiB (anything else: exit 3)."),
            Flag(("-s", "--smooth-method"), "smooth_method", kind="choice", choices=tuple(SMOOTH_DEFAULTS),
                 help="BLEU smoothing method."),
            Flag(("-sv", "--smooth-value"), "smooth_value", kind="float",
                 help=f"Value for floor (default {SMOOTH_DEFAULTS['floor']}) and add-k "
                      f"(default {SMOOTH_DEFAULTS['add-k']}) smoothing; finite and >= 0."),
            Flag(("-lc", "--lowercase"), "lowercase", help="Case-insensitive BLEU."),
            Flag(("--force",), "force", help="Do not warn when the output looks tokenized."),
            Flag(("--max-order",), "max_order", kind="int", minimum=1, maximum=MAX_ORDER_LIMIT,
                 help="Maximum n-gram order (signature key 'order' when not 4)."),
            Flag(("--ref-length",), "ref_length", kind="choice", choices=REF_LENGTHS,
                 help="BLEU's brevity-penalty reference length with several references: closest (sacreBLEU, "
                      "mteval-v13a) or shortest (NIST mteval before v13; signature key 'reflen')."),
        ),
    ),
    MetricEntry(
        name="chrf", metric="bleucli.metrics.chrf:CHRF", options=CHRFOptions, signature_family="chrF",
        signature_keys={"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s", "beta": "b"},
        statistics=StatisticsSchema(columns=_chrf_columns, check=_chrf_check),
        help_section="chrF", family_prefixed=True,
        flags=(
            Flag(("-cc", "--chrf-char-order"), "char_order", kind="int", help="chrF character n-gram order."),
            Flag(("-cw", "--chrf-word-order"), "word_order", kind="int",
                 help="chrF word n-gram order (2 gives chrF++)."),
            Flag(("--chrf-beta",), "beta", kind="int", help="chrF recall weight β."),
            Flag(("--chrf-whitespace",), "whitespace", help="Keep whitespace in chrF character n-grams."),
            Flag(("--chrf-lowercase",), "lowercase", help="Case-insensitive chrF."),
            Flag(("--chrf-eps-smoothing",), "eps_smoothing",
                 help="chrF++.py/NLTK/Moses-style epsilon smoothing instead of effective order."),
        ),
    ),
    MetricEntry(
        name="ter", metric="bleucli.metrics.ter:TER", options=TEROptions, signature_family="TER",
        signature_keys={"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"},
        # edits (an integer count) and the average reference length (a float)
        statistics=StatisticsSchema(columns=lambda options: 2, real_columns=frozenset({1})),
        lower_is_better=True,
        help_section="TER (the defaults replicate TERCOM)",
        flags=(
            Flag(("--ter-case-sensitive",), "case_sensitive", help="Case-sensitive TER (TER lowercases by default)."),
            Flag(("--ter-asian-support",), "asian_support",
                 help="TER support for Asian scripts (with normalization/no-punct)."),
            Flag(("--ter-no-punct",), "no_punct", help="Remove punctuation before TER."),
            Flag(("--ter-normalized",), "normalized", help="Tercom normalisation before TER."),
            Flag(("--ter-max-words",), "max_words", kind="int", minimum=0,
                 help="Refuse (exit 3) a TER segment with more words than this; TER's time grows "
                      "faster than quadratically with segment length. 0: no limit."),
        ),
    ),
)


# -- plugins -----------------------------------------------------------------------------------------------------------
def _declared_entry_points() -> list[tuple[str, str, str]]:
    """``(name, "module:attribute", distribution)`` of every ``bleucli.metrics`` entry point installed.

    This reads the same ``entry_points.txt`` files of the ``*.dist-info`` and
    ``*.egg-info`` directories on ``sys.path`` that :mod:`importlib.metadata`
    reads, and like it takes the first distribution of a name on the path. It
    does not use :mod:`importlib.metadata` itself: every command reads the
    registry, and that module costs about 40 ms to import and 20 ms to scan 70
    distributions, several times a whole ``bleucli --version``. Even reading
    the entry-point files directly is 3% of a ``--version``, so what the scan
    found is kept in a small index file (:func:`_index_path`) together with the
    modification times of the ``sys.path`` directories: installing or removing
    a distribution changes its directory's time, and the next run scans again.
    """
    directories = []
    here = os.getcwd()
    for directory in sys.path:
        # the current directory (``python -m``/``-c`` put it first) is where one works, not where
        # distributions are installed: its time changes with every file written there
        if not directory or directory == here or (not os.path.isabs(directory) and os.path.abspath(directory) == here):
            continue
        try:
            directories.append((directory, os.stat(directory).st_mtime_ns))
        except OSError:
            continue
    key = [f"{directory}\t{mtime}" for directory, mtime in directories]
    path = _index_path("\n".join(directory for directory, _ in directories))
    found = _read_index(path, key)
    if found is None:
        found = _scan([directory for directory, _ in directories])
        _write_index(path, key, found)
    return found


_INDEX_FORMAT = "bleucli-plugin-index/1"


def _index_path(search_path: str) -> str | None:
    """Where the plugin index of this interpreter and search path lives: bleucli's cache directory
    (``BLEUCLI_CACHE_DIR``, else the user cache directory platformdirs would give, spelled out here to keep
    start-up light), one file per search path so that two environments do not overwrite each other's."""
    root = os.environ.get("BLEUCLI_CACHE_DIR")
    if not root:
        home = os.path.expanduser("~")
        if sys.platform == "win32":
            root = os.path.join(os.environ.get("LOCALAPPDATA") or home, "bleucli", "Cache")
        elif sys.platform == "darwin":
            root = os.path.join(home, "Library", "Caches", "bleucli")
        else:
            root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "bleucli")
    # a stable name for the search path (zlib's crc32 would load a library; a clash only costs a scan)
    digest = int.from_bytes(search_path.encode(), "big") % 0x1FFFFFFFFFFFFFFF
    prefix = "".join(c if c.isalnum() else "-" for c in sys.prefix)[-100:]
    return os.path.join(root, "plugins", f"index-{prefix}-{digest:016x}.txt")


def _read_index(path: str | None, key: list[str]) -> list[tuple[str, str, str]] | None:
    """The entry points an index file holds, if it is well formed and was written for ``key``; else ``None``."""
    data = _read_small(path) if path else None
    if data is None:
        return None
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return None
    if lines[:1] != [_INDEX_FORMAT] or lines[1:1 + len(key)] != key or lines[1 + len(key):2 + len(key)] != [""]:
        return None
    found = []
    for line in lines[2 + len(key):]:
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != 3 or not all(fields):
            return None
        found.append((fields[0], fields[1], fields[2]))
    return found


def _write_index(path: str | None, key: list[str], found: list[tuple[str, str, str]]) -> None:
    """Write the index (by rename: readers never see half of it); a read-only cache only costs the next scan."""
    if path is None or any("\n" in part or "\t" in part for entry in found for part in entry):
        return
    text = "\n".join([_INDEX_FORMAT, *key, "", *("\t".join(entry) for entry in found)]) + "\n"
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _scan(directories: list[str]) -> list[tuple[str, str, str]]:
    """Read the ``bleucli.metrics`` section of every distribution's ``entry_points.txt`` in ``directories``."""
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for directory in directories:
        try:
            names = os.listdir(directory or ".")
        except OSError:
            continue
        for name in sorted(names):
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            distribution = name.rsplit(".", 1)[0].split("-")[0].lower().replace("_", "-")
            if distribution in seen:
                continue
            seen.add(distribution)
            data = _read_small(os.path.join(directory or ".", name, "entry_points.txt"))
            if data is not None and _GROUP_HEADER in data:
                text = data.decode("utf-8", "replace")
                found.extend((key, value, distribution) for key, value in _group_lines(text))
    return found


_GROUP_HEADER = f"[{ENTRY_POINT_GROUP}]".encode()


def _read_small(path: str) -> bytes | None:
    """The first 64 KiB of a file, or ``None`` (no file). ``os.open`` and ``os.read``: a text-mode
    ``open()`` costs several times more, and most distributions have no entry-point file at all."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(descriptor, 1 << 16)
    except OSError:
        return None
    finally:
        os.close(descriptor)


def _group_lines(text: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of the ``bleucli.metrics`` section of an ``entry_points.txt``."""
    lines: list[tuple[str, str]] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            inside = line == f"[{ENTRY_POINT_GROUP}]"
            continue
        if inside and "=" in line:
            key, _, value = line.partition("=")
            lines.append((key.strip(), value.split("[", 1)[0].strip()))
    return lines


def _load_plugin(name: str, target: str, distribution: str) -> MetricEntry:
    import importlib

    module, _, attribute = target.partition(":")
    try:
        value: Any = importlib.import_module(module)
        for part in attribute.split(".") if attribute else ():
            value = getattr(value, part)
    except Exception as error:  # a broken plugin must not stop the other metrics (entries() leaves it out)
        raise OptionError(f"metric plugin '{name}' ({distribution}: {target}) cannot be loaded: "
                          f"{type(error).__name__}: {error}") from None
    if not isinstance(value, MetricEntry):
        raise OptionError(f"metric plugin '{name}' ({distribution}: {target}) is not a bleucli MetricEntry")
    if value.name != name.lower():
        raise OptionError(f"metric plugin '{name}' ({distribution}) declares the metric '{value.name}': "
                          "the entry point's name must be the metric's name")
    return value._replace(origin=distribution)


_entries: dict[str, MetricEntry] | None = None
#: why each plugin that could not be registered was refused, by its entry point's name
_broken: dict[str, str] = {}


class PluginWarning(BleucliWarning):
    """A metric plugin could not be registered; every other metric still works."""


def entries(warn: bool = True) -> dict[str, MetricEntry]:
    """Every metric by name: the built-in ones in sacreBLEU's printing order, then the plugins by name.

    A plugin that cannot be registered (see :func:`_load_plugin`) is left out
    with a :class:`PluginWarning` (``warn=False``: silently, for a caller that
    reports :func:`refused` itself, as the command line does), so that it does
    not stop the other metrics; :func:`get` of its name raises the reason as an
    :class:`OptionError`.
    """
    global _entries
    if _entries is None:
        table = {entry.name: entry for entry in BUILTIN}
        broken: dict[str, str] = {}
        for name, target, distribution in sorted(_declared_entry_points()):
            if name.lower() in table:
                if table[name.lower()].origin == "bleucli":
                    broken[name.lower()] = (f"metric plugin '{name}' ({distribution}) would replace the built-in "
                                            "metric of that name")
                continue  # the same plugin seen twice on sys.path: the first wins
            try:
                table[name.lower()] = _load_plugin(name, target, distribution)
            except OptionError as error:
                broken[name.lower()] = str(error)
        if warn and broken:
            import warnings

            for message in broken.values():
                warnings.warn(PluginWarning(f"{message}; it is left out"), stacklevel=2)
        _broken.clear()
        _broken.update(broken)
        _entries = table
    return _entries


def refused() -> dict[str, str]:
    """The plugins that could not be registered, by name, each with the reason (empty when all loaded)."""
    entries()
    return dict(_broken)


def get(name: str) -> MetricEntry:
    """The entry of metric ``name`` (any case); an unknown name is an :class:`OptionError` listing the known.

    A plugin of that name that could not be registered raises why instead.
    """
    entry = entries().get(name.lower())
    if entry is None:
        if name.lower() in _broken:
            raise OptionError(_broken[name.lower()])
        raise OptionError(f"unknown metric '{name}' (choose from: {', '.join(entries())})")
    return entry


def metric_names(requested: Sequence[str]) -> tuple[str, ...]:
    """The metrics asked for, once each, in printing order (BLEU when none)."""
    asked = {name.lower() for name in requested} or {"bleu"}
    for name in sorted(asked):
        get(name)
    return tuple(name for name in entries() if name in asked)


def for_score(score_name: str) -> MetricEntry | None:
    """The entry of the metric that gives scores called ``score_name`` (``chrF2++``: chrF), if registered.

    Metrics given as segment scores (``--segment-scores NAME``) are found too once they are built, so
    that whatever asks "is lower better?" or "what are its signature keys?" treats them as any other.
    """
    for entry in entries().values():
        if entry.names_score(score_name):
            return entry
    return _segment_score_entries.get(score_name)


#: The signature keys of a metric given as segment scores (long -> short): the files' sha256 (12 digits each,
#: in -i order) and how they are aggregated (``mean``).
SEGMENT_SCORE_KEYS = {"scores": "sc", "agg": "agg"}

#: The entries of the metrics given as segment scores built in this process, by score name.
_segment_score_entries: dict[str, MetricEntry] = {}


def segment_score_entry(options: SegmentScoreOptions) -> MetricEntry:
    """The entry of a metric given as segment scores (not a ``-m`` choice: it exists only with its files)."""
    return MetricEntry(
        name=options.name.lower(), metric="bleucli.metrics.segment_scores:SegmentScores",
        options=SegmentScoreOptions, signature_family=options.name, signature_keys=dict(SEGMENT_SCORE_KEYS),
        # [score, 1]: the score is any finite float (COMET's can be negative); stats/merge do not take them
        statistics=StatisticsSchema(columns=lambda record: 2, real_columns=frozenset({0})),
        lower_is_better=options.lower_is_better, help_section="Segment scores", origin="--segment-scores",
    )


def segment_score_options(values: Sequence[str], lower_is_better: Sequence[str] = (),
                          systems: Sequence[str] = ()) -> tuple[SegmentScoreOptions, ...]:
    """``--segment-scores``'s values as the command line gives them, and ``--lower-is-better``.

    Each occurrence of ``--segment-scores NAME FILE...`` arrives as one value, its words joined by NUL
    (:func:`bleucli.cli.argv.expand_greedy_options`; no argument can hold a NUL); a value without a NUL
    starts a new metric when it is the first, and is a further file of the last one otherwise.

    A name may not be one of a registered metric's (``BLEU``, ``chrF2``...) nor given twice, and
    ``--lower-is-better`` must name one of them.
    """
    groups: list[list[str]] = []
    for value in values:
        parts = value.split("\0")
        if len(parts) > 1 or not groups:
            groups.append(parts)
        else:
            groups[-1].append(value)
    out = []
    seen: set[str] = set()
    lower = {name.lower() for name in lower_is_better}
    for name, *files in groups:
        clash = entries().get(name.lower()) or (for_score(name) if name not in _segment_score_entries else None)
        if clash is not None:
            raise OptionError(f"--segment-scores {name}: scores of that name are the metric {clash.name}'s "
                              "(-m); choose another name")
        if name.lower() in seen:
            raise OptionError(f"--segment-scores {name} is given twice")
        if not files:
            raise OptionError(f"--segment-scores {name}: give one score file per system, in -i order")
        seen.add(name.lower())
        out.append(SegmentScoreOptions(name, tuple(files), name.lower() in lower, tuple(systems)))
    unknown = sorted(lower - seen)
    if unknown:
        raise OptionError(f"--lower-is-better {unknown[0]}: no --segment-scores metric of that name")
    return tuple(out)


def metric_options_from_flags(flags: Mapping[str, Any], sentence_level: bool = False) -> MetricOptions:
    """The :class:`MetricOptions` of a command's parsed flags (``metrics`` and every metric's flags)."""
    requested = tuple(flags.get("metrics") or ())
    records = {entry.name: entry.options_from_flags(flags, sentence_level) for entry in entries().values()}
    builtin = {name: records.pop(name) for name in ("bleu", "chrf", "ter")}
    given = segment_score_options(_words(flags.get("segment_scores")), _words(flags.get("lower_is_better")),
                                  _words(flags.get("inputs")))
    return MetricOptions(requested, others=tuple(records.items()), segment_scores=given, **builtin)


def _words(value: Any) -> tuple[str, ...]:
    """A multiple option's values; anything else (not given, a command without the option) is none."""
    return tuple(value) if isinstance(value, (list, tuple)) else ()


def build_metrics(
    options: MetricOptions,
    references: Sequence[Sequence[str | None]] | None = None,
    trg_lang: str = "",
    signature_fields: Mapping[str, Any] | None = None,
    models: dict[str, Any] | None = None,
) -> list[Metric[Any]]:
    """The metric objects the options ask for, in printing order.

    ``signature_fields`` are global signature fields (a test set's ``test``
    and ``lang``...) that every score of these metrics carries, whatever mode
    produced it.
    """
    metrics = []
    for name in metric_names(options.requested):
        metric = get(name).build(options.of(name), references, trg_lang, models)
        metric.signature_fields = dict(signature_fields or {})
        metrics.append(metric)
    for given in options.segment_scores:  # after -m's metrics, in the order given
        entry = segment_score_entry(given)
        _segment_score_entries[given.name] = entry
        metric = entry.build(given)
        metric.signature_fields = dict(signature_fields or {})
        metrics.append(metric)
    return metrics


__all__ = [
    "ENTRY_POINT_GROUP", "Flag", "StatisticsSchema", "MetricEntry", "PluginWarning", "BUILTIN", "entries", "refused",
    "get", "metric_names", "for_score", "metric_options_from_flags", "build_metrics", "segment_score_entry",
    "segment_score_options",
]
