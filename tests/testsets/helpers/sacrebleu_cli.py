"""sacreBLEU 2.6.0's command line on the toy test sets: ``python sacrebleu_cli.py SCRATCH ARGS...``.

Lays the toy sets out in sacreBLEU's cache ``SCRATCH`` and registers them
(tests/golden/regenerate_testsets.py's ``install``), then runs sacreBLEU's own
``main`` with ``ARGS`` -- the live oracle of ``-t toy-sgml -d`` and the like,
with no network.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "golden")]

if __name__ == "__main__":
    from regenerate_testsets import install

    install(Path(sys.argv[1]))
    from sacrebleu.sacrebleu import main

    sys.argv = ["sacrebleu", *sys.argv[2:]]
    main()
