//! A rate with the counts behind it, so every number can be traced to what it counts.

use serde::{Deserialize, Serialize};

/// `count` out of `total`; `rate` is null when `total` is 0 (never NaN in JSON).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// How many matched.
    pub count: u64,
    /// Out of how many.
    pub total: u64,
    /// count / total, or null.
    pub rate: Option<f64>,
}

impl Rate {
    /// `count` out of `total`.
    pub fn new(count: u64, total: u64) -> Rate {
        Rate {
            count,
            total,
            rate: ratio(count as f64, total as f64),
        }
    }
}

/// `numerator / denominator`, or None when the denominator is 0.
pub fn ratio(numerator: f64, denominator: f64) -> Option<f64> {
    (denominator != 0.0).then(|| numerator / denominator)
}
