//! Which calls to judge: all of them, the ones the caller picked (the current filter, a heatmap
//! cell's turns), the ones code checks flagged, or a seeded sample stratified by tool.
//!
//! Judging costs money per call, so a sample is the usual first run. A plain random sample of a
//! trace where one tool makes 90 % of the calls would judge the rare tools a handful of times or
//! not at all; stratifying by tool gives every tool its share, and at least one call each.
//!
//! ```
//! use toolscope_core::judge::sample::{choose_calls, Selection};
//! use toolscope_core::model::{Args, Event, Session, ToolCall};
//!
//! let call = |name: &str| Event::ToolUse(ToolCall {
//!     call_id: None,
//!     name: name.into(),
//!     args: Args::Json(serde_json::json!({})),
//! });
//! let session = Session {
//!     session_id: "s1".into(),
//!     events: vec![call("search"), call("search"), call("search"), call("refund")],
//!     ..Session::default()
//! };
//! let chosen = choose_calls(&[session], &[], &Selection::Sample { n: 2, seed: 7 });
//! // Two calls: one per tool, in session order.
//! assert_eq!(chosen.len(), 2);
//! assert!(chosen.iter().any(|call| call.tool == "refund"));
//! assert!(chosen.windows(2).all(|pair| pair[0].step < pair[1].step));
//! ```

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::call_list::CallList;
use crate::checks::problem::Problem;
use crate::hashing::HashSet;
use crate::model::Session;

/// One tool call: the session, its 1-based step among the session's calls, and the tool.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CallRef {
    /// The session.
    pub session_id: String,
    /// The call's 1-based position among the session's tool calls (as problems' `step`).
    pub step: usize,
    /// The tool called.
    pub tool: String,
}

/// Which calls to judge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// Every call of every session.
    All,
    /// These calls, resolved by the caller (the current filter, a heatmap cell's turns). Calls
    /// that are not in the sessions are left out; the tool is taken from the session.
    Calls(Vec<CallRef>),
    /// The calls where a code check found a problem that counts against the call (every kind
    /// but `schema_undecidable`, as the report counts failed calls).
    OnlyProblems,
    /// `n` calls drawn at random, stratified by tool, reproducibly for `seed` (see
    /// [`choose_calls`] for the algorithm).
    Sample {
        /// How many calls.
        n: usize,
        /// The seed: the same seed and sessions give the same calls on every platform.
        seed: u64,
    },
}

/// The calls `selection` picks from `sessions`, in session order and then step order, each once.
///
/// # The sample
///
/// `Selection::Sample { n, seed }` draws `n` calls without replacement, stratified by tool:
///
/// 1. **Strata.** The calls are grouped by tool name; the strata are taken in byte order of the
///    name. With `n = 0` no call is chosen; with `n` ≥ the number of calls, every call is.
/// 2. **Random generator.** ChaCha8 (`rand_chacha`) seeded with rand_core's
///    `SeedableRng::seed_from_u64(seed)`, read 64 bits at a time. Both are specified bit for bit
///    and use no OS randomness, so a seed gives the same sample on every platform, native and
///    WebAssembly. A number below `m` is drawn by rejection, without modulo bias: 64-bit draws
///    below `2^64 mod m` are redrawn, and the draw taken modulo `m`.
/// 3. **Tie-breaking keys.** One 64-bit draw per stratum, in stratum order, used only to break
///    ties below, so equal strata are favoured by the seed and not by their names.
/// 4. **Proportional allocation, largest remainders.** Stratum `t` with `N_t` of the `N` calls
///    has the quota `n · N_t / N`. Each stratum gets the whole part of its quota; the calls left
///    over go one each to the strata with the largest fractional parts (Hamilton's method),
///    ties broken by the larger key. The arithmetic is on integers, exactly.
/// 5. **At least one per tool.** When `n` is at least the number of tools, a stratum allotted
///    nothing gets one call, taken from the stratum allotted at least two whose allotment most
///    exceeds its quota (ties: the larger key); repeated until every stratum has one. When `n`
///    is smaller than the number of tools, the strata with the largest quotas are sampled.
/// 6. **Within a stratum.** Its calls, in session and step order, are shuffled by a partial
///    Fisher–Yates (for position `i` from 0, swap with a position drawn uniformly in `i..N_t`)
///    for as many positions as the stratum's allotment; the strata are drawn in stratum order.
/// 7. The chosen calls are returned in session and step order.
pub fn choose_calls(
    sessions: &[Session],
    problems: &[Problem],
    selection: &Selection,
) -> Vec<CallRef> {
    choose_among(&CallList::of_sessions(sessions), problems, selection)
}

/// [`choose_calls`] given every call of the sessions (a [`CallList`] they were pushed to, in
/// session order) instead of the sessions: the same calls for the same selection, so a caller
/// that reads the sessions one at a time need not keep them (`crate::judge::streamed`).
pub fn choose_among(calls: &CallList, problems: &[Problem], selection: &Selection) -> Vec<CallRef> {
    match selection {
        Selection::All => calls.refs(0..calls.len()),
        Selection::Calls(wanted) => {
            let wanted: HashSet<(&str, usize)> = wanted
                .iter()
                .map(|call| (call.session_id.as_str(), call.step))
                .collect();
            calls.refs(indices_where(calls, |key| wanted.contains(key)))
        }
        Selection::OnlyProblems => {
            let flagged = problem_calls(problems);
            calls.refs(indices_where(calls, |key| flagged.contains(key)))
        }
        Selection::Sample { n, seed } => calls.refs(sample(calls, *n, *seed)),
    }
}

/// The indices of the calls whose (session id, step) `is_wanted`, in order.
fn indices_where<'a>(
    calls: &'a CallList,
    is_wanted: impl Fn(&(&str, usize)) -> bool + 'a,
) -> impl Iterator<Item = usize> + 'a {
    calls
        .keys()
        .enumerate()
        .filter(move |(_, key)| is_wanted(key))
        .map(|(index, _)| index)
}

/// The calls with at least one problem that counts against the call (every kind but
/// `schema_undecidable`), as `(session_id, step)`.
pub(crate) fn problem_calls(problems: &[Problem]) -> HashSet<(&str, usize)> {
    problems
        .iter()
        .filter(|problem| problem.kind.is_failure())
        .map(|problem| (problem.session_id.as_str(), problem.step))
        .collect()
}

/// Every call of `session`, in step order.
pub fn session_calls(session: &Session) -> impl Iterator<Item = CallRef> + '_ {
    session
        .calls()
        .enumerate()
        .map(move |(index, call)| CallRef {
            session_id: session.session_id.clone(),
            step: index + 1,
            tool: call.name.clone(),
        })
}

/// The indices of the stratified sample of `calls` (in session and step order), ascending; see
/// [`choose_calls`].
fn sample(calls: &CallList, n: usize, seed: u64) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    if n >= calls.len() {
        return (0..calls.len()).collect();
    }
    // The strata: each tool's calls, in call order, the tools in byte order of their names.
    let names = calls.tool_names();
    let mut by_tool: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
    for (index, tool) in calls.tool_of_each().enumerate() {
        by_tool[tool].push(index);
    }
    let mut tools: Vec<usize> = (0..names.len()).collect();
    crate::sort::sort_by(&mut tools, |&a, &b| names[a].cmp(&names[b]));
    let mut strata: Vec<Vec<usize>> = tools
        .into_iter()
        .map(|tool| std::mem::take(&mut by_tool[tool]))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let keys: Vec<u64> = strata.iter().map(|_| rng.next_u64()).collect();
    let sizes: Vec<usize> = strata.iter().map(Vec::len).collect();
    let allotments = allocate(&sizes, n, &keys);
    let mut chosen: Vec<usize> = Vec::with_capacity(n);
    for (stratum, allotment) in strata.iter_mut().zip(allotments) {
        for position in 0..allotment {
            let remaining = (stratum.len() - position) as u64;
            let offset = below(&mut rng, remaining) as usize;
            stratum.swap(position, position + offset);
        }
        chosen.extend_from_slice(&stratum[..allotment]);
    }
    chosen.sort_unstable();
    chosen
}

/// How many of `n` draws each stratum of `sizes` gets: largest-remainder proportional
/// allocation, then at least one per stratum when `n` allows (steps 4 and 5 of
/// [`choose_calls`]). `keys` break ties; `n` is below the total size.
fn allocate(sizes: &[usize], n: usize, keys: &[u64]) -> Vec<usize> {
    let total: u128 = sizes.iter().map(|&size| size as u128).sum();
    let n_wide = n as u128;
    // The quota of stratum t is n·N_t/N: a whole part and a remainder out of N.
    let mut allotments: Vec<usize> = sizes
        .iter()
        .map(|&size| (n_wide * size as u128 / total) as usize)
        .collect();
    let remainders: Vec<u128> = sizes
        .iter()
        .map(|&size| n_wide * size as u128 % total)
        .collect();
    let left_over = n - allotments.iter().sum::<usize>();
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    crate::sort::sort_by(&mut order, |&a, &b| {
        remainders[b]
            .cmp(&remainders[a])
            .then(keys[b].cmp(&keys[a]))
    });
    for &stratum in order.iter().take(left_over) {
        allotments[stratum] += 1;
    }
    if n >= sizes.len() {
        // Each stratum allotted nothing takes one from the most over-served stratum that can
        // spare one. How far an allotment exceeds its quota, times N: a·N − n·N_t.
        while let Some(empty) = allotments.iter().position(|&allotment| allotment == 0) {
            let surplus = |stratum: usize| {
                allotments[stratum] as i128 * total as i128
                    - (n_wide * sizes[stratum] as u128) as i128
            };
            let donor = (0..sizes.len())
                .filter(|&stratum| allotments[stratum] >= 2)
                .max_by(|&a, &b| surplus(a).cmp(&surplus(b)).then(keys[a].cmp(&keys[b])))
                .expect("n ≥ strata and a stratum with none: another has two or more");
            allotments[donor] -= 1;
            allotments[empty] = 1;
        }
    }
    allotments
}

/// A number uniform in `0..bound` (`bound` > 0), by rejection: no modulo bias.
fn below(rng: &mut ChaCha8Rng, bound: u64) -> u64 {
    // 2^64 mod bound: the draws below it would make the low residues more likely.
    let threshold = bound.wrapping_neg() % bound;
    loop {
        let draw = rng.next_u64();
        if draw >= threshold {
            return draw % bound;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::problem::ProblemKind;
    use std::collections::BTreeMap;

    use crate::test_support::session_calling as session;

    /// 100 calls: 70 search, 20 lookup, 9 refund, 1 email, spread over 4 sessions.
    fn traces() -> Vec<Session> {
        let mut tools = Vec::new();
        tools.extend(std::iter::repeat_n("search", 70));
        tools.extend(std::iter::repeat_n("lookup", 20));
        tools.extend(std::iter::repeat_n("refund", 9));
        tools.push("email");
        // Interleave so the strata are not contiguous.
        let mut sessions: Vec<Vec<&str>> = vec![Vec::new(); 4];
        for (index, tool) in tools.into_iter().enumerate() {
            sessions[(index * 7) % 4].push(tool);
        }
        sessions
            .iter()
            .enumerate()
            .map(|(index, tools)| session(&format!("s{index}"), tools))
            .collect()
    }

    fn per_tool(calls: &[CallRef]) -> BTreeMap<String, usize> {
        let mut counts = BTreeMap::new();
        for call in calls {
            *counts.entry(call.tool.clone()).or_default() += 1;
        }
        counts
    }

    fn sample_of(n: usize, seed: u64) -> Vec<CallRef> {
        choose_calls(&traces(), &[], &Selection::Sample { n, seed })
    }

    #[test]
    fn the_generator_is_chacha8_seeded_as_rand_core_documents() {
        // The value docs.rs's ldpc-toolbox pins for ChaCha8Rng::seed_from_u64(42): if a
        // rand_chacha or rand_core release changed the stream, every saved seed would change.
        assert_eq!(
            ChaCha8Rng::seed_from_u64(42).next_u64(),
            12_578_764_544_318_200_737
        );
    }

    #[test]
    fn the_sample_is_allocated_to_tools_in_proportion_with_largest_remainders() {
        // Strata by name: email 1, lookup 20, refund 9, search 70. For n = 10 the quotas are
        // 0.1, 2, 0.9 and 7: whole parts 0, 2, 0, 7 and the one left over to refund (remainder
        // 0.9). Email then needs one: lookup and search both sit exactly on their quotas, so the
        // seed's keys pick the donor.
        let counts = per_tool(&sample_of(10, 1));
        assert_eq!(counts.values().sum::<usize>(), 10);
        assert_eq!((counts["email"], counts["refund"]), (1, 1));
        assert_eq!(counts["search"] + counts["lookup"], 8);
        assert!(counts["search"] >= 6 && counts["lookup"] >= 1);
        // For n = 50 the quotas are 0.5, 10, 4.5 and 35: email and refund tie for the one left
        // over, and if refund wins it gives it back to email, 0.5 above its quota.
        for seed in 0..20 {
            let counts = per_tool(&sample_of(50, seed));
            let counts: Vec<usize> = counts.into_values().collect();
            assert_eq!(counts, [1, 10, 4, 35], "seed {seed}");
        }
    }

    #[test]
    fn allocation_is_exact_on_integers_and_gives_every_stratum_one_when_it_can() {
        // Quotas 9.9 and 0.1 for n = 10 of 99 + 1: Hamilton gives 10 and 0, the minimum moves one.
        assert_eq!(allocate(&[99, 1], 10, &[0, 0]), [9, 1]);
        // Three equal strata, n = 2: the keys decide which two are sampled.
        assert_eq!(allocate(&[5, 5, 5], 2, &[1, 3, 2]), [0, 1, 1]);
        assert_eq!(allocate(&[5, 5, 5], 2, &[3, 1, 2]), [1, 0, 1]);
        // Proportional where it divides exactly.
        assert_eq!(allocate(&[60, 30, 10], 10, &[0, 0, 0]), [6, 3, 1]);
        // Many singletons and one large stratum: every stratum gets one.
        let sizes = [100, 1, 1, 1, 1];
        let allotments = allocate(&sizes, 6, &[5, 4, 3, 2, 1]);
        assert_eq!(allotments, [2, 1, 1, 1, 1]);
    }

    #[test]
    fn every_tool_is_sampled_when_n_is_at_least_the_number_of_tools() {
        for seed in 0..50 {
            for n in 4..20 {
                let counts = per_tool(&sample_of(n, seed));
                assert_eq!(counts.len(), 4, "n {n} seed {seed}: {counts:?}");
                assert_eq!(counts.values().sum::<usize>(), n);
            }
        }
    }

    #[test]
    fn a_seed_gives_the_same_sample_and_other_seeds_other_samples() {
        assert_eq!(sample_of(20, 42), sample_of(20, 42));
        let distinct: HashSet<Vec<CallRef>> = (0..10).map(|seed| sample_of(20, seed)).collect();
        assert_eq!(distinct.len(), 10);
    }

    #[test]
    fn a_seed_gives_these_calls_on_every_platform() {
        // Pinned: a change here changes every saved seed's sample (a new generator, a new
        // allocation rule); say so in the changelog.
        let chosen: Vec<(String, usize, String)> = sample_of(5, 2024)
            .into_iter()
            .map(|call| (call.session_id, call.step, call.tool))
            .collect();
        let expected = [
            ("s1", 8, "search"),
            ("s1", 12, "search"),
            ("s1", 25, "email"),
            ("s2", 24, "refund"),
            ("s3", 20, "lookup"),
        ];
        let expected: Vec<(String, usize, String)> = expected
            .iter()
            .map(|&(session_id, step, tool)| (session_id.into(), step, tool.into()))
            .collect();
        assert_eq!(chosen, expected);
    }

    #[test]
    fn the_sample_is_in_session_and_step_order_without_repeats() {
        let traces = traces();
        let order: BTreeMap<&str, usize> = traces
            .iter()
            .enumerate()
            .map(|(index, session)| (session.session_id.as_str(), index))
            .collect();
        let chosen = sample_of(30, 9);
        let positions: Vec<(usize, usize)> = chosen
            .iter()
            .map(|call| (order[call.session_id.as_str()], call.step))
            .collect();
        assert!(positions.windows(2).all(|pair| pair[0] < pair[1]));
        // The tool is the call's.
        for call in &chosen {
            let session = &traces[order[call.session_id.as_str()]];
            assert_eq!(session.calls().nth(call.step - 1).unwrap().name, call.tool);
        }
    }

    #[test]
    fn n_at_or_above_the_calls_takes_all_and_zero_takes_none() {
        let all = choose_calls(&traces(), &[], &Selection::All);
        assert_eq!(all.len(), 100);
        assert_eq!(sample_of(100, 1), all);
        assert_eq!(sample_of(1000, 1), all);
        assert!(sample_of(0, 1).is_empty());
        assert!(choose_calls(&[], &[], &Selection::Sample { n: 5, seed: 1 }).is_empty());
    }

    #[test]
    fn chosen_calls_keep_only_calls_that_exist_in_session_order() {
        let traces = vec![session("a", &["f", "g"]), session("b", &["h"])];
        let wanted = vec![
            CallRef {
                session_id: "b".into(),
                step: 1,
                tool: "stale name".into(),
            },
            CallRef {
                session_id: "a".into(),
                step: 2,
                tool: "g".into(),
            },
            CallRef {
                session_id: "a".into(),
                step: 9,
                tool: "g".into(),
            },
        ];
        let chosen = choose_calls(&traces, &[], &Selection::Calls(wanted));
        let chosen: Vec<(&str, usize, &str)> = chosen
            .iter()
            .map(|call| (call.session_id.as_str(), call.step, call.tool.as_str()))
            .collect();
        assert_eq!(chosen, [("a", 2, "g"), ("b", 1, "h")]);
    }

    #[test]
    fn only_problems_takes_calls_with_a_failing_problem_once() {
        let traces = vec![session("a", &["f", "g", "h"])];
        let problems = vec![
            Problem::new("a", 3, "h", ProblemKind::Schema, "x".into()),
            Problem::new("a", 3, "h", ProblemKind::Order, "y".into()),
            Problem::new("a", 1, "f", ProblemKind::SchemaUndecidable, "z".into()),
        ];
        let chosen = choose_calls(&traces, &problems, &Selection::OnlyProblems);
        assert_eq!(chosen.len(), 1);
        assert_eq!(chosen[0].step, 3);
    }

    #[test]
    fn the_selection_reads_and_writes_as_json() {
        let selection = Selection::Sample { n: 50, seed: 7 };
        let text = serde_json::to_string(&selection).unwrap();
        assert_eq!(text, r#"{"sample":{"n":50,"seed":7}}"#);
        assert_eq!(serde_json::from_str::<Selection>(&text).unwrap(), selection);
        assert_eq!(serde_json::to_string(&Selection::All).unwrap(), r#""all""#);
    }
}
