"""Which real WMT data the significance tests use, and the p-values published for it.

The lines themselves are read through :mod:`datasets` (the tests' one loader),
so the golden-value scripts feed the oracle exactly the lines the tests score.
"""

from __future__ import annotations

import datasets

#: sacreBLEU's test_significance.py set: baseline first, then the other 15 systems.
WMT17 = "wmt17-en-de"
WMT17_BASELINE = "LIUM-NMT.4900"
#: A three-reference set with a few systems (baseline first).
WMT21 = "wmt21-en-de"
WMT21_SYSTEMS = ["Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT"]


def system_names(name: str) -> list[str]:
    """All systems of a set, the baseline first for wmt17 (as in sacreBLEU's test)."""
    if name == WMT21:
        return list(WMT21_SYSTEMS)
    names = sorted(datasets.system_name(p) for p in datasets.system_paths(name))
    names.remove(WMT17_BASELINE)
    return [WMT17_BASELINE, *names]


#: p-values from sacreBLEU's test/test_significance.py: Moses' bootstrap script
#: (2000 samples, mean of 3 runs) and multeval (10000 AR trials, BLEU column).
MOSES_BS = {
    "C-3MA.4959": 0.00000, "FBK.4870": 0.01267, "KIT.4950": 0.02233, "LMU-nmt-reranked.4934": 0.04383,
    "LMU-nmt-single.4893": 0.20783, "online-A.0": 0.00000, "online-B.0": 0.38100, "online-F.0": 0.00000,
    "online-G.0": 0.00000, "PROMT-Rule-based.4735": 0.00000, "RWTH-nmt-ensemble.4921": 0.01167,
    "SYSTRAN.4847": 0.20983, "TALP-UPC.4834": 0.00000, "uedin-nmt.4722": 0.00000, "xmu.4910": 0.25483,
}
MULTEVAL_AR = {
    "C-3MA.4959": 0.0001, "FBK.4870": 0.0218, "KIT.4950": 0.0410, "LMU-nmt-reranked.4934": 0.09029,
    "LMU-nmt-single.4893": 0.58494, "online-A.0": 0.0001, "online-B.0": 0.94111, "online-F.0": 0.0001,
    "online-G.0": 0.0001, "PROMT-Rule-based.4735": 0.0001, "RWTH-nmt-ensemble.4921": 0.0207,
    "SYSTRAN.4847": 0.59914, "TALP-UPC.4834": 0.0001, "uedin-nmt.4722": 0.0001, "xmu.4910": 0.71073,
}
