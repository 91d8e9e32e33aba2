//! Retries: after each attempt, whether to send the request again and when.
//!
//! [`decide`] looks at the attempt's outcome (a response, a timeout, or a network error) and
//! says [`RetryDecision::Done`] (a 2xx: read it with
//! [`read_response`](super::answer::read_response)), [`RetryDecision::Retry`] after a delay, or
//! [`RetryDecision::GiveUp`] with the cause to record. The adapters only wait and resend; the
//! core has no clock, so the delay is a number of milliseconds, not a time.
//!
//! - Retried: 429, 408, 409, 5xx (529 "overloaded" included), timeouts and network errors.
//! - Never retried: other 4xx (400, 401, 403, 404, …) and quota or credit exhaustion (an
//!   OpenAI 429 `insufficient_quota`, a Gemini daily limit), which waiting cannot fix.
//! - The delay is the provider's when it gives one: `retry-after-ms` (OpenAI), then
//!   `retry-after` in seconds, then Gemini's `RetryInfo.retryDelay` in the error body. A
//!   `retry-after` given as an HTTP date cannot be turned into a delay without a clock, so it
//!   is treated as absent. A provider asking for longer than `max_delay_ms` ends the retries:
//!   waiting less would fail again.
//! - Otherwise exponential backoff: `base_delay_ms × 2^(attempt − 1)`, capped at `max_delay_ms`,
//!   less a jitter of up to a quarter. The core has no randomness, so the jitter is derived from
//!   the attempt number and the policy's `jitter_seed` (adapters pass something that differs
//!   between concurrent requests, such as the call's index, so they do not retry in step).
//! - After `max_attempts` attempts: a 429 gives up as `rate_limited`, a timeout as `timeout`,
//!   anything else as `http_error`.

use serde::{Deserialize, Serialize};

use super::answer::classify_failure;
use super::provider::HttpResponse;
use super::UnscoredCause;

/// How often and how long to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (default 4).
    pub max_attempts: u32,
    /// The first retry's delay before jitter (default 1,000 ms); each retry doubles it.
    pub base_delay_ms: u64,
    /// The longest delay (default 60,000 ms).
    pub max_delay_ms: u64,
    /// Mixed into the jitter so concurrent requests spread out (default 0).
    #[serde(default)]
    pub jitter_seed: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay_ms: 1_000,
            max_delay_ms: 60_000,
            jitter_seed: 0,
        }
    }
}

/// What to do after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum RetryDecision {
    /// Send the same request again after this many milliseconds.
    Retry {
        /// The delay.
        after_ms: u64,
    },
    /// Stop: the call is unscored for this cause (read the response, if any, for the detail).
    GiveUp(UnscoredCause),
    /// The attempt succeeded (a 2xx): read its response.
    Done,
}

/// What to do after attempt number `attempt` (1 for the first) ended with `response`, or with
/// no response: a timeout when `is_timeout`, otherwise a network error.
pub fn decide(
    policy: &RetryPolicy,
    attempt: u32,
    response: Option<&HttpResponse>,
    is_timeout: bool,
) -> RetryDecision {
    let (cause, asked_ms) = match response {
        _ if is_timeout => (UnscoredCause::Timeout, None),
        None => (UnscoredCause::HttpError, None),
        Some(response) if (200..300).contains(&response.status) => return RetryDecision::Done,
        Some(response) => {
            let failure = classify_failure(response);
            if !failure.is_retryable {
                return RetryDecision::GiveUp(failure.cause);
            }
            (
                failure.cause,
                header_delay_ms(response).or(failure.body_retry_ms),
            )
        }
    };
    if attempt >= policy.max_attempts {
        return RetryDecision::GiveUp(cause);
    }
    match asked_ms {
        Some(ms) if ms > policy.max_delay_ms => RetryDecision::GiveUp(cause),
        Some(ms) => RetryDecision::Retry { after_ms: ms },
        None => RetryDecision::Retry {
            after_ms: backoff_ms(policy, attempt),
        },
    }
}

/// The backoff after attempt `attempt`: exponential, capped, less a deterministic jitter of up
/// to a quarter.
pub fn backoff_ms(policy: &RetryPolicy, attempt: u32) -> u64 {
    let doublings = attempt.max(1) - 1;
    let factor = 1u64.checked_shl(doublings).unwrap_or(u64::MAX);
    let exponential = policy
        .base_delay_ms
        .saturating_mul(factor)
        .min(policy.max_delay_ms);
    let fraction = splitmix64(policy.jitter_seed ^ u64::from(attempt)) % 1_000;
    // exponential × fraction / 4,000 ≤ exponential / 4; computed in u128 so it cannot overflow.
    let jitter = (u128::from(exponential) * u128::from(fraction) / 4_000) as u64;
    exponential - jitter
}

/// The delay a response's headers ask for: `retry-after-ms`, else `retry-after` in seconds.
fn header_delay_ms(response: &HttpResponse) -> Option<u64> {
    let milliseconds = |text: &str, scale: f64| {
        let value: f64 = text.trim().parse().ok()?;
        (value.is_finite() && value >= 0.0)
            .then(|| (value * scale).ceil().min(u64::MAX as f64) as u64)
    };
    response
        .header("retry-after-ms")
        .and_then(|text| milliseconds(text, 1.0))
        .or_else(|| {
            response
                .header("retry-after")
                .and_then(|text| milliseconds(text, 1_000.0))
        })
}

/// SplitMix64's output function: a well-spread 64-bit value from any input.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, headers: &[(&str, &str)], body: &str) -> HttpResponse {
        HttpResponse {
            status,
            headers: headers
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            body: body.as_bytes().to_vec(),
        }
    }

    const QUOTA: &str = r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#;
    const GEMINI_PER_MINUTE: &str = r#"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","message":"You exceeded your current quota","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier","quotaValue":"15"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"36s"}]}}"#;

    #[test]
    fn the_retry_schedule() {
        use RetryDecision::{Done, GiveUp, Retry};
        let policy = RetryPolicy::default();
        let ok = response(200, &[], "{}");
        let rate = response(429, &[], "{}");
        let overloaded = response(529, &[], "{}");
        let failed = response(500, &[], "");
        let table: Vec<(&str, u32, Option<HttpResponse>, bool, RetryDecision)> = vec![
            ("success", 1, Some(ok.clone()), false, Done),
            ("success after retries", 4, Some(ok), false, Done),
            (
                "429, first attempt",
                1,
                Some(rate.clone()),
                false,
                Retry { after_ms: 884 },
            ),
            (
                "429, third attempt",
                3,
                Some(rate.clone()),
                false,
                Retry { after_ms: 3_947 },
            ),
            (
                "429, last attempt",
                4,
                Some(rate),
                false,
                GiveUp(UnscoredCause::RateLimited),
            ),
            (
                "529, first attempt",
                1,
                Some(overloaded.clone()),
                false,
                Retry { after_ms: 884 },
            ),
            (
                "529, last attempt",
                4,
                Some(overloaded),
                false,
                GiveUp(UnscoredCause::HttpError),
            ),
            (
                "500, second attempt",
                2,
                Some(failed.clone()),
                false,
                Retry { after_ms: 1_945 },
            ),
            (
                "500, last attempt",
                4,
                Some(failed),
                false,
                GiveUp(UnscoredCause::HttpError),
            ),
            ("timeout", 1, None, true, Retry { after_ms: 884 }),
            (
                "timeout, last attempt",
                4,
                None,
                true,
                GiveUp(UnscoredCause::Timeout),
            ),
            ("network error", 2, None, false, Retry { after_ms: 1_945 }),
            (
                "network error, last attempt",
                4,
                None,
                false,
                GiveUp(UnscoredCause::HttpError),
            ),
            (
                "400",
                1,
                Some(response(400, &[], "{}")),
                false,
                GiveUp(UnscoredCause::HttpError),
            ),
            (
                "401",
                1,
                Some(response(401, &[], "{}")),
                false,
                GiveUp(UnscoredCause::HttpError),
            ),
            (
                "403",
                1,
                Some(response(403, &[], "{}")),
                false,
                GiveUp(UnscoredCause::HttpError),
            ),
            (
                "404",
                1,
                Some(response(404, &[], "{}")),
                false,
                GiveUp(UnscoredCause::HttpError),
            ),
            (
                "quota",
                1,
                Some(response(429, &[("retry-after", "1")], QUOTA)),
                false,
                GiveUp(UnscoredCause::Quota),
            ),
            (
                "retry-after seconds",
                1,
                Some(response(429, &[("Retry-After", "7")], "{}")),
                false,
                Retry { after_ms: 7_000 },
            ),
            (
                "retry-after decimal",
                1,
                Some(response(503, &[("retry-after", "0.25")], "")),
                false,
                Retry { after_ms: 250 },
            ),
            (
                "retry-after-ms wins",
                1,
                Some(response(
                    429,
                    &[("retry-after", "7"), ("retry-after-ms", "1234.5")],
                    "{}",
                )),
                false,
                Retry { after_ms: 1_235 },
            ),
            (
                "retry-after as a date",
                2,
                Some(response(
                    429,
                    &[("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")],
                    "{}",
                )),
                false,
                Retry { after_ms: 1_945 },
            ),
            (
                "retry-after too long",
                1,
                Some(response(429, &[("retry-after", "120")], "{}")),
                false,
                GiveUp(UnscoredCause::RateLimited),
            ),
            (
                "gemini retry delay in the body",
                1,
                Some(response(429, &[], GEMINI_PER_MINUTE)),
                false,
                Retry { after_ms: 36_000 },
            ),
        ];
        for (name, attempt, response, is_timeout, expected) in table {
            assert_eq!(
                decide(&policy, attempt, response.as_ref(), is_timeout),
                expected,
                "{name}"
            );
        }
    }

    #[test]
    fn backoff_doubles_is_capped_and_jitters_by_at_most_a_quarter() {
        let policy = RetryPolicy::default();
        let expected_ceilings = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000];
        for (attempt, ceiling) in (1..).zip(expected_ceilings) {
            let delay = backoff_ms(&policy, attempt);
            assert!(
                delay <= ceiling && delay >= ceiling - ceiling / 4,
                "attempt {attempt}: {delay} not in [{}, {ceiling}]",
                ceiling - ceiling / 4
            );
            assert_eq!(delay, backoff_ms(&policy, attempt), "deterministic");
        }
        assert!(backoff_ms(&policy, u32::MAX) <= 60_000);
        assert!(
            backoff_ms(&policy, 0) <= 1_000,
            "attempt 0 counts as the first"
        );
        // The schedule with the default seed, written out.
        let schedule: Vec<u64> = (1..=4)
            .map(|attempt| backoff_ms(&policy, attempt))
            .collect();
        assert_eq!(
            schedule,
            [SCHEDULE[0], SCHEDULE[1], SCHEDULE[2], SCHEDULE[3]]
        );
        // Another seed spreads the same attempts differently.
        let other = RetryPolicy {
            jitter_seed: 7,
            ..policy
        };
        let other_schedule: Vec<u64> = (1..=4).map(|attempt| backoff_ms(&other, attempt)).collect();
        assert_ne!(schedule, other_schedule);
    }

    /// The default policy's delays after attempts 1–4: 1 s, 2 s, 4 s, 8 s, less their jitter.
    const SCHEDULE: [u64; 4] = [884, 1_945, 3_947, 6_044];

    #[test]
    fn a_policy_of_one_attempt_never_retries() {
        let policy = RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        };
        assert_eq!(
            decide(&policy, 1, Some(&response(503, &[], "")), false),
            RetryDecision::GiveUp(UnscoredCause::HttpError)
        );
    }
}
