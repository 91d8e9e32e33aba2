"""Seed 002's eval runner, as printed in the seed, run on recorded agent outputs.

Reads {"cases": [...]} on stdin, where each case is an eval case plus the agent's "tool_calls";
prints {"results": [...], "metrics": {...}} computed by the seed's own code. The seed leaves
`agent`, `extract_tool_calls` and `validate_args` undefined: the agent replays the recorded
calls, and `validate_args` is exact equality (toolscope's "exact" mode).
"""
import json
import sys
from dataclasses import dataclass, asdict


@dataclass
class ToolSelectionResult:
    case_id: str
    predicted_tool: str
    expected_tool: str
    correct_tool: bool
    args_correct: bool
    extra_tools_called: list
    missing_tools: list
    score: float


class ReplayAgent:
    def __init__(self, cases):
        self.outputs = {case["user_input"]: case["tool_calls"] for case in cases}

    def run(self, user_input):
        return self.outputs[user_input]


def extract_tool_calls(response):
    return response


def validate_args(actual, expected):
    return actual == expected


# --- the seed's code, unchanged ---
def evaluate_tool_selection(agent, eval_cases):
    results = []
    for case in eval_cases:
        response = agent.run(case["user_input"])
        tool_calls = extract_tool_calls(response)
        predicted_tool = tool_calls[0]["name"] if tool_calls else None
        correct_tool = predicted_tool == case["expected_tool"]
        args_correct = False
        if correct_tool and tool_calls:
            args_correct = validate_args(tool_calls[0]["args"], case["expected_args"])
        called_tools = [tc["name"] for tc in tool_calls]
        extra = [t for t in called_tools if t not in case.get("expected_tools", [case["expected_tool"]])]
        missing = [t for t in case.get("expected_tools", [case["expected_tool"]]) if t not in called_tools]
        score = compute_score(correct_tool, args_correct, extra, missing)
        results.append(ToolSelectionResult(
            case_id=case["id"], predicted_tool=predicted_tool, expected_tool=case["expected_tool"],
            correct_tool=correct_tool, args_correct=args_correct, extra_tools_called=extra,
            missing_tools=missing, score=score))
    return results


def compute_score(correct_tool, args_correct, extra, missing):
    if not correct_tool:
        return 0.0
    base = 0.5
    if args_correct:
        base += 0.3
    penalty = len(extra) * 0.1 + len(missing) * 0.2
    return max(0, base - penalty)
# --- end of the seed's code ---


cases = json.load(sys.stdin)["cases"]
results = evaluate_tool_selection(ReplayAgent(cases), cases)
metrics = {
    "tool_accuracy": sum(r.correct_tool for r in results) / len(results),
    "args_accuracy": sum(r.args_correct for r in results) / len(results),
    "avg_extra_calls": sum(len(r.extra_tools_called) for r in results) / len(results),
}
json.dump({"results": [asdict(r) for r in results], "metrics": metrics}, sys.stdout)
