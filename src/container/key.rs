//! The 32-byte key of encrypted files.

use crate::error::{ErrorKind, Result};

/// A 32-byte AES-256 key, as `open_encrypted` takes it or as `open_encrypted_with_pass`
/// derives it from a password. `Debug` does not show it.
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; 32]);

impl Key {
    /// The key Godot derives from `password` (`String.md5_text()` of it: the 32 lowercase
    /// hex digits of the MD5 of its UTF-8 bytes, taken as ASCII bytes).
    ///
    /// ```
    /// use godot_serde::container::Key;
    /// // "pw".md5_text() in both engines.
    /// assert_eq!(Key::from_password("pw").as_bytes(), b"8fe4c11451281c094a6578e6ddbf5eed");
    /// ```
    #[cfg(feature = "crypto")]
    #[must_use]
    pub fn from_password(password: &str) -> Self {
        use md5::{Digest, Md5};
        let digest = Md5::digest(password.as_bytes());
        let mut key = [0u8; 32];
        for (pair, byte) in key.chunks_exact_mut(2).zip(digest.iter()) {
            for (slot, nibble) in pair.iter_mut().zip([byte >> 4, byte & 15]) {
                *slot = b"0123456789abcdef"
                    .get(usize::from(nibble))
                    .copied()
                    .unwrap_or(b'0');
            }
        }
        Key(key)
    }

    /// A raw key (`open_encrypted(path, mode, key)`).
    #[must_use]
    pub const fn from_bytes(key: [u8; 32]) -> Self {
        Key(key)
    }

    /// A raw key from a slice, which must be 32 bytes long (Godot refuses other sizes with
    /// `ERR_INVALID_PARAMETER`).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidContainer`] when `key` is not 32 bytes.
    pub fn from_slice(key: &[u8]) -> Result<Self> {
        <[u8; 32]>::try_from(key).map(Key).map_err(|_| {
            ErrorKind::InvalidContainer(
                format!("an encryption key is 32 bytes, not {}", key.len()).into(),
            )
            .into()
        })
    }

    /// The 32 key bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}
