//! Labels: what tool each turn should have called.
//!
//! JSON Lines (or an array) of
//! `{"session_id", "turn"?: 0, "expected_tool": name | [acceptable, ...] | "none",
//!   "expected_args"?, "should_not_call"?, "expected_tools"?, "expected_args_list"?,
//!   "acceptable_args"?, "task_success"?}`.
//! Without `expected_tool`, the first of `expected_tools` is the expected first call (an empty
//! `expected_tools` means "none").
//!
//! `acceptable_args` states arguments as BFCL does: per parameter a list of acceptable values,
//! `""` among them meaning it may be left out, compared as [`crate::metrics::acceptable`]
//! describes. One object for the one expected call, or a list with one object per
//! `expected_tools` entry (matched in any order):
//! `{"session_id": "s1", "expected_tool": "get_weather",
//!   "acceptable_args": {"city": ["Paris", "Paris, France"], "unit": ["", "celsius"]}}`.

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::task_labels::{is_task_label, task_label_from_value, TaskLabel};
use crate::diagnostic::Diagnostic;
use crate::json::{decode_text, parse_record, parse_value, split_records, Record};
use crate::model::{Origin, NO_TOOL};

/// The tool a turn should have called first: one, or any of a set of acceptable ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Expected {
    /// Exactly this tool ("none" for no call).
    One(String),
    /// Any of these tools; the first stands for the set when none of them was called.
    AnyOf(Vec<String>),
}

impl Expected {
    /// Whether `tool` satisfies the label.
    pub fn accepts(&self, tool: &str) -> bool {
        match self {
            Expected::One(expected) => expected == tool,
            Expected::AnyOf(set) => set.iter().any(|member| member == tool),
        }
    }

    /// The tool that stands for the label when `actual` does not satisfy it.
    pub fn primary(&self) -> &str {
        match self {
            Expected::One(expected) => expected,
            Expected::AnyOf(set) => set.first().map_or(NO_TOOL, String::as_str),
        }
    }
}

/// One labelled turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Label {
    /// The session the turn belongs to.
    pub session_id: String,
    /// 0-based turn index.
    pub turn: usize,
    /// The tool (or set of tools) the turn's first call should be.
    pub expected_tool: Expected,
    /// Arguments the expected call should have (`Some(Value::Null)`: null arguments, as the seed
    /// compares `"expected_args": null`; None: the label states nothing about them).
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "crate::json::keep_null"
    )]
    pub expected_args: Option<Value>,
    /// Tools the turn must not call.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub should_not_call: Vec<String>,
    /// Every call the turn should make, in order (a multiset: repeats count).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expected_tools: Option<Vec<String>>,
    /// Arguments for each of `expected_tools`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expected_args_list: Option<Vec<Value>>,
    /// Acceptable values per parameter for each expected call (BFCL's possible answers).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub acceptable_args: Option<Vec<Map<String, Value>>>,
    /// Whether the task as a whole succeeded.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub task_success: Option<bool>,
    /// Where the label was read from.
    pub origin: Origin,
}

impl Label {
    /// Whether the label states arguments at all (exact, per call, or acceptable values).
    pub fn gives_args(&self) -> bool {
        self.acceptable_args.is_some()
            || self.expected_tools.is_some() && self.expected_args_list.is_some()
            || self.expected_args.is_some()
    }

    /// Every call the turn should make: `expected_tools`, or the single expected tool
    /// (none for "none"). For an acceptable set, `chosen` picks the member that was called.
    pub fn expected_calls(&self, chosen: &str) -> Vec<String> {
        if let Some(tools) = &self.expected_tools {
            return tools.clone();
        }
        let tool = if self.expected_tool.accepts(chosen) {
            chosen
        } else {
            self.expected_tool.primary()
        };
        if tool == NO_TOOL {
            Vec::new()
        } else {
            vec![tool.to_string()]
        }
    }
}

#[derive(Deserialize)]
struct RawLabel {
    #[serde(alias = "id")]
    session_id: Option<Value>,
    turn: Option<usize>,
    expected_tool: Option<Value>,
    // `"expected_args": null` expects null arguments, as the seed compares them; absent states
    // nothing about them.
    #[serde(default, deserialize_with = "crate::json::keep_null")]
    expected_args: Option<Value>,
    #[serde(default)]
    should_not_call: Vec<String>,
    expected_tools: Option<Vec<String>>,
    expected_args_list: Option<Vec<Value>>,
    acceptable_args: Option<Value>,
    task_success: Option<bool>,
    // Only to notice a task label (`is_task_label`), which is read from a `Value` instead.
    #[serde(default)]
    expected_actions: Option<IgnoredAny>,
    #[serde(default)]
    evaluation_criteria: Option<IgnoredAny>,
}

/// What a labels file holds: turn labels and task labels.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LabelSet {
    /// Labels of single turns.
    pub turns: Vec<Label>,
    /// Labels of whole sessions: the actions their task expects.
    pub tasks: Vec<TaskLabel>,
}

impl LabelSet {
    /// How many labels of either kind.
    pub fn len(&self) -> usize {
        self.turns.len() + self.tasks.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Reads a labels file: turn labels, and task labels ([`crate::inputs::task_labels`]). A record
/// that is neither becomes a diagnostic.
pub fn read_labels_file(file: &str, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> LabelSet {
    let text = decode_text(file, bytes, diagnostics);
    let split = split_records(file, &text, diagnostics);
    let mut set = LabelSet::default();
    for record in &split.records {
        match read_label_record(file, record, diagnostics) {
            Some(LabelRecord::Turn(label)) => set.turns.push(label),
            Some(LabelRecord::Task(task)) => set.tasks.push(task),
            None => {}
        }
    }
    set
}

/// The error for a label of a turn its session does not have.
pub(crate) fn turn_out_of_range(label: &Label, turns: usize) -> Diagnostic {
    Diagnostic::error(
        &label.origin.file,
        Some(label.origin.line),
        format!(
            "label for turn {} of session {:?}, which has {turns} turn{} (turns count from 0); not scored",
            label.turn,
            label.session_id,
            if turns == 1 { "" } else { "s" }
        ),
    )
}

/// The warning for a second label of a turn (`earlier` is the one it replaces).
pub(crate) fn second_label(label: &Label, earlier: &Label) -> Diagnostic {
    Diagnostic::warning(
        &label.origin.file,
        Some(label.origin.line),
        format!(
            "a second label for turn {} of session {:?} (first at {}:{}); this one is used",
            label.turn, label.session_id, earlier.origin.file, earlier.origin.line
        ),
    )
}

/// The error for a label of a session the traces do not have.
pub(crate) fn session_not_in_traces(file: &str, line: usize, session_id: &str) -> Diagnostic {
    Diagnostic::error(
        file,
        Some(line),
        format!("label for session {session_id:?}, which is not in the traces; not scored"),
    )
}

/// One record of a labels file, read.
pub(crate) enum LabelRecord {
    /// A turn label.
    Turn(Label),
    /// A task label.
    Task(TaskLabel),
}

/// Reads one record of a labels file; None (and a diagnostic) when it is neither kind of label.
pub(crate) fn read_label_record(
    file: &str,
    record: &Record<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<LabelRecord> {
    let origin = Origin {
        file: file.to_string(),
        line: record.line,
    };
    // The common case straight from the text into the label's fields; anything else (a task
    // label, a field of the wrong type, a record to repair) through a `Value`, as the messages
    // describe it.
    let mut warnings = Vec::new();
    if let Ok(raw) = parse_record::<RawLabel>(file, record, &mut warnings) {
        if raw.expected_actions.is_none() && raw.evaluation_criteria.is_none() {
            diagnostics.append(&mut warnings);
            return match label_from_raw(raw, origin) {
                Ok(label) => Some(LabelRecord::Turn(label)),
                Err(message) => {
                    diagnostics.push(Diagnostic::error(file, Some(record.line), message));
                    None
                }
            };
        }
    }
    let value = parse_value(file, record, diagnostics)?;
    let read = if is_task_label(&value) {
        task_label_from_value(&value, origin).map(LabelRecord::Task)
    } else {
        label_from_value(value, origin).map(LabelRecord::Turn)
    };
    read.map_err(|message| diagnostics.push(Diagnostic::error(file, Some(record.line), message)))
        .ok()
}

/// Reads one label record.
pub fn label_from_value(value: Value, origin: Origin) -> Result<Label, String> {
    let raw: RawLabel =
        serde_json::from_value(value).map_err(|error| format!("not a label: {error}"))?;
    label_from_raw(raw, origin)
}

fn label_from_raw(raw: RawLabel, origin: Origin) -> Result<Label, String> {
    let session_id = match raw.session_id {
        Some(Value::String(id)) => id,
        Some(Value::Number(id)) => id.to_string(),
        _ => return Err("label has no \"session_id\"".to_string()),
    };
    let expected_tool = match raw.expected_tool {
        Some(Value::String(tool)) => Expected::One(tool),
        Some(Value::Array(set)) => {
            let set: Vec<String> = set
                .into_iter()
                .map(|member| match member {
                    Value::String(tool) => Ok(tool),
                    _ => Err("\"expected_tool\" set members must be tool names".to_string()),
                })
                .collect::<Result<_, _>>()?;
            if set.is_empty() {
                return Err("\"expected_tool\" is an empty set".to_string());
            }
            Expected::AnyOf(set)
        }
        Some(Value::Null) | None => match &raw.expected_tools {
            Some(tools) => Expected::One(tools.first().map_or(NO_TOOL, String::as_str).into()),
            None => {
                return Err("label has neither \"expected_tool\" nor \"expected_tools\"".to_string())
            }
        },
        Some(_) => {
            return Err(
                "\"expected_tool\" is a tool name, a list of acceptable names, or \"none\""
                    .to_string(),
            )
        }
    };
    if let (Some(tools), Some(args)) = (&raw.expected_tools, &raw.expected_args_list) {
        if tools.len() != args.len() {
            return Err(format!(
                "\"expected_args_list\" has {} entries for {} \"expected_tools\"",
                args.len(),
                tools.len()
            ));
        }
    }
    // A "none" label has no call whose arguments could be null: there null states nothing.
    let is_none_label = matches!(&expected_tool, Expected::One(tool) if tool == NO_TOOL);
    let expected_args = raw
        .expected_args
        .filter(|args| !(args.is_null() && is_none_label));
    let acceptable_args = raw
        .acceptable_args
        .map(|value| acceptable_args(value, &expected_tool, raw.expected_tools.as_deref()))
        .transpose()?;
    Ok(Label {
        session_id,
        turn: raw.turn.unwrap_or(0),
        expected_tool,
        expected_args,
        should_not_call: raw.should_not_call,
        expected_tools: raw.expected_tools,
        expected_args_list: raw.expected_args_list,
        acceptable_args,
        task_success: raw.task_success,
        origin,
    })
}

/// `acceptable_args`: one object for a single expected call, or one per `expected_tools`.
fn acceptable_args(
    value: Value,
    expected_tool: &Expected,
    expected_tools: Option<&[String]>,
) -> Result<Vec<Map<String, Value>>, String> {
    let calls = match value {
        Value::Object(one) => vec![Value::Object(one)],
        Value::Array(list) => list,
        _ => return Err("\"acceptable_args\" is an object or a list of objects".to_string()),
    };
    let wanted = match expected_tools {
        Some(tools) => tools.len(),
        None if expected_tool.primary() == NO_TOOL => 0,
        None => 1,
    };
    if calls.len() != wanted {
        return Err(format!(
            "\"acceptable_args\" has {} entries for {wanted} expected call{}",
            calls.len(),
            if wanted == 1 { "" } else { "s" }
        ));
    }
    calls
        .into_iter()
        .map(|call| match call {
            Value::Object(params)
                if params
                    .values()
                    .all(|values| matches!(values, Value::Array(_))) =>
            {
                Ok(params)
            }
            _ => Err(
                "each \"acceptable_args\" entry maps a parameter to a list of acceptable values"
                    .to_string(),
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn label(value: Value) -> Result<Label, String> {
        label_from_value(value, Origin::default())
    }

    #[test]
    fn reads_one_tool_a_set_and_none() {
        let one = label(json!({"session_id": "s", "expected_tool": "a"})).unwrap();
        assert_eq!(one.expected_tool, Expected::One("a".into()));
        assert_eq!(one.turn, 0);
        let set =
            label(json!({"session_id": "s", "turn": 2, "expected_tool": ["a", "b"]})).unwrap();
        assert!(set.expected_tool.accepts("b"));
        assert_eq!(set.expected_tool.primary(), "a");
        let none = label(json!({"session_id": "s", "expected_tool": "none"})).unwrap();
        assert!(none.expected_calls("x").is_empty());
    }

    /// Issue 9: serde's `Option<Value>` read `"expected_args": null` as absent, so a label
    /// expecting null arguments (the seed compares `args == None`) judged no arguments at all.
    #[test]
    fn null_expected_args_expect_null_and_absent_ones_state_nothing() {
        let null = label(json!({"session_id": "s", "expected_tool": "a", "expected_args": null}));
        assert_eq!(null.unwrap().expected_args, Some(Value::Null));
        let absent = label(json!({"session_id": "s", "expected_tool": "a"}));
        assert_eq!(absent.unwrap().expected_args, None);
        let none =
            label(json!({"session_id": "s", "expected_tool": "none", "expected_args": null}));
        assert_eq!(none.unwrap().expected_args, None);
        // The label survives a round trip through the report's JSON.
        let null =
            label(json!({"session_id": "s", "expected_tool": "a", "expected_args": null})).unwrap();
        let again: Label = serde_json::from_value(serde_json::to_value(&null).unwrap()).unwrap();
        assert_eq!(again, null);
    }

    #[test]
    fn expected_tools_stand_in_for_a_missing_expected_tool() {
        let multi = label(json!({"session_id": "s", "expected_tools": ["f", "f"],
            "expected_args_list": [{"a": 1}, {"a": 2}]}))
        .unwrap();
        assert_eq!(multi.expected_tool, Expected::One("f".into()));
        assert_eq!(multi.expected_calls("f"), ["f", "f"]);
    }

    #[test]
    fn a_label_without_a_session_or_a_tool_is_an_error() {
        assert!(label(json!({"expected_tool": "a"}))
            .unwrap_err()
            .contains("session_id"));
        assert!(label(json!({"session_id": "s"}))
            .unwrap_err()
            .contains("expected_tool"));
        assert!(label(json!({"session_id": "s", "expected_tool": 3})).is_err());
    }

    #[test]
    fn acceptable_args_are_one_object_or_one_per_expected_call() {
        let one = label(json!({"session_id": "s", "expected_tool": "f",
            "acceptable_args": {"a": [1, 1.5], "b": ["", "x"]}}))
        .unwrap();
        assert_eq!(one.acceptable_args.unwrap()[0]["b"], json!(["", "x"]));
        let two = label(json!({"session_id": "s", "expected_tools": ["f", "g"],
            "acceptable_args": [{"a": [1]}, {}]}))
        .unwrap();
        assert_eq!(two.acceptable_args.unwrap().len(), 2);
        let error = label(json!({"session_id": "s", "expected_tools": ["f", "g"],
            "acceptable_args": {"a": [1]}}))
        .unwrap_err();
        assert!(error.contains("1 entries for 2 expected calls"), "{error}");
        let error = label(json!({"session_id": "s", "expected_tool": "f",
            "acceptable_args": {"a": 1}}))
        .unwrap_err();
        assert!(error.contains("list of acceptable values"), "{error}");
    }

    #[test]
    fn mismatched_args_list_is_an_error() {
        let error = label(json!({"session_id": "s", "expected_tools": ["f"],
            "expected_args_list": [{}, {}]}))
        .unwrap_err();
        assert!(error.contains("2 entries"), "{error}");
    }

    /// Every record read straight into the label's fields gives what reading it through a
    /// `Value` gives, and a record the direct read refuses still gets the `Value` path's words.
    #[test]
    fn the_direct_read_agrees_with_the_value_path() {
        let file = concat!(
            r#"{"session_id": "s1", "turn": 1, "expected_tool": ["a", "b"], "expected_args": null}"#,
            "\n",
            r#"{"session_id": 7, "expected_tools": ["a", "b"], "expected_args_list": [{"x": 1}, {}]}"#,
            "\n",
            r#"{"session_id": "s2", "expected_tool": "a", "expected_tool": "b"}"#,
            "\n",
            r#"{"session_id": "s3", "turn": "2", "expected_tool": "a"}"#,
            "\n",
            r#"{"session_id": "s4", "expected_tool": "a", "expected_args": {"n": NaN}}"#,
            "\n",
            r#"{"session_id": "s5", "expected_actions": [{"name": "a"}]}"#,
            "\n",
            r#"{"id": "s6", "expected_tool": "none", "should_not_call": ["x"]}"#,
            "\n",
        );
        let mut diagnostics = Vec::new();
        let set = read_labels_file("labels.jsonl", file.as_bytes(), &mut diagnostics);
        let mut expected = Vec::new();
        for (index, line) in file.lines().enumerate() {
            let origin = Origin {
                file: "labels.jsonl".into(),
                line: index + 1,
            };
            if let Ok(value) = serde_json::from_str::<Value>(line) {
                if !is_task_label(&value) {
                    if let Ok(label) = label_from_value(value, origin) {
                        expected.push(label);
                    }
                }
            }
        }
        // The NaN record is repaired (null) and read; serde_json alone refuses it.
        assert_eq!(set.turns.len(), expected.len() + 1);
        let repaired = set.turns.iter().position(|l| l.session_id == "s4").unwrap();
        let mut read = set.turns.clone();
        read.remove(repaired);
        assert_eq!(read, expected);
        assert_eq!(expected[2].expected_tool, Expected::One("b".into()));
        assert_eq!(set.tasks.len(), 1);
        let messages: Vec<String> = diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.line.unwrap_or(0), d.message))
            .collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0].starts_with("4: not a label: invalid type: string \"2\""),
            "{messages:?}"
        );
        assert!(messages[1].starts_with("5: "), "{messages:?}");
    }
}
