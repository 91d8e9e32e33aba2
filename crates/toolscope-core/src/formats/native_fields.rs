//! Fields of a native session record read straight from the parser's text, without a
//! `serde_json::Value` (an allocation) for each: an event's `type`, `status` and
//! `error_source` are one of a few words, and ids are kept as the text they are. Each reads what
//! `Option<Value>` read before, so a field of the wrong type is still one diagnostic, and the
//! readers' messages are unchanged (the native reader's tests and snapshots hold them).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// The words an event's `type`, `status` and `error_source` may be.
const WORDS: [&str; 8] = [
    "user",
    "assistant",
    "tool_use",
    "tool_result",
    "ok",
    "error",
    "agent",
    "environment",
];

/// A field that should be a word: one of [`WORDS`] (no allocation), another string, or not a
/// string at all.
#[derive(Debug, PartialEq)]
pub(crate) enum Word {
    Known(&'static str),
    Other(String),
    NotText,
}

impl Word {
    /// The text, when the field is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Word::Known(word) => Some(word),
            Word::Other(text) => Some(text),
            Word::NotText => None,
        }
    }
}

impl FromScalar for Word {
    fn text(text: &str) -> Self {
        match WORDS.iter().find(|word| **word == text) {
            Some(word) => Word::Known(word),
            None => Word::Other(text.to_string()),
        }
    }

    fn number(_: serde_json::Number) -> Self {
        Word::NotText
    }

    fn other() -> Self {
        Word::NotText
    }
}

/// An id as `super::id_text` reads one from a `Value`: a string as it is, a number as
/// serde_json writes it, anything else none.
#[derive(Debug, PartialEq)]
pub(crate) struct Id(pub(crate) Option<String>);

impl FromScalar for Id {
    fn text(text: &str) -> Self {
        Id(Some(text.to_string()))
    }

    fn number(number: serde_json::Number) -> Self {
        Id(Some(number.to_string()))
    }

    fn other() -> Self {
        Id(None)
    }
}

/// A field made from a string, a number, or anything else (whose content is skipped).
pub(crate) trait FromScalar: Sized {
    fn text(text: &str) -> Self;
    fn number(number: serde_json::Number) -> Self;
    fn other() -> Self;
}

macro_rules! deserialize_from_scalar {
    ($($field:ty),*) => {$(
        impl<'de> Deserialize<'de> for $field {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_any(ScalarVisitor(PhantomData))
            }
        }
    )*};
}

deserialize_from_scalar!(Word, Id);

struct ScalarVisitor<T>(PhantomData<T>);

impl<'de, T: FromScalar> Visitor<'de> for ScalarVisitor<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_str<E>(self, text: &str) -> Result<T, E> {
        Ok(T::text(text))
    }

    fn visit_bool<E>(self, _: bool) -> Result<T, E> {
        Ok(T::other())
    }

    fn visit_i64<E>(self, number: i64) -> Result<T, E> {
        Ok(T::number(number.into()))
    }

    fn visit_u64<E>(self, number: u64) -> Result<T, E> {
        Ok(T::number(number.into()))
    }

    fn visit_f64<E>(self, number: f64) -> Result<T, E> {
        Ok(serde_json::Number::from_f64(number).map_or_else(T::other, T::number))
    }

    fn visit_unit<E>(self) -> Result<T, E> {
        Ok(T::other())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(T::other())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(T::other())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    /// Every kind of JSON value reads as `id_text` and `Value::as_str` read it.
    #[test]
    fn fields_read_as_the_values_did() {
        let values = [
            r#""user""#,
            r#""tool_result""#,
            r#""environment""#,
            r#""Tool_Use""#,
            r#""a\"b\u00e9""#,
            r#""""#,
            "0",
            "-7",
            "18446744073709551615",
            "1.5",
            "1e300",
            "-0.0",
            "true",
            "null",
            "[1, [2], {}]",
            r#"{"a": {"b": [null]}}"#,
        ];
        for text in values {
            let value: Value = serde_json::from_str(text).unwrap();
            let id: Id = serde_json::from_str(text).unwrap();
            assert_eq!(id.0, super::super::id_text(&value), "{text}");
            let word: Word = serde_json::from_str(text).unwrap();
            assert_eq!(word.as_str(), value.as_str(), "{text}");
            if let Some(known) = WORDS.iter().find(|word| Some(**word) == value.as_str()) {
                assert_eq!(word, Word::Known(known));
            }
        }
    }
}
