//! Why a turn's arguments are not exactly what its label says, in words: the first difference
//! from exact labelled arguments, or for acceptable values (BFCL) the reason
//! [`check_acceptable`] gives, per expected call paired first come, first served.

use serde_json::Value;

use super::acceptable::{check_acceptable, schema_for};
use super::args_match::MAX_MATCHED_PAIRS;
use crate::inputs::labels::Label;
use crate::model::{ToolDef, Turn};

/// The first reason the arguments are not exactly what the label says, in words.
pub fn mismatch(
    label: &Label,
    turn: &Turn<'_>,
    actual_tool: &str,
    tools: Option<&[ToolDef]>,
) -> Option<String> {
    if let Some(acceptable) = &label.acceptable_args {
        let expected = label.expected_calls(actual_tool).len();
        if turn.calls.len().saturating_mul(expected) > MAX_MATCHED_PAIRS {
            return Some(format!(
                "the calls do not fit the expected ones; {} calls are too many to say which",
                turn.calls.len()
            ));
        }
        // Each expected call takes the first unused call that fits; the first left without one
        // is explained against the calls of its tool still free.
        let mut used = vec![false; turn.calls.len()];
        for (name, params) in label.expected_calls(actual_tool).iter().zip(acceptable) {
            let free: Vec<usize> = (0..turn.calls.len())
                .filter(|&slot| !used[slot] && &turn.calls[slot].1.name == name)
                .collect();
            let mut reasons = Vec::new();
            let mut fitted = None;
            for &slot in &free {
                let (step, call) = turn.calls[slot];
                let Some(args) = call.args.json() else {
                    reasons.push(format!("call {step}: the arguments are not JSON"));
                    continue;
                };
                match check_acceptable(args, params, schema_for(tools, name), false) {
                    Ok(()) => {
                        fitted = Some(slot);
                        break;
                    }
                    Err(reason) => reasons.push(format!("call {step}: {reason}")),
                }
            }
            match (fitted, reasons.into_iter().next()) {
                (Some(slot), _) => used[slot] = true,
                (None, Some(first)) => return Some(format!("{name}: {first}")),
                (None, None) if turn.calls.iter().any(|(_, call)| &call.name == name) => {
                    return Some(format!("{name}: its calls fit other expected calls"))
                }
                (None, None) => return Some(format!("{name}: not called")),
            }
        }
        return Some("the calls fit only in another pairing than first come, first served".into());
    }
    let expected = label.expected_args.as_ref()?;
    let (step, actual) = turn
        .calls
        .first()
        .map(|(step, call)| (*step, call.args.json()))?;
    let Some(actual) = actual else {
        return Some(format!("call {step}: the arguments are not JSON"));
    };
    Some(format!(
        "call {step}: {}",
        first_difference(actual, expected)
    ))
}

/// The first key whose value differs, is missing or is extra; or the whole value.
fn first_difference(actual: &Value, expected: &Value) -> String {
    let (Value::Object(actual), Value::Object(expected)) = (actual, expected) else {
        return format!("{actual} where {expected} was expected");
    };
    for (key, value) in expected {
        match actual.get(key) {
            None => return format!("{key:?} is missing"),
            Some(found) if !crate::checks::values::json_equal(found, value) => {
                return format!("{key:?} is {found}, expected {value}")
            }
            Some(_) => {}
        }
    }
    match actual.keys().find(|key| !expected.contains_key(*key)) {
        Some(key) => format!("{key:?} is not in the label"),
        None => "the arguments differ".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_names_the_key() {
        use serde_json::json;
        let expected = json!({"order_id": "A1", "reason": "late"});
        assert_eq!(
            first_difference(&json!({"order_id": "A2", "reason": "late"}), &expected),
            "\"order_id\" is \"A2\", expected \"A1\""
        );
        assert_eq!(
            first_difference(&json!({"order_id": "A1"}), &expected),
            "\"reason\" is missing"
        );
        assert_eq!(
            first_difference(
                &json!({"order_id": "A1", "reason": "late", "x": 1}),
                &expected
            ),
            "\"x\" is not in the label"
        );
    }
}
