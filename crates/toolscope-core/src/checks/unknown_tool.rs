//! **unknown_tool**: the called name is not in the catalog.
//!
//! Why: an invented tool name is the cheapest hallucination to catch (the seed's `refund_order`).
//! As in the seed, an unknown call gets no schema or ordering check and does not count as seen.
//! When a known name is close (a typo, a plural), it is suggested.
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
    problem.suggestion = nearest(&call.name, catalog.names()).map(str::to_string);
    Some(problem)
}

/// The known name closest to `name`, if it is close enough to be a likely typo: at most two
/// edits, or a quarter of the shorter name's length.
pub fn nearest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let (best, distance) = known
        .map(|candidate| (candidate, strsim::damerau_levenshtein(name, candidate)))
        .min_by_key(|&(candidate, distance)| (distance, candidate))?;
    let shorter = name.chars().count().min(best.chars().count());
    (distance <= 2.max(shorter / 4)).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn suggests_typos_but_not_different_tools() {
        let known = ["issue_refund", "lookup_order", "search_docs"];
        assert_eq!(
            nearest("lookup_orders", known.into_iter()),
            Some("lookup_order")
        );
        assert_eq!(
            nearest("searchdocs", known.into_iter()),
            Some("search_docs")
        );
        assert_eq!(nearest("refund_order", known.into_iter()), None);
        assert_eq!(nearest("x", [].into_iter()), None);
    }
}
