//! Where the user is: the view, the filters, the session or confusion cell opened, kept in the
//! URL's fragment (`#view=selection&agent=bot-1&cell=lookup_order~issue_refund`) so that a reload
//! or a copied link returns to the same place. The fragment works under any base path and never
//! reaches a server.

use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::share::fragment::{self, SharedSource};
use toolscope_core::Filter;

/// The views of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// Headline numbers.
    #[default]
    Overview,
    /// Every problem in a table.
    Problems,
    /// Tool selection against labels.
    Selection,
    /// One session's events.
    Session,
    /// A judge's verdicts, when a verdicts file was given.
    Judge,
    /// Two parts of the run compared (agents against each other), and every metric per agent.
    Compare,
    /// Problems with the input files.
    Inputs,
}

impl View {
    /// Every view, in tab order.
    pub const ALL: [View; 7] = [
        View::Overview,
        View::Problems,
        View::Selection,
        View::Session,
        View::Judge,
        View::Compare,
        View::Inputs,
    ];

    /// The name in the URL.
    pub fn as_str(self) -> &'static str {
        match self {
            View::Overview => "overview",
            View::Problems => "problems",
            View::Selection => "selection",
            View::Session => "session",
            View::Judge => "judge",
            View::Compare => "compare",
            View::Inputs => "inputs",
        }
    }

    /// The tab's label.
    pub fn title(self) -> &'static str {
        match self {
            View::Overview => "Overview",
            View::Problems => "Problems",
            View::Selection => "Selection",
            View::Session => "Session",
            View::Judge => "Judge",
            View::Compare => "Compare",
            View::Inputs => "Inputs",
        }
    }

    fn parse(text: &str) -> Option<View> {
        View::ALL.into_iter().find(|view| view.as_str() == text)
    }
}

/// The heatmap's scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// Turn counts.
    #[default]
    Counts,
    /// Each row's counts as shares of the row.
    RowShares,
}

/// Everything the URL holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Route {
    /// The view shown.
    pub view: View,
    /// The filters, applied to every view.
    pub filter: Filter,
    /// The session opened in the session view.
    pub session_id: Option<String>,
    /// The call brought into view in the opened session: its step.
    pub step: Option<usize>,
    /// The comparison chosen: (base, current), each an agent or `*` for every session.
    pub compare: Option<(String, String)>,
    /// The confusion cell opened: (expected, actual).
    pub cell: Option<(String, String)>,
    /// The heatmap's scale.
    pub scale: Scale,
    /// Whether the built-in demo data is loaded (so a reload loads it again).
    pub is_demo: bool,
    /// Where the data is when it came from a link (the data itself, or hosted files), so a
    /// reload or a copied link opens it again. Cleared when the user changes the files.
    pub shared: Option<SharedSource>,
}

impl Route {
    /// Reads a fragment (with or without the leading `#`); unknown keys and values are ignored.
    pub fn parse(fragment: &str) -> Route {
        let mut route = Route {
            shared: fragment::parse(fragment),
            ..Route::default()
        };
        let text = fragment.strip_prefix('#').unwrap_or(fragment);
        for (key, value) in form_urlencoded::parse(text.as_bytes()) {
            let value = value.into_owned();
            match key.as_ref() {
                "view" => route.view = View::parse(&value).unwrap_or_default(),
                "agent" if !value.is_empty() => route.filter.agent = Some(value),
                "tool" if !value.is_empty() => route.filter.tool = Some(value),
                "kind" => route.filter.kind = parse_kind(&value),
                "session" if !value.is_empty() => route.session_id = Some(value),
                "compare" => {
                    route.compare = value
                        .split_once('~')
                        .map(|(base, current)| (base.to_string(), current.to_string()))
                }
                "call" => route.step = value.parse().ok().filter(|step| *step > 0),
                "cell" => {
                    route.cell = value
                        .split_once('~')
                        .map(|(expected, actual)| (expected.to_string(), actual.to_string()))
                }
                "scale" => {
                    route.scale = if value == "rows" {
                        Scale::RowShares
                    } else {
                        Scale::Counts
                    }
                }
                "demo" => route.is_demo = value == "1",
                _ => {}
            }
        }
        route
    }

    /// The fragment for this route, with the leading `#`; defaults are left out.
    pub fn to_fragment(&self) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        if let Some(shared) = &self.shared {
            for (key, value) in fragment::pairs(shared) {
                out.append_pair(key, &value);
            }
        }
        if self.view != View::Overview {
            out.append_pair("view", self.view.as_str());
        }
        if let Some(agent) = &self.filter.agent {
            out.append_pair("agent", agent);
        }
        if let Some(tool) = &self.filter.tool {
            out.append_pair("tool", tool);
        }
        if let Some(kind) = self.filter.kind {
            out.append_pair("kind", kind.as_str());
        }
        if let Some(session_id) = &self.session_id {
            out.append_pair("session", session_id);
            if let Some(step) = self.step {
                out.append_pair("call", &step.to_string());
            }
        }
        if let Some((base, current)) = &self.compare {
            out.append_pair("compare", &format!("{base}~{current}"));
        }
        if let Some((expected, actual)) = &self.cell {
            out.append_pair("cell", &format!("{expected}~{actual}"));
        }
        if self.scale == Scale::RowShares {
            out.append_pair("scale", "rows");
        }
        if self.is_demo {
            out.append_pair("demo", "1");
        }
        format!("#{}", out.finish())
    }
}

fn parse_kind(text: &str) -> Option<ProblemKind> {
    ProblemKind::ALL
        .into_iter()
        .find(|kind| kind.as_str() == text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_survives_a_round_trip_through_the_fragment() {
        let route = Route {
            view: View::Selection,
            filter: Filter {
                agent: Some("bot 1&2".into()),
                tool: Some("issue_refund".into()),
                kind: Some(ProblemKind::RetryAfterError),
            },
            session_id: Some("s#2".into()),
            step: Some(3),
            compare: Some(("support-v1".into(), "*".into())),
            cell: Some(("lookup_order".into(), "none".into())),
            scale: Scale::RowShares,
            is_demo: true,
            shared: None,
        };
        assert_eq!(Route::parse(&route.to_fragment()), route);
    }

    #[test]
    fn where_the_data_is_survives_beside_the_view() {
        use toolscope_core::share::fragment::HostedSource;
        for shared in [
            SharedSource::Data("1.abc-_".into()),
            SharedSource::Hosted {
                sources: vec![HostedSource {
                    url: "data/run.tsenc".into(),
                    sha256: Some("0".repeat(64)),
                    role: None,
                }],
                key: Some("k".repeat(43)),
            },
        ] {
            let route = Route {
                view: View::Selection,
                cell: Some(("a".into(), "b".into())),
                shared: Some(shared),
                ..Route::default()
            };
            let fragment = route.to_fragment();
            assert_eq!(Route::parse(&fragment), route, "{fragment}");
        }
    }

    #[test]
    fn the_default_route_is_an_empty_fragment() {
        assert_eq!(Route::default().to_fragment(), "#");
        assert_eq!(Route::parse(""), Route::default());
        assert_eq!(Route::parse("#"), Route::default());
    }

    #[test]
    fn unknown_keys_and_values_fall_back_to_defaults() {
        let route = Route::parse("#view=nope&kind=bogus&x=1&agent=a");
        assert_eq!(route.view, View::Overview);
        assert_eq!(route.filter.kind, None);
        assert_eq!(route.filter.agent.as_deref(), Some("a"));
    }
}
