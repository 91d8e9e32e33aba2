//! The judge's verdicts counted for the report: per criterion, and per criterion within each
//! tool and each agent, pass / fail / unscored (unscored by cause), the pass rate over scored
//! verdicts with its Wilson interval and denominator, and what the run used in tokens and
//! dollars. Beside it, [`code_vs_judge`] sets the judge's verdicts against the code checks'
//! problems on the same calls.
//!
//! Unscored verdicts are never folded into pass or fail: a pass rate is over scored verdicts
//! only, and the unscored count stands beside it.
//!
//! ```
//! use toolscope_core::judge::summary::summarize;
//! # use toolscope_core::judge::{Criterion, Outcome, TemplateRef, UnscoredCause, Verdict};
//! # let verdict = |step, verdict, cause| Verdict { session_id: "s".into(), step,
//! #     tool: "lookup_order".into(), criterion: Criterion::ArgsGrounded, verdict, cause,
//! #     reason: String::new(), evidence: vec![], model: "m".into(),
//! #     template: TemplateRef { id: "t".into(), sha256: "h".into() }, prompt_sha256: "p".into() };
//! use toolscope_core::judge::{Outcome::*, UnscoredCause::Timeout};
//! let verdicts = [verdict(1, Pass, None), verdict(2, Fail, None), verdict(3, Pass, None),
//!     verdict(4, Unscored, Some(Timeout))];
//! let summary = summarize(&verdicts, &[], None);
//! let args = &summary.criteria[0];
//! assert_eq!((args.pass, args.fail, args.unscored), (2, 1, 1));
//! assert_eq!((args.pass_rate.count, args.pass_rate.total), (2, 3)); // over scored verdicts
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::cost::Spend;
use super::{Criterion, Outcome, TemplateRef, UnscoredCause, Verdict};
use crate::checks::problem::{Problem, ProblemKind};
use crate::hashing::{HashMap, HashMapExt};
use crate::metrics::wilson::wilson_95;
use crate::metrics::Rate;
use crate::model::Session;

/// The judge section of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeSummary {
    /// The judge models, sorted.
    pub models: Vec<String>,
    /// The prompt templates, sorted by id and digest.
    pub templates: Vec<TemplateRef>,
    /// Verdicts counted.
    pub verdicts: u64,
    /// Calls judged: distinct `(session_id, step)`.
    pub calls: u64,
    /// Per criterion, over every verdict.
    pub criteria: Vec<CriterionCounts>,
    /// Per tool (sorted by name), per criterion.
    pub by_tool: Vec<ToolJudgeRow>,
    /// Per agent (sessions without an agent id, or not among the sessions, first as null),
    /// per criterion.
    pub by_agent: Vec<AgentJudgeRow>,
    /// Tokens and dollars the run used, when the caller tracked them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<JudgeUsage>,
    /// How the rates are computed.
    pub method: String,
}

/// The verdicts on one criterion (within a tool or an agent, or over all).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriterionCounts {
    /// The criterion.
    pub criterion: Criterion,
    /// Pass verdicts.
    pub pass: u64,
    /// Fail verdicts.
    pub fail: u64,
    /// Unscored verdicts.
    pub unscored: u64,
    /// Unscored verdicts by cause (causes with none left out).
    pub unscored_by_cause: BTreeMap<UnscoredCause, u64>,
    /// Pass out of pass + fail; null with no scored verdict.
    pub pass_rate: Rate,
    /// The pass rate's 95 % Wilson interval; null with no scored verdict.
    pub pass_rate_interval: Option<[f64; 2]>,
}

impl CriterionCounts {
    /// The unscored verdicts by cause, as reports write them: `refusal 2, timeout 1` (empty
    /// when none is unscored).
    pub fn unscored_causes(&self) -> String {
        self.unscored_by_cause
            .iter()
            .map(|(cause, count)| format!("{} {count}", cause.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One tool's verdicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolJudgeRow {
    /// The tool.
    pub tool: String,
    /// Per criterion judged on its calls.
    pub criteria: Vec<CriterionCounts>,
}

/// One agent's verdicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentJudgeRow {
    /// The agent; null for sessions without an agent id.
    pub agent_id: Option<String>,
    /// Per criterion judged on its calls.
    pub criteria: Vec<CriterionCounts>,
}

/// What the run used.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct JudgeUsage {
    /// Requests answered.
    pub requests: u64,
    /// Input tokens, as the providers counted them.
    pub input_tokens: u64,
    /// Output tokens, as the providers counted them.
    pub output_tokens: u64,
    /// Dollars, when the model has a price.
    pub cost_usd: Option<f64>,
}

/// Counts `verdicts` for the report; `sessions` give each verdict's agent, `spend` the run's
/// usage.
pub fn summarize(
    verdicts: &[Verdict],
    sessions: &[Session],
    spend: Option<&Spend>,
) -> JudgeSummary {
    let agents = sessions
        .iter()
        .map(|session| (session.session_id.as_str(), session.agent_id.as_deref()));
    summarize_with_agents(verdicts, agents, spend)
}

/// [`summarize`] with each session's agent given as (session id, agent id): what a report's
/// session rows carry, so that reports of parts merge ([`crate::merge`]).
pub fn summarize_with_agents<'a>(
    verdicts: &[Verdict],
    agents: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
    spend: Option<&Spend>,
) -> JudgeSummary {
    let agents: HashMap<&str, Option<&str>> = agents.into_iter().collect();
    let models: BTreeSet<&str> = verdicts
        .iter()
        .map(|verdict| verdict.model.as_str())
        .collect();
    let templates: BTreeSet<(&str, &str)> = verdicts
        .iter()
        .map(|verdict| {
            (
                verdict.template.id.as_str(),
                verdict.template.sha256.as_str(),
            )
        })
        .collect();
    let calls: BTreeSet<(&str, usize)> = verdicts
        .iter()
        .map(|verdict| (verdict.session_id.as_str(), verdict.step))
        .collect();
    let mut by_tool: BTreeMap<&str, Vec<&Verdict>> = BTreeMap::new();
    let mut by_agent: BTreeMap<Option<&str>, Vec<&Verdict>> = BTreeMap::new();
    for verdict in verdicts {
        by_tool
            .entry(verdict.tool.as_str())
            .or_default()
            .push(verdict);
        let agent = agents.get(verdict.session_id.as_str()).copied().flatten();
        by_agent.entry(agent).or_default().push(verdict);
    }
    JudgeSummary {
        models: models.into_iter().map(String::from).collect(),
        templates: templates
            .into_iter()
            .map(|(id, sha256)| TemplateRef {
                id: id.to_string(),
                sha256: sha256.to_string(),
            })
            .collect(),
        verdicts: verdicts.len() as u64,
        calls: calls.len() as u64,
        criteria: count_criteria(verdicts.iter()),
        by_tool: by_tool
            .into_iter()
            .map(|(tool, verdicts)| ToolJudgeRow {
                tool: tool.to_string(),
                criteria: count_criteria(verdicts.into_iter()),
            })
            .collect(),
        by_agent: by_agent
            .into_iter()
            .map(|(agent_id, verdicts)| AgentJudgeRow {
                agent_id: agent_id.map(String::from),
                criteria: count_criteria(verdicts.into_iter()),
            })
            .collect(),
        usage: spend.map(|spend| JudgeUsage {
            requests: spend.requests,
            input_tokens: spend.input_tokens,
            output_tokens: spend.output_tokens,
            cost_usd: spend.cost_usd(),
        }),
        method: "pass rate = pass / (pass + fail), unscored verdicts counted apart; 95 % Wilson \
                 score interval"
            .to_string(),
    }
}

/// Per criterion present among `verdicts`, in the rubric's order.
fn count_criteria<'a>(verdicts: impl Iterator<Item = &'a Verdict>) -> Vec<CriterionCounts> {
    let mut counts: BTreeMap<Criterion, CriterionCounts> = BTreeMap::new();
    for verdict in verdicts {
        let row = counts
            .entry(verdict.criterion)
            .or_insert_with(|| CriterionCounts {
                criterion: verdict.criterion,
                pass: 0,
                fail: 0,
                unscored: 0,
                unscored_by_cause: BTreeMap::new(),
                pass_rate: Rate::default(),
                pass_rate_interval: None,
            });
        match verdict.verdict {
            Outcome::Pass => row.pass += 1,
            Outcome::Fail => row.fail += 1,
            Outcome::Unscored => {
                row.unscored += 1;
                if let Some(cause) = verdict.cause {
                    *row.unscored_by_cause.entry(cause).or_default() += 1;
                }
            }
        }
    }
    counts
        .into_values()
        .map(|mut row| {
            row.pass_rate = Rate::new(row.pass, row.pass + row.fail);
            row.pass_rate_interval = wilson_95(row.pass, row.pass + row.fail);
            row
        })
        .collect()
}

/// The judge against the code checks, per criterion.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AgreementMatrix {
    /// One row per criterion judged, in the rubric's order.
    pub criteria: Vec<CodeJudgeRow>,
}

/// On one criterion: judged calls by whether a code check found a problem at the call (any kind
/// that counts against the call: all but `schema_undecidable`) and by the judge's verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeJudgeRow {
    /// The criterion.
    pub criterion: Criterion,
    /// A code problem, and the judge passed the call.
    pub problem_judge_pass: u64,
    /// A code problem, and the judge failed the call.
    pub problem_judge_fail: u64,
    /// No code problem, and the judge passed the call.
    pub clean_judge_pass: u64,
    /// No code problem, and the judge failed the call.
    pub clean_judge_fail: u64,
    /// Verdicts left unscored (in neither column).
    pub judge_unscored: u64,
    /// Calls with a code problem that the judge passed, on `right_tool` and `args_grounded`
    /// only: a call to an unknown tool or with arguments that fail the schema should not pass
    /// those. (On `call_decision` and `result_used` a code problem does not contradict a pass.)
    pub problem_but_judge_passed: Vec<CodeJudgeCall>,
    /// Calls without a code problem that the judge failed: what the judge adds, or its false
    /// alarms; read them.
    pub clean_but_judge_failed: Vec<CodeJudgeCall>,
}

/// A call where the code checks and the judge tell different stories.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeJudgeCall {
    /// The session.
    pub session_id: String,
    /// The call's step.
    pub step: usize,
    /// The tool called.
    pub tool: String,
    /// The kinds of the code problems at the call (none for a clean call).
    pub problems: Vec<ProblemKind>,
}

/// A verdict that tells another story than the code checks at its call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeJudgeSplit {
    /// A code problem at the call, and the judge passed `right_tool` or `args_grounded`.
    ProblemButJudgePassed,
    /// No code problem at the call, and the judge failed it.
    CleanButJudgeFailed,
}

impl CodeJudgeSplit {
    /// How a verdict of `outcome` on `criterion` stands against the code checks, given whether
    /// they found a problem that counts against the call; None when the two do not disagree.
    pub fn of(criterion: Criterion, outcome: Outcome, has_problem: bool) -> Option<CodeJudgeSplit> {
        match (has_problem, outcome) {
            (true, Outcome::Pass)
                if matches!(criterion, Criterion::RightTool | Criterion::ArgsGrounded) =>
            {
                Some(CodeJudgeSplit::ProblemButJudgePassed)
            }
            (false, Outcome::Fail) => Some(CodeJudgeSplit::CleanButJudgeFailed),
            _ => None,
        }
    }

    /// One line saying what the split is.
    pub fn message(self) -> &'static str {
        match self {
            CodeJudgeSplit::ProblemButJudgePassed => {
                "a code check found a problem here, yet the judge passed it"
            }
            CodeJudgeSplit::CleanButJudgeFailed => {
                "the code checks passed this call, the judge did not"
            }
        }
    }
}

/// Sets each verdict against the code problems at its call; see [`CodeJudgeRow`].
pub fn code_vs_judge(verdicts: &[Verdict], problems: &[Problem]) -> AgreementMatrix {
    let mut kinds: HashMap<(&str, usize), BTreeSet<ProblemKind>> = HashMap::new();
    for problem in problems.iter().filter(|problem| problem.kind.is_failure()) {
        kinds
            .entry((problem.session_id.as_str(), problem.step))
            .or_default()
            .insert(problem.kind);
    }
    let mut rows: BTreeMap<Criterion, CodeJudgeRow> = BTreeMap::new();
    for verdict in verdicts {
        let row = rows
            .entry(verdict.criterion)
            .or_insert_with(|| CodeJudgeRow {
                criterion: verdict.criterion,
                problem_judge_pass: 0,
                problem_judge_fail: 0,
                clean_judge_pass: 0,
                clean_judge_fail: 0,
                judge_unscored: 0,
                problem_but_judge_passed: Vec::new(),
                clean_but_judge_failed: Vec::new(),
            });
        let found = kinds.get(&(verdict.session_id.as_str(), verdict.step));
        let call = || CodeJudgeCall {
            session_id: verdict.session_id.clone(),
            step: verdict.step,
            tool: verdict.tool.clone(),
            problems: found
                .map(|kinds| kinds.iter().copied().collect())
                .unwrap_or_default(),
        };
        match (found.is_some(), verdict.verdict) {
            (_, Outcome::Unscored) => row.judge_unscored += 1,
            (true, Outcome::Pass) => row.problem_judge_pass += 1,
            (true, Outcome::Fail) => row.problem_judge_fail += 1,
            (false, Outcome::Pass) => row.clean_judge_pass += 1,
            (false, Outcome::Fail) => row.clean_judge_fail += 1,
        }
        match CodeJudgeSplit::of(verdict.criterion, verdict.verdict, found.is_some()) {
            Some(CodeJudgeSplit::ProblemButJudgePassed) => {
                row.problem_but_judge_passed.push(call())
            }
            Some(CodeJudgeSplit::CleanButJudgeFailed) => row.clean_but_judge_failed.push(call()),
            None => {}
        }
    }
    AgreementMatrix {
        criteria: rows.into_values().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn verdict(
        session_id: &str,
        step: usize,
        tool: &str,
        criterion: Criterion,
        outcome: Outcome,
    ) -> Verdict {
        Verdict {
            session_id: session_id.into(),
            step,
            tool: tool.into(),
            criterion,
            verdict: outcome,
            cause: (outcome == Outcome::Unscored).then_some(UnscoredCause::RateLimited),
            reason: String::new(),
            evidence: Vec::new(),
            model: "m".into(),
            template: TemplateRef {
                id: "t".into(),
                sha256: "h".into(),
            },
            prompt_sha256: "p".into(),
        }
    }

    fn session(session_id: &str, agent_id: Option<&str>) -> Session {
        Session {
            session_id: session_id.into(),
            agent_id: agent_id.map(String::from),
            ..Session::default()
        }
    }

    #[test]
    fn verdicts_are_counted_per_criterion_tool_and_agent() {
        use Criterion::{CallDecision, ResultUsed};
        use Outcome::{Fail, Pass, Unscored};
        let verdicts = vec![
            verdict("a", 1, "search", CallDecision, Pass),
            verdict("a", 1, "search", ResultUsed, Fail),
            verdict("a", 2, "refund", CallDecision, Fail),
            verdict("b", 1, "search", CallDecision, Unscored),
            verdict("c", 1, "search", CallDecision, Pass), // not among the sessions
        ];
        let sessions = [session("a", Some("bot-1")), session("b", None)];
        let mut spend = Spend::new(None);
        spend.add(1_000, 100);
        let summary = summarize(&verdicts, &sessions, Some(&spend));
        assert_eq!((summary.verdicts, summary.calls), (5, 4));
        assert_eq!(summary.models, ["m"]);
        assert_eq!(summary.templates.len(), 1);
        let call_decision = &summary.criteria[0];
        assert_eq!(call_decision.criterion, CallDecision);
        assert_eq!(
            (
                call_decision.pass,
                call_decision.fail,
                call_decision.unscored
            ),
            (2, 1, 1)
        );
        assert_eq!(
            call_decision.unscored_by_cause[&UnscoredCause::RateLimited],
            1
        );
        assert_eq!(call_decision.pass_rate, Rate::new(2, 3));
        assert_eq!(call_decision.pass_rate_interval, wilson_95(2, 3));
        assert_eq!(summary.criteria[1].criterion, ResultUsed);
        let tools: Vec<&str> = summary
            .by_tool
            .iter()
            .map(|row| row.tool.as_str())
            .collect();
        assert_eq!(tools, ["refund", "search"]);
        assert_eq!(summary.by_tool[1].criteria[0].pass, 2);
        let agents: Vec<Option<&str>> = summary
            .by_agent
            .iter()
            .map(|row| row.agent_id.as_deref())
            .collect();
        assert_eq!(agents, [None, Some("bot-1")]);
        assert_eq!(
            summary.by_agent[0].criteria[0].unscored + summary.by_agent[0].criteria[0].pass,
            2
        );
        let usage = summary.usage.unwrap();
        assert_eq!(
            (usage.requests, usage.input_tokens, usage.cost_usd),
            (1, 1_000, None)
        );
    }

    #[test]
    fn the_summary_reads_back_from_its_json() {
        let verdicts = vec![verdict(
            "a",
            1,
            "f",
            Criterion::RightTool,
            Outcome::Unscored,
        )];
        let summary = summarize(&verdicts, &[], None);
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["criteria"][0]["unscored_by_cause"]["rate_limited"], 1);
        assert!(json["criteria"][0]["pass_rate"]["rate"].is_null());
        let again: JudgeSummary = serde_json::from_value(json).unwrap();
        assert_eq!(again, summary);
    }

    #[test]
    fn code_problems_and_verdicts_are_crossed_and_the_disagreements_listed() {
        use Criterion::{ArgsGrounded, CallDecision};
        use Outcome::{Fail, Pass, Unscored};
        let problems = vec![
            Problem::new("a", 1, "f", ProblemKind::Schema, "x".into()),
            Problem::new("a", 1, "f", ProblemKind::Order, "y".into()),
            Problem::new("a", 3, "h", ProblemKind::SchemaUndecidable, "z".into()),
        ];
        let verdicts = vec![
            verdict("a", 1, "f", ArgsGrounded, Pass), // problem, passed: listed
            verdict("a", 1, "f", CallDecision, Pass), // problem, passed: not listed
            verdict("a", 2, "g", ArgsGrounded, Fail), // clean, failed: listed
            verdict("a", 3, "h", ArgsGrounded, Pass), // undecidable is not a problem
            verdict("a", 4, "h", ArgsGrounded, Unscored),
        ];
        let matrix = code_vs_judge(&verdicts, &problems);
        let criteria: Vec<Criterion> = matrix.criteria.iter().map(|row| row.criterion).collect();
        assert_eq!(criteria, [CallDecision, ArgsGrounded]);
        let args = &matrix.criteria[1];
        assert_eq!(
            (
                args.problem_judge_pass,
                args.problem_judge_fail,
                args.clean_judge_pass,
                args.clean_judge_fail,
                args.judge_unscored
            ),
            (1, 0, 1, 1, 1)
        );
        assert_eq!(
            args.problem_but_judge_passed,
            [CodeJudgeCall {
                session_id: "a".into(),
                step: 1,
                tool: "f".into(),
                problems: vec![ProblemKind::Schema, ProblemKind::Order],
            }]
        );
        assert_eq!(args.clean_but_judge_failed[0].step, 2);
        assert!(args.clean_but_judge_failed[0].problems.is_empty());
        let decision = &matrix.criteria[0];
        assert_eq!(decision.problem_judge_pass, 1);
        assert!(decision.problem_but_judge_passed.is_empty());
    }

    fn any_verdict() -> impl Strategy<Value = Verdict> {
        let criterion = proptest::sample::select(Criterion::ALL.to_vec());
        let outcome = prop_oneof![
            Just(Outcome::Pass),
            Just(Outcome::Fail),
            Just(Outcome::Unscored)
        ];
        let tool = proptest::sample::select(vec!["f", "g", "h"]);
        (0usize..4, 1usize..6, tool, criterion, outcome).prop_map(
            |(session, step, tool, criterion, outcome)| {
                verdict(&format!("s{session}"), step, tool, criterion, outcome)
            },
        )
    }

    fn check_counts(rows: &[CriterionCounts], verdicts: &[&Verdict]) -> Result<(), TestCaseError> {
        for row in rows {
            let of_criterion = verdicts
                .iter()
                .filter(|verdict| verdict.criterion == row.criterion)
                .count() as u64;
            prop_assert_eq!(row.pass + row.fail + row.unscored, of_criterion);
            prop_assert_eq!(row.unscored_by_cause.values().sum::<u64>(), row.unscored);
            prop_assert_eq!(row.pass_rate.total, row.pass + row.fail);
            if let Some(rate) = row.pass_rate.rate {
                prop_assert!((0.0..=1.0).contains(&rate));
                let [low, high] = row.pass_rate_interval.unwrap();
                prop_assert!(0.0 <= low && low <= rate && rate <= high && high <= 1.0);
            } else {
                prop_assert!(row.pass_rate_interval.is_none());
            }
        }
        let criteria_seen: BTreeSet<Criterion> =
            verdicts.iter().map(|verdict| verdict.criterion).collect();
        prop_assert_eq!(rows.len(), criteria_seen.len());
        Ok(())
    }

    proptest! {
        #[test]
        fn counts_are_conserved_and_rates_stay_in_range(
            verdicts in proptest::collection::vec(any_verdict(), 0..80),
            agents in proptest::collection::vec(proptest::option::of(proptest::sample::select(vec!["x", "y"])), 4),
            problem_steps in proptest::collection::vec((0usize..4, 1usize..6), 0..10),
        ) {
            let sessions: Vec<Session> = agents.iter().enumerate().map(|(index, agent)| session(&format!("s{index}"), *agent)).collect();
            let summary = summarize(&verdicts, &sessions, None);
            let all: Vec<&Verdict> = verdicts.iter().collect();
            check_counts(&summary.criteria, &all)?;
            for row in &summary.by_tool {
                let of_tool: Vec<&Verdict> = verdicts.iter().filter(|verdict| verdict.tool == row.tool).collect();
                check_counts(&row.criteria, &of_tool)?;
            }
            let per_agent: u64 = summary.by_agent.iter().flat_map(|row| &row.criteria).map(|row| row.pass + row.fail + row.unscored).sum();
            prop_assert_eq!(per_agent, verdicts.len() as u64);
            let per_tool: u64 = summary.by_tool.iter().flat_map(|row| &row.criteria).map(|row| row.pass + row.fail + row.unscored).sum();
            prop_assert_eq!(per_tool, verdicts.len() as u64);

            let problems: Vec<Problem> = problem_steps.iter().map(|(session, step)| Problem::new(&format!("s{session}"), *step, "f", ProblemKind::Schema, String::new())).collect();
            let matrix = code_vs_judge(&verdicts, &problems);
            for row in &matrix.criteria {
                let of_criterion = verdicts.iter().filter(|verdict| verdict.criterion == row.criterion).count() as u64;
                prop_assert_eq!(row.problem_judge_pass + row.problem_judge_fail + row.clean_judge_pass + row.clean_judge_fail + row.judge_unscored, of_criterion);
                prop_assert_eq!(row.clean_but_judge_failed.len() as u64, row.clean_judge_fail);
                prop_assert!(row.problem_but_judge_passed.len() as u64 <= row.problem_judge_pass);
            }
        }
    }
}
