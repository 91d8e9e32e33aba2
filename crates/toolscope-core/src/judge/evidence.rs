//! Evidence: every quote the judge gives must be in the session, or its verdict is not trusted.
//!
//! A quote is looked for in the text of the session's events: user and assistant messages, a
//! call's tool name and its arguments as JSON text, a result's content. Both sides are compared
//! after folding case, turning runs of whitespace into one space and typographic quotes into
//! plain ones (models often "correct" them); in call arguments, whitespace is ignored
//! altogether, since JSON may be written with or without spaces. The event the judge names is
//! searched first, then every event; the event where the quote is found is recorded in
//! [`Evidence::event`](super::Evidence::event), replacing the judge's number.
//!
//! A quote found nowhere makes its criterion unscored with cause
//! [`EvidenceMismatch`](super::UnscoredCause::EvidenceMismatch): a verdict resting on text that
//! is not there cannot be trusted. Empty quotes are dropped.
//!
//! The work is bounded: at most [`MAX_EVIDENCE_ITEMS`] quotes per answer are checked (the parser
//! already keeps at most 8 per criterion, so 32 in all; any past the cap are dropped), and a
//! quote longer than [`MAX_QUOTE_CHARS`] counts as not found. So an answer costs at most 32
//! searches through the session's text, which is normalised once, when first needed.

use super::answer::CriterionAnswer;
use super::prompt::args_text;
use super::{Outcome, UnscoredCause};
use crate::model::{Args, Event, Session};
use std::ops::Range;

/// The longest quote checked, in characters; a longer one counts as not found.
pub const MAX_QUOTE_CHARS: usize = 2_000;

/// The most quotes checked per answer; the rest are dropped.
pub const MAX_EVIDENCE_ITEMS: usize = 32;

/// Characters of a missing quote shown in the reason.
pub const MAX_SHOWN_QUOTE_CHARS: usize = 120;

/// Checks every quote in `criteria` against `session`, sets each found quote's event, and makes
/// a criterion with a quote found nowhere unscored (`evidence_mismatch`). True when every quote
/// was found.
pub fn check_evidence(session: &Session, criteria: &mut [CriterionAnswer]) -> bool {
    let mut texts = EventTexts::new(session);
    let mut checked = 0;
    let mut is_all_found = true;
    for answer in criteria.iter_mut() {
        answer.evidence.retain(|item| !item.quote.trim().is_empty());
        let room = MAX_EVIDENCE_ITEMS.saturating_sub(checked);
        answer.evidence.truncate(room);
        checked += answer.evidence.len();
        let mut missing: Option<String> = None;
        for item in &mut answer.evidence {
            let found = if item.quote.chars().count() > MAX_QUOTE_CHARS {
                None
            } else {
                texts.find(&item.quote, item.event)
            };
            item.event = found;
            if found.is_none() && missing.is_none() {
                missing = Some(item.quote.clone());
            }
        }
        if let Some(quote) = missing {
            is_all_found = false;
            let judge_reason = if answer.reason.is_empty() {
                String::new()
            } else {
                format!(" (the judge's reason: {})", answer.reason)
            };
            answer.outcome = Outcome::Unscored;
            answer.cause = Some(UnscoredCause::EvidenceMismatch);
            answer.reason = format!(
                "the evidence \"{}\" is not in the session, so the verdict is not trusted{judge_reason}",
                shown_quote(&quote)
            );
        }
    }
    is_all_found
}

/// The searchable text of each event, normalised when first needed.
struct EventTexts<'a> {
    session: &'a Session,
    cache: Vec<Option<Vec<Searchable>>>,
}

/// One searchable text of an event.
struct Searchable {
    /// Case folded, whitespace runs made one space.
    text: String,
    /// For JSON text: also without any whitespace.
    squeezed: Option<String>,
}

impl<'a> EventTexts<'a> {
    fn new(session: &'a Session) -> Self {
        EventTexts {
            session,
            cache: (0..session.events.len()).map(|_| None).collect(),
        }
    }

    /// The event holding `quote`: the named one if it does, else the first that does.
    fn find(&mut self, quote: &str, named: Option<usize>) -> Option<usize> {
        let normal = normalise(quote);
        if normal.is_empty() {
            return None;
        }
        let squeezed = squeeze(&normal);
        let named = named.filter(|&index| index < self.session.events.len());
        let order = named
            .into_iter()
            .chain((0..self.session.events.len()).filter(|&index| Some(index) != named));
        for index in order {
            let holds = self.texts(index).iter().any(|searchable| {
                searchable.text.contains(&normal)
                    || searchable
                        .squeezed
                        .as_ref()
                        .is_some_and(|text| text.contains(&squeezed))
            });
            if holds {
                return Some(index);
            }
        }
        None
    }

    fn texts(&mut self, index: usize) -> &[Searchable] {
        let session = self.session;
        self.cache[index].get_or_insert_with(|| {
            let plain = |text: &str| Searchable {
                text: normalise(text),
                squeezed: None,
            };
            match &session.events[index] {
                Event::User { content } | Event::Assistant { content } => vec![plain(content)],
                Event::ToolUse(call) => {
                    let arguments = match &call.args {
                        Args::Json(value) => args_text(value),
                        Args::Malformed { raw, .. } => raw.clone(),
                    };
                    let text = normalise(&arguments);
                    let squeezed = Some(squeeze(&text));
                    vec![plain(&call.name), Searchable { text, squeezed }]
                }
                Event::ToolResult(result) => {
                    vec![plain(result.content.as_deref().unwrap_or_default())]
                }
            }
        })
    }
}

/// Where `quote` is in `text`, as the evidence check finds it (folding case, whitespace runs and
/// typographic quotes; with `is_json`, ignoring whitespace altogether): the byte ranges in
/// `text` of every match, in order, not overlapping. For showing a judge's evidence highlighted
/// in the event it comes from; empty when the quote is not there (or is empty, or is longer than
/// [`MAX_QUOTE_CHARS`]). At most [`MAX_QUOTE_MATCHES`] ranges. To look for several quotes in one
/// text, fold it once with [`FoldedText`].
pub fn quote_ranges(text: &str, quote: &str, is_json: bool) -> Vec<Range<usize>> {
    FoldedText::new(text, is_json).find(quote)
}

/// The most ranges [`quote_ranges`] gives for one quote.
pub const MAX_QUOTE_MATCHES: usize = 100;

/// A text folded as the evidence check folds it, remembering where each folded byte comes from,
/// so quotes found in it can be pointed at in the original text.
pub struct FoldedText {
    folded: String,
    /// For every byte of `folded`, the range of the original text it comes from.
    origins: Vec<Range<usize>>,
    is_json: bool,
}

impl FoldedText {
    /// Folds `text` (with `is_json`, whitespace is dropped instead of collapsed).
    pub fn new(text: &str, is_json: bool) -> FoldedText {
        let (folded, origins) = folded_with_origins(text, is_json);
        FoldedText {
            folded,
            origins,
            is_json,
        }
    }

    /// The byte ranges of the original text where `quote` is (see [`quote_ranges`]).
    pub fn find(&self, quote: &str) -> Vec<Range<usize>> {
        if quote.chars().count() > MAX_QUOTE_CHARS {
            return Vec::new();
        }
        let mut needle = normalise(quote);
        if self.is_json {
            needle = squeeze(&needle);
        }
        if needle.is_empty() {
            return Vec::new();
        }
        self.folded
            .match_indices(&needle)
            .take(MAX_QUOTE_MATCHES)
            .map(|(at, _)| self.origins[at].start..self.origins[at + needle.len() - 1].end)
            .collect()
    }
}

/// `text` folded as [`normalise`] does (whitespace dropped instead of collapsed when
/// `is_squeezed`), with, for every byte of the folded text, the range of `text` it comes from.
fn folded_with_origins(text: &str, is_squeezed: bool) -> (String, Vec<Range<usize>>) {
    let mut out = String::with_capacity(text.len());
    let mut origins: Vec<Range<usize>> = Vec::with_capacity(text.len());
    let mut pending_space: Option<Range<usize>> = None;
    for (at, c) in text.char_indices() {
        let here = at..at + c.len_utf8();
        if c.is_whitespace() {
            if !is_squeezed && !out.is_empty() {
                pending_space =
                    Some(pending_space.map_or(here.clone(), |space| space.start..here.end));
            }
            continue;
        }
        if let Some(space) = pending_space.take() {
            out.push(' ');
            origins.push(space);
        }
        let plain = match c {
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201F}' | '\u{2033}' => '"',
            other => other,
        };
        for folded in plain.to_lowercase() {
            out.push(folded);
            origins.extend(std::iter::repeat_n(here.clone(), folded.len_utf8()));
        }
    }
    (out, origins)
}

/// Case folded, typographic quotes made plain, whitespace runs made one space, trimmed.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut is_space_pending = false;
    for c in text.chars() {
        if c.is_whitespace() {
            is_space_pending = !out.is_empty();
            continue;
        }
        if is_space_pending {
            out.push(' ');
            is_space_pending = false;
        }
        let plain = match c {
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201F}' | '\u{2033}' => '"',
            other => other,
        };
        out.extend(plain.to_lowercase());
    }
    out
}

fn squeeze(normal: &str) -> String {
    normal.chars().filter(|c| *c != ' ').collect()
}

fn shown_quote(quote: &str) -> String {
    let clean: String = quote
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if clean.chars().count() <= MAX_SHOWN_QUOTE_CHARS {
        return clean;
    }
    let mut cut: String = clean.chars().take(MAX_SHOWN_QUOTE_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Criterion, Evidence};
    use crate::model::{ResultStatus, ToolCall, ToolResult};
    use serde_json::json;

    fn session() -> Session {
        Session {
            events: vec![
                Event::User {
                    content: "Where is   my order\n7Q2ZK9XA? I'd like it soon.".into(),
                },
                Event::ToolUse(ToolCall {
                    call_id: None,
                    name: "lookup_order".into(),
                    args: Args::Json(json!({"order_id": "7Q2ZK9XA"})),
                }),
                Event::ToolResult(ToolResult {
                    call_id: None,
                    status: ResultStatus::Error,
                    content: Some("Order not found".into()),
                    error_source: None,
                    is_status_inferred: false,
                }),
                Event::Assistant {
                    content: "Your order is on its way!".into(),
                },
            ],
            ..Session::default()
        }
    }

    fn answer(criterion: Criterion, quotes: &[(&str, Option<usize>)]) -> CriterionAnswer {
        CriterionAnswer {
            criterion,
            outcome: Outcome::Fail,
            cause: None,
            reason: "The reply ignores the error.".into(),
            evidence: quotes
                .iter()
                .map(|(quote, event)| Evidence {
                    quote: quote.to_string(),
                    event: *event,
                })
                .collect(),
        }
    }

    #[test]
    fn quotes_are_found_across_case_whitespace_and_typographic_quotes() {
        let mut criteria = vec![
            answer(
                Criterion::CallDecision,
                &[("where is my ORDER 7q2zk9xa", Some(0))],
            ),
            answer(Criterion::RightTool, &[("lookup_order", None)]),
            answer(
                Criterion::ArgsGrounded,
                &[(r#""order_id": "7Q2ZK9XA""#, Some(1))],
            ),
            answer(
                Criterion::ResultUsed,
                &[
                    ("Order not found", Some(2)),
                    ("on its way", Some(3)),
                    ("I’d like it", None),
                ],
            ),
        ];
        assert!(check_evidence(&session(), &mut criteria));
        let events: Vec<Vec<Option<usize>>> = criteria
            .iter()
            .map(|answer| answer.evidence.iter().map(|item| item.event).collect())
            .collect();
        assert_eq!(
            events,
            [
                vec![Some(0)],
                vec![Some(1)],
                vec![Some(1)],
                vec![Some(2), Some(3), Some(0)]
            ]
        );
        assert!(criteria
            .iter()
            .all(|answer| answer.outcome == Outcome::Fail && answer.cause.is_none()));
    }

    #[test]
    fn a_wrong_event_number_is_corrected_to_the_event_holding_the_quote() {
        let mut criteria = vec![
            answer(Criterion::ResultUsed, &[("Order not found", Some(3))]),
            answer(Criterion::RightTool, &[("on its way", Some(99))]),
        ];
        assert!(check_evidence(&session(), &mut criteria));
        assert_eq!(criteria[0].evidence[0].event, Some(2));
        assert_eq!(criteria[1].evidence[0].event, Some(3));
    }

    #[test]
    fn a_quote_found_nowhere_makes_only_its_criterion_unscored() {
        let invented = "The refund was issued";
        let mut criteria = vec![
            answer(
                Criterion::ResultUsed,
                &[("Order not found", Some(2)), (invented, Some(2))],
            ),
            answer(Criterion::RightTool, &[("lookup_order", Some(1))]),
        ];
        assert!(!check_evidence(&session(), &mut criteria));
        assert_eq!(criteria[0].outcome, Outcome::Unscored);
        assert_eq!(criteria[0].cause, Some(UnscoredCause::EvidenceMismatch));
        assert!(
            criteria[0]
                .reason
                .contains("\"The refund was issued\" is not in the session"),
            "{}",
            criteria[0].reason
        );
        assert!(criteria[0].reason.contains("The reply ignores the error."));
        assert_eq!(criteria[0].evidence[0].event, Some(2));
        assert_eq!(criteria[0].evidence[1].event, None);
        assert_eq!(criteria[1].outcome, Outcome::Fail);
        assert_eq!(criteria[1].cause, None);
    }

    #[test]
    fn empty_quotes_are_dropped_and_long_ones_are_not_found() {
        let mut criteria = vec![answer(
            Criterion::CallDecision,
            &[("", None), ("   ", Some(1))],
        )];
        assert!(check_evidence(&session(), &mut criteria));
        assert!(criteria[0].evidence.is_empty());
        assert_eq!(criteria[0].outcome, Outcome::Fail);

        let long_session = Session {
            events: vec![Event::User {
                content: "a".repeat(5_000),
            }],
            ..Session::default()
        };
        let long = "a".repeat(MAX_QUOTE_CHARS + 1);
        let mut criteria = vec![answer(Criterion::CallDecision, &[(&long, Some(0))])];
        assert!(!check_evidence(&long_session, &mut criteria));
        assert_eq!(criteria[0].cause, Some(UnscoredCause::EvidenceMismatch));
        let shown = criteria[0].reason.split('"').nth(1).unwrap();
        assert_eq!(shown.chars().count(), MAX_SHOWN_QUOTE_CHARS);
        assert!(shown.ends_with('…'));
    }

    #[test]
    fn at_most_the_cap_of_quotes_is_checked_per_answer() {
        let quotes: Vec<(&str, Option<usize>)> = (0..20).map(|_| ("lookup_order", None)).collect();
        let mut criteria = vec![
            answer(Criterion::CallDecision, &quotes),
            answer(Criterion::RightTool, &quotes),
            answer(Criterion::ResultUsed, &quotes),
        ];
        assert!(check_evidence(&session(), &mut criteria));
        let kept: usize = criteria.iter().map(|answer| answer.evidence.len()).sum();
        assert_eq!(kept, MAX_EVIDENCE_ITEMS);
        assert_eq!(criteria[2].evidence.len(), 0);
    }

    #[test]
    fn quote_ranges_point_at_the_original_text_across_folding() {
        let text = "Where is   my Order\n7Q2ZK9XA? I’d like it. my order, again";
        let ranges = quote_ranges(text, "my order 7q2zk9xa", false);
        assert_eq!(ranges.len(), 1);
        assert_eq!(&text[ranges[0].clone()], "my Order\n7Q2ZK9XA");
        let ranges = quote_ranges(text, "I'd like", false);
        assert_eq!(&text[ranges[0].clone()], "I’d like");
        let all: Vec<&str> = quote_ranges(text, "MY ORDER", false)
            .into_iter()
            .map(|range| &text[range])
            .collect();
        assert_eq!(all, ["my Order", "my order"]);
        assert!(quote_ranges(text, "refund", false).is_empty());
        assert!(quote_ranges(text, "  ", false).is_empty());
        assert!(quote_ranges(text, &"a".repeat(MAX_QUOTE_CHARS + 1), false).is_empty());
    }

    #[test]
    fn quote_ranges_in_pretty_json_ignore_whitespace() {
        let pretty = "{\n  \"order_id\": \"7Q2ZK9XA\",\n  \"reason\": \"late\"\n}";
        let ranges = quote_ranges(pretty, r#""order_id":"7Q2ZK9XA","reason""#, true);
        assert_eq!(
            &pretty[ranges[0].clone()],
            "\"order_id\": \"7Q2ZK9XA\",\n  \"reason\""
        );
        // A case-folding character that grows (İ lower-cases to two chars) maps back whole.
        let text = "İstanbul office";
        let ranges = quote_ranges(text, "i̇stanbul", false);
        assert_eq!(&text[ranges[0].clone()], "İstanbul");
    }

    #[test]
    fn quote_ranges_are_capped() {
        let text = "ab ".repeat(1_000);
        assert_eq!(quote_ranges(&text, "ab", false).len(), MAX_QUOTE_MATCHES);
    }

    #[test]
    fn normalising_folds_case_whitespace_and_quotes() {
        assert_eq!(normalise("  A\t\nB  “C”  "), "a b \"c\"");
        assert_eq!(normalise(""), "");
        assert_eq!(squeeze(&normalise(r#"{"a": 1}"#)), r#"{"a":1}"#);
    }
}
