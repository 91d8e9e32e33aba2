//! Sharing a report without a server: the inputs themselves travel, and the page recomputes the
//! exact report from them (drill-down included). Everything here is plain data in, plain data
//! out; the adapters (the page's worker, the CLI) fetch, copy and save the bytes.
//!
//! - A **data link** carries the inputs in the URL's fragment: [`Shared`] packed into one
//!   container ([`pack`]), compressed with raw deflate and base64url encoded behind a version
//!   prefix ([`data_link::encode`]). The fragment never reaches a server.
//! - A **sealed file** (`.tsenc`) is the same container encrypted with AES-256-GCM under a fresh
//!   key ([`sealed::seal`]); the link names where it is hosted and carries the key in the
//!   fragment, so the host never holds anything it can read.
//! - A **manifest** lists hosted files with their roles and digests ([`manifest`]); a hosted
//!   report folder (`toolscope bundle`) is the page's files plus the data and its manifest.
//! - The fragment's keys for all of these (`data`, `src`, `sha256`, `role`, `key`) are read and
//!   written by [`fragment`], so the CLI prints exactly the links the page opens.
//!
//! Every input here is untrusted (it came from a link): sizes are bounded before anything is
//! allocated ([`MAX_UNPACKED_BYTES`], [`MAX_HOSTED_BYTES`]), and every failure is a [`ShareError`]
//! whose message says what happened and what to do.
//!
//! ```
//! use toolscope_core::share::{data_link, Shared, SharedFile};
//! use toolscope_core::{Options, Role};
//!
//! let shared = Shared {
//!     files: vec![SharedFile {
//!         name: "calls.json".into(),
//!         role: Some(Role::Traces),
//!         bytes: br#"[{"name": "lookup_order", "args": {}}]"#.to_vec(),
//!     }],
//!     options: Options::default(),
//! };
//! let value = data_link::encode(&shared);
//! assert!(value.starts_with("1."));
//! assert_eq!(data_link::decode(&value).unwrap(), shared);
//! ```

mod container;
pub mod data_link;
pub mod digest;
pub mod fragment;
pub mod hosted;
pub mod manifest;
pub mod open;
pub mod sealed;

pub use container::{pack, packed_len, unpack, Shared, SharedFile};

/// The most bytes a shared container may unpack to (1 GiB, the engine's limit for one file):
/// decompression stops there, so a small link or file cannot expand into an unbounded one.
pub const MAX_UNPACKED_BYTES: u64 = 1 << 30;

/// The most bytes the page downloads for one hosted file (512 MiB); the download stops there
/// with [`ShareError::TooLarge`]. Larger data is better read from disk.
pub const MAX_HOSTED_BYTES: u64 = 512 << 20;

/// Why shared data could not be opened. Each message says what happened and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    /// The data link's value has no version this engine reads.
    #[error("this link was made by a toolscope that writes version {0} links; open it with a newer toolscope")]
    UnknownVersion(String),
    /// The text is not base64url.
    #[error("the link's data is damaged (not base64url: {0}); copy the whole link again")]
    NotBase64(String),
    /// Decompressing would pass the limit.
    #[error("the shared data unpacks to more than {limit} bytes, the most toolscope reads from a link or hosted file")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The container is damaged or cut short.
    #[error("the shared data is damaged ({0}); copy the whole link or download the file again")]
    Damaged(String),
    /// AES-GCM refused the ciphertext: the key is not the one it was sealed with, or a byte
    /// changed.
    #[error("cannot decrypt: wrong key or damaged file")]
    CannotDecrypt,
    /// A sealed file was given without a key, or a key that is not one.
    #[error("this is an encrypted toolscope file: {0}")]
    BadKey(String),
    /// The file does not start as a sealed file does.
    #[error("not an encrypted toolscope file (.tsenc)")]
    NotSealed,
    /// The bytes are not those the link pinned.
    #[error("its SHA-256 is {actual}, but the link expects {expected}: the file changed since the link was made")]
    DigestMismatch {
        /// The digest the link names.
        expected: String,
        /// The digest of the bytes received.
        actual: String,
    },
    /// A digest in a link that is not 64 hexadecimal digits.
    #[error("the link's sha256 {0:?} is not 64 hexadecimal digits")]
    BadDigest(String),
    /// A URL that cannot be fetched as given.
    #[error("{0}")]
    BadUrl(String),
    /// A manifest that cannot be read.
    #[error("the manifest is not valid: {0}")]
    BadManifest(String),
}
