//! Opening what a link names once its bytes are here: a data link's value unpacked, a manifest's
//! list of files resolved, fetched files checked against the digests the link or manifest pins
//! and sealed ones decrypted. The page's worker and `toolscope open` both open links with these,
//! so a link opens to the same files, options and messages in both; each adapter only fetches.
//! A file that fails is named in [`Opened::errors`] and the others still open.

use url::Url;

use super::fragment::HostedSource;
use super::manifest::{self, Manifest};
use super::{data_link, digest, hosted, sealed, SharedFile};
use crate::{Options, Role};

/// A file fetched for a link (or read from a bundle's folder), with what the link or manifest
/// says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedFile {
    /// The name shown (from the URL or the manifest).
    pub name: String,
    /// Where it came from, for messages.
    pub url: String,
    /// The role the link or manifest names.
    pub role: Option<Role>,
    /// The SHA-256 the link or manifest pins.
    pub sha256: Option<String>,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// What a link opened to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Opened {
    /// The files, in the order the link gives them.
    pub files: Vec<SharedFile>,
    /// The analysis options the shared data carried (a data link's, a sealed file's).
    pub options: Option<Options>,
    /// What could not be opened, one message per file.
    pub errors: Vec<String>,
}

/// The files a data link's value (after `data=`) carries, or why there are none.
pub fn open_data(value: &str) -> Opened {
    match data_link::decode(value) {
        Ok(shared) => Opened {
            files: shared.files,
            options: Some(shared.options),
            errors: Vec::new(),
        },
        Err(error) => Opened {
            errors: vec![format!("The link's data: {error}")],
            ..Opened::default()
        },
    }
}

/// The fetched files, each checked against its digest; sealed files opened with `key` (as the
/// link writes it).
pub fn open_fetched(files: Vec<FetchedFile>, key: Option<&str>) -> Opened {
    let mut opened = Opened::default();
    for file in files {
        if let Some(expected) = &file.sha256 {
            if let Err(error) = digest::check(&file.bytes, expected) {
                opened.errors.push(format!("{}: {error}", file.url));
                continue;
            }
        }
        if !sealed::is_sealed(&file.bytes) {
            opened.files.push(SharedFile {
                name: file.name,
                role: file.role,
                bytes: file.bytes,
            });
            continue;
        }
        let Some(key) = key else {
            opened.errors.push(format!(
                "{}: an encrypted toolscope file, but the link has no key (key=…); ask for the whole link",
                file.url
            ));
            continue;
        };
        match sealed::ShareKey::parse(key).and_then(|key| sealed::open(&file.bytes, &key)) {
            Ok(shared) => {
                opened.options = Some(shared.options);
                opened.files.extend(shared.files);
            }
            Err(error) => opened.errors.push(format!("{}: {error}", file.url)),
        }
    }
    opened
}

/// A fetched manifest, read: the manifest (its title and options) and, per file it lists, what
/// to fetch for it (its URL resolved against the manifest's, without its bytes yet) or why it
/// cannot be fetched.
#[derive(Debug)]
pub struct Listed {
    /// The manifest itself.
    pub manifest: Manifest,
    /// Each listed file to fetch, in order, or the message saying why not.
    pub files: Vec<Result<(FetchedFile, Url), String>>,
}

/// The manifest `bytes` fetched from `url` for `source` (whose digest, if the link pins one, it
/// must have), with its files resolved relative to it; or the message saying why not.
pub fn list_manifest(source: &HostedSource, url: &str, bytes: &[u8]) -> Result<Listed, String> {
    if let Some(expected) = &source.sha256 {
        digest::check(bytes, expected).map_err(|error| format!("{url}: {error}"))?;
    }
    let manifest = manifest::parse(bytes).map_err(|error| format!("{url}: {error}"))?;
    let files = manifest
        .files
        .iter()
        .map(|file| {
            let resolved = hosted::resolve(&file.path, url).map_err(|error| error.to_string())?;
            let fetched = FetchedFile {
                name: file.shown_name().to_string(),
                url: resolved.to_string(),
                role: file.role,
                sha256: file.sha256.clone(),
                bytes: Vec::new(),
            };
            Ok((fetched, resolved))
        })
        .collect();
    Ok(Listed { manifest, files })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::{pack, Shared};

    fn fetched(name: &str, sha256: Option<String>, bytes: &[u8]) -> FetchedFile {
        FetchedFile {
            name: name.into(),
            url: format!("https://h/{name}"),
            role: None,
            sha256,
            bytes: bytes.to_vec(),
        }
    }

    fn shared() -> Shared {
        Shared {
            files: vec![SharedFile {
                name: "a.json".into(),
                role: Some(Role::Traces),
                bytes: b"[1]".to_vec(),
            }],
            options: Options::default(),
        }
    }

    #[test]
    fn a_data_link_opens_to_its_files_and_a_damaged_one_says_why() {
        let opened = open_data(&data_link::encode(&shared()));
        assert_eq!(opened.files, shared().files);
        assert_eq!(opened.options, Some(Options::default()));
        let damaged = open_data("1.***");
        assert!(damaged.files.is_empty());
        assert!(
            damaged.errors[0].starts_with("The link's data: the link's data is damaged"),
            "{:?}",
            damaged.errors
        );
        assert!(!pack(&shared()).is_empty());
    }

    #[test]
    fn a_bad_digest_drops_only_its_file_and_says_so() {
        let good = digest::sha256_hex(b"good");
        let opened = open_fetched(
            vec![
                fetched("a", Some(good), b"good"),
                fetched("b", Some("0".repeat(64)), b"bad"),
            ],
            None,
        );
        assert_eq!(opened.files.len(), 1);
        assert!(opened.errors[0].starts_with("https://h/b: its SHA-256 is"));
    }

    #[test]
    fn a_sealed_file_needs_the_right_key() {
        let key = sealed::ShareKey::from_bytes([5; 32]).to_text();
        let parsed = sealed::ShareKey::parse(&key).unwrap();
        let bytes = sealed::seal(&shared(), &parsed, [1; 12]);
        let open = |key: Option<&str>| open_fetched(vec![fetched("x.tsenc", None, &bytes)], key);
        assert_eq!(open(Some(&key)).files, shared().files);
        let wrong = sealed::ShareKey::from_bytes([6; 32]).to_text();
        assert!(open(Some(&wrong)).errors[0].ends_with("cannot decrypt: wrong key or damaged file"));
        assert!(open(None).errors[0].contains("has no key"));
    }

    #[test]
    fn a_manifest_lists_its_files_relative_to_itself_and_refuses_what_cannot_be_fetched() {
        let text = br#"{"toolscope_manifest": 1, "title": "t", "files": [
            {"path": "s.jsonl", "role": "traces"},
            {"path": "ftp://elsewhere/x.jsonl"}]}"#;
        let source = HostedSource {
            url: "m.json".into(),
            sha256: None,
            role: None,
        };
        let listed = list_manifest(&source, "https://h/run/data/m.json", text).unwrap();
        assert_eq!(listed.manifest.title.as_deref(), Some("t"));
        let (first, url) = listed.files[0].as_ref().unwrap();
        assert_eq!(url.as_str(), "https://h/run/data/s.jsonl");
        assert_eq!(
            (first.name.as_str(), first.role),
            ("s.jsonl", Some(Role::Traces))
        );
        assert!(listed.files[1].as_ref().unwrap_err().contains("not https"));
        let pinned = HostedSource {
            sha256: Some("0".repeat(64)),
            ..source
        };
        let error = list_manifest(&pinned, "https://h/m.json", text).unwrap_err();
        assert!(
            error.starts_with("https://h/m.json: its SHA-256 is"),
            "{error}"
        );
    }
}
