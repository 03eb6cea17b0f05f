//! The `GDEC` files of `FileAccess.open_encrypted` / `open_encrypted_with_pass` (Godot 4) and
//! `File.open_encrypted` / `open_encrypted_with_pass` (Godot 3), also used by
//! `ConfigFile.save_encrypted(_pass)` (`core/io/file_access_encrypted.cpp`).
//!
//! | Godot 3                     | Godot 4                     |
//! |-----------------------------|-----------------------------|
//! | `GDEC` (4 bytes)            | `GDEC` (4 bytes)            |
//! | mode `u32` = 1 (AES-256)    |                             |
//! | MD5 of the plaintext (16)   | MD5 of the plaintext (16)   |
//! | plaintext length `u64`      | plaintext length `u64`      |
//! |                             | IV (16 random bytes)        |
//! | AES-256-ECB of the plaintext zero-padded to 16 bytes | AES-256-CFB128 of the same |
//!
//! Integers are little-endian. The key is 32 bytes; from a password both engines take the
//! lowercase hex text of the password's MD5 (`String.md5_text()`), 32 ASCII bytes.

use super::{Key, Layout, read_u32};
use crate::error::{Error, ErrorKind, Result};
use aes::Aes256;
use aes::cipher::{AsyncStreamCipher, BlockDecrypt, BlockEncrypt, KeyInit, KeyIvInit};
use md5::{Digest, Md5};

/// The first four bytes of an encrypted file.
pub const ENCRYPTED_MAGIC: &[u8; 4] = b"GDEC";

const GODOT3_HEADER: usize = 4 + 4 + 16 + 8;
const GODOT4_HEADER: usize = 4 + 16 + 8 + 16;
/// Godot 3's only mode, `MODE_WRITE_AES256`.
const GODOT3_MODE_AES256: u32 = 1;

/// The header of an encrypted file, read without the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncryptedHeader {
    /// Which engine's layout: Godot 3 (mode field, ECB) or Godot 4 (IV, CFB).
    pub layout: Layout,
    /// The MD5 of the plaintext.
    pub md5: [u8; 16],
    /// The plaintext length.
    pub len: u64,
    /// The IV (Godot 4 only).
    pub iv: Option<[u8; 16]>,
}

impl EncryptedHeader {
    /// Reads the header of `file` and tells the Godot 3 layout from the Godot 4 one: the one
    /// whose length field matches the file's size (Godot 3 has a mode field of 1 at byte 4,
    /// Godot 4 the MD5 there).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidContainer`] without the `GDEC` magic; an end-of-input error
    /// ([`Error::is_eof`]) for a file shorter than its header or its length field says.
    pub fn parse(file: &[u8]) -> Result<Self> {
        let magic = file.get(..4).ok_or_else(|| eof(4, file.len()))?;
        if magic != ENCRYPTED_MAGIC {
            return Err(Error::at(
                ErrorKind::InvalidContainer(
                    format!("not an encrypted Godot file: magic {magic:02x?}, expected \"GDEC\"")
                        .into(),
                ),
                0,
            ));
        }
        let v3 = Self::parse_godot3(file);
        let v4 = Self::parse_godot4(file);
        match (v3, v4) {
            (Ok(v3), Ok(v4)) => {
                // Both fit (an extra tail after one of them): the exact fit wins.
                if body_end(GODOT4_HEADER, v4.len) == Some(file.len()) {
                    Ok(v4)
                } else {
                    Ok(v3)
                }
            }
            (Ok(v3), Err(_)) => Ok(v3),
            (Err(_), Ok(v4)) => Ok(v4),
            // The mode field says Godot 3: its error is the one that explains.
            (Err(e3), Err(e4)) => Err(if read_u32(file, 4) == Some(GODOT3_MODE_AES256) {
                e3
            } else {
                e4
            }),
        }
    }

    fn parse_godot3(file: &[u8]) -> Result<Self> {
        let header = file
            .get(..GODOT3_HEADER)
            .ok_or_else(|| eof(GODOT3_HEADER, file.len()))?;
        let mode = read_u32(header, 4).unwrap_or(0);
        if mode != GODOT3_MODE_AES256 {
            return Err(Error::at(
                ErrorKind::InvalidContainer(format!("unknown encryption mode {mode}").into()),
                4,
            ));
        }
        let md5 = array16(header, 8);
        let len = read_u64(header, 24);
        check_body(file, GODOT3_HEADER, len, 24)?;
        Ok(EncryptedHeader {
            layout: Layout::Godot3,
            md5,
            len,
            iv: None,
        })
    }

    fn parse_godot4(file: &[u8]) -> Result<Self> {
        let header = file
            .get(..GODOT4_HEADER)
            .ok_or_else(|| eof(GODOT4_HEADER, file.len()))?;
        let fields = Godot4Fields::parse(header.get(4..).unwrap_or_default());
        check_body(file, GODOT4_HEADER, fields.len, 20)?;
        Ok(EncryptedHeader {
            layout: Layout::Godot4,
            md5: fields.md5,
            len: fields.len,
            iv: Some(fields.iv),
        })
    }

    fn header_len(&self) -> usize {
        if self.iv.is_some() {
            GODOT4_HEADER
        } else {
            GODOT3_HEADER
        }
    }
}

fn eof(need: usize, have: usize) -> Error {
    Error::at(
        ErrorKind::UnexpectedEof {
            needed: need - have.min(need),
        },
        have,
    )
}

/// `len` rounded up to 16, after `header` bytes: where the ciphertext ends.
fn body_end(header: usize, len: u64) -> Option<usize> {
    let padded = len.checked_add(15)? & !15;
    usize::try_from(padded).ok()?.checked_add(header)
}

/// Fails unless the ciphertext of `len` bytes after `header` bytes fits in `file` (the
/// length field is at `len_at`).
fn check_body(file: &[u8], header: usize, len: u64, len_at: usize) -> Result<()> {
    match body_end(header, len) {
        Some(end) if end <= file.len() => Ok(()),
        _ => Err(Error::at(
            ErrorKind::LengthTooLarge {
                what: "encrypted data length",
                len,
                remaining: file.len() - header,
            },
            len_at,
        )),
    }
}

fn array16(bytes: &[u8], at: usize) -> [u8; 16] {
    let mut out = [0u8; 16];
    if let Some(src) = bytes.get(at..at + 16) {
        out.copy_from_slice(src);
    }
    out
}

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..at + 8)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// Decrypts an encrypted file of either engine (the layout is told apart by
/// [`EncryptedHeader::parse`]) and checks the plaintext's MD5.
///
/// # Errors
///
/// As [`EncryptedHeader::parse`]; [`ErrorKind::WrongKey`] when the MD5 does not match (a
/// wrong password or key, or corrupt ciphertext). Nothing of the wrong plaintext is returned.
pub fn decrypt(file: &[u8], key: &Key) -> Result<Vec<u8>> {
    let header = EncryptedHeader::parse(file)?;
    decrypt_with_header(file, &header, key)
}

/// [`decrypt`] with a header already parsed from `file`.
///
/// # Errors
///
/// As [`decrypt`].
pub fn decrypt_with_header(file: &[u8], header: &EncryptedHeader, key: &Key) -> Result<Vec<u8>> {
    let start = header.header_len();
    let end = body_end(start, header.len)
        .filter(|&end| end <= file.len())
        .ok_or_else(|| {
            eof(
                body_end(start, header.len).unwrap_or(usize::MAX),
                file.len(),
            )
        })?;
    let mut data = file.get(start..end).unwrap_or_default().to_vec();
    match header.iv {
        None => {
            let cipher = Aes256::new(key.as_bytes().as_ref().into());
            for block in data.chunks_exact_mut(16) {
                cipher.decrypt_block(block.into());
            }
        }
        Some(iv) => {
            cfb_mode::Decryptor::<Aes256>::new(key.as_bytes().as_ref().into(), iv.as_ref().into())
                .decrypt(&mut data);
        }
    }
    data.truncate(usize::try_from(header.len).unwrap_or(usize::MAX));
    if Md5::digest(&data).as_slice() != header.md5 {
        return Err(ErrorKind::WrongKey.into());
    }
    Ok(data)
}

/// Encrypts `plain` as the engine of `layout` writes it; Godot 4 files get a random IV from
/// the operating system.
///
/// # Errors
///
/// [`ErrorKind::Io`] when the operating system gives no random bytes.
pub fn encrypt(plain: &[u8], key: &Key, layout: Layout) -> Result<Vec<u8>> {
    if layout == Layout::Godot4 {
        Ok(encrypt_godot4_with_iv(plain, key, random_iv()?))
    } else {
        Ok(encrypt_godot3(plain, key))
    }
}

/// A Godot 4 file with the given IV (what `FileAccess.open_encrypted(path, mode, key, iv)`
/// writes in Godot 4.3+). Reusing an IV with the same key leaks data: prefer [`encrypt`].
#[must_use]
pub fn encrypt_godot4_with_iv(plain: &[u8], key: &Key, iv: [u8; 16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(GODOT4_HEADER + plain.len() + 16);
    out.extend_from_slice(ENCRYPTED_MAGIC);
    let fields = Godot4Fields {
        md5: Md5::digest(plain).into(),
        len: plain.len() as u64,
        iv,
    };
    out.extend_from_slice(&fields.to_bytes());
    let body = padded(plain);
    let start = out.len();
    out.extend_from_slice(&body);
    if let Some(body) = out.get_mut(start..) {
        cfb_mode::Encryptor::<Aes256>::new(key.as_bytes().as_ref().into(), iv.as_ref().into())
            .encrypt(body);
    }
    out
}

/// The fields of Godot 4's layout after the magic: what `FileAccessEncrypted` writes when
/// told to leave the magic out, as it does for each encrypted file and the encrypted
/// directory of a resource pack (`core/io/pck_packer.cpp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Godot4Fields {
    /// The MD5 of the plaintext.
    pub(crate) md5: [u8; 16],
    /// The plaintext length (the ciphertext is that, rounded up to 16).
    pub(crate) len: u64,
    /// The CFB initialisation vector.
    pub(crate) iv: [u8; 16],
}

impl Godot4Fields {
    /// Their size: MD5 (16), length (8), IV (16).
    pub(crate) const SIZE: usize = 16 + 8 + 16;

    /// Reads them from the first [`Self::SIZE`] bytes of `bytes` (zeros where it is shorter:
    /// the caller checks the length).
    pub(crate) fn parse(bytes: &[u8]) -> Self {
        Godot4Fields {
            md5: array16(bytes, 0),
            len: read_u64(bytes, 16),
            iv: array16(bytes, 24),
        }
    }

    /// Their bytes, as the engine writes them.
    pub(crate) fn to_bytes(self) -> [u8; Self::SIZE] {
        let mut out = [0u8; Self::SIZE];
        for (slot, byte) in out.iter_mut().zip(
            self.md5
                .iter()
                .chain(self.len.to_le_bytes().iter())
                .chain(self.iv.iter()),
        ) {
            *slot = *byte;
        }
        out
    }

    /// The ciphertext's length: the plaintext's rounded up to 16 (`None` past `u64`).
    #[cfg(feature = "pck")]
    pub(crate) fn cipher_len(len: u64) -> Option<u64> {
        len.checked_add(15).map(|n| n & !15)
    }
}

/// Godot 4's AES-256-CFB over a stream cut in any pieces (the same bytes as one call over
/// the whole).
#[cfg(feature = "pck")]
pub(crate) struct StreamCipher(StreamMode);

#[cfg(feature = "pck")]
enum StreamMode {
    Encrypt(cfb_mode::BufEncryptor<Aes256>),
    Decrypt(cfb_mode::BufDecryptor<Aes256>),
}

#[cfg(feature = "pck")]
impl StreamCipher {
    /// An encryptor starting at `iv`.
    pub(crate) fn encryptor(key: &Key, iv: &[u8; 16]) -> Self {
        StreamCipher(StreamMode::Encrypt(cfb_mode::BufEncryptor::new(
            key.as_bytes().as_ref().into(),
            iv.as_ref().into(),
        )))
    }

    /// A decryptor starting at `iv`.
    pub(crate) fn decryptor(key: &Key, iv: &[u8; 16]) -> Self {
        StreamCipher(StreamMode::Decrypt(cfb_mode::BufDecryptor::new(
            key.as_bytes().as_ref().into(),
            iv.as_ref().into(),
        )))
    }

    /// Encrypts or decrypts the next piece in place.
    pub(crate) fn apply(&mut self, data: &mut [u8]) {
        match &mut self.0 {
            StreamMode::Encrypt(e) => e.encrypt(data),
            StreamMode::Decrypt(d) => d.decrypt(data),
        }
    }
}

/// 16 random bytes from the operating system, for an IV.
pub(crate) fn random_iv() -> Result<[u8; 16]> {
    let mut iv = [0u8; 16];
    getrandom::fill(&mut iv).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(iv)
}

/// A Godot 3 file (AES-256 applied to each 16-byte block on its own).
#[must_use]
pub fn encrypt_godot3(plain: &[u8], key: &Key) -> Vec<u8> {
    let mut out = Vec::with_capacity(GODOT3_HEADER + plain.len() + 16);
    out.extend_from_slice(ENCRYPTED_MAGIC);
    out.extend_from_slice(&GODOT3_MODE_AES256.to_le_bytes());
    out.extend_from_slice(&Md5::digest(plain));
    out.extend_from_slice(&(plain.len() as u64).to_le_bytes());
    let mut body = padded(plain);
    let cipher = Aes256::new(key.as_bytes().as_ref().into());
    for block in body.chunks_exact_mut(16) {
        cipher.encrypt_block(block.into());
    }
    out.extend_from_slice(&body);
    out
}

/// `plain` zero-padded to a multiple of 16 bytes.
fn padded(plain: &[u8]) -> Vec<u8> {
    let mut body = plain.to_vec();
    body.resize(plain.len().div_ceil(16) * 16, 0);
    body
}
