"""The second seed's pytest gate ("Running Evals in CI", "Tracking Tool-Selection Drift") on
toolscope: docs/python.md shows the example below verbatim (the last test keeps the two equal).
It runs here on the demo data the page ships."""

import sys

# --- example (docs/python.md) ---
from pathlib import Path

import pytest

import toolscope_eval

RUNS = Path(__file__).resolve().parents[2] / "public" / "demo"  # your traces, catalog, labels
THRESHOLD = 0.70  # the seed alerts below 0.90; the demo's agents make mistakes on purpose


@pytest.fixture(scope="module")
def report():
    return toolscope_eval.report(
        RUNS / "sessions.jsonl",
        tools=RUNS / "tools.json",
        rules=RUNS / "rules.json",
        labels=RUNS / "labels.jsonl",
    )


def test_tool_accuracy_above_threshold(report):
    selection = report["selection"]
    metrics = {
        "tool_accuracy": selection["tool_accuracy"]["rate"],
        "args_accuracy": selection["args_accuracy_exact"]["rate"],
        "avg_extra_calls": selection["avg_extra_calls"],
        "confusion_pairs": [(p["expected"], p["actual"]) for p in selection["confused_pairs"]],
    }
    # Alert on regression (tool names come from the traces: escaped before they are shown).
    assert metrics["tool_accuracy"] >= THRESHOLD, toolscope_eval.terminal_safe(
        f"Tool selection accuracy dropped to {metrics['tool_accuracy']:.1%}; "
        f"most confused: {metrics['confusion_pairs'][:3]}"
    )


def test_no_call_breaks_its_schema(report):
    schema = report["summary"]["by_kind"].get("schema", {"calls": 0})
    assert schema["calls"] <= 0.10 * report["summary"]["calls"]
# --- end of example ---


def test_the_gate_fails_when_accuracy_drops_below_the_seeds_threshold(report, monkeypatch):
    accuracy = report["selection"]["tool_accuracy"]["rate"]
    assert THRESHOLD <= accuracy < 0.90
    monkeypatch.setattr(sys.modules[__name__], "THRESHOLD", 0.90)
    with pytest.raises(AssertionError, match="dropped to"):
        test_tool_accuracy_above_threshold(report)


def test_docs_show_this_example_verbatim():
    source = Path(__file__).read_text(encoding="utf-8")
    example = source.split("# --- example (docs/python.md) ---\n")[1]
    example = example.split("# --- end of example ---")[0].strip()
    docs = (Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text(encoding="utf-8")
    assert example in docs
