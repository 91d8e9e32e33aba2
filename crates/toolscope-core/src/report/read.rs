//! Reading a report JSON that someone else may have written: the one reader of reports, used by
//! `merge`, `diff` and `gate` (files) and by a baseline given to the analysis (the page). A
//! report is parsed, then checked possible ([`Report::check_possible`]) before any of its
//! numbers is used.

use super::{ImpossibleReport, Report};

/// Why bytes gave no report.
#[derive(Debug, thiserror::Error)]
pub enum ReadReportError {
    /// Not a toolscope report JSON at all (not JSON, or JSON without a report's keys).
    #[error("not a toolscope report JSON")]
    NotAReport,
    /// A report JSON (it has a report's keys) that this version cannot read.
    #[error(
        "a toolscope report JSON that cannot be read (made by another version? make it again \
         with this one's `toolscope report --json`): {0}"
    )]
    Unreadable(serde_json::Error),
    /// A report that no real input could have given.
    #[error("an impossible report: {0}")]
    Impossible(ImpossibleReport),
}

/// The report in `bytes`, checked possible for a file of their size.
pub fn read_report(bytes: &[u8]) -> Result<Report, ReadReportError> {
    let report = parse(bytes)?;
    report
        .check_possible(bytes.len() as u64)
        .map_err(ReadReportError::Impossible)?;
    Ok(report)
}

fn parse(bytes: &[u8]) -> Result<Report, ReadReportError> {
    // A report parses straight into its type (half the time of a `Value` first, which matters
    // for `merge` of large parts); anything else is looked at as a `Value` to say what it is.
    if let Ok(report) = serde_json::from_slice::<Report>(bytes) {
        return Ok(report);
    }
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return Err(ReadReportError::NotAReport);
    };
    let is_report = value.as_object().is_some_and(|object| {
        ["toolscope_version", "summary", "sessions"]
            .iter()
            .all(|key| object.contains_key(*key))
    });
    if !is_report {
        return Err(ReadReportError::NotAReport);
    }
    serde_json::from_value::<Report>(value).map_err(ReadReportError::Unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::report_of;

    const SESSIONS: &str = r#"{"session_id": "s1", "events": [{"type": "user", "content": "hi"}, {"type": "tool_use", "call_id": "c1", "name": "t", "args": {}}, {"type": "assistant", "content": "done"}]}"#;

    #[test]
    fn a_report_is_read_and_what_is_not_one_is_named() {
        let json = serde_json::to_vec(&report_of(SESSIONS, "")).unwrap();
        assert_eq!(read_report(&json).unwrap().summary.calls, 1);
        assert!(matches!(
            read_report(b"{\"session_id\": 1}"),
            Err(ReadReportError::NotAReport)
        ));
        assert!(matches!(
            read_report(b"not json"),
            Err(ReadReportError::NotAReport)
        ));
        let unreadable = br#"{"toolscope_version": "0", "summary": 3, "sessions": []}"#;
        assert!(matches!(
            read_report(unreadable),
            Err(ReadReportError::Unreadable(_))
        ));
    }

    #[test]
    fn an_impossible_report_is_refused_before_use() {
        let mut value = serde_json::to_value(report_of(SESSIONS, "")).unwrap();
        value["sessions"][0]["calls"] = serde_json::Value::from(u64::MAX);
        value["summary"]["calls"] = serde_json::Value::from(u64::MAX);
        let error = read_report(&serde_json::to_vec(&value).unwrap()).unwrap_err();
        let ReadReportError::Impossible(impossible) = error else {
            panic!("{error}");
        };
        assert_eq!(impossible.field, "summary.calls");
    }
}
