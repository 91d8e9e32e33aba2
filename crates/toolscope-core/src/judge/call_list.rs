//! Every call of a run's sessions, eight bytes each: what choosing the calls to judge reads.
//!
//! On streamed sessions the judge keeps every call's reference while it reads the inputs once
//! (`crate::judge::streamed`); as [`CallRef`]s (two owned strings each) that was about 120 bytes
//! a call. Here a call is its step and its tool's number; each session's id and each tool's name
//! are kept once. Only the chosen calls become [`CallRef`]s.

use crate::hashing::HashMap;
use crate::model::Session;

use super::sample::CallRef;

/// Every call of some sessions, in session order and then step order.
#[derive(Debug, Default)]
pub struct CallList {
    /// Each session with a call: its id and where its calls start in `calls`.
    sessions: Vec<(Box<str>, usize)>,
    /// Each tool's name, once, in the order first called.
    tools: Vec<Box<str>>,
    /// The number of each name in `tools`.
    tool_numbers: HashMap<Box<str>, u32>,
    /// Each call: its 1-based step in its session and its tool's number.
    calls: Vec<(u32, u32)>,
}

impl CallList {
    /// Every call of `sessions`.
    pub fn of_sessions(sessions: &[Session]) -> CallList {
        let mut list = CallList::default();
        for session in sessions {
            list.push_session(session);
        }
        list
    }

    /// Adds every call of `session`, in step order.
    pub fn push_session(&mut self, session: &Session) {
        let start = self.calls.len();
        for (index, call) in session.calls().enumerate() {
            let tool = self.tool_number(&call.name);
            self.calls.push((to_u32(index + 1), tool));
        }
        if self.calls.len() > start {
            self.sessions
                .push((session.session_id.as_str().into(), start));
        }
    }

    fn tool_number(&mut self, name: &str) -> u32 {
        if let Some(&number) = self.tool_numbers.get(name) {
            return number;
        }
        let number = to_u32(self.tools.len());
        self.tools.push(name.into());
        self.tool_numbers.insert(name.into(), number);
        number
    }

    /// How many calls.
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// Whether there is no call.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The tools' names, by number.
    pub(crate) fn tool_names(&self) -> &[Box<str>] {
        &self.tools
    }

    /// The tool's number of each call, in order.
    pub(crate) fn tool_of_each(&self) -> impl Iterator<Item = usize> + '_ {
        self.calls.iter().map(|&(_, tool)| tool as usize)
    }

    /// Each call's session id and step, in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        self.sessions
            .iter()
            .enumerate()
            .flat_map(move |(position, (session_id, start))| {
                let end = self.session_end(position);
                self.calls[*start..end]
                    .iter()
                    .map(move |&(step, _)| (&**session_id, step as usize))
            })
    }

    fn session_end(&self, position: usize) -> usize {
        self.sessions
            .get(position + 1)
            .map_or(self.calls.len(), |&(_, start)| start)
    }

    /// The calls at `indices` (ascending) as references.
    pub(crate) fn refs(&self, indices: impl IntoIterator<Item = usize>) -> Vec<CallRef> {
        let mut position = 0;
        indices
            .into_iter()
            .map(|index| {
                while self.session_end(position) <= index {
                    position += 1;
                }
                let (step, tool) = self.calls[index];
                CallRef {
                    session_id: self.sessions[position].0.to_string(),
                    step: step as usize,
                    tool: self.tools[tool as usize].to_string(),
                }
            })
            .collect()
    }
}

/// Steps and tool numbers fit in 32 bits: a session of 2^32 calls, or 2^32 tools, would take
/// more than a hundred gigabytes of input. Past that they saturate rather than panic.
fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::sample::session_calls;

    use crate::test_support::session_calling as session;

    #[test]
    fn the_list_gives_back_every_call_as_session_calls_does() {
        let sessions = [
            session("a", &["search", "lookup", "search"]),
            session("empty", &[]),
            session("b", &["refund"]),
            session("a#2", &["lookup"]),
        ];
        let list = CallList::of_sessions(&sessions);
        let expected: Vec<CallRef> = sessions.iter().flat_map(session_calls).collect();
        assert_eq!(list.len(), 5);
        assert_eq!(list.refs(0..list.len()), expected);
        assert_eq!(
            list.refs([1, 3]),
            [expected[1].clone(), expected[3].clone()]
        );
        let keys: Vec<(&str, usize)> = list.keys().collect();
        assert_eq!(keys, [("a", 1), ("a", 2), ("a", 3), ("b", 1), ("a#2", 1)]);
        let tools: Vec<&str> = list
            .tool_of_each()
            .map(|tool| &*list.tool_names()[tool])
            .collect();
        assert_eq!(tools, ["search", "lookup", "search", "refund", "lookup"]);
        assert_eq!(list.tool_names().len(), 3);
        assert!(CallList::of_sessions(&sessions[1..2]).is_empty());
    }
}
