//! The mistakes agents make in their calls, one function per kind: made-up tool names, arguments
//! that break the schema, valid but wrong values, and broken JSON strings.

use rand::seq::IndexedRandom;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use crate::catalog::tool::*;

const ORDER_ID_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// A valid order id: eight upper-case letters or digits.
pub fn order_id(rng: &mut ChaCha8Rng) -> String {
    (0..8)
        .map(|_| char::from(*ORDER_ID_ALPHABET.choose(rng).expect("not empty")))
        .collect()
}

/// A name the model invents for `tool`: a typo of it, or a plausible tool that does not exist
/// (often one from an older prompt, like the seed's `search_news` and `get_financials`).
pub fn hallucinated_name(rng: &mut ChaCha8Rng, tool: &str) -> &'static str {
    let names: &[&'static str] = match tool {
        LOOKUP_ORDER => &[
            "lookup_orders",
            "lookupOrder",
            "get_order",
            "get_order_status",
            "order_lookup",
        ],
        ISSUE_REFUND => &[
            "refund_order",
            "issue_refunds",
            "process_refund",
            "create_refund",
        ],
        CANCEL_ORDER => &["cancel", "cancelOrder", "order_cancel"],
        SEARCH_DOCS => &["search_documents", "searchdocs", "search_help", "kb_search"],
        GET_STOCK_PRICE => &[
            "get_stock_prices",
            "get_quote",
            "stock_price",
            "fetch_stock_quote",
        ],
        SEARCH_WEB => &["web_search", "google_search", "search"],
        GET_NEWS => &["search_news", "get_headlines", "news"],
        GET_FINANCIAL_DATA => &["get_financials", "get_fundamentals", "financial_data"],
        _ => &[
            "get_price_history",
            "get_historical_prices",
            "historical_data",
        ],
    };
    names.choose(rng).expect("not empty")
}

/// `args` changed so that they break `tool`'s schema, the ways models really do it: negative
/// amounts, ids in the wrong shape, a required argument missing or renamed, numbers as strings,
/// values outside an enum or a range, extra arguments.
pub fn break_schema(rng: &mut ChaCha8Rng, tool: &str, args: &Value) -> Value {
    let mut broken = args.clone();
    let choice = rng.random_range(0..8_u32);
    let text = |key: &str| args[key].as_str().unwrap_or_default().to_string();
    match tool {
        LOOKUP_ORDER => {
            let order_id = text("order_id");
            // Pasted with its line break (rare). JSON Schema patterns are ECMA-262, where `$`
            // does not match before a final newline (Python's `re` does).
            if rng.random_bool(0.04) {
                broken["order_id"] = json!(format!("{order_id}\n"));
                return broken;
            }
            broken["order_id"] = match choice {
                0 => json!(order_id.to_lowercase()),
                1 => json!(format!("#{order_id}")),
                2 => json!(order_id[..7]),
                3 => json!(format!("ORD-{}", rng.random_range(10_000..99_999))),
                4 => json!(rng.random_range(10_000_000..99_999_999)),
                5 => return json!({"orderId": order_id}),
                _ => return json!({"order_id": order_id, "customer_email": "jane.doe@example.com"}),
            };
        }
        ISSUE_REFUND => {
            let amount = args["amount"].as_f64().unwrap_or(5.0);
            match choice {
                0 | 1 => broken["amount"] = json!(-amount),
                2 => broken["amount"] = json!(0),
                3 => broken["amount"] = json!(format!("{amount:.2}")),
                4 => {
                    broken.as_object_mut().map(|m| m.remove("amount"));
                }
                5 => broken["currency"] = json!("usd"),
                6 => broken["note"] = json!("customer was very upset, please expedite"),
                _ => broken["reason"] = json!("broken"),
            }
        }
        CANCEL_ORDER => match choice % 3 {
            0 => {
                broken.as_object_mut().map(|m| m.remove("reason"));
            }
            1 => broken["reason"] = json!("changed my mind"),
            _ => broken["order_id"] = json!(text("order_id").to_lowercase()),
        },
        SEARCH_DOCS => match choice % 4 {
            0 => broken["query"] = json!(""),
            1 => broken["max_results"] = json!(50),
            2 => broken["max_results"] = json!("5"),
            _ => broken["category"] = json!("shipping"),
        },
        GET_STOCK_PRICE => match choice % 4 {
            0 => broken["symbol"] = json!(text("symbol").to_lowercase()),
            1 => broken["symbol"] = json!(format!("{} Inc.", text("symbol"))),
            2 => broken["date"] = json!("today"),
            _ => broken["exchange"] = json!("Nasdaq"),
        },
        SEARCH_WEB => match choice % 3 {
            0 => return json!({"q": text("query")}),
            1 => broken["num_results"] = json!(25),
            _ => broken["recency_days"] = json!(0),
        },
        GET_NEWS => match choice % 4 {
            0 => broken["limit"] = json!(100),
            1 => broken["limit"] = json!("10"),
            2 => broken["since"] = json!("last week"),
            _ => return json!({"symbol": text("query")}),
        },
        GET_FINANCIAL_DATA => match choice % 4 {
            0 => broken["metric"] = json!("Revenue"),
            1 => broken["period"] = json!("Q3"),
            2 => broken["fiscal_year"] = json!("2024"),
            _ => broken["fiscal_year"] = json!(24),
        },
        _ => match choice % 4 {
            0 => broken["start"] = json!("03/01/2024"),
            1 => {
                broken.as_object_mut().map(|m| m.remove("end"));
            }
            2 => broken["interval"] = json!("daily"),
            _ => broken["symbol"] = json!(text("symbol").to_lowercase()),
        },
    }
    broken
}

/// `args` with one value valid for the schema but not what the user asked for. Returns whether
/// the tool then answers "not found".
pub fn wrong_value(rng: &mut ChaCha8Rng, tool: &str, args: &Value) -> (Value, bool) {
    let mut wrong = args.clone();
    match tool {
        LOOKUP_ORDER | ISSUE_REFUND | CANCEL_ORDER => {
            // Two characters swapped: still eight of [A-Z0-9].
            let mut chars: Vec<char> = args["order_id"]
                .as_str()
                .unwrap_or("AAAAAAAA")
                .chars()
                .collect();
            let at = rng.random_range(0..chars.len().saturating_sub(1).max(1));
            if at + 1 < chars.len() {
                chars.swap(at, at + 1);
            }
            wrong["order_id"] = json!(chars.into_iter().collect::<String>());
            (wrong, tool == LOOKUP_ORDER)
        }
        GET_STOCK_PRICE | GET_HISTORICAL_DATA => {
            let symbol = args["symbol"].as_str().unwrap_or("AAPL");
            let typo = match symbol {
                "AAPL" => "APPL",
                "GOOGL" => "GOOG",
                "F" => "FORD",
                "BRK.B" => "BRK.A",
                "META" => "FB",
                other => &other[..other.len().min(3)],
            };
            wrong["symbol"] = json!(typo);
            (wrong, typo == "APPL" || typo == "FORD")
        }
        GET_FINANCIAL_DATA => {
            wrong["metric"] = json!(if args["metric"] == "revenue" {
                "net_income"
            } else {
                "revenue"
            });
            (wrong, false)
        }
        _ => {
            if let Some(query) = args["query"].as_str() {
                wrong["query"] = json!(query
                    .split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" "));
            }
            (wrong, false)
        }
    }
}

/// Valid JSON text broken the ways models break it: cut short, single quotes, a trailing comma,
/// unquoted keys.
pub fn break_json(rng: &mut ChaCha8Rng, text: &str) -> String {
    match rng.random_range(0..4_u32) {
        0 => text[..text.len().saturating_sub(rng.random_range(1..4)).max(1)].to_string(),
        1 => text.replace('"', "'"),
        2 => match text.rfind('}') {
            Some(end) => format!("{},{}", &text[..end], &text[end..]),
            None => format!("{text},"),
        },
        _ => text
            .replace("{\"", "{")
            .replace(",\"", ",")
            .replace("\":", ":"),
    }
}

/// The message a strict tool gives for arguments it rejects.
pub fn rejection(sent: &Value) -> String {
    format!("{} does not match the tool's schema", short(sent))
}

/// Arguments as short text for error messages.
pub fn short(sent: &Value) -> String {
    let text = match sent {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn broken_json_never_parses() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let text = json!({"order_id": "7Q2ZK9XA", "amount": 5}).to_string();
        for _ in 0..200 {
            let broken = break_json(&mut rng, &text);
            assert!(serde_json::from_str::<Value>(&broken).is_err(), "{broken}");
        }
    }

    #[test]
    fn order_ids_have_the_seeds_shape() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let id = order_id(&mut rng);
        assert_eq!(id.len(), 8);
        assert!(id
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()));
    }
}
