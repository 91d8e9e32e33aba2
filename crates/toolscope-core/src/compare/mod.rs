//! Comparing two runs: the statistics that say whether a change between a baseline and a current
//! run is real. Paired yes/no outcomes (the same turn or call in both runs) use the exact McNemar
//! test; unpaired proportions a two-proportion z-test with Newcombe's interval for the
//! difference; ratios such as F1 a paired bootstrap over sessions, seeded; and many tools at once
//! Holm's step-down correction. docs/compare.md says what each assumes, in plain words.

pub mod confusion;
pub mod diff;
pub mod observe;
pub mod stats;
