//! [`Writer`]: the wire's writing half with no serde in it (as ciborium-ll's `Encoder` is
//! under ciborium): it owns the output, the nesting depth and its limit, and writes header
//! words, lengths, String fields and padding by the rules of `encode_variant`
//! (`core/io/marshalls.cpp`). The serde [`Serializer`](crate::Serializer) is its client, and
//! through it every path that makes bytes (`to_variant` is the bytes decoded).

use crate::config::{Config, GodotVersion};
use crate::error::{Error, ErrorKind, Result};
use crate::wire::depth::Depth;
use crate::wire::output::{Output, put_padding};
use crate::wire::{Header, VariantType, has_nul, string};

/// Writes Variant bytes to an [`Output`]: see the module docs.
pub(crate) struct Writer<W> {
    /// Where the bytes go.
    pub(crate) out: W,
    /// The target layout.
    version: GodotVersion,
    /// Depth of the value being written (top level = 0, as Godot counts it) and its limit
    /// ([`Config::max_depth`]).
    pub(crate) depth: Depth,
}

impl<W: Output> Writer<W> {
    /// A writer to `out` for `config`'s layout and depth limit.
    #[inline]
    pub(crate) fn new(out: W, config: &Config) -> Self {
        Writer {
            out,
            version: config.version,
            depth: Depth::new(config.max_depth),
        }
    }

    /// Gives back the output.
    #[inline]
    pub(crate) fn into_inner(self) -> W {
        self.out
    }

    /// Appends one little-endian word.
    #[inline]
    pub(crate) fn put_u32(&mut self, v: u32) {
        self.out.put(&v.to_le_bytes());
    }

    /// An error at the current output position.
    #[cold]
    pub(crate) fn error(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.out.pos())
    }

    /// `ty`'s header word without flags in the target, or the error for a type it lacks.
    #[inline]
    pub(crate) fn type_id(&self, ty: VariantType) -> Result<u32> {
        match Header::encode(ty, self.version, 0) {
            Some(word) => Ok(word),
            None => self.other_type_id(ty),
        }
    }

    fn other_type_id(&self, ty: VariantType) -> Result<u32> {
        ty.id(self.version).map(u32::from).ok_or_else(|| {
            self.error(ErrorKind::TypeNotInTarget {
                ty,
                version: self.version,
            })
        })
    }

    /// Whether the value about to be written is nested beyond the limit (Godot checks
    /// `depth > MAX_RECURSION_DEPTH` on entry to every value), by the crate's one depth
    /// guard ([`Depth::allows`]).
    #[inline]
    pub(crate) fn too_deep(&self) -> bool {
        !self.depth.allows()
    }

    /// The depth-limit error.
    #[cold]
    pub(crate) fn depth_error(&self) -> Error {
        self.depth.exceeded(self.out.pos())
    }

    /// Fails when the value about to be written is nested beyond the limit.
    #[inline]
    pub(crate) fn check_depth(&self) -> Result<()> {
        if self.too_deep() {
            return Err(self.depth_error());
        }
        Ok(())
    }

    /// One container level in (checked by [`too_deep`](Self::too_deep) on the next value).
    #[inline]
    pub(crate) fn enter(&mut self) {
        self.depth.enter();
    }

    /// One container level out.
    #[inline]
    pub(crate) fn leave(&mut self) {
        self.depth.leave();
    }

    /// Godot's String field: length, UTF-8, zero padding.
    pub(crate) fn string_field(&mut self, s: &str) -> Result<()> {
        self.len_u32(s.len(), "String")?;
        self.out.put(s.as_bytes());
        self.pad(s.len());
        Ok(())
    }

    /// Godot cuts strings at the first NUL when decoding: refuse to write one rather than
    /// let the engine read a different string.
    #[inline]
    pub(crate) fn check_no_nul(&self, s: &str) -> Result<()> {
        if has_nul(s.as_bytes()) {
            return Err(self.nul_error());
        }
        Ok(())
    }

    /// The error for a text with a NUL.
    #[cold]
    pub(crate) fn nul_error(&self) -> Error {
        self.error(ErrorKind::Unsupported(
            "string contains a NUL character, where Godot would cut it".into(),
        ))
    }

    /// Zeros after `len` bytes of text, up to a multiple of 4.
    #[inline]
    pub(crate) fn pad(&mut self, len: usize) {
        put_padding(&mut self.out, len);
    }

    /// A length Godot reads as a signed 32-bit int, as the word to write.
    #[inline]
    pub(crate) fn len_i32(&self, len: usize, what: &'static str) -> Result<u32> {
        match string::len_word(len) {
            Some(n) => Ok(n),
            None => Err(self.len_error(len, what)),
        }
    }

    #[cold]
    fn len_error(&self, len: usize, what: &'static str) -> Error {
        self.error(ErrorKind::Unsupported(
            format!("{what} of {len} elements exceeds Godot's 2^31 - 1 limit").into(),
        ))
    }

    /// Writes a length Godot reads as a signed 32-bit int.
    #[inline]
    pub(crate) fn len_u32(&mut self, len: usize, what: &'static str) -> Result<()> {
        let n = self.len_i32(len, what)?;
        self.put_u32(n);
        Ok(())
    }
}
