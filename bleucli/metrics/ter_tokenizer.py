"""The Tercom tokenizer as sacreBLEU 2.6 applies it before TER, quirks included.

Tercom's ``Normalizer.java`` (general/Western step, then an optional Asian
step) and punctuation removal, as ported by sacreBLEU. Two ported quirks are
kept because they change scores: the possessive rule ``'s$`` can never fire
after the padding, and the three kana rules are anchored with ``^[`` where
``[^`` was meant, so they only ever look at the start of the string (which
after padding is a space), i.e. kana runs are never split.
"""

from __future__ import annotations

import re

# General (language-independent) and Western normalization.
_GENERAL_WESTERN = (
    (re.compile(r"\n-"), ""),
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
)
_PADDED_RULES = (
    # ASCII punctuation and symbols except ' - . , (the ranges {-~ [-` space-& (-+ :-@ and /)
    (re.compile(r"([{-~\[-` -&(-+:-@/])"), r" \1 "),
    (re.compile(r"'s "), r" 's "),
    (re.compile(r"'s$"), r" 's"),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)

ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

_ASIAN = (
    # CJK unified ideographs and extension A
    (re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),
    # CJK strokes, CJK radicals supplement
    (re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),
    # CJK compatibility, compatibility ideographs, compatibility forms
    (re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),
    # "Enclosed CJK letters and months", as ported (the range runs to U+3F22)
    (re.compile(r"([\u3200-\u3f22])"), r" \1 "),
    # Hiragana, Katakana, Katakana phonetic extensions: the ported ``^[`` bug
    # restricts these to the start of the string.
    (re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
    (re.compile(ASIAN_PUNCT), r" \1 "),
    (re.compile(FULL_WIDTH_PUNCT), r" \1 "),
)

_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT_REMOVAL = (re.compile(ASIAN_PUNCT), re.compile(FULL_WIDTH_PUNCT))


def normalize_general_western(line: str) -> str:
    """Tercom's general + Western normalization (entities, padding, punctuation split)."""
    for pattern, replacement in _GENERAL_WESTERN:
        line = pattern.sub(replacement, line)
    line = f" {line} "
    for pattern, replacement in _PADDED_RULES:
        line = pattern.sub(replacement, line)
    return line


def normalize_asian(line: str) -> str:
    """Tercom's Asian normalization: CJK characters and CJK punctuation stand alone."""
    for pattern, replacement in _ASIAN:
        line = pattern.sub(replacement, line)
    return line


class TercomTokenizer:
    """Callable ``line -> tokenized line``; the signature name is always ``tercom``."""

    signature = "tercom"

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive

    def __call__(self, line: str) -> str:
        if not line:
            return ""
        if not self.case_sensitive:
            line = line.lower()
        if self.normalized:
            line = normalize_general_western(line)
            if self.asian_support:
                line = normalize_asian(line)
        if self.no_punct:
            line = _PUNCT.sub("", line)
            if self.asian_support:
                for pattern in _ASIAN_PUNCT_REMOVAL:
                    line = pattern.sub("", line)
        return " ".join(line.split())
