//! A report with its input files under other names: how a report is published (an HTML file,
//! a link) without the paths it was made from, which would tell every reader where its author
//! keeps their work.

use super::Report;

impl Report {
    /// Renames every input file the report names, wherever it names it: the inputs, the
    /// diagnostics (their file, and the name where a message quotes it) and each session's
    /// origin. `renames` pairs each name as given with its new name.
    pub fn rename_files(&mut self, renames: &[(String, String)]) {
        let renamed = |name: &mut String| {
            if let Some((_, new)) = renames.iter().find(|(old, _)| old == name) {
                name.clone_from(new);
            }
        };
        for input in &mut self.inputs {
            renamed(&mut input.file);
        }
        for session in &mut self.sessions {
            renamed(&mut session.origin.file);
        }
        for diagnostic in &mut self.diagnostics {
            renamed(&mut diagnostic.file);
            for (old, new) in renames {
                if !old.is_empty() && diagnostic.message.contains(old.as_str()) {
                    diagnostic.message = diagnostic.message.replace(old.as_str(), new);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{analyze, InputFile, Options, Role};

    #[test]
    fn every_place_a_report_names_a_file_takes_the_new_name() {
        let path = "/home/alice/work/run.jsonl";
        let traces = b"{\"session_id\": \"s1\", \"events\": [{\"type\": \"user\", \"content\": \"hi\"}]}\nnot json\n";
        let mut report = analyze(
            &[InputFile::new(path, traces, Role::Traces)],
            &Options::default(),
        );
        assert!(!report.diagnostics.is_empty() && !report.sessions.is_empty());
        report.rename_files(&[(path.to_string(), "run.jsonl".to_string())]);
        let mut json = Vec::new();
        report.write_json(&mut json).unwrap();
        let json = String::from_utf8(json).unwrap();
        assert!(!json.contains("/home/alice"), "{json}");
        assert_eq!(report.inputs[0].file, "run.jsonl");
        assert_eq!(report.sessions[0].origin.file, "run.jsonl");
        assert_eq!(report.diagnostics[0].file, "run.jsonl");
    }
}
