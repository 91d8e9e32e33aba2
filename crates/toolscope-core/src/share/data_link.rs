//! Data links: the inputs in the URL's fragment, as `data=1.<base64url of raw deflate>`, like
//! mermaid live's `#pako:` links. The `1.` is the version: a later toolscope can change the
//! layout and still open (or clearly refuse) links made today.
//!
//! How long a link may be is a choice with reasons, shared by the page and the CLI:
//! [`SHORT_LINK_CHARS`] and [`MAX_LINK_CHARS`].

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use super::{container, ShareError, Shared, MAX_UNPACKED_BYTES};

/// The version this engine writes and reads.
pub const VERSION: &str = "1";

/// Links up to this many characters are copied without comment: they fit a chat message
/// (Slack splits messages past 4,000 characters), an email and a ticket.
pub const SHORT_LINK_CHARS: usize = 4_000;

/// The longest link the page offers (60,000 characters): it still fits a GitHub comment
/// (65,536 characters) and is far under the URLs browsers open (Chromium takes 2 MB). Past it,
/// the page offers a hosted file or folder instead; nothing is ever cut.
pub const MAX_LINK_CHARS: usize = 60_000;

/// Deflate never shrinks data more than about 1,032 to 1, so a container larger than this many
/// times the room a link has cannot fit in it; adapters skip compressing it at all.
const MAX_DEFLATE_RATIO: usize = 1_032;

/// How a link of some length fits where people paste links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkFit {
    /// Up to [`SHORT_LINK_CHARS`]: fits anywhere.
    Short,
    /// Up to [`MAX_LINK_CHARS`]: fits a PR comment and a browser, maybe not every chat app.
    Long,
    /// Past [`MAX_LINK_CHARS`]: host the data instead.
    TooLong,
}

impl LinkFit {
    /// Where a link of `chars` characters fits.
    pub fn of(chars: usize) -> LinkFit {
        if chars <= SHORT_LINK_CHARS {
            LinkFit::Short
        } else if chars <= MAX_LINK_CHARS {
            LinkFit::Long
        } else {
            LinkFit::TooLong
        }
    }
}

/// Whether a container of `packed_bytes` could possibly compress into a link of at most
/// [`MAX_LINK_CHARS`] characters (false means: do not bother compressing it).
pub fn could_fit(packed_bytes: usize) -> bool {
    let room = MAX_LINK_CHARS / 4 * 3;
    packed_bytes <= room.saturating_mul(MAX_DEFLATE_RATIO)
}

/// The fragment value (`1.…`) that carries `shared`.
pub fn encode(shared: &Shared) -> String {
    encode_packed(&container::pack(shared))
}

/// The fragment value for an already packed container.
pub fn encode_packed(packed: &[u8]) -> String {
    let compressed = miniz_oxide::deflate::compress_to_vec(packed, 9);
    format!("{VERSION}.{}", URL_SAFE_NO_PAD.encode(compressed))
}

/// The inputs a fragment value carries.
pub fn decode(value: &str) -> Result<Shared, ShareError> {
    let (version, data) = value.split_once('.').unwrap_or(("", value));
    if version != VERSION {
        return Err(ShareError::UnknownVersion(
            version.chars().take(16).collect::<String>(),
        ));
    }
    // Lenient about padding and about the standard alphabet's `+`/`/`, which some chat apps
    // rewrite links into; strict about anything else.
    let data: String = data
        .trim_end_matches('=')
        .chars()
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            c => c,
        })
        .collect();
    let compressed = URL_SAFE_NO_PAD
        .decode(data.as_bytes())
        .map_err(|error| ShareError::NotBase64(error.to_string()))?;
    container::unpack(&inflate(&compressed)?)
}

/// Raw inflate, stopped at [`MAX_UNPACKED_BYTES`].
pub(crate) fn inflate(compressed: &[u8]) -> Result<Vec<u8>, ShareError> {
    inflate_within(compressed, MAX_UNPACKED_BYTES)
}

fn inflate_within(compressed: &[u8], limit: u64) -> Result<Vec<u8>, ShareError> {
    use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};
    let max_size = usize::try_from(limit).unwrap_or(usize::MAX);
    decompress_to_vec_with_limit(compressed, max_size).map_err(|error| match error.status {
        TINFLStatus::HasMoreOutput => ShareError::TooLarge { limit },
        TINFLStatus::FailedCannotMakeProgress => {
            ShareError::Damaged("the compressed data is cut short".into())
        }
        _ => ShareError::Damaged("the compressed data is not valid deflate".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::SharedFile;
    use crate::{Options, Role};

    fn shared(bytes: &[u8]) -> Shared {
        Shared {
            files: vec![SharedFile {
                name: "calls.json".into(),
                role: Some(Role::Traces),
                bytes: bytes.to_vec(),
            }],
            options: Options::default(),
        }
    }

    #[test]
    fn a_value_decodes_to_what_was_encoded() {
        let original = shared(br#"[{"name": "lookup_order", "args": {"order_id": "A1"}}]"#);
        let value = encode(&original);
        assert!(value.starts_with("1."));
        assert!(value[2..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(decode(&value).unwrap(), original);
    }

    #[test]
    fn a_value_with_the_standard_alphabet_or_padding_still_decodes() {
        let original = shared(&[0xfb; 300]);
        let value = encode(&original);
        let rewritten = format!("{}==", value.replace('-', "+").replace('_', "/"));
        assert_eq!(decode(&rewritten).unwrap(), original);
    }

    #[test]
    fn another_version_is_named_in_the_error() {
        assert_eq!(decode("7.abc"), Err(ShareError::UnknownVersion("7".into())));
        assert!(matches!(decode("abc"), Err(ShareError::UnknownVersion(_))));
    }

    #[test]
    fn damaged_values_are_errors_not_panics() {
        let value = encode(&shared(b"[1, 2, 3]"));
        assert!(matches!(decode("1.***"), Err(ShareError::NotBase64(_))));
        for cut in 1..value.len() - 2 {
            let error = decode(&value[..value.len() - cut]).unwrap_err();
            assert!(
                matches!(error, ShareError::Damaged(_) | ShareError::NotBase64(_)),
                "{error}"
            );
        }
        assert!(matches!(
            decode(&format!(
                "1.{}",
                URL_SAFE_NO_PAD.encode(b"not deflate at all")
            )),
            Err(ShareError::Damaged(_))
        ));
    }

    #[test]
    fn a_bomb_stops_at_the_limit() {
        // 8 MiB of zeros deflate to 8 KB; with a 1 MiB limit, inflating stops at 1 MiB.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![0u8; 8 << 20], 9);
        assert!(bomb.len() < 10_000);
        assert_eq!(
            inflate_within(&bomb, 1 << 20),
            Err(ShareError::TooLarge { limit: 1 << 20 })
        );
        assert_eq!(inflate_within(&bomb, 8 << 20).unwrap().len(), 8 << 20);
    }

    #[test]
    fn fit_follows_the_stated_lengths() {
        assert_eq!(LinkFit::of(SHORT_LINK_CHARS), LinkFit::Short);
        assert_eq!(LinkFit::of(SHORT_LINK_CHARS + 1), LinkFit::Long);
        assert_eq!(LinkFit::of(MAX_LINK_CHARS), LinkFit::Long);
        assert_eq!(LinkFit::of(MAX_LINK_CHARS + 1), LinkFit::TooLong);
    }

    #[test]
    fn only_containers_that_cannot_fit_are_ruled_out_unseen() {
        // Zeros compress near deflate's best ratio; the bound must not rule out what fits.
        let zeros = vec![0u8; 40_000_000];
        assert!(could_fit(zeros.len()));
        assert!(encode_packed(&zeros).len() < MAX_LINK_CHARS);
        assert!(!could_fit(100_000_000));
    }
}
