//! Any text read as a BFCL Java or JavaScript argument of any declared type (and items' type):
//! the converters (regular expressions, slicing by characters) must never panic, and what they
//! give must survive JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope_core::metrics::bfcl_literals::Language;

const TYPES: &[&str] = &[
    "byte", "short", "integer", "long", "float", "double", "boolean", "char", "String", "any",
    "ArrayList", "Array", "HashMap", "Set", "Bigint", "Boolean", "dict", "array", "string", "",
];

fuzz_target!(|bytes: &[u8]| {
    let [selector, items, rest @ ..] = bytes else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let language = if selector & 1 == 0 { Language::Java } else { Language::JavaScript };
    let type_name = TYPES[usize::from(selector >> 1) % TYPES.len()];
    let items = (items & 0x80 != 0).then(|| TYPES[usize::from(*items & 0x7f) % TYPES.len()]);
    let value = language.convert(text, type_name, items);
    let encoded = serde_json::to_string(&value).expect("a converted value is JSON");
    let _: serde_json::Value = serde_json::from_str(&encoded).expect("and reads back");
});
