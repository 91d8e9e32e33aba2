//! The shape of a large record: its structure with long arrays, long strings and deep or wide
//! parts left out, for deciding what a record is without holding all of it.
//!
//! A parsed `serde_json::Value` takes several times its text in memory; format detection only
//! needs keys, types and the first few items of each list. [`parse_shape`] reads the whole text
//! (so it is linear, and a record that is not JSON still fails) but keeps at most
//! [`SHAPE_NODES`] values, the first [`SHAPE_ITEMS`] items of each array and the first
//! [`SHAPE_STRING_CHARS`] characters of each string; what it skips is never allocated (nor are
//! its numbers read as floats, so a number beyond a float's range there is not an error: the
//! reader's lenient parse deals with it).

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Most values a shape keeps.
pub const SHAPE_NODES: usize = 50_000;

/// Most items of one array a shape keeps.
pub const SHAPE_ITEMS: usize = 64;

/// Most characters of one string a shape keeps.
pub const SHAPE_STRING_CHARS: usize = 512;

/// The shape of a record's text (see the module documentation).
pub fn parse_shape(text: &str) -> Result<Value, serde_json::Error> {
    let nodes_left = Cell::new(SHAPE_NODES);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = Shape {
        nodes_left: &nodes_left,
    }
    .deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Builds one value of the shape, spending the shared node budget.
#[derive(Clone, Copy)]
struct Shape<'budget> {
    nodes_left: &'budget Cell<usize>,
}

impl Shape<'_> {
    /// Takes one node from the budget; false when it is spent.
    fn take_node(self) -> bool {
        let left = self.nodes_left.get();
        self.nodes_left.set(left.saturating_sub(1));
        left > 0
    }
}

impl<'de> DeserializeSeed<'de> for Shape<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Shape<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(
            value.chars().take(SHAPE_STRING_CHARS).collect(),
        ))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while items.len() < SHAPE_ITEMS && self.take_node() {
            match seq.next_element_seed(self)? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if self.take_node() {
                let value = map.next_value_seed(self)?;
                object.insert(key, value);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_small_record_keeps_its_whole_shape() {
        let text = r#"{"messages": [{"role": "user", "content": "hi"}], "n": 1.5, "ok": null}"#;
        assert_eq!(
            parse_shape(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
    }

    #[test]
    fn long_arrays_and_strings_are_cut_and_the_budget_bounds_the_rest() {
        let long = json!({
            "spans": (0..10_000).map(|index| json!({"i": index})).collect::<Vec<_>>(),
            "text": "x".repeat(100_000),
        });
        let shape = parse_shape(&long.to_string()).unwrap();
        assert_eq!(shape["spans"].as_array().unwrap().len(), SHAPE_ITEMS);
        assert_eq!(shape["spans"][3], json!({"i": 3}));
        assert_eq!(shape["text"].as_str().unwrap().len(), SHAPE_STRING_CHARS);

        let wide: Map<String, Value> = (0..200_000)
            .map(|index| (format!("k{index}"), json!([index])))
            .collect();
        let shape = parse_shape(&Value::Object(wide).to_string()).unwrap();
        let kept = shape.as_object().unwrap();
        assert!(kept.len() <= SHAPE_NODES, "{} keys kept", kept.len());
        assert_eq!(kept["k0"], json!([0]));
    }

    /// Found by the json_shape fuzz target: serde_json refuses `1e400` ("number out of range")
    /// where it reads it, but a skipped part is only checked for syntax.
    #[test]
    fn a_number_out_of_range_in_a_skipped_part_is_not_an_error() {
        let mut items = vec!["1"; SHAPE_ITEMS];
        items.push("1e400");
        let text = format!("[{}]", items.join(", "));
        assert!(serde_json::from_str::<Value>(&text).is_err());
        assert_eq!(
            parse_shape(&text).unwrap().as_array().unwrap().len(),
            SHAPE_ITEMS
        );
        assert!(
            parse_shape("[1e400]").is_err(),
            "where it is read, it is refused as before"
        );
    }

    #[test]
    fn text_that_is_not_json_still_fails() {
        assert!(parse_shape(r#"{"a": [1, 2,"#).is_err());
        assert!(parse_shape(r#"{"a": 1} {"b": 2}"#).is_err());
        assert!(parse_shape("[NaN]").is_err());
    }
}
