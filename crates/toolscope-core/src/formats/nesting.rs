//! Subagents linked to the call that started them, whichever reader or file they came from
//! (Claude Code 2.1 and Gemini CLI write each subagent to its own file): a subagent whose session
//! a parent's call names (the parent's `started_subagents`, such as a Gemini CLI tool call's
//! `agentId`) is linked to that call; a subagent whose link names its parent session but not the
//! call is linked to the parent's one call whose arguments hold, as a string, the subagent's
//! first user message (the prompt it was given); a subagent whose kind its reader could not tell
//! (agent id ending [`UNKNOWN_SUBAGENT`]) takes it from its call's `subagent_type` (Claude Code's
//! `Task`/`Agent`) or `agent_name` (Gemini CLI's `invoke_agent`).

use serde_json::Value;

use crate::hashing::{HashMap, HashMapExt, HashSet, HashSetExt};
use crate::model::{Event, ParentLink, Session};

/// The suffix a reader gives a subagent's agent id when it does not yet know the agent's kind.
pub(crate) const UNKNOWN_SUBAGENT: &str = "/subagent";

/// Links each subagent (of those `is_linkable` accepts) that a parent's call names to that call;
/// then each subagent still without a call to the parent's call that gave it its prompt, when
/// exactly one call did and no other subagent is linked to it; then names each linked subagent
/// of unknown kind after its call's `subagent_type` or `agent_name`.
pub(crate) fn link_subagents(sessions: &mut [Session], is_linkable: impl Fn(&Session) -> bool) {
    link_named(sessions, &is_linkable);
    let by_id = first_by_id(sessions);
    let taken: HashSet<(&str, &str)> = sessions
        .iter()
        .filter_map(|session| {
            let parent = session.parent.as_ref()?;
            Some((parent.session_id.as_str(), parent.call_id.as_deref()?))
        })
        .collect();
    // Each parent's calls by the top-level string arguments they hold, built once per parent
    // that has an unlinked subagent (so linking stays linear in calls and subagents).
    let mut indexes: HashMap<usize, HashMap<&str, Vec<&crate::model::ToolCall>>> = HashMap::new();
    let mut links: Vec<(usize, String)> = Vec::new();
    let mut claimed: HashSet<(usize, &str)> = HashSet::new();
    for (at, session) in sessions.iter().enumerate() {
        let Some(parent) = session.parent.as_ref().filter(|p| p.call_id.is_none()) else {
            continue;
        };
        if !is_linkable(session) {
            continue;
        }
        let (Some(&parent_at), Some(prompt)) = (
            by_id.get(parent.session_id.as_str()),
            first_user_text(session),
        ) else {
            continue;
        };
        let index = indexes
            .entry(parent_at)
            .or_insert_with(|| index_by_text(&sessions[parent_at]));
        let mut matching = index.get(prompt).into_iter().flatten().filter(|call| {
            call.call_id.as_deref().is_some_and(|id| {
                !taken.contains(&(parent.session_id.as_str(), id))
                    && !claimed.contains(&(parent_at, id))
            })
        });
        if let (Some(call), None) = (matching.next(), matching.next()) {
            let call_id = call.call_id.as_deref().expect("filtered on ids");
            claimed.insert((parent_at, call_id));
            links.push((at, call_id.to_string()));
        }
    }
    for (at, call_id) in links {
        if let Some(parent) = sessions[at].parent.as_mut() {
            parent.call_id = Some(call_id);
        }
    }
    name_by_call_kind(sessions, &is_linkable);
}

/// Links each subagent session a parent's call names (`started_subagents`) to that parent and
/// call, unless its reader linked it to another session or call (the first parent to name a
/// subagent wins; a session never becomes its own parent).
fn link_named(sessions: &mut [Session], is_linkable: &impl Fn(&Session) -> bool) {
    let mut named: HashMap<&str, (&str, &str)> = HashMap::new();
    for session in sessions.iter() {
        for started in &session.started_subagents {
            named
                .entry(started.session_id.as_str())
                .or_insert((session.session_id.as_str(), started.call_id.as_str()));
        }
    }
    if named.is_empty() {
        return;
    }
    let mut links: Vec<(usize, ParentLink)> = Vec::new();
    for (at, session) in sessions.iter().enumerate() {
        let Some(&(parent_id, call_id)) = named.get(session.session_id.as_str()) else {
            continue;
        };
        let is_free = match &session.parent {
            None => true,
            Some(parent) => parent.session_id == parent_id && parent.call_id.is_none(),
        };
        if is_free && parent_id != session.session_id && is_linkable(session) {
            links.push((
                at,
                ParentLink {
                    session_id: parent_id.to_string(),
                    call_id: Some(call_id.to_string()),
                },
            ));
        }
    }
    for (at, link) in links {
        sessions[at].parent = Some(link);
    }
}

/// Names each linked subagent of unknown kind after its call's `subagent_type` (Claude Code) or
/// `agent_name` (Gemini CLI's `invoke_agent`).
fn name_by_call_kind(sessions: &mut [Session], is_linkable: &impl Fn(&Session) -> bool) {
    let by_id = first_by_id(sessions);
    // Each parent's calls by id, built once per parent that has such a subagent.
    let mut calls: HashMap<usize, HashMap<&str, &crate::model::ToolCall>> = HashMap::new();
    let mut kinds: Vec<(usize, String)> = Vec::new();
    for (at, session) in sessions.iter().enumerate() {
        let is_unknown = session
            .agent_id
            .as_deref()
            .is_some_and(|agent| agent.ends_with(UNKNOWN_SUBAGENT));
        let Some(parent) = session.parent.as_ref().filter(|_| is_unknown) else {
            continue;
        };
        let (Some(call_id), Some(&parent_at)) = (
            parent.call_id.as_deref(),
            by_id.get(parent.session_id.as_str()),
        ) else {
            continue;
        };
        if !is_linkable(session) {
            continue;
        }
        let by_call = calls.entry(parent_at).or_insert_with(|| {
            sessions[parent_at]
                .calls()
                .filter_map(|call| Some((call.call_id.as_deref()?, call)))
                .collect()
        });
        let kind = by_call
            .get(call_id)
            .and_then(|call| call.args.json())
            .and_then(|args| args.get("subagent_type").or_else(|| args.get("agent_name")))
            .and_then(Value::as_str);
        if let Some(kind) = kind {
            kinds.push((at, kind.to_string()));
        }
    }
    for (at, kind) in kinds {
        if let Some(agent) = sessions[at].agent_id.as_mut() {
            if let Some(stem) = agent.strip_suffix(UNKNOWN_SUBAGENT) {
                *agent = format!("{stem}/{kind}");
            }
        }
    }
}

/// Each session id's first session.
fn first_by_id(sessions: &[Session]) -> HashMap<&str, usize> {
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for (at, session) in sessions.iter().enumerate() {
        by_id.entry(session.session_id.as_str()).or_insert(at);
    }
    by_id
}

/// The session's first user message, trimmed.
pub(crate) fn first_user_text(session: &Session) -> Option<&str> {
    session.events.iter().find_map(|event| match event {
        Event::User { content } => Some(content.trim()),
        _ => None,
    })
}

/// A session's calls with ids by each top-level string argument they hold (trimmed).
fn index_by_text(session: &Session) -> HashMap<&str, Vec<&crate::model::ToolCall>> {
    let mut index: HashMap<&str, Vec<&crate::model::ToolCall>> = HashMap::new();
    for call in session.calls().filter(|call| call.call_id.is_some()) {
        let Some(args) = call.args.json().and_then(Value::as_object) else {
            continue;
        };
        for value in args.values().filter_map(Value::as_str) {
            let calls = index.entry(value.trim()).or_default();
            // A call that holds the same text twice is still one call.
            if !calls.last().is_some_and(|last| std::ptr::eq(*last, call)) {
                calls.push(call);
            }
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Args, StartedSubagent, ToolCall};

    fn call(id: &str, prompt: &str) -> Event {
        Event::ToolUse(ToolCall {
            call_id: Some(id.into()),
            name: "Agent".into(),
            args: Args::Json(serde_json::json!({"prompt": prompt, "subagent_type": "Explore"})),
        })
    }

    fn child(id: &str, prompt: &str) -> Session {
        Session {
            session_id: id.into(),
            agent_id: Some(format!("claude-code{UNKNOWN_SUBAGENT}")),
            parent: Some(ParentLink {
                session_id: "main".into(),
                call_id: None,
            }),
            events: vec![Event::User {
                content: prompt.into(),
            }],
            ..Session::default()
        }
    }

    #[test]
    fn a_subagent_is_linked_to_the_one_call_that_gave_its_prompt() {
        let parent = Session {
            session_id: "main".into(),
            events: vec![call("c1", "Survey web"), call("c2", "Survey jobs")],
            ..Session::default()
        };
        let mut sessions = vec![
            parent,
            child("jobs", " Survey jobs\n"),
            child("other", "Elsewhere"),
        ];
        link_subagents(&mut sessions, |_| true);
        let link = sessions[1].parent.as_ref().unwrap();
        assert_eq!(link.call_id.as_deref(), Some("c2"));
        assert_eq!(sessions[1].agent_id.as_deref(), Some("claude-code/Explore"));
        assert_eq!(sessions[2].parent.as_ref().unwrap().call_id, None);
        assert_eq!(
            sessions[2].agent_id.as_deref(),
            Some("claude-code/subagent")
        );
    }

    #[test]
    fn a_subagent_a_parents_call_names_is_linked_to_that_call() {
        let mut parent = Session {
            session_id: "main".into(),
            events: vec![Event::ToolUse(ToolCall {
                call_id: Some("c1".into()),
                name: "invoke_agent".into(),
                args: Args::Json(
                    serde_json::json!({"agent_name": "investigator", "prompt": "Look"}),
                ),
            })],
            ..Session::default()
        };
        parent.started_subagents.push(StartedSubagent {
            session_id: "agent-7".into(),
            call_id: "c1".into(),
        });
        let mut named = child("agent-7", "A task the call does not hold");
        named.parent = None;
        named.agent_id = Some(format!("gemini-cli{UNKNOWN_SUBAGENT}"));
        let elsewhere = Session {
            parent: Some(ParentLink {
                session_id: "other".into(),
                call_id: None,
            }),
            ..named.clone()
        };
        let mut sessions = vec![parent.clone(), named];
        link_subagents(&mut sessions, |_| true);
        let link = sessions[1].parent.as_ref().expect("linked");
        assert_eq!(link.session_id, "main");
        assert_eq!(link.call_id.as_deref(), Some("c1"));
        assert_eq!(
            sessions[1].agent_id.as_deref(),
            Some("gemini-cli/investigator")
        );
        // A reader's own link to another session stands.
        let mut sessions = vec![parent, elsewhere];
        link_subagents(&mut sessions, |_| true);
        assert_eq!(sessions[1].parent.as_ref().unwrap().session_id, "other");
    }

    #[test]
    fn two_calls_with_the_same_prompt_link_neither_twice() {
        let parent = Session {
            session_id: "main".into(),
            events: vec![call("c1", "Same"), call("c2", "Same")],
            ..Session::default()
        };
        let mut sessions = vec![parent, child("a", "Same")];
        link_subagents(&mut sessions, |_| true);
        assert_eq!(sessions[1].parent.as_ref().unwrap().call_id, None);
    }

    #[test]
    fn a_subagent_its_reader_linked_takes_its_kind_from_the_call() {
        let parent = Session {
            session_id: "main".into(),
            events: vec![call("c1", "Survey web")],
            ..Session::default()
        };
        let mut linked = child("web", "A prompt the call does not hold");
        linked.parent.as_mut().unwrap().call_id = Some("c1".into());
        let mut sessions = vec![parent, linked];
        link_subagents(&mut sessions, |_| false);
        assert_eq!(
            sessions[1].agent_id.as_deref(),
            Some("claude-code/subagent"),
            "not linkable"
        );
        link_subagents(&mut sessions, |_| true);
        assert_eq!(sessions[1].agent_id.as_deref(), Some("claude-code/Explore"));
        assert_eq!(
            sessions[1].parent.as_ref().unwrap().call_id.as_deref(),
            Some("c1")
        );
    }
}
