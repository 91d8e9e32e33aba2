//! Any text through `json::parse_shape` (how detection sees a record over a megabyte) and through
//! serde_json: the shape accepts every text serde_json does, and more only where a number out of
//! a float's range sits in a part it skips (skipping does not read numbers as floats; found by
//! this target); where nothing is long enough to be cut (no array over 64 items, no string over
//! 512 characters, few values) the shape is the value.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolscope_core::json::parse_shape;

/// Whether anything in the value is past what a shape keeps.
fn is_cut(value: &Value) -> bool {
    match value {
        Value::String(text) => text.chars().count() > 512,
        Value::Array(items) => items.len() > 64 || items.iter().any(is_cut),
        Value::Object(map) => map.values().any(is_cut),
        _ => false,
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let shape = parse_shape(text);
    let value = serde_json::from_str::<Value>(text);
    match (&shape, &value) {
        (Err(_), Ok(_)) => panic!("the shape refused JSON: {shape:?}"),
        (Ok(_), Err(error)) => {
            assert!(error.to_string().starts_with("number out of range"), "{error}")
        }
        _ => {}
    }
    if let (Ok(shape), Ok(value)) = (shape, value) {
        if !is_cut(&value) && text.len() < 10_000 {
            assert_eq!(shape, value);
        }
    }
});
