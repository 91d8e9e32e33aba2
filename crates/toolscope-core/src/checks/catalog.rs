//! The catalog the checks use: each tool's schema compiled once into a validator, and when it
//! has references, into the bound on its checks' work ([`SchemaBound`]).

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

use jsonschema::{PatternOptions, Validator};

use super::compiled_schemas;
use super::schema_bound::SchemaBound;
use super::suggest::{Budget, Suggester};
use crate::diagnostic::Diagnostic;
use crate::model::ToolDef;

/// How many backtracking steps one `pattern` match may take before it is called undecidable.
/// Patterns without look-around or back-references run on the linear engine and never hit it.
pub const PATTERN_BACKTRACK_LIMIT: usize = 100_000;

/// A tool with its compiled validator (None when its schema does not compile).
pub struct CompiledTool {
    /// The definition as given.
    pub def: ToolDef,
    /// The compiled schema.
    pub validator: Option<Validator>,
    /// The bound on checking one call, for a schema with references (None without: its checks
    /// are bounded by its size and the arguments').
    pub bound: Option<SchemaBound>,
}

/// Tools by name, compiled, with the suggestions for names not among them.
pub struct CompiledCatalog {
    tools: BTreeMap<String, CompiledTool>,
    /// Behind a lock because lookups remember their answers while the catalog is shared.
    suggester: Mutex<Suggester>,
}

impl CompiledCatalog {
    /// Compiles every tool's schema (once per thread, [`compiled_schemas`]); one that does not compile is a diagnostic against `source`
    /// and its tool is still known (its calls are then not schema-checked). Suggestions for
    /// unknown names spend `budget`.
    pub fn compile(
        tools: &[ToolDef],
        source: &str,
        diagnostics: &mut Vec<Diagnostic>,
        budget: &Budget,
    ) -> Self {
        let mut compiled = BTreeMap::new();
        for def in tools {
            let checker = compiled_schemas::compiled(&def.input_schema).and_then(|validator| {
                let draft = draft_of(&def.input_schema);
                let bound = SchemaBound::for_schema(&def.input_schema, draft)
                    .map_err(|message| format!("its references cannot be followed: {message}"))?;
                Ok((validator, bound))
            });
            let (validator, bound) = match checker {
                Ok((validator, bound)) => (Some(validator), bound),
                Err(message) => {
                    diagnostics.push(Diagnostic::error(
                        source,
                        None,
                        format!(
                            "tool {:?}: its schema does not compile ({message}); its calls are not schema-checked",
                            def.name
                        ),
                    ));
                    (None, None)
                }
            };
            compiled.insert(
                def.name.clone(),
                CompiledTool {
                    def: def.clone(),
                    validator,
                    bound,
                },
            );
        }
        let suggester = Mutex::new(Suggester::new(
            compiled.keys().map(String::as_str),
            budget.clone(),
        ));
        CompiledCatalog {
            tools: compiled,
            suggester,
        }
    }

    /// The known name to suggest for an unknown `name`, if one is close (see [`Suggester`]).
    pub fn suggest(&self, name: &str) -> Option<String> {
        let mut suggester = self
            .suggester
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        suggester.suggest(name).map(str::to_string)
    }

    /// How many distinct unknown names got no suggestion because the suggestions' budget was
    /// spent.
    pub fn suggestions_skipped(&self) -> u64 {
        let suggester = self
            .suggester
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        suggester.skipped()
    }

    /// The tool of that name.
    pub fn get(&self, name: &str) -> Option<&CompiledTool> {
        self.tools.get(name)
    }

    /// Every tool name, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// Whether the catalog has no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// Compiles a schema as the seed's `Draft202012Validator` treats it: the draft named by
/// `$schema`, else 2020-12; `format` is an annotation, not checked (as in Python's jsonschema
/// without a format checker); regexes bounded.
pub fn validator_for(schema: &serde_json::Value) -> Result<Validator, String> {
    jsonschema::options()
        .with_draft(draft_of(schema))
        .should_validate_formats(false)
        .with_pattern_options(
            PatternOptions::fancy_regex().backtrack_limit(PATTERN_BACKTRACK_LIMIT),
        )
        .build(schema)
        .map_err(|error| error.to_string())
}

/// The draft `$schema` names, else 2020-12, as the seed reads it.
pub(super) fn draft_of(schema: &serde_json::Value) -> jsonschema::Draft {
    use jsonschema::Draft;
    let uri = schema.get("$schema").and_then(|v| v.as_str()).unwrap_or("");
    if uri.contains("draft-04") {
        Draft::Draft4
    } else if uri.contains("draft-06") {
        Draft::Draft6
    } else if uri.contains("draft-07") {
        Draft::Draft7
    } else if uri.contains("2019-09") {
        Draft::Draft201909
    } else {
        Draft::Draft202012
    }
}
