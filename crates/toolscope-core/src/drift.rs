//! Schema drift: differences between the tools the agent saw (carried in the traces) and the
//! catalog file the checks use. Checking against a different schema than the agent saw gives
//! false failures, so every difference is listed.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::hashing::{HashMap, HashMapExt};
use crate::model::{Session, ToolDef};

/// What differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DriftKind {
    /// The agent saw a tool the catalog does not have.
    ToolAdded,
    /// The catalog has a tool the agent did not see.
    ToolMissing,
    /// The agent's schema has a property the catalog's does not.
    PropertyAdded,
    /// The catalog's schema has a property the agent's does not.
    PropertyRemoved,
    /// A property has a different type.
    PropertyRetyped,
    /// The required properties differ.
    RequiredChanged,
    /// The tool's description differs.
    DescriptionChanged,
}

/// One difference, with how many sessions saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftItem {
    /// The tool.
    pub tool: String,
    /// What differs.
    pub kind: DriftKind,
    /// The difference in words.
    pub detail: String,
    /// Sessions whose tools show this difference.
    pub sessions: u64,
    /// One of them, to look at: the one with the smallest id.
    pub example_session: String,
}

/// Every difference between the sessions' own tools and the catalog file's.
pub fn compare(sessions: &[Session], catalog: &[ToolDef]) -> Vec<DriftItem> {
    let mut drift = DriftCounter::new(catalog);
    for session in sessions {
        drift.add(session);
    }
    drift.finish()
}

/// [`compare`] one session at a time, for callers that do not keep the sessions.
pub(crate) struct DriftCounter<'c> {
    catalog: &'c [ToolDef],
    items: BTreeMap<Difference, (u64, String)>,
    // Sessions that carry the same list share one allocation: compare each list once. The Arc
    // is kept so that its address is not reused by another list.
    by_tool_set: HashMap<*const Vec<ToolDef>, ListDifferences>,
}

/// A tool list (kept alive) and how it differs from the catalog.
type ListDifferences = (Arc<Vec<ToolDef>>, Vec<Difference>);

/// A tool, how it differs, and the detail.
type Difference = (String, DriftKind, String);

impl<'c> DriftCounter<'c> {
    pub(crate) fn new(catalog: &'c [ToolDef]) -> Self {
        DriftCounter {
            catalog,
            items: BTreeMap::new(),
            by_tool_set: HashMap::new(),
        }
    }

    pub(crate) fn add(&mut self, session: &Session) {
        let Some(tools) = &session.tools else {
            return;
        };
        let catalog = self.catalog;
        let (_, differences) = self
            .by_tool_set
            .entry(Arc::as_ptr(tools))
            .or_insert_with(|| (Arc::clone(tools), differences(tools, catalog)));
        for difference in differences.iter() {
            let entry = self
                .items
                .entry(difference.clone())
                .or_insert_with(|| (0, session.session_id.clone()));
            entry.0 += 1;
            // The smallest id, not the first read: the same example however the sessions were
            // ordered or split into parts (crate::merge).
            if session.session_id < entry.1 {
                entry.1.clone_from(&session.session_id);
            }
        }
    }

    pub(crate) fn finish(self) -> Vec<DriftItem> {
        self.items
            .into_iter()
            .map(
                |((tool, kind, detail), (sessions, example_session))| DriftItem {
                    tool,
                    kind,
                    detail,
                    sessions,
                    example_session,
                },
            )
            .collect()
    }
}

fn differences(seen: &[ToolDef], catalog: &[ToolDef]) -> Vec<(String, DriftKind, String)> {
    let seen: BTreeMap<&str, &ToolDef> =
        crate::sort::collect_by_insert(seen.iter().map(|t| (t.name.as_str(), t)));
    let known: BTreeMap<&str, &ToolDef> =
        crate::sort::collect_by_insert(catalog.iter().map(|t| (t.name.as_str(), t)));
    let mut out = Vec::new();
    let mut push = |tool: &str, kind, detail: String| out.push((tool.to_string(), kind, detail));
    for (name, agent_tool) in &seen {
        let Some(catalog_tool) = known.get(name) else {
            push(
                name,
                DriftKind::ToolAdded,
                format!("the agent saw {name}, which the catalog does not have"),
            );
            continue;
        };
        if agent_tool.description != catalog_tool.description {
            push(
                name,
                DriftKind::DescriptionChanged,
                format!(
                    "description: agent saw {:?}, catalog has {:?}",
                    agent_tool.description.as_deref().unwrap_or(""),
                    catalog_tool.description.as_deref().unwrap_or("")
                ),
            );
        }
        let agent_props = properties(&agent_tool.input_schema);
        let catalog_props = properties(&catalog_tool.input_schema);
        for (property, agent_schema) in &agent_props {
            match catalog_props.get(property) {
                None => push(
                    name,
                    DriftKind::PropertyAdded,
                    format!("property {property} is in the agent's schema only"),
                ),
                Some(catalog_schema) => {
                    let (a, c) = (agent_schema.get("type"), catalog_schema.get("type"));
                    if a != c {
                        push(
                            name,
                            DriftKind::PropertyRetyped,
                            format!(
                                "property {property}: agent's type {}, catalog's {}",
                                a.map_or("(none)".to_string(), Value::to_string),
                                c.map_or("(none)".to_string(), Value::to_string)
                            ),
                        );
                    }
                }
            }
        }
        for property in catalog_props.keys() {
            if !agent_props.contains_key(property) {
                push(
                    name,
                    DriftKind::PropertyRemoved,
                    format!("property {property} is in the catalog's schema only"),
                );
            }
        }
        let (agent_required, catalog_required) = (
            required(&agent_tool.input_schema),
            required(&catalog_tool.input_schema),
        );
        if agent_required != catalog_required {
            push(
                name,
                DriftKind::RequiredChanged,
                format!(
                    "required: agent saw [{}], catalog has [{}]",
                    agent_required.into_iter().collect::<Vec<_>>().join(", "),
                    catalog_required.into_iter().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
    for name in known.keys() {
        if !seen.contains_key(name) {
            push(
                name,
                DriftKind::ToolMissing,
                format!("the catalog has {name}, which the agent did not see"),
            );
        }
    }
    out
}

fn properties(schema: &Value) -> BTreeMap<String, Value> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|map| crate::sort::collect_by_insert(map.iter().map(|(k, v)| (k.clone(), v.clone()))))
        .unwrap_or_default()
}

fn required(schema: &Value) -> BTreeSet<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|items| {
            crate::sort::collect_by_insert(
                items.iter().filter_map(Value::as_str).map(str::to_string),
            )
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, schema: Value, description: Option<&str>) -> ToolDef {
        ToolDef {
            name: name.into(),
            description: description.map(Into::into),
            input_schema: schema,
        }
    }

    #[test]
    fn lists_every_kind_of_difference() {
        let catalog = vec![
            tool(
                "a",
                json!({"properties": {"x": {"type": "string"}, "y": {}}, "required": ["x"]}),
                Some("A"),
            ),
            tool("gone", json!({}), None),
        ];
        let seen = vec![
            tool(
                "a",
                json!({"properties": {"x": {"type": "integer"}, "z": {}}, "required": []}),
                Some("A!"),
            ),
            tool("new", json!({}), None),
        ];
        let session = Session {
            session_id: "s".into(),
            tools: Some(Arc::new(seen)),
            ..Session::default()
        };
        let kinds: Vec<DriftKind> = compare(&[session.clone(), session], &catalog)
            .iter()
            .map(|i| i.kind)
            .collect();
        for kind in [
            DriftKind::ToolAdded,
            DriftKind::ToolMissing,
            DriftKind::PropertyAdded,
            DriftKind::PropertyRemoved,
            DriftKind::PropertyRetyped,
            DriftKind::RequiredChanged,
            DriftKind::DescriptionChanged,
        ] {
            assert!(kinds.contains(&kind), "{kind:?} missing from {kinds:?}");
        }
        assert_eq!(kinds.len(), 7);
    }
}
