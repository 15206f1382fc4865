"""sacreBLEU-style option lists (``-i a b c``) on top of click.

click options take one value per occurrence; sacreBLEU's ``-i``, ``-m`` and
``--echo`` take every following word. Rewriting ``-i a b`` into ``-i a -i b``
before click parses keeps both spellings working. As in sacreBLEU, reference
files must therefore come before ``-i``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

GREEDY_OPTIONS = frozenset({"-i", "--input", "-m", "--metrics", "--echo"})


def expand_greedy_options(args: Sequence[str], greedy: Iterable[str] = GREEDY_OPTIONS) -> list[str]:
    """Repeat a greedy option before each of the words that follow it.

    A greedy option followed by no word is passed through unchanged, so that
    click reports the missing value itself.
    """
    greedy = frozenset(greedy)
    out: list[str] = []
    current: str | None = None  # the greedy option being expanded
    given = False  # whether it has received a value yet
    for position, arg in enumerate(args):
        if arg == "--":
            if current is not None and not given:
                out.append(current)
            out.extend(args[position:])
            return out
        if current is not None and (arg == "-" or not arg.startswith("-")):
            out.extend([current, arg])
            given = True
            continue
        if current is not None and not given:
            out.append(current)
        current, given = (arg, False) if arg in greedy else (None, False)
        if current is None:
            out.append(arg)
    if current is not None and not given:
        out.append(current)
    return out
