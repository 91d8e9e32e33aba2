//! What a judge run costs: an estimate before it starts, live spend from the providers' `usage`
//! numbers while it runs, and a budget that stops it before the request that would pass the cap.
//!
//! Prices are list prices per million tokens from an editable [`PriceTable`]; the built-in one
//! ([`default_table`]) is a starting point that goes stale, and a model not in the table gets no
//! cost estimate (token counts only) rather than a guess.
//!
//! ```
//! use toolscope_core::judge::cost::{estimate_run, would_exceed, Price, Spend};
//!
//! let price = Price { input_per_mtok_usd: 3.0, output_per_mtok_usd: 15.0 };
//! // Two prompts of 4 000 characters, 500 output tokens allowed each.
//! let estimate = estimate_run(&[4_000, 4_000], 500, Some(&price));
//! assert_eq!((estimate.input_tokens, estimate.output_tokens), (2_000, 1_000));
//! assert_eq!(estimate.cost_usd, Some(0.021));
//!
//! let mut spend = Spend::new(Some(price));
//! spend.add(1_000_000, 0); // $3 so far
//! let next = estimate_run(&[4_000], 500, Some(&price));
//! assert!(would_exceed(&spend, &next, 3.01));
//! assert!(!would_exceed(&spend, &next, 5.0));
//! ```

use serde::{Deserialize, Serialize};

/// A model's list price, in US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Dollars per million input (prompt) tokens.
    pub input_per_mtok_usd: f64,
    /// Dollars per million output (completion) tokens.
    pub output_per_mtok_usd: f64,
}

impl Price {
    /// The cost of `input_tokens` in and `output_tokens` out, in dollars.
    pub fn cost_usd(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        (input_tokens as f64 * self.input_per_mtok_usd
            + output_tokens as f64 * self.output_per_mtok_usd)
            / 1_000_000.0
    }
}

/// One model's price in a [`PriceTable`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PriceEntry {
    /// The provider, as the judge names it (`openai`, `anthropic`, `gemini`).
    pub provider: String,
    /// The model id as sent to the provider.
    pub model: String,
    /// Other ids of the same model at the same price (dated snapshots).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// The price.
    #[serde(flatten)]
    pub price: Price,
    /// Where the price comes from, and that it changes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// Model prices, editable as JSON: `{"note": "...", "models": [{"provider": "openai", "model":
/// "gpt-4o", "input_per_mtok_usd": 2.5, "output_per_mtok_usd": 10.0}, ...]}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PriceTable {
    /// What the table is and how old its prices are.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// The prices.
    pub models: Vec<PriceEntry>,
}

/// A model the price table has no price for: the run gets token counts but no cost estimate,
/// and a budget cannot be enforced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no price for {provider} model \"{model}\" in the price table: no cost estimate and no \
     budget enforcement (add the model to the price table to get them)"
)]
pub struct UnknownModel {
    /// The provider asked about.
    pub provider: String,
    /// The model asked about.
    pub model: String,
}

impl PriceTable {
    /// The price of `model` at `provider`: the entry whose model id or an alias is exactly
    /// `model` (no prefix matching: `gpt-4o` must not price `gpt-4o-mini`). The provider is
    /// compared without regard to case.
    pub fn lookup(&self, provider: &str, model: &str) -> Result<&Price, UnknownModel> {
        self.models
            .iter()
            .find(|entry| {
                entry.provider.eq_ignore_ascii_case(provider)
                    && (entry.model == model || entry.aliases.iter().any(|alias| alias == model))
            })
            .map(|entry| &entry.price)
            .ok_or_else(|| UnknownModel {
                provider: provider.to_string(),
                model: model.to_string(),
            })
    }
}

/// The list prices toolscope ships with: a few current models per provider.
///
/// Prices change, and this table is not updated with them: check the provider's pricing page
/// and edit the table (it is plain JSON: serialise it, edit, read it back). Standard tier, text,
/// no batch or cache discounts.
pub fn default_table() -> PriceTable {
    const PRICES_CHANGE: &str = "list price when toolscope shipped; prices change: check the \
                                 provider's pricing page and edit the table";
    let entry =
        |provider: &str, model: &str, aliases: &[&str], input: f64, output: f64| PriceEntry {
            provider: provider.into(),
            model: model.into(),
            aliases: aliases.iter().map(|alias| alias.to_string()).collect(),
            price: Price {
                input_per_mtok_usd: input,
                output_per_mtok_usd: output,
            },
            note: PRICES_CHANGE.into(),
        };
    PriceTable {
        note: "USD per million tokens, standard tier. Prices change; toolscope does not track \
               them: check each provider's pricing page (openai.com/api/pricing, \
               anthropic.com/pricing, ai.google.dev/gemini-api/docs/pricing) and edit this table."
            .into(),
        models: vec![
            // OpenAI: openai.com/api/pricing. Prices change; edit the table.
            entry("openai", "gpt-5.1", &[], 1.25, 10.0),
            // Prices change; edit the table.
            entry("openai", "gpt-5", &["gpt-5-2025-08-07"], 1.25, 10.0),
            // Prices change; edit the table.
            entry(
                "openai",
                "gpt-5-mini",
                &["gpt-5-mini-2025-08-07"],
                0.25,
                2.0,
            ),
            // Prices change; edit the table.
            entry(
                "openai",
                "gpt-5-nano",
                &["gpt-5-nano-2025-08-07"],
                0.05,
                0.4,
            ),
            // Prices change; edit the table.
            entry("openai", "gpt-4.1", &["gpt-4.1-2025-04-14"], 2.0, 8.0),
            // Prices change; edit the table.
            entry(
                "openai",
                "gpt-4.1-mini",
                &["gpt-4.1-mini-2025-04-14"],
                0.4,
                1.6,
            ),
            // Prices change; edit the table.
            entry(
                "openai",
                "gpt-4.1-nano",
                &["gpt-4.1-nano-2025-04-14"],
                0.1,
                0.4,
            ),
            // Prices change; edit the table.
            entry("openai", "gpt-4o", &["gpt-4o-2024-08-06"], 2.5, 10.0),
            // Prices change; edit the table.
            entry(
                "openai",
                "gpt-4o-mini",
                &["gpt-4o-mini-2024-07-18"],
                0.15,
                0.6,
            ),
            // Anthropic: anthropic.com/pricing. Prices change; edit the table.
            entry(
                "anthropic",
                "claude-opus-4-1",
                &["claude-opus-4-1-20250805"],
                15.0,
                75.0,
            ),
            // Prices change; edit the table.
            entry(
                "anthropic",
                "claude-sonnet-4-5",
                &["claude-sonnet-4-5-20250929"],
                3.0,
                15.0,
            ),
            // Prices change; edit the table.
            entry(
                "anthropic",
                "claude-sonnet-4-0",
                &["claude-sonnet-4-20250514"],
                3.0,
                15.0,
            ),
            // Prices change; edit the table.
            entry(
                "anthropic",
                "claude-haiku-4-5",
                &["claude-haiku-4-5-20251001"],
                1.0,
                5.0,
            ),
            // Prices change; edit the table.
            entry(
                "anthropic",
                "claude-3-5-haiku-latest",
                &["claude-3-5-haiku-20241022"],
                0.8,
                4.0,
            ),
            // Google: ai.google.dev/gemini-api/docs/pricing; 2.5 Pro's price is for prompts up
            // to 200k tokens (longer ones cost more). Prices change; edit the table.
            entry("gemini", "gemini-2.5-pro", &[], 1.25, 10.0),
            // Prices change; edit the table.
            entry("gemini", "gemini-2.5-flash", &[], 0.3, 2.5),
            // Prices change; edit the table.
            entry("gemini", "gemini-2.5-flash-lite", &[], 0.1, 0.4),
        ],
    }
}

/// Roughly how many tokens a prompt of `prompt_chars` characters is: one token per 4
/// characters, rounded up.
///
/// 4 characters per token is the usual rule of thumb for English prose with the GPT and Claude
/// tokenizers; JSON, code, numbers and non-Latin scripts take more tokens per character, so
/// the estimate runs low on them. The live [`Spend`] uses the provider's own counts instead.
pub fn estimate_tokens(prompt_chars: usize) -> u64 {
    (prompt_chars as u64).div_ceil(4)
}

/// What a run is expected to take, before it starts.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct RunEstimate {
    /// Requests (one per judged call).
    pub requests: u64,
    /// Input tokens, by [`estimate_tokens`].
    pub input_tokens: u64,
    /// Output tokens at most: every request's output budget used up.
    pub output_tokens: u64,
    /// The cost in dollars at that price; None when the model has no price.
    pub cost_usd: Option<f64>,
}

/// The estimate for one request per prompt (`prompt_lengths` in characters), each allowed
/// `max_output_tokens`. The output side assumes every answer uses its whole budget, so the cost
/// is an upper bound on output and an estimate on input.
pub fn estimate_run(
    prompt_lengths: &[usize],
    max_output_tokens: u64,
    price: Option<&Price>,
) -> RunEstimate {
    let requests = prompt_lengths.len() as u64;
    let input_tokens = prompt_lengths
        .iter()
        .map(|&chars| estimate_tokens(chars))
        .sum();
    let output_tokens = requests * max_output_tokens;
    RunEstimate {
        requests,
        input_tokens,
        output_tokens,
        cost_usd: price.map(|price| price.cost_usd(input_tokens, output_tokens)),
    }
}

/// What a run has spent so far, from the token counts the providers report in each answer's
/// `usage`. Totals are kept in tokens, and the cost worked out from them, so no rounding
/// accumulates over thousands of requests.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Spend {
    /// The model's price, when the table has one.
    pub price: Option<Price>,
    /// Requests answered.
    pub requests: u64,
    /// Input tokens, as the providers counted them.
    pub input_tokens: u64,
    /// Output tokens, as the providers counted them.
    pub output_tokens: u64,
}

impl Spend {
    /// Nothing spent yet, at `price`.
    pub fn new(price: Option<Price>) -> Spend {
        Spend {
            price,
            ..Spend::default()
        }
    }

    /// One answered request's usage.
    pub fn add(&mut self, input_tokens: u64, output_tokens: u64) {
        self.requests += 1;
        self.input_tokens += input_tokens;
        self.output_tokens += output_tokens;
    }

    /// The dollars spent so far; None without a price.
    pub fn cost_usd(&self) -> Option<f64> {
        self.price
            .map(|price| price.cost_usd(self.input_tokens, self.output_tokens))
    }

    /// Whether a budget can be enforced: only with a price. Without one, the adapters must
    /// refuse a budget (or say plainly that it is not enforced) rather than run unbounded.
    pub fn can_enforce_budget(&self) -> bool {
        self.price.is_some()
    }
}

/// Whether `spend` has reached `budget_usd` (spent ≥ budget): no further request may start.
/// Always false without a price (see [`Spend::can_enforce_budget`]).
pub fn is_over_budget(spend: &Spend, budget_usd: f64) -> bool {
    spend.cost_usd().is_some_and(|spent| spent >= budget_usd)
}

/// Whether sending the request estimated by `next` would take the spend past `budget_usd`
/// (spent + next > budget; landing exactly on the cap is allowed). `next`'s tokens are priced
/// at the spend's price. The run stops *before* such a request, and the calls left are
/// unscored with cause `not_run`. Always false without a price.
pub fn would_exceed(spend: &Spend, next: &RunEstimate, budget_usd: f64) -> bool {
    match spend.price {
        Some(price) => {
            let after = price.cost_usd(
                spend.input_tokens + next.input_tokens,
                spend.output_tokens + next.output_tokens,
            );
            after > budget_usd
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SONNET: Price = Price {
        input_per_mtok_usd: 3.0,
        output_per_mtok_usd: 15.0,
    };

    #[test]
    fn tokens_are_characters_over_four_rounded_up() {
        assert_eq!(estimate_tokens(0), 0);
        assert_eq!(estimate_tokens(1), 1);
        assert_eq!(estimate_tokens(4), 1);
        assert_eq!(estimate_tokens(5), 2);
        assert_eq!(estimate_tokens(4_000), 1_000);
    }

    #[test]
    fn a_run_is_estimated_with_every_output_budget_used() {
        // 1001 + 2 + 250 000 = 251 003 input tokens; 3 × 512 = 1536 output tokens.
        let estimate = estimate_run(&[4_001, 8, 1_000_000], 512, Some(&SONNET));
        assert_eq!(estimate.requests, 3);
        assert_eq!(estimate.input_tokens, 1_001 + 2 + 250_000);
        assert_eq!(estimate.output_tokens, 1_536);
        // (251 003 × 3 + 1536 × 15) / 10^6 = (753 009 + 23 040) / 10^6.
        assert_eq!(estimate.cost_usd, Some(776_049.0 / 1_000_000.0));
        assert_eq!(estimate_run(&[], 512, Some(&SONNET)).cost_usd, Some(0.0));
    }

    #[test]
    fn an_unknown_model_gets_tokens_but_no_cost_and_says_so() {
        let table = default_table();
        let estimate = estimate_run(&[400], 100, None);
        assert_eq!((estimate.input_tokens, estimate.output_tokens), (100, 100));
        assert_eq!(estimate.cost_usd, None);
        let error = table.lookup("openai", "gpt-9-imaginary").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("no price for openai model \"gpt-9-imaginary\""),
            "{error}"
        );
    }

    #[test]
    fn lookup_matches_ids_and_aliases_exactly() {
        let table = default_table();
        let mini = table.lookup("openai", "gpt-4o-mini").unwrap();
        assert_eq!(mini.input_per_mtok_usd, 0.15);
        // No prefix matching: "gpt-4o" is not "gpt-4o-mini", nor "gpt-4o-2099".
        assert_eq!(
            table.lookup("openai", "gpt-4o").unwrap().input_per_mtok_usd,
            2.5
        );
        assert!(table.lookup("openai", "gpt-4o-2099-01-01").is_err());
        assert_eq!(
            table
                .lookup("Anthropic", "claude-sonnet-4-20250514")
                .unwrap(),
            &SONNET
        );
        // A model is priced by its own provider only.
        assert!(table.lookup("gemini", "gpt-4o").is_err());
    }

    #[test]
    fn the_default_table_has_models_per_provider_each_noting_that_prices_change() {
        let table = default_table();
        for provider in ["openai", "anthropic", "gemini"] {
            assert!(table.models.iter().any(|entry| entry.provider == provider));
        }
        for entry in &table.models {
            assert!(entry.note.contains("prices change"), "{}", entry.model);
            assert!(entry.price.input_per_mtok_usd > 0.0);
            assert!(entry.price.output_per_mtok_usd >= entry.price.input_per_mtok_usd);
        }
    }

    #[test]
    fn the_table_round_trips_through_its_editable_json() {
        let table = default_table();
        let text = serde_json::to_string_pretty(&table).unwrap();
        assert!(text.contains("\"input_per_mtok_usd\": 2.5"), "{text}");
        let again: PriceTable = serde_json::from_str(&text).unwrap();
        assert_eq!(again, table);
        let edited: PriceTable = serde_json::from_str(
            r#"{"models": [{"provider": "openai", "model": "my-fine-tune",
                "input_per_mtok_usd": 1, "output_per_mtok_usd": 4}]}"#,
        )
        .unwrap();
        assert_eq!(
            edited.lookup("openai", "my-fine-tune").unwrap(),
            &Price {
                input_per_mtok_usd: 1.0,
                output_per_mtok_usd: 4.0
            }
        );
    }

    #[test]
    fn spend_adds_usage_and_prices_the_totals() {
        let mut spend = Spend::new(Some(SONNET));
        assert_eq!(spend.cost_usd(), Some(0.0));
        spend.add(250_000, 10_000);
        spend.add(250_000, 40_000);
        assert_eq!(spend.requests, 2);
        assert_eq!((spend.input_tokens, spend.output_tokens), (500_000, 50_000));
        // 0.5 × 3 + 0.05 × 15 = 1.5 + 0.75.
        assert_eq!(spend.cost_usd(), Some(2.25));
        assert_eq!(Spend::new(None).cost_usd(), None);
    }

    #[test]
    fn the_budget_is_reached_at_the_cap_and_a_request_that_would_pass_it_is_not_sent() {
        let mut spend = Spend::new(Some(SONNET));
        spend.add(500_000, 0); // $1.50
        assert!(!is_over_budget(&spend, 2.0));
        // The next request: 4000 characters in, 10 000 tokens out at most = 1000 × 3 + 10 000 ×
        // 15 = $0.153 → $1.653.
        let next = estimate_run(&[4_000], 10_000, Some(&SONNET));
        assert!(!would_exceed(&spend, &next, 2.0));
        assert!(!would_exceed(&spend, &next, 1.653)); // exactly on the cap: allowed
        assert!(would_exceed(&spend, &next, 1.65));
        spend.add(166_667, 0); // $0.500001 → $2.000001
        assert!(is_over_budget(&spend, 2.0));
        let mut exact = Spend::new(Some(SONNET));
        exact.add(1_000_000, 0);
        assert!(is_over_budget(&exact, 3.0));
    }

    #[test]
    fn without_a_price_no_budget_can_be_enforced() {
        let mut spend = Spend::new(None);
        spend.add(10_000_000, 10_000_000);
        assert!(!spend.can_enforce_budget());
        assert!(!is_over_budget(&spend, 0.0));
        assert!(!would_exceed(&spend, &estimate_run(&[1], 1, None), 0.0));
    }
}
