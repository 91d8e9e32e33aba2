//! Ordering rules: tools that must come after others in a session.
//!
//! `{"must_come_after": {"issue_refund": ["lookup_order"]}}` as in the seed, or the bare dict.
//! An entry may bind arguments: `{"tool": "lookup_order", "same_args": ["order_id"]}` asks for
//! an earlier `lookup_order` call with the same `order_id` as this `issue_refund` call.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::Diagnostic;

/// A tool that must have been called earlier in the session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prerequisite {
    /// The earlier tool.
    pub tool: String,
    /// Arguments whose values the earlier call must share with this one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_args: Vec<String>,
}

/// All ordering rules.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// For each tool, the tools that must come before it.
    pub must_come_after: BTreeMap<String, Vec<Prerequisite>>,
}

impl Rules {
    /// Adds another file's rules to these.
    pub fn merge(&mut self, other: Rules) {
        for (tool, prerequisites) in other.must_come_after {
            self.must_come_after
                .entry(tool)
                .or_default()
                .extend(prerequisites);
        }
    }
}

/// Reads a rules file; entries it cannot read become diagnostics.
pub fn read_rules_file(file: &str, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> Rules {
    let (_, values) = super::read_values(file, bytes, diagnostics);
    let mut rules = Rules::default();
    for (line, value) in values {
        match rules_from_value(&value) {
            Ok(found) => rules.merge(found),
            Err(message) => diagnostics.push(Diagnostic::error(file, Some(line), message)),
        }
    }
    rules
}

/// Reads rules from `{"must_come_after": {...}}` or the bare dict.
pub fn rules_from_value(value: &Value) -> Result<Rules, String> {
    let map = match value.get("must_come_after") {
        Some(inner) => inner,
        None => value,
    };
    let Some(map) = map.as_object() else {
        return Err("rules are {\"must_come_after\": {tool: [earlier, ...]}}".to_string());
    };
    let mut rules = Rules::default();
    for (tool, earlier) in map {
        let Some(entries) = earlier.as_array() else {
            return Err(format!(
                "rule for {tool:?}: expected a list of earlier tools"
            ));
        };
        let prerequisites = entries
            .iter()
            .map(|entry| prerequisite(tool, entry))
            .collect::<Result<Vec<_>, _>>()?;
        rules.must_come_after.insert(tool.clone(), prerequisites);
    }
    Ok(rules)
}

fn prerequisite(tool: &str, entry: &Value) -> Result<Prerequisite, String> {
    match entry {
        Value::String(name) => Ok(Prerequisite {
            tool: name.clone(),
            same_args: Vec::new(),
        }),
        Value::Object(_) => serde_json::from_value(entry.clone())
            .map_err(|error| format!("rule for {tool:?}: {error}")),
        _ => Err(format!(
            "rule for {tool:?}: an earlier tool is a name or {{\"tool\", \"same_args\"}}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_seeds_rules_and_bindings() {
        let rules = rules_from_value(&json!({"must_come_after": {
            "issue_refund": ["lookup_order", {"tool": "verify", "same_args": ["order_id"]}]
        }}))
        .unwrap();
        let refund = &rules.must_come_after["issue_refund"];
        assert_eq!(refund[0].tool, "lookup_order");
        assert!(refund[0].same_args.is_empty());
        assert_eq!(refund[1].same_args, ["order_id"]);
    }

    #[test]
    fn reads_the_bare_dict() {
        let rules = rules_from_value(&json!({"b": ["a"]})).unwrap();
        assert_eq!(rules.must_come_after["b"][0].tool, "a");
    }

    #[test]
    fn rejects_a_rule_that_is_not_a_list() {
        assert!(rules_from_value(&json!({"b": "a"})).is_err());
    }
}
