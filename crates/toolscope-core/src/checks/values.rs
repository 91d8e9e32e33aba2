//! Comparing argument values as JSON values: key order does not matter, and numbers compare by
//! value (`1` equals `1.0`, as in Python).

use serde_json::Value;

use crate::model::Args;

/// Whether two JSON values are equal as JSON.
pub fn json_equal(left: &Value, right: &Value) -> bool {
    deep_equal(left, right, &|left, right| match (left, right) {
        (Value::Number(a), Value::Number(b)) => {
            a == b || matches!((a.as_f64(), b.as_f64()), (Some(x), Some(y)) if x == y)
        }
        _ => left == right,
    })
}

/// Arrays item by item and objects key by key (in any order), everything else by `scalars`.
pub fn deep_equal(left: &Value, right: &Value, scalars: &dyn Fn(&Value, &Value) -> bool) -> bool {
    match (left, right) {
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| deep_equal(x, y, scalars))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, x)| b.get(key).is_some_and(|y| deep_equal(x, y, scalars)))
        }
        _ => scalars(left, right),
    }
}

/// Whether two calls' arguments are the same: as JSON values, or as raw text where they do not
/// decode.
pub fn args_equal(left: &Args, right: &Args) -> bool {
    match (left, right) {
        (Args::Json(a), Args::Json(b)) => json_equal(a, b),
        (Args::Malformed { raw: a, .. }, Args::Malformed { raw: b, .. }) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value_and_keys_by_set() {
        assert!(json_equal(
            &json!({"a": 1, "b": [1.0]}),
            &json!({"b": [1], "a": 1.0})
        ));
        assert!(!json_equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!json_equal(&json!("1"), &json!(1)));
    }

    #[test]
    fn malformed_args_compare_as_text() {
        let raw = |text: &str| Args::Malformed {
            raw: text.into(),
            error: String::new(),
        };
        assert!(args_equal(&raw("{oops"), &raw("{oops")));
        assert!(!args_equal(&raw("{oops"), &Args::Json(json!({}))));
    }
}
