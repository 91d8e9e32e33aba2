//! Verdicts already paid for: keyed by what determines the answer (provider, model, prompt
//! template and the exact prompt), so a re-run, a wider sample or a second look in the page asks
//! the model only about what it has not judged yet.
//!
//! The key never includes the API key or the base URL: a cache file can be shared, and
//! switching keys or proxies does not change what the model was asked. The CLI keeps the cache
//! on disk as JSON Lines ([`VerdictCache::to_jsonl`], [`entry_line`] to append one entry as it
//! is judged); the page keeps it in memory.
//!
//! ```
//! use toolscope_core::judge::cache::cache_key;
//! use toolscope_core::judge::TemplateRef;
//!
//! let template = TemplateRef { id: "tool-call-v1".into(), sha256: "ab".repeat(32) };
//! let key = cache_key("anthropic", "claude-sonnet-4-5", &template, &"cd".repeat(32));
//! assert_eq!(key.len(), 64);
//! assert_ne!(key, cache_key("anthropic", "claude-haiku-4-5", &template, &"cd".repeat(32)));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Outcome, TemplateRef, UnscoredCause, Verdict};
use crate::diagnostic::Diagnostic;
use crate::share::digest::sha256_hex;

/// Names the encoding, so a future change of what the key covers cannot collide with old keys.
const KEY_VERSION: &str = "toolscope-judge-cache-v1";

/// The cache key of one judge request: the SHA-256 (hex) of the provider, the model, the
/// template's id and digest, and the prompt's digest, each written as its length in bytes (8
/// bytes, big-endian) followed by its UTF-8 bytes, after a version tag encoded the same way.
/// The lengths make the encoding unambiguous: no two different field lists give the same bytes
/// (`"ab"` + `"c"` is not `"a"` + `"bc"`).
pub fn cache_key(
    provider: &str,
    model: &str,
    template: &TemplateRef,
    prompt_sha256: &str,
) -> String {
    let fields = [
        KEY_VERSION,
        provider,
        model,
        &template.id,
        &template.sha256,
        prompt_sha256,
    ];
    let mut encoded = Vec::with_capacity(fields.iter().map(|field| 8 + field.len()).sum());
    for field in fields {
        encoded.extend_from_slice(&(field.len() as u64).to_be_bytes());
        encoded.extend_from_slice(field.as_bytes());
    }
    sha256_hex(&encoded)
}

/// One entry of the cache file: a key and the verdicts its request gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheEntry {
    /// The [`cache_key`].
    pub key: String,
    /// The verdicts, one per criterion.
    pub verdicts: Vec<Verdict>,
}

/// Verdicts by cache key, in key order (so the file it writes is the same for the same
/// entries).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VerdictCache {
    entries: BTreeMap<String, Vec<Verdict>>,
}

/// Whether a request's verdicts are worth keeping: the model's answers are (a parse error, a
/// refusal, a truncation or a failed evidence check is what the model said to that prompt, and
/// asking again costs the same), but failures of the exchange (rate limits, quota, timeouts,
/// HTTP errors, a run stopped before the call) are not, so the next run asks again.
pub fn is_cacheable(verdicts: &[Verdict]) -> bool {
    !verdicts.is_empty()
        && verdicts.iter().all(|verdict| {
            verdict.verdict != Outcome::Unscored
                || matches!(
                    verdict.cause,
                    Some(
                        UnscoredCause::ParseError
                            | UnscoredCause::Refusal
                            | UnscoredCause::Truncated
                            | UnscoredCause::EvidenceMismatch
                    )
                )
        })
}

impl VerdictCache {
    /// An empty cache.
    pub fn new() -> VerdictCache {
        VerdictCache::default()
    }

    /// The verdicts stored under `key`.
    pub fn get(&self, key: &str) -> Option<&[Verdict]> {
        self.entries.get(key).map(Vec::as_slice)
    }

    /// Stores `verdicts` under `key`, replacing what was there, when they are worth keeping
    /// ([`is_cacheable`]); returns whether they were stored.
    pub fn insert(&mut self, key: String, verdicts: Vec<Verdict>) -> bool {
        if !is_cacheable(&verdicts) {
            return false;
        }
        self.entries.insert(key, verdicts);
        true
    }

    /// How many keys it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &[Verdict])> {
        self.entries
            .iter()
            .map(|(key, verdicts)| (key.as_str(), verdicts.as_slice()))
    }

    /// The cache as JSON Lines: one [`CacheEntry`] per line, in key order, each line ending in
    /// a newline.
    pub fn to_jsonl(&self) -> String {
        self.entries()
            .map(|(key, verdicts)| entry_line(key, verdicts))
            .collect()
    }

    /// Reads a cache file written by [`VerdictCache::to_jsonl`] or appended to with
    /// [`entry_line`]. A line that is not an entry becomes a diagnostic naming the file and
    /// line, and the rest still loads. A key repeated later in the file replaces the earlier
    /// entry (appending is how a newer answer is saved).
    pub fn from_jsonl(file: &str, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> VerdictCache {
        let (_, values) = crate::inputs::read_values(file, bytes, diagnostics);
        let mut cache = VerdictCache::new();
        for (line, value) in values {
            match serde_json::from_value::<CacheEntry>(value) {
                Ok(entry) => {
                    cache.entries.insert(entry.key, entry.verdicts);
                }
                Err(error) => diagnostics.push(Diagnostic::error(
                    file,
                    Some(line),
                    format!("not a judge cache entry ({{\"key\", \"verdicts\"}}): {error}"),
                )),
            }
        }
        cache
    }
}

/// One cache entry as a line of the cache file, ending in a newline, for appending as each
/// call is judged (so an interrupted run keeps what it paid for).
pub fn entry_line(key: &str, verdicts: &[Verdict]) -> String {
    #[derive(Serialize)]
    struct EntryRef<'a> {
        key: &'a str,
        verdicts: &'a [Verdict],
    }
    let mut line = serde_json::to_string(&EntryRef { key, verdicts })
        .expect("verdicts serialise: strings, numbers and enums only");
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Criterion;

    fn template(id: &str, sha256: &str) -> TemplateRef {
        TemplateRef {
            id: id.into(),
            sha256: sha256.into(),
        }
    }

    fn verdict(criterion: Criterion, outcome: Outcome, cause: Option<UnscoredCause>) -> Verdict {
        Verdict {
            session_id: "s1".into(),
            step: 2,
            tool: "lookup_order".into(),
            criterion,
            verdict: outcome,
            cause,
            reason: "the order id is in the request".into(),
            evidence: Vec::new(),
            model: "m".into(),
            template: template("tool-call-v1", "t"),
            prompt_sha256: "p".into(),
        }
    }

    #[test]
    fn the_same_inputs_give_the_same_key_and_it_is_sha256_hex() {
        let key = cache_key("openai", "gpt-4o", &template("v1", "aa"), "bb");
        assert_eq!(
            key,
            cache_key("openai", "gpt-4o", &template("v1", "aa"), "bb")
        );
        assert_eq!(key.len(), 64);
        assert!(key
            .bytes()
            .all(|byte| byte.is_ascii_hexdigit() && !byte.is_ascii_uppercase()));
    }

    #[test]
    fn the_key_is_pinned_to_its_encoding() {
        // Changing the encoding silently would orphan every cache file: bump KEY_VERSION.
        let mut expected = Vec::new();
        for field in [KEY_VERSION, "p", "m", "t", "s", "h"] {
            expected.extend_from_slice(&(field.len() as u64).to_be_bytes());
            expected.extend_from_slice(field.as_bytes());
        }
        assert_eq!(
            cache_key("p", "m", &template("t", "s"), "h"),
            sha256_hex(&expected)
        );
    }

    #[test]
    fn changing_any_field_changes_the_key() {
        let base = cache_key("openai", "gpt-4o", &template("v1", "aa"), "bb");
        let changed = [
            cache_key("anthropic", "gpt-4o", &template("v1", "aa"), "bb"),
            cache_key("openai", "gpt-4o-mini", &template("v1", "aa"), "bb"),
            cache_key("openai", "gpt-4o", &template("v2", "aa"), "bb"),
            cache_key("openai", "gpt-4o", &template("v1", "ab"), "bb"),
            cache_key("openai", "gpt-4o", &template("v1", "aa"), "bc"),
        ];
        for key in changed {
            assert_ne!(key, base);
        }
    }

    #[test]
    fn moving_characters_between_fields_changes_the_key() {
        let ab_c = cache_key("ab", "c", &template("x", "y"), "z");
        let a_bc = cache_key("a", "bc", &template("x", "y"), "z");
        assert_ne!(ab_c, a_bc);
        // Across every boundary, and with an empty field.
        assert_ne!(
            cache_key("p", "m", &template("ab", ""), "z"),
            cache_key("p", "m", &template("a", "b"), "z")
        );
        assert_ne!(
            cache_key("p", "m", &template("t", "s"), ""),
            cache_key("p", "m", &template("t", ""), "s")
        );
    }

    #[test]
    fn transport_failures_are_not_cached_and_model_answers_are() {
        let mut cache = VerdictCache::new();
        let answered = vec![
            verdict(Criterion::CallDecision, Outcome::Pass, None),
            verdict(Criterion::RightTool, Outcome::Fail, None),
        ];
        assert!(cache.insert("k1".into(), answered.clone()));
        assert_eq!(cache.get("k1"), Some(answered.as_slice()));
        let refused = vec![verdict(
            Criterion::CallDecision,
            Outcome::Unscored,
            Some(UnscoredCause::Refusal),
        )];
        assert!(cache.insert("k2".into(), refused));
        for cause in [
            UnscoredCause::RateLimited,
            UnscoredCause::Quota,
            UnscoredCause::Timeout,
            UnscoredCause::HttpError,
            UnscoredCause::NotRun,
        ] {
            let failed = vec![verdict(
                Criterion::CallDecision,
                Outcome::Unscored,
                Some(cause),
            )];
            assert!(!cache.insert("k3".into(), failed), "{cause:?}");
        }
        assert!(!cache.insert("k4".into(), Vec::new()));
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get("k3"), None);
    }

    #[test]
    fn the_cache_round_trips_through_json_lines_and_later_lines_win() {
        let mut cache = VerdictCache::new();
        cache.insert(
            "b".into(),
            vec![verdict(Criterion::ArgsGrounded, Outcome::Pass, None)],
        );
        cache.insert(
            "a".into(),
            vec![verdict(Criterion::ResultUsed, Outcome::Fail, None)],
        );
        let text = cache.to_jsonl();
        assert_eq!(text.lines().count(), 2);
        assert!(text.starts_with("{\"key\":\"a\""), "{text}");
        assert!(text.ends_with('\n'));
        let mut diagnostics = Vec::new();
        let again = VerdictCache::from_jsonl("cache.jsonl", text.as_bytes(), &mut diagnostics);
        assert_eq!(again, cache);
        assert!(diagnostics.is_empty());
        // Appending a newer answer for "a", and a broken line.
        let newer = vec![verdict(Criterion::ResultUsed, Outcome::Pass, None)];
        let appended = format!("{text}{{\"key\": 3}}\n{}", entry_line("a", &newer));
        let again = VerdictCache::from_jsonl("cache.jsonl", appended.as_bytes(), &mut diagnostics);
        assert_eq!(again.get("a"), Some(newer.as_slice()));
        assert_eq!(again.len(), 2);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].file, "cache.jsonl");
        assert_eq!(diagnostics[0].line, Some(3));
    }
}
