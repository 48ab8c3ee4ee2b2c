//! Unguessable handles: a prefix plus 16 random bytes as unpadded base64url (22 characters).

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::Rng as _;

/// The number of characters after the prefix (16 bytes, base64url without padding).
pub const HANDLE_TOKEN_LEN: usize = 22;

/// A fresh handle with the given prefix, e.g. `res_` or `art_`.
pub(crate) fn new_handle(prefix: &str) -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    let mut handle = String::with_capacity(prefix.len() + HANDLE_TOKEN_LEN);
    handle.push_str(prefix);
    URL_SAFE_NO_PAD.encode_string(bytes, &mut handle);
    handle
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_handle_is_its_prefix_and_a_token() {
        let handle = super::new_handle("res_");
        assert!(handle.starts_with("res_"), "{handle}");
        assert_eq!(handle.len(), "res_".len() + super::HANDLE_TOKEN_LEN);
    }

    use super::*;

    #[test]
    fn handles_have_prefix_and_url_safe_token() {
        let h = new_handle("art_");
        assert_eq!(h.len(), 4 + HANDLE_TOKEN_LEN);
        assert!(
            h[4..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_ne!(new_handle("art_"), h);
    }
}
