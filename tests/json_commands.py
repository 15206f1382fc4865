"""The command lines whose JSON must be a strict superset of sacreBLEU's (run in examples/)."""

from __future__ import annotations

COMMANDS: dict[str, list[str]] = {
    "bleu": ["ref.de", "-i", "Online-B.de"],
    "bleu-w3": ["ref.de", "-i", "Online-B.de", "-w", "3"],
    "two-refs": ["ref.de", "ref2.de", "-i", "Online-B.de"],
    "chrf++": ["ref.de", "-i", "Online-B.de", "-m", "chrf", "-cw", "2"],
    "chrf-beta3": ["ref.de", "-i", "Online-B.de", "-m", "chrf", "--chrf-beta", "3"],
    "ter": ["ref.de", "-i", "Online-B.de", "-m", "ter"],
    "three-metrics": ["ref.de", "-i", "Online-B.de", "-m", "bleu", "chrf", "ter", "-w", "2"],
    "score-only-metrics": ["ref.de", "-i", "Online-B.de", "-m", "bleu", "chrf", "-b"],
    "ci": ["ref.de", "-i", "Online-B.de", "-ci", "-cin", "50"],
    "ci-metrics": ["ref.de", "-i", "Online-B.de", "-m", "chrf", "ter", "-ci", "-cin", "20", "-w", "3"],
    "systems": ["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-m", "bleu", "chrf", "-f", "json"],
    # sacreBLEU ignores -b with several systems: its JSON table, as without -b
    "systems-score-only": ["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-b"],
    "paired-bs": ["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-pbs", "-pbsn", "30", "-f", "json"],
    "paired-ar": ["ref.de", "-i", "Online-B.de", "Lan-Bridge.de", "-par", "-parn", "30", "-f", "json"],
}
