"""Regenerate ``tests/golden/mecab.json``: sacreBLEU 2.6.0's ja-mecab and ko-mecab results.

Run with the oracle and the extras installed
(``pip install -e ".[oracle,ja,ko]"; python tests/golden/regenerate_mecab.py``).
For every system of wmt21-en-ja, wmt22-en-ja and wmt24pp-en-ko (its second
reference scored against the first) it records sacreBLEU's corpus BLEU
(score, counts, totals, lengths, signature), the sentence BLEU of the first
segments, and a sha256 of the tokenized lines of every reference and system
(``"\\n".join(tokenizer(line.rstrip()))``), so the tests can check tokens
without storing them.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sacrebleu.metrics import BLEU  # noqa: E402

import datasets  # noqa: E402

SETS = {"wmt21-en-ja": "ja-mecab", "wmt22-en-ja": "ja-mecab", "wmt24pp-en-ko": "ko-mecab"}
SENTENCES = 25
OUT = HERE / "mecab.json"


def token_digest(tokenizer, lines) -> str:
    return hashlib.sha256("\n".join(tokenizer(line.rstrip()) for line in lines).encode("utf-8")).hexdigest()


def main() -> None:
    records = []
    for name, tok in SETS.items():
        refs = datasets.references(name)
        systems = datasets.systems(name) or {datasets.REF2_AS_HYPOTHESIS: refs[1]}
        scoring_refs = refs if name != "wmt24pp-en-ko" else refs[:1]
        bleu = BLEU(tokenize=tok)
        sentence = BLEU(tokenize=tok, effective_order=True)
        ref_digests = [token_digest(bleu.tokenizer, r) for r in refs]
        for system, hyps in sorted(systems.items()):
            score = bleu.corpus_score(hyps, scoring_refs)
            records.append({
                "set": name, "system": system, "tokenize": tok, "nrefs": len(scoring_refs),
                "score": score.score, "counts": score.counts, "totals": score.totals,
                "sys_len": score.sys_len, "ref_len": score.ref_len,
                "signature": str(bleu.get_signature()),
                "sentences": [sentence.sentence_score(h, [r[i] for r in scoring_refs]).score
                              for i, h in enumerate(hyps[:SENTENCES])],
                "hyp_tokens_sha256": token_digest(bleu.tokenizer, hyps),
                "ref_tokens_sha256": ref_digests,
            })
    OUT.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(records)} systems", file=sys.stderr)


if __name__ == "__main__":
    main()
