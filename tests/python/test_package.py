"""The installed wheel against the workspace's CLI: the `toolscope` command prints the same bytes
and exits with the same code, and `toolscope_eval.report()` returns the same report, for the
repo's fixtures; where the CLI exits with 2, `report()` raises. The wheel is `toolscope-eval` and
installs no import package named `toolscope` (docs/names.md)."""

import importlib.metadata
import importlib.util
import json
import signal
import time
import subprocess
from pathlib import Path

import pytest

import toolscope_eval
from conftest import FIXTURES, ROOT

SEED = FIXTURES / "seed"
DEMO = ROOT / "public" / "demo"
AGENTS = ROOT / "crates" / "toolscope-core" / "tests" / "fixtures" / "formats" / "claude_code"

# (name, CLI arguments after `report --json`, report() arguments, expected exit code)
CASES = [
    (
        "seed checks",
        ["--tools", SEED / "tools.json", "--rules", SEED / "rules.json", SEED / "calls.json"],
        dict(files=SEED / "calls.json", tools=SEED / "tools.json", rules=SEED / "rules.json"),
        1,
    ),
    (
        "selection with labels",
        ["--tools", SEED / "tools.json", "--labels", SEED / "selection_labels.jsonl",
         SEED / "selection_sessions.jsonl"],
        dict(files=[SEED / "selection_sessions.jsonl"], tools=SEED / "tools.json",
             labels=SEED / "selection_labels.jsonl"),
        1,
    ),
    (
        "demo, subset args, min support 3",
        ["--tools", DEMO / "tools.json", "--rules", DEMO / "rules.json", "--labels",
         DEMO / "labels.jsonl", "--args-match", "subset", "--min-support", "3",
         DEMO / "sessions.jsonl"],
        dict(files=[DEMO / "sessions.jsonl"], tools=DEMO / "tools.json",
             rules=DEMO / "rules.json", labels=DEMO / "labels.jsonl", args_match="subset",
             min_support=3),
        1,
    ),
    (
        "demo summary",
        ["--tools", DEMO / "tools.json", "--labels", DEMO / "labels.jsonl", "--summary",
         DEMO / "sessions.jsonl"],
        dict(files=DEMO / "sessions.jsonl", tools=DEMO / "tools.json",
             labels=DEMO / "labels.jsonl", summary=True),
        1,
    ),
    (
        "hostile markup",
        ["--tools", FIXTURES / "hostile" / "markup_tools.json", "--labels",
         FIXTURES / "hostile" / "markup_labels.jsonl", FIXTURES / "hostile" / "markup.jsonl"],
        dict(files=FIXTURES / "hostile" / "markup.jsonl",
             tools=FIXTURES / "hostile" / "markup_tools.json",
             labels=FIXTURES / "hostile" / "markup_labels.jsonl"),
        2,
    ),
    (
        "native support",
        [FIXTURES / "native" / "support.jsonl"],
        dict(files=FIXTURES / "native" / "support.jsonl"),
        None,
    ),
    (
        "a Claude Code session and its subagent's file",
        [AGENTS / "showcase.55550000-0000-4000-8000-000000000001.jsonl",
         AGENTS / "showcase.agent-showcol1.jsonl"],
        dict(files=[AGENTS / "showcase.55550000-0000-4000-8000-000000000001.jsonl",
                    AGENTS / "showcase.agent-showcol1.jsonl"]),
        None,
    ),
]
BAD = (
    ["--labels", FIXTURES / "bad" / "labels.jsonl", FIXTURES / "bad" / "sessions.jsonl"],
    dict(files=FIXTURES / "bad" / "sessions.jsonl", labels=FIXTURES / "bad" / "labels.jsonl"),
)


def run(cli: str, args: list) -> subprocess.CompletedProcess:
    return subprocess.run(
        [cli, "report", "--json", *map(str, args)], capture_output=True, check=False
    )


@pytest.mark.parametrize("name,cli_args,api_args,exit_code", CASES, ids=[c[0] for c in CASES])
def test_installed_command_prints_the_workspace_clis_bytes(
    workspace_cli, installed_cli, name, cli_args, api_args, exit_code
):
    expected = run(workspace_cli, cli_args)
    actual = run(installed_cli, cli_args)
    if exit_code is not None:
        assert expected.returncode == exit_code, expected.stderr
    assert actual.returncode == expected.returncode
    assert actual.stdout == expected.stdout
    assert actual.stderr == expected.stderr
    assert json.loads(actual.stdout)["summary"]["sessions"] > 0


@pytest.mark.parametrize("name,cli_args,api_args,exit_code", CASES, ids=[c[0] for c in CASES])
def test_report_returns_the_clis_json_as_a_dict(workspace_cli, name, cli_args, api_args, exit_code):
    expected = run(workspace_cli, cli_args)
    if expected.returncode == 2:
        with pytest.raises(toolscope_eval.InputError) as raised:
            toolscope_eval.report(**api_args)
        assert raised.value.report == json.loads(expected.stdout)
    else:
        assert expected.returncode in (0, 1), expected.stderr
        assert toolscope_eval.report(**api_args) == json.loads(expected.stdout)


def test_input_errors_raise_where_the_cli_exits_2_with_the_report_and_diagnostics(workspace_cli):
    cli_args, api_args = BAD
    expected = run(workspace_cli, cli_args)
    assert expected.returncode == 2
    assert run(workspace_cli, cli_args).stdout == expected.stdout
    with pytest.raises(toolscope_eval.InputError) as raised:
        toolscope_eval.report(**api_args)
    error = raised.value
    assert error.report == json.loads(expected.stdout)
    assert error.errors, "an exit 2 has an error diagnostic"
    not_json = [d for d in error.errors if "not JSON" in d.message or "JSON" in d.message]
    assert any(d.file.endswith("sessions.jsonl") and d.line == 2 for d in not_json), error.errors
    # Warnings are kept too, apart from the errors.
    assert {d.severity for d in error.diagnostics} == {"error", "warning"}
    assert "sessions.jsonl:2" in str(error)


def test_warnings_are_returned_in_the_report_never_printed(tmp_path, capfd):
    trace = tmp_path / "nan.jsonl"
    trace.write_text(
        '{"session_id": "nan-args", "events": [{"type": "tool_use", "name": "issue_refund",'
        ' "args": {"order_id": "7Q2ZK9XA", "amount": NaN}}]}\n'
    )
    report = toolscope_eval.report(trace)
    assert [d["severity"] for d in report["diagnostics"]] == ["warning"]
    assert report["diagnostics"][0]["line"] == 1
    assert capfd.readouterr() == ("", "")


def test_a_missing_file_raises_read_error_naming_it(tmp_path):
    missing = tmp_path / "no-such-trace.jsonl"
    with pytest.raises(toolscope_eval.ReadError, match="no-such-trace.jsonl"):
        toolscope_eval.report(missing)
    assert issubclass(toolscope_eval.ReadError, OSError)


def test_an_option_the_cli_rejects_raises_usage_error():
    with pytest.raises(toolscope_eval.UsageError, match="subsets"):
        toolscope_eval.report(SEED / "calls.json", args_match="subsets")
    with pytest.raises(toolscope_eval.UsageError):
        toolscope_eval.report([])


def test_a_file_named_like_an_option_is_read_as_a_file(tmp_path):
    odd = tmp_path / "--summary"
    odd.write_bytes((SEED / "calls.json").read_bytes())
    report = toolscope_eval.report(str(odd))
    assert report["inputs"][0]["file"] == str(odd)
    assert report["summary"]["calls"] == 2, "the calls were read"


def test_trace_text_in_an_exception_message_is_escaped(tmp_path):
    bad = tmp_path / "evil\x1b]0;pwned\x07.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(toolscope_eval.InputError) as raised:
        toolscope_eval.report(bad)
    message = str(raised.value)
    assert "\x1b" not in message and "\x07" not in message
    assert "\\x1b]0;pwned\\x07" in message
    # The report keeps the name as it is: it is data, not terminal output.
    assert raised.value.errors[0].file == str(bad)


def test_the_distribution_is_toolscope_eval_and_never_installs_a_toolscope_module():
    # `toolscope` on PyPI is an unrelated project with an import package of that name: this wheel
    # must neither shadow it nor be shadowed by it.
    distribution = importlib.metadata.distribution("toolscope-eval")
    assert distribution.metadata["Name"] == "toolscope-eval"
    assert distribution.version == toolscope_eval.__version__
    top_level = {Path(str(file)).parts[0] for file in distribution.files}
    assert "toolscope_eval" in top_level
    assert "toolscope" not in top_level and "toolscope.py" not in top_level
    assert importlib.util.find_spec("toolscope") is None
    (script,) = [e for e in distribution.entry_points if e.group == "console_scripts"]
    assert (script.name, script.value) == ("toolscope", "toolscope_eval._cli:main")
    assert toolscope_eval._toolscope.__name__ == "toolscope_eval._toolscope"


def test_the_command_exits_with_the_clis_codes(installed_cli):
    assert subprocess.run([installed_cli, "--version"], capture_output=True).stdout.startswith(
        b"toolscope " + toolscope_eval.__version__.encode()
    )
    usage = subprocess.run([installed_cli, "report", "--bogus"], capture_output=True)
    assert usage.returncode == 2 and b"--bogus" in usage.stderr


def test_a_closed_pipe_ends_the_command_quietly(installed_cli):
    # `toolscope report --json … | head -c 1`: the CLI ends with 0 and nothing on stderr.
    args = [installed_cli, "report", "--json", "--labels", str(DEMO / "labels.jsonl"),
            str(DEMO / "sessions.jsonl")]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout.read(1) == b"{"
        process.stdout.close()
        stderr = process.stderr.read()
        assert process.wait(timeout=60) == 0
    assert stderr == b""


def test_ctrl_c_ends_the_command_at_once(installed_cli):
    # Reading `-` from a pipe nobody writes to blocks in the engine's read: Python's own SIGINT
    # handler would only set a flag there (Rust retries the interrupted read), so the entry point
    # must give SIGINT its default action back, as the native binary has it.
    with subprocess.Popen(
        [installed_cli, "report", "--json", "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    ) as process:
        time.sleep(1.0)
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(timeout=10)
        finally:
            process.kill()
    assert code == -signal.SIGINT
