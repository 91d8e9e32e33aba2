//! The report's `judge` section: a judge's verdicts read from a verdicts file (so a run judged
//! in CI is inspected in the page for free), summarised per criterion, tool and agent, joined
//! with the code checks, and measured against human verdicts when a file of them is given.

use serde::{Deserialize, Serialize};

use super::calibration::{calibrate, Calibration};
use super::summary::{
    code_vs_judge, summarize, summarize_with_agents, AgreementMatrix, JudgeSummary,
};
use super::verdict_file::merge_verdicts;
use super::verdict_file::HumanVerdict;
use super::Verdict;
use crate::checks::problem::Problem;
use crate::diagnostic::Diagnostic;
use crate::hashing::HashSet;
use crate::model::{Event, Session};
use crate::report::Report;

/// The report's `judge` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeReport {
    /// Counts and rates per criterion, tool and agent; tokens and cost when known.
    pub summary: JudgeSummary,
    /// Code checks and the judge side by side, per criterion.
    pub code_vs_judge: AgreementMatrix,
    /// The judge against human verdicts, when a file of them was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Calibration>,
    /// Every verdict, in the order read.
    pub verdicts: Vec<Verdict>,
}

/// The section for these verdicts, or None when there are neither judge nor human verdicts.
pub fn judge_report(
    verdicts: &[Verdict],
    human: &[HumanVerdict],
    sessions: &[Session],
    problems: &[Problem],
) -> Option<JudgeReport> {
    if verdicts.is_empty() && human.is_empty() {
        return None;
    }
    Some(JudgeReport {
        summary: summarize(verdicts, sessions, None),
        code_vs_judge: code_vs_judge(verdicts, problems),
        calibration: (!human.is_empty()).then(|| calibrate(verdicts, human)),
        verdicts: verdicts.to_vec(),
    })
}

/// Adds a judge's verdicts (a run's, in the page or the CLI) to `report` alone, without its
/// sessions, as a later verdicts file would be added ([`merge_verdicts`]): the judge section and
/// the findings become what [`crate::Analysis::add_verdicts`] makes of the same report, the
/// sessions' agents taken from the report's rows and the descriptions from its findings (only
/// confused tools show them, and verdicts change no such finding). For a report made without
/// human verdicts, as every streamed report is: a calibration already there is kept as it was.
/// With a report's `sessions` kept (not only counted) each verdict's agent is known.
pub fn add_verdicts(report: &mut Report, verdicts: Vec<Verdict>) {
    let (mut all, calibration) = match report.judge.take() {
        Some(judge) => (judge.verdicts, judge.calibration),
        None => (Vec::new(), None),
    };
    merge_verdicts(&mut all, verdicts);
    if all.is_empty() && calibration.is_none() {
        return;
    }
    let agents = report
        .sessions
        .iter()
        .map(|row| (row.session_id.as_str(), row.agent_id.as_deref()));
    report.judge = Some(JudgeReport {
        summary: summarize_with_agents(&all, agents, None),
        code_vs_judge: code_vs_judge(&all, &report.problems),
        calibration,
        verdicts: all,
    });
    let descriptions = crate::merge::descriptions_in(std::slice::from_ref(report));
    report.findings = crate::findings::findings(report, &descriptions);
}

/// Warns (once per file) about verdicts on calls that are not in the traces: a verdicts file
/// from another run, or traces missing. They are kept (the file says what it says) but named.
pub fn warn_about_unknown_calls(
    file: &str,
    calls: impl Iterator<Item = (String, usize)>,
    sessions: &[Session],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let known: HashSet<(&str, usize)> = sessions
        .iter()
        .flat_map(|session| {
            let calls = session
                .events
                .iter()
                .filter(|event| matches!(event, Event::ToolUse(_)))
                .count();
            (1..=calls).map(move |step| (session.session_id.as_str(), step))
        })
        .collect();
    let mut unknown = 0usize;
    let mut first = None;
    for (session_id, step) in calls {
        if !known.contains(&(session_id.as_str(), step)) {
            unknown += 1;
            first.get_or_insert((session_id, step));
        }
    }
    if let Some((session_id, step)) = first {
        diagnostics.push(Diagnostic::warning(
            file,
            None,
            format!(
                "{unknown} verdict(s) are on calls that are not in the traces (the first: session \
                 {session_id:?}, step {step}); they are counted, but their calls cannot be shown"
            ),
        ));
    }
}
