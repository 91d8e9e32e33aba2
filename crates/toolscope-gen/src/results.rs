//! What the tools return: JSON text shaped like real APIs' answers, and the short summaries the
//! agent's replies quote from them.

use rand::seq::IndexedRandom;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use crate::session::Order;
use crate::text;
use crate::time;

const DOC_TITLES: [&str; 8] = [
    "Returns and refunds",
    "Shipping times and costs",
    "International delivery",
    "Managing your account",
    "Warranty coverage",
    "Payment methods",
    "Price adjustments",
    "Contacting support",
];

const DOC_SENTENCES: [&str; 10] = [
    "Most items can be returned within 30 days of delivery for a full refund.",
    "Electronics must be returned unopened unless they are faulty.",
    "Refunds are issued to the original payment method within 5 business days of receiving the return.",
    "Standard shipping takes 3-5 business days; express shipping takes 1-2.",
    "We ship to 38 countries; customs fees are paid by the recipient.",
    "You can change your email address under Account > Settings > Login details.",
    "All products carry a one-year limited warranty against manufacturing defects.",
    "We accept Visa, Mastercard, American Express, PayPal and gift cards.",
    "If the price of an item drops within 14 days of purchase, we refund the difference on request.",
    "Our support team is available 8am-8pm ET, Monday to Saturday.",
];

const NEWS_OUTLETS: [&str; 6] = [
    "Reuters",
    "Bloomberg",
    "CNBC",
    "Financial Times",
    "The Wall Street Journal",
    "MarketWatch",
];

const HEADLINES: [&str; 8] = [
    "{company} shares rise after earnings beat estimates",
    "{company} announces $10 billion buyback programme",
    "Analysts raise price targets on {company} ahead of product launch",
    "{company} faces regulatory scrutiny over data practices",
    "{company} CEO outlines AI strategy at investor day",
    "{company} cuts full-year guidance citing weaker demand",
    "Supply chain issues weigh on {company} margins",
    "{company} stock slips as investors rotate out of tech",
];

/// A lookup of `order`.
pub fn order(rng: &mut ChaCha8Rng, order: &Order, today: i64) -> String {
    let status = *text::ORDER_STATES.choose(rng).expect("not empty");
    let eta = time::date(today + rng.random_range(-2..7));
    json!({
        "order_id": order.order_id,
        "status": status,
        "carrier": text::CARRIERS.choose(rng).expect("not empty"),
        "tracking_number": format!("1Z{:016}", rng.random_range(0..10_000_000_000_000_000_u64)),
        "estimated_delivery": eta,
        "items": [{"name": order.product, "quantity": 1, "unit_price": order.total}],
        "total": order.total,
        "currency": "USD"
    })
    .to_string()
}

/// "shipped with UPS, estimated delivery 2025-03-04".
pub fn order_summary(content: &str) -> String {
    let value: Value = serde_json::from_str(content).unwrap_or_default();
    format!(
        "it is {} with {}, estimated delivery {}.",
        value["status"]
            .as_str()
            .unwrap_or("processing")
            .replace('_', " "),
        value["carrier"].as_str().unwrap_or("our carrier"),
        value["estimated_delivery"].as_str().unwrap_or("soon")
    )
}

/// A refund confirmation.
pub fn refund(rng: &mut ChaCha8Rng, order_id: &str, amount: f64) -> String {
    json!({
        "refund_id": format!("rf_{:012x}", rng.random::<u64>() >> 16),
        "order_id": order_id,
        "amount": amount,
        "status": "pending",
        "expected_days": 5
    })
    .to_string()
}

/// Help-centre search hits.
pub fn docs(rng: &mut ChaCha8Rng, query: &str) -> String {
    let hits: Vec<Value> = (0..rng.random_range(1..4))
        .map(|rank| {
            let sentences: Vec<&str> = (0..rng.random_range(2..4))
                .map(|_| *DOC_SENTENCES.choose(rng).expect("not empty"))
                .collect();
            json!({
                "rank": rank + 1,
                "title": DOC_TITLES.choose(rng).expect("not empty"),
                "url": format!("https://help.example.com/articles/{}", rng.random_range(1000..9999)),
                "snippet": sentences.join(" "),
            })
        })
        .collect();
    json!({"query": query, "results": hits}).to_string()
}

/// The first snippet of search results.
pub fn first_snippet(content: &str) -> String {
    let value: Value = serde_json::from_str(content).unwrap_or_default();
    let first = &value["results"][0];
    first["snippet"]
        .as_str()
        .or_else(|| first["summary"].as_str())
        .unwrap_or("nothing conclusive.")
        .to_string()
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A symbol's price on a day: the same in a quote and in the reply that cites it.
fn price(symbol: &str, day: i64) -> f64 {
    let base = 20.0 + (fnv(symbol) % 48_000) as f64 / 100.0;
    let wobble = ((fnv(symbol).wrapping_add(day as u64 * 7919) % 1000) as f64 - 500.0) / 5000.0;
    ((base * (1.0 + wobble)) * 100.0).round() / 100.0
}

/// A quote.
pub fn quote(symbol: &str, today: i64) -> String {
    let now = price(symbol, today);
    let before = price(symbol, today - 1);
    let change = ((now - before) * 100.0).round() / 100.0;
    json!({
        "symbol": symbol,
        "price": now,
        "change": change,
        "change_pct": ((change / before) * 10_000.0).round() / 100.0,
        "currency": "USD",
        "as_of": format!("{}T15:59:00Z", time::date(today)),
    })
    .to_string()
}

/// "$189.84, down 0.64% today".
pub fn quote_summary(content: &str) -> String {
    let value: Value = serde_json::from_str(content).unwrap_or_default();
    let pct = value["change_pct"].as_f64().unwrap_or(0.0);
    format!(
        "${:.2}, {} {:.2}% today.",
        value["price"].as_f64().unwrap_or(0.0),
        if pct < 0.0 { "down" } else { "up" },
        pct.abs()
    )
}

/// Web search hits.
pub fn web(rng: &mut ChaCha8Rng, query: &str) -> String {
    let hits: Vec<Value> = (0..rng.random_range(3..7))
        .map(|rank| {
            let outlet = NEWS_OUTLETS.choose(rng).expect("not empty");
            json!({
                "rank": rank + 1,
                "title": format!("{query} - {outlet}"),
                "url": format!("https://www.example.com/{}/{}", outlet.to_lowercase().replace(' ', "-"), rng.random_range(100_000..999_999)),
                "snippet": format!("{} {}", DOC_SENTENCES.choose(rng).expect("not empty"), "Analysts said results were broadly in line with expectations, with revenue up year over year and margins under pressure."),
            })
        })
        .collect();
    json!({"query": query, "results": hits}).to_string()
}

/// News articles.
pub fn news(rng: &mut ChaCha8Rng, company: &str, today: i64) -> String {
    let articles: Vec<Value> = (0..rng.random_range(3..9))
        .map(|_| {
            let headline = text::fill(HEADLINES.choose(rng).expect("not empty"), &[("company", company)]);
            json!({
                "title": headline,
                "source": NEWS_OUTLETS.choose(rng).expect("not empty"),
                "published_at": format!("{}T{:02}:{:02}:00Z", time::date(today - rng.random_range(0..4)), rng.random_range(6..22), rng.random_range(0..60)),
                "summary": format!("{headline}. The move comes as investors weigh the outlook for the rest of the year."),
            })
        })
        .collect();
    json!({"results": articles}).to_string()
}

/// Statement figures for the last few periods.
pub fn financials(
    rng: &mut ChaCha8Rng,
    symbol: &str,
    metric: &str,
    period: &str,
    today: i64,
) -> String {
    let (year, month, _) = time::civil_from_days(today);
    let scale = 1_000.0 + (fnv(symbol) % 90_000) as f64;
    let values: Vec<Value> = (0..4)
        .map(|back| {
            let label = if period == "annual" {
                format!("FY{}", year - 1 - back)
            } else {
                let quarter = (i64::from(month) - 1) / 3 - back;
                let (y, q) = if quarter <= 0 {
                    (year - 1, quarter + 4)
                } else {
                    (year, quarter)
                };
                format!("{y}Q{q}")
            };
            let value = match metric {
                "gross_margin" => rng.random_range(0.2..0.7),
                "eps" => rng.random_range(0.5..9.0),
                "pe_ratio" => rng.random_range(8.0..60.0),
                _ => scale * rng.random_range(0.8..1.2) * 1_000_000.0,
            };
            json!({"period": label, "value": (value * 100.0_f64).round() / 100.0})
        })
        .collect();
    json!({"symbol": symbol, "metric": metric, "period": period, "currency": "USD", "values": values})
        .to_string()
}

/// OHLCV bars between two days (at most 60: the API truncates).
pub fn history(rng: &mut ChaCha8Rng, symbol: &str, start: i64, end: i64, interval: &str) -> String {
    let step = match interval {
        "1d" => 1,
        "1wk" => 7,
        _ => 30,
    };
    let mut bars = Vec::new();
    let mut day = start;
    while day <= end && bars.len() < 60 {
        let close = price(symbol, day);
        let open = (close * rng.random_range(0.98..1.02) * 100.0).round() / 100.0;
        bars.push(json!([
            time::date(day),
            open,
            (close.max(open) * 1.01 * 100.0).round() / 100.0,
            (close.min(open) * 0.99 * 100.0).round() / 100.0,
            close,
            rng.random_range(1_000_000..90_000_000_u64)
        ]));
        day += step;
    }
    json!({"symbol": symbol, "interval": interval, "columns": ["date", "open", "high", "low", "close", "volume"], "bars": bars, "truncated": day <= end})
        .to_string()
}

/// "from $101.20 to $96.75 (-4.4%)".
pub fn history_summary(content: &str) -> String {
    let value: Value = serde_json::from_str(content).unwrap_or_default();
    let bars = value["bars"].as_array().cloned().unwrap_or_default();
    let close = |bar: Option<&Value>| bar.and_then(|b| b[4].as_f64()).unwrap_or(0.0);
    let (first, last) = (close(bars.first()), close(bars.last()));
    let pct = if first > 0.0 {
        (last - first) / first * 100.0
    } else {
        0.0
    };
    format!("from ${first:.2} to ${last:.2} ({pct:+.1}%)")
}
