//! Providers: the judge's request for each model API, built as plain data.
//!
//! [`build_request`] turns a [`JudgePrompt`] into an [`HttpRequest`] (method, URL, headers,
//! body); the adapters send it as it is and hand back an [`HttpResponse`] for
//! [`read_response`](super::answer::read_response). The key goes in one header and nowhere else:
//! never in the URL (no `?key=`), never in the body, and [`HttpRequest`]'s `Debug` shows
//! `[redacted]` in its place.
//!
//! Each provider asks for structured output its own way:
//! - **Anthropic** (Messages API): a forced call of one tool, `record_verdict`, whose
//!   `input_schema` is [`verdict_schema`]; the answer is the tool call's `input`.
//! - **OpenAI** (Chat Completions): `response_format: {type: "json_schema", json_schema: {name,
//!   strict: true, schema}}` and `max_completion_tokens` (OpenAI deprecated `max_tokens`, and
//!   reasoning models refuse it).
//! - **OpenAI-compatible** servers (vLLM, llama.cpp, Ollama, LM Studio, …): the same wire shape
//!   at the user's base URL, with `max_tokens` (the field every such server reads) and no
//!   `response_format` at all: LM Studio answers 400 to `json_object`, and many servers reject
//!   or ignore `json_schema`. The prompt asks for JSON and the tolerant parser reads it.
//! - **Gemini** (`generateContent`): `generationConfig.responseMimeType: "application/json"`
//!   with `responseSchema`, the verdict schema in Gemini's OpenAPI subset (upper-case types, no
//!   `additionalProperties`, `propertyOrdering` for a stable key order); the key in
//!   `x-goog-api-key`.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::prompt::{verdict_schema, JudgePrompt};

/// The tool Anthropic is made to call; its input is the verdict.
pub const ANTHROPIC_TOOL_NAME: &str = "record_verdict";

/// The `anthropic-version` header the request is written for.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The name of the schema in OpenAI's `response_format`.
pub const OPENAI_SCHEMA_NAME: &str = "tool_call_verdict";

/// Output tokens allowed by default: a verdict is a few hundred tokens, and reasoning models
/// spend part of the allowance thinking.
pub const DEFAULT_MAX_OUTPUT_TOKENS: u32 = 2_048;

/// The largest answer body read, by the CLI and the page alike: verdicts are a few kilobytes,
/// error pages a few more. A longer body is not read (an `http_error` verdict).
pub const MAX_RESPONSE_BYTES: u64 = 16 * 1024 * 1024;

/// Where an OpenAI-compatible server is looked for when no base URL is given: Ollama's default
/// address on this machine, so a key never leaves it by accident. [`ProviderConfig::check`]
/// asks for a base URL instead.
pub const DEFAULT_COMPATIBLE_BASE_URL: &str = "http://localhost:11434/v1";

/// A model API the judge can talk to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// Anthropic's Messages API.
    Anthropic,
    /// OpenAI's Chat Completions API.
    OpenAi,
    /// Google's Gemini API (`generateContent`).
    Gemini,
    /// Any server speaking OpenAI's Chat Completions at its own base URL.
    OpenAiCompatible,
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 4] = [
        Provider::Anthropic,
        Provider::OpenAi,
        Provider::Gemini,
        Provider::OpenAiCompatible,
    ];

    /// The name in options and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAi => "openai",
            Provider::Gemini => "gemini",
            Provider::OpenAiCompatible => "openai_compatible",
        }
    }

    /// The provider of a name.
    pub fn from_name(name: &str) -> Option<Provider> {
        Provider::ALL
            .into_iter()
            .find(|provider| provider.as_str() == name)
    }

    /// The API's base URL when the user gives none.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Anthropic => "https://api.anthropic.com",
            Provider::OpenAi => "https://api.openai.com/v1",
            Provider::Gemini => "https://generativelanguage.googleapis.com/v1beta",
            Provider::OpenAiCompatible => DEFAULT_COMPATIBLE_BASE_URL,
        }
    }
}

/// Which model to ask, where, and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderConfig {
    /// The API.
    pub provider: Provider,
    /// The model's name as the API knows it (`claude-sonnet-4-5`, `gpt-4o-mini`,
    /// `gemini-2.5-flash`, …).
    pub model: String,
    /// The API's base URL; `None` for the provider's default ([`Provider::default_base_url`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The most output tokens the answer may take.
    pub max_output_tokens: u32,
    /// True when the request is sent from a web page: Anthropic then needs the
    /// `anthropic-dangerous-direct-browser-access` header to answer CORS requests.
    #[serde(default)]
    pub is_browser: bool,
}

/// Why a [`ProviderConfig`] cannot be used as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No model was named.
    #[error("no judge model given: name the model to ask (for example gpt-4o-mini)")]
    MissingModel,
    /// An OpenAI-compatible server needs its address.
    #[error(
        "an OpenAI-compatible judge needs its base URL (for example http://localhost:8000/v1)"
    )]
    MissingBaseUrl,
    /// The base URL is not http(s).
    #[error("the judge's base URL must start with https:// (or http:// for a server on this machine): {0}")]
    BadBaseUrl(String),
}

impl ProviderConfig {
    /// A configuration with the provider's default base URL and output allowance.
    pub fn new(provider: Provider, model: impl Into<String>) -> ProviderConfig {
        ProviderConfig {
            provider,
            model: model.into(),
            base_url: None,
            max_output_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
            is_browser: false,
        }
    }

    /// The base URL requests go to, without a trailing slash.
    pub fn base_url(&self) -> &str {
        self.base_url
            .as_deref()
            .map(str::trim)
            .filter(|url| !url.is_empty())
            .unwrap_or_else(|| self.provider.default_base_url())
            .trim_end_matches('/')
    }

    /// Whether the configuration can be used: a model is named, an OpenAI-compatible server has
    /// a base URL, and the base URL is http(s). Adapters check before the first request.
    pub fn check(&self) -> Result<(), ConfigError> {
        if self.model.trim().is_empty() {
            return Err(ConfigError::MissingModel);
        }
        let given = self.base_url.as_deref().map(str::trim).unwrap_or_default();
        if self.provider == Provider::OpenAiCompatible && given.is_empty() {
            return Err(ConfigError::MissingBaseUrl);
        }
        let url = self.base_url();
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(ConfigError::BadBaseUrl(url.chars().take(200).collect()));
        }
        Ok(())
    }
}

/// A request to send, as plain data. Its `Debug` hides secret header values.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// `POST`.
    pub method: String,
    /// The absolute URL.
    pub url: String,
    /// Header names (lower case) and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body (JSON).
    pub body: Vec<u8>,
}

/// Header names whose values are secrets, in lower case.
const SECRET_HEADERS: [&str; 6] = [
    "authorization",
    "x-api-key",
    "x-goog-api-key",
    "api-key",
    "proxy-authorization",
    "cookie",
];

/// Whether a header's value is a secret (compared case-insensitively).
pub fn is_secret_header(name: &str) -> bool {
    SECRET_HEADERS
        .iter()
        .any(|secret| secret.eq_ignore_ascii_case(name))
}

impl fmt::Debug for HttpRequest {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(name, value)| {
                let shown = if is_secret_header(name) {
                    "[redacted]"
                } else {
                    value.as_str()
                };
                (name.as_str(), shown)
            })
            .collect();
        formatter
            .debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &headers)
            .field("body", &String::from_utf8_lossy(&self.body))
            .finish()
    }
}

/// A response as received: status, headers and body bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HttpResponse {
    /// The HTTP status.
    pub status: u16,
    /// Header names and values, as received.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first value of a header, its name compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// The request asking `config`'s model to judge `prompt`, authenticated with `api_key`.
///
/// The key is trimmed (a pasted key often ends in a newline) and loses any control character,
/// so it cannot split a header. An OpenAI-compatible request without a key sends no
/// `authorization` header (local servers need none).
pub fn build_request(config: &ProviderConfig, prompt: &JudgePrompt, api_key: &str) -> HttpRequest {
    let key: String = api_key.trim().chars().filter(|c| !c.is_control()).collect();
    let base = config.base_url();
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    let (url, body) = match config.provider {
        Provider::Anthropic => {
            headers.push(("x-api-key".into(), key));
            headers.push(("anthropic-version".into(), ANTHROPIC_VERSION.into()));
            if config.is_browser {
                headers.push((
                    "anthropic-dangerous-direct-browser-access".into(),
                    "true".into(),
                ));
            }
            let body = json!({
                "model": config.model,
                "max_tokens": config.max_output_tokens,
                "system": prompt.system,
                "messages": [{"role": "user", "content": prompt.user}],
                "tools": [{
                    "name": ANTHROPIC_TOOL_NAME,
                    "description": "Record the verdict on the tool call, one entry per criterion.",
                    "input_schema": verdict_schema(),
                }],
                "tool_choice": {"type": "tool", "name": ANTHROPIC_TOOL_NAME},
            });
            (format!("{base}/v1/messages"), body)
        }
        Provider::OpenAi | Provider::OpenAiCompatible => {
            if config.provider == Provider::OpenAi || !key.is_empty() {
                headers.push(("authorization".into(), format!("Bearer {key}")));
            }
            let messages = json!([
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ]);
            let body = if config.provider == Provider::OpenAi {
                json!({
                    "model": config.model,
                    "messages": messages,
                    "max_completion_tokens": config.max_output_tokens,
                    "response_format": {
                        "type": "json_schema",
                        "json_schema": {
                            "name": OPENAI_SCHEMA_NAME,
                            "strict": true,
                            "schema": verdict_schema(),
                        },
                    },
                })
            } else {
                json!({
                    "model": config.model,
                    "messages": messages,
                    "max_tokens": config.max_output_tokens,
                })
            };
            (format!("{base}/chat/completions"), body)
        }
        Provider::Gemini => {
            headers.push(("x-goog-api-key".into(), key));
            let model = config.model.trim();
            let model = model.strip_prefix("models/").unwrap_or(model);
            let body = json!({
                "systemInstruction": {"parts": [{"text": prompt.system}]},
                "contents": [{"role": "user", "parts": [{"text": prompt.user}]}],
                "generationConfig": {
                    "responseMimeType": "application/json",
                    "responseSchema": gemini_schema(&verdict_schema()),
                    "maxOutputTokens": config.max_output_tokens,
                },
            });
            (
                format!("{base}/models/{}:generateContent", path_segment(model)),
                body,
            )
        }
    };
    HttpRequest {
        method: "POST".to_string(),
        url,
        headers,
        body: serde_json::to_vec(&body).unwrap_or_default(),
    }
}

/// A JSON Schema in Gemini's `responseSchema` dialect (a subset of OpenAPI 3.0's schema object):
/// types in upper case, no `additionalProperties`, and `propertyOrdering` following `required`
/// so the keys come in the rubric's order.
pub fn gemini_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(object) => {
            let mut out = Map::new();
            for (key, value) in object {
                match key.as_str() {
                    "additionalProperties" => {}
                    "type" => {
                        let upper = value.as_str().map(str::to_ascii_uppercase);
                        out.insert(key.clone(), upper.map_or(value.clone(), Value::String));
                    }
                    "properties" => {
                        let properties = value
                            .as_object()
                            .map(|properties| {
                                crate::sort::collect_by_insert::<Map<_, _>, _>(
                                    properties.iter().map(|(name, property)| {
                                        (name.clone(), gemini_schema(property))
                                    }),
                                )
                            })
                            .unwrap_or_default();
                        out.insert(key.clone(), Value::Object(properties));
                    }
                    "items" => {
                        out.insert(key.clone(), gemini_schema(value));
                    }
                    _ => {
                        out.insert(key.clone(), value.clone());
                    }
                }
            }
            if let Some(required) = object.get("required") {
                out.insert("propertyOrdering".to_string(), required.clone());
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// `text` made safe as one URL path segment: unreserved characters kept, the rest
/// percent-encoded, so a model name cannot add a query (`?key=`) or another path.
fn path_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The reason a verdict gives when the browser's `fetch` got no response at all (a `TypeError`:
/// the server is down, unreachable, or refused this page by CORS; the browser does not say
/// which). It says how to let the page in on the usual local servers, which refuse other
/// origins by default. `page_origin` is the page's origin (`https://…`), `error` the browser's
/// message.
pub fn browser_failure_detail(config: &ProviderConfig, page_origin: &str, error: &str) -> String {
    format!(
        "the browser got no response from {} ({error}): the server is not running, not \
         reachable, or does not allow requests from this page (CORS). A server on your machine \
         must allow the origin {page_origin}: Ollama: set OLLAMA_ORIGINS={page_origin}; \
         llama.cpp: llama-server --cors-origins {page_origin}; vLLM: --allowed-origins \
         '[\"{page_origin}\"]'; LM Studio: turn on CORS in the server's settings",
        config.base_url()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::prompt::template_ref;

    const KEY: &str = "sk-test-SECRET-0123456789";

    fn prompt() -> JudgePrompt {
        JudgePrompt {
            system: "RUBRIC".into(),
            user: "THE CALL".into(),
            template: template_ref(),
            prompt_sha256: "0".repeat(64),
            call_event: 4,
            tool: "lookup_order".into(),
        }
    }

    fn body(request: &HttpRequest) -> Value {
        serde_json::from_slice(&request.body).unwrap()
    }

    fn header_names(request: &HttpRequest) -> Vec<&str> {
        request
            .headers
            .iter()
            .map(|(name, _)| name.as_str())
            .collect()
    }

    fn header<'a>(request: &'a HttpRequest, name: &str) -> Option<&'a str> {
        request
            .headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn assert_key_only_in(request: &HttpRequest, header_name: &str) {
        assert!(!request.url.contains(KEY), "key in URL {}", request.url);
        assert!(
            !request.url.contains("key="),
            "key parameter in URL {}",
            request.url
        );
        assert!(
            !String::from_utf8_lossy(&request.body).contains(KEY),
            "key in body"
        );
        let holding: Vec<&str> = request
            .headers
            .iter()
            .filter(|(_, value)| value.contains(KEY))
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(holding, [header_name]);
        let debug = format!("{request:?}");
        assert!(!debug.contains(KEY), "{debug}");
        assert!(debug.contains("[redacted]"));
    }

    #[test]
    fn anthropic_request_forces_the_verdict_tool() {
        let config = ProviderConfig::new(Provider::Anthropic, "claude-sonnet-4-5");
        let request = build_request(&config, &prompt(), KEY);
        assert_eq!(request.method, "POST");
        assert_eq!(request.url, "https://api.anthropic.com/v1/messages");
        assert_eq!(
            header_names(&request),
            ["content-type", "x-api-key", "anthropic-version"]
        );
        assert_eq!(header(&request, "x-api-key"), Some(KEY));
        assert_eq!(header(&request, "anthropic-version"), Some("2023-06-01"));
        assert_key_only_in(&request, "x-api-key");
        assert_eq!(
            body(&request),
            json!({
                "model": "claude-sonnet-4-5",
                "max_tokens": 2048,
                "system": "RUBRIC",
                "messages": [{"role": "user", "content": "THE CALL"}],
                "tools": [{
                    "name": "record_verdict",
                    "description": "Record the verdict on the tool call, one entry per criterion.",
                    "input_schema": verdict_schema(),
                }],
                "tool_choice": {"type": "tool", "name": "record_verdict"},
            })
        );
    }

    #[test]
    fn anthropic_from_a_page_adds_the_browser_header_only_then() {
        let mut config = ProviderConfig::new(Provider::Anthropic, "claude-haiku-4-5");
        config.is_browser = true;
        let request = build_request(&config, &prompt(), KEY);
        assert_eq!(
            header_names(&request),
            [
                "content-type",
                "x-api-key",
                "anthropic-version",
                "anthropic-dangerous-direct-browser-access"
            ]
        );
        assert_eq!(
            header(&request, "anthropic-dangerous-direct-browser-access"),
            Some("true")
        );
        config.provider = Provider::OpenAi;
        let openai = build_request(&config, &prompt(), KEY);
        assert!(!header_names(&openai)
            .iter()
            .any(|name| name.starts_with("anthropic")));
    }

    #[test]
    fn openai_request_uses_strict_json_schema_and_max_completion_tokens() {
        let mut config = ProviderConfig::new(Provider::OpenAi, "gpt-4o-mini");
        config.is_browser = true;
        config.max_output_tokens = 700;
        let request = build_request(&config, &prompt(), KEY);
        assert_eq!(request.url, "https://api.openai.com/v1/chat/completions");
        assert_eq!(header_names(&request), ["content-type", "authorization"]);
        assert_eq!(
            header(&request, "authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
        assert_key_only_in(&request, "authorization");
        assert_eq!(
            body(&request),
            json!({
                "model": "gpt-4o-mini",
                "messages": [
                    {"role": "system", "content": "RUBRIC"},
                    {"role": "user", "content": "THE CALL"},
                ],
                "max_completion_tokens": 700,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {
                        "name": "tool_call_verdict",
                        "strict": true,
                        "schema": verdict_schema(),
                    },
                },
            })
        );
    }

    #[test]
    fn compatible_request_goes_to_the_given_server_without_response_format() {
        let mut config = ProviderConfig::new(Provider::OpenAiCompatible, "qwen2.5:7b");
        config.base_url = Some("http://localhost:8000/v1/".into());
        let request = build_request(&config, &prompt(), KEY);
        assert_eq!(request.url, "http://localhost:8000/v1/chat/completions");
        assert_eq!(header_names(&request), ["content-type", "authorization"]);
        assert_key_only_in(&request, "authorization");
        let body = body(&request);
        assert_eq!(body["max_tokens"], 2048);
        assert!(body.get("response_format").is_none());
        assert!(body.get("max_completion_tokens").is_none());
        // No key, no authorization header: local servers need none.
        let keyless = build_request(&config, &prompt(), "  ");
        assert_eq!(header_names(&keyless), ["content-type"]);
    }

    #[test]
    fn gemini_request_puts_the_key_in_a_header_and_the_schema_in_generation_config() {
        let config = ProviderConfig::new(Provider::Gemini, "gemini-2.5-flash");
        let request = build_request(&config, &prompt(), KEY);
        assert_eq!(
            request.url,
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
        );
        assert_eq!(header_names(&request), ["content-type", "x-goog-api-key"]);
        assert_key_only_in(&request, "x-goog-api-key");
        let body = body(&request);
        assert_eq!(
            body["systemInstruction"],
            json!({"parts": [{"text": "RUBRIC"}]})
        );
        assert_eq!(
            body["contents"],
            json!([{"role": "user", "parts": [{"text": "THE CALL"}]}])
        );
        let generation = &body["generationConfig"];
        assert_eq!(generation["responseMimeType"], "application/json");
        assert_eq!(generation["maxOutputTokens"], 2048);
        let schema = &generation["responseSchema"];
        assert_eq!(schema["type"], "OBJECT");
        assert!(!schema.to_string().contains("additionalProperties"));
        assert_eq!(
            schema["propertyOrdering"],
            json!([
                "call_decision",
                "right_tool",
                "args_grounded",
                "result_used"
            ])
        );
        let criterion = &schema["properties"]["right_tool"];
        assert_eq!(criterion["properties"]["verdict"]["type"], "STRING");
        assert_eq!(
            criterion["properties"]["verdict"]["enum"],
            json!(["pass", "fail"])
        );
        assert_eq!(criterion["properties"]["evidence"]["type"], "ARRAY");
        assert_eq!(
            criterion["properties"]["evidence"]["items"]["properties"]["event"]["type"],
            "INTEGER"
        );
    }

    #[test]
    fn model_names_cannot_change_the_url_beyond_their_segment() {
        let mut config = ProviderConfig::new(Provider::Gemini, "models/gemini-2.0-flash");
        assert!(build_request(&config, &prompt(), KEY)
            .url
            .ends_with("/models/gemini-2.0-flash:generateContent"));
        config.model = "x?key=leak/../y".into();
        let url = build_request(&config, &prompt(), KEY).url;
        assert!(
            url.ends_with("/models/x%3Fkey%3Dleak%2F..%2Fy:generateContent"),
            "{url}"
        );
    }

    #[test]
    fn keys_are_trimmed_and_cannot_split_headers() {
        let config = ProviderConfig::new(Provider::Anthropic, "m");
        let request = build_request(&config, &prompt(), " sk-abc\r\nx-evil: 1\n");
        assert_eq!(header(&request, "x-api-key"), Some("sk-abcx-evil: 1"));
        assert!(request
            .headers
            .iter()
            .all(|(name, value)| !name.contains('\n') && !value.contains(['\r', '\n'])));
    }

    #[test]
    fn debug_redacts_every_secret_header_whatever_its_case() {
        let request = HttpRequest {
            method: "POST".into(),
            url: "https://example.com/v1".into(),
            headers: vec![
                ("Authorization".into(), "Bearer sk-1".into()),
                ("X-Api-Key".into(), "sk-2".into()),
                ("x-goog-api-key".into(), "AIza-3".into()),
                ("content-type".into(), "application/json".into()),
            ],
            body: b"{}".to_vec(),
        };
        let debug = format!("{request:?}");
        for secret in ["sk-1", "sk-2", "AIza-3"] {
            assert!(!debug.contains(secret), "{debug}");
        }
        assert!(debug.contains("application/json"));
        assert_eq!(debug.matches("[redacted]").count(), 3);
    }

    #[test]
    fn base_urls_default_per_provider_and_are_checked() {
        for (provider, url) in [
            (Provider::Anthropic, "https://api.anthropic.com"),
            (Provider::OpenAi, "https://api.openai.com/v1"),
            (
                Provider::Gemini,
                "https://generativelanguage.googleapis.com/v1beta",
            ),
        ] {
            let config = ProviderConfig::new(provider, "m");
            assert_eq!(config.base_url(), url);
            assert_eq!(config.check(), Ok(()));
            assert_eq!(Provider::from_name(provider.as_str()), Some(provider));
        }
        let mut compatible = ProviderConfig::new(Provider::OpenAiCompatible, "m");
        assert_eq!(compatible.check(), Err(ConfigError::MissingBaseUrl));
        assert_eq!(compatible.base_url(), "http://localhost:11434/v1");
        compatible.base_url = Some("ftp://host".into());
        assert!(matches!(
            compatible.check(),
            Err(ConfigError::BadBaseUrl(_))
        ));
        assert_eq!(
            ProviderConfig::new(Provider::OpenAi, " ").check(),
            Err(ConfigError::MissingModel)
        );
    }

    #[test]
    fn response_headers_are_found_whatever_their_case() {
        let response = HttpResponse {
            status: 429,
            headers: vec![("Retry-After".into(), "3".into())],
            body: Vec::new(),
        };
        assert_eq!(response.header("retry-after"), Some("3"));
        assert_eq!(response.header("x-missing"), None);
    }

    #[test]
    fn a_browser_failure_says_how_to_let_the_page_in_on_local_servers() {
        let config = ProviderConfig {
            base_url: Some("http://localhost:11434/v1/".into()),
            ..ProviderConfig::new(Provider::OpenAiCompatible, "llama3")
        };
        let detail = browser_failure_detail(&config, "https://toolscope.dev", "Failed to fetch");
        assert!(detail.starts_with(
            "the browser got no response from http://localhost:11434/v1 (Failed to fetch): "
        ));
        for hint in [
            "OLLAMA_ORIGINS=https://toolscope.dev",
            "--cors-origins https://toolscope.dev",
            "--allowed-origins '[\"https://toolscope.dev\"]'",
            "LM Studio: turn on CORS",
        ] {
            assert!(detail.contains(hint), "{hint} missing from {detail}");
        }
    }
}
