//! The judge section of merged parts: every part's verdicts, summarised again with the
//! sessions' agents, joined again with the merged problems, and the calibration rebuilt from the
//! parts' per-criterion counts (κ and its interval recomputed, not averaged).

use crate::checks::problem::Problem;
use crate::judge::calibration::{merge_calibrations, Calibration};
use crate::judge::in_report::JudgeReport;
use crate::judge::summary::{code_vs_judge, summarize_with_agents};
use crate::judge::Verdict;
use crate::report::{Report, SessionSummary};

/// The judge section of the whole, or None when no part has one.
pub(super) fn merge_judge(
    parts: &[Report],
    sessions: &[SessionSummary],
    problems: &[Problem],
) -> Option<JudgeReport> {
    let judged: Vec<&JudgeReport> = parts
        .iter()
        .filter_map(|part| part.judge.as_ref())
        .collect();
    if judged.is_empty() {
        return None;
    }
    let verdicts: Vec<Verdict> = judged
        .iter()
        .flat_map(|judge| judge.verdicts.iter().cloned())
        .collect();
    let calibrations: Vec<&Calibration> = judged
        .iter()
        .filter_map(|judge| judge.calibration.as_ref())
        .collect();
    let agents = sessions
        .iter()
        .map(|row| (row.session_id.as_str(), row.agent_id.as_deref()));
    Some(JudgeReport {
        summary: summarize_with_agents(&verdicts, agents, None),
        code_vs_judge: code_vs_judge(&verdicts, problems),
        calibration: merge_calibrations(&calibrations, &verdicts),
        verdicts,
    })
}
