//! Godot's `Marshalls.variant_to_base64` / `base64_to_variant` (feature `base64`): the
//! encoded value (no length prefix) as standard padded base64.
//!
//! ```
//! use godot_serde::{Config, marshalls};
//!
//! // Marshalls.variant_to_base64(1)
//! assert_eq!(marshalls::to_base64(&1, Config::godot4())?, "AgAAAAEAAAA=");
//! // Marshalls.base64_to_variant("AgAAAAEAAAA=")
//! let one: i32 = marshalls::from_base64("AgAAAAEAAAA=", Config::godot4())?;
//! assert_eq!(one, 1);
//! # Ok::<(), godot_serde::Error>(())
//! ```

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Serialize, de::DeserializeOwned};

/// Encodes `value` and returns the bytes as standard padded base64
/// (`Marshalls.variant_to_base64`).
///
/// # Errors
///
/// As [`Config::to_bytes`].
#[doc(alias = "variant_to_base64", alias = "var2base64")]
pub fn to_base64<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<String> {
    Ok(STANDARD.encode(config.to_bytes(value)?))
}

/// Decodes standard padded base64 and then the value it holds
/// (`Marshalls.base64_to_variant`).
///
/// # Errors
///
/// [`ErrorKind::Message`] for text that is not valid base64; as [`Config::from_bytes`]
/// otherwise.
#[doc(alias = "base64_to_variant", alias = "base642var")]
pub fn from_base64<T: DeserializeOwned>(text: &str, config: Config) -> Result<T> {
    let bytes = STANDARD.decode(text.trim()).map_err(|e| {
        Error::new(ErrorKind::Message(
            format!("invalid base64: {e}").into_boxed_str(),
        ))
    })?;
    config.from_bytes(&bytes)
}
