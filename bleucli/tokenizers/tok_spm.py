"""SentencePiece tokenization for spBLEU, as sacreBLEU 2.6's ``flores101``, ``flores200``, ``spBLEU-1K``.

Reproduced behaviour (sacreBLEU's ``tokenizer_spm.py``): the line (already
right-stripped by BLEU) is encoded with ``EncodeAsPieces`` and the pieces are
joined with single spaces; no strip, no other normalisation than the model's
own. Signatures are the model names (``flores101``, ``flores200``,
``spBLEU-1K``); sacreBLEU's ``spm`` is an old name of ``flores101`` and signs
as such.

Beyond sacreBLEU: the model comes from the registry's ``models:`` section
through bleucli's verified cache, and ``spm`` with a local model file
(``--spm-model PATH``, read here) signs as ``spm-<first 12 hex digits of the
file's sha256>``, so a custom-model spBLEU names the exact model that produced it.

Where registry models come from (a design decision): downloading them is the
test-set wing's job (:mod:`bleucli.testsets.models`: registry, cache, checksums,
network), and the tokenizers are core, which never imports a wing. So the
tokenizer is *given* a model provider, ``provider(name, **settings)`` returning a
:class:`LoadedModel`-shaped object, looked up in this order:

1. ``models["provider"]`` when the caller passes one (the other keys of
   ``models``, ``cache_dir``/``offline``/``registry``, go to the provider);
2. the process-wide provider of :func:`bleucli.tokenizers.set_spm_model_provider`,
   which the package's public layer (``bleucli/__init__.py``, run by every
   ``import bleucli...``) sets to the test-set wing's download: so
   ``BLEU(tokenize="flores200")`` and ``-tok flores200`` download the model on
   first use exactly as before;
3. none: an :class:`OptionError` saying the model must be provided.

A plain function registry was chosen over an ``importlib.metadata`` entry point:
it needs no installed package metadata (a source checkout works) and costs
nothing until a model is needed.

Models are loaded from verified bytes (``LoadFromSerializedProto``), so the
file cannot change between the check and the load. The processor is built
lazily per process, and the tokenizer pickles as its model's bytes and
checksum, for executors that pickle their tasks.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError, IntegrityError, OptionError, install_hint

#: sacreBLEU's ``spm`` alias reads the flores101 model.
SPM_ALIAS_MODEL = "flores101"


@dataclass(frozen=True)
class LoadedModel:
    """A model's bytes as verified at load time, with the sha256 they hash to."""

    name: str
    path: Path
    data: bytes
    sha256: str
    signature: str


#: The largest local SentencePiece model read (``--spm-model``); the FLORES-200 model is 4.9 MiB.
SPM_MODEL_MAX_BYTES = 64 << 20


def load_local_model(path: str | os.PathLike[str]) -> LoadedModel:
    """A user's own model file (``--spm-model``): its bytes and sha256, read once.

    A missing file is a bad option value (OptionError); anything but a regular file
    of at most :data:`SPM_MODEL_MAX_BYTES` (a directory, ``/dev/zero``, a FIFO) is
    bad data (InputError naming the file), refused without reading or waiting.
    """
    from ..input.bounded import read_regular

    model_path = Path(path)
    if not os.path.lexists(model_path):
        raise OptionError(f"cannot read SentencePiece model {model_path}: No such file or directory")
    data = read_regular(str(model_path), SPM_MODEL_MAX_BYTES, "SentencePiece model")
    sha256 = hashlib.sha256(data).hexdigest()
    return LoadedModel("spm", model_path, data, sha256, f"spm-{sha256[:12]}")


def provided_model(name: str, models: dict[str, Any] | None) -> Any:
    """Registry model ``name`` from the caller's provider (``models["provider"]``) or the process's."""
    from . import spm_model_provider

    settings = dict(models) if models is not None else {}
    provider = settings.pop("provider", None) or spm_model_provider()
    if provider is None:
        raise OptionError(f"tokenizer '{name}' needs the SentencePiece model '{name}', and no model provider "
                          "is set: pass models={'provider': ...} (or call "
                          "bleucli.tokenizers.set_spm_model_provider), or give a local model file "
                          "(spm_model=PATH, --spm-model PATH)")
    return provider(name, **settings)


def _processor(data: bytes, source: str | None = None) -> Any:
    """A SentencePiece processor of the model ``data``; ``source``: the user's file it came from, if any (a file
    that is no model is bad input naming it, exit 3; a registry model is checked by its hash when fetched)."""
    try:
        import sentencepiece
    except ImportError:
        raise OptionError(f"SentencePiece tokenizers need the sentencepiece package: {install_hint('spm')}") from None
    processor = sentencepiece.SentencePieceProcessor()
    try:
        processor.LoadFromSerializedProto(data)
    except (RuntimeError, OSError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else str(exc)
        if source is not None:
            raise InputError(f"not a SentencePiece model ({reason})", source) from None
        raise OptionError(f"not a SentencePiece model: {reason}") from None
    return processor


class SpmTokenizer:
    """SentencePiece pieces of a registry model, or of a local model file (``spm_model``)."""

    #: keyword arguments this tokenizer takes from :func:`bleucli.tokenizers.get_tokenizer`
    settings: tuple[str, ...] = ("spm_model", "models")
    #: registry model used when no local file is given
    model_name = SPM_ALIAS_MODEL

    def __init__(self, spm_model: str | os.PathLike[str] | None = None,
                 models: dict[str, Any] | None = None) -> None:
        """``models``: where registry models come from (``provider``, see the module's docstring) and the
        provider's settings (the test-set wing's: ``cache_dir``, ``offline``, ``registry``)."""
        try:
            import sentencepiece  # noqa: F401 - fail before any download when the extra is missing
        except ImportError:
            raise OptionError(f"tokenizer '{self.model_name}' needs the sentencepiece package: "
                              f"{install_hint('spm')}") from None
        if spm_model is not None:
            loaded = load_local_model(spm_model)
        else:
            loaded = provided_model(self.model_name, models)
        self.signature = loaded.signature
        self.model_path = str(loaded.path)
        self.model_sha256 = loaded.sha256
        self._data = loaded.data
        self._sp = _processor(loaded.data, str(loaded.path) if spm_model is not None else None)
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
