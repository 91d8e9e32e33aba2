//! Why parts could not be merged.

/// Parts that cannot be merged into the report of their whole. Parts are numbered from 0 in
/// the order given; the CLI names their files instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no reports to merge")]
    NoParts,
    /// A part made by another toolscope than this one: its numbers may mean something else.
    #[error("it was made by toolscope {found}, and this is toolscope {expected}")]
    Version {
        /// The part.
        part: usize,
        /// Its `toolscope_version`.
        found: String,
        /// This engine's version.
        expected: String,
    },
    /// The same session in two parts: the data was not split by session, and counting it
    /// twice would make every figure wrong.
    #[error(
        "session {session_id:?} is in it and in an earlier part; split the data by session \
         so that each session is in one part only"
    )]
    SessionInTwoParts {
        /// The session.
        session_id: String,
        /// The earlier part that has it.
        first: usize,
        /// The part that has it again.
        part: usize,
    },
    /// A part made with an option that changes the numbers set differently from the first.
    #[error(
        "it was made with {option} {found} and the first part with {expected}; make every \
         part with the same options"
    )]
    Option {
        /// The part.
        part: usize,
        /// The option, as the report names it.
        option: &'static str,
        /// Its value in this part.
        found: String,
        /// Its value in the first part that has it.
        expected: String,
    },
    /// A part has a section that cannot be rebuilt from what a report carries.
    #[error("{reason}")]
    Unsupported {
        /// The part.
        part: usize,
        /// What cannot be merged, and why.
        reason: String,
    },
}

impl MergeError {
    /// The part the error is about (0-based, in the order given); None when it is about no
    /// part in particular.
    pub fn part(&self) -> Option<usize> {
        match self {
            MergeError::NoParts => None,
            MergeError::Version { part, .. }
            | MergeError::SessionInTwoParts { part, .. }
            | MergeError::Option { part, .. }
            | MergeError::Unsupported { part, .. } => Some(*part),
        }
    }
}
