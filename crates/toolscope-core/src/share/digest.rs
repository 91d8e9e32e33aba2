//! SHA-256 digests that pin a link to the exact bytes it was made for.

use sha2::{Digest, Sha256};

use super::ShareError;

/// The SHA-256 of `bytes`, as 64 lowercase hexadecimal digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// A digest as a link or manifest gives it, in lowercase; an error when it is not 64
/// hexadecimal digits.
pub fn parse(text: &str) -> Result<String, ShareError> {
    if text.len() == 64 && text.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(ShareError::BadDigest(text.chars().take(80).collect()))
    }
}

/// Ok when `bytes` have the digest `expected` (any case).
pub fn check(bytes: &[u8], expected: &str) -> Result<(), ShareError> {
    let expected = parse(expected)?;
    let actual = sha256_hex(bytes);
    if actual == expected {
        Ok(())
    } else {
        Err(ShareError::DigestMismatch { expected, actual })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_sha256_as_the_standard_gives_it() {
        // FIPS 180-2's example "abc".
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn matching_bytes_pass_in_either_case_and_others_say_both_digests() {
        let upper = sha256_hex(b"abc").to_ascii_uppercase();
        assert_eq!(check(b"abc", &upper), Ok(()));
        let Err(ShareError::DigestMismatch { expected, actual }) = check(b"abd", &upper) else {
            panic!("a changed file must not pass");
        };
        assert_eq!(expected, sha256_hex(b"abc"));
        assert_eq!(actual, sha256_hex(b"abd"));
    }

    #[test]
    fn a_malformed_digest_is_its_own_error() {
        assert!(matches!(
            check(b"abc", "abc"),
            Err(ShareError::BadDigest(_))
        ));
        assert!(matches!(
            check(b"abc", &"g".repeat(64)),
            Err(ShareError::BadDigest(_))
        ));
    }
}
