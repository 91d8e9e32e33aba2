//! Schema drift on a real export: the tools the agent was given travel in the trace (here an
//! OpenAI Chat Completions request recorded by OpenInference's test cassettes), and checking it
//! against a catalog that has moved on lists every difference, which explains the schema failures
//! that follow from the catalog rather than from the agent.

use std::collections::BTreeSet;

use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::drift::DriftKind;
use toolscope_core::{analyze, InputFile, Options, Role};

const TRACE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/formats/openai_chat/agent_with_failing_tool.chat_completions.json"
);

#[test]
fn a_catalog_that_moved_on_is_listed_as_drift_from_the_tools_in_the_trace() {
    let trace = std::fs::read(TRACE).expect("the fixture");
    // The agent saw: unreliable_search(query: string, required) "A search tool that fails."
    let catalog = br#"[
        {"name": "unreliable_search", "description": "Search the web.",
         "input_schema": {"type": "object", "properties": {"query": {"type": "integer"},
                          "limit": {"type": "integer"}}, "required": ["query", "limit"],
                          "additionalProperties": false}},
        {"name": "lookup_order", "input_schema": {"type": "object"}}
    ]"#;
    let report = analyze(
        &[
            InputFile::new("catalog.json", catalog, Role::Catalog),
            InputFile::new("trace.json", &trace, Role::Traces),
        ],
        &Options::default(),
    );
    assert!(report.summary.sessions >= 1 && report.summary.calls >= 1);
    let kinds: BTreeSet<(String, DriftKind)> = report
        .drift
        .iter()
        .map(|item| (item.tool.clone(), item.kind))
        .collect();
    let expected: BTreeSet<(String, DriftKind)> = [
        ("lookup_order", DriftKind::ToolMissing),
        ("unreliable_search", DriftKind::DescriptionChanged),
        ("unreliable_search", DriftKind::PropertyRemoved),
        ("unreliable_search", DriftKind::PropertyRetyped),
        ("unreliable_search", DriftKind::RequiredChanged),
    ]
    .into_iter()
    .map(|(tool, kind)| (tool.to_string(), kind))
    .collect();
    assert_eq!(kinds, expected, "{:#?}", report.drift);
    // The consequence drift warns about: the agent's string query fails the catalog's schema.
    assert!(report
        .problems
        .iter()
        .any(|problem| problem.kind == ProblemKind::Schema && problem.tool == "unreliable_search"));
}
