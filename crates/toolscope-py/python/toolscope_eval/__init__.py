"""toolscope for Python: the report on your agent's tool calls, from the same Rust code as the CLI.

The distribution is `toolscope-eval` and the import package `toolscope_eval` (`toolscope` on PyPI
is an unrelated project; docs/names.md):

    import toolscope_eval

    report = toolscope_eval.report(["traces.jsonl"], tools="tools.json", labels="labels.jsonl")
    assert report["selection"]["tool_accuracy"]["rate"] >= 0.90

`report()` returns exactly what `toolscope report --json` prints for the same files, as a dict.
It raises where that command exits with 2: `InputError` when an input has errors (a line that
is not JSON, a label file that is not labels), `ReadError` when a file cannot be read,
`UsageError` for an option the CLI would reject. Warnings stay in `report["diagnostics"]`, with
the errors, and are never printed. docs/python.md has the whole API.
"""

from __future__ import annotations

import json
import os
from typing import Any, NamedTuple, Optional, Sequence, Union

from toolscope_eval import _toolscope

__all__ = [
    "report",
    "Diagnostic",
    "ToolscopeError",
    "InputError",
    "ReadError",
    "UsageError",
    "terminal_safe",
    "__version__",
]

__version__: str = _toolscope.VERSION

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike], None]


class Diagnostic(NamedTuple):
    """One problem with an input, as the report's `diagnostics` holds it."""

    file: str
    line: Optional[int]
    column: Optional[int]
    severity: str
    """"error" (the input, or part of it, was left out) or "warning" (read with a change)."""
    message: str

    def __str__(self) -> str:
        # The file name and message can come from the input: shown escaped, as the CLI shows them.
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return terminal_safe(f"{where}: {self.severity}: {self.message}")


class ToolscopeError(Exception):
    """Every error `report()` raises: where `toolscope report --json` exits with 2."""


class InputError(ToolscopeError):
    """An input had errors (the CLI prints the report, then exits with 2).

    `diagnostics` holds every diagnostic (warnings too), `errors` those of severity error, and
    `report` the report as the CLI prints it, made from what could be read.
    """

    def __init__(self, diagnostics: list[Diagnostic], report: dict[str, Any]):
        self.diagnostics = diagnostics
        self.errors = [d for d in diagnostics if d.severity == "error"]
        self.report = report
        shown = "\n".join(f"  {error}" for error in self.errors[:10])
        more = len(self.errors) - 10
        if more > 0:
            shown += f"\n  ... and {more} more"
        super().__init__(f"{len(self.errors)} input error(s):\n{shown}")


class ReadError(ToolscopeError, OSError):
    """A file could not be read; the message names it."""


class UsageError(ToolscopeError, ValueError):
    """An option the CLI rejects (an unknown format, a negative --min-support); clap's message."""


def terminal_safe(text: str) -> str:
    """`text` with every control and bidirectional character shown as an escape: how the CLI
    writes text from a trace to a terminal. Use it before printing a tool name or message."""
    return _toolscope.terminal_safe(text)


def report(
    files: Paths,
    *,
    tools: Paths = None,
    rules: Paths = None,
    labels: Paths = None,
    verdicts: Paths = None,
    human_verdicts: Paths = None,
    format: Optional[str] = None,
    min_support: Optional[int] = None,
    args_match: Optional[str] = None,
    summary: bool = False,
) -> dict[str, Any]:
    """The report `toolscope report --json` prints for these files, as a dict.

    files: trace files (a path or a list of paths; "-" reads standard input).
    tools, rules, labels, verdicts, human_verdicts: the files of `--tools`, `--rules`,
        `--labels`, `--verdicts` and `--human-verdicts`, each a path or a list.
    format: `--format`, to read every trace file as this format instead of detecting it.
    min_support: `--min-support`; args_match: `--args-match` ("exact" or "subset").
    summary: `--summary`, the report without its per-session and per-turn lists.
    """
    args: list[str] = []
    for flag, paths in (
        ("--tools", tools),
        ("--rules", rules),
        ("--labels", labels),
        ("--verdicts", verdicts),
        ("--human-verdicts", human_verdicts),
    ):
        for path in _paths(paths):
            args += [flag, path]
    if format is not None:
        args += ["--format", format]
    if min_support is not None:
        args += ["--min-support", str(min_support)]
    if args_match is not None:
        args += ["--args-match", args_match]
    if summary:
        args.append("--summary")
    # The JSON is only parsed here: on one line it is 60 % of the bytes, quicker to write and read.
    args.append("--compact")
    trace_files = _paths(files)
    if not trace_files:
        raise UsageError("report() needs at least one trace file")
    # After `--`, so that a file named like an option is still a file.
    args += ["--", *trace_files]
    try:
        exit_code, report_text, diagnostics = _toolscope.report_json(args)
    except ValueError as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise ReadError(str(error)) from None
    result = json.loads(report_text)
    if exit_code == 2:
        raise InputError([Diagnostic(*d) for d in diagnostics], result)
    return result


def _paths(paths: Paths) -> list[str]:
    """One path or a sequence of them, as the strings the command line takes."""
    if paths is None:
        return []
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    if isinstance(paths, (bytes, bytearray)):
        raise TypeError("paths are str or os.PathLike, not bytes")
    return [os.fspath(path) for path in paths]
