//! Tool definitions: what the agent was told a tool is and takes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One tool as the agent saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// The name the agent calls it by.
    pub name: String,
    /// The description the agent was given, if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    /// JSON Schema of its arguments (`{}` accepts anything).
    pub input_schema: Value,
}
