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
//! an object); prompting models write their text, which BFCL decodes as a Python list of calls
//! (`[f(a=1), g(b='x')]`), as toolscope does. Text that is not calls is the model's reply (no
//! call). Each result is one session named by the question's `id`; given with the question file
//! it completes the question's session (its user turn and tools, [`join_bfcl_results`], run by
//! the engine once every file is read), and the `possible_answer` file's labels score it.
//! Multi-turn results (lists of turns of steps) are not read: BFCL checks those by executing the
//! calls.

use serde_json::Value;

use super::bfcl::{parse_call, split_arguments};
use super::conversation::{args_from, Conversation};
use crate::diagnostic::Diagnostic;
use std::collections::HashMap;

use crate::model::{Args, Session};

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
        Value::Array(calls) if calls.iter().any(Value::is_array) => {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(line),
                format!(
                    "{id}: a multi-turn result (turns of steps); BFCL checks those by running \
                     them, toolscope does not read them; left out"
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
        Value::String(text) => match decoded_calls(text) {
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

/// A prompting model's text as BFCL's default decoder reads it: a Python list of keyword calls,
/// brackets optional, code fences stripped. None when it is not calls.
fn decoded_calls(text: &str) -> Option<Vec<(String, Args)>> {
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
            let (name, args) = parse_call(call)?;
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

/// BFCL keeps a question and a model's answer in separate files under one id: a result session
/// (calls, no user turn) completes the question session (user turns and tools, no calls) of the
/// same id, both read from BFCL files. A second result for one question stays apart (and is
/// renamed as any repeated id).
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
        let events = std::mem::take(&mut sessions[index].events);
        sessions[question].events.extend(events);
        dropped[index] = true;
    }
    let mut index = 0;
    sessions.retain(|_| {
        index += 1;
        !dropped[index - 1]
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prompting_text_decodes_as_python_calls() {
        let calls = decoded_calls("```\n[math.factorial(number=5), f(a='x, y')]\n```").unwrap();
        assert_eq!(calls[0].0, "math.factorial");
        assert_eq!(calls[0].1, Args::Json(json!({"number": 5})));
        assert_eq!(calls[1].1, Args::Json(json!({"a": "x, y"})));
        let calls = decoded_calls("get_weather(city='Paris')").unwrap();
        assert_eq!(calls[0].0, "get_weather");
        assert!(decoded_calls("I cannot help with that.").is_none());
        assert!(decoded_calls("[]").is_none());
        let positional = decoded_calls("[sort('a.pdf')]").unwrap();
        assert!(matches!(positional[0].1, Args::Malformed { .. }));
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
