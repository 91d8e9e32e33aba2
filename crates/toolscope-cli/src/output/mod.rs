//! How reports are written: plain text in the seeds' layouts, or JSON. Text goes out through
//! `terminal`, which escapes what came from the input (`escape`); JSON escapes itself.

pub mod escape;
pub mod json;
pub mod number;
pub mod terminal;
pub mod text;
