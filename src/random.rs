//! Random bytes from the browser's cryptographic generator (`crypto.getRandomValues`), for the
//! keys of sealed files. The engine has no randomness of its own.

/// Fills `bytes` with cryptographically strong random bytes, or says why it could not.
pub fn fill(bytes: &mut [u8]) -> Result<(), String> {
    let crypto = web_sys::window()
        .ok_or("no window")?
        .crypto()
        .map_err(|_| "this browser has no cryptographic random generator".to_string())?;
    crypto
        .get_random_values_with_u8_array(bytes)
        .map_err(|_| "the browser's random generator failed".to_string())?;
    Ok(())
}
