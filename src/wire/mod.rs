//! The Variant wire format with no serde in it (as ciborium-ll and rmp are under their serde
//! crates): what every encoder, decoder and the dump agree on.
//!
//! - [`types`]: the one table of Godot types (names in 3.x and 4.x, ids, payload shape, marker
//!   name); every other list of types derives from it.
//! - [`header`]: the header word (type id, 64-bit flag, object-as-id flag, typed-container
//!   kinds) and the typed-container [`Descriptor`].
//! - [`string`]: the Godot String field (length, NUL, BOM, padding).
//! - [`writer`]: the [`Writer`](writer::Writer): output, depth, header words, lengths, String
//!   fields and padding, under the serde serializer.
//! - [`reader`]: the [`Reader`] every decoding path reads through (input, offset, depth,
//!   budget, String fields, headers).
//! - [`payload`]: the payload rules of the larger types (counts, NodePath head, RID, Object
//!   head, Signal fields, components), on the [`Reader`], one function each.
//!
//! Everything here follows `core/io/marshalls.cpp` (`encode_variant` / `decode_variant`) and
//! `core/variant/variant.h`, as written down in `docs/wire-format.md` (the "spec" of the
//! comments below, with its section numbers).

pub(crate) mod header;
pub(crate) mod payload;
pub(crate) mod reader;
pub(crate) mod string;
pub(crate) mod types;
pub(crate) mod writer;

pub(crate) use header::{
    COUNT_MASK, Descriptor, FLAG_64, FLAG_OBJECT_AS_ID, Header, NodePathHead, shared_word,
};
pub(crate) use payload::{FromNumber, ObjectHead};
pub(crate) use reader::{HeaderAt, Hint, Item, Reader};
pub(crate) use string::{has_nul, padding, zero_byte_in};
pub use types::VariantType;
pub(crate) use types::{Scalar, Shape};

use crate::config::GodotVersion;

/// Deepest nesting Godot accepts (`Variant::MAX_RECURSION_DEPTH`).
pub const GODOT_MAX_DEPTH: usize = 1024;
/// Our default nesting limit (as serde_json's): deep enough for any real game data, shallow
/// enough that decoding hostile input into a `Variant` cannot overflow a 2 MiB thread stack
/// even in a debug build, where a typed Array or object property level costs up to 14 KiB of
/// stack (about 170 levels fit; release builds need under 3 KiB a level).
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// What each engine's layout can carry: the named capabilities the codec tests, rather than
/// "is this Godot 4".
impl GodotVersion {
    /// Header bit 16 on a float math type or packed vector array means f64 components
    /// (spec §2 and §5: 4.x honours it, 3.x ignores it).
    #[must_use]
    pub(crate) const fn has_64bit_reals(self) -> bool {
        !matches!(self, GodotVersion::V3)
    }

    /// A RID carries its `u64` id (spec §4.10: 4.x; 3.x writes the header only).
    #[must_use]
    pub(crate) const fn has_rid_payload(self) -> bool {
        !matches!(self, GodotVersion::V3)
    }
}
