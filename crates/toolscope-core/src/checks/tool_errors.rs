//! **tool errors per session**: how many tool results came back as errors, with agent-caused
//! and environment-caused errors counted apart (and those the export does not attribute).
//!
//! Why: a run with seven failed calls and a cheerful final answer must not read as a success,
//! and infrastructure noise must not land on the agent's report card.

use serde::{Deserialize, Serialize};

use crate::model::{ErrorSource, Event, ResultStatus, Session};

/// Tool result counts of one session (or summed over many).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolErrorCounts {
    /// Every tool result.
    pub results: u64,
    /// Results with status error.
    pub errors: u64,
    /// Errors the export attributes to the agent.
    pub agent: u64,
    /// Errors the export attributes to the environment.
    pub environment: u64,
    /// Errors with no attribution.
    pub unattributed: u64,
    /// Errors whose status was inferred (e.g. from an "Error: " prefix), not stated.
    pub inferred: u64,
}

impl ToolErrorCounts {
    /// Adds another count to this one.
    pub fn add(&mut self, other: &ToolErrorCounts) {
        self.results += other.results;
        self.errors += other.errors;
        self.agent += other.agent;
        self.environment += other.environment;
        self.unattributed += other.unattributed;
        self.inferred += other.inferred;
    }
}

/// Counts the session's tool results and errors.
pub fn count(session: &Session) -> ToolErrorCounts {
    let mut counts = ToolErrorCounts::default();
    for event in &session.events {
        let Event::ToolResult(result) = event else {
            continue;
        };
        counts.results += 1;
        if result.status != ResultStatus::Error {
            continue;
        }
        counts.errors += 1;
        match result.error_source {
            Some(ErrorSource::Agent) => counts.agent += 1,
            Some(ErrorSource::Environment) => counts.environment += 1,
            None => counts.unattributed += 1,
        }
        if result.is_status_inferred {
            counts.inferred += 1;
        }
    }
    counts
}
