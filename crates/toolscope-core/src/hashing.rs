//! The engine's hash maps and sets: foldhash, keyed by a secret the input cannot know.
//!
//! Trace files are untrusted, and many maps are keyed by their strings (session ids, call ids,
//! tool names). A hash function an attacker can compute offline lets a crafted file put every key
//! in one bucket and turn linear work quadratic. std's `RandomState` and foldhash's own
//! `RandomState` are random natively, but not in `wasm32-unknown-unknown` (the page and its
//! worker): std's keys are fixed there, and foldhash seeds itself from addresses, which are the
//! same on every load. So every map of the engine is a [`HashMap`] or [`HashSet`] of this module
//! (clippy.toml bans the others), hashed with foldhash under a seed drawn once per process from
//! the operating system, or in the browser from `crypto.getRandomValues` (getrandom's `wasm_js`
//! backend). No output depends on it: nothing iterates a map into the report.
//!
//! ```
//! use toolscope_core::hashing::{HashMap, HashMapExt};
//!
//! let mut calls_by_id: HashMap<&str, usize> = HashMap::new();
//! calls_by_id.insert("call_1", 0);
//! assert_eq!(calls_by_id.get("call_1"), Some(&0));
//! ```

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use foldhash::fast::{FoldHasher, SeedableRandomState};
use foldhash::SharedSeed;

/// A hash map keyed by a per-process secret ([`SeededState`]).
#[allow(clippy::disallowed_types)] // the one place the std map is named
pub type HashMap<K, V> = std::collections::HashMap<K, V, SeededState>;

/// A hash set keyed by a per-process secret ([`SeededState`]).
#[allow(clippy::disallowed_types)] // the one place the std set is named
pub type HashSet<T> = std::collections::HashSet<T, SeededState>;

/// Builds foldhash hashers under the process's secret seed, each map with its own per-map seed
/// too (so copying one map's keys into another in its order does not cluster them).
#[derive(Clone, Debug)]
pub struct SeededState(SeedableRandomState);

/// The secret seed shared by every map, and where per-map seeds start.
struct Seeds {
    shared: SharedSeed,
    first_per_map: u64,
}

static SEEDS: OnceLock<Seeds> = OnceLock::new();
/// How many maps were made: each map's own seed is the first one XOR this many steps.
static MAPS_MADE: AtomicU64 = AtomicU64::new(0);
/// The golden ratio as an odd 64-bit number (a Weyl sequence's step), so that consecutive
/// per-map seeds differ in many bits, not only the lowest.
const PER_MAP_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

impl Seeds {
    /// Seeds from 128 random bits; when the system has no randomness to give (a JavaScript host
    /// without Web Crypto), foldhash's own per-process seed, which is no worse than before.
    fn drawn() -> Seeds {
        match (getrandom::u64(), getrandom::u64()) {
            (Ok(shared), Ok(first_per_map)) => Seeds::from_random(shared, first_per_map),
            _ => Seeds {
                shared: SharedSeed::global_random().clone(),
                first_per_map: 0,
            },
        }
    }

    fn from_random(shared: u64, first_per_map: u64) -> Seeds {
        Seeds {
            shared: SharedSeed::from_u64(shared),
            first_per_map,
        }
    }
}

impl SeededState {
    fn from_seeds(seeds: &'static Seeds) -> SeededState {
        let made = MAPS_MADE.fetch_add(1, Ordering::Relaxed);
        let per_map = seeds.first_per_map ^ made.wrapping_mul(PER_MAP_STEP);
        SeededState(SeedableRandomState::with_seed(per_map, &seeds.shared))
    }
}

impl Default for SeededState {
    /// A state under the process's secret seed, drawn on the first call.
    fn default() -> SeededState {
        SeededState::from_seeds(SEEDS.get_or_init(Seeds::drawn))
    }
}

impl BuildHasher for SeededState {
    type Hasher = FoldHasher<'static>;

    #[inline(always)]
    fn build_hasher(&self) -> FoldHasher<'static> {
        self.0.build_hasher()
    }
}

/// `new` and `with_capacity` for [`HashMap`], as std has them for its own `RandomState`.
pub trait HashMapExt {
    /// An empty map.
    fn new() -> Self;
    /// An empty map with room for `capacity` entries.
    fn with_capacity(capacity: usize) -> Self;
}

impl<K, V> HashMapExt for HashMap<K, V> {
    fn new() -> Self {
        HashMap::with_hasher(SeededState::default())
    }

    fn with_capacity(capacity: usize) -> Self {
        HashMap::with_capacity_and_hasher(capacity, SeededState::default())
    }
}

/// `new` and `with_capacity` for [`HashSet`], as std has them for its own `RandomState`.
pub trait HashSetExt {
    /// An empty set.
    fn new() -> Self;
    /// An empty set with room for `capacity` values.
    fn with_capacity(capacity: usize) -> Self;
}

impl<T> HashSetExt for HashSet<T> {
    fn new() -> Self {
        HashSet::with_hasher(SeededState::default())
    }

    fn with_capacity(capacity: usize) -> Self {
        HashSet::with_capacity_and_hasher(capacity, SeededState::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn hash_under(seeds: Seeds, key: &str) -> u64 {
        let seeds: &'static Seeds = Box::leak(Box::new(seeds));
        SeededState(SeedableRandomState::with_seed(
            seeds.first_per_map,
            &seeds.shared,
        ))
        .hash_one(key)
    }

    #[test]
    fn different_secret_seeds_hash_the_same_key_differently() {
        let key = "session-0001";
        let one = hash_under(Seeds::from_random(1, 7), key);
        let other = hash_under(Seeds::from_random(2, 7), key);
        assert_ne!(one, other);
        assert_eq!(one, hash_under(Seeds::from_random(1, 7), key));
    }

    #[test]
    fn every_map_has_its_own_per_map_seed() {
        let one = SeededState::default();
        let other = SeededState::default();
        assert_ne!(one.hash_one("call_1"), other.hash_one("call_1"));
    }

    #[test]
    fn the_maps_find_what_was_put_in() {
        let mut map: HashMap<&str, usize> = HashMap::with_capacity(4);
        map.insert("tool", 1);
        let set: HashSet<&str> = ["a", "b"].into_iter().collect();
        assert_eq!(map.get("tool"), Some(&1));
        assert!(set.contains("b") && !set.contains("c"));
    }

    /// Run by the test below in a child process: prints how that process's first map hashes a key.
    #[test]
    #[ignore = "run in a child process by each_process_draws_its_own_secret_seed"]
    fn print_the_hash_of_a_key_for_a_parent_test() {
        println!("hash={}", SeededState::default().hash_one("session-0001"));
    }

    fn hash_in_a_new_process() -> String {
        let output = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "hashing::tests::print_the_hash_of_a_key_for_a_parent_test",
                "--ignored",
                "--nocapture",
            ])
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        stdout
            .lines()
            .find_map(|line| line.strip_prefix("hash="))
            .unwrap_or_else(|| panic!("no hash printed: {stdout}"))
            .to_owned()
    }

    #[test]
    fn each_process_draws_its_own_secret_seed() {
        assert_ne!(hash_in_a_new_process(), hash_in_a_new_process());
    }
}
