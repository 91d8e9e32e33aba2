//! Fetching hosted files safely: which URLs the page may fetch, and what to tell the user when a
//! fetch fails. The page does the fetching (with no credentials, no cookies and a size cap); the
//! rules and the words are here so they are the same everywhere and tested as plain values.

use url::Url;

use super::{ShareError, MAX_HOSTED_BYTES};

/// The absolute URL to fetch for `text` (resolved against `base`, the page's or a manifest's
/// URL), or why it may not be fetched: only `https`, and plain `http` to this machine (local
/// servers and tests); never a URL with a user name or password in it.
pub fn resolve(text: &str, base: &str) -> Result<Url, ShareError> {
    let base = Url::parse(base).ok();
    let url = Url::options()
        .base_url(base.as_ref())
        .parse(text.trim())
        .map_err(|error| ShareError::BadUrl(format!("{}: not a URL ({error})", shown_url(text))))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ShareError::BadUrl(format!(
            "{}: has a user name or password in it; toolscope sends no credentials, so host the file where anyone with the link can read it",
            shown_url(text)
        )));
    }
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        _ => Err(ShareError::BadUrl(format!(
            "{}: not https; toolscope fetches only https URLs (and http on this machine, for local servers)",
            shown_url(url.as_str())
        ))),
    }
}

/// Whether a fetch that was redirected from `requested` to `landed` may be read: only when the
/// scheme did not change (an https link never ends on plain http).
pub fn check_redirect(requested: &Url, landed: &str) -> Result<(), ShareError> {
    let landed_scheme = landed.split(':').next().unwrap_or_default();
    if landed_scheme.eq_ignore_ascii_case(requested.scheme()) {
        Ok(())
    } else {
        Err(ShareError::BadUrl(format!(
            "{}: redirected to {}, another scheme; toolscope follows no such redirect",
            shown_url(requested.as_str()),
            shown_url(landed)
        )))
    }
}

/// What to tell the user about an HTTP status other than success.
pub fn status_message(url: &str, status: u16) -> String {
    let what = match status {
        404 | 410 => "not found: check the link, or whether the file was deleted".to_string(),
        401 | 403 => "refused: the file must be readable by anyone with the link (toolscope sends no credentials or cookies)".to_string(),
        429 => "the host is rate limiting; try again in a while".to_string(),
        500..=599 => "the host failed; try again later".to_string(),
        _ => "not a file toolscope can read".to_string(),
    };
    format!("{}: HTTP {status}, {what}", shown_url(url))
}

/// What to tell the user when a fetch failed without an HTTP status: the browser hides why, but
/// when a second request without CORS reached the host (`is_reachable`), the host is there and
/// did not allow this page to read the file.
pub fn network_message(url: &str, page_origin: &str, is_reachable: bool) -> String {
    if is_reachable {
        format!(
            "{}: the host does not let other pages read this file (CORS). It must answer with the header `Access-Control-Allow-Origin: *` (or `Access-Control-Allow-Origin: {page_origin}`); GitHub raw files, gists, GitHub Pages and most static hosts do.",
            shown_url(url)
        )
    } else {
        format!(
            "{}: could not be reached (offline, a wrong host name, or the host refused the connection)",
            shown_url(url)
        )
    }
}

/// What to tell the user when a download passed [`MAX_HOSTED_BYTES`] (or announced it would).
pub fn too_large_message(url: &str) -> String {
    format!(
        "{}: larger than {} MiB, the most toolscope downloads for one file; open it from disk instead",
        shown_url(url),
        MAX_HOSTED_BYTES >> 20
    )
}

/// The name a fetched file is shown by when nothing else names it: the last segment of its
/// URL's path, decoded (`download` when the path has none).
pub fn file_name(url: &Url) -> String {
    let segment = url
        .path_segments()
        .and_then(|mut segments| segments.next_back())
        .filter(|segment| !segment.is_empty())
        .unwrap_or("download");
    decoded_segment(segment)
}

/// A segment of a URL's path, percent-decoded (`+` stays `+`).
pub fn decoded_segment(segment: &str) -> String {
    url::form_urlencoded::parse(format!("n={}", segment.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, value)| value.into_owned())
        .unwrap_or_else(|| segment.to_string())
}

/// The URL as it goes into a message: cut to a readable length, control characters removed (the
/// page shows text only, but a message can also reach a console).
pub fn shown_url(url: &str) -> String {
    const MAX_CHARS: usize = 200;
    let mut out: String = url
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_CHARS)
        .collect();
    if url.chars().count() > MAX_CHARS {
        out.push('…');
    }
    out
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(address)) => address.is_loopback(),
        Some(url::Host::Ipv6(address)) => address.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "https://example.github.io/project/report/index.html";

    #[test]
    fn relative_urls_resolve_against_the_base() {
        assert_eq!(
            resolve("data/sessions.jsonl", PAGE).unwrap().as_str(),
            "https://example.github.io/project/report/data/sessions.jsonl"
        );
        assert_eq!(
            resolve("../other.jsonl", PAGE).unwrap().as_str(),
            "https://example.github.io/project/other.jsonl"
        );
    }

    #[test]
    fn only_https_and_loopback_http_are_fetched() {
        assert!(resolve("https://gist.githubusercontent.com/a/b/raw/x.jsonl", PAGE).is_ok());
        for local in [
            "http://127.0.0.1:8000/x",
            "http://localhost/x",
            "http://[::1]:9/x",
        ] {
            assert!(resolve(local, PAGE).is_ok(), "{local}");
        }
        for refused in [
            "http://example.com/x.jsonl",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "data:text/plain,hi",
            "ftp://example.com/x",
        ] {
            let Err(ShareError::BadUrl(message)) = resolve(refused, PAGE) else {
                panic!("{refused} must be refused");
            };
            assert!(message.contains("not https"), "{message}");
        }
    }

    #[test]
    fn urls_with_credentials_are_refused() {
        let error = resolve("https://user:secret@example.com/x", PAGE).unwrap_err();
        assert!(error.to_string().contains("no credentials"));
    }

    #[test]
    fn a_redirect_to_another_scheme_is_refused() {
        let url = resolve("https://example.com/x", PAGE).unwrap();
        assert!(check_redirect(&url, "https://cdn.example.com/y").is_ok());
        assert!(check_redirect(&url, "http://example.com/x").is_err());
    }

    #[test]
    fn messages_say_what_to_do() {
        assert!(status_message("https://h/x", 404).contains("HTTP 404, not found"));
        assert!(status_message("https://h/x", 403).contains("no credentials"));
        let cors = network_message("https://h/x", "https://me.github.io", true);
        assert!(cors.contains("Access-Control-Allow-Origin: *"));
        assert!(cors.contains("https://me.github.io"));
        assert!(network_message("https://h/x", "o", false).contains("could not be reached"));
        assert!(too_large_message("https://h/x").contains("512 MiB"));
    }

    #[test]
    fn urls_in_messages_are_cut_and_lose_control_characters() {
        let long = format!("https://h/{}\u{1b}[31m", "a".repeat(500));
        let message = status_message(&long, 500);
        assert!(!message.contains('\u{1b}'));
        assert!(message.chars().count() < 300);
    }

    #[test]
    fn a_fetched_file_is_named_by_its_urls_last_segment_decoded() {
        let name = |text: &str| file_name(&Url::parse(text).unwrap());
        assert_eq!(name("https://h/run/my%20run+1.jsonl"), "my run+1.jsonl");
        assert_eq!(name("https://h/run/"), "download");
        assert_eq!(name("https://h"), "download");
    }
}
