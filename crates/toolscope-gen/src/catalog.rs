//! The tools the generated agents call, their JSON Schemas, and the ordering rules.
//!
//! The support tools come from the first seed (`lookup_order`, `issue_refund`, `search_docs`,
//! plus `cancel_order`), the research tools from the second (`get_stock_price`, `search_web`,
//! `get_news`, `get_financial_data`, `get_historical_data`). Every agent is given all of them, as
//! one deployment registering every tool would; agents specialise by prompt.

use serde_json::{json, Value};

/// Tool names, so the rest of the generator cannot misspell one by accident.
pub mod tool {
    /// Looks an order up by id.
    pub const LOOKUP_ORDER: &str = "lookup_order";
    /// Refunds (part of) an order.
    pub const ISSUE_REFUND: &str = "issue_refund";
    /// Cancels an order that has not shipped.
    pub const CANCEL_ORDER: &str = "cancel_order";
    /// Searches the help centre.
    pub const SEARCH_DOCS: &str = "search_docs";
    /// Current quote of a ticker.
    pub const GET_STOCK_PRICE: &str = "get_stock_price";
    /// Web search.
    pub const SEARCH_WEB: &str = "search_web";
    /// News articles.
    pub const GET_NEWS: &str = "get_news";
    /// Financial statements.
    pub const GET_FINANCIAL_DATA: &str = "get_financial_data";
    /// Price history.
    pub const GET_HISTORICAL_DATA: &str = "get_historical_data";
}

use tool::*;

/// Order ids: eight upper-case letters or digits, as in the seed.
pub const ORDER_ID_PATTERN: &str = "^[A-Z0-9]{8}$";
const SYMBOL_PATTERN: &str = "^[A-Z]{1,5}(\\.[A-Z])?$";
const DATE_PATTERN: &str = "^\\d{4}-\\d{2}-\\d{2}$";

/// Currencies `issue_refund` accepts.
pub const CURRENCIES: [&str; 3] = ["USD", "EUR", "GBP"];
/// Refund reasons `issue_refund` accepts.
pub const REFUND_REASONS: [&str; 5] = [
    "damaged",
    "not_received",
    "wrong_item",
    "duplicate_charge",
    "other",
];
/// Cancellation reasons `cancel_order` accepts.
pub const CANCEL_REASONS: [&str; 4] =
    ["customer_request", "wrong_item", "duplicate_order", "other"];
/// Metrics `get_financial_data` accepts.
pub const METRICS: [&str; 6] = [
    "revenue",
    "net_income",
    "eps",
    "gross_margin",
    "operating_cash_flow",
    "pe_ratio",
];
/// Bar sizes `get_historical_data` accepts.
pub const INTERVALS: [&str; 3] = ["1d", "1wk", "1mo"];

fn symbol() -> Value {
    json!({"type": "string", "pattern": SYMBOL_PATTERN, "description": "Ticker symbol, e.g. AAPL or BRK.B."})
}

fn date(what: &str) -> Value {
    json!({"type": "string", "format": "date", "pattern": DATE_PATTERN, "description": what})
}

/// Every tool as `{"name", "description", "input_schema"}`, in a fixed order.
pub fn tools() -> Vec<Value> {
    vec![
        json!({
            "name": LOOKUP_ORDER,
            "description": "Look up one order by its id: status, carrier, delivery estimate, items and total. Use this whenever the customer mentions an order id.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string", "pattern": ORDER_ID_PATTERN, "description": "The 8-character order id, e.g. 7Q2ZK9XA."}
                },
                "required": ["order_id"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": ISSUE_REFUND,
            "description": "Refund all or part of an order to the original payment method. Only after looking the order up; never more than the order total.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string", "pattern": ORDER_ID_PATTERN},
                    "amount": {"type": "number", "exclusiveMinimum": 0, "maximum": 10000, "description": "Amount to refund, in the order's currency."},
                    "currency": {"type": "string", "enum": CURRENCIES},
                    "reason": {"type": "string", "enum": REFUND_REASONS}
                },
                "required": ["order_id", "amount"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": CANCEL_ORDER,
            "description": "Cancel an order that has not shipped yet. Look the order up first to check its status.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string", "pattern": ORDER_ID_PATTERN},
                    "reason": {"type": "string", "enum": CANCEL_REASONS}
                },
                "required": ["order_id", "reason"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": SEARCH_DOCS,
            "description": "Search the help centre (policies, shipping, accounts, warranties). Do NOT use it to find a specific order: use lookup_order.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 3, "maxLength": 200},
                    "max_results": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5}
                },
                "required": ["query"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": GET_STOCK_PRICE,
            "description": "Current price and daily change of one ticker. Use ONLY for real-time price checks.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "symbol": symbol(),
                    "exchange": {"type": "string", "enum": ["NASDAQ", "NYSE", "LSE", "XETRA"]}
                },
                "required": ["symbol"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": SEARCH_WEB,
            "description": "Search the web for current information: recent events, reports, anything that changes often. Do NOT use for definitions of established concepts or for prices.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 2, "maxLength": 300},
                    "num_results": {"type": "integer", "minimum": 1, "maximum": 10},
                    "recency_days": {"type": "integer", "minimum": 1, "maximum": 365}
                },
                "required": ["query"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": GET_NEWS,
            "description": "Recent news articles about a company or topic. Use for sentiment, events and announcements.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 2},
                    "symbol": symbol(),
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50},
                    "since": date("Only articles published on or after this date.")
                },
                "required": ["query"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": GET_FINANCIAL_DATA,
            "description": "Quarterly or annual financial statement figures (revenue, earnings, margins) of one company.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "symbol": symbol(),
                    "metric": {"type": "string", "enum": METRICS},
                    "period": {"type": "string", "enum": ["quarterly", "annual"]},
                    "fiscal_year": {"type": "integer", "minimum": 1990, "maximum": 2030}
                },
                "required": ["symbol", "metric"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": GET_HISTORICAL_DATA,
            "description": "Historical OHLCV bars of one ticker between two dates. Use for trends, performance and charts.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "symbol": symbol(),
                    "start": date("First day, YYYY-MM-DD."),
                    "end": date("Last day, YYYY-MM-DD."),
                    "interval": {"type": "string", "enum": INTERVALS}
                },
                "required": ["symbol", "start", "end"],
                "additionalProperties": false
            }
        }),
    ]
}

/// The tools as a few `support-v2` sessions saw them during a staged rollout: an older
/// `issue_refund` that took the amount as a decimal string and wanted a currency, and a
/// `lookup_order` with an extra flag. Checking those sessions against [`tools`] gives the
/// "stale schema" false failures the seed warns about, and toolscope's drift list explains them.
pub fn drifted_tools() -> Vec<Value> {
    tools()
        .into_iter()
        .map(|mut def| {
            if def["name"] == ISSUE_REFUND {
                def["description"] =
                    json!("Refund an order. amount is a decimal string such as \"19.99\".");
                let schema = &mut def["input_schema"];
                schema["properties"]["amount"] =
                    json!({"type": "string", "pattern": "^[0-9]+\\.[0-9]{2}$"});
                schema["required"] = json!(["order_id", "amount", "currency"]);
            } else if def["name"] == LOOKUP_ORDER {
                def["input_schema"]["properties"]["include_history"] = json!({"type": "boolean"});
            }
            def
        })
        .collect()
}

/// The ordering rules, with argument bindings: a refund or cancellation must follow a lookup of
/// the same order.
pub fn rules() -> Value {
    let after_lookup = json!([{"tool": LOOKUP_ORDER, "same_args": ["order_id"]}]);
    json!({"must_come_after": {ISSUE_REFUND: after_lookup.clone(), CANCEL_ORDER: after_lookup}})
}

/// The same rules without bindings, in the seed's plain `MUST_COME_AFTER` shape (the seed's code
/// has no bindings; comparisons with it use these).
pub fn plain_rules() -> Value {
    json!({"must_come_after": {ISSUE_REFUND: [LOOKUP_ORDER], CANCEL_ORDER: [LOOKUP_ORDER]}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_forbids_extra_properties_and_requires_something() {
        for def in tools() {
            let schema = &def["input_schema"];
            assert_eq!(
                schema["additionalProperties"],
                json!(false),
                "{}",
                def["name"]
            );
            assert!(schema["required"].as_array().is_some_and(|r| !r.is_empty()));
            assert!(def["description"].as_str().is_some_and(|d| d.len() > 20));
        }
    }

    #[test]
    fn drifted_tools_differ_only_in_two_tools() {
        let changed: Vec<Value> = tools()
            .into_iter()
            .zip(drifted_tools())
            .filter(|(a, b)| a != b)
            .map(|(a, _)| a["name"].clone())
            .collect();
        assert_eq!(changed, [json!(LOOKUP_ORDER), json!(ISSUE_REFUND)]);
    }
}
