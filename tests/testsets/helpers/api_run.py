"""Subprocess helper for the crash and concurrency tests.

usage: api_run.py GO_FILE|- TESTSET PAIR
Waits until GO_FILE exists (so several processes start at the same moment),
then prints the source/reference echo and the data hash of the test set.
Exit codes: 0 ok, 3 a bleucli error (message on stderr).
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))

from bleucli import testsets as ts  # noqa: E402
from bleucli.errors import BleucliError  # noqa: E402

go, name, pair = sys.argv[1:4]
while go != "-" and not os.path.exists(go):
    time.sleep(0.001)
try:
    lines = ts.echo(name, pair, ["src", "ref"])
    digest = ts.data_hash(name, pair)
except BleucliError as exc:
    print(f"error: {exc}", file=sys.stderr)
    sys.exit(3)
sys.stdout.write("\n".join(lines) + "\n" + digest + "\n")
