//! Arguments against lists of acceptable values, as the Berkeley Function Calling Leaderboard's
//! AST checker judges them (`bfcl_eval/eval_checker/ast_eval/ast_checker.py`).
//!
//! A label gives, per parameter, the values it accepts; `""` among them means the parameter may
//! be left out. A call's arguments match when:
//! 1. every parameter the tool's schema marks `required` is present;
//! 2. every parameter given is one the label lists (extra ones are allowed in subset mode);
//! 3. each value has the schema's type; an integer passes for a `number` (BFCL's int-for-float),
//!    and a value of the type the acceptable values have passes too (BFCL's "variable" case:
//!    `"x"` for an integer parameter whose answer is the variable name `"x"`); array items are
//!    checked one level deep;
//! 4. each value is acceptable: strings (also inside arrays and objects) compared after removing
//!    spaces and `,./-_*^` and lower-casing (`"April 1, 2024"` = `"april 1 2024"`), objects
//!    key by key against acceptable objects, arrays of objects element by element, other values
//!    by equality (Python's: `1 == 1.0 == true`);
//! 5. every parameter whose list lacks `""` is present.
//!
//! Without a schema (the tool is not defined anywhere), steps 1 and 3 are skipped and values are
//! compared by their own type.
//!
//! BFCL's Java and JavaScript questions (a schema with `"x-bfcl-language"`, each parameter's
//! declared type in `"x-bfcl-type"`, as the BFCL reader writes them) take every argument as a
//! string: one that is not fails, the others are first converted by the declared type
//! ([`super::bfcl_literals`]), then judged as above without the int-for-float rule.

use serde_json::{Map, Value};

use super::bfcl_literals::Language;
use crate::checks::values::deep_equal;
use crate::model::ToolDef;

/// Python's types of JSON values, which BFCL's checker compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Str,
    Int,
    Float,
    Bool,
    List,
    Dict,
    Null,
}

fn kind(value: &Value) -> Kind {
    match value {
        Value::String(_) => Kind::Str,
        Value::Number(number) if number.is_f64() => Kind::Float,
        Value::Number(_) => Kind::Int,
        Value::Bool(_) => Kind::Bool,
        Value::Array(_) => Kind::List,
        Value::Object(_) => Kind::Dict,
        Value::Null => Kind::Null,
    }
}

/// The kind a JSON Schema `type` (as the readers convert BFCL's types) asks for.
fn declared_kind(schema: &Value) -> Option<Kind> {
    match schema.get("type")?.as_str()? {
        "string" => Some(Kind::Str),
        "integer" => Some(Kind::Int),
        "number" => Some(Kind::Float),
        "boolean" => Some(Kind::Bool),
        "array" => Some(Kind::List),
        "object" => Some(Kind::Dict),
        _ => None,
    }
}

/// What a parameter's declaration asks of its value: its kind, its items' kind (checked one
/// level deep) and whether an integer passes for a float (Python's questions only).
#[derive(Debug, Clone, Copy)]
struct Declared {
    kind: Option<Kind>,
    items: Option<Kind>,
    int_as_float: bool,
}

impl Declared {
    /// A JSON Schema property (BFCL's Python types, as the readers convert them).
    fn of_schema(property: Option<&Value>) -> Declared {
        let kind = property.and_then(declared_kind);
        let items = property
            .filter(|_| kind == Some(Kind::List))
            .and_then(|property| property.get("items"))
            .and_then(declared_kind);
        Declared {
            kind,
            items,
            int_as_float: true,
        }
    }
}

/// A Java or JavaScript argument converted from its string by the declared BFCL type, with
/// what that type asks; an argument that is not a string is an error (BFCL's `type_error:java`).
fn converted(
    language: Language,
    name: &str,
    value: &Value,
    property: Option<&Value>,
) -> Result<(Value, Declared), String> {
    let bfcl_type = property
        .and_then(|property| property.get("x-bfcl-type"))
        .and_then(Value::as_str)
        .filter(|bfcl_type| language.converts(bfcl_type));
    let Some(bfcl_type) = bfcl_type else {
        return Ok((value.clone(), Declared::of_schema(property)));
    };
    let Value::String(text) = value else {
        return Err(format!(
            "{name:?}: expected a {} {bfcl_type} as a string, got {value}",
            language.name()
        ));
    };
    let items = property
        .and_then(|property| property.get("x-bfcl-items"))
        .and_then(Value::as_str)
        .filter(|_| language.has_items(bfcl_type));
    let declared = Declared {
        kind: language.kind_of(bfcl_type),
        items: items.and_then(|items| language.kind_of(items)),
        int_as_float: false,
    };
    Ok((language.convert(text, bfcl_type, items), declared))
}

/// The type of the first acceptable value that is not the "may be omitted" marker.
fn acceptable_kind(acceptable: &[Value]) -> Option<Kind> {
    acceptable
        .iter()
        .find(|value| value.as_str() != Some(""))
        .map(kind)
}

/// The argument schema of the tool called `name` among `tools` (the definitions that apply to
/// the session), if it is defined there.
pub fn schema_for<'a>(tools: Option<&'a [ToolDef]>, name: &str) -> Option<&'a Value> {
    tools
        .and_then(|tools| tools.iter().find(|tool| tool.name == name))
        .map(|tool| &tool.input_schema)
}

/// Whether `actual` (a call's arguments) matches `acceptable` (parameter → acceptable values).
/// `schema` is the tool's argument schema, when known; `allow_extra` lets parameters the label
/// does not list pass. The error says what did not match.
pub fn check_acceptable(
    actual: &Value,
    acceptable: &Map<String, Value>,
    schema: Option<&Value>,
    allow_extra: bool,
) -> Result<(), String> {
    let Value::Object(params) = actual else {
        return Err("the arguments are not an object".into());
    };
    let properties = schema
        .and_then(|schema| schema.get("properties"))
        .and_then(Value::as_object);
    let required = schema
        .and_then(|schema| schema.get("required"))
        .and_then(Value::as_array);
    let language = schema
        .and_then(|schema| schema.get("x-bfcl-language"))
        .and_then(Value::as_str)
        .and_then(Language::from_name);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        if !params.contains_key(name) {
            return Err(format!("missing required parameter {name:?}"));
        }
    }
    for (name, value) in params {
        let listed = acceptable.get(name).and_then(Value::as_array);
        let defined = properties.is_none_or(|properties| properties.contains_key(name));
        let Some(listed) = listed.filter(|_| defined) else {
            if allow_extra {
                continue;
            }
            return Err(format!("unexpected parameter {name:?}"));
        };
        let property = properties.and_then(|properties| properties.get(name));
        match language {
            Some(language) => {
                let (value, declared) = converted(language, name, value, property)?;
                check_value(name, &value, listed, declared)?;
            }
            None => check_value(name, value, listed, Declared::of_schema(property))?,
        }
    }
    for (name, listed) in acceptable {
        let optional = listed
            .as_array()
            .is_some_and(|values| values.iter().any(|value| value.as_str() == Some("")));
        if !params.contains_key(name) && !optional {
            return Err(format!("parameter {name:?} is missing"));
        }
    }
    Ok(())
}

/// One parameter's value against its acceptable values (steps 3 and 4).
fn check_value(
    name: &str,
    value: &Value,
    acceptable: &[Value],
    declared: Declared,
) -> Result<(), String> {
    let expected = declared.kind;
    let item_kind = declared.items;
    let mut is_variable = false;
    if let Some(expected) = expected {
        let given = match kind(value) {
            Kind::Int if expected == Kind::Float && declared.int_as_float => Kind::Float,
            other => other,
        };
        let answer_kind = acceptable_kind(acceptable);
        if given == expected {
            is_variable = answer_kind.is_some_and(|answer| answer != expected);
            if let (Some(items), Value::Array(values)) = (item_kind, value) {
                if !items_have_kind(values, items, acceptable) {
                    return Err(format!("{name:?}: an item is not of type {items:?}"));
                }
            }
        } else if answer_kind == Some(given) {
            is_variable = true;
        } else {
            return Err(format!(
                "{name:?}: expected type {expected:?}, got {given:?}"
            ));
        }
    }
    let accepted = if is_variable {
        contains(acceptable, value)
    } else {
        match (expected.unwrap_or_else(|| kind(value)), value) {
            (Kind::Dict, Value::Object(object)) => dict_accepted(object, acceptable),
            (Kind::List, Value::Array(items)) if item_kind == Some(Kind::Dict) => {
                list_of_dicts_accepted(items, acceptable)
            }
            (Kind::Str, Value::String(text)) => acceptable
                .iter()
                .filter_map(Value::as_str)
                .any(|answer| standardize(answer) == standardize(text)),
            (Kind::List, Value::Array(items)) => {
                let given = standardize_items(items);
                acceptable
                    .iter()
                    .any(|answer| python_equal(&given, &standardized_answer_list(answer)))
            }
            _ => contains(acceptable, value),
        }
    };
    if accepted {
        Ok(())
    } else {
        Err(format!("{name:?}: {value} is not an acceptable value"))
    }
}

/// BFCL's one-level item check: each item has the items' declared type or the type of the
/// acceptable list's items; an acceptable value that is not a list passes every item.
fn items_have_kind(values: &[Value], items: Kind, acceptable: &[Value]) -> bool {
    acceptable.iter().any(|answer| match answer {
        Value::Array(answer_items) => {
            let answer_kind = acceptable_kind(answer_items);
            values.iter().all(|item| {
                let given = kind(item);
                given == items || answer_kind == Some(given)
            })
        }
        _ => true,
    })
}

/// An object argument against acceptable objects (each key → acceptable values).
fn dict_accepted(object: &Map<String, Value>, acceptable: &[Value]) -> bool {
    acceptable.iter().any(|answer| {
        let Value::Object(answer) = answer else {
            return false;
        };
        // BFCL iterates a key's acceptable values: a string there (a ground truth that gives
        // one value unlisted) is the list of its characters, and, `"" in` it being true, the
        // key may be left out.
        let values_fit = object.iter().all(|(key, value)| {
            let Some(Value::Array(options)) = answer.get(key).map(standardized_answer_list) else {
                return false;
            };
            let given = standardize_value(value);
            options.iter().any(|option| python_equal(&given, option))
        });
        let none_missing = answer.iter().all(|(key, listed)| {
            object.contains_key(key)
                || match listed {
                    Value::Array(values) => values.iter().any(|v| v.as_str() == Some("")),
                    Value::String(_) => true,
                    _ => false,
                }
        });
        values_fit && none_missing
    })
}

/// A list of objects against acceptable lists of objects, element by element.
fn list_of_dicts_accepted(items: &[Value], acceptable: &[Value]) -> bool {
    acceptable.iter().any(|answer| {
        let answer_items: &[Value] = match answer {
            Value::Array(answer_items) => answer_items,
            Value::String(text) if text.is_empty() => &[],
            _ => return false,
        };
        answer_items.len() == items.len()
            && items.iter().zip(answer_items).all(|(item, expected)| {
                item.as_object()
                    .is_some_and(|object| dict_accepted(object, std::slice::from_ref(expected)))
            })
    })
}

/// BFCL's `standardize_string`: no spaces or `,./-_*^`, lower case, `'` as `"`.
pub fn standardize(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ' ' | ',' | '.' | '/' | '-' | '_' | '*' | '^'))
        .flat_map(char::to_lowercase)
        .map(|c| if c == '\'' { '"' } else { c })
        .collect()
}

fn standardize_value(value: &Value) -> Value {
    match value {
        Value::String(text) => Value::String(standardize(text)),
        other => other.clone(),
    }
}

fn standardize_items(items: &[Value]) -> Value {
    Value::Array(items.iter().map(standardize_value).collect())
}

/// An acceptable list with its strings standardized; BFCL iterates a string answer (the `""`
/// marker) as a list of its characters.
fn standardized_answer_list(answer: &Value) -> Value {
    match answer {
        Value::Array(items) => standardize_items(items),
        Value::String(text) => Value::Array(
            text.chars()
                .map(|c| Value::String(standardize(&c.to_string())))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn contains(acceptable: &[Value], value: &Value) -> bool {
    acceptable.iter().any(|answer| python_equal(answer, value))
}

/// Python's `==` on decoded JSON: numbers by value, `true == 1`, containers item by item.
pub fn python_equal(left: &Value, right: &Value) -> bool {
    fn as_number(value: &Value) -> Option<f64> {
        match value {
            Value::Number(number) => number.as_f64(),
            Value::Bool(flag) => Some(f64::from(u8::from(*flag))),
            _ => None,
        }
    }
    deep_equal(left, right, &|left, right| match (left, right) {
        (Value::Number(a), Value::Number(b)) if a == b => true,
        (Value::Number(_) | Value::Bool(_), Value::Number(_) | Value::Bool(_)) => {
            as_number(left) == as_number(right)
        }
        _ => left == right,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    proptest! {
        /// Arguments that pass without extra parameters pass with them allowed: scoring leaves
        /// the subset comparison out when the exact one says yes.
        #[test]
        fn what_passes_exactly_passes_with_extra_allowed(
            params in proptest::collection::btree_map(0..4usize, 0..3u8, 0..4),
            acceptable in proptest::collection::btree_map(
                0..4usize,
                proptest::collection::vec(proptest::option::of(0..3u8), 1..3),
                0..4,
            ),
        ) {
            let name = |key: usize| ["a", "b", "c", "d"][key].to_string();
            let actual = Value::Object(
                params.iter().map(|(&key, &value)| (name(key), json!(value))).collect(),
            );
            // None is "", the answer that makes a parameter optional.
            let acceptable: Map<String, Value> = acceptable
                .iter()
                .map(|(&key, values)| {
                    let values = values
                        .iter()
                        .map(|value| value.map_or(json!(""), |value| json!(value)))
                        .collect();
                    (name(key), Value::Array(values))
                })
                .collect();
            if check_acceptable(&actual, &acceptable, None, false).is_ok() {
                prop_assert_eq!(check_acceptable(&actual, &acceptable, None, true), Ok(()));
            }
        }
    }

    fn schema() -> Value {
        json!({"type": "object", "required": ["city"], "properties": {
            "city": {"type": "string"}, "days": {"type": "integer"},
            "scale": {"type": "number"}, "tags": {"type": "array", "items": {"type": "string"}},
            "filters": {"type": "object"}}})
    }

    fn check(actual: Value, acceptable: Value) -> Result<(), String> {
        check_acceptable(
            &actual,
            acceptable.as_object().unwrap(),
            Some(&schema()),
            false,
        )
    }

    #[test]
    fn strings_are_compared_as_bfcl_standardizes_them() {
        let acceptable = json!({"city": ["New York, NY", "NYC"]});
        assert!(check(json!({"city": "new york ny"}), acceptable.clone()).is_ok());
        assert!(check(json!({"city": "nyc."}), acceptable.clone()).is_ok());
        assert!(check(json!({"city": "Boston"}), acceptable).is_err());
        assert_eq!(standardize("April 1, 2024"), "april12024");
    }

    #[test]
    fn the_empty_string_marks_a_parameter_that_may_be_omitted() {
        let acceptable = json!({"city": ["Paris"], "days": ["", 3]});
        assert!(check(json!({"city": "Paris"}), acceptable.clone()).is_ok());
        assert!(check(json!({"city": "Paris", "days": 3}), acceptable.clone()).is_ok());
        let error = check(json!({"days": 3}), acceptable.clone()).unwrap_err();
        assert!(error.contains("required"), "{error}");
        let acceptable = json!({"city": ["Paris"], "days": [3]});
        assert!(check(json!({"city": "Paris"}), acceptable)
            .unwrap_err()
            .contains("missing"));
    }

    #[test]
    fn integers_pass_for_numbers_but_not_floats_for_integers() {
        let acceptable = json!({"city": ["Paris"], "scale": [2.0], "days": [3]});
        assert!(check(
            json!({"city": "Paris", "scale": 2, "days": 3}),
            acceptable.clone()
        )
        .is_ok());
        let error = check(
            json!({"city": "Paris", "scale": 2.0, "days": 3.0}),
            acceptable,
        )
        .unwrap_err();
        assert!(error.contains("type"), "{error}");
    }

    #[test]
    fn unexpected_parameters_fail_unless_extras_are_allowed() {
        let acceptable = json!({"city": ["Paris"]});
        let actual = json!({"city": "Paris", "tags": ["x"]});
        assert!(check(actual.clone(), acceptable.clone()).is_err());
        assert!(check_acceptable(
            &actual,
            acceptable.as_object().unwrap(),
            Some(&schema()),
            true
        )
        .is_ok());
    }

    #[test]
    fn a_variable_name_passes_where_the_answer_is_one() {
        let acceptable = json!({"city": ["Paris"], "days": ["num_days"]});
        assert!(check(
            json!({"city": "Paris", "days": "num_days"}),
            acceptable.clone()
        )
        .is_ok());
        assert!(check(json!({"city": "Paris", "days": "Num_Days"}), acceptable).is_err());
    }

    #[test]
    fn lists_and_objects_compare_their_strings_standardized() {
        let acceptable = json!({"city": ["Paris"], "tags": [["Art Deco", "museums"], ""],
            "filters": ["", {"price": ["low", "cheap"], "open": ["", true]}]});
        assert!(check(
            json!({"city": "Paris", "tags": ["art-deco", "Museums"], "filters": {"price": "Cheap"}}),
            acceptable.clone()
        )
        .is_ok());
        assert!(check(
            json!({"city": "Paris", "tags": ["museums", "art deco"]}),
            acceptable.clone()
        )
        .is_err());
        assert!(check(
            json!({"city": "Paris", "filters": {"open": true}}),
            acceptable.clone()
        )
        .is_err());
        assert!(check(json!({"city": "Paris", "tags": []}), acceptable).is_ok());
    }

    #[test]
    fn python_equality_treats_booleans_as_numbers() {
        assert!(python_equal(&json!(1), &json!(1.0)));
        assert!(python_equal(&json!(true), &json!(1)));
        assert!(!python_equal(&json!("1"), &json!(1)));
        assert!(python_equal(
            &json!([1, {"a": 2.0}]),
            &json!([1.0, {"a": 2}])
        ));
    }

    #[test]
    fn java_arguments_are_strings_converted_by_their_declared_type() {
        let schema = json!({"type": "object", "x-bfcl-language": "java", "properties": {
            "size": {"type": "string", "x-bfcl-type": "long"},
            "ids": {"type": "string", "x-bfcl-type": "ArrayList", "x-bfcl-items": "integer"}}});
        let acceptable = json!({"size": [10], "ids": [[1, 2]]});
        let check = |actual: Value| {
            check_acceptable(
                &actual,
                acceptable.as_object().unwrap(),
                Some(&schema),
                false,
            )
        };
        let written = json!({"size": "10L", "ids": "new ArrayList<>(Arrays.asList(1, 2))"});
        assert!(check(written).is_ok());
        let ids = "new ArrayList<>(Arrays.asList(1, 2))";
        let error = check(json!({"size": 10, "ids": ids})).unwrap_err();
        assert!(error.contains("as a string"), "{error}");
        // "10" is not a Java long literal: it stays a string, of the wrong type.
        let error = check(json!({"size": "10", "ids": "new ArrayList<>(Arrays.asList(1, 2))"}));
        assert!(error.unwrap_err().contains("type"));
    }

    #[test]
    fn without_a_schema_types_are_not_checked() {
        let acceptable = json!({"n": [5]});
        assert!(check_acceptable(
            &json!({"n": 5.0}),
            acceptable.as_object().unwrap(),
            None,
            false
        )
        .is_ok());
        assert!(check_acceptable(
            &json!({"m": 5}),
            acceptable.as_object().unwrap(),
            None,
            false
        )
        .is_err());
    }
}
