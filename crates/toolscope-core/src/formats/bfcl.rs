//! Berkeley Function Calling Leaderboard data: question files (sessions of user turns, with the
//! candidate functions as tools) and `possible_answer` files (labels). Both are JSON Lines
//! despite their `.json` names; pairs join on `id`.
//!
//! ```json
//! {"id": "parallel_0", "question": [[{"role": "user", "content": "Play Taylor Swift for 20 minutes"}]],
//!  "function": [{"name": "spotify.play", "parameters": {"type": "dict",
//!                "properties": {"artist": {"type": "string"}, "duration": {"type": "integer"}}}}]}
//! {"id": "parallel_0", "ground_truth": [{"spotify.play": {"artist": ["Taylor Swift"], "duration": [20]}}]}
//! ```
//! BFCL's parameter types (`dict`, `float`, `tuple`, `any`, …) are read as JSON Schema's. Java
//! and JavaScript questions (ids `simple_java_*`, `simple_javascript_*`) declare `long`,
//! `HashMap`, `Bigint`, …: BFCL shows the model each of those parameters as a string, and so does
//! the schema read here, keeping the declared type in `"x-bfcl-type"` (items' in
//! `"x-bfcl-items"`, the language in `"x-bfcl-language"`) for the argument check, which converts
//! the strings as BFCL does ([`crate::metrics::bfcl_literals`]). A ground truth lists the
//! acceptable values of each argument (`""` marks one that may be left out); the label keeps them
//! as `acceptable_args`, judged as BFCL's AST checker judges them
//! ([`crate::metrics::acceptable`]), parallel calls in any order.
//! Irrelevance questions are labelled "no call". Multi-turn ground truths (Python call strings
//! per turn) label each turn with its calls and their exact arguments.

use serde_json::{Map, Value};

use super::conversation::Conversation;
use super::native::ToolLists;
use super::odd_record::{holds_nothing, not_of_format};
use super::python_literal::python_literal;
use crate::diagnostic::Diagnostic;
use crate::inputs::labels::{Expected, Label};
use crate::json::{parse_value, Split, MAX_DEPTH};
use crate::metrics::bfcl_literals::Language;
use crate::model::{Origin, Session, NO_TOOL};

/// Whether a record is a BFCL question, possible answer or model result.
pub(crate) fn is_bfcl(value: &Value) -> bool {
    value.get("id").is_some()
        && (value.get("ground_truth").is_some()
            || value.get("question").is_some()
                && (value.get("function").is_some() || value.get("initial_config").is_some())
            || value.get("result").is_some()
                && ["latency", "input_token_count", "output_token_count"]
                    .iter()
                    .any(|key| value.get(*key).is_some()))
}

/// Reads questions and model results as sessions (a result completes its question's session,
/// see [`super::join_bfcl_results`]), and answers as labels; also counts the multi-turn results
/// left out by design (each with a warning), which a file of them is made of.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Session>, Vec<Label>, usize) {
    let mut multi_turn_results = 0;
    let mut sessions = Vec::new();
    let mut labels = Vec::new();
    let mut tool_lists = ToolLists::default();
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let origin = Origin {
            file: file.to_string(),
            line: record.line,
        };
        let error = |message: String| Diagnostic::error(file, Some(record.line), message);
        let Some(id) = value.get("id").and_then(super::id_text) else {
            diagnostics.push(if value.is_object() && !holds_nothing(&value) {
                error("BFCL entry has no \"id\"; left out".into())
            } else {
                let expected = "a BFCL question, possible answer or model result ({\"id\", …})";
                not_of_format(file, record.line, &value, expected)
            });
            continue;
        };
        if let Some(result) = value.get("result") {
            if super::bfcl_results::is_multi_turn(result) {
                multi_turn_results += 1;
            }
            let read = super::bfcl_results::session(file, record.line, &id, result, diagnostics);
            sessions.extend(read);
        } else if let Some(truth) = value.get("ground_truth") {
            match answer_labels(&id, truth, &origin) {
                Ok(found) => labels.extend(found),
                Err(message) => diagnostics.push(error(format!("{id}: {message}; left out"))),
            }
        } else if let Some(question) = value.get("question").and_then(Value::as_array) {
            let mut conversation = Conversation::new(id.clone(), file, record.line);
            if let Some(functions) = value.get("function") {
                let schema = functions_as_schema(functions, Language::of_id(&id));
                match tool_lists.read(&schema.to_string()) {
                    Ok(tools) => conversation.set_tools(Some(tools)),
                    Err(message) => {
                        diagnostics.push(error(format!("{id}: \"function\": {message}")))
                    }
                }
            }
            for turn in question {
                let messages = turn.as_array().map_or(&[][..], Vec::as_slice);
                for message in messages {
                    if message.get("role").and_then(Value::as_str) == Some("user") {
                        let content = message.get("content").cloned().unwrap_or(Value::Null);
                        conversation.user(super::content_text(content));
                    }
                }
            }
            sessions.push(conversation.finish());
            if id.contains("irrelevance") {
                labels.push(label(&id, 0, Vec::new(), Args::Unknown, false, &origin));
            }
        } else {
            diagnostics.push(error(format!(
                "{id}: neither a question (\"question\", \"function\"), a possible answer \
                 (\"ground_truth\") nor a model result (\"result\"); left out"
            )));
        }
    }
    (sessions, labels, multi_turn_results)
}

/// What a BFCL label says of the arguments.
enum Args {
    /// None (irrelevance: no call), or not readable.
    Unknown,
    /// Exact values per call (multi-turn).
    Exact(Vec<Value>),
    /// Acceptable values per parameter per call (single-turn possible answers).
    Acceptable(Vec<Map<String, Value>>),
}

/// A turn's label; `is_ordered` when its calls must come in order (multi-turn), so the first
/// is the expected first call.
fn label(
    id: &str,
    turn: usize,
    tools: Vec<String>,
    args: Args,
    is_ordered: bool,
    origin: &Origin,
) -> Label {
    let expected_tool = match tools.as_slice() {
        [] => Expected::One(NO_TOOL.to_string()),
        [first, ..] if is_ordered => Expected::One(first.clone()),
        [only] => Expected::One(only.clone()),
        // Parallel calls are checked order-free: any of them may come first.
        several => {
            let mut set: Vec<String> = Vec::new();
            for tool in several {
                if !set.contains(tool) {
                    set.push(tool.clone());
                }
            }
            if set.len() == 1 {
                Expected::One(set.remove(0))
            } else {
                Expected::AnyOf(set)
            }
        }
    };
    let (expected_args_list, acceptable_args) = match args {
        Args::Unknown => (None, None),
        Args::Exact(list) => (Some(list), None),
        Args::Acceptable(list) => (None, Some(list)),
    };
    Label {
        session_id: id.to_string(),
        turn,
        expected_args: None,
        expected_tool,
        should_not_call: Vec::new(),
        expected_tools: Some(tools),
        expected_args_list,
        acceptable_args,
        task_success: None,
        origin: origin.clone(),
    }
}

/// Labels from a ground truth: one list of `{name: {param: [acceptable, ...]}}` (single turn), or
/// one list of Python call strings per turn (multi-turn).
fn answer_labels(id: &str, truth: &Value, origin: &Origin) -> Result<Vec<Label>, String> {
    let Some(entries) = truth.as_array() else {
        return Err("\"ground_truth\" must be a list".into());
    };
    if entries.iter().all(Value::is_array) && !entries.is_empty() {
        return entries
            .iter()
            .enumerate()
            .map(|(turn, calls)| {
                let mut tools = Vec::new();
                let mut args = Vec::new();
                for call in calls.as_array().into_iter().flatten() {
                    let text = call.as_str().ok_or("a multi-turn call is a string")?;
                    let (name, call_args) = parse_call(text)
                        .ok_or_else(|| format!("turn {turn}: cannot read the call {text:?}"))?;
                    tools.push(name);
                    args.push(call_args);
                }
                let args = match args.into_iter().collect::<Option<Vec<Value>>>() {
                    Some(args) => Args::Exact(args),
                    None => Args::Unknown,
                };
                Ok(label(id, turn, tools, args, true, origin))
            })
            .collect();
    }
    let mut tools = Vec::new();
    let mut args = Vec::new();
    const SHAPE: &str = "an expected call is {\"name\": {\"param\": [acceptable values]}}";
    for entry in entries {
        let Some((name, Value::Object(params))) =
            entry.as_object().and_then(|map| map.iter().next())
        else {
            return Err(SHAPE.into());
        };
        if !params.values().all(Value::is_array) {
            return Err(format!("{name}: {SHAPE}"));
        }
        tools.push(name.clone());
        args.push(params.clone());
    }
    Ok(vec![label(
        id,
        0,
        tools,
        Args::Acceptable(args),
        false,
        origin,
    )])
}

/// A Python call string `name(key=value, ...)`: its name, and its keyword arguments (None when
/// it has positional ones, whose parameter names only the function docs know).
pub(crate) fn parse_call(text: &str) -> Option<(String, Option<Value>)> {
    let open = text.find('(')?;
    let name = text[..open].trim().to_string();
    let inner = text[open + 1..].trim_end().strip_suffix(')')?;
    let mut entries = Vec::new();
    for argument in split_arguments(inner)? {
        let key_length = argument
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(argument.len());
        let after = argument[key_length..].trim_start();
        match after.strip_prefix('=') {
            Some(value) if key_length > 0 && !value.starts_with('=') => {
                entries.push(format!("'{}': {}", &argument[..key_length], value.trim()));
            }
            _ => return Some((name, None)),
        }
    }
    Some((name, python_literal(&format!("{{{}}}", entries.join(", ")))))
}

/// The arguments of a call, split at the commas outside strings and brackets.
pub(crate) fn split_arguments(inner: &str) -> Option<Vec<&str>> {
    let mut arguments = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (position, c) in inner.char_indices() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(open) if c == open => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth = depth.checked_sub(1)?,
                ',' if depth == 0 => {
                    arguments.push(inner[start..position].trim());
                    start = position + 1;
                }
                _ => {}
            },
        }
    }
    let last = inner[start..].trim();
    if !last.is_empty() {
        arguments.push(last);
    }
    Some(arguments)
}

/// BFCL function docs (`[{"name", "description", "parameters"}]`) with JSON Schema type names,
/// as a catalog or a session's `tools` reads them; a Java or JavaScript question's parameters
/// are strings, as BFCL shows them to the model.
pub fn functions_as_schema(functions: &Value, language: Option<Language>) -> Value {
    let mut converted = functions.clone();
    for function in converted.as_array_mut().into_iter().flatten() {
        if let Some(parameters) = function.get_mut("parameters") {
            if let Some(language) = language {
                as_strings(parameters, language);
            }
            json_schema_types(parameters, 0);
        }
    }
    converted
}

/// BFCL's `_func_doc_language_specific_pre_processing`: every parameter a string; here with its
/// declared type (and its items') kept for the argument check.
fn as_strings(parameters: &mut Value, language: Language) {
    let Some(map) = parameters.as_object_mut() else {
        return;
    };
    map.insert("x-bfcl-language".into(), language.name().into());
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        return;
    };
    for property in properties.values_mut() {
        let Some(property) = property.as_object_mut() else {
            continue;
        };
        if let Some(declared) = property.remove("type") {
            property.insert("x-bfcl-type".into(), declared);
        }
        if let Some(items) = property.remove("items") {
            if let Some(items_type) = items.get("type") {
                property.insert("x-bfcl-items".into(), items_type.clone());
            }
        }
        property.remove("properties");
        property.insert("type".into(), "string".into());
    }
}

/// BFCL's (and Java's, JavaScript's) type names as JSON Schema's; `any` accepts anything.
fn json_schema_types(schema: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::String(name)) = map.get("type") {
        let json_type = match name.as_str() {
            "dict" | "HashMap" | "object" => Some("object"),
            "float" | "double" | "number" => Some("number"),
            "tuple" | "ArrayList" | "Array" | "array" | "list" => Some("array"),
            "integer" | "int" | "long" => Some("integer"),
            "String" | "string" | "char" => Some("string"),
            "Boolean" | "boolean" | "bool" => Some("boolean"),
            _ => None,
        };
        match json_type {
            Some(json_type) => {
                map.insert("type".into(), Value::from(json_type));
            }
            None => {
                map.remove("type");
            }
        }
    }
    for key in ["properties"] {
        if let Some(Value::Object(properties)) = map.get_mut(key) {
            for property in properties.values_mut() {
                json_schema_types(property, depth + 1);
            }
        }
    }
    if let Some(items) = map.get_mut("items") {
        json_schema_types(items, depth + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_call_strings_give_their_keyword_arguments() {
        assert_eq!(
            parse_call("mv(source='final_report.pdf', destination='temp')"),
            Some((
                "mv".into(),
                Some(json!({"source": "final_report.pdf", "destination": "temp"}))
            ))
        );
        assert_eq!(
            parse_call("grep(file_name='a, b.txt',pattern='x=(1)')"),
            Some((
                "grep".into(),
                Some(json!({"file_name": "a, b.txt", "pattern": "x=(1)"}))
            ))
        );
        assert_eq!(
            parse_call("ls(a=True)"),
            Some(("ls".into(), Some(json!({"a": true}))))
        );
        assert_eq!(
            parse_call("sort('final_report.pdf')"),
            Some(("sort".into(), None))
        );
        assert_eq!(parse_call("pwd()"), Some(("pwd".into(), Some(json!({})))));
    }

    #[test]
    fn possible_answers_become_acceptable_args() {
        let origin = Origin::default();
        let truth = json!([{"f": {"base": [10], "unit": ["", "units"]}}, {"g": {}}]);
        let labels = answer_labels("parallel_multiple_0", &truth, &origin).unwrap();
        assert_eq!(
            labels[0].expected_tools.as_deref(),
            Some(&["f".to_string(), "g".into()][..])
        );
        let acceptable = labels[0].acceptable_args.as_ref().unwrap();
        assert_eq!(acceptable[0]["unit"], json!(["", "units"]));
        assert!(answer_labels("x", &json!([{"f": {"base": 10}}]), &origin).is_err());
    }

    #[test]
    fn java_parameters_are_strings_that_keep_their_declared_type() {
        let functions = json!([{"name": "Cache.put", "parameters": {"type": "dict",
            "properties": {"ids": {"type": "ArrayList", "items": {"type": "long"}},
                           "ttl": {"type": "long"}}, "required": ["ids"]}}]);
        let schema = functions_as_schema(&functions, Language::of_id("simple_java_4"));
        let parameters = &schema[0]["parameters"];
        assert_eq!(parameters["type"], "object");
        assert_eq!(parameters["x-bfcl-language"], "java");
        assert_eq!(
            parameters["properties"]["ids"],
            json!({"type": "string", "x-bfcl-type": "ArrayList", "x-bfcl-items": "long"})
        );
        assert_eq!(parameters["required"], json!(["ids"]));
        let python = functions_as_schema(&functions, Language::of_id("simple_python_4"));
        assert_eq!(
            python[0]["parameters"]["properties"]["ttl"]["type"],
            "integer"
        );
    }
}
