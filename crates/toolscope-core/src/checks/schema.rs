//! **schema**: the arguments fail the tool's JSON Schema; every validation error is reported,
//! with the JSON pointer of the failing value. Messages are the jsonschema crate's, which match
//! Python's jsonschema for the seed's cases.
//!
//! Why: the agent already describes its tools with these schemas; checking what it sent back
//! against them is free and catches the shape of bad arguments (not their truth).
//!
//! Example: `step 1: issue_refund: -5 is less than or equal to the minimum of 0`.
//!
//! A **schema_undecidable** problem instead says the call is neither valid nor invalid, when a
//! `pattern`'s match exceeds the regex engine's bound, or when the schema's references would make
//! checking the call take more than a bounded amount of work ([`super::schema_bound`]), or loop:
//! `step 1: t: could not decide the schema for / (its references expand to more than 1,000,000
//! checks for these arguments)`.

use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::catalog::CompiledTool;
use super::problem::{Problem, ProblemKind};
use super::schema_bound::{Assessment, CHECK_BUDGET, MAX_NESTING};
use crate::diagnostic::grouped;

/// Every schema error of decoded arguments; or, when checking them would exceed the bound on
/// the work, one problem saying so instead.
pub fn check(
    session_id: &str,
    step: usize,
    name: &str,
    args: &Value,
    tool: &CompiledTool,
) -> Vec<Problem> {
    let Some(validator) = &tool.validator else {
        return Vec::new();
    };
    let assessment = tool.bound.as_ref().map_or(
        Assessment::Within {
            can_list_errors: true,
        },
        |bound| bound.assess(args),
    );
    let can_list_errors = match assessment {
        Assessment::Within { can_list_errors } => can_list_errors,
        Assessment::TooManyChecks => {
            let reason = format!(
                "its references expand to more than {} checks for these arguments",
                grouped(CHECK_BUDGET)
            );
            return vec![undecidable(session_id, step, name, "", &reason)];
        }
        Assessment::TooDeep => {
            let reason = format!(
                "its references nest more than {} levels deep for these arguments",
                grouped(MAX_NESTING as u64)
            );
            return vec![undecidable(session_id, step, name, "", &reason)];
        }
        Assessment::Loop { pointer } => {
            let reason = "it refers back to itself there without descending into the \
                          arguments, which JSON Schema leaves undefined";
            return vec![undecidable(session_id, step, name, &pointer, reason)];
        }
    };
    if validator.is_valid(args) {
        return Vec::new();
    }
    if !can_list_errors {
        let message = format!(
            "{name}: the arguments do not match the schema (listing the errors would take more \
             than {} steps)",
            grouped(CHECK_BUDGET)
        );
        let mut problem = Problem::new(session_id, step, name, ProblemKind::Schema, message);
        problem.pointer = Some(String::new());
        return vec![problem];
    }
    validator
        .iter_errors(args)
        .map(|error| {
            let undecidable = matches!(
                error.kind(),
                ValidationErrorKind::BacktrackLimitExceeded { .. }
                    | ValidationErrorKind::RegexEngineFailure { .. }
            );
            let pointer = error.instance_path().to_string();
            let (kind, message) = if undecidable {
                (
                    ProblemKind::SchemaUndecidable,
                    format!(
                        "{name}: could not decide the schema's pattern for {} ({error})",
                        if pointer.is_empty() { "/" } else { &pointer }
                    ),
                )
            } else {
                (ProblemKind::Schema, format!("{name}: {error}"))
            };
            let mut problem = Problem::new(session_id, step, name, kind, message);
            problem.pointer = Some(pointer);
            problem
        })
        .collect()
}

/// A call the schema check could not decide, for `reason`, at `pointer` ("" for the arguments).
fn undecidable(session_id: &str, step: usize, name: &str, pointer: &str, reason: &str) -> Problem {
    let shown = if pointer.is_empty() { "/" } else { pointer };
    let message = format!("{name}: could not decide the schema for {shown} ({reason})");
    let mut problem = Problem::new(
        session_id,
        step,
        name,
        ProblemKind::SchemaUndecidable,
        message,
    );
    problem.pointer = Some(pointer.to_string());
    problem
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::check;
    use crate::checks::catalog::CompiledCatalog;
    use crate::checks::problem::{Problem, ProblemKind};
    use crate::model::ToolDef;

    /// The problems of one call of tool "t" with `schema`.
    fn problems(schema: &Value, args: &Value) -> Vec<Problem> {
        let tool = ToolDef {
            name: "t".into(),
            description: None,
            input_schema: schema.clone(),
        };
        let mut diagnostics = Vec::new();
        let catalog =
            CompiledCatalog::compile(&[tool], "tools.json", &mut diagnostics, &Default::default());
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        check("s", 1, "t", args, catalog.get("t").expect("compiled"))
    }

    /// (kind, pointer, message) of each problem.
    fn summary(problems: &[Problem]) -> Vec<(ProblemKind, String, String)> {
        problems
            .iter()
            .map(|problem| {
                let pointer = problem.pointer.clone().unwrap_or_default();
                (problem.kind, pointer, problem.message.clone())
            })
            .collect()
    }

    use super::super::schema_bound::doubling_defs;

    #[test]
    fn calls_within_the_bound_get_the_validators_errors_unchanged() {
        let tree = json!({
            "$defs": {"node": {"type": "object", "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
            "$ref": "#/$defs/node",
        });
        let deep = (0..100).fold(
            json!({"value": "leaf"}),
            |child, level| json!({"value": level, "children": [child, {"value": 1.5}]}),
        );
        let pydantic = json!({
            "$defs": {"Line": {"type": "object", "properties": {
                "sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}},
                "required": ["sku", "qty"]}},
            "type": "object",
            "properties": {"lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}}},
        });
        let lines = json!({"lines": [{"sku": "a", "qty": 0}, {"qty": 2}, {"sku": "b", "qty": 1}]});
        for (schema, args) in [(&tree, &deep), (&pydantic, &lines)] {
            let validator = crate::checks::catalog::validator_for(schema).unwrap();
            let expected: Vec<(ProblemKind, String, String)> = validator
                .iter_errors(args)
                .map(|error| {
                    let pointer = error.instance_path().to_string();
                    (ProblemKind::Schema, pointer, format!("t: {error}"))
                })
                .collect();
            assert!(!expected.is_empty());
            assert_eq!(summary(&problems(schema, args)), expected);
        }
        assert!(problems(&pydantic, &json!({"lines": [{"sku": "a", "qty": 1}]})).is_empty());
    }

    #[test]
    fn a_call_whose_references_expand_past_the_budget_is_undecidable() {
        assert_eq!(
            summary(&problems(&doubling_defs(30), &json!(1.5))),
            [(
                ProblemKind::SchemaUndecidable,
                String::new(),
                "t: could not decide the schema for / (its references expand to more than \
                 1,000,000 checks for these arguments)"
                    .to_string()
            )]
        );
    }

    #[test]
    fn a_schema_that_loops_at_one_value_is_undecidable_there() {
        let schema = json!({"properties": {"a/b": {"anyOf": [{"$ref": "#/properties/a~1b"}]}}});
        assert_eq!(
            summary(&problems(&schema, &json!({"a/b": 1}))),
            [(
                ProblemKind::SchemaUndecidable,
                "/a~1b".to_string(),
                "t: could not decide the schema for /a~1b (it refers back to itself there \
                 without descending into the arguments, which JSON Schema leaves undefined)"
                    .to_string()
            )]
        );
    }

    #[test]
    fn references_nested_past_the_bound_are_undecidable() {
        let schema = super::super::schema_bound::chain_of_refs(1_100);
        let found = problems(&schema, &json!(1));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, ProblemKind::SchemaUndecidable);
        assert_eq!(
            found[0].message,
            "t: could not decide the schema for / (its references nest more than 1,024 levels \
             deep for these arguments)"
        );
    }

    #[test]
    fn a_failing_call_whose_errors_would_take_too_long_to_list_is_one_problem() {
        assert_eq!(
            summary(&problems(&doubling_defs(15), &json!(1.5))),
            [(
                ProblemKind::Schema,
                String::new(),
                "t: the arguments do not match the schema (listing the errors would take more \
                 than 1,000,000 steps)"
                    .to_string()
            )]
        );
        assert!(problems(&doubling_defs(15), &json!("a")).is_empty());
    }
}
