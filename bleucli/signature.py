"""Score signatures: one object from which the string and the JSON are both built.

A signature lists every option that changes a score, so that two numbers with
the same signature are comparable. The format is sacreBLEU's v2:
``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0`` with a fixed key
order (global keys, then the metric's keys, then ``version`` last), ``yes``/``no``
for booleans and an abbreviated form for ``--short``.
"""

from __future__ import annotations

from .errors import OptionError
from .frozen import Frozen
from .version import __version__

#: Global keys in sacreBLEU's order, with their short names. ``sig`` (the significance level) and
#: ``corr`` (the correction for multiple comparisons) are bleucli's, written by ``bleucli rank``.
GLOBAL_KEYS: dict[str, str] = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "sig": "sg",
    "corr": "cr",
    "unit": "u",
    "test": "t",
    "lang": "l",
    "origlang": "o",
    "subset": "S",
}
VERSION_KEY = ("version", "v")

#: Keys of scores that are not registered metrics (long -> short), in the order they are written:
#: the BLEU family's (:mod:`bleucli.family`). A registered metric's keys are in its registry
#: entry (:mod:`bleucli.metrics.registry`); :func:`metric_keys` reads either.
FAMILY_KEYS: dict[str, dict[str, str]] = {
    # bleucli.family.nltk (NLTK's BLEU, x1 scale) and Moses' multi-bleu.perl statistics (bleucli.family.which)
    "BLEU-nltk": {"case": "c", "tok": "tok", "weights": "w", "smooth": "s", "reweigh": "rw", "nltk": "nltk"},
    "BLEU-multibleu": {"case": "c", "tok": "tok", "moses": "moses"},
    # BLEU's variants (bleucli.family)
    "Self-BLEU": {"mode": "m", "case": "c", "eff": "e", "tok": "tok", "smooth": "s", "order": "ord", "sample": "n"},
    "iBLEU": {"alpha": "a", "level": "lv", "case": "c", "eff": "e", "tok": "tok", "smooth": "s", "order": "ord"},
    "GLEU": {"order": "ord", "iter": "it", "sampling": "smp", "tok": "tok"},
    "Google-BLEU": {"min": "mn", "max": "mx", "tok": "tok"},
}


def metric_keys(name: str) -> dict[str, str] | None:
    """The signature keys (long -> short) of scores called ``name`` (``chrF2++`` has chrF's); ``None``: unknown."""
    if name in FAMILY_KEYS:
        return FAMILY_KEYS[name]
    from .metrics import registry

    entry = registry.for_score(name)
    return dict(entry.signature_keys) if entry is not None else None


def metric_family(name: str) -> str:
    """The metric a score called ``name`` belongs to: ``chrF2++`` and ``chrF3`` are chrF's; others themselves."""
    from .metrics import registry

    entry = registry.for_score(name)
    return entry.signature_family if entry is not None else name


def all_metric_keys() -> set[str]:
    """Every metric key a signature can hold, of every registered metric and family score."""
    from .metrics import registry

    keys = {key for keys in FAMILY_KEYS.values() for key in keys}
    keys.update(key for entry in registry.entries().values() for key in entry.signature_keys)
    return keys


#: Wildcard value accepted in an *expected* signature: matches any value.
WILDCARD = "*"

#: Keys that only name the data (``-t``'s test set and language pair): the same
#: references and options give the same number whatever they are called, and
#: sacreBLEU 2's signatures never carry them. An expected signature that does
#: not mention them is not contradicted by them. ``origlang``/``subset`` select
#: segments, so they change the number and are always compared.
DESCRIPTIVE_KEYS = frozenset({"test", "lang"})


def format_value(value: object) -> str:
    """Signature values are strings; booleans are written yes/no as in sacreBLEU."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class Signature(Frozen):
    """The options behind a score, in signature order.

    ``fields`` holds ``(long_key, value)`` pairs with string values, already in
    the order they are printed; keys whose option is unset are simply absent.
    """

    metric: str
    fields: tuple[tuple[str, str], ...]

    @classmethod
    def build(
        cls,
        metric: str,
        metric_fields: dict[str, object],
        *,
        nrefs: int | str,
        bs: int | None = None,
        ar: int | None = None,
        seed: int | str | None = None,
        sig: float | str | None = None,
        corr: str | None = None,
        unit: str | None = None,
        test: str | None = None,
        lang: str | None = None,
        origlang: str | None = None,
        subset: str | None = None,
        version: str = __version__,
    ) -> Signature:
        """Assemble a signature in the canonical key order; ``None`` values are left out."""
        global_values: dict[str, object] = {
            "nrefs": nrefs, "bs": bs, "ar": ar, "seed": seed, "sig": sig, "corr": corr, "unit": unit,
            "test": test, "lang": lang, "origlang": origlang, "subset": subset,
        }
        pairs = [(k, format_value(v)) for k, v in global_values.items() if v is not None]
        pairs += [(k, format_value(v)) for k, v in metric_fields.items() if v is not None]
        pairs.append(("version", version))
        return cls(metric=metric, fields=tuple(pairs))

    def _short_names(self) -> dict[str, str]:
        names = dict(GLOBAL_KEYS)
        names.update(metric_keys(self.metric) or {})
        names[VERSION_KEY[0]] = VERSION_KEY[1]
        return names

    def format(self, short: bool = False) -> str:
        """The signature string, e.g. ``nrefs:1|case:mixed|...|version:0.1.0``."""
        names = self._short_names() if short else {}
        return "|".join(f"{names.get(k, k)}:{v}" for k, v in self.fields)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, str]:
        """The fields as an ordered mapping of long key to string value."""
        return dict(self.fields)

    def with_fields(self, **extra: object) -> Signature:
        """A copy with global keys (``bs``, ``seed``, ``test``...) set or replaced."""
        current = self.to_dict()
        metric_fields = {k: v for k, v in current.items() if k not in GLOBAL_KEYS and k != "version"}
        global_values: dict[str, object] = {k: current[k] for k in GLOBAL_KEYS if k in current}
        global_values.update(extra)
        nrefs = global_values.pop("nrefs")
        return Signature.build(self.metric, metric_fields, nrefs=nrefs,  # type: ignore[arg-type]
                               version=current["version"], **global_values)  # type: ignore[arg-type]

    def diff(self, other: Signature | dict[str, str]) -> list[tuple[str, str | None, str | None]]:
        """Fields that differ, as ``(key, value in other, value in self)``.

        ``other`` is the *expected* signature: a ``*`` value there matches
        anything, so ``version:*`` compares everything but the version, and a
        key of :data:`DESCRIPTIVE_KEYS` it does not mention is not compared (a
        sacreBLEU signature checks a ``-t`` run, whose signature adds ``test:``
        and ``lang:``).
        """
        expected = other.to_dict() if isinstance(other, Signature) else other
        actual = self.to_dict()
        differences = []
        for key in list(expected) + [k for k in actual if k not in expected]:
            exp, got = expected.get(key), actual.get(key)
            if exp == WILDCARD and got is not None:
                continue
            if exp is None and key in DESCRIPTIVE_KEYS:
                continue
            if exp != got:
                differences.append((key, exp, got))
        return differences


def parse_signature(text: str, metric: str | None = None) -> tuple[str | None, dict[str, str]]:
    """Read a signature string a user supplied (long or short form, with or without ``NAME|``).

    Returns the metric name if the string carried one, and the fields under
    their long keys. Used only to compare against what bleucli computed; output
    is never produced by parsing a string back.
    """
    parts = [p for p in text.strip().split("|") if p]
    name = metric
    if parts and ":" not in parts[0]:
        name = parts.pop(0)
    keys = metric_keys(name or "BLEU")
    if keys is None:
        raise OptionError(f"unknown metric '{name}' in signature '{text}'")
    short_to_long = {v: k for k, v in GLOBAL_KEYS.items()}
    short_to_long.update({v: k for k, v in keys.items()})
    short_to_long[VERSION_KEY[1]] = VERSION_KEY[0]
    # sacreBLEU's TER shortens both `test` (global) and `tok` to `t`. Global keys
    # are written first, so when the short key occurs twice the first is the
    # global one; once, it is the metric's own (always present in its signatures).
    ambiguous = {v: k for k, v in GLOBAL_KEYS.items() if v in keys.values()}
    long_keys = set(GLOBAL_KEYS) | set(keys) | {VERSION_KEY[0]}
    short_counts: dict[str, int] = {}
    for part in parts:
        short_counts[part.partition(":")[0]] = short_counts.get(part.partition(":")[0], 0) + 1
    fields: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition(":")
        if not sep or not key:
            raise OptionError(f"malformed signature field '{part}' in '{text}' (expected key:value)")
        if key not in long_keys:
            if key not in short_to_long:
                raise OptionError(f"unknown signature key '{key}' in '{text}'")
            if key in ambiguous and short_counts[key] == 2 and ambiguous[key] not in fields:
                key = ambiguous[key]
            else:
                key = short_to_long[key]
        if key in fields:
            raise OptionError(f"signature key '{key}' given twice in '{text}'")
        fields[key] = value
    return name, fields
