"""Regenerate tests/golden/sacrebleu_json.json: sacreBLEU 2.6.0's JSON output for the commands of
tests/test_json_superset.py, run on examples/ (needs ``pip install -e ".[oracle]"``).

    python tests/golden/regenerate_sacrebleu_json.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent.parent / "examples"
sys.path.insert(0, str(HERE.parent))

from json_commands import COMMANDS  # noqa: E402


def sacrebleu_output(arguments: list[str]) -> str:
    done = subprocess.run([sys.executable, "-m", "sacrebleu", *arguments], capture_output=True, text=True,
                          cwd=EXAMPLES, check=True, env={"PATH": "/usr/bin:/bin", "SACREBLEU_SEED": "12345"})
    return done.stdout


def main() -> None:
    golden = {name: json.loads(sacrebleu_output(arguments)) for name, arguments in COMMANDS.items()}
    (HERE / "sacrebleu_json.json").write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n",
                                              encoding="utf-8")


if __name__ == "__main__":
    main()
