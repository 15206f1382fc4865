"""How often humans agree with a metric delta: Kocmi et al. 2024's published fits.

"Navigating the Metrics Maze: Reconciling Score Magnitudes and Accuracies"
(Kocmi, Zouhar, Federmann and Post, ACL 2024) measured, for each metric, the
share of system pairs whose order by the metric agrees with human judgments,
as a function of the metric delta, and fit it with a scaled logistic curve::

    accuracy(delta) = a / (1 + exp(-b * delta))        (in percent)

A delta alone says little ("is +0.8 BLEU a lot?"); its estimated accuracy says
how often a delta of that size pointed to the system humans preferred. The
constants ``a`` and ``b`` below are the paper's published fits (as its
``mt-thresholds`` 1.0.4 package lists them); this module only looks them up by
metric name and evaluates the curve. A metric without a fit gets ``None``:
nothing is shown rather than a guess.

Deltas are on the scale the paper used: BLEU and chrF points (0-100) as
bleucli prints them, and the neural metrics on their 0-100 scale (COMET's
0.845 is 84.5), which is the caller's to give. The accuracy of a pairwise
comparison is that of the absolute delta: it is the chance that the order the
delta implies is the order humans would give.

The one place where a metric name is mapped to a fit is :func:`fit_name`, so a
metric given by name (segment scores of COMET, MetricX...) finds its fit here
as BLEU and chrF do.
"""

from __future__ import annotations

import math

#: The paper, for the docs, the JSON and the text output.
CITATION = ("Kocmi, Zouhar, Federmann and Post (2024): Navigating the Metrics Maze: Reconciling Score "
            "Magnitudes and Accuracies. ACL 2024. https://aclanthology.org/2024.acl-long.110")
#: The short form printed under tables.
CITATION_SHORT = "Kocmi et al. 2024, Navigating the Metrics Maze"

#: ``name -> (a, b)``: the published fits (accuracy in percent at delta d is a / (1 + e^(-b d))).
FITS: dict[str, tuple[float, float]] = {
    "bleu": (88.33333333333225, 0.9663926931178954),
    "chrf": (92.999999999972, 1.1142732157139852),
    "spbleu101": (84.58445492823891, 1.262507595109315),
    "spbleu200": (90.99999999998793, 0.8079046528617078),
    "bleurt-default": (94.66666666666666, 0.4947232832741672),
    "bleurt20": (98.33333333332963, 1.3727206190931929),
    "comet20": (97.33333333332897, 0.7266990738678005),
    "comet22": (96.22374133884283, 2.8359194570556636),
    "comet21qe": (93.7997435048193, 43.38413992717536),
    "cometkiwi22": (98.88141616584615, 2.719280643871758),
    "xcometxxl": (98.93432477039522, 1.1629533711748128),
    "xcometxl": (96.56738237041118, 1.4535595865214588),
    "cometkiwixxl": (96.23167242471065, 1.2826577343149304),
    "bertscore": (94.99999999999999, 2.6823162097239917),
    "cometkiwi23-xl-src": (96.39080593943235, 1.8888877927713834),
    "metricx-23-large": (93.60777624544488, 26.277850179370947),
    "metricx-23-qe-large": (97.99999999782683, 15.541455989240491),
}

#: Common spellings of the fitted metrics (model names as published on the Hugging Face hub).
ALIASES: dict[str, str] = {
    "wmt20-comet-da": "comet20",
    "wmt22-comet-da": "comet22",
    "wmt21-comet-qe-da": "comet21qe",
    "wmt22-cometkiwi-da": "cometkiwi22",
    "xcomet-xxl": "xcometxxl",
    "xcomet-xl": "xcometxl",
    "wmt23-cometkiwi-da-xxl": "cometkiwixxl",
    "wmt23-cometkiwi-da-xl": "cometkiwi23-xl-src",
    "metricx-23-large-v2p0": "metricx-23-large",
    "metricx-23-qe-large-v2p0": "metricx-23-qe-large",
    "bleurt-20": "bleurt20",
}

#: The tokenizers of spBLEU, whose BLEU has its own fit.
_SPBLEU = {"flores101": "spbleu101", "flores200": "spbleu200"}


def _key(name: str) -> str:
    name = name.strip().lower()
    for prefix in ("unbabel/", "google/", "lucadiliello/"):
        name = name.removeprefix(prefix)
    return name


def fit_name(metric: str, tokenizer: str | None = None) -> str | None:
    """The fit that applies to scores of ``metric`` (a bleucli score name or a neural metric's name), or None.

    ``BLEU`` is the paper's BLEU (sacreBLEU's defaults) unless it is spBLEU
    (``tokenizer`` ``flores101``/``flores200``); ``chrF2`` is chrF (chrF++ and
    other beta values have no fit); TER has none.
    """
    if metric == "BLEU":
        if tokenizer in _SPBLEU:
            return _SPBLEU[tokenizer]
        return "bleu"
    if metric == "chrF2":
        return "chrf"
    key = _key(metric)
    if key in ("bleu", "chrf", "ter", "chrf2", "chrf2++", "chrf++"):
        return None  # only the exact bleucli score names above are the fitted variants
    key = ALIASES.get(key, key)
    if key in FITS:
        return key
    squeezed = {k.replace("-", ""): k for k in FITS}
    return squeezed.get(key.replace("-", "").replace("_", ""))


def accuracy_percent(delta: float, fit: str) -> float:
    """The fitted accuracy in percent for a signed ``delta`` (mt-thresholds' ``accuracy(delta, metric)``)."""
    a, b = FITS[fit]
    return a * (1 / (1 + math.pow(math.e, -b * delta)))


def human_accuracy(delta: float, metric: str, tokenizer: str | None = None) -> float | None:
    """The estimated share (0-1) of human judgments agreeing with the order a delta of this size implies.

    ``None`` when ``metric`` has no published fit, or the delta is not finite.
    The accuracy is that of ``|delta|``: which system the delta favours does
    not change how often humans agree with it.
    """
    fit = fit_name(metric, tokenizer)
    if fit is None or not math.isfinite(delta):
        return None
    return accuracy_percent(abs(delta), fit) / 100


def tokenizer_of(signature: object) -> str | None:
    """The ``tok`` field of a score's signature (:class:`bleucli.signature.Signature`), if any."""
    to_dict = getattr(signature, "to_dict", None)
    return to_dict().get("tok") if callable(to_dict) else None


def record(delta: float, metric: str, tokenizer: str | None = None) -> dict[str, object] | None:
    """The JSON of one delta's accuracy: ``{"accuracy", "fit", "citation"}``, or None without a fit."""
    value = human_accuracy(delta, metric, tokenizer)
    if value is None:
        return None
    return {"accuracy": value, "fit": fit_name(metric, tokenizer), "citation": CITATION}


__all__ = ["CITATION", "CITATION_SHORT", "FITS", "ALIASES", "fit_name", "accuracy_percent", "human_accuracy",
           "tokenizer_of", "record"]
