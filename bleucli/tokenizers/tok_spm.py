"""SentencePiece tokenization for spBLEU, as sacreBLEU 2.6's ``flores101``, ``flores200``, ``spBLEU-1K``.

Reproduced behaviour (sacreBLEU's ``tokenizer_spm.py``): the line (already
right-stripped by BLEU) is encoded with ``EncodeAsPieces`` and the pieces are
joined with single spaces; no strip, no other normalisation than the model's
own. Signatures are the model names (``flores101``, ``flores200``,
``spBLEU-1K``); sacreBLEU's ``spm`` is an old name of ``flores101`` and signs
as such.

Beyond sacreBLEU: the model comes from the registry's ``models:`` section
through bleucli's verified cache (:mod:`bleucli.testsets.models`), and
``spm`` with a local model file (``--spm-model PATH``) signs as
``spm-<first 12 hex digits of the file's sha256>``, so a custom-model spBLEU
names the exact model that produced it.

Models are loaded from verified bytes (``LoadFromSerializedProto``), so the
file cannot change between the check and the load. The processor is built
lazily per process, and the tokenizer pickles as its model's bytes and
checksum, for executors that pickle their tasks.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from ..errors import IntegrityError, OptionError

#: sacreBLEU's ``spm`` alias reads the flores101 model.
SPM_ALIAS_MODEL = "flores101"


def _processor(data: bytes) -> Any:
    try:
        import sentencepiece
    except ImportError:
        raise OptionError("SentencePiece tokenizers need the sentencepiece package: "
                          "pip install 'bleucli[spm]'") from None
    processor = sentencepiece.SentencePieceProcessor()
    try:
        processor.LoadFromSerializedProto(data)
    except (RuntimeError, OSError) as exc:
        raise OptionError(f"not a SentencePiece model: {str(exc).splitlines()[0] if str(exc) else exc}") from None
    return processor


class SpmTokenizer:
    """SentencePiece pieces of a registry model, or of a local model file (``spm_model``)."""

    #: keyword arguments this tokenizer takes from :func:`bleucli.tokenizers.get_tokenizer`
    settings: tuple[str, ...] = ("spm_model", "models")
    #: registry model used when no local file is given
    model_name = SPM_ALIAS_MODEL

    def __init__(self, spm_model: str | os.PathLike[str] | None = None,
                 models: dict[str, Any] | None = None) -> None:
        """``models``: where registry models are cached (``cache_dir``, ``offline``, ``registry``)."""
        from ..testsets.models import load_local_model, load_model

        try:
            import sentencepiece  # noqa: F401 - fail before any download when the extra is missing
        except ImportError:
            raise OptionError(f"tokenizer '{self.model_name}' needs the sentencepiece package: "
                              "pip install 'bleucli[spm]'") from None
        if spm_model is not None:
            loaded = load_local_model(spm_model)
        else:
            store = models if models is not None else {}
            loaded = load_model(self.model_name, cache_dir=store.get("cache_dir"), offline=store.get("offline"),
                                registry=store.get("registry"))
        self.signature = loaded.signature
        self.model_path = str(loaded.path)
        self.model_sha256 = loaded.sha256
        self._data = loaded.data
        self._sp = _processor(loaded.data)
        self._owner_pid = os.getpid()

    def __getstate__(self) -> dict[str, Any]:
        return {"signature": self.signature, "model_path": self.model_path, "model_sha256": self.model_sha256,
                "data": self._data}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.signature = state["signature"]
        self.model_path = state["model_path"]
        self.model_sha256 = state["model_sha256"]
        self._data = state["data"]
        if hashlib.sha256(self._data).hexdigest() != self.model_sha256:
            raise IntegrityError(f"SentencePiece model {self.model_path} changed in transit",
                                 expected=self.model_sha256)
        self._sp = None
        self._owner_pid = -1

    def _pieces(self, line: str) -> list[str]:
        if self._owner_pid != os.getpid():
            self._sp = _processor(self._data)
            self._owner_pid = os.getpid()
        pieces: list[str] = self._sp.EncodeAsPieces(line)
        return pieces

    def __call__(self, line: str) -> str:
        return " ".join(self._pieces(line))

    def tokens(self, line: str) -> list[str]:
        # split the joined string, as sacreBLEU does: a piece holding whitespace splits the same way
        return " ".join(self._pieces(line)).split()


class Flores101Tokenizer(SpmTokenizer):
    """The FLORES-101 model (sacreBLEU's ``flores101``, formerly ``spm``)."""

    settings = ("models",)
    model_name = "flores101"


class Flores200Tokenizer(SpmTokenizer):
    """The FLORES-200 model (NLLB-200's SentencePiece model)."""

    settings = ("models",)
    model_name = "flores200"


class SpBLEU1KTokenizer(SpmTokenizer):
    """The spBLEU-1K model (1,000+ languages)."""

    settings = ("models",)
    model_name = "spBLEU-1K"
