//! Whether a call's arguments match the labelled ones.
//!
//! Two modes: **exact** (the same JSON value) and **subset** (every labelled key is present with
//! an equal value; extra arguments are allowed).

use std::collections::BTreeMap;

use pathfinding::kuhn_munkres::kuhn_munkres;
use pathfinding::matrix::Matrix;
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

/// Most (expected call, actual call) pairs of one tool that one turn's matching compares. The
/// assignment below is cubic in the calls of a tool; past this (256 expected calls of one tool
/// against 256 calls of it, far beyond any real turn) the turn's arguments are not judged.
pub const MAX_MATCHED_PAIRS: usize = 1 << 16;

/// Whether every expected `(tool, args)` can be matched to a distinct actual call of that tool
/// with matching arguments, in any order; None when the turn is too large to decide
/// ([`MAX_MATCHED_PAIRS`]).
pub fn all_matched(
    actual: &[(&str, Option<&Value>)],
    expected: &[(&str, &Value)],
    mode: ArgsMode,
) -> Option<bool> {
    let names: Vec<&str> = expected.iter().map(|(tool, _)| *tool).collect();
    all_matched_by(actual, &names, &|index, args| {
        args_match(args, expected[index].1, mode)
    })
}

/// Whether every expected tool can be matched to a distinct actual call of that tool whose
/// arguments `fits(expected index, arguments)`, in any order, so that one call never stands for
/// two expectations. None when one tool's expected × actual calls exceed [`MAX_MATCHED_PAIRS`]
/// and no other tool already decides the answer.
///
/// This is a bipartite matching, solved per tool: first come, first served when that already
/// places every expected call (the usual case), else an assignment by Kuhn-Munkres with weight
/// 1 where a call fits, whose total is the largest number of expected calls that can be placed.
/// Polynomial where trying every pairing is factorial (a dozen identical calls took minutes).
pub fn all_matched_by(
    actual: &[(&str, Option<&Value>)],
    expected: &[&str],
    fits: &dyn Fn(usize, &Value) -> bool,
) -> Option<bool> {
    // Per tool: the expected calls (rows) and the arguments of its calls that decode (columns).
    let mut tools: BTreeMap<&str, (Vec<usize>, Vec<&Value>)> = BTreeMap::new();
    for (index, &tool) in expected.iter().enumerate() {
        tools.entry(tool).or_default().0.push(index);
    }
    for &(name, args) in actual {
        if let (Some((_, columns)), Some(args)) = (tools.get_mut(name), args) {
            columns.push(args);
        }
    }
    let mut is_too_large = false;
    for (rows, columns) in tools.values() {
        if rows.len() > columns.len() {
            return Some(false);
        }
        if rows.len().saturating_mul(columns.len()) > MAX_MATCHED_PAIRS {
            is_too_large = true;
            continue;
        }
        if !tool_matched(rows, columns, fits) {
            return Some(false);
        }
    }
    (!is_too_large).then_some(true)
}

/// Whether each expected call in `rows` gets its own call among `columns`.
fn tool_matched(rows: &[usize], columns: &[&Value], fits: &dyn Fn(usize, &Value) -> bool) -> bool {
    // Each comparison is made once, when first needed: first come, first served usually places
    // every expected call after a few of them, and the whole table is filled only when it fails.
    let mut compared: Vec<Option<bool>> = vec![None; rows.len() * columns.len()];
    let mut fit = |row: usize, column: usize| {
        *compared[row * columns.len() + column]
            .get_or_insert_with(|| fits(rows[row], columns[column]))
    };
    let mut used = vec![false; columns.len()];
    let first_come_first_served = (0..rows.len()).all(|row| {
        let free = (0..columns.len()).find(|&column| !used[column] && fit(row, column));
        free.inspect(|&column| used[column] = true).is_some()
    });
    if first_come_first_served {
        return true;
    }
    let fitting: Vec<Vec<bool>> = (0..rows.len())
        .map(|row| (0..columns.len()).map(|column| fit(row, column)).collect())
        .collect();
    if fitting.iter().any(|fits_row| !fits_row.contains(&true)) {
        // An expected call that no call fits: no assignment can place it.
        return false;
    }
    let weights = Matrix::from_rows(
        fitting
            .iter()
            .map(|fits_row| fits_row.iter().map(|&fits| i64::from(fits))),
    );
    // `from_rows` only fails on rows of different lengths, which these cannot have.
    weights.is_ok_and(|weights| kuhn_munkres(&weights).0 == rows.len() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
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
        assert_eq!(
            all_matched(&actual, &[("f", &tsla), ("f", &ford)], ArgsMode::Exact),
            Some(true)
        );
        assert_eq!(
            all_matched(&actual, &[("f", &tsla), ("f", &tsla)], ArgsMode::Exact),
            Some(false)
        );
    }

    /// The matcher this module had before: every pairing tried, factorial in the calls.
    fn matched_by_backtracking(
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
        assign(0, actual, expected, &mut vec![false; actual.len()], fits)
    }

    /// A small object from (key, value) pairs over three keys and three values.
    fn small_object(pairs: &[(usize, u8)]) -> Value {
        Value::Object(
            pairs
                .iter()
                .map(|&(key, value)| (["a", "b", "c"][key].to_string(), json!(value)))
                .collect(),
        )
    }

    proptest! {
        /// What matches exactly matches as a subset, argument by argument and for a whole turn:
        /// scoring leaves the subset comparison out when the exact one says yes.
        #[test]
        fn exact_matches_are_subset_matches(
            calls in proptest::collection::vec(proptest::collection::vec((0..3usize, 0..3u8), 0..3), 0..4),
            expectations in proptest::collection::vec(proptest::collection::vec((0..3usize, 0..3u8), 0..3), 0..4),
        ) {
            let actual_values: Vec<Value> = calls.iter().map(|pairs| small_object(pairs)).collect();
            let expected_values: Vec<Value> =
                expectations.iter().map(|pairs| small_object(pairs)).collect();
            for actual in &actual_values {
                for expected in &expected_values {
                    if args_match(actual, expected, ArgsMode::Exact) {
                        prop_assert!(args_match(actual, expected, ArgsMode::Subset));
                    }
                }
            }
            let actual: Vec<(&str, Option<&Value>)> =
                actual_values.iter().map(|value| ("f", Some(value))).collect();
            let expected: Vec<(&str, &Value)> =
                expected_values.iter().map(|value| ("f", value)).collect();
            if all_matched(&actual, &expected, ArgsMode::Exact) == Some(true) {
                prop_assert_eq!(all_matched(&actual, &expected, ArgsMode::Subset), Some(true));
            }
        }

        /// Random turns of up to 7 calls of 2 tools whose arguments are small numbers, against up
        /// to 7 expected calls, each fitting a random set of values: the assignment gives the
        /// backtracking matcher's verdict every time.
        #[test]
        fn assignment_agrees_with_trying_every_pairing(
            calls in proptest::collection::vec((0..2usize, proptest::option::weighted(0.9, 0..4u64)), 0..7),
            expectations in proptest::collection::vec((0..2usize, 0..16u8), 0..7),
        ) {
            let tools = ["a", "b"];
            let values: Vec<Option<Value>> = calls.iter().map(|(_, value)| value.map(Value::from)).collect();
            let actual: Vec<(&str, Option<&Value>)> = calls
                .iter()
                .zip(&values)
                .map(|((tool, _), value)| (tools[*tool], value.as_ref()))
                .collect();
            let expected: Vec<&str> = expectations.iter().map(|(tool, _)| tools[*tool]).collect();
            // Expected call `index` fits the values whose bit is set in its mask.
            let fits = |index: usize, args: &Value| {
                args.as_u64().is_some_and(|value| expectations[index].1 >> value & 1 == 1)
            };
            prop_assert_eq!(
                all_matched_by(&actual, &expected, &fits),
                Some(matched_by_backtracking(&actual, &expected, &fits))
            );
        }
    }

    #[test]
    fn many_identical_calls_one_expectation_short_are_decided_at_once() {
        // Backtracking tried 24! pairings here before saying no.
        let same = json!({"q": 1});
        let other = json!({"q": 2});
        let actual = vec![("f", Some(&same)); 24];
        let mut expected = vec![("f", &same); 23];
        expected.push(("f", &other));
        assert_eq!(
            all_matched(&actual, &expected, ArgsMode::Exact),
            Some(false)
        );
        expected.pop();
        expected.push(("f", &same));
        assert_eq!(all_matched(&actual, &expected, ArgsMode::Exact), Some(true));
    }

    #[test]
    fn a_turn_past_the_pair_limit_is_not_judged_unless_another_tool_decides() {
        let args = json!({});
        let unmatched = json!({"x": 1});
        let side = (MAX_MATCHED_PAIRS as f64).sqrt() as usize + 1;
        let mut actual = vec![("f", Some(&args)); side];
        let mut expected = vec![("f", &args); side];
        assert_eq!(all_matched(&actual, &expected, ArgsMode::Exact), None);
        actual.push(("g", Some(&args)));
        expected.push(("g", &unmatched));
        assert_eq!(
            all_matched(&actual, &expected, ArgsMode::Exact),
            Some(false)
        );
    }

    #[test]
    fn first_come_first_served_is_not_the_last_word() {
        // The first expected call takes the only call the second one fits, first come first
        // served; the assignment swaps them.
        let one = json!(1);
        let two = json!(2);
        let actual = [("f", Some(&one)), ("f", Some(&two))];
        let fits = |index: usize, args: &Value| index == 0 || args == &json!(1);
        assert_eq!(all_matched_by(&actual, &["f", "f"], &fits), Some(true));
    }
}
