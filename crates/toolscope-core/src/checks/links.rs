//! Which call each tool result answers: by `call_id` where the format has ids, otherwise the
//! oldest call still waiting for a result (results come back in call order).

use foldhash::{HashMap, HashMapExt};

use crate::model::{Event, ResultStatus, Session};

/// Results linked to calls.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Links {
    /// For each event index that is a tool result: the 1-based step of its call, if found.
    pub result_step: HashMap<usize, usize>,
    /// For each step (index step - 1): its result's status, if it got one.
    pub call_status: Vec<Option<ResultStatus>>,
}

/// Links every result of the session to its call.
pub fn link(session: &Session) -> Links {
    let mut links = Links::default();
    let mut pending: Vec<usize> = Vec::new();
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for (index, event) in session.events.iter().enumerate() {
        match event {
            Event::ToolUse(call) => {
                links.call_status.push(None);
                let step = links.call_status.len();
                pending.push(step);
                if let Some(id) = &call.call_id {
                    by_id.insert(id, step);
                }
            }
            Event::ToolResult(result) => {
                let by_call_id = result
                    .call_id
                    .as_deref()
                    .and_then(|id| by_id.get(id).copied())
                    .filter(|step| pending.contains(step));
                let step = by_call_id.or_else(|| pending.first().copied());
                if let Some(step) = step {
                    pending.retain(|&waiting| waiting != step);
                    links.call_status[step - 1] = Some(result.status);
                    links.result_step.insert(index, step);
                }
            }
            Event::User { .. } | Event::Assistant { .. } => {}
        }
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Args, ToolCall, ToolResult};

    fn call(id: Option<&str>) -> Event {
        Event::ToolUse(ToolCall {
            call_id: id.map(Into::into),
            name: "t".into(),
            args: Args::Json(serde_json::json!({})),
        })
    }

    fn result(id: Option<&str>, status: ResultStatus) -> Event {
        Event::ToolResult(ToolResult {
            call_id: id.map(Into::into),
            status,
            content: None,
            error_source: None,
            is_status_inferred: false,
        })
    }

    #[test]
    fn links_by_id_then_by_order() {
        let session = Session {
            events: vec![
                call(Some("a")),
                call(Some("b")),
                result(Some("b"), ResultStatus::Error),
                result(None, ResultStatus::Ok),
                call(None),
            ],
            ..Session::default()
        };
        let links = link(&session);
        assert_eq!(
            links.call_status,
            [Some(ResultStatus::Ok), Some(ResultStatus::Error), None]
        );
        assert_eq!(links.result_step[&2], 2);
        assert_eq!(links.result_step[&3], 1);
    }
}
