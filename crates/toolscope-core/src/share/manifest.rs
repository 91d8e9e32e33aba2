//! A manifest: a small JSON file that lists hosted input files with their roles and digests, so
//! one short link (`#src=…/toolscope-manifest.json`) opens a whole set, and a hosted report
//! folder knows its data.
//!
//! ```json
//! {"toolscope_manifest": 1,
//!  "title": "nightly run 2026-12-01",
//!  "files": [{"path": "sessions.jsonl", "role": "traces", "sha256": "…", "size": 1234}],
//!  "options": {"min_support": 5, "args_mode": "exact"}}
//! ```
//!
//! `path` is a URL relative to the manifest (or absolute); `name` (default: the path) is the
//! name shown and used in diagnostics; `role`, `sha256`, `size` and `options` are optional.

use serde::{Deserialize, Serialize};

use super::{digest, ShareError};
use crate::{Options, Role};

/// The name `toolscope bundle` gives the manifest.
pub const FILE_NAME: &str = "toolscope-manifest.json";

/// The largest manifest read (1 MiB); a manifest is a list of names.
pub const MAX_MANIFEST_BYTES: usize = 1 << 20;

/// The most files one manifest may list.
pub const MAX_MANIFEST_FILES: usize = 1_000;

/// The manifest layout this engine writes and reads.
pub const VERSION: u32 = 1;

/// A list of hosted files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The layout version ([`VERSION`]); its presence marks the file as a manifest.
    pub toolscope_manifest: u32,
    /// What the report is about, shown above it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The files, in the order they are analysed.
    pub files: Vec<ManifestFile>,
    /// The analysis options (the defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Options>,
}

/// One hosted file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestFile {
    /// Where it is: a URL relative to the manifest, or absolute.
    pub path: String,
    /// The name shown (default: the path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its role (detected from the content when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// Its SHA-256, checked when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Its size in bytes, for progress.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

impl ManifestFile {
    /// The name shown for the file.
    pub fn shown_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.path)
    }
}

/// Whether `bytes` look like a manifest (a small JSON object that starts with its marker key,
/// as [`to_json`] writes it, or names it anywhere in its first kilobyte).
pub fn is_manifest(bytes: &[u8]) -> bool {
    if bytes.len() > MAX_MANIFEST_BYTES {
        return false;
    }
    let head = &bytes[..bytes.len().min(1024)];
    let text = String::from_utf8_lossy(head);
    text.trim_start().starts_with('{') && text.contains("\"toolscope_manifest\"")
}

/// The meta tag a hosted bundle's page names its manifest with (`toolscope bundle` writes it;
/// the page reads it from its own document).
pub const PAGE_META_NAME: &str = "toolscope-manifest";

/// The manifest's address that a bundle's page (its `index.html`) names in its
/// `<meta name="toolscope-manifest" content="…">`, when `bytes` are such a page.
pub fn named_by_page(bytes: &[u8]) -> Option<String> {
    const MAX_PAGE_BYTES: usize = 1 << 20;
    if bytes.len() > MAX_PAGE_BYTES {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let tag = format!("<meta name=\"{PAGE_META_NAME}\" content=\"");
    let start = text.find(&tag)? + tag.len();
    let content = &text[start..start + text[start..].find('"')?];
    (!content.is_empty()).then(|| content.to_string())
}

/// The manifest in `bytes`, checked: the version, the number of files, the digests' form.
pub fn parse(bytes: &[u8]) -> Result<Manifest, ShareError> {
    if bytes.len() > MAX_MANIFEST_BYTES {
        return Err(ShareError::BadManifest(format!(
            "larger than {MAX_MANIFEST_BYTES} bytes"
        )));
    }
    let manifest: Manifest = serde_json::from_slice(bytes)
        .map_err(|error| ShareError::BadManifest(error.to_string()))?;
    if manifest.toolscope_manifest != VERSION {
        return Err(ShareError::BadManifest(format!(
            "version {} (this toolscope reads version {VERSION})",
            manifest.toolscope_manifest
        )));
    }
    if manifest.files.len() > MAX_MANIFEST_FILES {
        return Err(ShareError::BadManifest(format!(
            "lists {} files, more than {MAX_MANIFEST_FILES}",
            manifest.files.len()
        )));
    }
    for file in &manifest.files {
        if let Some(sha256) = &file.sha256 {
            digest::parse(sha256)?;
        }
    }
    Ok(manifest)
}

/// The manifest as written to disk: pretty JSON with a final newline.
pub fn to_json(manifest: &Manifest) -> String {
    let mut text = serde_json::to_string_pretty(manifest).expect("manifests serialise");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundles_page_names_its_manifest() {
        let page = b"<html><head>\n<meta name=\"toolscope-manifest\" content=\"data/toolscope-manifest.json\">\n</head></html>";
        assert_eq!(
            named_by_page(page).as_deref(),
            Some("data/toolscope-manifest.json")
        );
        assert_eq!(named_by_page(b"<html><head></head></html>"), None);
        assert_eq!(named_by_page(b"{\"toolscope_manifest\": 1}"), None);
    }

    fn example() -> Manifest {
        Manifest {
            toolscope_manifest: VERSION,
            title: Some("nightly".into()),
            files: vec![ManifestFile {
                path: "data/sessions.jsonl".into(),
                name: Some("sessions.jsonl".into()),
                role: Some(Role::Traces),
                sha256: Some(digest::sha256_hex(b"x")),
                size: Some(1),
            }],
            options: Some(Options::default()),
        }
    }

    #[test]
    fn a_written_manifest_reads_back_and_is_recognised() {
        let text = to_json(&example());
        assert!(is_manifest(text.as_bytes()));
        assert_eq!(parse(text.as_bytes()).unwrap(), example());
    }

    #[test]
    fn a_minimal_manifest_is_enough() {
        let manifest =
            parse(br#"{"toolscope_manifest": 1, "files": [{"path": "a.jsonl"}]}"#).unwrap();
        assert_eq!(manifest.files[0].shown_name(), "a.jsonl");
        assert_eq!(manifest.files[0].role, None);
    }

    #[test]
    fn traces_are_not_manifests() {
        assert!(!is_manifest(br#"[{"name": "toolscope_manifest"}]"#));
        assert!(!is_manifest(b"{\"session_id\": \"s1\"}\n"));
    }

    #[test]
    fn bad_manifests_say_what_is_wrong() {
        let cases: [(&[u8], &str); 4] = [
            (br#"{"toolscope_manifest": 2, "files": []}"#, "version 2"),
            (
                br#"{"toolscope_manifest": 1, "files": [{"path": "a", "sha256": "zz"}]}"#,
                "sha256",
            ),
            (
                br#"{"toolscope_manifest": 1, "files": [{"url": "a"}]}"#,
                "unknown field",
            ),
            (br#"{"toolscope_manifest": 1"#, "EOF"),
        ];
        for (bytes, expected) in cases {
            let message = parse(bytes).unwrap_err().to_string();
            assert!(message.contains(expected), "{message}");
        }
        let many = format!(
            r#"{{"toolscope_manifest": 1, "files": [{}]}}"#,
            vec![r#"{"path": "a"}"#; MAX_MANIFEST_FILES + 1].join(",")
        );
        assert!(parse(many.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("more than"));
    }
}
