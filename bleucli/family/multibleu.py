"""BLEU as Moses' ``multi-bleu.perl`` and ``multi-bleu-detok.perl`` compute and print it.

Reproduced (scripts of moses-smt/mosesdecoder, checked against them run with
perl by the goldens in ``tests/golden/multibleu/``):

* ``multi-bleu.perl``: lines are bytes; tokens are split on ASCII whitespace
  (Perl's ``split`` on byte strings: space, tab, LF, CR, FF, VT); ``-lc``
  lowercases ASCII letters only. Clipped matches of orders 1..4 with the
  maximum count over the references, the closest reference length (the
  shorter one on a tie), a precision of 0 for an order without
  n-grams, log(0) taken as ``-9999999999`` (so ``BLEU = 0.00``).
* ``multi-bleu-detok.perl``: the same on UTF-8 text after mteval-v13a's
  tokenization, with Perl's Unicode whitespace (which, unlike Python's,
  excludes U+001C..U+001F), Perl's ``lc`` (no final-sigma rule), and its
  ``chop``: the last character of a final line without a newline is lost.

Where the scripts die or print a meaningless line (no hypothesis tokens, no
reference tokens, no reference file, an empty reference file, a reference
file with fewer lines than the hypothesis, whose missing lines the scripts
score against the stand-in length 9999) an :class:`~bleucli.errors.InputError`
is raised instead. Nothing here prints.
"""

from __future__ import annotations

import gzip
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InputError

ORDER = 4
#: The reference length of a hypothesis line with no reference line (the scripts' initial "closest").
MISSING_REFERENCE_LENGTH = 9999
#: The scripts' stand-in for log(0).
LOG_ZERO = -9999999999

#: Perl's ``\s`` on character strings (Unicode White_Space), for the detok script.
_PERL_UNICODE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_PERL_SPLIT = re.compile(f"[{_PERL_UNICODE_SPACE}]+")
_MTEVAL_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


@dataclass(frozen=True)
class MultiBleuResult:
    """Summed statistics and the line the script prints."""

    correct: tuple[int, ...]
    total: tuple[int, ...]
    hyp_len: int
    ref_len: int

    @property
    def precisions(self) -> list[float]:
        return [c / t if t else 0 for c, t in zip(self.correct, self.total)]

    @property
    def brevity_penalty(self) -> float:
        if self.hyp_len < self.ref_len:
            return math.exp(1 - self.ref_len / self.hyp_len)
        return 1

    @property
    def score(self) -> float:
        """BLEU in [0, 1], with the scripts' operation order (four logs summed left to right, / 4)."""
        logs = [math.log(p) if p else LOG_ZERO for p in self.precisions]
        return self.brevity_penalty * math.exp((logs[0] + logs[1] + logs[2] + logs[3]) / 4)

    def line(self) -> str:
        """The scripts' output line, byte for byte (without the newline)."""
        p = self.precisions
        return (f"BLEU = {100 * self.score:.2f}, {100 * p[0]:.1f}/{100 * p[1]:.1f}/{100 * p[2]:.1f}/"
                f"{100 * p[3]:.1f} (BP={self.brevity_penalty:.3f}, ratio={self.hyp_len / self.ref_len:.3f}, "
                f"hyp_len={self.hyp_len:d}, ref_len={self.ref_len:d})")


# --------------------------------------------------------------------------- reading

def reference_files(stem: str, extra: Sequence[str]) -> tuple[list[str], list[str]]:
    """The files the scripts read, in their order, and the extra names they silently skip.

    ``STEM0, STEM1, ...`` (or ``STEM.ref0...`` when neither ``STEM`` nor
    ``STEM0`` exists), then ``STEM`` itself, then every further argument
    that exists.
    """
    if not os.path.exists(stem) and not os.path.exists(stem + "0") and os.path.exists(stem + ".ref0"):
        stem += ".ref"
    files = []
    index = 0
    while os.path.exists(f"{stem}{index}"):
        files.append(f"{stem}{index}")
        index += 1
    if os.path.exists(stem):
        files.append(stem)
    if not files:
        raise InputError(f"could not find reference file {stem}")
    skipped = [name for name in extra if not os.path.exists(name)]
    files += [name for name in extra if os.path.exists(name)]
    return files, skipped


def read_lines(path: str) -> list[bytes]:
    """A file's lines as the scripts read them (``.gz`` through gzip, as the scripts' ``/.gz$/`` test)."""
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a reference file")
    from ..input.reading import read_stream

    try:
        with open(path, "rb") as handle:
            if re.search(r".gz$", path):  # a damaged gzip file: InputError "cannot read: <reason>"
                with gzip.open(handle, "rb") as unzipped:
                    data = read_stream(unzipped, path)  # type: ignore[arg-type]
            else:  # in blocks, each line's length bounded (a device such as /dev/zero never ends)
                data = read_stream(handle, path)
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    return split_lines(data)


def split_lines(data: bytes) -> list[bytes]:
    """Lines ending in LF, as Perl's ``<FH>`` returns them (each keeps its LF; the last may lack one)."""
    if not data:
        return []
    lines = data.split(b"\n")
    last = lines.pop()
    result = [line + b"\n" for line in lines]
    if last:
        result.append(last)
    return result


def _chomp(line: bytes) -> bytes:
    return line[:-1] if line.endswith(b"\n") else line


# --------------------------------------------------------------------------- tokens

def tokens_bytes(line: bytes, lowercase: bool) -> list[str]:
    """multi-bleu.perl's tokens: ``chomp``, ASCII ``lc``, split on ASCII whitespace (as latin-1 strings)."""
    line = _chomp(line)
    if lowercase:
        line = line.lower()  # bytes.lower(): A-Z only, as Perl's lc on a byte string
    return [token.decode("latin-1") for token in line.split()]


def perl_lc(text: str) -> str:
    """Perl's ``lc``: Unicode lowercase without Python's final-sigma rule."""
    return text.replace("\u03a3", "\u03c3").lower()


def mteval_v13a(text: str) -> str:
    """The detok script's ``tokenization``: mteval-v13a's normalisation, with Perl's whitespace."""
    text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    text = text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    text = f" {text} "
    for pattern, replacement in _MTEVAL_RULES:
        text = pattern.sub(replacement, text)
    return _PERL_SPLIT.sub(" ", text).strip(" ")


def detok_line(line: bytes, name: str, number: int) -> str:
    """A line of the detok script: decoded as UTF-8, then ``chop`` (drops the last character, LF or not)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{name}, line {number}: not valid UTF-8 ({error.reason} at byte {error.start})") from None
    return text[:-1]


def tokens_detok(text: str, lowercase: bool, tokenize_first: bool) -> list[str]:
    """The detok script's tokens. References are tokenized, then lowercased; hypotheses the other way round."""
    if tokenize_first:
        text = mteval_v13a(text)
        if lowercase:
            text = perl_lc(text)
    else:
        if lowercase:
            text = perl_lc(text)
        text = mteval_v13a(text)
    return [token for token in _PERL_SPLIT.split(text) if token]


# --------------------------------------------------------------------------- scoring

def _matcher():  # type: ignore[no-untyped-def]
    from ..metrics.compiled import compiled_matcher

    module = compiled_matcher()
    if module is not None:
        return module.ngram_matches
    from .nltk import _python_matches

    return lambda hyp, refs, order: _python_matches(refs, hyp, order)


def score_tokens(hypotheses: Sequence[list[str]], references: Sequence[Sequence[list[str]]]) -> MultiBleuResult:
    """Sum the scripts' statistics; ``references[i]`` are the references of line i (maybe none)."""
    if not hypotheses:
        raise InputError("no hypothesis lines on standard input (multi-bleu.perl prints 'BLEU = 0, 0/0/0/0 ...')")
    matches_of = _matcher()
    correct = [0] * ORDER
    total = [0] * ORDER
    hyp_len = ref_len = 0
    for index, hyp in enumerate(hypotheses):
        refs = references[index] if index < len(references) else ()
        length = len(hyp)
        closest_diff, closest = MISSING_REFERENCE_LENGTH, MISSING_REFERENCE_LENGTH
        for ref in refs:
            diff = abs(length - len(ref))
            if diff < closest_diff:
                closest_diff, closest = diff, len(ref)
            elif diff == closest_diff and len(ref) < closest:
                closest = len(ref)
        hyp_len += length
        ref_len += closest
        if refs and length:
            for n, matched in enumerate(matches_of(hyp, list(refs), ORDER)):
                correct[n] += matched
        for n in range(min(ORDER, length)):
            total[n] += length - n
    if ref_len == 0:
        raise InputError("the references have no tokens (multi-bleu.perl prints 'BLEU = 0, 0/0/0/0 ...' "
                         "and exits 1)")
    if hyp_len == 0:
        raise InputError("the hypotheses have no tokens (multi-bleu.perl dies with 'Illegal division by zero')")
    return MultiBleuResult(tuple(correct), tuple(total), hyp_len, ref_len)


def multi_bleu(hypothesis: bytes, reference_paths: Sequence[str], lowercase: bool = False,
               detok: bool = False) -> MultiBleuResult:
    """Score ``hypothesis`` (stdin's bytes) against reference files as the chosen script does."""
    hyp_lines = split_lines(hypothesis)
    per_line: list[list[list[str]]] = []
    for path in reference_paths:
        lines = read_lines(path)
        if not lines:  # the scripts would score every line against a reference of length 9999
            raise InputError(f"{path}: empty reference file (multi-bleu.perl would print a score against "
                             "references of length 9999)")
        if len(lines) < len(hyp_lines):  # the same stand-in for every line past the file's end
            raise InputError(f"{path}: {len(lines)} reference line{'s' if len(lines) != 1 else ''} for "
                             f"{len(hyp_lines)} hypothesis lines (multi-bleu.perl would score the hypothesis "
                             f"lines past line {len(lines)} against references of length 9999)")
        for number, line in enumerate(lines, start=1):
            if detok:
                tokens = tokens_detok(detok_line(line, path, number), lowercase, tokenize_first=True)
            else:
                tokens = tokens_bytes(line, lowercase)
            if number > len(per_line):
                per_line.append([])
            per_line[number - 1].append(tokens)
    if detok:
        hypotheses = [tokens_detok(detok_line(line, "<stdin>", number), lowercase, tokenize_first=False)
                      for number, line in enumerate(hyp_lines, start=1)]
    else:
        hypotheses = [tokens_bytes(line, lowercase) for line in hyp_lines]
    return score_tokens(hypotheses, per_line)


__all__ = ["MultiBleuResult", "multi_bleu", "score_tokens", "reference_files", "mteval_v13a", "perl_lc",
           "MISSING_REFERENCE_LENGTH"]
