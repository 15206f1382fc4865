"""Freeze what sacreBLEU 2.6.0 makes of the toy test sets the test-set tests serve.

Run with the oracle installed: ``python tests/golden/regenerate_testsets.py``.
It builds the same raw archives as ``tests/testsets/conftest.py`` (from the
WMT22 lines in tests/testsets/data), lays them out the way sacreBLEU's cache
expects (``<SACREBLEU>/<name>/raw/``), runs sacreBLEU's own dataset classes
and filters on them, and writes ``tests/golden/testsets_sacrebleu.json``:
per (set, pair) the field names, and the sha256 and line count of every field
as ``--echo`` prints it, of the scoring references, and of the source under
each ``--origlang``/``--subset`` filter. The test compares bleucli against
this file, so the suite passes without sacrebleu installed.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(1, str(HERE.parent))  # tests/testsets/conftest.py reads its lines through tests/datasets.py
OUT = Path(os.environ.get("BLEUCLI_GOLDEN_OUT") or HERE / "testsets_sacrebleu.json")

FILTERS = {
    "toy-sgml": [("en", None), ("de", None), ("non-en", None), ("fr", None), (None, "politics"),
                 (None, "country:GB"), ("en", "politics")],
    "toy-xml": [("en", None), ("de", None), ("non-de", None), (None, "soc"), (None, "news"), ("en", "news")],
}


def digest(lines: list[str]) -> dict:
    return {"sha256": hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest(), "lines": len(lines)}


def sacrebleu_layout():
    """(name, class name, langpairs, kwargs, {raw file name: bytes or archive}) for each toy set."""
    sgm_src, sgm_ref, sgm_ref2 = ("sgm/newstest2022-ende-src.en.sgm", "sgm/newstest2022-ende-ref.de.sgm",
                                  "sgm/newstest2022-ende-ref2.de.sgm")
    xml = "xml/generaltest2022.en-de.all.xml"
    return [
        ("toy-sgml", "FakeSGMLDataset", {"en-de": [sgm_src, sgm_ref]}, {}, ["sgml.tgz"]),
        ("toy-sgml/tworefs", "FakeSGMLDataset", {"en-de": [sgm_src, sgm_ref, sgm_ref2]}, {}, ["sgml.tgz"]),
        ("toy-sgml/extra", "WMTAdditionDataset", {"en-de": [sgm_src, "toy-sgml_extra.extra.ref"]}, {},
         ["sgml.tgz", "extra.ref"]),
        ("toy-xml", "WMTXMLDataset", {"en-de": [xml]}, {"refs": ["A"]}, ["xml.tar.gz"]),
        ("toy-xml/B", "WMTXMLDataset", {"en-de": {"path": xml, "refs": ["B"]}}, {"refs": ["A"]}, ["xml.tar.gz"]),
        ("toy-tsv", "TSVDataset", {"en-de": ["1:MTNT/test.en-de.tsv", "2:MTNT/test.en-de.tsv"]}, {},
         ["mtnt.tar.gz"]),
        ("toy-plain", "PlainTextDataset", {"en-de": ["plain/test.en", "plain/test.de"],
                                           "de-en": ["plain/test.de", "plain/test.en"]}, {}, ["plain.zip"]),
        ("toy-plain/gz", "PlainTextDataset", {"en-de": ["plain/test.en", "toy-plain_gz.ref2.de.gz"]}, {},
         ["plain.zip", "ref2.de.gz"]),
    ]


def main() -> None:
    # sacreBLEU's data directory, removed afterwards (the parity test runs this script)
    with tempfile.TemporaryDirectory(prefix="sacrebleu-golden-") as scratch:
        regenerate(Path(scratch))


def install(root: Path) -> dict:
    """Lay the toy sets out in sacreBLEU's cache ``root`` and register them in its ``DATASETS``.

    Returns ``{name: (dataset, langpairs)}``. sacreBLEU reads ``$SACREBLEU`` when
    it is imported, so this sets it first (the CLI helper of the ``--detail``
    oracle test runs sacreBLEU's ``main`` on them too).
    """
    from tests.testsets.conftest import SUBSETS, build_corpus

    corpus = build_corpus()
    os.environ["SACREBLEU"] = str(root)
    import sacrebleu.dataset as sds
    from sacrebleu.dataset import DATASETS

    sds.SUBSETS["toy-sgml"] = dict(SUBSETS)
    import sacrebleu.utils as su

    su.SUBSETS = sds.SUBSETS
    installed = {}
    for name, cls_name, langpairs, kwargs, files in sacrebleu_layout():
        raw = root / name / "raw"
        raw.mkdir(parents=True)
        for f in files:
            data = corpus.files[f]
            if f.endswith((".tgz", ".tar.gz")):
                with tarfile.open(fileobj=io.BytesIO(data)) as tar:
                    tar.extractall(raw)  # our own archive, built above
            elif f.endswith(".zip"):
                with zipfile.ZipFile(io.BytesIO(data)) as zf:
                    zf.extractall(raw)
            else:
                (raw / f"{name.replace('/', '_')}.{f}").write_bytes(data)
        dataset = getattr(sds, cls_name)(name, data=[], md5=[], description="toy", langpairs=langpairs, **kwargs)
        dataset.maybe_download = lambda: None
        DATASETS[name] = dataset
        installed[name] = (dataset, langpairs)
    return installed


def regenerate(root: Path) -> None:
    installed = install(root)  # first: sacreBLEU reads $SACREBLEU when it is imported
    from sacrebleu.utils import filter_subset, get_reference_files, print_test_set

    out: dict = {}
    for name, (dataset, langpairs) in installed.items():
        out[name] = {}
        for pair in langpairs:
            fields = dataset.fieldnames(pair)
            entry = {"fields": sorted(fields), "echo": {}, "refs": [], "filtered": {}}
            for field in fields:
                buf = io.StringIO()
                with contextlib.redirect_stdout(buf):
                    print_test_set(name, pair, [field])
                entry["echo"][field] = digest(buf.getvalue().split("\n")[:-1])
            ref_files = get_reference_files(name, pair)
            entry["refs"] = sorted([digest([x.rstrip() for x in open(f, encoding="utf-8", newline="\n")])
                                    for f in ref_files], key=lambda d: d["sha256"])
            for origlang, subset in FILTERS.get(name.split("/")[0] if "/" not in name else "", []):
                src = [x.rstrip() for x in open(dataset.get_source_file(pair), encoding="utf-8", newline="\n")]
                kept = filter_subset([src], name, pair, origlang, subset)[0]
                entry["filtered"][f"{origlang}|{subset}"] = digest(kept)
            out[name][pair] = entry
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
