//! Any bytes read as an Inspect AI log (and once more with detection): the `.json` reader, and
//! the `.eval` ZIP reader when the bytes start like a ZIP archive, must never panic, every
//! diagnostic must point at a 1-based line, and the report must survive JSON.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use toolscope_core::formats::TraceFormat;

fuzz_target!(|bytes: &[u8]| common::check_as(bytes, TraceFormat::Inspect));
