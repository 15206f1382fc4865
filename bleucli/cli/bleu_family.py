"""Registration of the BLEU-family commands: multi-bleu, multi-bleu-detok, nltk, which-bleu."""

from __future__ import annotations

import click


def register_bleu_family_commands(group: click.Group) -> None:
    from .multibleu import multi_bleu_command, multi_bleu_detok_command

    group.add_command(multi_bleu_command)
    group.add_command(multi_bleu_detok_command)
