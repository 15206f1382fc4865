"""``bleucli compare`` at scale: a large page's compact table, and its progress steps.

The browser tests (tests/test_compare_browser.py) check that the page's script
makes every row of the table exactly as the generator writes it for a small page.
"""

from __future__ import annotations

import json
import re

from bleucli.options import RunOptions
from bleucli.report.compare import compare
from bleucli.report.html import _LAST, _MORE, _gaps, _ints, comparison_page_pieces, lazy_page_steps


def decode(code: str) -> list[int]:
    """The script's reading of :func:`_ints`."""
    values, value = [], 0
    for char in code:
        if char in _LAST:
            values.append(value * 32 + _LAST.index(char))
            value = 0
        else:
            value = value * 32 + _MORE.index(char)
    return values


def test_base_32_integers_read_back_and_need_no_escape():
    values = [0, 1, 31, 32, 1023, 1024, 4095, 4096, 10**6, 2**40, 7]
    code = _ints(values)
    assert decode(code) == values
    assert json.dumps(code)[1:-1] == code and not set(code) & set("<>&\"'\\")
    assert decode(_gaps([3, 4, 100, 101, 5000])) == [3, 1, 96, 1, 4899]


def test_a_lazy_page_yields_as_many_pieces_as_its_progress_bar_counts(matcher):
    refs = [[f"the reference line {i} &" for i in range(30)]]
    systems = [[f"the line {i} <" for i in range(30)], [f"a reference line {i} &" if i % 3 else "x" for i in range(30)]]
    options = RunOptions()
    for requested in (("bleu",), ("bleu", "chrf", "ter")):
        options = options._replace(metrics=options.metrics._replace(requested=requested))
        result = compare(options, ["a", "b"], systems, ["ref"], refs, source=refs[0],
                         documents=[f"d{i // 7}" for i in range(30)])
        pieces = list(comparison_page_pieces(result, lazy_above=3))
        assert len(pieces) == lazy_page_steps(result)
        data = json.loads(re.search(r'id="bleucli-data">(.*?)</script>', "".join(pieces), re.S).group(1))
        table = data["table"]
        assert table["src"] == refs[0] and table["doc"] == [f"d{i // 7}" for i in range(30)]
        assert len(table.get("scores", [])) == len(requested) - 1 and len(table["scores"][0]) == 30 \
            if len(requested) > 1 else "scores" not in table
        for k, system in enumerate(result.segments[0].systems):
            numbers = decode(table["num"][k][0])
            assert numbers[:2] == list(system.statistics[:2]) and numbers[4:4 + result.max_order] == list(
                system.matches)
        # a pick's segments as gaps
        for pick in data["picks"]:
            if "seg" in pick:
                numbers = _running(decode(pick["seg"]))
                assert numbers == sorted(set(numbers)) and set(numbers) <= set(range(1, 31))


def _running(gaps: list[int]) -> list[int]:
    total, out = 0, []
    for gap in gaps:
        total += gap
        out.append(total)
    return out


def test_a_negative_number_is_refused_not_misread():
    import pytest

    with pytest.raises(ValueError):
        _ints([3, -1])
    assert decode(_gaps([9, 2, 5])) == [2, 3, 4]  # any order: the script makes a set
