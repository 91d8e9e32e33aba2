//! The two verdict files: the judge's (JSON Lines of [`Verdict`], as `toolscope judge --out`
//! writes them) and a human's (JSON Lines of `{"session_id", "step", "criterion", "verdict":
//! "pass" | "fail"}`, written by hand or by a labelling tool), read with a diagnostic for each
//! bad line naming the file and its 1-based line; the other lines still load.
//!
//! **Duplicates: the last line wins.** A verdict for an item already read replaces the earlier
//! one (at the earlier one's place) and a warning names both lines, so a correction appended at
//! the end of a file takes effect. An item is `(session_id, step, criterion)` in a human file,
//! and `(session_id, step, criterion, model, template)` in a judge's file, where two judges'
//! verdicts on the same call are both kept. Across judge files the same holds: a later file's
//! verdict on an item replaces an earlier file's ([`merge_verdicts`]), with one warning per file.
//!
//! ```
//! use toolscope_core::judge::verdict_file::read_human_verdicts;
//! use toolscope_core::judge::{Criterion, Outcome};
//!
//! let text = br#"{"session_id": "s1", "step": 1, "criterion": "call_decision", "verdict": "pass"}
//! {"session_id": "s1", "step": 1, "criterion": "called", "verdict": "pass"}
//! "#;
//! let mut diagnostics = Vec::new();
//! let human = read_human_verdicts("mine.jsonl", text, &mut diagnostics);
//! assert_eq!(human.len(), 1);
//! assert_eq!((human[0].criterion, human[0].verdict), (Criterion::CallDecision, Outcome::Pass));
//! assert_eq!(diagnostics[0].to_string().split(": ").next(), Some("mine.jsonl:2"));
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Criterion, Outcome, Verdict};
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
use crate::model::Origin;

/// A human's verdict on one call and criterion: pass or fail, never unscored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HumanVerdict {
    /// The session.
    pub session_id: String,
    /// The call's 1-based position among the session's tool calls.
    pub step: usize,
    /// The criterion.
    pub criterion: Criterion,
    /// [`Outcome::Pass`] or [`Outcome::Fail`].
    pub verdict: Outcome,
    /// Where it was read from.
    pub origin: Origin,
}

/// Keys a judge's verdict has and a human's does not.
const JUDGE_KEYS: [&str; 3] = ["model", "template", "prompt_sha256"];

/// Reads a judge's verdicts file. A line that is not a verdict (missing fields, an unknown
/// criterion, `unscored` without a cause, a step of 0) is an error and left out; a `pass` or
/// `fail` with a cause is read without it, with a warning. Duplicates: see the module comment.
pub fn read_verdicts(file: &str, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> Vec<Verdict> {
    let (_, values) = crate::inputs::read_values(file, bytes, diagnostics);
    let mut verdicts: Vec<Verdict> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut seen: HashMap<ItemKey, usize> = HashMap::new();
    for (line, value) in values {
        let mut verdict = match serde_json::from_value::<Verdict>(value) {
            Ok(verdict) => verdict,
            Err(error) => {
                diagnostics.push(Diagnostic::error(
                    file,
                    Some(line),
                    format!("not a judge verdict: {error}"),
                ));
                continue;
            }
        };
        if verdict.step == 0 {
            diagnostics.push(Diagnostic::error(
                file,
                Some(line),
                "\"step\" is 1-based: the first call is step 1",
            ));
            continue;
        }
        match (verdict.verdict, verdict.cause) {
            (Outcome::Unscored, None) => {
                diagnostics.push(Diagnostic::error(
                    file,
                    Some(line),
                    "an \"unscored\" verdict needs a \"cause\" (parse_error, refusal, truncated, \
                     rate_limited, quota, timeout, http_error, evidence_mismatch, not_run)",
                ));
                continue;
            }
            (Outcome::Pass | Outcome::Fail, Some(cause)) => {
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(line),
                    format!(
                        "a \"{}\" verdict has no cause; \"{}\" ignored",
                        outcome_name(verdict.verdict),
                        cause.as_str()
                    ),
                ));
                verdict.cause = None;
            }
            _ => {}
        }
        let key = item_key(&verdict);
        let item = format!(
            "{} step {} {} by {}",
            verdict.session_id,
            verdict.step,
            verdict.criterion.as_str(),
            verdict.model
        );
        keep_last(
            &mut verdicts,
            &mut lines,
            &mut seen,
            key,
            verdict,
            (file, line, &item),
            diagnostics,
        );
    }
    verdicts
}

/// Reads a human verdicts file. A line that is not `{"session_id", "step", "criterion",
/// "verdict": "pass" | "fail"}` is an error and left out. Other fields (a note, the tool) are
/// ignored. Duplicates: see the module comment.
pub fn read_human_verdicts(
    file: &str,
    bytes: &[u8],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<HumanVerdict> {
    let (_, values) = crate::inputs::read_values(file, bytes, diagnostics);
    let mut verdicts: Vec<HumanVerdict> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut seen: HashMap<(String, usize, Criterion), usize> = HashMap::new();
    for (line, value) in values {
        let origin = Origin {
            file: file.to_string(),
            line,
        };
        let verdict = match human_verdict_from_value(&value, origin) {
            Ok(verdict) => verdict,
            Err(message) => {
                diagnostics.push(Diagnostic::error(file, Some(line), message));
                continue;
            }
        };
        let key = (verdict.session_id.clone(), verdict.step, verdict.criterion);
        let item = format!(
            "{} step {} {}",
            verdict.session_id,
            verdict.step,
            verdict.criterion.as_str()
        );
        keep_last(
            &mut verdicts,
            &mut lines,
            &mut seen,
            key,
            verdict,
            (file, line, &item),
            diagnostics,
        );
    }
    verdicts
}

/// Adds `verdict`, or replaces the earlier verdict with the same `key` and warns.
fn keep_last<K: std::hash::Hash + Eq, V>(
    verdicts: &mut Vec<V>,
    lines: &mut Vec<usize>,
    seen: &mut HashMap<K, usize>,
    key: K,
    verdict: V,
    (file, line, item): (&str, usize, &str),
    diagnostics: &mut Vec<Diagnostic>,
) {
    match seen.get(&key) {
        Some(&index) => {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(line),
                format!(
                    "a second verdict for {item} (the first is on line {}); the later one is used",
                    lines[index]
                ),
            ));
            verdicts[index] = verdict;
            lines[index] = line;
        }
        None => {
            seen.insert(key, verdicts.len());
            verdicts.push(verdict);
            lines.push(line);
        }
    }
}

/// Reads one human verdict record.
pub fn human_verdict_from_value(value: &Value, origin: Origin) -> Result<HumanVerdict, String> {
    const SHAPE: &str =
        "a human verdict is {\"session_id\", \"step\", \"criterion\", \"verdict\": \"pass\" | \"fail\"}";
    let Value::Object(record) = value else {
        return Err(format!("not an object: {SHAPE}"));
    };
    let session_id = match record.get("session_id") {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Number(id)) => id.to_string(),
        _ => return Err(format!("no \"session_id\": {SHAPE}")),
    };
    let step = match record.get("step").and_then(Value::as_u64) {
        Some(0) => return Err("\"step\" is 1-based: the first call is step 1".to_string()),
        Some(step) => step as usize,
        None => return Err(format!("\"step\" is not a positive whole number: {SHAPE}")),
    };
    let criterion = match record.get("criterion") {
        Some(Value::String(name)) => Criterion::from_name(name).ok_or_else(|| {
            format!(
                "unknown criterion \"{name}\" (one of {})",
                Criterion::ALL.map(Criterion::as_str).join(", ")
            )
        })?,
        _ => return Err(format!("no \"criterion\": {SHAPE}")),
    };
    let verdict = match record.get("verdict").and_then(Value::as_str) {
        Some("pass") => Outcome::Pass,
        Some("fail") => Outcome::Fail,
        Some(other) => {
            return Err(format!(
                "a human verdict is \"pass\" or \"fail\", not \"{other}\""
            ))
        }
        None => return Err(format!("no \"verdict\": {SHAPE}")),
    };
    Ok(HumanVerdict {
        session_id,
        step,
        criterion,
        verdict,
        origin,
    })
}

/// Whether a record looks like a judge's verdict: a session, a step, a criterion, a verdict
/// (`pass`, `fail` or `unscored`) and one of the judge's own keys (`model`, `template`,
/// `prompt_sha256`). For role detection.
pub fn looks_like_verdicts(record: &Value) -> bool {
    let Value::Object(map) = record else {
        return false;
    };
    has_verdict_shape(map, &["pass", "fail", "unscored"])
        && JUDGE_KEYS.iter().any(|key| map.contains_key(*key))
}

/// Whether a record looks like a human's verdict: a session, a step, a criterion and a verdict
/// (`pass` or `fail`), and none of the judge's own keys. For role detection.
pub fn looks_like_human_verdicts(record: &Value) -> bool {
    let Value::Object(map) = record else {
        return false;
    };
    has_verdict_shape(map, &["pass", "fail"])
        && !JUDGE_KEYS.iter().any(|key| map.contains_key(*key))
}

fn has_verdict_shape(map: &Map<String, Value>, outcomes: &[&str]) -> bool {
    let is_id = |value: Option<&Value>| matches!(value, Some(Value::String(_) | Value::Number(_)));
    is_id(map.get("session_id"))
        && map.get("step").and_then(Value::as_u64).is_some()
        && map
            .get("criterion")
            .and_then(Value::as_str)
            .and_then(Criterion::from_name)
            .is_some()
        && map
            .get("verdict")
            .and_then(Value::as_str)
            .is_some_and(|verdict| outcomes.contains(&verdict))
}

/// Adds `added` to `kept` as a later verdicts file adds to earlier ones: a verdict on an item
/// `kept` already has (the same call, criterion, model and template) replaces it at its place,
/// the others are appended in order. Returns how many replaced one. The page adds a run's
/// verdicts this way, so its report is the one its verdicts in a later file would give.
pub fn merge_verdicts(kept: &mut Vec<Verdict>, added: Vec<Verdict>) -> usize {
    let mut index: HashMap<ItemKey, usize> = kept
        .iter()
        .enumerate()
        .map(|(at, verdict)| (item_key(verdict), at))
        .collect();
    let mut replaced = 0;
    for verdict in added {
        let key = item_key(&verdict);
        match index.get(&key) {
            Some(&at) => {
                kept[at] = verdict;
                replaced += 1;
            }
            None => {
                index.insert(key, kept.len());
                kept.push(verdict);
            }
        }
    }
    replaced
}

/// A judge verdict's item: its call, criterion, model and template.
type ItemKey = (String, usize, Criterion, String, String, String);

fn item_key(verdict: &Verdict) -> ItemKey {
    (
        verdict.session_id.clone(),
        verdict.step,
        verdict.criterion,
        verdict.model.clone(),
        verdict.template.id.clone(),
        verdict.template.sha256.clone(),
    )
}

/// The verdicts as a verdicts file: one compact JSON object per line, each line ending in a
/// newline ([`read_verdicts`] reads it back).
pub fn write_verdicts(verdicts: &[Verdict]) -> String {
    let mut text = String::new();
    for verdict in verdicts {
        text.push_str(
            &serde_json::to_string(verdict)
                .expect("verdicts serialise: strings, numbers and enums only"),
        );
        text.push('\n');
    }
    text
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pass => "pass",
        Outcome::Fail => "fail",
        Outcome::Unscored => "unscored",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::judge::{Evidence, TemplateRef, UnscoredCause};
    use serde_json::json;

    fn verdict(step: usize, criterion: Criterion, outcome: Outcome) -> Verdict {
        Verdict {
            session_id: "s1".into(),
            step,
            tool: "lookup_order".into(),
            criterion,
            verdict: outcome,
            cause: (outcome == Outcome::Unscored).then_some(UnscoredCause::Truncated),
            reason: "because".into(),
            evidence: vec![Evidence {
                quote: "order 7Q2ZK9XA".into(),
                event: Some(0),
            }],
            model: "claude-sonnet-4-5".into(),
            template: TemplateRef {
                id: "tool-call-v1".into(),
                sha256: "ab".repeat(32),
            },
            prompt_sha256: "cd".repeat(32),
        }
    }

    fn human(value: Value) -> Result<HumanVerdict, String> {
        human_verdict_from_value(&value, Origin::default())
    }

    #[test]
    fn verdicts_round_trip_one_compact_line_each() {
        let verdicts = vec![
            verdict(1, Criterion::CallDecision, Outcome::Pass),
            verdict(1, Criterion::RightTool, Outcome::Fail),
            verdict(2, Criterion::ResultUsed, Outcome::Unscored),
        ];
        let text = write_verdicts(&verdicts);
        assert_eq!(text.lines().count(), 3);
        assert!(text.ends_with("}\n"));
        assert!(!text.contains(": "), "compact: {text}");
        let mut diagnostics = Vec::new();
        assert_eq!(
            read_verdicts("v.jsonl", text.as_bytes(), &mut diagnostics),
            verdicts
        );
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(write_verdicts(&[]), "");
    }

    #[test]
    fn bad_verdict_lines_are_named_by_file_and_line_and_the_rest_loads() {
        let good =
            serde_json::to_string(&verdict(1, Criterion::CallDecision, Outcome::Pass)).unwrap();
        let mut unscored =
            serde_json::to_value(verdict(2, Criterion::RightTool, Outcome::Unscored)).unwrap();
        unscored.as_object_mut().unwrap().remove("cause");
        let mut step_zero =
            serde_json::to_value(verdict(1, Criterion::RightTool, Outcome::Pass)).unwrap();
        step_zero["step"] = json!(0);
        let mut pass_with_cause =
            serde_json::to_value(verdict(3, Criterion::RightTool, Outcome::Pass)).unwrap();
        pass_with_cause["cause"] = json!("refusal");
        let text = format!(
            "{good}\nnot json\n{{\"session_id\": \"s1\"}}\n{unscored}\n{step_zero}\n{pass_with_cause}\n"
        );
        let mut diagnostics = Vec::new();
        let verdicts = read_verdicts("v.jsonl", text.as_bytes(), &mut diagnostics);
        assert_eq!(verdicts.len(), 2);
        assert_eq!(verdicts[1].cause, None);
        let located: Vec<(Option<usize>, Severity)> = diagnostics
            .iter()
            .map(|diagnostic| (diagnostic.line, diagnostic.severity))
            .collect();
        assert_eq!(
            located,
            [
                (Some(2), Severity::Error),
                (Some(3), Severity::Error),
                (Some(4), Severity::Error),
                (Some(5), Severity::Error),
                (Some(6), Severity::Warning),
            ]
        );
        assert!(diagnostics
            .iter()
            .all(|diagnostic| diagnostic.file == "v.jsonl"));
        assert!(diagnostics[2].message.contains("needs a \"cause\""));
    }

    #[test]
    fn a_repeated_verdict_replaces_the_earlier_one_in_place_with_a_warning() {
        let first = verdict(1, Criterion::CallDecision, Outcome::Pass);
        let other = verdict(2, Criterion::CallDecision, Outcome::Pass);
        let again = verdict(1, Criterion::CallDecision, Outcome::Fail);
        let mut other_model = verdict(1, Criterion::CallDecision, Outcome::Pass);
        other_model.model = "gpt-4o".into();
        let text = write_verdicts(&[first, other.clone(), again.clone(), other_model.clone()]);
        let mut diagnostics = Vec::new();
        let verdicts = read_verdicts("v.jsonl", text.as_bytes(), &mut diagnostics);
        assert_eq!(verdicts, [again, other, other_model]);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].line, Some(3));
        assert_eq!(diagnostics[0].severity, Severity::Warning);
        assert!(
            diagnostics[0].message.contains("first is on line 1"),
            "{}",
            diagnostics[0].message
        );
    }

    #[test]
    fn human_verdicts_are_pass_or_fail_with_a_known_criterion_and_a_1_based_step() {
        let read = human(
            json!({"session_id": "s1", "step": 3, "criterion": "args_grounded",
            "verdict": "fail", "note": "the id is invented"}),
        )
        .unwrap();
        assert_eq!(
            (
                read.session_id.as_str(),
                read.step,
                read.criterion,
                read.verdict
            ),
            ("s1", 3, Criterion::ArgsGrounded, Outcome::Fail)
        );
        let numeric = human(
            json!({"session_id": 17, "step": 1, "criterion": "right_tool",
            "verdict": "pass"}),
        );
        assert_eq!(numeric.unwrap().session_id, "17");
        let error = |value: Value| human(value).unwrap_err();
        assert!(error(
            json!({"session_id": "s", "step": 1, "criterion": "right_tool",
            "verdict": "unscored"})
        )
        .contains("\"pass\" or \"fail\""));
        assert!(
            error(json!({"session_id": "s", "step": 1, "criterion": "needed",
            "verdict": "pass"}))
            .contains("unknown criterion \"needed\" (one of call_decision, right_tool")
        );
        assert!(error(
            json!({"session_id": "s", "step": 0, "criterion": "right_tool",
            "verdict": "pass"})
        )
        .contains("1-based"));
        assert!(error(
            json!({"session_id": "s", "step": "2", "criterion": "right_tool",
            "verdict": "pass"})
        )
        .contains("\"step\""));
        assert!(
            error(json!({"step": 1, "criterion": "right_tool", "verdict": "pass"}))
                .contains("session_id")
        );
        assert!(error(json!(["s", 1])).contains("not an object"));
    }

    #[test]
    fn a_repeated_human_verdict_is_replaced_by_the_later_line() {
        let text =
            br#"{"session_id": "s1", "step": 1, "criterion": "call_decision", "verdict": "pass"}
{"session_id": "s1", "step": 2, "criterion": "call_decision", "verdict": "pass"}
{"session_id": "s1", "step": 1, "criterion": "call_decision", "verdict": "fail"}
{"session_id": "s1", "step": 1, "criterion": "right_tool", "verdict": "pass"}
"#;
        let mut diagnostics = Vec::new();
        let verdicts = read_human_verdicts("h.jsonl", text, &mut diagnostics);
        let read: Vec<(usize, Criterion, Outcome, usize)> = verdicts
            .iter()
            .map(|verdict| {
                (
                    verdict.step,
                    verdict.criterion,
                    verdict.verdict,
                    verdict.origin.line,
                )
            })
            .collect();
        assert_eq!(
            read,
            [
                (1, Criterion::CallDecision, Outcome::Fail, 3),
                (2, Criterion::CallDecision, Outcome::Pass, 2),
                (1, Criterion::RightTool, Outcome::Pass, 4),
            ]
        );
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(
            diagnostics[0].to_string(),
            "h.jsonl:3: warning: a second verdict for s1 step 1 call_decision (the first is on \
             line 1); the later one is used"
        );
    }

    #[test]
    fn role_predicates_tell_judge_from_human_verdicts_and_from_other_inputs() {
        let judge =
            serde_json::to_value(verdict(1, Criterion::CallDecision, Outcome::Pass)).unwrap();
        let unscored =
            serde_json::to_value(verdict(1, Criterion::CallDecision, Outcome::Unscored)).unwrap();
        let person =
            json!({"session_id": "s1", "step": 1, "criterion": "call_decision", "verdict": "fail"});
        assert!(looks_like_verdicts(&judge) && !looks_like_human_verdicts(&judge));
        assert!(looks_like_verdicts(&unscored) && !looks_like_human_verdicts(&unscored));
        assert!(looks_like_human_verdicts(&person) && !looks_like_verdicts(&person));
        let others = [
            json!({"session_id": "s1", "expected_tool": "lookup_order"}),
            json!({"session_id": "s1", "events": [{"type": "user", "content": "hi"}]}),
            json!({"session_id": "s1", "step": 2, "tool": "f", "kind": "schema", "message": "x"}),
            json!({"session_id": "s1", "step": 1, "criterion": "vibes", "verdict": "pass"}),
            json!({"session_id": "s1", "step": 1, "criterion": "call_decision", "verdict": true}),
            json!({"key": "abc", "verdicts": []}),
            json!([person.clone()]),
            json!("pass"),
        ];
        for other in others {
            assert!(!looks_like_verdicts(&other), "{other}");
            assert!(!looks_like_human_verdicts(&other), "{other}");
        }
    }
}
