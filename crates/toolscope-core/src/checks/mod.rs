//! The code checks: what can be caught on every call without asking a model.
//! One file per check, each documented with what it catches, why, and an example.

pub mod catalog;
pub mod compiled_schemas;
pub mod links;
pub mod malformed_args;
pub mod order;
pub mod problem;
pub mod retry_after_error;
pub mod schema;
pub mod schema_bound;
pub mod suggest;
pub mod tool_errors;
pub mod unhandled_error;
pub mod unknown_tool;
pub mod values;

use std::collections::BTreeMap;

use catalog::CompiledCatalog;
use problem::Problem;
use tool_errors::ToolErrorCounts;

use crate::inputs::rules::Rules;
use crate::model::{Args, Session, ToolCall};

/// What the checks found in one session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionFindings {
    /// Problems in step order.
    pub problems: Vec<Problem>,
    /// The session's tool result and error counts.
    pub tool_errors: ToolErrorCounts,
    /// How many tool calls it made.
    pub calls: usize,
    /// Error results by the tool of the call they answer.
    pub errors_by_tool: BTreeMap<String, u64>,
}

/// Runs every check on one session, in the seed's order per call: unknown tool (which stops
/// the other checks of that call), malformed arguments or schema, ordering; then retries after
/// errors and unhandled errors.
///
/// `catalog` is None when there is no catalog at all: then every name counts as known and only
/// the checks that need no schema run.
pub fn check_session(
    session: &Session,
    catalog: Option<&CompiledCatalog>,
    rules: &Rules,
) -> SessionFindings {
    let session_id = session.session_id.as_str();
    let links = links::link(session);
    let calls: Vec<&ToolCall> = session.calls().collect();
    let mut problems = Vec::new();
    let mut seen = order::Seen::new(rules);
    for (index, &call) in calls.iter().enumerate() {
        let step = index + 1;
        let previous = index
            .checked_sub(1)
            .map(|previous| (calls[previous], links.call_status[previous]));
        let retry = retry_after_error::check(session_id, step, call, previous);
        if let Some(catalog) = catalog {
            if let Some(problem) = unknown_tool::check(session_id, step, call, catalog) {
                problems.push(problem);
                problems.extend(retry);
                continue;
            }
            match &call.args {
                Args::Malformed { .. } => {
                    problems.extend(malformed_args::check(session_id, step, call))
                }
                Args::Json(args) => {
                    if let Some(tool) = catalog.get(&call.name) {
                        problems.extend(schema::check(session_id, step, &call.name, args, tool));
                    }
                }
            }
        } else {
            problems.extend(malformed_args::check(session_id, step, call));
        }
        problems.extend(order::check(session_id, step, call, &seen));
        problems.extend(retry);
        seen.push(call);
    }
    problems.extend(unhandled_error::check(session, &links, &calls));
    crate::sort::sort_by_key(&mut problems, |problem| problem.step);
    let mut errors_by_tool: BTreeMap<String, u64> = BTreeMap::new();
    for (call, status) in calls.iter().zip(&links.call_status) {
        if *status == Some(crate::model::ResultStatus::Error) {
            *errors_by_tool.entry(call.name.clone()).or_default() += 1;
        }
    }
    SessionFindings {
        errors_by_tool,
        problems,
        tool_errors: tool_errors::count(session),
        calls: calls.len(),
    }
}
