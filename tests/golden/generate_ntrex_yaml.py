"""Generate the ``ntrex128`` entry of ``testsets.yaml`` from a checkout of NTREX.

Usage (the command that made the entry in ``testsets.yaml``)::

    git clone https://github.com/MicrosoftTranslator/NTREX /tmp/NTREX
    git -C /tmp/NTREX checkout 8561f6a622db9edad1217683e5c83daefd8bb2bf
    python tests/golden/generate_ntrex_yaml.py /tmp/NTREX

It hashes each file of the checkout (sha256 of the bytes, as fetched from the
pinned raw URL), records its size, and rewrites the two marked blocks of
``testsets.yaml`` (``# BEGIN ntrex128 ...`` / ``# END ntrex128 ...``): the
downloads, and the test set with its pairs. ``generate_testsets_yaml.py``
keeps these blocks when it regenerates the sacreBLEU part. The NTREX data
itself is never copied into the repository.

``tests/testsets/test_ntrex.py`` uses :func:`registry_text` to build a
registry for a small NTREX-shaped fixture served on 127.0.0.1, and checks,
when ``BLEUCLI_NTREX_CHECKOUT`` names a checkout, that this script reproduces
the blocks of ``testsets.yaml`` exactly.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "testsets.yaml"

#: The NTREX commit the registry pins (its files are fetched from raw URLs at this commit).
COMMIT = "8561f6a622db9edad1217683e5c83daefd8bb2bf"
RAW_BASE = "https://raw.githubusercontent.com/MicrosoftTranslator/NTREX/{commit}"
NAME = "ntrex128"

#: ISO 639-3 (NTREX's codes, before any -Script/-REGION) -> ISO 639-1, where one exists and stands for
#: that language alone (no macro-language guesses: ckb/kmr "ku", fuc "ff", prs, yue... have none here).
ISO639_1 = {
    "afr": "af", "amh": "am", "arb": "ar", "aze": "az", "bak": "ba", "bel": "be", "ben": "bn", "bod": "bo",
    "bos": "bs", "bul": "bg", "cat": "ca", "ces": "cs", "cym": "cy", "dan": "da", "deu": "de", "div": "dv",
    "dzo": "dz", "ell": "el", "eng": "en", "est": "et", "eus": "eu", "ewe": "ee", "fao": "fo", "fas": "fa",
    "fij": "fj", "fin": "fi", "fra": "fr", "gle": "ga", "glg": "gl", "guj": "gu", "hau": "ha", "heb": "he",
    "hin": "hi", "hrv": "hr", "hun": "hu", "hye": "hy", "ibo": "ig", "ind": "id", "isl": "is", "ita": "it",
    "jpn": "ja", "kan": "kn", "kat": "ka", "kaz": "kk", "khm": "km", "kin": "rw", "kir": "ky", "kor": "ko",
    "lao": "lo", "lav": "lv", "lit": "lt", "ltz": "lb", "mal": "ml", "mar": "mr", "mkd": "mk", "mlg": "mg",
    "mlt": "mt", "mon": "mn", "mri": "mi", "msa": "ms", "mya": "my", "nde": "nd", "nep": "ne", "nld": "nl",
    "nno": "nn", "nob": "nb", "nya": "ny", "orm": "om", "pan": "pa", "pol": "pl", "por": "pt", "pus": "ps",
    "ron": "ro", "rus": "ru", "sin": "si", "slk": "sk", "slv": "sl", "smo": "sm", "sna": "sn", "snd": "sd",
    "som": "so", "spa": "es", "sqi": "sq", "srp": "sr", "ssw": "ss", "swa": "sw", "swe": "sv", "tah": "ty",
    "tam": "ta", "tat": "tt", "tel": "te", "tgk": "tg", "tha": "th", "tir": "ti", "ton": "to", "tsn": "tn",
    "tuk": "tk", "tur": "tr", "uig": "ug", "ukr": "uk", "urd": "ur", "uzb": "uz", "ven": "ve", "vie": "vi",
    "wol": "wo", "xho": "xh", "yor": "yo", "zho": "zh", "zul": "zu",
}

SOURCE = "NTREX-128/newstest2019-src.eng.txt"
DOCIDS = "DOCUMENT_IDS.tsv"
REF_RE = re.compile(r"newstest2019-ref\.([A-Za-z]+(?:-[A-Za-z0-9]+)?)\.txt")
EXTRA_REFS = {"spa": ["NTREX-128/newstest2019-ref-2.spa.txt"]}  # a second Spanish reference

DESCRIPTION = ("NTREX-128: News Test References for MT Evaluation, the 1,997 English sentences of WMT19's "
               "newstest2019 translated into 128 languages, with document ids. bleucli's own addition "
               "(not in sacreBLEU).")
NOTE = ("NTREX-128 was translated from English: in an XXX-eng pair the source is a human translation and "
        "the reference the English original, so XXX-eng scores measure translation of translationese, are "
        "not comparable with eng-XXX scores, and should be reported as such.")
LICENSE = ("CC BY-SA 4.0 (Creative Commons Attribution-ShareAlike 4.0 International), "
           "https://github.com/MicrosoftTranslator/NTREX/blob/{commit}/LICENSE.md")

BEGIN_DOWNLOADS = "  # BEGIN ntrex128 downloads"
END_DOWNLOADS = "  # END ntrex128 downloads"
BEGIN_TESTSET = "  # BEGIN ntrex128 test set"
END_TESTSET = "  # END ntrex128 test set"


def pair_code(code: str) -> str:
    """NTREX's ``zho-CN`` as a registry language (``zho_CN``: a pair is SRC-TGT)."""
    return code.replace("-", "_")


def reference_codes(checkout: Path) -> list[str]:
    codes = sorted(m.group(1) for p in (checkout / "NTREX-128").iterdir() if (m := REF_RE.fullmatch(p.name)))
    if not codes:
        raise SystemExit(f"no NTREX-128/newstest2019-ref.*.txt in {checkout}")
    return codes


def download_id(path: str) -> str:
    base = path.rsplit("/", 1)[-1]
    base = re.sub(r"\.(txt|tsv)$", "", base).replace("newstest2019-", "")
    return f"{NAME}.{base}"


def citations(checkout: Path) -> str:
    """NTREX's BibTeX entry and WMT19's (the source data), as its README asks to cite both."""
    readme = (checkout / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n(.*?)```", readme, flags=re.S)
    wanted = [b for b in blocks if "federmann-etal-2022-ntrex" in b or "barrault-etal-2019-findings" in b]
    if len(wanted) != 2:
        raise SystemExit("cannot find the two BibTeX entries in NTREX's README.md")
    return "\n".join(line.rstrip() for b in wanted for line in b.strip("\n").split("\n")) + "\n"


def languages(codes: list[str]) -> dict[str, list[str]]:
    """Short codes (``de``; ``zh_CN`` for a variant) -> the set's codes they stand for.

    A bare ISO 639-3 code (``spa``) is what its two-letter code means; only
    when there is none do all variants stand for it (``zh`` -> ``zho_CN``,
    ``zho_TW``: ambiguous, an error listing both). ``en`` is the source ``eng``.
    """
    bases: dict[str, list[str]] = {}
    for code in ["eng", *codes]:
        bases.setdefault(code.split("-")[0], []).append(code)
    out: dict[str, list[str]] = {}
    variants: dict[str, list[str]] = {}
    for base, members in bases.items():
        short = ISO639_1.get(base)
        if short is None:
            continue
        out[short] = [pair_code(base)] if base in members else [pair_code(m) for m in members]
        for member in members:
            if "-" in member:
                variants[f"{short}_{member.split('-', 1)[1]}"] = [pair_code(member)]
    return {**dict(sorted(out.items())), **dict(sorted(variants.items()))}


def q(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def blocks(checkout: Path, base_url: str, commit: str = COMMIT) -> tuple[str, str]:
    """The ``downloads`` and ``testsets`` entries of ``ntrex128`` (indented for insertion)."""
    codes = reference_codes(checkout)
    files = [SOURCE, DOCIDS] + [p for code in codes for p in
                                [f"NTREX-128/newstest2019-ref.{code}.txt", *EXTRA_REFS.get(code, [])]]
    dl = []
    for path in files:
        data = (checkout / path).read_bytes()
        dl += [f"  {download_id(path)}:", f"    url: {base_url}/{path}",
               f"    sha256: {hashlib.sha256(data).hexdigest()}", f"    size: {len(data)}", "    unpack: none"]
    ids = [download_id(p) for p in files]
    src, docid = (f"{{file: {download_id(p)}}}" for p in (SOURCE, DOCIDS))
    ts = [f"  {NAME}:", f"    description: {q(DESCRIPTION)}", "    citation: |"]
    ts += [f"      {line}" if line else "" for line in citations(checkout).rstrip("\n").split("\n")]
    ts += ["    origin: bleucli", f"    license: {q(LICENSE.format(commit=commit))}", f"    note: {q(NOTE)}",
           "    format: plain", f"    files: [{', '.join(ids)}]", "    languages:"]
    ts += [f"      {short}: [{', '.join(targets)}]" for short, targets in languages(codes).items()]
    ts.append("    pairs:")
    for code in codes:
        refs = [f"{{file: {download_id(p)}}}" for p in
                [f"NTREX-128/newstest2019-ref.{code}.txt", *EXTRA_REFS.get(code, [])]]
        ts.append(f"      eng-{pair_code(code)}: {{src: {src}, refs: [{', '.join(refs)}], docid: {docid}}}")
    for code in codes:
        if code.split("-")[0] == "eng":
            continue  # eng-GB -> eng is not a translation direction
        ref = f"{{file: {download_id(f'NTREX-128/newstest2019-ref.{code}.txt')}}}"
        ts.append(f"      {pair_code(code)}-eng: {{src: {ref}, refs: [{src}], docid: {docid}}}")
    stamp = f": GENERATED by tests/golden/generate_ntrex_yaml.py from NTREX at {commit}"
    return ("\n".join([BEGIN_DOWNLOADS + stamp, *dl, END_DOWNLOADS]) + "\n",
            "\n".join([BEGIN_TESTSET + stamp, *ts, END_TESTSET]) + "\n")


def registry_text(checkout: Path, base_url: str, commit: str = COMMIT) -> str:
    """A whole registry with ``ntrex128`` alone (the tests serve a fixture checkout at ``base_url``)."""
    downloads, testset = blocks(checkout, base_url, commit)
    return f"schema: 1\ndownloads:\n{downloads}testsets:\n{testset}"


def _cut(text: str, begin: str, end: str) -> tuple[str, str | None]:
    """``text`` without the block ``begin``...``end`` (inclusive), and the block (``None`` if absent)."""
    match = re.search(rf"^{re.escape(begin)}.*?^{re.escape(end)}\n", text, flags=re.S | re.M)
    if match is None:
        return text, None
    return text[: match.start()] + text[match.end():], match.group(0)


def existing_blocks(text: str) -> tuple[str, str | None, str | None]:
    """``testsets.yaml`` without its ntrex128 blocks, and the blocks."""
    text, downloads = _cut(text, BEGIN_DOWNLOADS, END_DOWNLOADS)
    text, testset = _cut(text, BEGIN_TESTSET, END_TESTSET)
    return text, downloads, testset


def insert_blocks(text: str, downloads: str, testset: str) -> str:
    """Put the blocks at the end of the ``downloads:`` and ``testsets:`` mappings of ``text``."""
    text, _, _ = existing_blocks(text)
    at = text.index("\ntestsets:\n") + 1
    text = text[:at] + downloads + text[at:]
    at = text.find("\n# models:")
    at = len(text) if at < 0 else at + 1
    return text[:at] + testset + text[at:]


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    checkout = Path(sys.argv[1])
    head = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True)
    commit = head.stdout.strip() if head.returncode == 0 else COMMIT
    if commit != COMMIT:
        raise SystemExit(f"{checkout} is at {commit}, the registry pins {COMMIT}: update COMMIT deliberately")
    downloads, testset = blocks(checkout, RAW_BASE.format(commit=commit), commit)
    OUT.write_text(insert_blocks(OUT.read_text(encoding="utf-8"), downloads, testset), encoding="utf-8")
    print(f"wrote the ntrex128 blocks into {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
