//! How reports are written: plain text in the seeds' layouts, JSON, or an HTML file. Text goes
//! out through `terminal`, which escapes what came from the input (`escape`); JSON escapes
//! itself, and so does the HTML renderer (toolscope-html).

pub mod diff;
pub mod escape;
pub mod files;
pub mod gate;
pub mod html;
pub mod json;
pub mod terminal;
pub mod text;
