//! The engine hint: on a failed decode, whether the other engine's layout decodes the bytes
//! ([`Error::decodes_as`]).

#[allow(clippy::wildcard_imports)]
use super::*;

/// Bytes the engine hint may always read, however early the failed decode stopped: enough
/// for a message or a small state, so the hint works where it helps most.
pub(crate) const HINT_MIN_BYTES: usize = 4096;

/// `e`, the error of decoding `bytes` as a `T` with `config`, with
/// [`Error::decodes_as`] set when the other engine's layout decodes them (`whole`: all of
/// them, as [`Config::from_bytes`] requires). Runs only on the error path.
///
/// The failed decode read `used` bytes; the hint reads at most that many, or
/// [`HINT_MIN_BYTES`], so rejecting hostile bytes never costs more than twice the failed
/// decode (plus a constant): input that the other layout would read further gets no hint.
/// The decoders' work is linear in the bytes they read.
#[cold]
#[inline(never)]
pub(crate) fn with_engine_hint<'de, T: de::Deserialize<'de>>(
    e: Error,
    bytes: &'de [u8],
    used: usize,
    config: Config,
    whole: bool,
) -> Error {
    if matches!(e.kind(), ErrorKind::Io(_)) || bytes.is_empty() {
        return e;
    }
    let budget = used.max(HINT_MIN_BYTES);
    if whole && bytes.len() > budget {
        return e;
    }
    // A value longer than the budget fails at the cut (its counts are checked against the
    // bytes left), having read at most the budget.
    let bytes = bytes.get(..budget).unwrap_or(bytes);
    let other = if config.version.is_godot4() {
        GodotVersion::V3
    } else {
        GodotVersion::V4_4
    };
    let mut de = Deserializer::from_slice(bytes, config.with_version(other));
    let decodes = T::deserialize(&mut de).is_ok() && (!whole || de.end().is_ok());
    if decodes { e.with_decodes_as(other) } else { e }
}
