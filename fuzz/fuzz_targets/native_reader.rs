//! Any bytes as a traces file: format detection, the JSON reading steps and every trace reader
//! (native sessions, seed calls, eval cases) must never panic, every diagnostic must point at a
//! 1-based line, and the report must survive JSON.

#![no_main]

mod common;

use common::assert_sound;
use libfuzzer_sys::fuzz_target;
use toolscope_core::{analyze, InputFile, Options, Role};

fuzz_target!(|bytes: &[u8]| {
    let inputs = [InputFile::new("traces.jsonl", bytes, Role::Traces)];
    let report = analyze(&inputs, &Options::default());
    assert_sound(&report);
});
