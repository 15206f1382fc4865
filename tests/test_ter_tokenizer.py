"""The Tercom tokenizer: sacreBLEU's own vectors, plus oracle outputs for the quirks.

Expected strings in QUIRKS were produced by sacreBLEU 2.6.0's TercomTokenizer.
"""

from __future__ import annotations

import pytest

from bleucli.metrics.ter_tokenizer import TercomTokenizer

# sacreBLEU test/test_tokenizer_ter.py vectors (options, input, expected)
SPEC = [
    ({}, "a b c d", "a b c d"),
    ({}, "", ""),
    ({}, "a b c d.", "a b c d."),
    ({}, "A B C D.", "a b c d."),
    ({"no_punct": True}, "a b c d.", "a b c d"),
    ({"no_punct": True}, "A ; B ) C : D.", "a b c d"),
    ({"normalized": True}, "a b (c) d.", "a b ( c ) d ."),
    ({"normalized": True}, "Jim's car.", "jim 's car ."),
    ({"normalized": True}, "4.2", "4.2"),
    ({"normalized": True, "asian_support": True}, "美众院公布对特", "美 众 院 公 布 对 特"),
    # kana runs are not split (the ported ^[ vs [^ bug), kanji are
    ({"normalized": True, "asian_support": True}, "りの拳銃を持", "りの 拳 銃 を 持"),
]

N = {"normalized": True}
P = {"no_punct": True}
NA = {"normalized": True, "asian_support": True}
PA = {"no_punct": True, "asian_support": True}
ALL = {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True}
A = {"asian_support": True}

QUIRKS = [
    # entities are only unescaped when normalizing; no_punct then eats the ';'
    ({}, "He said &quot;yes&quot; &amp; left.", "he said &quot;yes&quot; &amp; left."),
    (N, "He said &quot;yes&quot; &amp; left.", 'he said " yes " & left .'),
    (P, "He said &quot;yes&quot; &amp; left.", "he said &quotyes&quot &amp left"),
    (ALL, "He said &quot;yes&quot; &amp; left.", "He said yes & left"),
    (N, "It's Jim's", "it 's jim 's"),
    (ALL, "It's Jim's", "It 's Jim 's"),
    # numbers: no split inside 1,000.50; a dash after a digit is split
    (N, "The year 2019-2020, costs 1,000.50 $.", "the year 2019 - 2020 , costs 1,000.50 $ ."),
    (P, "The year 2019-2020, costs 1,000.50 $.", "the year 2019-2020 costs 100050 $"),
    (ALL, "The year 2019-2020, costs 1,000.50 $.", "The year 2019 - 2020 costs 100050 $"),
    # end-of-line hyphenation is joined only when normalizing
    ({}, "line one\n-two\nthree", "line one -two three"),
    (N, "line one\n-two\nthree", "line onetwo three"),
    # Asian support alone changes nothing
    (A, "ありがとう、ございます。", "ありがとう、ございます。"),
    (NA, "ありがとう、ございます。", "ありがとう 、 ございます 。"),
    (PA, "ありがとう、ございます。", "ありがとうございます"),
    (ALL, "ありがとう、ございます。", "ありがとう ございます"),
    (NA, "東京（とうきょう）は日本の首都です！", "東 京 （ とうきょう ） は 日 本 の 首 都 です ！"),
    (PA, "東京（とうきょう）は日本の首都です！", "東京とうきょうは日本の首都です"),
    (NA, "カタカナとひらがな", "カタカナとひらがな"),
    (NA, "ｶﾀｶﾅ「引用」", "ｶﾀｶﾅ 「 引 用 」"),
    (PA, "ｶﾀｶﾅ「引用」", "ｶﾀｶﾅ引用"),
    (NA, "㈱会社 ㍻", "㈱ 会 社 ㍻"),
    (N, 'A.B,C?D:E;F!G"H(I)J', 'a . b , c ? d : e ; f ! g " h ( i ) j'),
    (P, 'A.B,C?D:E;F!G"H(I)J', "abcdefghij"),
    (ALL, 'A.B,C?D:E;F!G"H(I)J', "A B C D E F G H I J"),
    ({}, "  lots   of\tspace  ", "lots of space"),
]


@pytest.mark.parametrize("options, text, expected", SPEC + QUIRKS)
def test_tercom_tokenizer(options, text, expected):
    assert TercomTokenizer(**options)(text) == expected


def test_signature_name_is_tercom_whatever_the_options():
    assert TercomTokenizer().signature == "tercom"
    assert TercomTokenizer(normalized=True, no_punct=True, asian_support=True).signature == "tercom"
