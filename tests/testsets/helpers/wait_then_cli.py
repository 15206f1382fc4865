"""Wait until argv[1] exists (so several processes start together), then run the bleucli CLI."""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))

while not os.path.exists(sys.argv[1]):
    time.sleep(0.001)

from bleucli.cli import main  # noqa: E402

main(sys.argv[2:])
