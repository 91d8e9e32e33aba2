//! Whether a call's arguments match the labelled ones.
//!
//! Two modes: **exact** (the same JSON value) and **subset** (every labelled key is present with
//! an equal value; extra arguments are allowed).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::checks::values::json_equal;

/// How labelled arguments are compared with the actual ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArgsMode {
    /// The same JSON value.
    #[default]
    Exact,
    /// Every labelled key present with an equal value; more keys allowed.
    Subset,
}

/// Whether `actual` matches `expected` in `mode`.
pub fn args_match(actual: &Value, expected: &Value, mode: ArgsMode) -> bool {
    match mode {
        ArgsMode::Exact => json_equal(actual, expected),
        ArgsMode::Subset => match (actual, expected) {
            (Value::Object(actual), Value::Object(expected)) => {
                expected.iter().all(|(key, value)| {
                    actual
                        .get(key)
                        .is_some_and(|found| json_equal(found, value))
                })
            }
            _ => json_equal(actual, expected),
        },
    }
}

/// Whether every expected `(tool, args)` can be matched to a distinct actual call of that tool
/// with matching arguments, in any order.
pub fn all_matched(
    actual: &[(&str, Option<&Value>)],
    expected: &[(&str, &Value)],
    mode: ArgsMode,
) -> bool {
    let names: Vec<&str> = expected.iter().map(|(tool, _)| *tool).collect();
    all_matched_by(actual, &names, &|index, args| {
        args_match(args, expected[index].1, mode)
    })
}

/// Whether every expected tool can be matched to a distinct actual call of that tool whose
/// arguments `fits(expected index, arguments)`, in any order: a full matching (backtracking),
/// so one call never stands for two expectations.
pub fn all_matched_by(
    actual: &[(&str, Option<&Value>)],
    expected: &[&str],
    fits: &dyn Fn(usize, &Value) -> bool,
) -> bool {
    fn assign(
        index: usize,
        actual: &[(&str, Option<&Value>)],
        expected: &[&str],
        used: &mut Vec<bool>,
        fits: &dyn Fn(usize, &Value) -> bool,
    ) -> bool {
        let Some(&tool) = expected.get(index) else {
            return true;
        };
        for (slot, &(name, value)) in actual.iter().enumerate() {
            if !used[slot] && name == tool && value.is_some_and(|v| fits(index, v)) {
                used[slot] = true;
                if assign(index + 1, actual, expected, used, fits) {
                    return true;
                }
                used[slot] = false;
            }
        }
        false
    }
    let mut used = vec![false; actual.len()];
    assign(0, actual, expected, &mut used, fits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subset_allows_extra_keys_exact_does_not() {
        let actual = json!({"symbol": "AAPL", "currency": "USD"});
        let expected = json!({"symbol": "AAPL"});
        assert!(args_match(&actual, &expected, ArgsMode::Subset));
        assert!(!args_match(&actual, &expected, ArgsMode::Exact));
        assert!(!args_match(&json!({}), &expected, ArgsMode::Subset));
    }

    #[test]
    fn parallel_calls_match_in_any_order() {
        let tsla = json!({"symbol": "TSLA"});
        let ford = json!({"symbol": "F"});
        let actual = [("f", Some(&ford)), ("f", Some(&tsla))];
        assert!(all_matched(
            &actual,
            &[("f", &tsla), ("f", &ford)],
            ArgsMode::Exact
        ));
        assert!(!all_matched(
            &actual,
            &[("f", &tsla), ("f", &tsla)],
            ArgsMode::Exact
        ));
    }
}
