//! **order**: a tool was called before a tool it must come after (`must_come_after` rules),
//! optionally with the same value of some arguments (`same_args`).
//!
//! Why: some rules are not expressible in a schema: a refund must follow the order lookup it
//! refunds. Only known tools count as seen, as in the seed.
//!
//! Examples: `step 1: issue_refund called before lookup_order`;
//! `step 3: issue_refund called before lookup_order with the same order_id`.

use super::problem::{Problem, ProblemKind};
use super::values::json_equal;
use crate::inputs::rules::{Prerequisite, Rules};
use crate::model::ToolCall;

/// Every rule the call breaks, given the known calls seen before it in the session.
pub fn check(
    session_id: &str,
    step: usize,
    call: &ToolCall,
    rules: &Rules,
    seen: &[&ToolCall],
) -> Vec<Problem> {
    let Some(prerequisites) = rules.must_come_after.get(&call.name) else {
        return Vec::new();
    };
    prerequisites
        .iter()
        .filter(|prerequisite| !is_met(prerequisite, call, seen))
        .map(|prerequisite| {
            let mut message = format!("{} called before {}", call.name, prerequisite.tool);
            if !prerequisite.same_args.is_empty() {
                message.push_str(" with the same ");
                message.push_str(&prerequisite.same_args.join(", "));
            }
            Problem::new(session_id, step, &call.name, ProblemKind::Order, message)
        })
        .collect()
}

fn is_met(prerequisite: &Prerequisite, call: &ToolCall, seen: &[&ToolCall]) -> bool {
    seen.iter().any(|earlier| {
        earlier.name == prerequisite.tool
            && prerequisite.same_args.iter().all(|key| {
                let value = |c: &ToolCall| c.args.json().and_then(|args| args.get(key)).cloned();
                matches!((value(earlier), value(call)), (Some(a), Some(b)) if json_equal(&a, &b))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::rules::rules_from_value;
    use crate::model::Args;
    use serde_json::json;

    fn call(name: &str, args: serde_json::Value) -> ToolCall {
        ToolCall {
            call_id: None,
            name: name.into(),
            args: Args::Json(args),
        }
    }

    #[test]
    fn binding_needs_the_same_argument_value() {
        let rules = rules_from_value(&json!({"must_come_after": {"refund": [
            {"tool": "lookup", "same_args": ["order_id"]}]}}))
        .unwrap();
        let lookup_a = call("lookup", json!({"order_id": "A"}));
        let refund_b = call("refund", json!({"order_id": "B"}));
        let problems = check("s", 2, &refund_b, &rules, &[&lookup_a]);
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].message,
            "refund called before lookup with the same order_id"
        );
        let refund_a = call("refund", json!({"order_id": "A"}));
        assert!(check("s", 2, &refund_a, &rules, &[&lookup_a]).is_empty());
    }

    #[test]
    fn plain_rule_needs_only_an_earlier_call() {
        let rules = rules_from_value(&json!({"refund": ["lookup"]})).unwrap();
        let refund = call("refund", json!({}));
        assert_eq!(check("s", 1, &refund, &rules, &[]).len(), 1);
        assert!(check("s", 2, &refund, &rules, &[&call("lookup", json!({}))]).is_empty());
    }
}
