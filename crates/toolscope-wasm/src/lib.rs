//! toolscope's engine for JavaScript hosts (Node, a VS Code extension, another viewer): files in,
//! the report JSON out, exactly as `toolscope report --json` prints it for the same files. A thin
//! adapter: the files go to [`toolscope_core::analyze`] and the report out through
//! [`toolscope_core::Report::write_json`], the calls the CLI makes. `packages/npm/index.js` wraps
//! it in `analyze(files, options)`.

use serde::Deserialize;
use toolscope_core::formats::TraceFormat;
use toolscope_core::metrics::args_match::ArgsMode;
use toolscope_core::{analyze, detect_role, InputFile, Options, Role};
use wasm_bindgen::prelude::*;

/// The files of one analysis, added one at a time (each copied once from its `Uint8Array`).
#[wasm_bindgen]
#[derive(Default)]
pub struct Analyzer {
    files: Vec<NamedFile>,
}

struct NamedFile {
    name: String,
    role: Role,
    bytes: Vec<u8>,
}

/// The options `toolscope report` takes besides files, as the JSON object `analyze` gets.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ReportOptions {
    /// `--format`: read every trace file as this format.
    format: Option<TraceFormat>,
    /// `--min-support`.
    min_support: Option<u64>,
    /// `--args-match`: "exact" or "subset".
    args_match: Option<ArgsMode>,
    /// `--summary`: the report without its per-session and per-turn lists.
    #[serde(default)]
    summary: bool,
    /// `--compact`: the JSON on one line.
    #[serde(default)]
    compact: bool,
}

#[wasm_bindgen]
impl Analyzer {
    /// No files yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Analyzer {
        Analyzer::default()
    }

    /// Adds a file: its name (the report's `file`), its role ("traces", "catalog", "rules",
    /// "labels", "verdicts", "human_verdicts"; detected from the content when absent) and bytes.
    pub fn add(
        &mut self,
        name: String,
        role: Option<String>,
        bytes: Vec<u8>,
    ) -> Result<(), JsError> {
        let role = match role {
            Some(role) => parse_role(&role)?,
            None => detect_role(&bytes).0,
        };
        self.files.push(NamedFile { name, role, bytes });
        Ok(())
    }

    /// The report JSON for the files added, with `options` (a JSON object: `format`,
    /// `minSupport`, `argsMatch`, `summary`), byte for byte what the CLI prints.
    #[wasm_bindgen(js_name = reportJson)]
    pub fn report_json(&self, options: &str) -> Result<String, JsError> {
        let options: ReportOptions = serde_json::from_str(options)
            .map_err(|error| JsError::new(&format!("analyze: options: {error}")))?;
        Ok(report_json(&self.files, &options))
    }
}

/// A role by its name in the report, or an error naming the ones there are.
fn parse_role(name: &str) -> Result<Role, JsError> {
    Role::from_name(name)
        .filter(|role| *role != Role::Baseline)
        .ok_or_else(|| {
            JsError::new(&format!(
                "analyze: unknown role {name:?}: expected traces, catalog, rules, labels, \
                 verdicts or human_verdicts"
            ))
        })
}

fn report_json(files: &[NamedFile], options: &ReportOptions) -> String {
    let inputs: Vec<InputFile<'_>> = files
        .iter()
        .map(|file| InputFile::new(&file.name, &file.bytes, file.role))
        .collect();
    let mut engine_options = Options {
        format: options.format,
        ..Options::default()
    };
    if let Some(min_support) = options.min_support {
        engine_options.min_support = min_support;
    }
    if let Some(args_mode) = options.args_match {
        engine_options.args_mode = args_mode;
    }
    let report = analyze(&inputs, &engine_options);
    let report = if options.summary {
        report.into_summary()
    } else {
        report
    };
    let mut json = Vec::new();
    report
        .write_json_as(&mut json, options.compact)
        .expect("writing to a Vec cannot fail");
    String::from_utf8(json).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::{report_json, NamedFile, ReportOptions};
    use toolscope_core::Role;

    #[test]
    fn options_are_the_cli_flags_in_camel_case_and_typos_are_refused() {
        let options: ReportOptions =
            serde_json::from_str(r#"{"minSupport": 3, "argsMatch": "subset", "format": "native"}"#)
                .unwrap();
        assert_eq!(options.min_support, Some(3));
        assert!(serde_json::from_str::<ReportOptions>(r#"{"min_support": 3}"#).is_err());
    }

    /// A trace file of one call.
    fn one_call_file() -> [NamedFile; 1] {
        [NamedFile {
            name: "calls.json".into(),
            role: Role::Traces,
            bytes: br#"[{"name": "lookup_order", "args": {}}]"#.to_vec(),
        }]
    }

    #[test]
    fn the_report_names_each_file_as_given_and_ends_with_a_newline() {
        let files = one_call_file();
        let json = report_json(&files, &ReportOptions::default());
        assert!(json.ends_with("}\n"));
        assert!(json.contains(r#""file": "calls.json""#), "{json}");
    }

    #[test]
    fn a_compact_report_is_the_same_json_on_one_line() {
        let files = one_call_file();
        let options: ReportOptions = serde_json::from_str(r#"{"compact": true}"#).unwrap();
        let compact = report_json(&files, &options);
        let pretty = report_json(&files, &ReportOptions::default());
        assert_eq!(compact.lines().count(), 1);
        assert!(compact.ends_with("}\n") && compact.len() < pretty.len());
        let value = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        assert_eq!(value(&compact), value(&pretty));
    }
}
