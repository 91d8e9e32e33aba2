//! The report's tables as CSV, for spreadsheets: the problems and the per-tool selection rows.
//! The page's "CSV" buttons and any CLI export write these same bytes.

use crate::checks::problem::Problem;
use crate::metrics::selection::ToolRow;

/// One row per problem: session, step, tool, kind, message, pointer, suggestion, related step.
pub fn problems_csv(problems: &[Problem]) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record([
        "session_id",
        "step",
        "tool",
        "kind",
        "message",
        "pointer",
        "suggestion",
        "related_step",
    ])
    .expect("writing to memory");
    for problem in problems {
        out.write_record([
            problem.session_id.as_str(),
            &problem.step.to_string(),
            &problem.tool,
            problem.kind.as_str(),
            &problem.message,
            problem.pointer.as_deref().unwrap_or(""),
            problem.suggestion.as_deref().unwrap_or(""),
            &problem
                .related_step
                .map_or(String::new(), |step| step.to_string()),
        ])
        .expect("writing to memory");
    }
    into_string(out)
}

/// One row per tool: counts, precision, recall, F1 with their intervals, support and the
/// low-support flag. Missing values are empty cells.
pub fn per_tool_csv(rows: &[ToolRow]) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record([
        "tool",
        "tp",
        "fp",
        "fn",
        "precision",
        "precision_low",
        "precision_high",
        "recall",
        "recall_low",
        "recall_high",
        "f1",
        "support",
        "is_low_support",
    ])
    .expect("writing to memory");
    let number = |value: Option<f64>| value.map_or(String::new(), |value| value.to_string());
    for row in rows {
        out.write_record([
            row.tool.clone(),
            row.tp.to_string(),
            row.fp.to_string(),
            row.fn_.to_string(),
            number(row.precision),
            number(row.precision_ci.map(|ci| ci[0])),
            number(row.precision_ci.map(|ci| ci[1])),
            number(row.recall),
            number(row.recall_ci.map(|ci| ci[0])),
            number(row.recall_ci.map(|ci| ci[1])),
            number(row.f1),
            row.support.to_string(),
            row.is_low_support.to_string(),
        ])
        .expect("writing to memory");
    }
    into_string(out)
}

fn into_string(out: csv::Writer<Vec<u8>>) -> String {
    let bytes = out.into_inner().expect("writing to memory");
    String::from_utf8(bytes).expect("CSV of UTF-8 strings is UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::problem::ProblemKind;
    use crate::metrics::selection::tool_row;

    #[test]
    fn fields_with_commas_quotes_and_newlines_are_quoted_and_read_back_intact() {
        let problem = Problem {
            session_id: "s,1".into(),
            step: 2,
            tool: "t\"x\"".into(),
            kind: ProblemKind::Schema,
            message: "line one\nline two".into(),
            pointer: Some("/a".into()),
            suggestion: None,
            related_step: Some(1),
        };
        let text = problems_csv(&[problem]);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let record = reader.records().next().unwrap().unwrap();
        assert_eq!(&record[0], "s,1");
        assert_eq!(&record[2], "t\"x\"");
        assert_eq!(&record[3], "schema");
        assert_eq!(&record[4], "line one\nline two");
        assert_eq!(&record[6], "");
        assert_eq!(&record[7], "1");
    }

    #[test]
    fn per_tool_rows_leave_undefined_rates_empty() {
        let never_called = tool_row("f", [0, 0, 3], 10);
        let text = per_tool_csv(&[never_called]);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let record = reader.records().next().unwrap().unwrap();
        assert_eq!(&record[0], "f");
        assert_eq!(&record[4], "", "precision is undefined when never called");
        assert_eq!(&record[7], "0");
        assert_eq!(&record[12], "true");
    }
}
