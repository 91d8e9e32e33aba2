//! BFCL result files (`result/<model>/BFCL_v4_<category>_result.json`): what a model answered to
//! each question, one JSON line per question.
//!
//! ```json
//! {"id": "parallel_0", "result": [{"spotify.play": "{\"artist\": \"Taylor Swift\", \"duration\": 20}"},
//!   {"spotify.play": "{\"artist\": \"Maroon 5\", \"duration\": 15}"}],
//!  "input_token_count": 687, "output_token_count": 129, "latency": 4.78}
//! {"id": "simple_python_1", "result": "[math.factorial(number=5)]", "latency": 0.9}
//! ```
//! Function-calling models write a list of `{name: arguments}` (arguments as a JSON string, or
//! an object), calling dotted functions by the `_` names BFCL sent them; prompting models write
//! their text, which BFCL decodes as a Python list of calls (`[f(a=1), g(b='x')]`, Java and
//! JavaScript calls for those questions), as toolscope does. Text that is not calls is the
//! model's reply (no call); BFCL's `Error during inference: …` is no answer (a warning). Each
//! result is one session named by the question's `id`; given with the question file it
//! completes the question's session (its user turn and tools, [`join_bfcl_results`], run by the
//! engine once every file is read), and the `possible_answer` file's labels score it.
//! Multi-turn results (lists of turns of steps) are not read: BFCL checks those by executing the
//! calls.

use serde_json::Value;

use super::bfcl::{parse_call, split_arguments};
use super::conversation::{args_from, Conversation};
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};

use crate::metrics::bfcl_literals::Language;
use crate::model::{Args, Event, Session, ToolDef};

/// What BFCL writes as the result of an entry whose generation raised (the API's error, a
/// timeout, a handler's failure), followed by the exception's text.
const INFERENCE_ERROR: &str = "Error during inference:";

/// One result record as a session, or None (with a diagnostic) when it cannot be read.
pub(crate) fn session(
    file: &str,
    line: usize,
    id: &str,
    result: &Value,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Session> {
    let mut conversation = Conversation::new(id.to_string(), file, line);
    let place = |index: usize| format!("result call {}", index + 1);
    match result {
        Value::Array(turns) if is_multi_turn(result) => {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(line),
                format!(
                    "{id}: a multi-turn result ({} turns, {} calls); BFCL checks those by \
                     running the calls, toolscope does not read them; left out (its question's \
                     turns read without calls)",
                    turns.len(),
                    multi_turn_calls(turns, Language::of_id(id)),
                ),
            ));
            return None;
        }
        Value::Array(calls) => {
            for (index, call) in calls.iter().enumerate() {
                match call.as_object().filter(|call| call.len() == 1) {
                    Some(call) => {
                        let (name, args) = call.iter().next().expect("one entry");
                        conversation.call(
                            None,
                            Some(name),
                            args_from(Some(args)),
                            &place(index),
                            diagnostics,
                        );
                    }
                    None => diagnostics.push(Diagnostic::error(
                        file,
                        Some(line),
                        format!(
                            "{id}: {}: a call is {{\"name\": arguments}}; left out",
                            place(index)
                        ),
                    )),
                }
            }
        }
        Value::String(text) if text.starts_with(INFERENCE_ERROR) => {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(line),
                format!(
                    "{id}: BFCL's generation failed here ({}); no answer (BFCL scores it as one \
                     without a call)",
                    text[INFERENCE_ERROR.len()..].trim()
                ),
            ));
        }
        Value::String(text) => match decoded_calls(text, Language::of_id(id)) {
            Some(calls) => {
                for (index, (name, args)) in calls.into_iter().enumerate() {
                    conversation.call(None, Some(&name), args, &place(index), diagnostics);
                }
            }
            None => conversation.assistant(text.clone()),
        },
        _ => {
            diagnostics.push(Diagnostic::error(
                file,
                Some(line),
                format!("{id}: \"result\" is a list of calls or the model's text; left out"),
            ));
            return None;
        }
    }
    Some(conversation.finish())
}

/// Whether a result is a multi-turn one (a list of turns, each a list of steps), which is left
/// out by design (with a warning), not for being unreadable.
pub(crate) fn is_multi_turn(result: &Value) -> bool {
    result
        .as_array()
        .is_some_and(|turns| turns.iter().any(Value::is_array))
}

/// How many calls a multi-turn result's steps hold: a function-calling step is a list of
/// `{name: arguments}`, a prompting step the model's text.
fn multi_turn_calls(turns: &[Value], language: Option<Language>) -> usize {
    turns
        .iter()
        .filter_map(Value::as_array)
        .flatten()
        .map(|step| match step {
            Value::Array(calls) => calls.len(),
            Value::String(text) => decoded_calls(text, language).map_or(0, |calls| calls.len()),
            _ => 0,
        })
        .sum()
}

/// A prompting model's text as BFCL's default decoder reads it: a Python list of keyword calls,
/// brackets optional, code fences stripped; for a Java or JavaScript question, calls in that
/// language ([`source_call`]). None when it is not calls.
fn decoded_calls(text: &str, language: Option<Language>) -> Option<Vec<(String, Args)>> {
    let trimmed = text.trim_matches(|c: char| c == '`' || c == '\n' || c == ' ');
    let inner = trimmed.strip_prefix('[').unwrap_or(trimmed);
    let inner = inner.strip_suffix(']').unwrap_or(inner);
    let calls = split_arguments(inner)?;
    if calls.is_empty() {
        return None;
    }
    calls
        .into_iter()
        .map(|call| {
            let (name, args) = match language {
                Some(_) => source_call(call)?,
                None => parse_call(call)?,
            };
            let is_name = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.'));
            if !is_name {
                return None;
            }
            let args = match args {
                Some(args) => Args::Json(args),
                None => Args::Malformed {
                    raw: call.to_string(),
                    error: "positional arguments: their parameter names are unknown".into(),
                },
            };
            Some((name, args))
        })
        .collect()
}

/// A Java or JavaScript call `name(key=value, ...)` as BFCL's tree-sitter decoders read it: each
/// value is its source text, a string or character literal without its quotes (`controller=
/// mapController` is `"mapController"`, `isComplete=true` is `"true"`), for the argument check
/// to read as BFCL's type converters do. Its keyword arguments are None when it has positional
/// ones.
fn source_call(text: &str) -> Option<(String, Option<Value>)> {
    let open = text.find('(')?;
    let name = text[..open].trim().to_string();
    let inner = text[open + 1..].trim_end().strip_suffix(')')?;
    let mut args = serde_json::Map::new();
    for argument in split_arguments(inner)? {
        let Some((key, value)) = argument.split_once('=') else {
            return Some((name, None));
        };
        let key = key.trim();
        let is_key = !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_');
        let value = value.trim();
        if !is_key || value.is_empty() || value.starts_with('=') {
            return Some((name, None));
        }
        let unquoted = ['"', '\''].iter().find_map(|&quote| {
            value
                .strip_prefix(quote)
                .and_then(|rest| rest.strip_suffix(quote))
        });
        args.insert(
            key.to_string(),
            Value::String(unquoted.unwrap_or(value).into()),
        );
    }
    Some((name, Some(Value::Object(args))))
}

/// BFCL keeps a question and a model's answer in separate files under one id: a result session
/// (calls, no user turn) completes the question session (user turns and tools, no calls) of the
/// same id, both read from BFCL files. A second result for one question stays apart (and is
/// renamed as any repeated id). Calls take back the dotted names of the question's functions
/// that BFCL sent to function-calling models with `_` for `.` ([`dotted_name`]).
pub(crate) fn join_bfcl_results(sessions: &mut Vec<Session>, bfcl_files: &[&str]) {
    if bfcl_files.is_empty() {
        return;
    }
    let from_bfcl = |session: &Session| bfcl_files.contains(&session.origin.file.as_str());
    let mut questions: HashMap<String, usize> = HashMap::new();
    for (index, session) in sessions.iter().enumerate() {
        if from_bfcl(session) && session.has_user_message() && session.calls().next().is_none() {
            questions.entry(session.session_id.clone()).or_insert(index);
        }
    }
    let mut dropped = vec![false; sessions.len()];
    for index in 0..sessions.len() {
        let session = &sessions[index];
        if !from_bfcl(session) || session.has_user_message() {
            continue;
        }
        // Each question takes one result: the first.
        let Some(question) = questions.remove(&session.session_id) else {
            continue;
        };
        let mut events = std::mem::take(&mut sessions[index].events);
        if let Some(tools) = sessions[question].tools.clone() {
            for event in &mut events {
                if let Event::ToolUse(call) = event {
                    if let Some(name) = dotted_name(&call.name, &tools) {
                        call.name = name.to_string();
                    }
                }
            }
        }
        sessions[question].events.extend(events);
        dropped[index] = true;
    }
    let mut index = 0;
    sessions.retain(|_| {
        index += 1;
        !dropped[index - 1]
    });
}

/// The question's function that a function-calling model called as `name`, when `name` is not
/// one of them: OpenAI's and other providers' APIs refuse `.` in a tool's name, so BFCL sends
/// `math.factorial` as `math_factorial` (its `convert_to_tool`), the model calls that, and
/// BFCL's checker compares names with `.` read as `_` (its models' `underscore_to_dot`). None
/// when `name` is a function's own name, or no function (or more than one) is sent as it.
fn dotted_name<'t>(name: &str, tools: &'t [ToolDef]) -> Option<&'t str> {
    if !name.contains('_') || tools.iter().any(|tool| tool.name == name) {
        return None;
    }
    let mut sent_as = tools
        .iter()
        .filter(|tool| tool.name.contains('.') && tool.name.replace('.', "_") == name);
    let tool = sent_as.next()?;
    sent_as.next().is_none().then_some(tool.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use serde_json::json;

    #[test]
    fn prompting_text_decodes_as_python_calls() {
        let calls =
            decoded_calls("```\n[math.factorial(number=5), f(a='x, y')]\n```", None).unwrap();
        assert_eq!(calls[0].0, "math.factorial");
        assert_eq!(calls[0].1, Args::Json(json!({"number": 5})));
        assert_eq!(calls[1].1, Args::Json(json!({"a": "x, y"})));
        let calls = decoded_calls("get_weather(city='Paris')", None).unwrap();
        assert_eq!(calls[0].0, "get_weather");
        assert!(decoded_calls("I cannot help with that.", None).is_none());
        assert!(decoded_calls("[]", None).is_none());
        let positional = decoded_calls("[sort('a.pdf')]", None).unwrap();
        assert!(matches!(positional[0].1, Args::Malformed { .. }));
    }

    fn tool(name: &str) -> ToolDef {
        ToolDef {
            name: name.into(),
            description: None,
            input_schema: json!({}),
        }
    }

    #[test]
    fn underscored_names_of_dotted_functions_are_the_functions_bfcl_sent_them_as() {
        let tools = [
            tool("math.factorial"),
            tool("math_sum"),
            tool("calculate_area"),
        ];
        assert_eq!(
            dotted_name("math_factorial", &tools),
            Some("math.factorial")
        );
        // A function's own name, a name no function is sent as, and two functions sent as one
        // name stay as called.
        assert_eq!(dotted_name("math_sum", &tools), None);
        assert_eq!(dotted_name("calculate_area", &tools), None);
        assert_eq!(dotted_name("math_product", &tools), None);
        let twins = [tool("a.b_c"), tool("a_b.c")];
        assert_eq!(dotted_name("a_b_c", &twins), None);
    }

    #[test]
    fn java_and_javascript_answers_are_source_text_as_bfcl_decodes_them() {
        let java = "[GeometryPresentation.createPresentation(controller=mapController, \
                    parent=mapArea, title=\"GIS, map\", size=new Dim(1, 2))]";
        let calls = decoded_calls(java, Some(Language::Java)).unwrap();
        assert_eq!(calls[0].0, "GeometryPresentation.createPresentation");
        assert_eq!(
            calls[0].1,
            Args::Json(json!({"controller": "mapController", "parent": "mapArea",
                              "title": "GIS, map", "size": "new Dim(1, 2)"}))
        );
        let javascript = "[validateUserInput(inputField='userInputField', isComplete=true)]";
        let calls = decoded_calls(javascript, Some(Language::JavaScript)).unwrap();
        assert_eq!(
            calls[0].1,
            Args::Json(json!({"inputField": "userInputField", "isComplete": "true"}))
        );
        let positional = decoded_calls("[f(mapController)]", Some(Language::Java)).unwrap();
        assert!(matches!(positional[0].1, Args::Malformed { .. }));
        assert!(decoded_calls("Which list do you mean?", Some(Language::JavaScript)).is_none());
    }

    #[test]
    fn an_inference_error_is_no_answer_with_a_warning() {
        let mut diagnostics = Vec::new();
        let result = json!("Error during inference: Error code: 400 - too long");
        let read = session("r.json", 3, "multiple_1", &result, &mut diagnostics).unwrap();
        assert!(
            read.events.is_empty(),
            "not the model's reply: {:?}",
            read.events
        );
        assert_eq!(diagnostics.len(), 1);
        assert!(
            diagnostics[0]
                .message
                .contains("Error code: 400 - too long"),
            "{}",
            diagnostics[0].message
        );
    }

    #[test]
    fn a_file_of_multi_turn_results_is_read_with_their_warnings_and_no_error() {
        let mut diagnostics = Vec::new();
        let bytes = br#"{"id": "multi_turn_base_1", "result": [[[{"ls": "{\"a\": true}"}], "Done."]], "latency": [[0.1, 0.1]]}"#;
        let read = crate::formats::read_traces("r.json", bytes, &mut diagnostics);
        assert!(read.sessions.is_empty());
        let severities: Vec<Severity> = diagnostics.iter().map(|d| d.severity).collect();
        assert_eq!(severities, [Severity::Warning], "{diagnostics:?}");
        assert!(diagnostics[0].message.contains("(1 turns, 1 calls)"));
    }

    #[test]
    fn function_calling_results_are_calls_and_multi_turn_is_left_out() {
        let mut diagnostics = Vec::new();
        let result = json!([{"f": "{\"a\": 1}"}, {"g": {"b": 2}}]);
        let read = session("r.json", 1, "x", &result, &mut diagnostics).unwrap();
        let names: Vec<&str> = read.calls().map(|call| call.name.as_str()).collect();
        assert_eq!(names, ["f", "g"]);
        assert!(diagnostics.is_empty());
        let multi = json!([[["cd(folder='a')"]]]);
        assert!(session("r.json", 2, "y", &multi, &mut diagnostics).is_none());
        assert!(diagnostics[0].message.contains("multi-turn"));
    }
}
