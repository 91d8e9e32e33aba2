//! **retry_after_error**: a call identical to the session's previous call (same tool, same
//! arguments as JSON values, or the same raw text where they do not decode) straight after that
//! call failed.
//!
//! Why: repeating a call that just failed the same way is almost never a strategy.
//!
//! Example: `step 3: lookup_order: identical retry of step 2, which had just failed`.

use super::problem::{Problem, ProblemKind};
use super::values::args_equal;
use crate::model::{ResultStatus, ToolCall};

/// The problem, if `call` repeats `previous` and `previous` failed.
pub fn check(
    session_id: &str,
    step: usize,
    call: &ToolCall,
    previous: Option<(&ToolCall, Option<ResultStatus>)>,
) -> Option<Problem> {
    let (previous, status) = previous?;
    if status != Some(ResultStatus::Error)
        || previous.name != call.name
        || !args_equal(&previous.args, &call.args)
    {
        return None;
    }
    let mut problem = Problem::new(
        session_id,
        step,
        &call.name,
        ProblemKind::RetryAfterError,
        format!(
            "{}: identical retry of step {}, which had just failed",
            call.name,
            step - 1
        ),
    );
    problem.related_step = Some(step - 1);
    Some(problem)
}
