//! How reports are written: plain text in the seed's layouts, or JSON.

pub mod json;
pub mod text;
