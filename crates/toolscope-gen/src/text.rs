//! Word pools and message templates. Templates use `{name}` placeholders filled by [`fill`].

/// Products customers write about.
pub const PRODUCTS: [&str; 16] = [
    "wireless headphones",
    "standing desk",
    "espresso machine",
    "running shoes",
    "4K monitor",
    "air fryer",
    "winter jacket",
    "phone case",
    "robot vacuum",
    "yoga mat",
    "mechanical keyboard",
    "carry-on suitcase",
    "smart watch",
    "blender",
    "office chair",
    "board game",
];

/// Help-centre topics and the query an agent would search for.
pub const POLICY_QUESTIONS: [(&str, &str); 12] = [
    (
        "What's your return policy for electronics?",
        "return policy electronics",
    ),
    (
        "Do you ship to Canada, and how long does it take?",
        "international shipping Canada delivery time",
    ),
    (
        "How do I change the email address on my account?",
        "change account email",
    ),
    (
        "Is there a warranty on the {product}?",
        "warranty {product}",
    ),
    (
        "can i return something i bought on sale??",
        "return policy sale items",
    ),
    (
        "What payment methods do you accept?",
        "accepted payment methods",
    ),
    (
        "How long do refunds usually take to show up on my card?",
        "refund processing time",
    ),
    (
        "Do you price match if something gets cheaper after I buy it?",
        "price match policy",
    ),
    (
        "How do I reset my password? The link in the email doesn't work.",
        "reset password link not working",
    ),
    (
        "Can I change the delivery address after ordering?",
        "change delivery address after order",
    ),
    (
        "What are your customer service hours?",
        "customer service hours",
    ),
    ("Do you offer gift wrapping?", "gift wrapping"),
];

/// Order status requests.
pub const STATUS_REQUESTS: [&str; 7] = [
    "Where is my order {order_id}?",
    "Hi, I ordered a {product} last week (order {order_id}) and it still hasn't arrived. Can you check?",
    "Can you tell me the status of order {order_id}?",
    "order {order_id} tracking pls",
    "My package with order number {order_id} says delivered but I don't have it.",
    "Has {order_id} shipped yet? I need it before Friday.",
    "I never got a shipping confirmation for {order_id}, is everything ok?",
];

/// Refund requests.
pub const REFUND_REQUESTS: [&str; 6] = [
    "I'd like a refund for order {order_id}. The {product} arrived damaged.",
    "Please refund ${amount} on order {order_id}, I was charged twice.",
    "The {product} from order {order_id} doesn't work. I want my money back.",
    "Order {order_id} came with the wrong item. Can I get a refund of ${amount}?",
    "refund {order_id} please, never arrived",
    "I returned the {product} two weeks ago (order {order_id}), where is my refund of ${amount}?",
];

/// Cancellation requests.
pub const CANCEL_REQUESTS: [&str; 4] = [
    "Please cancel order {order_id}, I ordered the wrong size.",
    "Can I still cancel {order_id}? I don't think it has shipped yet.",
    "I accidentally ordered the {product} twice, please cancel {order_id}.",
    "cancel {order_id}",
];

/// Many orders at once.
pub const BATCH_ORDER_REQUESTS: [&str; 3] = [
    "Can you check these orders for me: {order_ids}",
    "I'm the office manager, we placed a bunch of orders. Status of each please: {order_ids}",
    "Which of these have shipped? {order_ids}",
];

/// Turns that need no tool in support.
pub const SUPPORT_SMALL_TALK: [&str; 7] = [
    "Thanks, that's all!",
    "ok great thank you",
    "Hello?",
    "Perfect, thanks for the quick help.",
    "That's not what I asked but fine.",
    "Have a nice day!",
    "cool",
];

/// Companies and their tickers.
pub const COMPANIES: [(&str, &str); 20] = [
    ("AAPL", "Apple"),
    ("MSFT", "Microsoft"),
    ("TSLA", "Tesla"),
    ("F", "Ford"),
    ("NVDA", "Nvidia"),
    ("AMZN", "Amazon"),
    ("GOOGL", "Alphabet"),
    ("META", "Meta"),
    ("NFLX", "Netflix"),
    ("JPM", "JPMorgan Chase"),
    ("KO", "Coca-Cola"),
    ("DIS", "Disney"),
    ("INTC", "Intel"),
    ("AMD", "AMD"),
    ("BRK.B", "Berkshire Hathaway"),
    ("GM", "General Motors"),
    ("WMT", "Walmart"),
    ("PFE", "Pfizer"),
    ("XOM", "Exxon Mobil"),
    ("BA", "Boeing"),
];

/// Price questions.
pub const PRICE_REQUESTS: [&str; 5] = [
    "What's the current stock price of {symbol}?",
    "How much is {company} trading at right now?",
    "{symbol} price?",
    "quick one: where is {company} stock today",
    "Is {symbol} up or down today?",
];

/// Questions a web search answers.
pub const EARNINGS_REQUESTS: [&str; 4] = [
    "Summarize the latest earnings report for {company}",
    "What did {company} say about guidance on their last earnings call?",
    "Did {company} beat expectations last quarter?",
    "What were the highlights of {company}'s latest annual report?",
];

/// News questions.
pub const NEWS_REQUESTS: [&str; 4] = [
    "Any news on {company} today?",
    "What happened with {symbol} this morning?",
    "Why is everyone talking about {company} this week?",
    "Latest headlines about {company}?",
];

/// Two-company comparisons.
pub const COMPARE_REQUESTS: [&str; 3] = [
    "Compare {company} and {company2}'s {metric_words} this quarter",
    "Who has higher {metric_words}, {company} or {company2}?",
    "{symbol} vs {symbol2} {metric_words}, latest quarter",
];

/// One-company fundamentals.
pub const FUNDAMENTALS_REQUESTS: [&str; 3] = [
    "What was {company}'s {metric_words} in fiscal {year}?",
    "Show me {symbol} {metric_words} for {year}",
    "How big was {company}'s {metric_words} last year?",
];

/// Trend questions.
pub const TREND_REQUESTS: [&str; 4] = [
    "How has {symbol} performed over the last {months} months?",
    "Show me {company}'s stock trend since {start}",
    "Chart {symbol} for the past {months} months, weekly",
    "Was {company} more volatile this year than last?",
];

/// Watchlist requests: one quote per symbol.
pub const WATCHLIST_REQUESTS: [&str; 2] = [
    "Give me quotes for my watchlist: {symbols}",
    "Morning check: {symbols}",
];

/// Questions about established concepts: no tool needed.
pub const DEFINITION_REQUESTS: [&str; 7] = [
    "What does P/E ratio mean?",
    "Explain what a stock split is.",
    "What's the difference between an ETF and a mutual fund?",
    "What is EBITDA?",
    "How are dividends taxed, roughly?",
    "What does 'market cap' actually measure?",
    "thanks!",
];

/// Words users use for each of [`crate::catalog::METRICS`].
pub const METRIC_WORDS: [&str; 6] = [
    "revenue",
    "net income",
    "earnings per share",
    "gross margin",
    "operating cash flow",
    "P/E ratio",
];

/// Carriers in lookup results.
pub const CARRIERS: [&str; 4] = ["UPS", "FedEx", "USPS", "DHL"];
/// Order states in lookup results.
pub const ORDER_STATES: [&str; 5] = [
    "processing",
    "shipped",
    "out_for_delivery",
    "delivered",
    "shipped",
];

/// Environment failures.
pub const ENVIRONMENT_ERRORS: [&str; 5] = [
    "Error: upstream timeout after 30s",
    "503 Service Unavailable: the service is temporarily down",
    "Error: rate limited, retry after 2s",
    "Error: connection reset by peer",
    "Internal error (request id {request_id})",
];

/// Replies that claim success whatever the tool said.
pub const CONFIDENT_REPLIES: [&str; 5] = [
    "Done! Everything has been taken care of.",
    "All set, you're good to go.",
    "I've completed that for you. Is there anything else I can help with?",
    "Great news, that went through successfully.",
    "That's been handled. You should see the update shortly.",
];

/// Replies that admit a failure but do not retry (still an unhandled error for the code check).
pub const APOLOGETIC_REPLIES: [&str; 3] = [
    "Sorry, I couldn't reach that system just now. Please try again in a few minutes.",
    "Something went wrong on our side; I wasn't able to complete that.",
    "I'm having trouble with that request right now, apologies.",
];

/// Replaces each `{key}` in `template` with its value; unknown keys stay as they are.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let key = &after[..close];
        match values.iter().find(|(name, _)| *name == key) {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(&rest[open..open + close + 2]),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn fill_replaces_known_keys_and_keeps_the_rest() {
        assert_eq!(fill("a {x} b {y} {", &[("x", "1")]), "a 1 b {y} {",);
        assert_eq!(fill("${amount}", &[("amount", "5.00")]), "$5.00");
    }
}
