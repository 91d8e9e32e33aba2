//! **order**: a tool was called before a tool it must come after (`must_come_after` rules),
//! optionally with the same value of some arguments (`same_args`).
//!
//! Why: some rules are not expressible in a schema: a refund must follow the order lookup it
//! refunds. Only known tools count as seen, as in the seed.
//!
//! Examples: `step 1: issue_refund called before lookup_order`;
//! `step 3: issue_refund called before lookup_order with the same order_id`.

use serde_json::Value;

use super::problem::{Problem, ProblemKind};
use crate::hashing::{HashMap, HashMapExt, HashSet, HashSetExt};
use crate::inputs::rules::{Prerequisite, Rules};
use crate::model::ToolCall;

/// The known calls seen so far in a session, indexed for the rules: which tools were called, and
/// for each prerequisite that binds arguments, the bound values of each of its calls. Checking a
/// call costs the size of its bound values, not the length of the session (scanning every earlier
/// call made 50,000 calls take minutes).
pub struct Seen<'rules> {
    rules: &'rules Rules,
    tools: HashSet<String>,
    /// By (prerequisite tool, bound argument names): the canonical values of its earlier calls.
    bound: HashMap<(&'rules str, &'rules [String]), HashSet<String>>,
}

impl<'rules> Seen<'rules> {
    /// Nothing seen yet, under `rules`.
    pub fn new(rules: &'rules Rules) -> Self {
        let mut bound = HashMap::new();
        for prerequisite in rules.must_come_after.values().flatten() {
            if !prerequisite.same_args.is_empty() {
                bound.insert(
                    (
                        prerequisite.tool.as_str(),
                        prerequisite.same_args.as_slice(),
                    ),
                    HashSet::new(),
                );
            }
        }
        Seen {
            rules,
            tools: HashSet::new(),
            bound,
        }
    }

    /// Records a known call.
    pub fn push(&mut self, call: &ToolCall) {
        if !self.tools.contains(&call.name) {
            self.tools.insert(call.name.clone());
        }
        for ((tool, names), values) in &mut self.bound {
            if *tool == call.name {
                if let Some(key) = bound_values(call, names) {
                    values.insert(key);
                }
            }
        }
    }

    /// Whether an earlier call meets `prerequisite` for `call`.
    fn meets(&self, prerequisite: &Prerequisite, call: &ToolCall) -> bool {
        if prerequisite.same_args.is_empty() {
            return self.tools.contains(&prerequisite.tool);
        }
        let key = (
            prerequisite.tool.as_str(),
            prerequisite.same_args.as_slice(),
        );
        match (
            self.bound.get(&key),
            bound_values(call, &prerequisite.same_args),
        ) {
            (Some(values), Some(value)) => values.contains(&value),
            _ => false,
        }
    }
}

/// Every rule the call breaks, given the known calls seen before it in the session.
pub fn check(session_id: &str, step: usize, call: &ToolCall, seen: &Seen<'_>) -> Vec<Problem> {
    let Some(prerequisites) = seen.rules.must_come_after.get(&call.name) else {
        return Vec::new();
    };
    prerequisites
        .iter()
        .filter(|prerequisite| !seen.meets(prerequisite, call))
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

/// The call's values of `names` as one canonical text (equal exactly when the values are equal
/// as [`super::values::json_equal`] compares them), or None when it lacks one of them.
fn bound_values(call: &ToolCall, names: &[String]) -> Option<String> {
    let args = call.args.json()?;
    let mut key = String::new();
    for name in names {
        canonical(args.get(name)?, &mut key);
        key.push(',');
    }
    Some(key)
}

/// Writes `value` so that values equal as JSON (numbers by value, keys in any order) write the
/// same text and unequal ones different texts: numbers as the bits of their f64 (every JSON
/// number has one; `-0` is `0`), strings quoted, object keys sorted.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push('n'),
        Value::Bool(flag) => out.push(if *flag { 't' } else { 'f' }),
        Value::Number(number) => {
            let float = number.as_f64().unwrap_or(f64::NAN) + 0.0;
            out.push_str(&format!("#{:x};", float.to_bits()));
        }
        Value::String(text) => out.push_str(&Value::String(text.clone()).to_string()),
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_unstable();
            out.push('{');
            for key in keys {
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(&map[key], out);
                out.push(',');
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::values::json_equal;
    use crate::inputs::rules::rules_from_value;
    use crate::model::Args;
    use proptest::prelude::*;
    use serde_json::json;

    fn call(name: &str, args: serde_json::Value) -> ToolCall {
        ToolCall {
            call_id: None,
            name: name.into(),
            args: Args::Json(args),
        }
    }

    fn seen_after<'rules>(rules: &'rules Rules, calls: &[&ToolCall]) -> Seen<'rules> {
        let mut seen = Seen::new(rules);
        for call in calls {
            seen.push(call);
        }
        seen
    }

    /// The rule as it was checked before the index: any earlier call of the tool with
    /// `json_equal` values of every bound argument.
    fn met_by_scanning(prerequisite: &Prerequisite, call: &ToolCall, seen: &[&ToolCall]) -> bool {
        seen.iter().any(|earlier| {
            earlier.name == prerequisite.tool && prerequisite.same_args.iter().all(|key| {
                let value = |c: &ToolCall| c.args.json().and_then(|args| args.get(key)).cloned();
                matches!((value(earlier), value(call)), (Some(a), Some(b)) if json_equal(&a, &b))
            })
        })
    }

    fn small_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-2i64..3).prop_map(Value::from),
            prop_oneof![Just(-0.0f64), Just(1.0), Just(0.5), Just(2.0)].prop_map(Value::from),
            prop_oneof![Just("a"), Just("1"), Just("")].prop_map(Value::from),
        ];
        leaf.prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                proptest::collection::btree_map(prop_oneof![Just("k"), Just("j")], inner, 0..3)
                    .prop_map(|map| Value::Object(
                        map.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
                    )),
            ]
        })
    }

    proptest! {
        /// Random earlier calls with small values (numbers written as integers and floats, keys
        /// missing or present): the index answers as scanning every earlier call did.
        #[test]
        fn the_index_agrees_with_scanning_every_earlier_call(
            earlier in proptest::collection::vec((any::<bool>(), proptest::option::of(small_value()), proptest::option::of(small_value())), 0..6),
            current in (proptest::option::of(small_value()), proptest::option::of(small_value())),
        ) {
            let rules = rules_from_value(&json!({"must_come_after": {"refund": [
                "lookup", {"tool": "lookup", "same_args": ["a", "b"]}, {"tool": "other", "same_args": ["a"]}]}}))
            .unwrap();
            let args = |a: &Option<Value>, b: &Option<Value>| {
                let mut map = serde_json::Map::new();
                if let Some(a) = a { map.insert("a".into(), a.clone()); }
                if let Some(b) = b { map.insert("b".into(), b.clone()); }
                Value::Object(map)
            };
            let calls: Vec<ToolCall> = earlier
                .iter()
                .map(|(is_lookup, a, b)| call(if *is_lookup { "lookup" } else { "other" }, args(a, b)))
                .collect();
            let refund = call("refund", args(&current.0, &current.1));
            let references: Vec<&ToolCall> = calls.iter().collect();
            let seen = seen_after(&rules, &references);
            for prerequisite in &rules.must_come_after["refund"] {
                prop_assert_eq!(
                    seen.meets(prerequisite, &refund),
                    met_by_scanning(prerequisite, &refund, &references)
                );
            }
        }
    }

    #[test]
    fn binding_needs_the_same_argument_value() {
        let rules = rules_from_value(&json!({"must_come_after": {"refund": [
            {"tool": "lookup", "same_args": ["order_id"]}]}}))
        .unwrap();
        let lookup_a = call("lookup", json!({"order_id": "A"}));
        let refund_b = call("refund", json!({"order_id": "B"}));
        let problems = check("s", 2, &refund_b, &seen_after(&rules, &[&lookup_a]));
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].message,
            "refund called before lookup with the same order_id"
        );
        let refund_a = call("refund", json!({"order_id": "A"}));
        assert!(check("s", 2, &refund_a, &seen_after(&rules, &[&lookup_a])).is_empty());
    }

    #[test]
    fn plain_rule_needs_only_an_earlier_call() {
        let rules = rules_from_value(&json!({"refund": ["lookup"]})).unwrap();
        let refund = call("refund", json!({}));
        assert_eq!(check("s", 1, &refund, &seen_after(&rules, &[])).len(), 1);
        let lookup = call("lookup", json!({}));
        assert!(check("s", 2, &refund, &seen_after(&rules, &[&lookup])).is_empty());
    }
}
