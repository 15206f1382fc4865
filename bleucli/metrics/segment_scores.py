"""Any metric given as segment scores (``--segment-scores NAME FILE...``): COMET, MetricX, human ratings.

Neural metrics and human judgments come as one number per segment, computed
elsewhere. Giving them the shape of every other metric (a statistics row per
segment, a score from the summed rows) lets the whole machinery of bleucli use
them unchanged: corpus scores, ``-ci``, ``-pbs``, ``-par``, ``compare``, and
document resampling. A segment's row is ``[score, 1]`` and the corpus score is
``sum / count``: the mean, as COMET's own system score is, and the mean of the
resampled segments (or documents) in a resample. The score column is a float,
so it is summed left to right like TER's reference lengths
(:mod:`bleucli.statistics`), and resamples sum it in float32 as sacreBLEU's
significance code does for any metric with float statistics.

The rows do not come from the hypotheses' text but from the files, one per
system; :meth:`SegmentScores.system_rows` hands them to the engine, which
checks that each file has exactly one score per hypothesis
(:mod:`bleucli.engine.streaming`).

Three file formats are read (the first non-blank character decides):

* one number per line (``0.8123``, ``-1.5e-3``; ``nan``, ``inf``, text, an
  empty line are errors naming the file and line);
* JSON lines, each an object with a numeric ``score``;
* COMET's ``comet-score --to_json`` output: one JSON object mapping each
  hypothesis file to a list of per-segment objects holding ``COMET`` (or
  ``score``). When it holds several systems, the one named like the ``-i``
  file is taken.

A file must be a regular file no larger than :data:`MAX_SCORE_FILE_BYTES`:
``/dev/zero``, a FIFO or a directory are refused at once, so memory stays bounded.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import InputError, OptionError
from .base import Metric, Score

#: The largest segment-score file read (COMET's JSON repeats source, output and reference of every segment).
MAX_SCORE_FILE_BYTES = 512 << 20

#: A decimal number as people and programs write it (no ``nan``/``inf``, no ``1_000``, no hex).
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")

#: The keys of a per-segment object that hold its score, in the order they are looked for.
_SCORE_KEYS = ("score", "COMET")

#: How the segment scores are turned into a corpus score (the signature's ``agg``).
AGGREGATION = "mean"


@dataclass(frozen=True, repr=False)  # str/repr: sacreBLEU's line (Score.__repr__)
class SegmentScore(Score):
    """The mean of ``segments`` segment scores."""

    ANY_SIGN: ClassVar[bool] = True
    segments: int = 0
    total: float = 0.0

    def statistics_data(self) -> dict[str, Any]:
        return {"segments": self.segments, "sum": self.total, "aggregation": AGGREGATION}


class ScoreFile:
    """One system's segment scores as read from ``path``, with the sha256 of the file's bytes."""

    def __init__(self, path: str, scores: list[float], sha256: str, lines: list[int] | None = None) -> None:
        self.path = path
        self.scores = scores
        self.sha256 = sha256
        #: the line of each score, when the format has one score a line (for messages)
        self.lines = lines


def _where(score_file: str, line: int | None, message: str) -> InputError:
    return InputError(message, score_file, line)


def _finite(value: Any, path: str, line: int | None, what: str) -> float:
    """A JSON value that must be a finite number (``true`` is not one)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _where(path, line, f"{what} is {_shown(value)}, not a number")
    number = float(value)
    if not math.isfinite(number):
        raise _where(path, line, f"{what} is {value!r}, not a finite number")
    return number


def _shown(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _plain(path: str, lines: list[str]) -> list[float]:
    scores = []
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text:
            raise _where(path, number, "empty line: expected a number (one score per hypothesis line)")
        if not _NUMBER.fullmatch(text):
            lowered = text.lower().lstrip("+-")
            if lowered in ("nan", "inf", "infinity"):
                raise _where(path, number, f"{text!r} is not a finite number")
            raise _where(path, number, f"{_clip(text)!r} is not a number")
        value = float(text)
        if not math.isfinite(value):
            raise _where(path, number, f"{_clip(text)!r} is too large to be a finite number")
        scores.append(value)
    return scores


def _clip(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _json_lines(path: str, lines: list[str]) -> list[float]:
    from ..input.bounded import loads

    scores = []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            raise _where(path, number, "empty line: expected a JSON object with a 'score' (one per hypothesis line)")
        try:
            item = loads(raw)
        except ValueError as error:
            raise _where(path, number, f"not valid JSON: {getattr(error, 'msg', error)}") from None
        if not isinstance(item, dict) or "score" not in item:
            raise _where(path, number, f"expected a JSON object with a 'score' key, got {_shown(item)}")
        scores.append(_finite(item["score"], path, number, "'score'"))
    return scores


def _comet_json(path: str, text: str, system: str | None) -> list[float]:
    from ..input.bounded import loads

    try:
        document = loads(text)
    except ValueError as error:
        line = getattr(error, "lineno", None)
        raise _where(path, line, f"not valid JSON: {getattr(error, 'msg', error)}") from None
    if not isinstance(document, dict) or not document:
        raise _where(path, None, "expected COMET's --to_json object (hypothesis file -> list of segments)")
    entries = _pick_system(path, document, system)
    if not isinstance(entries, list) or not entries:
        raise _where(path, None, "expected a non-empty list of segments under the hypothesis file's name")
    scores = []
    for index, item in enumerate(entries, 1):
        key = next((k for k in _SCORE_KEYS if isinstance(item, dict) and k in item), None)
        if key is None:
            raise _where(path, None, f"segment {index}: expected an object with a 'COMET' or 'score' key, "
                                     f"got {_shown(item)}")
        scores.append(_finite(item[key], path, None, f"segment {index}: '{key}'"))
    return scores


def _pick_system(path: str, document: dict[str, Any], system: str | None) -> Any:
    """The list of the system ``system`` (an ``-i`` file) in a COMET JSON holding one or several."""
    if len(document) == 1:
        return next(iter(document.values()))
    if system is not None:
        for key in (system, os.path.normpath(system)):
            if key in document:
                return document[key]
        named = [key for key in document if os.path.basename(key) == os.path.basename(system)]
        if len(named) == 1:
            return document[named[0]]
    listed = ", ".join(list(document)[:5]) + (", ..." if len(document) > 5 else "")
    raise _where(path, None, f"holds the segments of {len(document)} systems ({listed}), none named like "
                             f"the hypothesis file {system!r}")


def read_score_file(path: str, system: str | None = None) -> ScoreFile:
    """The scores of one system's file (see the module docstring), or an InputError naming file and line."""
    from ..input.bounded import read_regular

    data = read_regular(path, MAX_SCORE_FILE_BYTES, "segment-score file")
    digest = hashlib.sha256(data).hexdigest()
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise _where(path, line, "contains a NUL byte: a binary file, not segment scores")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise _where(path, line, f"not valid UTF-8 (byte {data[error.start:error.start + 1]!r}): "
                                 "a binary file, not segment scores") from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise _where(path, None, "is empty: expected one score per hypothesis line")
    lines = text.split("\n")
    if lines[-1] == "":  # a final newline ends the last line
        lines.pop()
    start = text.lstrip()
    if start.startswith("{"):
        first = next(line for line in lines if line.strip())
        if _is_score_object(first):
            scores = _json_lines(path, lines)
        else:
            scores = _comet_json(path, text, system)
    else:
        scores = _plain(path, lines)
    try:  # fsum raises OverflowError (rather than giving inf) when an exact partial sum overflows
        finite = math.isfinite(math.fsum(scores)) and math.isfinite(sum(scores))
    except OverflowError:
        finite = False
    if not finite:
        raise _where(path, None, "the scores are too large: their sum is not a finite number")
    _check_range(path, scores, comet=start.startswith("{") and not _is_score_object(lines[0]))
    return ScoreFile(path, scores, digest)


#: Resamples (``-ci``, ``-pbs``, ``-par``, ``compare``) sum segment scores in float32 as sacreBLEU does; its
#: largest number is 3.4e38. Scores whose absolute values add up to at most this stay finite in any resample.
MAX_SCORE_MASS = 1e38


def _check_range(path: str, scores: list[float], comet: bool) -> None:
    """Refuse (naming the line, or the segment of a COMET JSON) a score that a float32 resample could overflow.

    A resample draws ``len(scores)`` scores, so ``len(scores) * |score| <= 1e38`` bounds every sum. Beyond
    it the bootstrap's mean was ``inf`` (reported as a --smooth-value problem) and the randomization test's
    p-values were wrong with exit 0; no metric's segment scores come near it.
    """
    limit = MAX_SCORE_MASS / len(scores)
    for index, value in enumerate(scores, 1):
        if abs(value) > limit:
            where = f"segment {index}: " if comet else ""
            raise _where(path, None if comet else index,
                         f"{where}{value:g} is beyond the range of segment scores: with {len(scores)} scores each "
                         f"is at most {limit:.4g} in absolute value ({len(scores)} x |score| <= 1e38, as "
                         "resamples for -ci, -pbs, -par and compare sum them in float32, up to 3.4e38)")


def _is_score_object(line: str) -> bool:
    from ..input.bounded import DuplicateKeyError, loads

    try:
        item = loads(line)
    except DuplicateKeyError:
        return True  # a JSON line after all: its reader names the line and the key
    except ValueError:
        return False
    return isinstance(item, dict) and "score" in item


class SegmentScores(Metric[None]):
    """A metric whose segment scores are given, one file per system; its corpus score is their mean.

    ``files[k]`` holds system k's scores (``-i``'s order); ``systems[k]`` is
    that system's hypothesis file, used to pick its list out of a COMET JSON
    holding several. Files are read on first use and kept.
    """

    def __init__(self, name: str, files: Sequence[str], lower_is_better: bool = False,
                 systems: Sequence[str] = (), references: Any = None) -> None:
        super().__init__(None)
        if not name or not name.strip() or any(c in name for c in "|:= \t\n"):
            raise OptionError(f"--segment-scores: {name!r} is not a metric name (no spaces, '|', ':' or '=')")
        if not files:
            raise OptionError(f"--segment-scores {name}: give one score file per system")
        self.name = name
        self.files = tuple(files)
        self.lower_is_better = lower_is_better
        self.systems = tuple(systems)
        self._read: dict[int, ScoreFile] = {}
        #: with ``-t --origlang/--subset``: which lines of the whole test set are scored (files hold them all)
        self.keep: Sequence[bool] | None = None

    @classmethod
    def from_options(cls, options: Any, references: Any = None, trg_lang: str = "",
                     models: dict[str, Any] | None = None) -> Metric[Any]:
        return cls(options.name, options.files, options.lower_is_better, options.systems)

    def __getstate__(self) -> dict[str, Any]:
        """Sent to worker processes (to score resamples) without the scores read: they need none."""
        state = dict(self.__dict__)
        state["_read"] = {}
        return state

    # -- the scores ---------------------------------------------------------------
    def score_file(self, index: int) -> ScoreFile:
        """System ``index``'s file, read once."""
        if index >= len(self.files):
            raise OptionError(f"--segment-scores {self.name}: {len(self.files)} file(s) for more systems; "
                              "give one score file per system, in -i order")
        if index not in self._read:
            system = self.systems[index] if index < len(self.systems) else None
            self._read[index] = read_score_file(self.files[index], system)
        return self._read[index]

    def check_systems(self, count: int) -> None:
        """One file per system: a usage error otherwise."""
        if len(self.files) != count:
            raise OptionError(f"--segment-scores {self.name}: {len(self.files)} file(s) for {count} system(s); "
                              "give one score file per system, in -i order")

    def system_rows(self, index: int, segments: int) -> list[list[Any]]:
        """System ``index``'s statistics rows ``[score, 1]``, refusing a file whose count is not ``segments``."""
        scores = self.score_file(index)
        values = scores.scores
        if self.keep is not None:  # one score per line of the whole test set, filtered as the hypotheses are
            whole = len(self.keep)
            if len(values) != whole:
                line = min(len(values), whole) + 1
                what = "missing score: " if len(values) < whole else ""
                raise InputError(f"{what}the file has {len(values)} scores for the {whole} segments of the test set "
                                 "(one score per line of the whole set, before --origlang/--subset)",
                                 scores.path, line)
            values = [value for value, kept in zip(values, self.keep) if kept]
        found = len(values)
        if found < segments:
            raise InputError(f"missing score: the file has {found} scores for {segments} hypotheses "
                             "(one score per hypothesis line)", scores.path, found + 1)
        if found > segments:
            raise InputError(f"the file has {found} scores for {segments} hypotheses "
                             "(one score per hypothesis line)", scores.path, segments + 1)
        return [[value, 1] for value in values]

    # -- the Metric protocol --------------------------------------------------------
    def prepare_references(self, references: tuple[str, ...], shared: bool) -> None:
        return None

    def segment_statistics(self, hypothesis: str, references: None) -> list[Any]:
        raise OptionError(f"{self.name} is given as segment scores: it cannot score text")

    def score_from_statistics(self, statistics: Sequence[Any], nrefs: int | str | None = None) -> Score:
        total, count = statistics[0], statistics[1]
        if not count:
            raise InputError(f"{self.name}: no segment scores to average")
        if nrefs is not None:
            self._nrefs = nrefs
        return SegmentScore._build(name=self.name, score=float(total / count), signature=self.signature(nrefs),
                                   mean=None, ci=None, segments=int(count), total=float(total))

    def resampled_score(self, statistics: Sequence[Any]) -> Any:
        """``sum / count`` in the statistics' own type (float32 in a bootstrap, as for any metric there)."""
        return statistics[0] / statistics[1]

    def _signature_fields(self) -> dict[str, object]:
        read = [self.score_file(i).sha256[:12] for i in range(len(self.files))]
        return {"scores": ",".join(read), "agg": AGGREGATION}

    def _signature_key(self) -> Any:
        return self.files


__all__ = ["SegmentScores", "SegmentScore", "ScoreFile", "read_score_file", "MAX_SCORE_FILE_BYTES",
           "AGGREGATION"]
