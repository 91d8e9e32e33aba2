//! Fields of a native session record read straight from the parser's text, without a
//! `serde_json::Value` (an allocation) for each: an event's `type`, `status` and
//! `error_source` are one of a few words, and ids are kept as the text they are. Each reads what
//! `Option<Value>` read before, so a field of the wrong type is still one diagnostic, and the
//! readers' messages are unchanged (the native reader's tests and snapshots hold them).

use std::fmt;

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

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(WordVisitor)
    }
}

struct WordVisitor;

impl<'de> Visitor<'de> for WordVisitor {
    type Value = Word;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_str<E>(self, text: &str) -> Result<Word, E> {
        Ok(match WORDS.iter().find(|word| **word == text) {
            Some(word) => Word::Known(word),
            None => Word::Other(text.to_string()),
        })
    }

    fn visit_bool<E>(self, _: bool) -> Result<Word, E> {
        Ok(Word::NotText)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Word, E> {
        Ok(Word::NotText)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Word, E> {
        Ok(Word::NotText)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Word, E> {
        Ok(Word::NotText)
    }

    fn visit_unit<E>(self) -> Result<Word, E> {
        Ok(Word::NotText)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Word, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Word::NotText)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Word, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Word::NotText)
    }
}

/// An id as `super::id_text` reads one from a `Value`: a string as it is, a number as
/// serde_json writes it, anything else none.
#[derive(Debug, PartialEq)]
pub(crate) struct Id(pub(crate) Option<String>);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IdVisitor)
    }
}

struct IdVisitor;

impl<'de> Visitor<'de> for IdVisitor {
    type Value = Id;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_str<E>(self, text: &str) -> Result<Id, E> {
        Ok(Id(Some(text.to_string())))
    }

    fn visit_string<E>(self, text: String) -> Result<Id, E> {
        Ok(Id(Some(text)))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Id, E> {
        Ok(Id(None))
    }

    fn visit_i64<E>(self, number: i64) -> Result<Id, E> {
        Ok(Id(Some(serde_json::Number::from(number).to_string())))
    }

    fn visit_u64<E>(self, number: u64) -> Result<Id, E> {
        Ok(Id(Some(serde_json::Number::from(number).to_string())))
    }

    fn visit_f64<E>(self, number: f64) -> Result<Id, E> {
        Ok(Id(
            serde_json::Number::from_f64(number).map(|n| n.to_string())
        ))
    }

    fn visit_unit<E>(self) -> Result<Id, E> {
        Ok(Id(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Id, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Id(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Id, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Id(None))
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
