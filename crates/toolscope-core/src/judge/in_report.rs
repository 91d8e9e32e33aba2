//! The report's `judge` section: a judge's verdicts read from a verdicts file (so a run judged
//! in CI is inspected in the page for free), summarised per criterion, tool and agent, joined
//! with the code checks, and measured against human verdicts when a file of them is given.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::calibration::{calibrate, Calibration};
use super::summary::{code_vs_judge, summarize, AgreementMatrix, JudgeSummary};
use super::verdict_file::HumanVerdict;
use super::Verdict;
use crate::checks::problem::Problem;
use crate::diagnostic::Diagnostic;
use crate::model::{Event, Session};

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
