"""Every option of a scoring run, as one immutable object built once (the way black's ``Mode`` is).

The CLI parses its flags into a :class:`RunOptions` (:meth:`RunOptions.from_cli`);
a Python caller builds one directly. Nothing below the CLI reads a flag
dictionary: the metrics are built from :class:`MetricOptions` (by
:func:`bleucli.metrics.registry.build_metrics`), the executor
from ``jobs``, the renderer from :class:`OutputOptions`. Defaults are defined
here once: the metric constructors, the API functions and the CLI's ``--help``
all read them from this module.

This module is imported by the CLI at start-up, so it imports nothing heavy,
and its classes are :class:`~bleucli.frozen.Frozen` records: immutable and
typed like frozen dataclasses or ``NamedTuple``s, without their cost of
compiling generated code for each class at import (see :mod:`bleucli.frozen`).
"""

from __future__ import annotations

from typing import Any, Literal

from .errors import OptionError
from .frozen import Frozen

#: The longest input line accepted (in bytes, newline excluded) unless ``--max-line-bytes`` says otherwise.
#: Far above any real segment (a 1 MiB line is a book chapter); it bounds the memory that a stream
#: without newlines (``/dev/zero``, ``yes | tr -d '\\n'``) can take before it is refused.
DEFAULT_MAX_LINE_BYTES = 1 << 20

#: BLEU smoothing methods and the value each uses by default (``None``: the method takes no value).
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
#: Largest ``--max-order`` accepted (the compiled matcher and the signature key ``order`` allow up to 9).
MAX_ORDER_LIMIT = 9

#: Seed of resampling tests when none is given (sacreBLEU's ``SACREBLEU_SEED`` default).
DEFAULT_SEED = 12345
#: Resamples of bootstrap tests (``-ci``, ``-pbs``) and trials of approximate randomization (``-par``).
DEFAULT_BOOTSTRAP_SAMPLES = 1000
DEFAULT_AR_TRIALS = 10000
#: The most resamples or trials a test takes (-cin, -pbsn, -parn): the largest index numpy and the compiled
#: resampler take; larger counts were an internal error (ValueError, OverflowError) instead of exit 2.
MAX_RESAMPLES = 2**31 - 1
#: The most worker processes (-j): far above any machine's CPUs; a C int (multiprocessing's pool size), and a
#: bound on the processes one typo can start (-j 10**20 was an internal error, or a loop that never ended).
MAX_JOBS = 4096
#: The most decimal places printed (-w): an exact float has at most 1074 digits after the point; each
#: further one is a 0 (-w 10**20 was an internal error, -w 10**9 a gigabyte per number).
MAX_WIDTH = 1074

#: What a resample draws (``--resample-unit``): single segments (sacreBLEU) or whole documents.
RESAMPLE_UNITS = ("segment", "document")

#: Output formats of the scoring command.
FORMATS = ("json", "text", "latex")

SignificanceTest = Literal["ci", "bs", "ar"]

#: BLEU's choices of the brevity penalty's reference length (``--ref-length``), the default first.
REF_LENGTHS = ("closest", "shortest")


class BLEUOptions(Frozen):
    """BLEU as sacreBLEU configures it (``tokenize=None``: chosen from the target language)."""

    lowercase: bool = False
    force: bool = False
    tokenize: str | None = None
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_order: int = 4
    effective_order: bool = False
    #: a local SentencePiece model file for ``tokenize="spm"`` (signed with its sha256)
    spm_model: str | None = None
    #: the reference length of the brevity penalty: ``closest`` (sacreBLEU, mteval-v13a) or
    #: ``shortest`` (NIST mteval before v13, mteval-v13a ``--brevity-penalty shortest``)
    ref_length: str = "closest"


class CHRFOptions(Frozen):
    """chrF/chrF++ as sacreBLEU configures it (``word_order=2`` is chrF++)."""

    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False


class TEROptions(Frozen):
    """TER as sacreBLEU configures it (case-insensitive unless ``case_sensitive``)."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False
    #: TER refuses a segment with more words than this (0: no limit); its shift search grows
    #: faster than quadratically (2,000 words: at most ~20 s, for random words; sacreBLEU: minutes)
    max_words: int = 2000


BLEU_DEFAULTS = BLEUOptions()
CHRF_DEFAULTS = CHRFOptions()
TER_DEFAULTS = TEROptions()


class SegmentScoreOptions(Frozen):
    """A metric given as segment scores (``--segment-scores NAME FILE...``): one file per system.

    Its corpus score is the mean of the numbers; ``systems`` are the hypothesis files they belong to
    (``-i``'s, in order), which picks a system's list out of a COMET ``--to_json`` file holding several.
    """

    name: str
    files: tuple[str, ...]
    lower_is_better: bool = False
    systems: tuple[str, ...] = ()


class MetricOptions(Frozen):
    """Which metrics to compute (``requested``, any order and case) and how each is configured.

    sacreBLEU's three metrics have a field each; any other registered metric
    (:mod:`bleucli.metrics.registry`: a plugin's, say) keeps its options record
    in ``others`` as ``(name, record)`` pairs. :meth:`of` reads either.
    Which names exist and in what order they print is the registry's business.
    """

    requested: tuple[str, ...] = ("bleu",)
    bleu: BLEUOptions = BLEU_DEFAULTS
    chrf: CHRFOptions = CHRF_DEFAULTS
    ter: TEROptions = TER_DEFAULTS
    others: tuple[tuple[str, Any], ...] = ()
    #: metrics given as segment scores, scored after the others
    segment_scores: tuple[SegmentScoreOptions, ...] = ()

    def of(self, name: str) -> Any:
        """The options record of metric ``name`` (``None``: not given, the metric's defaults apply)."""
        name = name.lower()
        if name in ("bleu", "chrf", "ter"):
            return getattr(self, name)
        return dict(self.others).get(name)

    def _as_data(self) -> dict[str, Any]:
        """Every metric's options as plain data (for shard files): ``{name: {field: value}}``."""
        records = {"bleu": self.bleu, "chrf": self.chrf, "ter": self.ter, **dict(self.others)}
        return {name: record._asdict() for name, record in records.items()}


class SignificanceOptions(Frozen):
    """A bootstrap confidence interval (``ci``) or a paired test (``bs``, ``ar``), or neither."""

    test: SignificanceTest | None = None
    confidence_n: int = DEFAULT_BOOTSTRAP_SAMPLES
    paired_bs_n: int = DEFAULT_BOOTSTRAP_SAMPLES
    paired_ar_n: int = DEFAULT_AR_TRIALS
    #: ``None``: unseeded (sacreBLEU's ``none``)
    seed: int | None = DEFAULT_SEED
    #: what a resample draws: ``segment`` (sacreBLEU) or ``document`` (every segment of a document at once)
    unit: str = "segment"
    #: ``--docids FILE``: each segment's document id, one a line (``None``: the test set's, with ``-t``)
    docids: str | None = None

    @property
    def resamples(self) -> int:
        """Resamples or trials of the chosen test."""
        return {"ci": self.confidence_n, "bs": self.paired_bs_n, "ar": self.paired_ar_n}[self.test or "ci"]

    @property
    def paired(self) -> bool:
        return self.test in ("bs", "ar")


class OutputOptions(Frozen):
    """How results are printed. ``format=None`` means the mode's default (json; text for sentences)."""

    format: str | None = None
    width: int = 1
    short: bool = False
    score_only: bool = False
    quiet: bool = False
    #: colour as sacreBLEU does on a terminal (p-values, table headers, intervals, --detail labels)
    color: bool = False
    #: ``-d``: sacreBLEU's per-origlang / per-subset breakdown after a single system's scores
    detail: bool = False
    #: ``--human-accuracy``: after the ``-pbs``/``-par`` table (whose bytes stay sacreBLEU's), the estimated
    #: human accuracy of each delta to the baseline (the JSON always has it)
    human_accuracy: bool = False

    def format_for(self, sentence_level: bool) -> str:
        return (self.format or ("text" if sentence_level else "json")).lower()


class InputOptions(Frozen):
    """Where references and hypotheses come from."""

    refs: tuple[str, ...] = ()
    #: system files; ``()`` means stdin
    systems: tuple[str, ...] = ()
    num_refs: int = 1
    encoding: str = "utf-8"
    #: stdin's tab-separated columns are systems: ``None`` (sacreBLEU's default) and ``True`` split them,
    #: ``False`` reads stdin as one system whose lines may hold tabs
    tsv: bool | None = None
    #: the longest input line accepted, in bytes (0: no limit); bounds memory on endless input
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    #: one TSV/JSONL file holding each segment's hypothesis and references (instead of refs and systems)
    aligned: str | None = None
    #: where they are in it: the hypothesis column, then the references (``()``: the kind's default)
    columns: tuple[str, ...] = ()


class TestSetOptions(Frozen):
    """A standard test set (``-t``/``-l``) and where its data is cached."""

    test_set: str | None = None
    langpair: str | None = None
    origlang: str | None = None
    subset: str | None = None
    cache_dir: str | None = None
    offline: bool | None = None
    registry: str | None = None
    #: download mirrors tried before the original URLs (``--mirror``/``BLEUCLI_MIRROR``)
    mirrors: tuple[str, ...] = ()

    @property
    def target_language(self) -> str:
        pair = self.langpair or ""
        return pair.split("-", 1)[1] if "-" in pair else ""


class RunOptions(Frozen):
    """One scoring run: the only object passed from the CLI (or an API caller) down to the pipeline."""

    inputs: InputOptions = InputOptions()
    metrics: MetricOptions = MetricOptions()
    significance: SignificanceOptions = SignificanceOptions()
    output: OutputOptions = OutputOptions()
    testset: TestSetOptions = TestSetOptions()
    sentence_level: bool = False
    #: worker processes (0: one per available CPU); results never depend on it
    jobs: int = 1
    #: a Dask cluster to run on (``local:N`` or a scheduler address), instead of local processes
    dask: str | None = None
    expect_signature: str | None = None

    @property
    def mode(self) -> str:
        """``corpus``, ``sentence``, ``ci``, ``bs`` or ``ar``."""
        return self.significance.test or ("sentence" if self.sentence_level else "corpus")

    @classmethod
    def from_cli(cls, flags: dict[str, Any], metrics: MetricOptions, seed: int | None = DEFAULT_SEED,
                 color: bool = False) -> RunOptions:
        """Build the options from a command's parsed flags (click's keyword arguments).

        The metrics' options come ready (:func:`bleucli.metrics.registry.metric_options_from_flags`
        reads their flags from the registry): this module holds records only, and knows no metric.
        """
        sentence_level = bool(flags["sentence_level"])
        test: SignificanceTest | None = (
            "ci" if flags["confidence"] else "bs" if flags["paired_bs"] else "ar" if flags["paired_ar"] else None
        )
        return cls(
            inputs=InputOptions(refs=tuple(flags["refs"]), systems=tuple(flags["inputs"]),
                                num_refs=flags["num_refs"], encoding=flags["encoding"], tsv=flags["tsv"],
                                max_line_bytes=flags.get("max_line_bytes", DEFAULT_MAX_LINE_BYTES),
                                aligned=flags.get("aligned"),
                                # --columns '' is ("",): refused as a usage error, not taken as the default
                                columns=tuple(c.strip() for c in flags["columns"].split(","))
                                if flags.get("columns") is not None else ()),
            metrics=metrics,
            significance=SignificanceOptions(test, flags["confidence_n"], flags["paired_bs_n"],
                                             flags["paired_ar_n"], seed, flags.get("resample_unit") or "segment",
                                             flags.get("docids")),
            output=OutputOptions(flags["output_format"], flags["width"], flags["short"], flags["score_only"],
                                 flags["quiet"], color, bool(flags.get("detail")), bool(flags.get("human_accuracy"))),
            testset=TestSetOptions(flags["test_set"], flags["langpair"], flags["origlang"], flags["subset"],
                                   flags["cache_dir"], flags["offline"] or None, flags["testsets_registry"],
                                   tuple(flags.get("mirrors") or ())),
            sentence_level=sentence_level,
            jobs=flags["jobs"],
            dask=flags.get("dask"),
            expect_signature=flags["expect_signature"],
        )


def resolve_seed(value: str | int | None = None) -> int | None:
    """The seed from ``--seed``/``BLEUCLI_SEED``: an int >= 0, or None for unseeded.

    ``None`` (option not given) means the default 12345; the string ``none``
    (any case) means an unseeded generator, as in sacreBLEU.
    """
    if value is None:
        return DEFAULT_SEED
    if isinstance(value, bool):
        raise OptionError(f"invalid seed {value!r}: expected a non-negative integer or 'none'")
    if isinstance(value, int):
        seed = value
    elif isinstance(value, str):
        text = value.strip()
        if text.lower() == "none":
            return None
        try:
            seed = int(text)
        except ValueError:
            raise OptionError(
                f"invalid seed '{value}': expected a non-negative integer or 'none'"
            ) from None
    else:
        raise OptionError(f"invalid seed {value!r}: expected a non-negative integer or 'none'")
    return check_seed(seed)


def check_seed(seed: int | None) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"invalid seed {seed!r}: expected a non-negative integer or None")
    if seed < 0:
        raise OptionError(f"invalid seed {seed}: it must be >= 0 (or 'none' for unseeded)")
    return seed


def seed_label(seed: int | None) -> str:
    """The seed as the signature writes it: the integer, or ``none``."""
    return "none" if seed is None else str(seed)


__all__ = [
    "BLEUOptions", "CHRFOptions", "TEROptions", "MetricOptions", "SignificanceOptions", "OutputOptions",
    "InputOptions", "TestSetOptions", "RunOptions", "SMOOTH_DEFAULTS", "MAX_ORDER_LIMIT",
    "DEFAULT_SEED", "DEFAULT_BOOTSTRAP_SAMPLES", "DEFAULT_AR_TRIALS", "FORMATS", "INPUT_DEFAULTS",
    "OUTPUT_DEFAULTS", "RUN_DEFAULTS", "resolve_seed", "check_seed", "seed_label", "BLEU_DEFAULTS",
    "CHRF_DEFAULTS", "TER_DEFAULTS",
]

INPUT_DEFAULTS = InputOptions()
OUTPUT_DEFAULTS = OutputOptions()
RUN_DEFAULTS = RunOptions()


# -- BLEU variants (bleucli self-bleu / ibleu / gleu / google-bleu, pairwise) ---
#: Texygen's SelfBleu: sentences kept (``sample_size``), its default order (``gram``), NLTK method1's epsilon.
TEXYGEN_SAMPLE_SIZE = 500
TEXYGEN_MAX_ORDER = 3
NLTK_METHOD1_EPSILON = 0.1
#: iBLEU's weight of BLEU against the references (Sun & Zhou 2012 use 0.8-0.9).
IBLEU_ALPHA = 0.8
#: jfleg's gleu.py: reference samplings (``--iter``), n-gram order, and whose ``random.randint`` draws them.
GLEU_ITERATIONS = 500
#: The largest n-gram order of google-bleu: an order above a sentence's length adds nothing, and each is a
#: loop over every sentence (--max-order 2147483647 ran for minutes; 10**20 was an internal error).
GOOGLE_BLEU_ORDER_LIMIT = 1000
GLEU_MAX_ORDER = 4
GLEU_SAMPLING = ("python2", "python3")
#: Google-BLEU (Wu et al. 2016, NLTK's gleu_score): n-gram orders min_len..max_len.
GOOGLE_BLEU_MIN_ORDER = 1
GOOGLE_BLEU_MAX_ORDER = 4
