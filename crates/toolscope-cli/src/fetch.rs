//! Fetching hosted files for `toolscope open` as the page fetches them: a plain GET with no
//! cookies, credentials or referrer, redirects followed but a change of scheme refused
//! (`share::hosted::check_redirect`), and at most [`MAX_HOSTED_BYTES`] read per file. Which URLs
//! may be fetched and every message are the core's (`toolscope_core::share::hosted`).

use std::time::Duration;

use toolscope_core::share::{hosted, MAX_HOSTED_BYTES};
use url::Url;

/// A blocking client for hosted files.
pub struct Fetcher {
    agent: ureq::Agent,
}

/// A fetched file: the URL it ended at (after redirects) and its bytes.
pub struct Fetched {
    pub url: String,
    pub bytes: Vec<u8>,
}

/// The most redirects followed for one file.
const MAX_REDIRECTS: usize = 10;

impl Fetcher {
    pub fn new() -> Fetcher {
        // Redirects are followed here, hop by hop, so that a hop to another scheme (or to a URL
        // the page would not fetch) is refused before it is requested.
        let config = ureq::Agent::config_builder()
            .timeout_connect(Some(Duration::from_secs(30)))
            .timeout_recv_response(Some(Duration::from_secs(60)))
            .http_status_as_error(false)
            .max_redirects(0)
            .build();
        Fetcher {
            agent: config.into(),
        }
    }

    /// Downloads `url`; every failure is the message the user sees.
    pub fn get(&self, url: &Url) -> Result<Fetched, String> {
        let shown = || hosted::shown_url(url.as_str());
        let mut at = url.clone();
        for _ in 0..=MAX_REDIRECTS {
            let mut response = self
                .agent
                .get(at.as_str())
                .call()
                .map_err(|error| format!("{}: could not be reached ({error})", shown()))?;
            let status = response.status().as_u16();
            if (300..400).contains(&status) {
                let location = response
                    .headers()
                    .get("location")
                    .and_then(|value| value.to_str().ok())
                    .ok_or_else(|| hosted::status_message(url.as_str(), status))?;
                let next = at
                    .join(location)
                    .map_err(|_| hosted::status_message(url.as_str(), status))?;
                hosted::check_redirect(url, next.as_str()).map_err(|error| error.to_string())?;
                at = hosted::resolve(next.as_str(), url.as_str())
                    .map_err(|error| error.to_string())?;
                continue;
            }
            if !(200..300).contains(&status) {
                return Err(hosted::status_message(url.as_str(), status));
            }
            let bytes = response
                .body_mut()
                .with_config()
                .limit(MAX_HOSTED_BYTES)
                .read_to_vec()
                .map_err(|error| match error {
                    ureq::Error::BodyExceedsLimit(_) => hosted::too_large_message(url.as_str()),
                    other => format!("{}: the download broke off ({other}); try again", shown()),
                })?;
            return Ok(Fetched {
                url: at.to_string(),
                bytes,
            });
        }
        Err(format!(
            "{}: more than {MAX_REDIRECTS} redirects; toolscope follows no more",
            shown()
        ))
    }
}
