//! **unknown_tool**: the called name is not in the catalog.
//!
//! Why: an invented tool name is the cheapest hallucination to catch (the seed's `refund_order`).
//! As in the seed, an unknown call gets no schema or ordering check and does not count as seen.
//! When a known name is close (a typo, a plural), it is suggested ([`super::suggest`]).
//!
//! Example: `step 2: unknown tool 'refund_order'`.

use super::catalog::CompiledCatalog;
use super::problem::{python_repr, Problem, ProblemKind};
use crate::model::ToolCall;

/// The problem, if the call's tool is not in the catalog.
pub fn check(
    session_id: &str,
    step: usize,
    call: &ToolCall,
    catalog: &CompiledCatalog,
) -> Option<Problem> {
    if catalog.get(&call.name).is_some() {
        return None;
    }
    let mut problem = Problem::new(
        session_id,
        step,
        &call.name,
        ProblemKind::UnknownTool,
        format!("unknown tool {}", python_repr(&call.name)),
    );
    problem.suggestion = catalog.suggest(&call.name);
    Some(problem)
}
