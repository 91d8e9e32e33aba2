//! The simulated agents and how often each makes each kind of mistake.
//!
//! Rates are per opportunity (per call, per turn or per error, as each field says). They are
//! chosen so that a few hundred sessions show every problem more than once and the agents differ
//! the way real versions do: `support-v1` is sloppy and sends OpenAI-style string arguments,
//! `support-v2` is its better successor (with a schema rollout in progress), `research-v1`
//! over-calls tools and its exporter does not attribute errors.

/// What an agent works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// Orders, refunds, help centre.
    Support,
    /// Stocks, news, financials.
    Research,
}

/// One agent version and its mistake rates.
#[derive(Debug, Clone, Copy)]
pub struct Profile {
    /// The `agent_id` written to its sessions.
    pub agent_id: &'static str,
    /// What it works on.
    pub domain: Domain,
    /// Relative share of sessions.
    pub weight: u32,
    /// Per session: its calls send arguments as a JSON string (OpenAI's `arguments`).
    pub string_args: f64,
    /// Per call with string arguments: the string is broken JSON.
    pub broken_string_args: f64,
    /// Per call: the tool name is invented or misspelt.
    pub hallucinated_name: f64,
    /// Per call: the arguments break the schema.
    pub schema_mistake: f64,
    /// Per refund or cancellation: the lookup is skipped or is of another order.
    pub order_mistake: f64,
    /// Per turn that needs a tool: the first call is the wrong tool.
    pub wrong_tool: f64,
    /// Per turn that needs a tool: no call at all.
    pub skipped_tool: f64,
    /// Per turn that needs no tool: a tool is called anyway.
    pub over_call: f64,
    /// Per turn that needs a tool: an unneeded extra call.
    pub extra_call: f64,
    /// Per call: an argument value differs from the request (valid, but wrong).
    pub wrong_args: f64,
    /// Per call: the environment fails (timeout, outage).
    pub environment_error: f64,
    /// Per error: the same call is sent again unchanged.
    pub identical_retry: f64,
    /// Per error: the agent replies without retrying.
    pub unhandled: f64,
    /// Per error result: the export says who caused it.
    pub attributes_errors: f64,
    /// Per session: the session carries the tools the agent was given.
    pub carries_tools: f64,
    /// Per session carrying tools: they are the drifted rollout version.
    pub drifted_tools: f64,
    /// Whether calls and results carry ids.
    pub has_call_ids: bool,
}

/// The agents, in a fixed order.
pub const PROFILES: [Profile; 3] = [
    Profile {
        agent_id: "support-v1",
        domain: Domain::Support,
        weight: 30,
        string_args: 0.7,
        broken_string_args: 0.025,
        hallucinated_name: 0.03,
        schema_mistake: 0.05,
        order_mistake: 0.15,
        wrong_tool: 0.12,
        skipped_tool: 0.05,
        over_call: 0.15,
        extra_call: 0.05,
        wrong_args: 0.04,
        environment_error: 0.03,
        identical_retry: 0.4,
        unhandled: 0.3,
        attributes_errors: 0.85,
        carries_tools: 0.05,
        drifted_tools: 0.0,
        has_call_ids: true,
    },
    Profile {
        agent_id: "support-v2",
        domain: Domain::Support,
        weight: 45,
        string_args: 0.0,
        broken_string_args: 0.0,
        hallucinated_name: 0.006,
        schema_mistake: 0.02,
        order_mistake: 0.04,
        wrong_tool: 0.05,
        skipped_tool: 0.02,
        over_call: 0.06,
        extra_call: 0.03,
        wrong_args: 0.02,
        environment_error: 0.03,
        identical_retry: 0.12,
        unhandled: 0.12,
        attributes_errors: 0.9,
        carries_tools: 0.25,
        drifted_tools: 0.2,
        has_call_ids: true,
    },
    Profile {
        agent_id: "research-v1",
        domain: Domain::Research,
        weight: 25,
        string_args: 0.0,
        broken_string_args: 0.0,
        hallucinated_name: 0.02,
        schema_mistake: 0.04,
        order_mistake: 0.0,
        wrong_tool: 0.1,
        skipped_tool: 0.04,
        over_call: 0.35,
        extra_call: 0.15,
        wrong_args: 0.05,
        environment_error: 0.05,
        identical_retry: 0.25,
        unhandled: 0.25,
        attributes_errors: 0.0,
        carries_tools: 0.1,
        drifted_tools: 0.0,
        has_call_ids: true,
    },
];

/// The profile whose cumulative weight covers `ticket` (in `0..total_weight()`).
pub fn pick(ticket: u32) -> &'static Profile {
    let mut left = ticket;
    for profile in &PROFILES {
        if left < profile.weight {
            return profile;
        }
        left -= profile.weight;
    }
    &PROFILES[PROFILES.len() - 1]
}

/// Sum of the weights.
pub fn total_weight() -> u32 {
    PROFILES.iter().map(|p| p.weight).sum()
}
