//! One simulated session: turns of user requests, the calls a correct agent would make (which
//! become the labels), and the calls this agent actually made, mistakes included.

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use crate::agent::{self, Domain, Profile};
use crate::catalog::{self, tool::*};
use crate::mistakes;
use crate::record::{EventRecord, ExpectedRecord, LabelRecord, SessionRecord};
use crate::results;
use crate::text::{self, fill};
use crate::time;
use crate::Shape;

/// Share of sessions that get labels.
const LABELLED_SESSIONS: f64 = 0.6;
/// Share of call-dense sessions that get labels.
const LABELLED_DENSE_SESSIONS: f64 = 0.9;
/// How many characters of a tool result or reply a call-dense session keeps.
const DENSE_TEXT_CHARS: usize = 40;
/// Share of labels that state whether the task succeeded.
const LABELS_WITH_TASK_SUCCESS: f64 = 0.5;
/// Share of sessions that are long support marathons (many turns).
const MARATHON_SESSIONS: f64 = 0.02;

/// A generated session and its labels (empty when the session is not labelled).
pub struct Generated {
    /// The session.
    pub session: SessionRecord,
    /// One label per turn, when labelled.
    pub labels: Vec<LabelRecord>,
}

/// The session at `index` of the data set for `seed`. Each session has its own random stream,
/// so session `index` is the same whatever the size of the data set.
pub fn generate(seed: u64, index: u64, shape: Shape) -> Generated {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let profile = agent::pick(rng.random_range(0..agent::total_weight()));
    let started = time::START_EPOCH + index as i64 * 97 + rng.random_range(0..90);
    let mut sim = Simulator {
        string_args: rng.random_bool(profile.string_args),
        rng,
        profile,
        events: Vec::new(),
        next_call: 1,
        today: started.div_euclid(86_400),
        orders: Vec::new(),
        looked_up: Vec::new(),
        is_drifted: false,
    };
    let is_dense = shape == Shape::CallDense;
    let tools = (sim.rng.random_bool(profile.carries_tools) && !is_dense).then(|| {
        sim.is_drifted = sim.rng.random_bool(profile.drifted_tools);
        if sim.is_drifted {
            Value::Array(catalog::drifted_tools())
        } else {
            Value::Array(catalog::tools())
        }
    });
    let turns = if is_dense {
        sim.rng.random_range(1..=3)
    } else {
        sim.turn_count()
    };
    let labelled_share = if is_dense {
        LABELLED_DENSE_SESSIONS
    } else {
        LABELLED_SESSIONS
    };
    let is_labelled = sim.rng.random_bool(labelled_share);
    let session_id = session_id(seed, index);
    let mut labels = Vec::new();
    for turn in 0..turns {
        let plan = sim.plan(turn, turns);
        let outcome = sim.run(&plan);
        if is_labelled {
            let task_success = sim
                .rng
                .random_bool(LABELS_WITH_TASK_SUCCESS)
                .then_some(outcome.is_success);
            labels.push(plan.label(&session_id, turn, task_success));
        }
    }
    if is_dense {
        shorten_texts(&mut sim.events);
    }
    Generated {
        session: SessionRecord {
            session_id,
            agent_id: profile.agent_id,
            started_at: time::timestamp(started),
            tools,
            events: sim.events,
        },
        labels,
    }
}

/// Cuts tool results and replies to [`DENSE_TEXT_CHARS`] characters.
fn shorten_texts(events: &mut [EventRecord]) {
    for event in events {
        if let EventRecord::Assistant { content } | EventRecord::ToolResult { content, .. } = event
        {
            if let Some((end, _)) = content.char_indices().nth(DENSE_TEXT_CHARS) {
                content.truncate(end);
            }
        }
    }
}

/// A unique, random-looking id: the splitmix64 finaliser is a bijection, so distinct indexes
/// give distinct ids.
fn session_id(seed: u64, index: u64) -> String {
    let mut z = seed.rotate_left(32) ^ index;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    format!("sess_{z:016x}")
}

/// What a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Intent {
    OrderStatus,
    Refund,
    FollowUpRefund,
    Cancel,
    Policy,
    BatchStatus,
    SupportSmallTalk,
    Price,
    Earnings,
    News,
    Compare,
    Fundamentals,
    Trend,
    Watchlist,
    Definition,
}

const SUPPORT_INTENTS: [(Intent, u32); 7] = [
    (Intent::OrderStatus, 30),
    (Intent::Refund, 18),
    (Intent::FollowUpRefund, 8),
    (Intent::Cancel, 8),
    (Intent::Policy, 22),
    (Intent::BatchStatus, 2),
    (Intent::SupportSmallTalk, 12),
];

const RESEARCH_INTENTS: [(Intent, u32); 8] = [
    (Intent::Price, 25),
    (Intent::Earnings, 12),
    (Intent::News, 14),
    (Intent::Compare, 10),
    (Intent::Fundamentals, 10),
    (Intent::Trend, 12),
    (Intent::Watchlist, 3),
    (Intent::Definition, 14),
];

/// One call as a correct agent would make it.
#[derive(Debug, Clone)]
pub(crate) struct Planned {
    pub tool: &'static str,
    pub args: Value,
    /// What the tool returns when the call succeeds.
    pub content: String,
}

/// What a turn asks for and what the right answer is.
struct Plan {
    intent: Intent,
    user: String,
    calls: Vec<Planned>,
    expected: ExpectedRecord,
    /// Whether the label states the first call's arguments.
    labels_args: bool,
    should_not_call: Vec<&'static str>,
    /// The reply when everything worked.
    reply: String,
    /// The calls may go out together, results coming back in any order.
    is_parallel: bool,
}

impl Plan {
    fn label(&self, session_id: &str, turn: usize, task_success: Option<bool>) -> LabelRecord {
        let is_multi = self.calls.len() > 1;
        LabelRecord {
            session_id: session_id.to_string(),
            turn,
            expected_tool: self.expected.clone(),
            expected_args: (!is_multi && self.labels_args)
                .then(|| self.calls.first().map(|c| label_args(self.intent, &c.args)))
                .flatten(),
            should_not_call: self.should_not_call.clone(),
            expected_tools: is_multi.then(|| self.calls.iter().map(|c| c.tool).collect()),
            expected_args_list: is_multi.then(|| {
                self.calls
                    .iter()
                    .map(|c| label_args(self.intent, &c.args))
                    .collect()
            }),
            task_success,
        }
    }
}

/// The arguments a labeller writes down: all of them, except for price history and
/// comparisons, where only what the request names (so exact and subset matching differ).
fn label_args(intent: Intent, args: &Value) -> Value {
    match intent {
        Intent::Trend => json!({"symbol": args["symbol"]}),
        Intent::Compare => json!({"symbol": args["symbol"], "metric": args["metric"]}),
        _ => args.clone(),
    }
}

/// How a turn ended.
struct TurnOutcome {
    is_success: bool,
}

/// An error a tool returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blame {
    Agent,
    Environment,
}

/// A customer's order.
#[derive(Debug, Clone)]
pub(crate) struct Order {
    pub order_id: String,
    pub product: &'static str,
    pub total: f64,
}

struct Simulator {
    rng: ChaCha8Rng,
    profile: &'static Profile,
    string_args: bool,
    events: Vec<EventRecord>,
    next_call: u32,
    /// Days since the epoch of the session's start.
    today: i64,
    /// Orders the customer has mentioned.
    orders: Vec<Order>,
    /// Order ids the agent looked up successfully.
    looked_up: Vec<String>,
    /// The agent was given the drifted tools and calls them their way.
    is_drifted: bool,
}

impl Simulator {
    /// Most sessions are short; a few run long (a Pareto tail, plus rare marathons).
    fn turn_count(&mut self) -> usize {
        if self.rng.random_bool(MARATHON_SESSIONS) {
            return self.rng.random_range(15..40);
        }
        let u: f64 = self.rng.random();
        ((1.0 / (1.0 - u)).powf(0.85).floor() as usize).clamp(1, 24)
    }

    fn pick_intent(&mut self, turn: usize, turns: usize) -> Intent {
        let table: &[(Intent, u32)] = match self.profile.domain {
            Domain::Support => &SUPPORT_INTENTS,
            Domain::Research => &RESEARCH_INTENTS,
        };
        // The last turn of a longer session is often a thank-you.
        if turn > 0 && turn + 1 == turns && self.rng.random_bool(0.4) {
            return match self.profile.domain {
                Domain::Support => Intent::SupportSmallTalk,
                Domain::Research => Intent::Definition,
            };
        }
        loop {
            let total: u32 = table.iter().map(|(_, w)| w).sum();
            let mut ticket = self.rng.random_range(0..total);
            let intent = table
                .iter()
                .find(|(_, weight)| {
                    if ticket < *weight {
                        true
                    } else {
                        ticket -= weight;
                        false
                    }
                })
                .map_or(table[0].0, |(intent, _)| *intent);
            let is_small_talk = matches!(intent, Intent::SupportSmallTalk);
            let needs_order = intent == Intent::FollowUpRefund && self.looked_up.is_empty();
            let is_opening_small_talk = turn == 0 && is_small_talk;
            if !is_opening_small_talk && !needs_order {
                return intent;
            }
        }
    }

    // ---- planning: what the right calls are --------------------------------------------------

    fn plan(&mut self, turn: usize, turns: usize) -> Plan {
        let intent = self.pick_intent(turn, turns);
        match intent {
            Intent::OrderStatus => self.plan_status(),
            Intent::Refund => self.plan_refund(false),
            Intent::FollowUpRefund => self.plan_refund(true),
            Intent::Cancel => self.plan_cancel(),
            Intent::Policy => self.plan_policy(),
            Intent::BatchStatus => self.plan_batch_status(),
            Intent::SupportSmallTalk => {
                let user = self.choose(&text::SUPPORT_SMALL_TALK).to_string();
                self.plan_none(intent, user, Vec::new())
            }
            Intent::Definition => {
                let user = self.choose(&text::DEFINITION_REQUESTS).to_string();
                self.plan_none(intent, user, vec![SEARCH_WEB])
            }
            Intent::Price => self.plan_price(),
            Intent::Earnings => self.plan_web(Intent::Earnings),
            Intent::News => self.plan_web(Intent::News),
            Intent::Compare => self.plan_compare(),
            Intent::Fundamentals => self.plan_fundamentals(),
            Intent::Trend => self.plan_trend(),
            Intent::Watchlist => self.plan_watchlist(),
        }
    }

    fn new_order(&mut self) -> Order {
        let order = Order {
            order_id: mistakes::order_id(&mut self.rng),
            product: self.choose(&text::PRODUCTS),
            total: f64::from(self.rng.random_range(899..49_999_u32)) / 100.0,
        };
        self.orders.push(order.clone());
        order
    }

    fn lookup(&mut self, order: &Order) -> Planned {
        let content = results::order(&mut self.rng, order, self.today);
        let mut args = json!({"order_id": order.order_id});
        if self.is_drifted && self.rng.random_bool(0.3) {
            args["include_history"] = json!(true);
        }
        Planned {
            tool: LOOKUP_ORDER,
            args,
            content,
        }
    }

    fn plan_status(&mut self) -> Plan {
        let order = self.new_order();
        let user = fill(
            self.choose(&text::STATUS_REQUESTS),
            &[("order_id", &order.order_id), ("product", order.product)],
        );
        let call = self.lookup(&order);
        let should_not_call = if self.rng.random_bool(0.3) {
            vec![SEARCH_DOCS]
        } else {
            Vec::new()
        };
        Plan {
            intent: Intent::OrderStatus,
            user,
            reply: format!(
                "I found order {}: {}",
                order.order_id,
                results::order_summary(&call.content)
            ),
            calls: vec![call],
            expected: ExpectedRecord::One(LOOKUP_ORDER),
            labels_args: self.rng.random_bool(0.8),
            should_not_call,
            is_parallel: false,
        }
    }

    fn plan_refund(&mut self, is_follow_up: bool) -> Plan {
        let order = if is_follow_up {
            let order_id = self
                .looked_up
                .choose(&mut self.rng)
                .cloned()
                .unwrap_or_default();
            self.orders
                .iter()
                .find(|o| o.order_id == order_id)
                .cloned()
                .unwrap_or(Order {
                    order_id,
                    product: "item",
                    total: 25.0,
                })
        } else {
            self.new_order()
        };
        let amount = if self.rng.random_bool(0.6) {
            order.total
        } else {
            (order.total * self.rng.random_range(0.2..0.9) * 100.0).round() / 100.0
        };
        let amount_text = format!("{amount:.2}");
        let user = if is_follow_up {
            format!(
                "Actually, can you just refund {} for that order? I don't want to wait.",
                if amount == order.total {
                    "the full amount".to_string()
                } else {
                    format!("${amount_text}")
                }
            )
        } else {
            fill(
                self.choose(&text::REFUND_REQUESTS),
                &[
                    ("order_id", &order.order_id),
                    ("product", order.product),
                    ("amount", &amount_text),
                ],
            )
        };
        let mut refund_args = json!({"order_id": order.order_id, "amount": amount});
        if self.is_drifted {
            // The rollout's schema: the amount as a decimal string, the currency required.
            refund_args["amount"] = json!(amount_text);
            refund_args["currency"] = json!("USD");
        } else if self.rng.random_bool(0.5) {
            refund_args["currency"] = json!("USD");
        }
        if self.rng.random_bool(0.4) {
            refund_args["reason"] = json!(self.choose(&catalog::REFUND_REASONS));
        }
        let refund = Planned {
            tool: ISSUE_REFUND,
            content: results::refund(&mut self.rng, &order.order_id, amount),
            args: refund_args,
        };
        let mut calls = Vec::new();
        if !is_follow_up {
            calls.push(self.lookup(&order));
        }
        calls.push(refund);
        Plan {
            intent: if is_follow_up {
                Intent::FollowUpRefund
            } else {
                Intent::Refund
            },
            user,
            expected: ExpectedRecord::One(calls[0].tool),
            calls,
            labels_args: self.rng.random_bool(0.7),
            should_not_call: Vec::new(),
            reply: format!(
                "I've issued a refund of ${amount_text} for order {}. It should appear on your statement within 3-5 business days.",
                order.order_id
            ),
            is_parallel: false,
        }
    }

    fn plan_cancel(&mut self) -> Plan {
        let order = self.new_order();
        let user = fill(
            self.choose(&text::CANCEL_REQUESTS),
            &[("order_id", &order.order_id), ("product", order.product)],
        );
        let reason = if user.contains("twice") {
            "duplicate_order"
        } else if user.contains("wrong") {
            "wrong_item"
        } else {
            "customer_request"
        };
        let lookup = self.lookup(&order);
        let cancel = Planned {
            tool: CANCEL_ORDER,
            args: json!({"order_id": order.order_id, "reason": reason}),
            content:
                json!({"order_id": order.order_id, "status": "cancelled", "refund_pending": true})
                    .to_string(),
        };
        Plan {
            intent: Intent::Cancel,
            user,
            expected: ExpectedRecord::One(LOOKUP_ORDER),
            calls: vec![lookup, cancel],
            labels_args: true,
            should_not_call: Vec::new(),
            reply: format!(
                "Order {} is cancelled; the refund will follow automatically.",
                order.order_id
            ),
            is_parallel: false,
        }
    }

    fn plan_policy(&mut self) -> Plan {
        let (question, query) = self.choose(&text::POLICY_QUESTIONS);
        let product = self.choose(&text::PRODUCTS);
        let user = fill(question, &[("product", product)]);
        let query = fill(query, &[("product", product)]);
        let mut args = json!({"query": query});
        if self.rng.random_bool(0.3) {
            // A whole number written as a float: still an integer for JSON Schema.
            args["max_results"] = if self.rng.random_bool(0.05) {
                json!(5.0)
            } else {
                json!(self.rng.random_range(3..=10))
            };
        }
        let content = results::docs(&mut self.rng, &query);
        Plan {
            intent: Intent::Policy,
            user,
            reply: format!(
                "According to our help centre: {}",
                results::first_snippet(&content)
            ),
            calls: vec![Planned {
                tool: SEARCH_DOCS,
                args,
                content,
            }],
            expected: ExpectedRecord::One(SEARCH_DOCS),
            labels_args: false,
            should_not_call: if self.rng.random_bool(0.2) {
                vec![LOOKUP_ORDER]
            } else {
                Vec::new()
            },
            is_parallel: false,
        }
    }

    fn plan_batch_status(&mut self) -> Plan {
        let count = self.rng.random_range(8..30);
        let orders: Vec<Order> = (0..count).map(|_| self.new_order()).collect();
        let ids: Vec<&str> = orders.iter().map(|o| o.order_id.as_str()).collect();
        let user = fill(
            self.choose(&text::BATCH_ORDER_REQUESTS),
            &[("order_ids", &ids.join(", "))],
        );
        let calls: Vec<Planned> = orders.iter().map(|order| self.lookup(order)).collect();
        Plan {
            intent: Intent::BatchStatus,
            user,
            calls,
            expected: ExpectedRecord::One(LOOKUP_ORDER),
            labels_args: true,
            should_not_call: Vec::new(),
            reply: format!("Here is the status of all {count} orders."),
            is_parallel: true,
        }
    }

    fn plan_none(&mut self, intent: Intent, user: String, forbid: Vec<&'static str>) -> Plan {
        let reply = match intent {
            Intent::Definition if !user.starts_with("thanks") => {
                "Good question. In short: it's a standard measure investors use; here's how it works and what to watch out for.".to_string()
            }
            _ => "You're welcome! Let me know if there's anything else.".to_string(),
        };
        let should_not_call = if self.rng.random_bool(0.5) {
            forbid
        } else {
            Vec::new()
        };
        Plan {
            intent,
            user,
            calls: Vec::new(),
            expected: ExpectedRecord::One("none"),
            labels_args: false,
            should_not_call,
            reply,
            is_parallel: false,
        }
    }

    fn company(&mut self) -> (&'static str, &'static str) {
        self.choose(&text::COMPANIES)
    }

    fn price_call(&mut self, symbol: &str) -> Planned {
        let mut args = json!({"symbol": symbol});
        if self.rng.random_bool(0.15) {
            args["exchange"] = json!(if symbol == "BRK.B" { "NYSE" } else { "NASDAQ" });
        }
        Planned {
            tool: GET_STOCK_PRICE,
            content: results::quote(symbol, self.today),
            args,
        }
    }

    fn plan_price(&mut self) -> Plan {
        let (symbol, company) = self.company();
        let user = fill(
            self.choose(&text::PRICE_REQUESTS),
            &[("symbol", symbol), ("company", company)],
        );
        let call = self.price_call(symbol);
        Plan {
            intent: Intent::Price,
            user,
            reply: format!(
                "{company} ({symbol}): {}",
                results::quote_summary(&call.content)
            ),
            calls: vec![call],
            expected: ExpectedRecord::One(GET_STOCK_PRICE),
            labels_args: self.rng.random_bool(0.8),
            should_not_call: vec![SEARCH_WEB, GET_NEWS],
            is_parallel: false,
        }
    }

    fn plan_web(&mut self, intent: Intent) -> Plan {
        let (symbol, company) = self.company();
        let (templates, tool): (&[&str], _) = if intent == Intent::Earnings {
            (&text::EARNINGS_REQUESTS, SEARCH_WEB)
        } else {
            (&text::NEWS_REQUESTS, GET_NEWS)
        };
        let user = fill(
            self.choose(templates),
            &[("symbol", symbol), ("company", company)],
        );
        let (args, content) = if tool == SEARCH_WEB {
            let query = format!("{company} latest earnings report");
            let mut args = json!({"query": query});
            if self.rng.random_bool(0.4) {
                args["recency_days"] = json!(90);
            }
            (args, results::web(&mut self.rng, &query))
        } else {
            let mut args = json!({"query": company});
            if self.rng.random_bool(0.5) {
                args["symbol"] = json!(symbol);
            }
            if self.rng.random_bool(0.3) {
                args["since"] = json!(time::date(self.today - 1));
            }
            (args, results::news(&mut self.rng, company, self.today))
        };
        // Earnings news and a web search both answer these: label the set half the time.
        let expected = if self.rng.random_bool(0.5) {
            ExpectedRecord::AnyOf(if tool == SEARCH_WEB {
                vec![SEARCH_WEB, GET_NEWS]
            } else {
                vec![GET_NEWS, SEARCH_WEB]
            })
        } else {
            ExpectedRecord::One(tool)
        };
        Plan {
            intent,
            user,
            reply: format!(
                "Here's what I found about {company}: {}",
                results::first_snippet(&content)
            ),
            calls: vec![Planned {
                tool,
                args,
                content,
            }],
            expected,
            labels_args: false,
            should_not_call: vec![GET_STOCK_PRICE],
            is_parallel: false,
        }
    }

    fn financial_call(&mut self, symbol: &str, metric: &'static str, period: &str) -> Planned {
        let mut args = json!({"symbol": symbol, "metric": metric});
        if self.rng.random_bool(0.5) {
            args["period"] = json!(period);
        }
        Planned {
            tool: GET_FINANCIAL_DATA,
            content: results::financials(&mut self.rng, symbol, metric, period, self.today),
            args,
        }
    }

    fn plan_compare(&mut self) -> Plan {
        let (symbol, company) = self.company();
        let (symbol2, company2) = loop {
            let other = self.company();
            if other.0 != symbol {
                break other;
            }
        };
        let metric_index = self.rng.random_range(0..catalog::METRICS.len());
        let user = fill(
            self.choose(&text::COMPARE_REQUESTS),
            &[
                ("symbol", symbol),
                ("symbol2", symbol2),
                ("company", company),
                ("company2", company2),
                ("metric_words", text::METRIC_WORDS[metric_index]),
            ],
        );
        let metric = catalog::METRICS[metric_index];
        let calls = vec![
            self.financial_call(symbol, metric, "quarterly"),
            self.financial_call(symbol2, metric, "quarterly"),
        ];
        Plan {
            intent: Intent::Compare,
            user,
            calls,
            expected: ExpectedRecord::One(GET_FINANCIAL_DATA),
            labels_args: true,
            should_not_call: if self.rng.random_bool(0.3) {
                vec![SEARCH_WEB]
            } else {
                Vec::new()
            },
            reply: format!(
                "Comparing the latest quarter: {company} vs {company2} on {}.",
                text::METRIC_WORDS[metric_index]
            ),
            is_parallel: self.rng.random_bool(0.5),
        }
    }

    fn plan_fundamentals(&mut self) -> Plan {
        let (symbol, company) = self.company();
        let metric_index = self.rng.random_range(0..catalog::METRICS.len());
        let year = time::civil_from_days(self.today).0 - 1;
        let user = fill(
            self.choose(&text::FUNDAMENTALS_REQUESTS),
            &[
                ("symbol", symbol),
                ("company", company),
                ("metric_words", text::METRIC_WORDS[metric_index]),
                ("year", &year.to_string()),
            ],
        );
        let metric = catalog::METRICS[metric_index];
        let mut call = self.financial_call(symbol, metric, "annual");
        call.args["period"] = json!("annual");
        call.args["fiscal_year"] = json!(year);
        Plan {
            intent: Intent::Fundamentals,
            user,
            reply: format!(
                "{company}'s {} for fiscal {year} is in the table above.",
                text::METRIC_WORDS[metric_index]
            ),
            calls: vec![call],
            expected: ExpectedRecord::One(GET_FINANCIAL_DATA),
            labels_args: self.rng.random_bool(0.7),
            should_not_call: Vec::new(),
            is_parallel: false,
        }
    }

    fn plan_trend(&mut self) -> Plan {
        let (symbol, company) = self.company();
        let months = self.choose(&[1_i64, 3, 6, 12, 24]);
        let start = time::date(self.today - months * 30);
        let user = fill(
            self.choose(&text::TREND_REQUESTS),
            &[
                ("symbol", symbol),
                ("company", company),
                ("months", &months.to_string()),
                ("start", &start),
            ],
        );
        let interval = if months <= 3 {
            "1d"
        } else if months <= 12 {
            "1wk"
        } else {
            "1mo"
        };
        let args = json!({"symbol": symbol, "start": start, "end": time::date(self.today), "interval": interval});
        let content = results::history(
            &mut self.rng,
            symbol,
            self.today - months * 30,
            self.today,
            interval,
        );
        Plan {
            intent: Intent::Trend,
            user,
            reply: format!(
                "Over the last {months} months {company} moved {}.",
                results::history_summary(&content)
            ),
            calls: vec![Planned {
                tool: GET_HISTORICAL_DATA,
                args,
                content,
            }],
            expected: ExpectedRecord::One(GET_HISTORICAL_DATA),
            labels_args: true,
            should_not_call: Vec::new(),
            is_parallel: false,
        }
    }

    fn plan_watchlist(&mut self) -> Plan {
        let count = self.rng.random_range(5..16);
        let mut symbols: Vec<&'static str> = Vec::new();
        while symbols.len() < count {
            let (symbol, _) = self.company();
            if !symbols.contains(&symbol) {
                symbols.push(symbol);
            }
        }
        let user = fill(
            self.choose(&text::WATCHLIST_REQUESTS),
            &[("symbols", &symbols.join(", "))],
        );
        let calls: Vec<Planned> = symbols.iter().map(|s| self.price_call(s)).collect();
        Plan {
            intent: Intent::Watchlist,
            user,
            calls,
            expected: ExpectedRecord::One(GET_STOCK_PRICE),
            labels_args: true,
            should_not_call: vec![SEARCH_WEB],
            reply: format!("Quotes for your {count} symbols are above."),
            is_parallel: true,
        }
    }

    // ---- acting: what this agent actually did ------------------------------------------------

    fn run(&mut self, plan: &Plan) -> TurnOutcome {
        self.events.push(EventRecord::User {
            content: plan.user.clone(),
        });
        let profile = self.profile;
        if plan.calls.is_empty() {
            if self.rng.random_bool(profile.over_call) {
                let call = self.over_call(&plan.user);
                let failed = self.execute_sequential(vec![call]);
                self.reply_after(failed, &plan.reply);
                return TurnOutcome { is_success: false };
            }
            self.assistant(plan.reply.clone());
            return TurnOutcome { is_success: true };
        }
        if self.rng.random_bool(profile.skipped_tool) {
            // Answers from thin air: the hallucination labels catch and the checks cannot.
            let reply = self.choose(&text::CONFIDENT_REPLIES).to_string();
            self.assistant(reply);
            return TurnOutcome { is_success: false };
        }
        let mut calls = plan.calls.clone();
        let mut is_success = true;
        if calls.len() <= 2
            && calls
                .iter()
                .any(|c| c.tool == ISSUE_REFUND || c.tool == CANCEL_ORDER)
            && self.rng.random_bool(profile.order_mistake)
        {
            self.break_order(&mut calls);
            is_success = false;
        }
        if self.rng.random_bool(profile.wrong_tool) {
            if let Some(wrong) = self.confused(&calls[0], &plan.user) {
                if self.rng.random_bool(0.5) {
                    calls[0] = wrong;
                } else {
                    calls.insert(0, wrong);
                }
                is_success = false;
            }
        }
        if self.rng.random_bool(profile.extra_call) {
            let extra = self.extra_call(&calls[calls.len() - 1], &plan.user);
            calls.push(extra);
        }
        let failed = if plan.is_parallel && self.rng.random_bool(0.6) {
            self.execute_parallel(calls)
        } else {
            self.execute_sequential(calls)
        };
        match failed {
            Failure::None => {
                self.assistant(plan.reply.clone());
                TurnOutcome { is_success }
            }
            Failure::Unhandled => TurnOutcome { is_success: false },
            Failure::LastCallFailed => {
                let reply = self.choose(&text::APOLOGETIC_REPLIES).to_string();
                self.assistant(reply);
                TurnOutcome { is_success: false }
            }
        }
    }

    fn reply_after(&mut self, failure: Failure, reply: &str) {
        match failure {
            Failure::None => self.assistant(reply.to_string()),
            Failure::Unhandled => {}
            Failure::LastCallFailed => {
                let reply = self.choose(&text::APOLOGETIC_REPLIES).to_string();
                self.assistant(reply);
            }
        }
    }

    /// Refund or cancel without the lookup, or after looking up another order.
    fn break_order(&mut self, calls: &mut Vec<Planned>) {
        let has_lookup = calls[0].tool == LOOKUP_ORDER;
        if has_lookup && self.rng.random_bool(0.5) {
            calls.remove(0);
            return;
        }
        let target = calls[calls.len() - 1].args["order_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let other = self
            .orders
            .iter()
            .find(|o| o.order_id != target)
            .cloned()
            .unwrap_or_else(|| self.new_order());
        if has_lookup {
            // Looked up the customer's other order, then refunded the one asked about.
            calls[0] = self.lookup(&other);
        } else {
            // A follow-up that refunds an order the agent never looked up.
            let last = calls.len() - 1;
            calls[last].args["order_id"] = json!(other.order_id);
        }
    }

    /// The wrong tool for a planned call, with arguments made up from the request.
    fn confused(&mut self, call: &Planned, user: &str) -> Option<Planned> {
        let tool = match call.tool {
            LOOKUP_ORDER | ISSUE_REFUND | CANCEL_ORDER => SEARCH_DOCS,
            SEARCH_DOCS => SEARCH_WEB,
            GET_STOCK_PRICE | GET_FINANCIAL_DATA => SEARCH_WEB,
            GET_HISTORICAL_DATA => GET_STOCK_PRICE,
            GET_NEWS | SEARCH_WEB => GET_STOCK_PRICE,
            _ => return None,
        };
        Some(self.improvised(tool, call, user))
    }

    /// A call of `tool` made up from the request (and the planned call it stands in for).
    fn improvised(&mut self, tool: &'static str, call: &Planned, user: &str) -> Planned {
        let query: String = user.chars().take(120).collect();
        let symbol = call.args["symbol"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| self.company().0.to_string());
        let (args, content) = match tool {
            SEARCH_DOCS => {
                let content = results::docs(&mut self.rng, &query);
                (json!({"query": query}), content)
            }
            SEARCH_WEB => {
                let content = results::web(&mut self.rng, &query);
                (json!({"query": query}), content)
            }
            GET_NEWS => {
                let content = results::news(&mut self.rng, &symbol, self.today);
                (json!({"query": symbol, "limit": 5}), content)
            }
            _ => (
                json!({"symbol": symbol}),
                results::quote(&symbol, self.today),
            ),
        };
        Planned {
            tool,
            args,
            content,
        }
    }

    fn over_call(&mut self, user: &str) -> Planned {
        let tool = match self.profile.domain {
            Domain::Support => SEARCH_DOCS,
            Domain::Research => self.choose(&[SEARCH_WEB, SEARCH_WEB, GET_NEWS]),
        };
        let blank = Planned {
            tool,
            args: json!({}),
            content: String::new(),
        };
        self.improvised(tool, &blank, user)
    }

    fn extra_call(&mut self, last: &Planned, user: &str) -> Planned {
        let tool = match last.tool {
            GET_STOCK_PRICE | GET_FINANCIAL_DATA | GET_HISTORICAL_DATA => GET_NEWS,
            GET_NEWS => SEARCH_WEB,
            SEARCH_WEB => GET_NEWS,
            _ => SEARCH_DOCS,
        };
        self.improvised(tool, last, user)
    }

    // ---- executing calls ---------------------------------------------------------------------

    /// Calls one after the other, each result before the next call, with retries, corrections
    /// and give-ups after errors.
    fn execute_sequential(&mut self, calls: Vec<Planned>) -> Failure {
        let profile = self.profile;
        let mut last_failed = false;
        for planned in calls {
            let mut attempt = self.attempt(&planned);
            let mut retries = 0;
            let mut corrected = false;
            loop {
                let call_id = self.call(&attempt.name, attempt.sent.clone());
                let error = self.outcome(&attempt, retries > 0);
                match error {
                    None => {
                        self.ok_result(call_id, &planned);
                        last_failed = false;
                        break;
                    }
                    Some((blame, message)) => {
                        self.error_result(call_id, blame, message);
                        if retries < 3 && self.rng.random_bool(profile.identical_retry) {
                            retries += 1;
                            continue;
                        }
                        if self.rng.random_bool(profile.unhandled) {
                            let reply = if self.rng.random_bool(0.7) {
                                self.choose(&text::CONFIDENT_REPLIES).to_string()
                            } else {
                                self.choose(&text::APOLOGETIC_REPLIES).to_string()
                            };
                            self.assistant(reply);
                            return Failure::Unhandled;
                        }
                        if blame == Blame::Agent && !corrected {
                            corrected = true;
                            retries = 0;
                            attempt = Attempt::clean(&planned, self.encode(&planned.args, false));
                            continue;
                        }
                        last_failed = true;
                        break;
                    }
                }
            }
        }
        if last_failed {
            Failure::LastCallFailed
        } else {
            Failure::None
        }
    }

    /// All calls first, then their results in whatever order they came back.
    fn execute_parallel(&mut self, calls: Vec<Planned>) -> Failure {
        let mut pending = Vec::with_capacity(calls.len());
        for planned in calls {
            let attempt = self.attempt(&planned);
            let call_id = self.call(&attempt.name, attempt.sent.clone());
            let error = self.outcome(&attempt, false);
            pending.push((call_id, planned, error));
        }
        // Results come back roughly in order, with neighbours swapped now and then.
        for i in 1..pending.len() {
            if self.rng.random_bool(0.3) {
                pending.swap(i - 1, i);
            }
        }
        let mut any_failed = false;
        for (call_id, planned, error) in pending {
            match error {
                None => self.ok_result(call_id, &planned),
                Some((blame, message)) => {
                    any_failed = true;
                    self.error_result(call_id, blame, message);
                }
            }
        }
        if any_failed && self.rng.random_bool(self.profile.unhandled) {
            let reply = self.choose(&text::CONFIDENT_REPLIES).to_string();
            self.assistant(reply);
            return Failure::Unhandled;
        }
        Failure::None
    }

    /// The call as this agent sends it: maybe a made-up name, broken or wrong arguments.
    fn attempt(&mut self, planned: &Planned) -> Attempt {
        let profile = self.profile;
        if self.rng.random_bool(profile.hallucinated_name) {
            let name = mistakes::hallucinated_name(&mut self.rng, planned.tool);
            return Attempt {
                name: name.to_string(),
                sent: self.encode(&planned.args, false),
                fault: Fault::UnknownTool,
            };
        }
        if self.rng.random_bool(profile.schema_mistake) {
            let args = mistakes::break_schema(&mut self.rng, planned.tool, &planned.args);
            let is_rejected = self.rng.random_bool(0.75);
            return Attempt {
                name: planned.tool.to_string(),
                sent: self.encode(&args, false),
                fault: Fault::Schema { is_rejected },
            };
        }
        let (args, fault) = if self.rng.random_bool(profile.wrong_args) {
            let (args, is_not_found) =
                mistakes::wrong_value(&mut self.rng, planned.tool, &planned.args);
            (args, Fault::WrongValue { is_not_found })
        } else {
            (planned.args.clone(), Fault::None)
        };
        let is_broken = self.string_args && self.rng.random_bool(profile.broken_string_args);
        Attempt {
            name: planned.tool.to_string(),
            sent: self.encode(&args, is_broken),
            fault: if is_broken { Fault::BrokenJson } else { fault },
        }
    }

    /// The arguments as sent: the object, or for OpenAI-style agents its JSON text (broken
    /// when asked).
    fn encode(&mut self, args: &Value, is_broken: bool) -> Value {
        if !self.string_args {
            return args.clone();
        }
        let text = args.to_string();
        if is_broken {
            Value::String(mistakes::break_json(&mut self.rng, &text))
        } else {
            Value::String(text)
        }
    }

    /// Whether the call fails, and how.
    fn outcome(&mut self, attempt: &Attempt, is_retry: bool) -> Option<(Blame, String)> {
        let agent_error = match &attempt.fault {
            Fault::UnknownTool => Some(format!("Error: unknown tool '{}'", attempt.name)),
            Fault::BrokenJson => Some("Error: could not parse tool arguments as JSON".to_string()),
            Fault::Schema { is_rejected: true } => Some(format!(
                "Invalid arguments for {}: {}",
                attempt.name,
                mistakes::rejection(&attempt.sent)
            )),
            Fault::WrongValue { is_not_found: true } => Some(format!(
                "Error: not found ({})",
                mistakes::short(&attempt.sent)
            )),
            Fault::Schema { is_rejected: false } | Fault::WrongValue { .. } | Fault::None => None,
        };
        if let Some(message) = agent_error {
            return Some((Blame::Agent, message));
        }
        // A retry after a flaky failure usually gets through.
        let environment = self.profile.environment_error * if is_retry { 8.0 } else { 1.0 };
        if self.rng.random_bool(environment.min(0.5)) {
            let template = self.choose(&text::ENVIRONMENT_ERRORS);
            let request_id = format!("{:08x}", self.rng.random::<u32>());
            return Some((
                Blame::Environment,
                fill(template, &[("request_id", &request_id)]),
            ));
        }
        None
    }

    fn call(&mut self, name: &str, args: Value) -> Option<String> {
        let call_id = self.profile.has_call_ids.then(|| {
            let id = format!("call_{}", self.next_call);
            self.next_call += 1;
            id
        });
        self.events.push(EventRecord::ToolUse {
            call_id: call_id.clone(),
            name: name.to_string(),
            args,
        });
        call_id
    }

    fn ok_result(&mut self, call_id: Option<String>, planned: &Planned) {
        if planned.tool == LOOKUP_ORDER {
            if let Some(order_id) = planned.args["order_id"].as_str() {
                self.looked_up.push(order_id.to_string());
            }
        }
        self.events.push(EventRecord::ToolResult {
            call_id,
            status: "ok",
            error_source: None,
            content: planned.content.clone(),
        });
    }

    fn error_result(&mut self, call_id: Option<String>, blame: Blame, message: String) {
        let error_source = self
            .rng
            .random_bool(self.profile.attributes_errors)
            .then_some(match blame {
                Blame::Agent => "agent",
                Blame::Environment => "environment",
            });
        self.events.push(EventRecord::ToolResult {
            call_id,
            status: "error",
            error_source,
            content: message,
        });
    }

    fn assistant(&mut self, content: String) {
        self.events.push(EventRecord::Assistant { content });
    }

    fn choose<T: Copy>(&mut self, items: &[T]) -> T {
        *items.choose(&mut self.rng).expect("pools are not empty")
    }
}

/// How the calls of a turn ended.
enum Failure {
    None,
    /// The agent replied straight after an error without retrying.
    Unhandled,
    /// The last call failed and the agent moved on to its reply.
    LastCallFailed,
}

/// What is wrong with a call as sent.
#[derive(Debug, Clone, Copy)]
enum Fault {
    None,
    UnknownTool,
    BrokenJson,
    Schema { is_rejected: bool },
    WrongValue { is_not_found: bool },
}

/// A call as sent.
struct Attempt {
    name: String,
    sent: Value,
    fault: Fault,
}

impl Attempt {
    fn clean(planned: &Planned, sent: Value) -> Self {
        Attempt {
            name: planned.tool.to_string(),
            sent,
            fault: Fault::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_are_unique_per_index() {
        let ids: std::collections::BTreeSet<String> =
            (0..10_000).map(|index| session_id(7, index)).collect();
        assert_eq!(ids.len(), 10_000);
    }

    #[test]
    fn a_session_does_not_depend_on_the_others() {
        let once = serde_json::to_string(&generate(3, 41, Shape::Realistic).session).unwrap();
        let again = serde_json::to_string(&generate(3, 41, Shape::Realistic).session).unwrap();
        assert_eq!(once, again);
        let other = serde_json::to_string(&generate(4, 41, Shape::Realistic).session).unwrap();
        assert_ne!(once, other);
    }
}
