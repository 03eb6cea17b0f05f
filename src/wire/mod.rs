//! The Variant wire format with no serde in it (as ciborium-ll and rmp are under their serde
//! crates): what every encoder, decoder and the dump agree on.
//!
//! - [`types`]: the one table of Godot types (names in 3.x and 4.x, ids, payload shape, marker
//!   name); every other list of types derives from it.
//! - [`depth`]: the one nesting guard ([`Depth`](depth::Depth)) and the one stack-growth
//!   helper ([`grow`](depth::grow)) of every reader and writer (binary, `Variant`, text, JSON).
//! - [`header`]: the header word (type id, 64-bit flag, object-as-id flag, typed-container
//!   kinds) and the typed-container [`Descriptor`].
//! - [`string`]: the Godot String field (length, NUL, BOM, padding).
//! - [`output`]: the [`Output`](output::Output) sink (a `Vec<u8>` or a byte counter) and its
//!   word-wise writes (headers, short Strings, padding).
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

pub(crate) mod depth;
pub(crate) mod header;
pub(crate) mod output;
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
