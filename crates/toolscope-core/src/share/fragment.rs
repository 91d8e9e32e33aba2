//! The keys of a link's fragment that say where the data is, beside the page's own keys for the
//! view and filters:
//!
//! - `data=1.…`: the inputs themselves ([`super::data_link`]);
//! - `src=URL`, repeatable, each optionally followed by `sha256=HEX` and `role=ROLE` that belong
//!   to it; a URL may name a file, a manifest or a sealed file;
//! - `key=KEY`: the key of the sealed files among the sources.
//!
//! The fragment is `application/x-www-form-urlencoded`, as the page's route is.

use url::form_urlencoded;

use crate::Role;

/// One hosted file a link names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedSource {
    /// The URL, as written in the link (maybe relative to the page).
    pub url: String,
    /// The digest the bytes must have.
    pub sha256: Option<String>,
    /// The role, when the link names one.
    pub role: Option<Role>,
}

/// Where a link's data is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SharedSource {
    /// In the link itself (the value after `data=`).
    Data(String),
    /// In hosted files.
    Hosted {
        /// The files, in order.
        sources: Vec<HostedSource>,
        /// The key of sealed files, as written in the link.
        key: Option<String>,
    },
}

/// Where the data of the link with this fragment (with or without its `#`) is, if it says.
pub fn parse(fragment: &str) -> Option<SharedSource> {
    let text = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut data = None;
    let mut sources: Vec<HostedSource> = Vec::new();
    let mut key = None;
    for (name, value) in form_urlencoded::parse(text.as_bytes()) {
        match name.as_ref() {
            "data" if !value.is_empty() => data = Some(value.into_owned()),
            "src" if !value.is_empty() => sources.push(HostedSource {
                url: value.into_owned(),
                sha256: None,
                role: None,
            }),
            "sha256" => {
                if let Some(source) = sources.last_mut() {
                    source.sha256 = Some(value.into_owned());
                }
            }
            "role" => {
                if let Some(source) = sources.last_mut() {
                    source.role = parse_role(&value);
                }
            }
            "key" if !value.is_empty() => key = Some(value.into_owned()),
            _ => {}
        }
    }
    match data {
        Some(data) => Some(SharedSource::Data(data)),
        None if !sources.is_empty() => Some(SharedSource::Hosted { sources, key }),
        None => None,
    }
}

/// The key-value pairs that say where the data is, in the order [`parse`] reads them.
pub fn pairs(source: &SharedSource) -> Vec<(&'static str, String)> {
    match source {
        SharedSource::Data(data) => vec![("data", data.clone())],
        SharedSource::Hosted { sources, key } => {
            let mut out = Vec::new();
            for source in sources {
                out.push(("src", source.url.clone()));
                if let Some(sha256) = &source.sha256 {
                    out.push(("sha256", sha256.clone()));
                }
                if let Some(role) = source.role {
                    out.push(("role", role_name(role).to_string()));
                }
            }
            if let Some(key) = key {
                out.push(("key", key.clone()));
            }
            out
        }
    }
}

/// The fragment (with its `#`) for a source alone.
pub fn to_fragment(source: &SharedSource) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs(source) {
        out.append_pair(name, &value);
    }
    format!("#{}", out.finish())
}

/// A role as links and manifests name it (`traces`, `catalog`, `rules`, `labels`, …).
pub fn role_name(role: Role) -> &'static str {
    role.as_str()
}

fn parse_role(text: &str) -> Option<Role> {
    Role::from_name(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosted_sources_keep_their_digests_roles_and_key() {
        let source = SharedSource::Hosted {
            sources: vec![
                HostedSource {
                    url: "https://h/a b.jsonl?x=1&y=2".into(),
                    sha256: Some("ab".repeat(32)),
                    role: Some(Role::Traces),
                },
                HostedSource {
                    url: "labels.jsonl".into(),
                    sha256: None,
                    role: Some(Role::Labels),
                },
            ],
            key: Some("k".repeat(43)),
        };
        assert_eq!(parse(&to_fragment(&source)), Some(source));
    }

    #[test]
    fn a_data_value_survives_and_wins_over_sources() {
        let source = SharedSource::Data("1.abc-_".into());
        assert_eq!(parse(&to_fragment(&source)), Some(source.clone()));
        assert_eq!(parse("#src=https://h/x&data=1.abc-_"), Some(source));
    }

    #[test]
    fn the_page_keys_are_left_alone_and_a_plain_route_has_no_source() {
        assert_eq!(parse("#view=selection&agent=a"), None);
        assert_eq!(parse(""), None);
        let Some(SharedSource::Hosted { sources, key }) =
            parse("#view=problems&src=x.jsonl&sha256=00&tool=t")
        else {
            panic!("a source");
        };
        assert_eq!(sources[0].sha256.as_deref(), Some("00"));
        assert_eq!(key, None);
    }

    #[test]
    fn a_digest_before_any_source_belongs_to_none() {
        let Some(SharedSource::Hosted { sources, .. }) = parse("sha256=aa&src=x") else {
            panic!("a source");
        };
        assert_eq!(sources[0].sha256, None);
    }
}
