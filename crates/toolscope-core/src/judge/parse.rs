//! The tolerant parser: a verdict out of whatever text or JSON the model gave.
//!
//! Text is tried whole, then inside each Markdown code fence, then from its first `{` to its
//! last `}` (the first seed's `parse_json` rule), so prose around the JSON does no harm. Two
//! shapes are read:
//! - the structured shape the prompt asks for: per criterion an object with `verdict`
//!   (`"pass"`/`"fail"`, any case, or `true`/`false`), `reason` and `evidence` (a list of
//!   `{quote, event}`, or of plain strings, or one string);
//! - the seed's flat shape: `{"call_decision": true, …, "evidence": "…"}`, where each criterion
//!   is `true`/`false` (or `"pass"`/`"fail"`) and the top-level `evidence` sentence becomes every
//!   criterion's reason (it is a summary, not a quote, so it is not checked as one).
//!
//! Anything else (not JSON, a criterion missing, a criterion that is not a verdict) is a parse
//! error for the whole answer, as the seed returns `None`: a half-read verdict is not trusted.

use serde_json::Value;

use super::answer::CriterionAnswer;
use super::{Criterion, Evidence, Outcome};

/// Evidence items kept per criterion; the rest are dropped (so at most 32 per answer are
/// checked against the session).
pub const MAX_EVIDENCE_PER_CRITERION: usize = 8;

/// Characters of a reason kept; a longer one is cut and ends with `…`.
pub const MAX_REASON_CHARS: usize = 1_000;

/// The verdicts in a text answer, or why it cannot be read.
pub fn parse_verdict_text(text: &str) -> Result<Vec<CriterionAnswer>, String> {
    let mut error = "the answer holds no JSON object".to_string();
    for candidate in candidates(text) {
        match serde_json::from_str::<Value>(candidate) {
            Ok(value) => match parse_verdict_value(&value) {
                Ok(criteria) => return Ok(criteria),
                Err(reason) => error = reason,
            },
            Err(json_error) => {
                if error.starts_with("the answer holds no JSON") {
                    error = format!("the answer is not valid JSON ({json_error})");
                }
            }
        }
    }
    Err(error)
}

/// The verdicts in a JSON value (a tool call's input, or parsed text), or why it is not one.
pub fn parse_verdict_value(value: &Value) -> Result<Vec<CriterionAnswer>, String> {
    let Some(object) = value.as_object() else {
        return Err("the answer is JSON but not an object".to_string());
    };
    let flat_reason = match object.get("evidence") {
        Some(Value::String(text)) => text.clone(),
        _ => String::new(),
    };
    let mut criteria = Vec::with_capacity(Criterion::ALL.len());
    for criterion in Criterion::ALL {
        let name = criterion.as_str();
        let Some(entry) = object.get(name) else {
            return Err(format!("the answer has no verdict for {name}"));
        };
        let answer = match entry {
            Value::Object(fields) => {
                let outcome = fields
                    .get("verdict")
                    .and_then(outcome_of)
                    .ok_or_else(|| format!("{name}: \"verdict\" is not \"pass\" or \"fail\""))?;
                let reason = match fields.get("reason") {
                    Some(Value::String(text)) => text.clone(),
                    _ => String::new(),
                };
                let evidence = fields.get("evidence").map(evidence_of).unwrap_or_default();
                CriterionAnswer {
                    criterion,
                    outcome,
                    cause: None,
                    reason: cut_reason(&reason),
                    evidence,
                }
            }
            flat => CriterionAnswer {
                criterion,
                outcome: outcome_of(flat)
                    .ok_or_else(|| format!("{name} is not a verdict (pass or fail)"))?,
                cause: None,
                reason: cut_reason(&flat_reason),
                evidence: Vec::new(),
            },
        };
        criteria.push(answer);
    }
    Ok(criteria)
}

/// The places in `text` a JSON verdict may be, most likely first.
fn candidates(text: &str) -> Vec<&str> {
    let mut found = vec![text.trim()];
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        // The fence's info string (`json`, `JSON`, nothing) runs to the end of its line.
        let body_start = after.find('\n').map_or(after.len(), |at| at + 1);
        let body = &after[body_start..];
        let Some(close) = body.find("```") else {
            found.push(body.trim());
            break;
        };
        found.push(body[..close].trim());
        rest = &body[close + 3..];
    }
    if let (Some(start), Some(end)) = (text.find('{'), text.rfind('}')) {
        if start < end {
            found.push(&text[start..=end]);
        }
    }
    found
}

fn outcome_of(value: &Value) -> Option<Outcome> {
    match value {
        Value::Bool(true) => Some(Outcome::Pass),
        Value::Bool(false) => Some(Outcome::Fail),
        Value::String(text) => match text.trim().to_ascii_lowercase().as_str() {
            "pass" => Some(Outcome::Pass),
            "fail" => Some(Outcome::Fail),
            _ => None,
        },
        _ => None,
    }
}

fn evidence_of(value: &Value) -> Vec<Evidence> {
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        Value::String(_) | Value::Object(_) => vec![value],
        _ => Vec::new(),
    };
    items
        .into_iter()
        .filter_map(|item| match item {
            Value::String(quote) => Some(Evidence {
                quote: quote.clone(),
                event: None,
            }),
            Value::Object(fields) => {
                let quote = fields.get("quote")?.as_str()?.to_string();
                let event = match fields.get("event") {
                    Some(Value::Number(number)) => {
                        number.as_u64().and_then(|n| usize::try_from(n).ok())
                    }
                    Some(Value::String(text)) => text.trim().parse().ok(),
                    _ => None,
                };
                Some(Evidence { quote, event })
            }
            _ => None,
        })
        .take(MAX_EVIDENCE_PER_CRITERION)
        .collect()
}

fn cut_reason(reason: &str) -> String {
    let reason = reason.trim();
    if reason.chars().count() <= MAX_REASON_CHARS {
        return reason.to_string();
    }
    let mut cut: String = reason.chars().take(MAX_REASON_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The first seed's example answer.
    const SEED_ANSWER: &str = r#"{"call_decision": true, "right_tool": false, "args_grounded": true, "result_used": true, "evidence": "used search_docs where lookup_order returns the order directly"}"#;

    fn outcomes(criteria: &[CriterionAnswer]) -> Vec<(Criterion, Outcome)> {
        criteria
            .iter()
            .map(|answer| (answer.criterion, answer.outcome))
            .collect()
    }

    fn seed_outcomes() -> Vec<(Criterion, Outcome)> {
        vec![
            (Criterion::CallDecision, Outcome::Pass),
            (Criterion::RightTool, Outcome::Fail),
            (Criterion::ArgsGrounded, Outcome::Pass),
            (Criterion::ResultUsed, Outcome::Pass),
        ]
    }

    #[test]
    fn the_seed_answer_reads_alone_in_prose_and_in_a_code_fence() {
        for text in [
            SEED_ANSWER.to_string(),
            format!(
                "Here is my assessment of the agent:\n{SEED_ANSWER}\nLet me know if you need more."
            ),
            format!("Sure.\n\n```json\n{SEED_ANSWER}\n```\n"),
            format!("```\n{SEED_ANSWER}\n```"),
            format!("```JSON\n{SEED_ANSWER}"),
        ] {
            let criteria =
                parse_verdict_text(&text).unwrap_or_else(|error| panic!("{error}: {text}"));
            assert_eq!(outcomes(&criteria), seed_outcomes(), "{text}");
            for answer in &criteria {
                assert_eq!(
                    answer.reason,
                    "used search_docs where lookup_order returns the order directly"
                );
                assert!(answer.evidence.is_empty());
                assert_eq!(answer.cause, None);
            }
        }
    }

    #[test]
    fn the_structured_shape_reads_with_reasons_and_quotes() {
        let value = json!({
            "call_decision": {"verdict": "pass", "reason": "Needed the order.", "evidence": [{"quote": "where is my order", "event": 0}]},
            "right_tool": {"verdict": "FAIL", "reason": "Wrong tool.", "evidence": ["search_docs"]},
            "args_grounded": {"verdict": true, "reason": "From the user.", "evidence": [{"quote": "7Q2ZK9XA", "event": "2"}]},
            "result_used": {"verdict": "fail", "reason": "Ignored the error.", "evidence": "on its way"}
        });
        let criteria = parse_verdict_value(&value).unwrap();
        assert_eq!(
            outcomes(&criteria),
            [
                (Criterion::CallDecision, Outcome::Pass),
                (Criterion::RightTool, Outcome::Fail),
                (Criterion::ArgsGrounded, Outcome::Pass),
                (Criterion::ResultUsed, Outcome::Fail),
            ]
        );
        assert_eq!(criteria[0].reason, "Needed the order.");
        assert_eq!(
            criteria[0].evidence,
            [Evidence {
                quote: "where is my order".into(),
                event: Some(0)
            }]
        );
        assert_eq!(criteria[1].evidence[0].event, None);
        assert_eq!(criteria[2].evidence[0].event, Some(2));
        assert_eq!(criteria[3].evidence[0].quote, "on its way");
    }

    #[test]
    fn a_missing_or_unreadable_criterion_fails_the_whole_answer() {
        let missing = r#"{"call_decision": true, "right_tool": true, "args_grounded": true}"#;
        assert_eq!(
            parse_verdict_text(missing).unwrap_err(),
            "the answer has no verdict for result_used"
        );
        let maybe = r#"{"call_decision": true, "right_tool": "maybe", "args_grounded": true, "result_used": true}"#;
        assert!(parse_verdict_text(maybe)
            .unwrap_err()
            .contains("right_tool"));
        let no_verdict = json!({
            "call_decision": {"reason": "x"}, "right_tool": true, "args_grounded": true, "result_used": true
        });
        assert!(parse_verdict_value(&no_verdict)
            .unwrap_err()
            .contains("call_decision: \"verdict\""));
        for text in ["", "I cannot judge this.", "{not json}", "[1, 2]", "}{"] {
            assert!(parse_verdict_text(text).is_err(), "{text}");
        }
        assert!(parse_verdict_text("{oops")
            .unwrap_err()
            .contains("not valid JSON"));
    }

    #[test]
    fn evidence_and_reasons_are_bounded() {
        let many: Vec<Value> = (0..50)
            .map(|n| json!({"quote": format!("q{n}"), "event": n}))
            .collect();
        let entry = json!({"verdict": "pass", "reason": "r".repeat(5_000), "evidence": many});
        let value = json!({
            "call_decision": entry, "right_tool": entry, "args_grounded": entry, "result_used": entry
        });
        let criteria = parse_verdict_value(&value).unwrap();
        for answer in criteria {
            assert_eq!(answer.evidence.len(), MAX_EVIDENCE_PER_CRITERION);
            assert_eq!(answer.reason.chars().count(), MAX_REASON_CHARS);
            assert!(answer.reason.ends_with('…'));
        }
    }

    #[test]
    fn a_later_fence_is_read_when_an_earlier_one_is_not_a_verdict() {
        let text = format!(
            "Input was:\n```json\n{{\"order_id\": 1}}\n```\nVerdict:\n```json\n{SEED_ANSWER}\n```"
        );
        assert_eq!(
            outcomes(&parse_verdict_text(&text).unwrap()),
            seed_outcomes()
        );
    }
}
