"""A line per segment beside the hypotheses: document ids (``--docids``) and sources (``--source``).

The scoring command, ``rank`` and ``compare`` read them the same way: the file
the user named (filtered as the hypotheses are with ``-t --origlang/--subset``),
else the test set's own field. Each command then decides what a missing field
means for it (a usage error for document resampling, no document view in
``compare``), so this module only reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..options import RunOptions
    from .scoring import Notices


def segment_field(options: RunOptions, data: Any, notices: Notices, path: str | None,
                  field: str) -> tuple[list[str] | None, str | None]:
    """The lines of ``path`` or, without it, the test set's ``field`` (``docid``, ``src``), and their name.

    The name is what messages about the lines call them: the file, or ``TEST:field``. ``(None, None)``
    without a file and a test set; ``(None, "TEST:field")`` when the test set lacks the field.
    """
    if path is not None:
        from ..input.reading import FileLines

        lines = list(FileLines(path, options.inputs.encoding, notices.pending, options.inputs.max_line_bytes))
        return (data.filter_hypotheses(lines, source=path) if data is not None else lines), path
    if data is None:
        return None, None
    from ..testsets import cli as tscli

    return tscli.test_set_field(options, data, field), f"{data.test}:{field}"


def document_ids(options: RunOptions, data: Any, notices: Notices,
                 path: str | None) -> tuple[list[str] | None, str | None]:
    """Each segment's document id: ``--docids`` FILE, else the test set's (:func:`segment_field`)."""
    return segment_field(options, data, notices, path, "docid")


__all__ = ["document_ids", "segment_field"]
