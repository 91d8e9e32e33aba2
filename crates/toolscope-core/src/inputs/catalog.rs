//! Tool catalogs: the tools an agent may call and the JSON Schema of each one's arguments.
//!
//! Accepted shapes (the file, or a session's own `tools`):
//! - the seed's `TOOLS` dict: `{"lookup_order": {"type": "object", ...}, ...}`;
//! - a list (or `{"tools": [...]}`) of definitions in any of these shapes:
//!   native/Anthropic `{"name", "description", "input_schema"}`, MCP `{"name", "inputSchema"}`,
//!   OpenAI Chat `{"type": "function", "function": {"name", "description", "parameters"}}`,
//!   OpenAI Responses `{"type": "function", "name", "parameters"}`;
//! - one such definition on its own.

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::model::ToolDef;

/// Reads a catalog file. Bad entries become diagnostics; the good ones are returned.
pub fn read_catalog_file(
    file: &str,
    bytes: &[u8],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<ToolDef> {
    let (_, values) = super::read_values(file, bytes, diagnostics);
    let mut tools = Vec::new();
    for (line, value) in values {
        match tools_from_value(&value) {
            Ok(found) => tools.extend(found),
            Err(message) => diagnostics.push(Diagnostic::error(file, Some(line), message)),
        }
    }
    tools
}

/// Reads tool definitions from any accepted catalog shape.
pub fn tools_from_value(value: &Value) -> Result<Vec<ToolDef>, String> {
    match value {
        Value::Array(items) => items.iter().map(tool_from_definition).collect(),
        Value::Object(map) => {
            if let Some(Value::Array(items)) = map.get("tools") {
                items.iter().map(tool_from_definition).collect()
            } else if is_definition(map) {
                Ok(vec![tool_from_definition(value)?])
            } else {
                tools_from_dict(map)
            }
        }
        _ => Err("a tool catalog is a JSON object or array".to_string()),
    }
}

fn is_definition(map: &Map<String, Value>) -> bool {
    map.get("name").is_some_and(Value::is_string)
        || map.get("function").is_some_and(Value::is_object)
}

fn tools_from_dict(map: &Map<String, Value>) -> Result<Vec<ToolDef>, String> {
    map.iter()
        .map(|(name, schema)| {
            if schema.is_object() || schema.is_boolean() {
                Ok(ToolDef {
                    name: name.clone(),
                    description: None,
                    input_schema: schema.clone(),
                })
            } else {
                Err(format!(
                    "tool {name:?}: its schema must be a JSON object, found {}",
                    kind_of(schema)
                ))
            }
        })
        .collect()
}

/// Reads one tool definition in any accepted shape.
pub fn tool_from_definition(value: &Value) -> Result<ToolDef, String> {
    let Some(map) = value.as_object() else {
        return Err(format!(
            "a tool definition is a JSON object, found {}",
            kind_of(value)
        ));
    };
    // OpenAI Chat Completions nests the definition under "function".
    let map = match map.get("function") {
        Some(Value::Object(inner)) => inner,
        _ => map,
    };
    let Some(name) = map.get("name").and_then(Value::as_str) else {
        return Err("a tool definition has no \"name\"".to_string());
    };
    let schema = [
        "input_schema",
        "parameters",
        "inputSchema",
        "parametersJsonSchema",
    ]
    .iter()
    .find_map(|key| map.get(*key))
    .cloned()
    .unwrap_or_else(|| Value::Object(Map::new()));
    Ok(ToolDef {
        name: name.to_string(),
        description: map
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        input_schema: schema,
    })
}

pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_seeds_tools_dict() {
        let tools = tools_from_value(&json!({
            "lookup_order": {"type": "object"},
            "issue_refund": {"type": "object", "required": ["amount"]}
        }))
        .unwrap();
        let names: Vec<_> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["issue_refund", "lookup_order"]);
    }

    #[test]
    fn reads_openai_anthropic_and_responses_definitions() {
        let tools = tools_from_value(&json!([
            {"type": "function", "function": {"name": "a", "description": "A", "parameters": {"type": "object"}}},
            {"name": "b", "input_schema": {"type": "object", "required": ["x"]}},
            {"type": "function", "name": "c", "parameters": {"type": "string"}}
        ]))
        .unwrap();
        assert_eq!(tools[0].description.as_deref(), Some("A"));
        assert_eq!(tools[1].input_schema["required"], json!(["x"]));
        assert_eq!(tools[2].input_schema, json!({"type": "string"}));
    }

    #[test]
    fn a_dict_entry_that_is_not_a_schema_is_an_error() {
        let error = tools_from_value(&json!({"a": 3})).unwrap_err();
        assert!(error.contains("\"a\""), "{error}");
    }
}
