//! BeeAI's observations in a Langfuse trace (OpenInference's BeeAI instrumentation): every event
//! its emitter sends is a SPAN named `<target>-<n>`, with the target in a `target` attribute
//! (`agent.react.start-4`, `tool.search.wikipedia.success-12`). Its ReAct agent calls tools in
//! text, so no generation holds a structured call; each step the agent takes is told by its
//! `agent.react.update` events instead, the last of a step holding the tool's name, its
//! parameters and its output. Those are read as the calls and their results, an update with an
//! output and no tool as the agent's answer, and every other event as nothing: the tool's own
//! lifecycle events (`start`, `finish`, `success`) repeat the step.

use serde_json::Value;

use super::content_text;
use super::otlp::{Item, SpanRole};

/// What a BeeAI emitter event means, or None when the observation is not one.
pub(crate) fn beeai_role(
    kind: &str,
    name: &str,
    attributes: Option<&Value>,
    output: &Value,
) -> Option<SpanRole> {
    let target = attributes?.get("target")?.as_str()?;
    let number = name.strip_prefix(target)?.strip_prefix('-')?;
    if kind != "SPAN" || number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if target != "agent.react.update" || output.is_null() {
        return Some(SpanRole::Other);
    }
    let tool = attributes?
        .get("tool.name")
        .and_then(Value::as_str)
        .filter(|tool| !tool.trim().is_empty());
    let parameters = attributes?.get("tool.parameters").filter(|p| !p.is_null());
    Some(match (tool, parameters) {
        (Some(tool), Some(parameters)) => SpanRole::Tool {
            call_id: None,
            name: Some(tool.to_string()),
            args: Some(parameters.clone()),
            result: Some(content_text(output.clone())),
        },
        (None, _) => SpanRole::Inference {
            tools: None,
            input: Vec::new(),
            output: vec![vec![Item::Assistant(content_text(output.clone()))]],
            is_summary: false,
        },
        // A tool named but not yet given its parameters: the step is not over.
        (Some(_), None) => SpanRole::Other,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn role(name: &str, attributes: Value, output: Value) -> Option<String> {
        beeai_role("SPAN", name, Some(&attributes), &output).map(|role| match role {
            SpanRole::Tool {
                name, args, result, ..
            } => {
                format!("tool {name:?} {args:?} {result:?}")
            }
            SpanRole::Inference { output, .. } => format!("inference {}", output.len()),
            SpanRole::Other => "other".to_string(),
        })
    }

    #[test]
    fn a_steps_last_update_is_the_call_and_its_result() {
        let update = json!({"target": "agent.react.update", "tool.name": "Wikipedia",
                            "tool.parameters": "{'query': 'Barcelona'}"});
        assert_eq!(
            role(
                "agent.react.update-14",
                update.clone(),
                json!([{"title": "B"}])
            )
            .unwrap(),
            r#"tool Some("Wikipedia") Some(String("{'query': 'Barcelona'}")) Some("[{\"title\":\"B\"}]")"#
        );
        // The same step before its output, and before its parameters.
        assert_eq!(
            role("agent.react.update-13", update, Value::Null).unwrap(),
            "other"
        );
        let named = json!({"target": "agent.react.update", "tool.name": "Wikipedia",
                           "tool.parameters": null});
        assert_eq!(
            role("agent.react.update-12", named, json!("x")).unwrap(),
            "other"
        );
        // The answer.
        let answer = json!({"target": "agent.react.update", "tool.parameters": null});
        assert_eq!(
            role("agent.react.update-20", answer, json!("Go in May.")).unwrap(),
            "inference 1"
        );
    }

    #[test]
    fn lifecycle_events_are_nothing_and_other_spans_are_not_beeais() {
        let success = json!({"target": "tool.search.wikipedia.success"});
        assert_eq!(
            role(
                "tool.search.wikipedia.success-12",
                success.clone(),
                json!([1])
            )
            .unwrap(),
            "other"
        );
        assert_eq!(
            role("tool.search.wikipedia.success", success.clone(), json!([1])),
            None
        );
        assert_eq!(
            role("tool.search.wikipedia.success-1a", success, json!([1])),
            None
        );
        assert_eq!(
            role("tool.lookup", json!({"tool.name": "lookup"}), json!(1)),
            None
        );
    }
}
