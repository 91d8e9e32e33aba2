//! The judge's HTTP adapter: sends the requests the core builds and hands back what came back,
//! as plain data. Every protocol rule (headers, retries, reading answers) is the core's; this
//! only moves bytes, with `ureq` (blocking, rustls).
//!
//! - A whole exchange, body included, has one deadline (`timeout_global`).
//! - Error statuses are responses, not errors (`http_status_as_error(false)`): the core reads
//!   them for the cause and the retry delay.
//! - No redirect is followed (`max_redirects(0)`): a request carries the key, and a redirect to
//!   another host would hand it over. A 3xx is returned as it is and ends as an HTTP error.
//! - A response body is read up to [`MAX_RESPONSE_BYTES`]; a longer one is a network error.

use std::time::Duration;

use toolscope_core::judge::{HttpRequest, HttpResponse};

pub use toolscope_core::judge::provider::MAX_RESPONSE_BYTES;

/// A blocking client shared by the judge's workers.
#[derive(Clone)]
pub struct HttpClient {
    agent: ureq::Agent,
}

/// An exchange that ended without a response.
#[derive(Debug)]
pub struct SendError {
    /// Whether the deadline passed (a timeout), rather than the exchange failing.
    pub is_timeout: bool,
    /// What went wrong, for the user. Never holds the key: it comes from ureq's error, which
    /// names neither headers nor body, and the key is never in the URL.
    pub detail: String,
}

impl HttpClient {
    /// A client whose exchanges each end after `timeout`.
    pub fn new(timeout: Duration) -> HttpClient {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .build();
        HttpClient {
            agent: config.into(),
        }
    }

    /// Sends `request` (a POST with a body) and reads the whole response.
    pub fn send(&self, request: &HttpRequest) -> Result<HttpResponse, SendError> {
        let mut builder = self.agent.post(&request.url);
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        let mut response = builder.send(&request.body[..]).map_err(send_error)?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(name, value)| {
                (
                    name.as_str().to_string(),
                    String::from_utf8_lossy(value.as_bytes()).into_owned(),
                )
            })
            .collect();
        let body = response
            .body_mut()
            .with_config()
            .limit(MAX_RESPONSE_BYTES)
            .read_to_vec()
            .map_err(send_error)?;
        Ok(HttpResponse {
            status,
            headers,
            body,
        })
    }
}

fn send_error(error: ureq::Error) -> SendError {
    let is_timeout = match &error {
        ureq::Error::Timeout(_) => true,
        ureq::Error::Io(io) => matches!(
            io.kind(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
        ),
        _ => false,
    };
    let detail = match &error {
        ureq::Error::BodyExceedsLimit(limit) => {
            format!("the response is larger than {limit} bytes: check the base URL")
        }
        _ if is_timeout => format!("no answer in time ({error})"),
        _ => format!("network error: {error}"),
    };
    SendError { is_timeout, detail }
}
