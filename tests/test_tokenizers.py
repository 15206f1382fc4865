"""Tokenizer outputs on sacreBLEU's documented examples, and the zh range quirk."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bleucli.errors import OptionError
from bleucli.tokenizers import available_tokenizers, default_tokenizer_for, get_tokenizer
from bleucli.tokenizers.tok_zh import CHINESE_RANGES, is_chinese_char

# (input, 13a, intl, zh) from the spec's tokenizer comparison table (appendix D)
TABLE = [
    ("Hello, world! It's 3.14 and 1,000.", "Hello , world ! It's 3.14 and 1,000 .",
     "Hello , world ! It ' s 3.14 and 1,000.", "Hello , world ! It's 3.14 and 1,000."),
    ("The year 2019.", "The year 2019 .", "The year 2019.", "The year 2019."),
    ("A-B 10-20 (x) [y] {z} $5 &amp; &quot;q&quot; <skipped>", 'A-B 10 - 20 ( x ) [ y ] { z } $ 5 & " q "',
     "A - B 10-20 ( x ) [ y ] { z } $ 5 & amp ; & quot ; q & quot ; < skipped >",
     "A-B 10 - 20 ( x ) [ y ] { z } $ 5 & amp ; & quot ; q & quot ; < skipped >"),
    ("“Quoted” — dash… ok?", "“Quoted” — dash… ok ?", "“ Quoted ” — dash … ok ?", "“ Quoted ” — dash … ok ?"),
    ("中文测试abc, def。", "中文测试abc , def。", "中文测试abc , def 。", "中 文 测 试 abc , def 。"),
]


@pytest.mark.parametrize("line, t13a, intl, zh", TABLE)
def test_tokenizer_table(line: str, t13a: str, intl: str, zh: str) -> None:
    assert get_tokenizer("13a")(line) == t13a
    assert get_tokenizer("intl")(line) == intl
    assert get_tokenizer("zh")(line) == zh


@pytest.mark.parametrize(
    "line, t13a, intl",
    [("1.5.2.", "1.5.2 .", "1.5.2."), ("a-1", "a-1", "a - 1"), ("1-2-3", "1 - 2 - 3", "1-2-3"),
     ("50%", "50 %", "50%"), ("e.g. U.S.A.", "e . g . U . S . A .", "e . g . U . S . A ."),
     ("a...", "a . . .", "a . . .")],
)
def test_punctuation_rules(line: str, t13a: str, intl: str) -> None:
    assert get_tokenizer("13a")(line) == t13a
    assert get_tokenizer("intl")(line) == intl


def test_13a_joins_hyphenated_line_breaks() -> None:
    assert get_tokenizer("13a")("x\ny-\nz") == "x yz"


def test_char_and_none() -> None:
    assert get_tokenizer("char")("ab c").split() == ["a", "b", "c"]
    assert get_tokenizer("none")("a,b  c") == "a,b  c"


def _in_original_table(char: str) -> bool:
    """sacreBLEU's zh table compares strings, two of its bounds being 2-character strings."""
    table = [
        ("\u3400", "\u4db5"), ("\u4e00", "\u9fa5"), ("\u9fa6", "\u9fbb"), ("\uf900", "\ufa2d"),
        ("\ufa30", "\ufa6a"), ("\ufa70", "\ufad9"), ("\u2000" "0", "\u2a6d" "6"), ("\u2f80" "0", "\u2fa1" "d"),
        ("\uff00", "\uffef"), ("\u2e80", "\u2eff"), ("\u3000", "\u303f"), ("\u31c0", "\u31ef"),
        ("\u2f00", "\u2fdf"), ("\u2ff0", "\u2fff"), ("\u3100", "\u312f"), ("\u31a0", "\u31bf"),
        ("\ufe10", "\ufe1f"), ("\ufe30", "\ufe4f"), ("\u2600", "\u26ff"), ("\u2700", "\u27bf"),
        ("\u3200", "\u32ff"), ("\u3300", "\u33ff"),
    ]
    return any(start <= char <= end for start, end in table)


@pytest.mark.slow  # every code point: seconds
def test_zh_ranges_reproduce_the_string_comparison_quirk_on_every_code_point() -> None:
    mismatches = [c for c in range(0x110000) if 0xD800 > c or c > 0xDFFF
                  if is_chinese_char(chr(c)) != _in_original_table(chr(c))]
    assert mismatches == []
    assert is_chinese_char("…") and is_chinese_char("→")  # general punctuation counts (sacreBLEU #298)
    assert not is_chinese_char("\U00020000")  # real Extension B does not
    assert not is_chinese_char("\u2000")


def test_zh_regex_and_predicate_agree() -> None:
    tok = get_tokenizer("zh")
    for start, end in CHINESE_RANGES:
        for code in (start, start + 1, end):
            char = chr(code)
            expected = ["a", "b"] if char.isspace() else ["a", char, "b"]
            assert tok(f"a{char}b").split() == expected, hex(code)
    assert tok("a\u2a6eb") == "a\u2a6eb"  # just past the quirky range: not split off


def test_registry() -> None:
    assert available_tokenizers() == ["none", "13a", "intl", "char", "zh", "ja-mecab", "ko-mecab", "flores101",
                                      "spm", "flores200", "spBLEU-1K", "11b"]
    assert default_tokenizer_for("zh") == "zh" and default_tokenizer_for("de") == "13a"
    assert default_tokenizer_for("ja") == "ja-mecab" and default_tokenizer_for("ko") == "ko-mecab"
    assert default_tokenizer_for(None) == "13a"
    with pytest.raises(OptionError, match="unknown tokenizer 'x'"):
        get_tokenizer("x")
    for name in ["none", "13a", "intl", "char", "zh", "11b"]:  # the others need extras (test_mecab_tokenizers.py)
        assert get_tokenizer(name).signature == name


def test_tokenizer_modules_are_imported_lazily() -> None:
    code = ("import sys, bleucli.tokenizers as t; t.get_tokenizer('13a'); "
            "print(sorted(m for m in sys.modules if m.startswith('bleucli.tokenizers.') or m == 'regex'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['bleucli.tokenizers._mteval', 'bleucli.tokenizers.tok_13a']"


# hostile whitespace: tabs, NBSP, runs of spaces, leading and trailing blanks; frozen from
# sacreBLEU 2.6.0's TokenizerChar()(line) (issue 16.17: the string form, not only the tokens)
CHAR_STRINGS = [
    ("a b\t", "a   b \t"),
    (" a  b ", "  a     b  "),
    ("\u00a0a\tb  c ", "\u00a0 a \t b     c  "),
    ("\t\tx", "\t \t x"),
    ("", ""),
    ("中文 测试", "中 文   测 试"),
]


@pytest.mark.parametrize("line, expected", CHAR_STRINGS)
def test_char_string_form_is_sacrebleus(line: str, expected: str) -> None:
    tokenizer = get_tokenizer("char")
    assert tokenizer(line) == expected
    assert tokenizer.tokens(line) == expected.split()
    assert tokenizer.characters(line) == "".join(expected.split())


@pytest.mark.oracle
@pytest.mark.parametrize("line", [line for line, _ in CHAR_STRINGS] + ["\u3000a\u2009b\r\n", "  \u00a0 "])
def test_char_string_form_against_sacrebleu(line: str) -> None:
    tokenizer_char = pytest.importorskip("sacrebleu.tokenizers.tokenizer_char")
    expected = tokenizer_char.TokenizerChar()(line)
    assert get_tokenizer("char")(line) == expected
    assert get_tokenizer("char").tokens(line) == expected.split()


# ------------------------------------------------------------------ SentencePiece model providers


def test_spm_models_come_from_the_provider_given_else_the_one_import_bleucli_sets() -> None:
    pytest.importorskip("sentencepiece", reason="needs bleucli[spm]")
    import bleucli
    from bleucli.metrics.bleu import BLEU
    from bleucli.tokenizers import set_spm_model_provider, spm_model_provider

    assert spm_model_provider() is bleucli._download_spm_model  # the test-set wing's download
    asked = []

    class Asked(Exception):
        pass

    def provider(name: str, **settings: object) -> None:
        asked.append((name, settings))
        raise Asked

    with pytest.raises(Asked):
        BLEU(tokenize="flores200", models={"provider": provider, "cache_dir": "/nowhere", "offline": True})
    assert asked == [("flores200", {"cache_dir": "/nowhere", "offline": True})]
    previous = set_spm_model_provider(None)
    try:
        with pytest.raises(OptionError, match="no model provider is set"):
            BLEU(tokenize="spBLEU-1K")
        with pytest.raises(Asked):
            set_spm_model_provider(provider)
            BLEU(tokenize="flores101")
        assert asked[-1] == ("flores101", {})
    finally:
        set_spm_model_provider(previous)
