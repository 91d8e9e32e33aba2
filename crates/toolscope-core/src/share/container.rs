//! The container that carries inputs: every file as given (name, chosen role, bytes) and the
//! analysis options, so whoever opens it recomputes exactly the report it was made from.
//!
//! Layout (version 1): the magic `toolscope-inputs 1\n`, one line of JSON naming the files, their
//! roles and sizes and the options, then the files' bytes one after another. Kept uncompressed
//! here; links and sealed files compress the whole container at once, so files that repeat each
//! other (traces and their labels) compress together.

use serde::{Deserialize, Serialize};

use super::{ShareError, MAX_UNPACKED_BYTES};
use crate::{Options, Role};

const MAGIC: &[u8] = b"toolscope-inputs 1\n";

/// One shared input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedFile {
    /// The name the user knows it by (shown, and named in diagnostics).
    pub name: String,
    /// The role the user chose, or None when it is detected from the content.
    pub role: Option<Role>,
    /// Its bytes, as given.
    pub bytes: Vec<u8>,
}

/// Everything an analysis needs: the files and the options.
#[derive(Debug, Clone, PartialEq)]
pub struct Shared {
    /// The input files, in the order given.
    pub files: Vec<SharedFile>,
    /// The analysis options.
    pub options: Options,
}

#[derive(Serialize, Deserialize)]
struct Header {
    files: Vec<FileHeader>,
    options: Options,
}

#[derive(Serialize, Deserialize)]
struct FileHeader {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    role: Option<Role>,
    size: u64,
}

/// The header line's JSON (without its newline).
fn header_json(shared: &Shared) -> Vec<u8> {
    let header = Header {
        files: shared
            .files
            .iter()
            .map(|file| FileHeader {
                name: file.name.clone(),
                role: file.role,
                size: file.bytes.len() as u64,
            })
            .collect(),
        options: shared.options,
    };
    serde_json::to_vec(&header).expect("headers serialise")
}

/// How many bytes [`pack`] makes of `shared`, without copying the files: adapters check it
/// against [`MAX_UNPACKED_BYTES`] and the room a link has before packing.
pub fn packed_len(shared: &Shared) -> u64 {
    let body: u64 = shared
        .files
        .iter()
        .map(|file| file.bytes.len() as u64)
        .sum();
    (MAGIC.len() + header_json(shared).len() + 1) as u64 + body
}

/// The container's bytes.
pub fn pack(shared: &Shared) -> Vec<u8> {
    let header = header_json(shared);
    let body: usize = shared.files.iter().map(|file| file.bytes.len()).sum();
    let mut out = Vec::with_capacity(MAGIC.len() + header.len() + 1 + body);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&header);
    out.push(b'\n');
    for file in &shared.files {
        out.extend_from_slice(&file.bytes);
    }
    out
}

/// The files and options in a container; an error when it is not one, is cut short, or has
/// bytes left over.
pub fn unpack(bytes: &[u8]) -> Result<Shared, ShareError> {
    let rest = bytes
        .strip_prefix(MAGIC)
        .ok_or_else(|| ShareError::Damaged("it does not start as toolscope's inputs do".into()))?;
    let end = rest
        .iter()
        .position(|&byte| byte == b'\n')
        .ok_or_else(|| ShareError::Damaged("its list of files is cut short".into()))?;
    let header: Header = serde_json::from_slice(&rest[..end])
        .map_err(|error| ShareError::Damaged(format!("its list of files: {error}")))?;
    let mut body = &rest[end + 1..];
    let declared = header
        .files
        .iter()
        .try_fold(0u64, |sum, file| sum.checked_add(file.size))
        .filter(|&sum| sum <= MAX_UNPACKED_BYTES)
        .ok_or(ShareError::TooLarge {
            limit: MAX_UNPACKED_BYTES,
        })?;
    if declared != body.len() as u64 {
        return Err(ShareError::Damaged(format!(
            "it lists {declared} bytes of files but carries {}",
            body.len()
        )));
    }
    let files = header
        .files
        .into_iter()
        .map(|file| {
            let (bytes, rest) = body.split_at(file.size as usize);
            body = rest;
            SharedFile {
                name: file.name,
                role: file.role,
                bytes: bytes.to_vec(),
            }
        })
        .collect();
    Ok(Shared {
        files,
        options: header.options,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::TraceFormat;
    use crate::metrics::args_match::ArgsMode;

    fn example() -> Shared {
        Shared {
            files: vec![
                SharedFile {
                    name: "sessions.jsonl".into(),
                    role: None,
                    bytes: b"{\"session_id\": \"s1\"}\n".to_vec(),
                },
                SharedFile {
                    name: "odd\nname \u{202e}.json".into(),
                    role: Some(Role::Labels),
                    bytes: vec![0, 255, b'\n', 10],
                },
                SharedFile {
                    name: "empty.json".into(),
                    role: Some(Role::Catalog),
                    bytes: Vec::new(),
                },
            ],
            options: Options {
                min_support: 7,
                args_mode: ArgsMode::Subset,
                format: Some(TraceFormat::ALL[1]),
            },
        }
    }

    #[test]
    fn files_roles_and_options_survive_packing() {
        let shared = example();
        assert_eq!(unpack(&pack(&shared)).unwrap(), shared);
    }

    #[test]
    fn packed_len_is_the_length_pack_makes() {
        let shared = example();
        assert_eq!(packed_len(&shared), pack(&shared).len() as u64);
        let empty = Shared {
            files: Vec::new(),
            options: Options::default(),
        };
        assert_eq!(packed_len(&empty), pack(&empty).len() as u64);
    }

    #[test]
    fn a_container_cut_short_or_with_bytes_added_is_damaged() {
        let packed = pack(&example());
        for cut in [0, 5, MAGIC.len() + 3, packed.len() - 1] {
            assert!(
                matches!(unpack(&packed[..cut]), Err(ShareError::Damaged(_))),
                "cut at {cut}"
            );
        }
        let mut longer = packed.clone();
        longer.push(b'x');
        assert!(matches!(unpack(&longer), Err(ShareError::Damaged(_))));
    }

    #[test]
    fn sizes_past_the_limit_are_refused_before_anything_is_allocated() {
        let header = format!(
            "{{\"files\":[{{\"name\":\"a\",\"size\":{}}},{{\"name\":\"b\",\"size\":{}}}],\"options\":{}}}\n",
            u64::MAX - 1,
            10,
            serde_json::to_string(&Options::default()).unwrap()
        );
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(header.as_bytes());
        assert_eq!(
            unpack(&bytes),
            Err(ShareError::TooLarge {
                limit: MAX_UNPACKED_BYTES
            })
        );
    }
}
