"""NIST mteval-v11b's tokenization: mteval-v13a's rules on bytes, split on ASCII whitespace only.

mteval-v11b (used for the NIST evaluations up to 2008, with the shortest
reference length: ``--ref-length shortest``) reads its files with ``binmode``
and no ``use utf8``, so Perl applies ``\\s`` to bytes: only space, tab, CR,
LF, FF and VT separate words. mteval-v13a and sacreBLEU's ``13a`` decode
UTF-8 and also split on U+00A0 (no-break space), U+2009, U+202F, U+3000 and
the other Unicode spaces (Python adds U+001C-U+001F). A WMT line such as
``10\u00a0000 Euro`` is therefore one token ``10\u00a0000`` for mteval-v11b and
two for ``13a``. Everything else is v13a's (the same entity unescaping,
``<skipped>`` removal and four punctuation rules; they only look at ASCII
characters, so running them on characters or on UTF-8 bytes gives the same
text).

Case: mteval-v11b lowercases only ASCII letters unless run with ``-c``;
bleucli's ``-lc`` lowercases every letter, so mteval-v11b's numbers are
reproduced case-sensitively (``-c``), which is how it is compared here.
"""

from __future__ import annotations

import re

from .tok_13a import Tokenizer13a

# Characters Python's str.split() treats as whitespace and Perl's \s on bytes does not.
_NOT_PERL_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_PERL_SPACE = re.compile("[ \t\n\r\f\v]+")
# mteval's four punctuation rules, as the Perl script writes them, for the rare lines that need them.
_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


def v11b_tokens(line: str) -> list[str]:
    """mteval-v11b's tokens of an unescaped, space-padded line: v13a's rules, then a split on ASCII whitespace.

    The rules are run as the script writes them (Python's ``re`` and Perl agree
    on these ASCII classes); :func:`mteval_tokens` computes the same text faster
    but splits on every Unicode space, so it serves only lines without one.
    """
    for pattern, template in _RULES:
        line = pattern.sub(template, line)
    return [token for token in _PERL_SPACE.split(line) if token]


class Tokenizer11b(Tokenizer13a):
    """mteval-v11b: ``13a`` except that non-ASCII whitespace does not separate tokens.

    So ``tokens(line)`` is not ``self(line).split()`` when a token holds such a
    space: BLEU uses ``tokens``.
    """

    signature = "11b"

    def tokens(self, line: str) -> list[str]:
        if _NOT_PERL_SPACE.search(line) is None:
            return super().tokens(line)
        return v11b_tokens(f" {self._unescaped(line)} ")
