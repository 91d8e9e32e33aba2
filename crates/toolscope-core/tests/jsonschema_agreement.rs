//! The schema check agrees with the seed's validator, Python's
//! `Draft202012Validator(schema).iter_errors(instance)` (tests/reference/jsonschema_errors.py, one
//! Python process for the whole table).
//!
//! Each case becomes one tool of one catalog (`{"case_NN": schema}`) and one call of one
//! seed-calls trace (`[{"name": "case_NN", "args": instance}]`), so the whole table is one
//! [`analyze`] run and goes through the same readers and checks as a user's files. The instance
//! is sent as a JSON string holding the instance (as OpenAI sends arguments), so that any JSON
//! value, strings included, reaches the validator unchanged.
//!
//! Asserted for every case: the same verdict (valid or not) and the same set of failing JSON
//! pointers, except two documented pointer differences (`Case::pointers_differ`, where toolscope's
//! own pointers are pinned instead). Messages, by keyword:
//! - [`MESSAGES_VERBATIM`]: word for word Python's (the seed's exclusiveMinimum line among them);
//! - [`MESSAGES_SAME_WORDING`]: Python's words, but values shown as JSON (`"a"`, `true`) where
//!   Python shows its repr (`'a'`, `True`): asserted equal once value rendering is neutralised;
//! - [`MESSAGES_DIFFER`]: worded differently; printed side by side, not asserted.
//!
//! The Rust crate does not mirror Python verbatim for required, type, enum, const, minLength and
//! maxLength; `messages_are_pythons_verbatim_for_common_keywords` (ignored) shows where.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::run_reference;
use serde_json::{json, Map, Value};
use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::{analyze, InputFile, Options, Role};

/// Keywords whose messages are word for word Python's.
const MESSAGES_VERBATIM: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "additionalProperties",
];

/// Keywords whose messages are Python's wording but show values as JSON (`"a"`, `true`,
/// `null`, `[1,2]`) where Python shows its `repr` (`'a'`, `True`, `None`, `[1, 2]`): equal after
/// [`value_rendering_neutral`].
const MESSAGES_SAME_WORDING: &[&str] = &[
    "type",
    "required",
    "const",
    "pattern",
    "uniqueItems",
    "items",
    "prefixItems",
    "if",
    "false",
];

/// Keywords whose messages are worded differently (jsonschema 0.61 against Python jsonschema
/// 4.26), printed side by side by the test and not asserted:
/// - `enum`: `"c" is not one of "a" or "b"` / `'c' is not one of ['a', 'b']`
/// - `type (a list)`: `3 is not of types "null", "string"` / `3 is not of type 'string', 'null'`
/// - `minLength`, `maxLength`: `"ab" is shorter than 3 characters` / `'ab' is too short`
///   (and `'' should be non-empty` for minLength 1)
/// - `minItems`, `maxItems`: `[1] has less than 2 items` / `[1] is too short`
/// - `minProperties`, `maxProperties`: `{} has less than 1 property` / `{} should be non-empty`
/// - `anyOf`, `oneOf`: `... not valid under any of the schemas listed in the 'anyOf' keyword` /
///   `... is not valid under any of the given schemas`; oneOf's "more than one" likewise
/// - `not`: `{"type":"string"} is not allowed for "a"` / `'a' should not be valid under {...}`
/// - `contains`: `None of [1,2] are valid under the given schema` /
///   `[1, 2] does not contain items matching the given schema`
/// - `dependentRequired`: `"b" is a required property` / `'b' is a dependency of 'a'`
/// - `propertyNames`: the inner keyword's message / the same, Python-worded
/// - `additionalProperties (with patternProperties)`: `Additional properties are not allowed
///   ('y' was unexpected)` / `'y' does not match any of the regexes: '^x'`
/// - `items (false)`: see its case (the pointer differs too).
const MESSAGES_DIFFER: &[&str] = &[
    "enum",
    "type (a list)",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "anyOf",
    "oneOf",
    "not",
    "contains",
    "dependentRequired",
    "propertyNames",
    "additionalProperties (with patternProperties)",
    "items (false)",
];

/// One row of the table: the keyword it exercises, the schema, the instance.
struct Case {
    keyword: &'static str,
    schema: Value,
    instance: Value,
    /// Where toolscope and Python knowingly report different pointers: toolscope's pointers,
    /// and why. The verdict (valid or not) must still agree.
    pointer_divergence: Option<(&'static [&'static str], &'static str)>,
}

impl Case {
    fn pointers_differ(mut self, ours: &'static [&'static str], why: &'static str) -> Self {
        self.pointer_divergence = Some((ours, why));
        self
    }
}

fn case(keyword: &'static str, schema: Value, instance: Value) -> Case {
    Case {
        keyword,
        schema,
        instance,
        pointer_divergence: None,
    }
}

/// A message with values written the same whichever way they were rendered: Python's `repr`
/// and JSON differ in quotes (`'a'`/`"a"`), constants (`True`/`true`, `None`/`null`) and the
/// space after `,` and `:`. Only for comparing the wording around the values.
fn value_rendering_neutral(message: &str) -> String {
    let mut text = message
        .replace('\'', "\"")
        .replace(", ", ",")
        .replace(": ", ":");
    for (python, json) in [("True", "true"), ("False", "false"), ("None", "null")] {
        text = text.replace(python, json);
    }
    text
}

fn table() -> Vec<Case> {
    let seed_refund = json!({
        "type": "object",
        "properties": {
            "order_id": {"type": "string"},
            "amount": {"type": "number", "exclusiveMinimum": 0},
        },
        "required": ["order_id", "amount"],
        "additionalProperties": false,
    });
    let seed_lookup = json!({
        "type": "object",
        "properties": {"order_id": {"type": "string", "pattern": "^[A-Z0-9]{8}$"}},
        "required": ["order_id"],
        "additionalProperties": false,
    });
    let nested = json!({
        "type": "object",
        "properties": {"customer": {"type": "object", "properties": {"address": {
            "type": "object",
            "properties": {"zip": {"type": "string", "minLength": 5}},
            "required": ["zip"],
        }}}},
    });
    let tree = json!({
        "$defs": {"node": {"type": "object", "properties": {
            "child": {"$ref": "#/$defs/node"},
            "value": {"type": "integer"},
        }}},
        "$ref": "#/$defs/node",
    });
    vec![
        // type
        case("type", json!({"type": "string"}), json!(5)),
        case("type", json!({"type": "integer"}), json!(1.5)),
        case("type", json!({"type": "integer"}), json!(1.0)),
        case(
            "type (a list)",
            json!({"type": ["string", "null"]}),
            json!(3),
        ),
        case("type", json!({"type": "object"}), json!([])),
        case("type", json!({"type": "number"}), json!(true)),
        case(
            "type",
            json!({"properties": {"id": {"type": "string"}}}),
            json!({"id": {"a": "b"}}),
        ),
        // required
        case("required", json!({"required": ["a", "b"]}), json!({})),
        case("required", json!({"required": ["a"]}), json!({"a": null})),
        case("required", json!({"required": ["a"]}), json!([1])),
        // enum
        case("enum", json!({"enum": ["a", "b"]}), json!("c")),
        case("enum", json!({"enum": [1, 2]}), json!(1.0)),
        case("enum", json!({"enum": [null, true]}), json!(false)),
        case("enum", json!({"enum": [{"a": 1}]}), json!({"a": 2})),
        case("enum", json!({"enum": ["x", 1]}), json!(0)),
        // const
        case("const", json!({"const": "x"}), json!("y")),
        case("const", json!({"const": 0}), json!(false)),
        case(
            "const",
            json!({"const": {"a": [1, 2]}}),
            json!({"a": [1, 2]}),
        ),
        case("const", json!({"const": 7}), json!(8)),
        // numeric bounds
        case("minimum", json!({"minimum": 0}), json!(-5)),
        case("minimum", json!({"minimum": 1.5}), json!(1)),
        case("minimum", json!({"minimum": 0}), json!("text")),
        case("exclusiveMinimum", json!({"exclusiveMinimum": 0}), json!(0)),
        case(
            "exclusiveMinimum",
            json!({"exclusiveMinimum": 0}),
            json!(-5),
        ),
        case("maximum", json!({"maximum": 10}), json!(11)),
        case("maximum", json!({"maximum": 0}), json!(0.5)),
        case(
            "exclusiveMaximum",
            json!({"exclusiveMaximum": 10}),
            json!(10),
        ),
        case("multipleOf", json!({"multipleOf": 3}), json!(7)),
        case("multipleOf", json!({"multipleOf": 0.5}), json!(2.5)),
        // string length, counted in code points
        case("minLength", json!({"minLength": 3}), json!("ab")),
        case("minLength", json!({"minLength": 1}), json!("")),
        case("maxLength", json!({"maxLength": 2}), json!("abc")),
        case("maxLength", json!({"maxLength": 1}), json!("\u{1F600}")),
        case(
            "maxLength",
            json!({"maxLength": 1}),
            json!("\u{1F600}\u{1F600}"),
        ),
        // pattern
        case("pattern", json!({"pattern": "^[A-Z0-9]{8}$"}), json!("abc")),
        case("pattern", json!({"pattern": "\\d"}), json!("x1")),
        case("pattern", json!({"pattern": "^a"}), json!(5)),
        // additionalProperties, patternProperties
        case(
            "additionalProperties",
            json!({"properties": {"a": {}}, "additionalProperties": false}),
            json!({"a": 1, "b": 2}),
        ),
        case(
            "additionalProperties",
            json!({"properties": {"a": {}}, "additionalProperties": false}),
            json!({"a": 1, "b": 2, "c": 3}),
        ),
        case(
            "type",
            json!({"additionalProperties": {"type": "integer"}}),
            json!({"x": "s"}),
        ),
        case(
            "additionalProperties (with patternProperties)",
            json!({"patternProperties": {"^x": {}}, "additionalProperties": false}),
            json!({"xa": 1, "y": 2}),
        ),
        // arrays
        case(
            "items",
            json!({"items": {"type": "integer"}}),
            json!([1, "a", 3, "b"]),
        ),
        case(
            "prefixItems",
            json!({"prefixItems": [{"type": "string"}, {"type": "integer"}]}),
            json!(["a", "b"]),
        ),
        case(
            "items (false)",
            json!({"prefixItems": [{"type": "string"}], "items": false}),
            json!(["a", 1]),
        )
        .pointers_differ(
            &["/1"],
            "Python reports the array (\"Expected at most 1 item but found 1 extra: 1\"); the \
             Rust crate applies the false schema to each extra item and reports each item",
        ),
        case("minItems", json!({"minItems": 2}), json!([1])),
        case("maxItems", json!({"maxItems": 1}), json!([1, 2])),
        case(
            "uniqueItems",
            json!({"uniqueItems": true}),
            json!([1, 2, 1]),
        ),
        case("uniqueItems", json!({"uniqueItems": true}), json!([1, 1.0])),
        case(
            "uniqueItems",
            json!({"uniqueItems": true}),
            json!([1, true]),
        ),
        case(
            "contains",
            json!({"contains": {"type": "string"}}),
            json!([1, 2]),
        ),
        // combinators
        case(
            "anyOf",
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            json!(1.5),
        ),
        case(
            "oneOf",
            json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}),
            json!(5),
        ),
        case(
            "oneOf",
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
            json!(null),
        ),
        case(
            "allOf",
            json!({"allOf": [{"type": "integer"}, {"minimum": 10}]}),
            json!(5),
        ),
        case("not", json!({"not": {"type": "string"}}), json!("a")),
        case(
            "if",
            json!({"if": {"properties": {"kind": {"const": "refund"}}},
                   "then": {"required": ["amount"]}}),
            json!({"kind": "refund"}),
        ),
        // objects
        case("minProperties", json!({"minProperties": 1}), json!({})),
        case(
            "maxProperties",
            json!({"maxProperties": 1}),
            json!({"a": 1, "b": 2}),
        ),
        case(
            "dependentRequired",
            json!({"dependentRequired": {"a": ["b"]}}),
            json!({"a": 1}),
        ),
        case(
            "propertyNames",
            json!({"propertyNames": {"maxLength": 2}}),
            json!({"abc": 1}),
        ),
        case(
            "unevaluatedProperties",
            json!({"properties": {"a": {}}, "unevaluatedProperties": false}),
            json!({"a": 1, "b": 2}),
        ),
        case(
            "false",
            json!({"properties": {"a": false}}),
            json!({"a": 1}),
        )
        .pointers_differ(
            &["/a"],
            "Python drops the path of an error from a `false` subschema (Validator.descend \
             returns before prepending it), so it reports \"\" for the value at /a; toolscope's \
             pointer is the right one",
        ),
        // nested objects and pointers
        case(
            "minLength",
            nested.clone(),
            json!({"customer": {"address": {"zip": "123"}}}),
        ),
        case("required", nested, json!({"customer": {"address": {}}})),
        case(
            "required",
            json!({"properties": {"lines": {"type": "array", "items": {
                "type": "object",
                "required": ["sku"],
                "properties": {"qty": {"type": "integer", "minimum": 1}},
            }}}}),
            json!({"lines": [{"sku": "a", "qty": 0}, {"qty": 2}]}),
        ),
        case(
            "type",
            json!({"properties": {"a/b": {"type": "integer"}, "c~d": {"type": "integer"}}}),
            json!({"a/b": "x", "c~d": "y"}),
        ),
        // $ref and $defs
        case(
            "minimum",
            json!({"$defs": {"positive": {"type": "integer", "minimum": 1}},
                   "properties": {"n": {"$ref": "#/$defs/positive"}}}),
            json!({"n": 0}),
        ),
        case(
            "type",
            tree.clone(),
            json!({"child": {"child": {"value": "x"}}}),
        ),
        case("type", tree, json!({"child": {"value": 3}})),
        // format is an annotation without a format checker
        case("format", json!({"format": "email"}), json!("not-an-email")),
        case("format", json!({"format": "date-time"}), json!("yesterday")),
        case("format", json!({"format": "ipv4"}), json!("999.1.1.1")),
        // the seed's tools
        case(
            "exclusiveMinimum",
            seed_refund.clone(),
            json!({"order_id": "7Q2ZK9XA", "amount": -5}),
        ),
        case(
            "exclusiveMinimum",
            seed_refund.clone(),
            json!({"order_id": "7Q2ZK9XA", "amount": 12.5}),
        ),
        case("required", seed_refund, json!({"amount": "12"})),
        case(
            "pattern",
            seed_lookup.clone(),
            json!({"order_id": "7q2zk9xa", "note": "x"}),
        ),
        case("pattern", seed_lookup, json!({"order_id": "7Q2ZK9XA"})),
        // several keywords at once
        case(
            "type",
            json!({"type": "object",
                   "properties": {"a": {"type": "string"}, "b": {"maximum": 3}},
                   "required": ["c"]}),
            json!({"a": 1, "b": 4}),
        ),
    ]
}

/// One error as compared: where, and what it says.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Found {
    pointer: String,
    message: String,
}

/// Runs every case through [`analyze`]: errors per case, in the engine's order.
fn ours(cases: &[Case]) -> Vec<Vec<Found>> {
    let name = |index: usize| format!("case_{index:02}");
    let catalog: Map<String, Value> = cases
        .iter()
        .enumerate()
        .map(|(index, case)| (name(index), case.schema.clone()))
        .collect();
    let calls: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(index, case)| json!({"name": name(index), "args": case.instance.to_string()}))
        .collect();
    let catalog = serde_json::to_vec(&catalog).expect("serialises");
    let calls = serde_json::to_vec(&calls).expect("serialises");
    let report = analyze(
        &[
            InputFile::new("tools.json", &catalog, Role::Catalog),
            InputFile::new("calls.json", &calls, Role::Traces),
        ],
        &Options::default(),
    );
    assert!(
        report.diagnostics.is_empty(),
        "the table reads cleanly: {:?}",
        report.diagnostics
    );
    let mut found = vec![Vec::new(); cases.len()];
    for problem in &report.problems {
        assert_eq!(
            problem.kind,
            ProblemKind::Schema,
            "only schema problems: {problem:?}"
        );
        let index = problem.step - 1;
        let prefix = format!("{}: ", name(index));
        found[index].push(Found {
            pointer: problem
                .pointer
                .clone()
                .expect("schema problems have a pointer"),
            message: problem
                .message
                .strip_prefix(&prefix)
                .expect("messages start with the tool")
                .to_string(),
        });
    }
    found
}

/// Python's errors per case.
fn theirs(cases: &[Case]) -> (String, Vec<Vec<Found>>) {
    let request: Vec<Value> = cases
        .iter()
        .map(|case| json!({"schema": case.schema, "instance": case.instance}))
        .collect();
    let answer = run_reference("jsonschema_errors.py", &json!({"cases": request}));
    let found = answer["cases"]
        .as_array()
        .expect("one answer per case")
        .iter()
        .map(|case| {
            case["errors"]
                .as_array()
                .expect("errors")
                .iter()
                .map(|error| Found {
                    pointer: error["pointer"].as_str().expect("pointer").to_string(),
                    message: error["message"].as_str().expect("message").to_string(),
                })
                .collect()
        })
        .collect();
    (answer["jsonschema"].to_string(), found)
}

fn pointers(found: &[Found]) -> BTreeSet<&str> {
    found.iter().map(|f| f.pointer.as_str()).collect()
}

fn message_lists(found: &[Found], render: fn(&str) -> String) -> Vec<String> {
    let mut messages: Vec<String> = found.iter().map(|f| render(&f.message)).collect();
    messages.sort_unstable();
    messages
}

#[test]
fn schema_errors_agree_with_python_jsonschema() {
    let cases = table();
    let ours = ours(&cases);
    let (python_version, theirs) = theirs(&cases);
    assert_eq!(ours.len(), theirs.len());

    let mut failures = Vec::new();
    let mut differing: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut pointer_divergences = Vec::new();
    for (index, ((case, ours), theirs)) in cases.iter().zip(&ours).zip(&theirs).enumerate() {
        let label = format!(
            "case_{index:02} ({}): schema {} instance {}",
            case.keyword, case.schema, case.instance
        );
        let side_by_side = format!("{label}\n  toolscope: {ours:?}\n  python:    {theirs:?}");
        if ours.is_empty() != theirs.is_empty() {
            failures.push(format!("verdict differs: {side_by_side}"));
            continue;
        }
        match case.pointer_divergence {
            None if pointers(ours) != pointers(theirs) => {
                failures.push(format!("pointers differ: {side_by_side}"));
                continue;
            }
            None => {}
            Some((expected, why)) => {
                if pointers(ours) != expected.iter().copied().collect::<BTreeSet<&str>>() {
                    failures.push(format!("pointers not as documented: {side_by_side}"));
                    continue;
                }
                pointer_divergences.push(format!("{side_by_side}\n  known: {why}"));
            }
        }
        let verbatim = message_lists(ours, str::to_string) == message_lists(theirs, str::to_string);
        let same_wording = message_lists(ours, value_rendering_neutral)
            == message_lists(theirs, value_rendering_neutral);
        if MESSAGES_VERBATIM.contains(&case.keyword) && !verbatim {
            failures.push(format!("messages not verbatim: {side_by_side}"));
        } else if MESSAGES_SAME_WORDING.contains(&case.keyword) && !same_wording {
            failures.push(format!("messages worded differently: {side_by_side}"));
        } else if !verbatim && !same_wording {
            if MESSAGES_DIFFER.contains(&case.keyword) {
                differing
                    .entry(case.keyword)
                    .or_default()
                    .push(side_by_side);
            } else {
                failures.push(format!(
                    "messages differ for a keyword in no list: {side_by_side}"
                ));
            }
        }
    }
    let invalid = theirs.iter().filter(|errors| !errors.is_empty()).count();
    println!(
        "{} cases ({invalid} invalid, {} valid) against Python jsonschema {python_version}",
        cases.len(),
        cases.len() - invalid
    );
    println!(
        "keywords whose messages differ from Python's: {:?}",
        differing.keys().collect::<Vec<_>>()
    );
    for line in differing.values().flatten() {
        println!("{line}");
    }
    println!("documented pointer differences:");
    for line in &pointer_divergences {
        println!("{line}");
    }
    assert!(
        failures.is_empty(),
        "{} cases disagree with Python jsonschema {python_version}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The seed prints Python's messages (`'order_id' is a required property`, `'ab' is too
/// short`); toolscope prints the jsonschema crate's (`"order_id" is a required property`,
/// `"ab" is shorter than 3 characters`). Verbatim agreement for these common keywords would
/// need toolscope to word schema errors itself from the error kind.
#[test]
#[ignore = "divergence from the seed: schema messages render values as JSON, not Python repr, and word length/enum errors differently"]
fn messages_are_pythons_verbatim_for_common_keywords() {
    let cases: Vec<Case> = table()
        .into_iter()
        .filter(|case| {
            [
                "required",
                "type",
                "enum",
                "const",
                "minLength",
                "maxLength",
            ]
            .contains(&case.keyword)
        })
        .collect();
    let ours = ours(&cases);
    let (_, theirs) = theirs(&cases);
    for ((case, ours), theirs) in cases.iter().zip(&ours).zip(&theirs) {
        assert_eq!(
            message_lists(ours, str::to_string),
            message_lists(theirs, str::to_string),
            "{}: schema {} instance {}",
            case.keyword,
            case.schema,
            case.instance
        );
    }
}
