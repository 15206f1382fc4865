"""The ``bleucli`` command: a thin click layer over the library.

Only this package turns exceptions into messages and exit codes (see
:mod:`bleucli.clikit.report`). ``bleucli REF...`` scores; named subcommands
(``bleucli signature diff``) do other jobs.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any, NoReturn

import click

from ..clikit import report
from ..clikit.report import ExitCode
from ..errors import BleucliError
from ..version import __version__
from .argv import argparse_spellings, expand_greedy_options

DEFAULT_COMMAND = "score"

#: Subcommands other than ``score``, imported only when asked for (click's lazily loaded
#: subcommands): ``bleucli REF...`` and ``--version`` do not pay for modules they never run.
LAZY_COMMANDS: dict[str, str] = {
    "signature": "bleucli.cli.signature:signature",
    "cache": "bleucli.testsets.cli_cache:cache",
    "stats": "bleucli.shards.cli:stats_command",  # built on the scoring command's options
    "merge": "bleucli.shards.cli:merge",
    "compare": "bleucli.report.cli:compare",
    "rank": "bleucli.report.cli_rank:rank",
    "self-bleu": "bleucli.family.cli:self_bleu_command",
    "pairwise": "bleucli.family.cli:pairwise_command",
    "ibleu": "bleucli.family.cli:ibleu_command",
    "gleu": "bleucli.family.cli:gleu_command",
    "google-bleu": "bleucli.family.cli:google_bleu_command",
    "multi-bleu": "bleucli.family.cli_multibleu:multi_bleu_command",
    "multi-bleu-detok": "bleucli.family.cli_multibleu:multi_bleu_detok_command",
    "nltk": "bleucli.family.cli_nltk:nltk_command",
    "which-bleu": "bleucli.family.cli_nltk:which_bleu_command",
}


class BleucliGroup(click.Group):
    """The top-level command: scoring by default, named subcommands otherwise.

    When the first argument is not a subcommand it goes to ``score``, which
    keeps sacreBLEU's ``bleucli ref.txt < hyp`` (a reference file named like a
    subcommand can be given as ``./signature``). ``main`` also owns the
    translation of every failure into one stderr line and an exit code, so the
    same behaviour is seen from the console script and from ``CliRunner``.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args[:1] not in (["-h"], ["--help"]):  # `bleucli --help`: the overview, below
            args = self._route(ctx, args)
        return super().parse_args(ctx, args)

    def _route(self, ctx: click.Context, args: list[str]) -> list[str]:
        """``score`` unless a subcommand is named, also after options (``bleucli -q cache list``).

        Options before a subcommand are given to it (``bleucli --cache-dir X
        cache list`` is ``bleucli cache list --cache-dir X``); ``-q`` silences
        the warnings of a subcommand that has no ``-q`` of its own; any other
        option the subcommand does not take is a usage error naming it.
        """
        commands = set(self.list_commands(ctx))
        if args and args[0] in commands:
            return args
        score = self.get_command(ctx, DEFAULT_COMMAND)
        assert score is not None
        leading = _leading_options(score, args)
        position = sum(len(tokens) for tokens in leading)
        if not leading or position >= len(args) or args[position] not in commands:
            args = expand_greedy_options(argparse_spellings(args, _option_table(score)))
            return [DEFAULT_COMMAND, *_long_spellings(score, args)]
        path, rest = [args[position]], args[position + 1:]
        command = self.get_command(ctx, path[0])
        while isinstance(command, click.Group) and rest and rest[0] in command.list_commands(ctx):
            path.append(rest.pop(0))
            command = command.get_command(ctx, path[-1])
        assert command is not None
        accepted = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
        given: list[str] = []
        for tokens in leading:
            option = tokens[0].split("=", 1)[0]
            if option in accepted:
                given.extend(tokens)
            elif option in ("-q", "--quiet"):
                report.set_quiet(True)
            else:
                raise click.UsageError(f"{option} does not apply to 'bleucli {' '.join(path)}'")
        return [*path, *given, *rest]

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The overview: usage, the scoring options grouped by purpose, every command, the exit codes."""
        from ..clikit.help import write_exit_codes, write_grouped_options

        self.format_usage(ctx, formatter)
        self.format_help_text(ctx, formatter)
        score = self.get_command(ctx, DEFAULT_COMMAND)
        assert score is not None
        with score.make_context(ctx.command_path, [], parent=ctx, resilient_parsing=True) as score_ctx:
            write_grouped_options(score, score_ctx, formatter)
        self.format_commands(ctx, formatter)
        write_exit_codes(formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with the first paragraph of its help, wrapped (click cuts it at the first period:
        "GLEU for grammatical error correction (Napoles et al.")."""
        import inspect

        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                first = inspect.cleandoc(command.help or "").split("\n\n")[0]
                rows.append((name, " ".join(first.split())))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        _running[:] = [] if command is None else [command]  # for the out-of-memory line's advice
        return name, command, rest

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS and name not in self.commands:
            import importlib

            module, attribute = LAZY_COMMANDS[name].split(":")
            command = getattr(importlib.import_module(module), attribute)
            if not isinstance(command, click.Command):  # a factory taking the scoring command (stats)
                command = command(self.commands[DEFAULT_COMMAND])
            self.add_command(command, name)
        return super().get_command(ctx, name)

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        with _pipe_errors_past_click():  # ``--version | true`` writes while the arguments are parsed
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _pipe_errors_past_click():
            return super().invoke(ctx)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[OPTIONS] REF... [-i SYSTEM...]")
        formatter.write_usage(ctx.command_path, "[OPTIONS] COMMAND [ARGS]...", prefix="       ")

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        _running.clear()
        report.set_quiet(False)  # `-q` before a subcommand sets it for this run only
        code = _run_guarded(
            lambda: super(BleucliGroup, self).main(
                expand_greedy_options(argv), prog_name or "bleucli", complete_var,
                standalone_mode=False, **extra,
            )
        )
        if standalone_mode:
            sys.exit(code)
        return code


@click.group(cls=BleucliGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Reproducible BLEU: sacreBLEU-exact scores with versioned signatures.

    `bleucli REF... [-i SYSTEM...]` scores (the `score` command, sacreBLEU's
    command line); the other commands below do other jobs (`bleucli COMMAND
    --help`). Options given before a command apply to it: `bleucli -q cache
    list`, `bleucli --cache-dir DIR cache list`.
    """


def _register_commands() -> None:
    from .score import score

    cli.add_command(score)


_register_commands()


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console-script entry point: run the CLI and exit with a documented code.

    The process ends right after: its objects are frozen (``gc.freeze``) so that the interpreter's
    shutdown frees them without first walking every one of them for cycles, a last collection that
    takes about 5 ms, 1% of scoring 200,000 lines and 2% of doing so with ``-j 2``. Nothing is written
    at shutdown that this would hold back: the output is flushed by then, and files are closed by
    the ``with`` blocks that opened them.
    """
    _one_blas_thread()
    _fewer_collections()
    try:
        cli.main(argv, prog_name="bleucli")
    finally:
        import gc

        gc.freeze()
    raise SystemExit(ExitCode.INTERNAL)  # not reached: main() exits


#: The variables OpenBLAS reads for its number of threads (the first one set wins).
_BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _one_blas_thread() -> None:
    """numpy's BLAS on one thread in this process, unless the user chose a number of threads.

    bleucli's BLAS calls are its resampling products (``-ci``, ``-pbs``, ``-par``, ``rank``,
    ``compare``; a few milliseconds each): OpenBLAS's extra threads, started when numpy is imported
    and spinning after each product, cost about a sixth of a ``-pbs`` run's CPU time for nothing.
    Set before numpy is imported (the scoring command imports it only for significance); the
    library, used inside other programs, leaves their BLAS alone.
    """
    if not any(name in os.environ for name in _BLAS_THREAD_VARIABLES):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


#: Allocations between two young-generation collections of the command line (CPython's default: 700).
COLLECTION_THRESHOLD = 200_000


def _fewer_collections() -> None:
    """Collect cycles every 200,000 allocations instead of every 700, in this process only.

    A run allocates few cycles (scores and rows are freed by their reference counts), but each
    collection walks every young object, and each full one every object of the imported modules:
    the default thresholds cost about 2.5% of the instructions of a ``-pbs`` run over eight
    systems, mostly while numpy is imported, for no memory returned. Cycles are still collected, so
    memory stays bounded. The library, used inside other programs, leaves their collector alone.
    """
    import gc

    gc.set_threshold(COLLECTION_THRESHOLD, *gc.get_threshold()[1:])


def run(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code instead of exiting."""
    return int(cli.main(argv, prog_name="bleucli", standalone_mode=False))


def _option_table(command: click.Command) -> dict[str, bool]:
    """Every option string of ``command`` -> whether it takes a value (for :func:`argparse_spellings`)."""
    takes_value = _options_taking_a_value(command)
    return {opt: opt in takes_value for param in command.params if isinstance(param, click.Option)
            for opt in (*param.opts, *param.secondary_opts)}


@cache  # asked three times a run, of the same command
def _options_taking_a_value(command: click.Command) -> frozenset[str]:
    return frozenset(opt for param in command.params if isinstance(param, click.Option) and not param.is_flag
                     and not param.count for opt in param.opts)


def _leading_options(command: click.Command, args: list[str]) -> list[list[str]]:
    """The options at the start of ``args``, each with its value when ``command`` says it takes one."""
    takes_value = _options_taking_a_value(command)
    out: list[list[str]] = []
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] not in ("-", "--"):
        width = 2 if args[i] in takes_value and i + 1 < len(args) else 1
        out.append(args[i:i + width])
        i += width
    return out


def _long_spellings(command: click.Command, args: list[str]) -> list[str]:
    """``args`` with each one-letter option of ``command`` (``-i``) spelled as its long name (``--input``).

    click first looks every option word up as a long option; for ``-i`` that
    fails, and the failure builds a "did you mean" list with difflib (imported
    for it) before click tries the word as a short option: about 2.5M
    instructions for each one-letter option of a scoring command line, a tenth
    of bleucli's own start-up. Values of options are left as they are, and so
    is an option missing its value, for click's error to name it as written.
    """
    takes_value = _options_taking_a_value(command)
    long_names: dict[str, str] = {}
    for param in command.params:
        if isinstance(param, click.Option):
            long_name = next((opt for opt in param.opts if opt.startswith("--")), None)
            for opt in param.opts:
                if long_name is not None and len(opt) == 2 and opt[0] == "-" and opt != "--":
                    long_names[opt] = long_name
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.extend(args[i:])
            break
        if arg not in takes_value:
            out.append(long_names.get(arg, arg))
        elif i + 1 < len(args):
            out.extend([long_names.get(arg, arg), args[i + 1]])
            i += 1
        else:  # no value: click's error names the option as the user wrote it
            out.append(arg)
        i += 1
    return out


class _PipeClosed(Exception):
    """stdout's reader went away; not an ``OSError``, so that click's own handler (exit 1) lets it through."""


@contextmanager
def _pipe_errors_past_click() -> Iterator[None]:
    """Turn EPIPE into :class:`_PipeClosed` before click's ``main`` sees it.

    click catches every ``OSError`` with errno EPIPE in ``main`` and exits 1, even
    with ``standalone_mode=False``; the README promises 141 for ``| head``.
    """
    try:
        yield
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise _PipeClosed from exc
        raise


def _raise_terminated(number: int, frame: Any) -> None:
    from ..errors import Terminated

    raise Terminated


def _on_sigterm() -> Any:
    """SIGTERM raises :class:`~bleucli.errors.Terminated` in the main thread (so that the ``with`` blocks
    holding worker processes stop them on the way out); what was there before, to restore, or ``None``."""
    # the C module (no stub): ``signal`` builds its enums at import, 2% of a whole ``bleucli --version``
    import _signal as signal  # type: ignore[import-not-found]
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        if signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:  # someone else's handler: theirs
            return None
        return signal.signal(signal.SIGTERM, _raise_terminated)
    except (ValueError, AttributeError):  # pragma: no cover - no SIGTERM
        return None


def _run_guarded(invoke: Callable[[], Any]) -> int:
    """Call click and map every outcome to an exit code, with no traceback for expected failures.

    SIGTERM ends the run as Ctrl-C does (worker processes stopped, one line), with exit 143.
    """
    from ..errors import Terminated

    previous = _on_sigterm()
    try:
        return _outcome(invoke)
    except Terminated:  # during the reporting of another outcome
        return _terminated()
    finally:
        if previous is not None:
            import _signal

            _signal.signal(_signal.SIGTERM, previous)


def _terminated() -> int:
    report.error("terminated (SIGTERM)")
    return ExitCode.TERMINATED


def _outcome(invoke: Callable[[], Any]) -> int:
    from ..errors import Terminated

    try:
        result = invoke()
        _flush_stdout()
        return int(result) if isinstance(result, int) else ExitCode.OK
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        report.error("interrupted")
        return ExitCode.INTERRUPTED
    except Terminated:
        return _terminated()
    except click.ClickException as exc:
        report.error(exc.format_message())
        return exc.exit_code
    except (BrokenPipeError, _PipeClosed):
        return _broken_pipe()
    except BleucliError as exc:
        report.error(str(exc))
        return report.exit_code_for(exc)
    except OSError as exc:  # writing the result failed (disk full, closed stdout...)
        report.error(f"cannot write output: {exc.strerror or exc}")
        _discard_stdout()  # what stayed in stdout's buffer would fail again at exit (a second message, exit 120)
        return ExitCode.OUTPUT
    except MemoryError as exc:  # the machine's limit, not a bug: the run asked for more than it gives
        if os.environ.get("BLEUCLI_DEBUG"):
            raise
        report.error(report.out_of_memory(exc, _needing_less()))
        return ExitCode.MEMORY
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if os.environ.get("BLEUCLI_DEBUG"):
            raise
        report.error(
            f"internal error: {type(exc).__name__}: {exc} "
            "(set BLEUCLI_DEBUG=1 for a traceback; please report this bug)"
        )
        return ExitCode.INTERNAL


#: The command being run (set when click resolves it), so that messages can name its own options.
_running: list[click.Command] = []

#: The options that set how many resamples a command draws.
_RESAMPLING = ("-cin", "-pbsn", "-parn", "--iterations")


def _needing_less() -> str | None:
    """What asks for less memory in the command that ran, from its own options (``None``: not known)."""
    if not _running:
        return None
    params = _running[0].params
    spelled = {opt: param for param in params for opt in (*param.opts, *param.secondary_opts)}
    ways = []
    resampling = [opt for opt in _RESAMPLING if opt in spelled]
    if resampling:
        ways.append(f"fewer resamples ({', '.join(resampling)})")
    if "-i" in spelled and getattr(spelled["-i"], "multiple", False):
        ways.append("fewer systems")
    if "-j" in spelled:
        ways.append("fewer -j workers")
    ways.append("smaller inputs")
    return ", ".join(ways[:-1]) + f" or {ways[-1]}" if len(ways) > 1 else ways[0]


def _flush_stdout() -> None:
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError):
        pass


def _broken_pipe() -> int:
    """The reader went away (``| head``): stop quietly, without touching signal handlers.

    stdout is pointed at /dev/null so that the interpreter's final flush does
    not raise a second time.
    """
    _discard_stdout()
    return ExitCode.BROKEN_PIPE


def _discard_stdout() -> None:
    """Point stdout's file descriptor at /dev/null: nothing more can reach the reader or the full disk."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


__all__ = ["cli", "main", "run", "__version__"]
