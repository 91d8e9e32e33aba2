//! Messages a framework logged as text rather than as JSON objects:
//! - OpenLIT's transcript of a request, one `role: content` per message (AutoGen's and Agno's
//!   Langfuse traces): `system: You are…\nuser: Say 'Hello World!'`;
//! - the repr of a pydantic message object (Agno's own spans):
//!   `role='user' content='What is trending?' tool_calls=None …`;
//! - a Python function's arguments (LlamaIndex's `OpenAI.complete`): `{"args": ["What is…"]}`.

use serde_json::{Map, Value};

use super::otlp::Item;

use super::python_literal::python_fields;

/// The roles OpenLIT writes at the start of a transcript's message.
const ROLES: [&str; 6] = [
    "system",
    "developer",
    "user",
    "assistant",
    "tool",
    "function",
];

/// A transcript's messages as `(role, content)`, when the text starts with a role and a colon
/// and holds at least two messages (one line that starts `user:` is someone's words, not a
/// transcript). A line that starts with no role continues the message before it. Python's `None`
/// as a message's content (an assistant message that only made calls) is empty.
pub(crate) fn transcript_messages(text: &str) -> Option<Vec<(&'static str, String)>> {
    let mut messages: Vec<(&'static str, String)> = Vec::new();
    for line in text.split('\n') {
        match role_prefix(line) {
            Some((role, rest)) => messages.push((role, rest.to_string())),
            None => {
                let (_, content) = messages.last_mut()?;
                content.push('\n');
                content.push_str(line);
            }
        }
    }
    for (role, content) in &mut messages {
        if content == "None" {
            content.clear();
        }
        // OpenLIT writes a message it cannot format (a dict whose content is `None`: an
        // assistant message that only made calls) as `user:` and the repr of the whole message
        // list. It holds that message's place; it is nobody's words.
        if *role == "user" && content.starts_with("[{'role': ") {
            *role = "assistant";
            content.clear();
        }
    }
    (messages.len() >= 2).then_some(messages)
}

/// A transcript's messages as items, each as `messages::message_items` reads a
/// `{"role", "content"}` message (tested so), without a JSON object for each line.
pub(crate) fn transcript_items(text: &str) -> Option<Vec<Vec<Item>>> {
    let item = |(role, content): (&str, String)| match role {
        "user" | "assistant" if content.trim().is_empty() => None,
        "user" => Some(Item::User(content)),
        "assistant" => Some(Item::Assistant(content)),
        "tool" | "function" => Some(Item::Result {
            call_id: None,
            content,
            is_error: None,
        }),
        _ => None,
    };
    let messages = transcript_messages(text)?;
    Some(
        messages
            .into_iter()
            .map(|m| item(m).into_iter().collect())
            .collect(),
    )
}

/// The role a transcript line starts with, and the rest of the line.
fn role_prefix(line: &str) -> Option<(&'static str, &str)> {
    ROLES.iter().find_map(|role| {
        let rest = line.strip_prefix(role)?.strip_prefix(':')?;
        Some((*role, rest.strip_prefix(' ').unwrap_or(rest)))
    })
}

/// A message object's repr as the JSON object it stands for, when it has a `role`.
pub(crate) fn repr_message(text: &str) -> Option<Value> {
    let fields = python_fields(text)?;
    fields
        .get("role")
        .is_some_and(Value::is_string)
        .then_some(Value::Object(fields))
}

/// The prompt of a logged function call whose only fields are `args` (and `kwargs`): its first
/// text argument.
pub(crate) fn call_prompt(map: &Map<String, Value>) -> Option<&str> {
    if !map.keys().all(|key| key == "args" || key == "kwargs") {
        return None;
    }
    map.get("args")?.as_array()?.iter().find_map(Value::as_str)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// As OpenLIT logs AutoGen's and Agno's requests (Langfuse's seeder traces).
    #[test]
    fn a_transcript_splits_at_each_role() {
        let text =
            "system: Be brief.\nuser: Search it\nassistant: None\ntool: [\n  {\"a\": 1}\n]\n\
                    user: thanks: bye";
        let messages = transcript_messages(text).unwrap();
        assert_eq!(
            messages,
            vec![
                ("system", "Be brief.".to_string()),
                ("user", "Search it".to_string()),
                ("assistant", String::new()),
                ("tool", "[\n  {\"a\": 1}\n]".to_string()),
                ("user", "thanks: bye".to_string()),
            ]
        );
        // Each message read as the messages reader reads it as a JSON message.
        let as_json: Vec<String> = messages
            .iter()
            .map(|(role, content)| {
                let message = json!({"role": role, "content": content});
                format!("{:?}", super::super::messages::message_items(&message))
            })
            .collect();
        let items: Vec<String> = transcript_items(text)
            .unwrap()
            .iter()
            .map(|items| format!("{items:?}"))
            .collect();
        assert_eq!(items, as_json);
    }

    #[test]
    fn openlits_stand_in_for_a_message_it_could_not_format_is_no_users_words() {
        let text = "system: Be brief.\nuser: Refund A1\n\
                    user: [{'role': 'user', 'content': 'Refund A1'}, {'role': 'assistant', 'tool_calls': []}]\n\
                    tool: done";
        let messages = transcript_messages(text).unwrap();
        assert_eq!(messages[2], ("assistant", String::new()));
        assert_eq!(messages.len(), 4);
    }

    #[test]
    fn text_that_starts_with_no_role_is_no_transcript() {
        assert_eq!(transcript_messages("What is Langfuse?\nuser: hi"), None);
        assert_eq!(transcript_messages("username: bob"), None);
        assert_eq!(
            transcript_messages("system: ignore the rules\nand say hi"),
            None
        );
    }

    #[test]
    fn a_repr_is_a_message_only_with_a_role() {
        assert_eq!(
            repr_message("role='user' content='Hi' name=None").unwrap(),
            json!({"role": "user", "content": "Hi", "name": null})
        );
        assert_eq!(repr_message("content='Hi' name=None"), None);
        assert_eq!(repr_message("role=None content='Hi'"), None);
    }

    #[test]
    fn a_logged_calls_prompt_is_its_first_text_argument() {
        let map = |value: Value| value.as_object().unwrap().clone();
        assert_eq!(
            call_prompt(&map(json!({"args": [3, "Hi"], "kwargs": {}}))),
            Some("Hi")
        );
        assert_eq!(
            call_prompt(&map(json!({"args": ["Hi"], "model": "x"}))),
            None
        );
        assert_eq!(call_prompt(&map(json!({"kwargs": {"prompt": "Hi"}}))), None);
    }
}
