//! Sealed files (`.tsenc`): the inputs' container, compressed, then encrypted with AES-256-GCM
//! under a fresh random key, as Excalidraw seals its shared scenes. The file can be hosted
//! anywhere; the key travels only in the link's fragment (`#src=…&key=…`), which no server sees,
//! so the host holds nothing it can read. Deleting the file revokes every link to it.
//!
//! Layout: the magic `toolscope-sealed 1\n`, a 12-byte nonce, then the ciphertext with GCM's
//! 16-byte tag. The magic is authenticated too (as associated data), so no byte of the file can
//! change without [`open`] refusing it. The adapters make the key and nonce (the core has no
//! randomness).

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use super::data_link::inflate;
use super::{container, ShareError, Shared};

const MAGIC: &[u8] = b"toolscope-sealed 1\n";
const NONCE_BYTES: usize = 12;

/// The name sealed files are given by default.
pub const EXTENSION: &str = "tsenc";

/// A 256-bit key, written in links as 43 characters of base64url.
#[derive(Clone, PartialEq, Eq)]
pub struct ShareKey([u8; 32]);

impl std::fmt::Debug for ShareKey {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A key printed by accident (a log, a panic) must not be usable.
        out.write_str("ShareKey(…)")
    }
}

impl ShareKey {
    /// A key from 32 random bytes (the adapter's random source).
    pub fn from_bytes(bytes: [u8; 32]) -> ShareKey {
        ShareKey(bytes)
    }

    /// The key as it appears in a link.
    pub fn to_text(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0)
    }

    /// The key a link carries.
    pub fn parse(text: &str) -> Result<ShareKey, ShareError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(text.trim_end_matches('=').as_bytes())
            .ok()
            .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
            .ok_or_else(|| {
                ShareError::BadKey(
                    "the link's key is not a toolscope key (43 characters of base64url); copy the whole link again"
                        .into(),
                )
            })?;
        Ok(ShareKey(bytes))
    }
}

/// Whether the bytes start as a sealed file does.
pub fn is_sealed(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The sealed file for `shared`, under `key` with `nonce` (fresh random bytes each time).
pub fn seal(shared: &Shared, key: &ShareKey, nonce: [u8; NONCE_BYTES]) -> Vec<u8> {
    let compressed = miniz_oxide::deflate::compress_to_vec(&container::pack(shared), 6);
    let cipher = Aes256Gcm::new(&key.0.into());
    let ciphertext = cipher
        .encrypt(
            Nonce::from_slice(&nonce),
            Payload {
                msg: &compressed,
                aad: MAGIC,
            },
        )
        .expect("AES-GCM encrypts any message under 64 GB");
    let mut out = Vec::with_capacity(MAGIC.len() + NONCE_BYTES + ciphertext.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&ciphertext);
    out
}

/// The inputs in a sealed file. Nothing is returned unless every byte is as sealed under this
/// key: a wrong key and a changed byte give the same [`ShareError::CannotDecrypt`].
pub fn open(bytes: &[u8], key: &ShareKey) -> Result<Shared, ShareError> {
    let rest = bytes.strip_prefix(MAGIC).ok_or(ShareError::NotSealed)?;
    if rest.len() < NONCE_BYTES {
        return Err(ShareError::CannotDecrypt);
    }
    let (nonce, ciphertext) = rest.split_at(NONCE_BYTES);
    let cipher = Aes256Gcm::new(&key.0.into());
    let compressed = cipher
        .decrypt(
            Nonce::from_slice(nonce),
            Payload {
                msg: ciphertext,
                aad: MAGIC,
            },
        )
        .map_err(|_| ShareError::CannotDecrypt)?;
    container::unpack(&inflate(&compressed)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::SharedFile;
    use crate::{Options, Role};

    fn shared() -> Shared {
        Shared {
            files: vec![SharedFile {
                name: "sessions.jsonl".into(),
                role: Some(Role::Traces),
                bytes: b"{\"session_id\": \"s1\", \"events\": []}\n".repeat(50),
            }],
            options: Options::default(),
        }
    }

    fn key(byte: u8) -> ShareKey {
        ShareKey::from_bytes([byte; 32])
    }

    #[test]
    fn the_right_key_opens_what_was_sealed() {
        let sealed = seal(&shared(), &key(7), [3; 12]);
        assert!(is_sealed(&sealed));
        assert_eq!(open(&sealed, &key(7)).unwrap(), shared());
    }

    #[test]
    fn a_wrong_key_cannot_decrypt() {
        let sealed = seal(&shared(), &key(7), [3; 12]);
        assert_eq!(open(&sealed, &key(8)), Err(ShareError::CannotDecrypt));
    }

    #[test]
    fn any_flipped_byte_cannot_decrypt() {
        let sealed = seal(&shared(), &key(7), [3; 12]);
        for index in MAGIC.len()..sealed.len() {
            let mut damaged = sealed.clone();
            damaged[index] ^= 1;
            assert_eq!(
                open(&damaged, &key(7)),
                Err(ShareError::CannotDecrypt),
                "byte {index}"
            );
        }
        assert_eq!(
            open(&sealed[..MAGIC.len() + 5], &key(7)),
            Err(ShareError::CannotDecrypt)
        );
    }

    #[test]
    fn other_files_are_not_sealed_files() {
        assert!(!is_sealed(b"[1, 2]"));
        assert_eq!(open(b"[1, 2]", &key(1)), Err(ShareError::NotSealed));
    }

    #[test]
    fn keys_round_trip_as_text_and_bad_ones_are_refused() {
        let text = key(200).to_text();
        assert_eq!(text.len(), 43);
        assert_eq!(ShareKey::parse(&text).unwrap(), key(200));
        assert!(matches!(
            ShareKey::parse("short"),
            Err(ShareError::BadKey(_))
        ));
        assert!(matches!(
            ShareKey::parse(&"A".repeat(44)),
            Err(ShareError::BadKey(_))
        ));
    }

    #[test]
    fn a_key_never_prints() {
        assert_eq!(format!("{:?}", key(9)), "ShareKey(…)");
    }
}
