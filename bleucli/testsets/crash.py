"""Test-only crash points: make a run die at an exact step, as ``kill -9`` would.

``BLEUCLI_TEST_CRASH_AT=<name>`` makes :func:`crash_point` call ``os._exit(137)``
(no cleanup, no ``finally``) when the named step is reached, so the tests can
hit every window of the download/extract/process pipeline deterministically
instead of relying on kill timings. The variable is read at each call, never
at import; it has no effect unless set.

Points: ``mid_download`` (first chunk written to the temp file),
``after_download`` (temp file verified, not yet renamed), ``after_store``
(download renamed into place, not yet extracted), ``mid_extract`` (first
member written to the staging dir), ``before_extract_publish``,
``mid_process`` (first field file written), ``before_manifest`` (all field
files written, manifest not), ``before_publish`` (staging complete, not renamed).
"""

from __future__ import annotations

import os


def crash_point(name: str) -> None:
    """Exit the process immediately if ``BLEUCLI_TEST_CRASH_AT`` names this point."""
    if os.environ.get("BLEUCLI_TEST_CRASH_AT") == name:
        os._exit(137)
