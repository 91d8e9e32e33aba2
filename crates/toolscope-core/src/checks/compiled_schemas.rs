//! Schemas compiled once per thread, however many catalogs hold them.
//!
//! A catalog compiles each of its tools' schemas ([`super::catalog::CompiledCatalog::compile`]),
//! and one analysis can hold many catalogs with the same schemas: each trace file's tool lists,
//! a filter or a comparison reading the files again, the worker's warm-up rounds. Compiling is
//! the expensive part in WebAssembly: jsonschema checks every schema against its draft's
//! meta-schema first, and where it keeps the meta-schemas compiled in statics natively, in wasm
//! it compiles the meta-schema again for each schema (`jsonschema::meta::validator_for_draft`,
//! 0.61): about 1.5 ms a schema in V8, three quarters of a small input's whole analysis
//! (docs/performance.md). A compiled validator depends on the schema alone (the options are
//! fixed, [`super::catalog::validator_for`]), and a clone shares its compiled tree, so keeping
//! them by their schema's JSON text changes no result.
//!
//! Bounded: at most [`MAX_SCHEMAS`] schemas and [`MAX_TEXT_BYTES`] of their text are kept;
//! past either, the kept ones are dropped and the count starts again, so a file of a million
//! distinct schemas costs what it did without the cache plus one serialisation each.

use std::cell::RefCell;

use jsonschema::Validator;

use super::catalog::validator_for;
use crate::hashing::HashMap;

/// The most schemas kept at once.
pub const MAX_SCHEMAS: usize = 1024;

/// The most bytes of schema text kept at once (the keys; the validators they compile to grow
/// with them).
pub const MAX_TEXT_BYTES: usize = 4 << 20;

/// Schemas by their JSON text, with what compiling them gave.
#[derive(Default)]
struct Kept {
    by_text: HashMap<String, Result<Validator, String>>,
    text_bytes: usize,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
}

/// What [`validator_for`] gives for `schema`, compiled at most once per thread while kept.
pub fn compiled(schema: &serde_json::Value) -> Result<Validator, String> {
    let text = schema.to_string();
    if let Some(kept) = KEPT.with(|kept| kept.borrow().by_text.get(&text).cloned()) {
        return kept;
    }
    let result = validator_for(schema);
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.by_text.len() >= MAX_SCHEMAS || kept.text_bytes + text.len() > MAX_TEXT_BYTES {
            *kept = Kept::default();
        }
        if text.len() <= MAX_TEXT_BYTES {
            kept.text_bytes += text.len();
            kept.by_text.insert(text, result.clone());
        }
    });
    result
}

/// Drops every kept schema (the worker's warm-up, once over, so the first file's schemas are
/// compiled as they would be without it).
pub fn forget() {
    KEPT.with(|kept| *kept.borrow_mut() = Kept::default());
}

/// How many schemas are kept now.
pub fn kept_count() -> usize {
    KEPT.with(|kept| kept.borrow().by_text.len())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_kept_schema_validates_as_a_fresh_one_and_is_compiled_once() {
        forget();
        let schema = json!({"type": "object", "properties": {"order_id": {"type": "string", "pattern": "^[A-Z0-9]{8}$"}}, "required": ["order_id"]});
        let first = compiled(&schema).unwrap();
        assert_eq!(kept_count(), 1);
        let again = compiled(&schema).unwrap();
        assert_eq!(kept_count(), 1);
        for args in [
            json!({"order_id": "7Q2ZK9XA"}),
            json!({"order_id": "7q2zk9xa"}),
            json!({}),
            json!({"order_id": 7}),
        ] {
            let fresh = validator_for(&schema).unwrap();
            let errors = |validator: &Validator| {
                validator
                    .iter_errors(&args)
                    .map(|error| error.to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(errors(&first), errors(&fresh), "{args}");
            assert_eq!(errors(&again), errors(&fresh), "{args}");
        }
    }

    #[test]
    fn a_schema_that_does_not_compile_keeps_its_message() {
        forget();
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": "one"}}});
        let error = compiled(&schema).unwrap_err();
        assert_eq!(error, validator_for(&schema).unwrap_err());
        assert_eq!(compiled(&schema).unwrap_err(), error);
        assert_eq!(kept_count(), 1);
    }

    #[test]
    fn schemas_differing_only_in_their_draft_are_kept_apart() {
        forget();
        // `exclusiveMaximum: true` is draft 4's boolean form; 2020-12 wants a number.
        let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "number", "maximum": 5, "exclusiveMaximum": true});
        let draft2020 = json!({"type": "number", "maximum": 5, "exclusiveMaximum": true});
        assert!(compiled(&draft4).unwrap().is_valid(&json!(4)));
        assert!(!compiled(&draft4).unwrap().is_valid(&json!(5)));
        assert!(compiled(&draft2020).is_err());
        assert_eq!(kept_count(), 2);
    }

    #[test]
    fn the_kept_schemas_are_bounded_in_number() {
        forget();
        for index in 0..MAX_SCHEMAS + 10 {
            compiled(&json!({"type": "object", "title": format!("tool {index}")})).unwrap();
            assert!(kept_count() <= MAX_SCHEMAS);
        }
        assert_eq!(kept_count(), 10);
    }

    #[test]
    fn the_kept_schemas_are_bounded_in_bytes() {
        forget();
        let big = |index: usize| json!({"type": "string", "description": format!("{index}{}", "x".repeat(MAX_TEXT_BYTES / 3))});
        for index in 0..3 {
            compiled(&big(index)).unwrap();
        }
        assert_eq!(kept_count(), 1, "the third clears the first two");
        let huge = json!({"type": "string", "description": "x".repeat(MAX_TEXT_BYTES + 1)});
        assert!(compiled(&huge).is_ok());
        assert_eq!(kept_count(), 0, "one over the bound is compiled, not kept");
    }
}
