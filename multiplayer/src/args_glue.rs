//! The one way received Godot 4 arguments become a typed value: [`decode`], which
//! [`RemoteCall::args_as`](crate::RemoteCall::args_as) goes through. It decodes to Variants
//! and converts them; a direct serde deserializer over the argument bytes can replace its body
//! without changing a caller.

use serde::de::DeserializeOwned;

use crate::ProtocolError;
use crate::args::{Args, from_arguments};

/// The arguments `args` as `T` (a tuple or struct, fields in order).
///
/// # Errors
///
/// What [`Args::decode`] reports for malformed bytes (with the argument's index and byte
/// offset), [`ProtocolError::ArgumentType`] (with an empty method name, which the caller
/// fills in) when they do not fit `T`.
pub(crate) fn decode<T: DeserializeOwned>(args: &Args<'_>) -> Result<T, ProtocolError> {
    let list = args.decode()?;
    from_arguments("", &list)
}
