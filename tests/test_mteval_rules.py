"""The fast mteval-v13a punctuation code against the rules as mteval-v13a states them.

``bleucli.tokenizers._mteval`` does not run the four substitutions; it
computes their result from the run structure of periods and commas. Here the
substitutions themselves, applied in order with Python ``re`` semantics, are
the definition, and every string over an alphabet with one character of each
kind that matters (letter, digit, period, comma, dash, separated symbol,
space) is compared up to a length where every interaction of neighbouring
rules appears; random longer strings cover the rest.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from bleucli.tokenizers import get_tokenizer
from bleucli.tokenizers._mteval import mteval_punctuation, mteval_tokens

_RULES = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def by_the_rules(line: str) -> str:
    for pattern, template in _RULES:
        line = pattern.sub(template, line)
    return " ".join(line.split())


def _all_strings(alphabet: str, max_length: int) -> list[str]:
    return ["".join(chars) for n in range(max_length + 1) for chars in itertools.product(alphabet, repeat=n)]


@pytest.mark.slow  # every string of up to 6 characters, twice (the intl sweeps below stay in the fast subset)
@pytest.mark.parametrize("padding", ["", " "])
def test_every_short_string(padding: str) -> None:
    mismatches = [
        text for text in _all_strings("a1.,-$", 6)
        if mteval_punctuation(f"{padding}{text}{padding}") != by_the_rules(f"{padding}{text}{padding}")
    ]
    assert mismatches == []


@pytest.mark.slow  # every string of up to 6 characters out of 7
def test_every_short_string_with_inner_whitespace() -> None:
    """Words where a digit touches ``.,-`` get the rules on their own: whitespace must not matter."""
    mismatches = [
        text for text in _all_strings("a1.,-$ ", 6)
        if mteval_punctuation(f" {text}\t") != by_the_rules(f" {text}\t")
    ]
    assert mismatches == []


@pytest.mark.slow  # 20,000 random strings
def test_random_longer_strings() -> None:
    rng = random.Random(20261122)
    alphabet = "ab19.,.,--$( \t\u00e9\u0663\u3002"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(7, 30)))
        assert mteval_punctuation(text) == by_the_rules(text), repr(text)


@pytest.mark.parametrize(
    "text, tokens",
    [(" a..5 ", ["a", ".", ".5"]), (" 1..5 ", ["1", ".", ".", "5"]), (" 3.5 ", ["3.5"]),
     (" 1,000. ", ["1,000", "."]), (" x.,.9 ", ["x", ".", ",", ".", "9"]), (" 4-5 ", ["4", "-", "5"])],
)
def test_quirks_of_consumed_pairs(text: str, tokens: list[str]) -> None:
    assert mteval_tokens(text) == tokens
    assert by_the_rules(text).split() == tokens


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
def test_tokens_equal_the_split_line(name: str) -> None:
    tokenizer = get_tokenizer(name)
    for line in ["Hello, world! It's 3.14 and 1,000.", "a..5 x-1 &amp; <skipped> 中文，", "  ", ""]:
        assert tokenizer.tokens(line) == tokenizer(line).split()


_INTL_RULES = None


def intl_by_the_rules(line: str) -> str:
    """mteval-v14's international tokenization as its three substitutions."""
    import regex

    global _INTL_RULES
    if _INTL_RULES is None:
        _INTL_RULES = [(regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "), (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
                       (regex.compile(r"(\p{S})"), r" \1 ")]
    for pattern, template in _INTL_RULES:
        line = pattern.sub(template, line)
    return " ".join(line.split())


def test_intl_every_short_string() -> None:
    # letter, ASCII digit, Arabic-Indic digit (N), two punctuation marks, a dash (P), a symbol (S)
    tokenizer = get_tokenizer("intl")
    mismatches = [text for text in _all_strings("a1\u0663.,-$", 5) if tokenizer(text) != intl_by_the_rules(text)]
    assert mismatches == []


def test_intl_every_short_string_with_inner_whitespace() -> None:
    tokenizer = get_tokenizer("intl")
    for padding in ("", " "):
        mismatches = [text for text in _all_strings("a1\u0663.-$ ", 5)
                      if tokenizer(f"{padding}{text}{padding}") != intl_by_the_rules(f"{padding}{text}{padding}")]
        assert mismatches == []


@pytest.mark.slow  # 20,000 random strings
def test_intl_random_strings_beyond_the_bmp() -> None:
    tokenizer = get_tokenizer("intl")
    rng = random.Random(11)
    alphabet = "ab1\u0663\u00b2.,-'$+ \u00e9\u3002\u300c\U0001f600\U00010110\U0001d7d8"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(5, 25)))
        assert tokenizer(text) == intl_by_the_rules(text), repr(text)
