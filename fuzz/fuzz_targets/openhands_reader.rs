//! Any bytes read as OpenHands event streams (and once more with detection): the reader must
//! never panic, every diagnostic must point at a 1-based line, and the report must survive JSON.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use toolscope_core::formats::TraceFormat;

fuzz_target!(|bytes: &[u8]| common::check_as(bytes, TraceFormat::Openhands));
