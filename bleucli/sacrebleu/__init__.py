"""sacreBLEU 2.6's ``sacrebleu.sacrebleu``: ``main()``, the command line, at the same path.

``main()`` reads ``sys.argv`` as sacreBLEU's does (every option spelling its argparse
accepts: ``-w=2``, ``-i=FILE``, ``--tok intl``...) and runs bleucli's scoring command
with it, returning normally on success and exiting with bleucli's exit code otherwise.
"""

from __future__ import annotations

import sys


def main() -> None:
    """sacreBLEU's entry point: ``sys.argv[1:]`` through bleucli's command line."""
    from ..cli import run

    code = run(sys.argv[1:])
    if code:
        sys.exit(code)


__all__ = ["main"]
