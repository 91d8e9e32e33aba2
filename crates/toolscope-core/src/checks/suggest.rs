//! "Did you mean …?" for unknown tool names: the known name closest by Damerau-Levenshtein
//! distance, if it is close enough to be a likely typo (at most two edits, or a quarter of the
//! shorter name's length).
//!
//! Bounded, because names come from untrusted input: a full edit distance costs the product of
//! the two lengths, and every unknown call was compared with every known name. Now
//! - a name longer than [`MAX_NAME_CHARS`] gets no suggestion and is never suggested (no API
//!   takes tool names that long: OpenAI's and Gemini's stop at 64 characters, Anthropic's at 128);
//! - a known name whose length or letters alone put it past the largest distance that could be
//!   suggested is never compared (both are lower bounds of the distance);
//! - each distinct unknown name is looked up once;
//! - all comparisons of one analysis together fill at most [`BUDGET_CELLS`] cells of the
//!   distance table (a [`Budget`] its catalogs share); names looked up after that get no
//!   suggestion, and the report says how many.
//!
//! Suggestions are what comparing with every name gave, within those bounds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::hashing::{HashMap, HashMapExt};

/// Longest name, in characters, that gets or is a suggestion.
pub const MAX_NAME_CHARS: usize = 128;

/// Most distance-table cells one analysis's suggestions may fill (a few seconds at most).
pub const BUDGET_CELLS: u64 = 1 << 27;

/// The distance-table cells left to the suggestions of every catalog that shares it.
#[derive(Clone)]
pub struct Budget {
    cells_left: Arc<AtomicU64>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(BUDGET_CELLS)
    }
}

impl Budget {
    /// A budget of `cells`.
    pub fn new(cells: u64) -> Self {
        Budget {
            cells_left: Arc::new(AtomicU64::new(cells)),
        }
    }

    /// Takes `cells` from the budget, or nothing when fewer are left.
    fn spend(&self, cells: u64) -> bool {
        self.cells_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(cells)
            })
            .is_ok()
    }

    /// The cells left.
    pub fn cells_left(&self) -> u64 {
        self.cells_left.load(Ordering::Relaxed)
    }
}

/// A known name with what the bounds need of it.
struct Known {
    name: String,
    chars: usize,
    /// Its characters, sorted, for the letter bound.
    sorted: Vec<char>,
}

/// Suggestions for one catalog's names, remembered per unknown name.
pub struct Suggester {
    known: Vec<Known>,
    cache: HashMap<String, Option<usize>>,
    budget: Budget,
    skipped: u64,
}

impl Suggester {
    /// A suggester over `names` (those past [`MAX_NAME_CHARS`] are left out), spending `budget`.
    pub fn new<'a>(names: impl Iterator<Item = &'a str>, budget: Budget) -> Self {
        let known = names
            .filter(|name| name.chars().count() <= MAX_NAME_CHARS)
            .map(|name| Known {
                name: name.to_string(),
                chars: name.chars().count(),
                sorted: sorted_chars(name),
            })
            .collect();
        Suggester {
            known,
            cache: HashMap::new(),
            budget,
            skipped: 0,
        }
    }

    /// The known name to suggest for `name`, if any.
    pub fn suggest(&mut self, name: &str) -> Option<&str> {
        let found = match self.cache.get(name) {
            Some(found) => *found,
            None => {
                let found = self.nearest(name);
                self.cache.insert(name.to_string(), found);
                found
            }
        };
        found.map(|index| self.known[index].name.as_str())
    }

    /// How many distinct names got no suggestion because the budget was spent.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    fn nearest(&mut self, name: &str) -> Option<usize> {
        let chars = name.chars().count();
        if chars > MAX_NAME_CHARS {
            return None;
        }
        // No candidate farther than this can be suggested, whatever its length.
        let most = threshold(chars);
        let sorted = sorted_chars(name);
        let mut best: Option<(usize, usize)> = None;
        for (index, known) in self.known.iter().enumerate() {
            if chars.abs_diff(known.chars) > most || letter_bound(&sorted, &known.sorted) > most {
                continue;
            }
            if !self
                .budget
                .spend((chars as u64 + 1) * (known.chars as u64 + 1))
            {
                self.skipped += 1;
                return None;
            }
            let distance = strsim::damerau_levenshtein(name, &known.name);
            let is_better = best.is_none_or(|(best_distance, best_index)| {
                (distance, known.name.as_str())
                    < (best_distance, self.known[best_index].name.as_str())
            });
            if distance <= most && is_better {
                best = Some((distance, index));
            }
        }
        let (distance, index) = best?;
        (distance <= threshold(chars.min(self.known[index].chars))).then_some(index)
    }
}

/// The largest distance suggested between names whose shorter one has `chars` characters.
fn threshold(chars: usize) -> usize {
    2.max(chars / 4)
}

fn sorted_chars(name: &str) -> Vec<char> {
    let mut chars: Vec<char> = name.chars().collect();
    chars.sort_unstable();
    chars
}

/// The bag distance of two names (given as sorted characters): the larger of the number of
/// characters each has that the other lacks, counted with repeats. Every edit, transposition
/// included, changes it by at most one, so it never exceeds the edit distance.
fn letter_bound(left: &[char], right: &[char]) -> usize {
    let (mut only_left, mut only_right) = (0, 0);
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        match left[i].cmp(&right[j]) {
            std::cmp::Ordering::Less => {
                only_left += 1;
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                only_right += 1;
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    only_left += left.len() - i;
    only_right += right.len() - j;
    only_left.max(only_right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The suggestion as it was computed before the bounds: every known name compared.
    fn nearest_by_comparing_all<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
        let (best, distance) = known
            .iter()
            .map(|candidate| (*candidate, strsim::damerau_levenshtein(name, candidate)))
            .min_by_key(|&(candidate, distance)| (distance, candidate))?;
        let shorter = name.chars().count().min(best.chars().count());
        (distance <= 2.max(shorter / 4)).then_some(best)
    }

    #[test]
    fn suggests_typos_but_not_different_tools() {
        let mut suggester = Suggester::new(
            ["issue_refund", "lookup_order", "search_docs"].into_iter(),
            Budget::default(),
        );
        assert_eq!(suggester.suggest("lookup_orders"), Some("lookup_order"));
        assert_eq!(suggester.suggest("searchdocs"), Some("search_docs"));
        assert_eq!(suggester.suggest("refund_order"), None);
        assert_eq!(
            Suggester::new([].into_iter(), Budget::default()).suggest("x"),
            None
        );
    }

    #[test]
    fn names_past_the_length_limit_are_neither_suggested_nor_given_suggestions() {
        let long = "a".repeat(MAX_NAME_CHARS + 1);
        let mut suggester = Suggester::new(
            [long.as_str(), "get_weather"].into_iter(),
            Budget::default(),
        );
        assert_eq!(suggester.suggest(&format!("{long}b")), None);
        assert_eq!(suggester.suggest(&"a".repeat(MAX_NAME_CHARS)), None);
        assert_eq!(suggester.suggest("get_wether"), Some("get_weather"));
    }

    #[test]
    fn the_budget_stops_suggestions_and_counts_the_names_left_without() {
        // Anagrams pass both cheap bounds, so each lookup fills a whole table.
        let known: Vec<String> = (0..64)
            .map(|shift| {
                let mut letters: Vec<char> =
                    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        .chars()
                        .collect();
                letters.rotate_left(shift % 62);
                letters.into_iter().take(MAX_NAME_CHARS).collect()
            })
            .collect();
        let budget = Budget::new(100 * 64 * 63 * 63);
        let mut suggester = Suggester::new(known.iter().map(String::as_str), budget.clone());
        let per_name = 64 * 63 * 63;
        let names = 110;
        for index in 0..names {
            let mut name: Vec<char> = known[index % 64].chars().collect();
            name.swap(index % 60, index % 60 + 1 + index / 64 % 2);
            let _ = suggester.suggest(&name.iter().collect::<String>());
        }
        assert_eq!(suggester.skipped(), 10);
        assert!(budget.cells_left() < per_name);
    }

    proptest! {
        /// Names over a small alphabet (so that many are close): the bounded suggestion is the one
        /// comparing every name gave.
        #[test]
        fn bounds_never_change_a_suggestion(
            name in "[abc_]{0,12}",
            known in proptest::collection::vec("[abc_]{1,12}", 0..12),
        ) {
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            let mut suggester = Suggester::new(known.iter().copied(), Budget::default());
            prop_assert_eq!(suggester.suggest(&name), nearest_by_comparing_all(&name, &known));
        }
    }
}
