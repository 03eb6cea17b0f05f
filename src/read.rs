//! Input sources for the [`Deserializer`](crate::Deserializer): a byte slice (strings and
//! byte arrays are borrowed from it) and any `std::io::Read` (copied through a scratch buffer
//! that grows only as bytes actually arrive).

use crate::error::{Error, ErrorKind, Result};

/// Bytes borrowed from the input (`'b`) or copied into the deserializer's scratch (`'c`).
pub enum Reference<'b, 'c, T: ?Sized> {
    /// Points into the input, lives as long as it.
    Borrowed(&'b T),
    /// Points into scratch space, lives until the next read.
    Copied(&'c T),
}

impl<T: ?Sized> core::ops::Deref for Reference<'_, '_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match *self {
            Reference::Borrowed(b) => b,
            Reference::Copied(c) => c,
        }
    }
}

mod private {
    pub trait Sealed {}
}

/// Where the [`Deserializer`](crate::Deserializer) gets bytes from. Implemented by
/// [`SliceRead`] and [`IoRead`]; sealed.
pub trait Read<'de>: private::Sealed {
    /// Reads exactly `N` bytes.
    #[doc(hidden)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]>;

    /// Reads exactly `len` bytes, borrowed from the input when possible.
    #[doc(hidden)]
    fn read_slice<'s>(
        &'s mut self,
        len: usize,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>>;

    /// Skips up to `len` bytes of padding; the input may end first (Godot does not require
    /// the padding after a final PackedByteArray).
    #[doc(hidden)]
    fn skip_padding(&mut self, len: usize) -> Result<()>;

    /// Bytes consumed so far.
    #[doc(hidden)]
    fn offset(&self) -> usize;

    /// Bytes left, when known (slices), so that lengths can be checked before anything is
    /// allocated.
    #[doc(hidden)]
    fn remaining(&self) -> Option<usize>;

    /// The input from byte `start` on, when it is still at hand (a slice); used only to
    /// describe where an error happened.
    #[doc(hidden)]
    fn input_from(&self, start: usize) -> Option<&'de [u8]> {
        let _ = start;
        None
    }

    /// The bytes not read yet, when they are at hand (a slice), so that the decoder can
    /// match what it expects there before it reads it with [`read_to`](Read::read_to).
    #[doc(hidden)]
    #[inline]
    fn unread(&self) -> Option<&'de [u8]> {
        None
    }

    /// Reads up to `rest`, a suffix of [`unread`](Read::unread): the bytes before it are
    /// read. (Given anything else, offsets would be wrong from here on.)
    #[doc(hidden)]
    #[inline]
    fn read_to(&mut self, rest: &'de [u8]) {
        let _ = rest;
    }
}

/// Reads from a byte slice; strings and byte arrays are borrowed from it.
pub struct SliceRead<'de> {
    /// The bytes not read yet.
    rest: &'de [u8],
    /// Length of the whole input: the offset is how much of it is gone.
    len: usize,
    /// The whole input (for error paths, see [`Read::input_from`]).
    all: &'de [u8],
}

impl<'de> SliceRead<'de> {
    /// Reads `slice` from its start.
    #[must_use]
    pub fn new(slice: &'de [u8]) -> Self {
        SliceRead {
            rest: slice,
            len: slice.len(),
            all: slice,
        }
    }

    /// The bytes not read yet.
    #[must_use]
    pub fn rest(&self) -> &'de [u8] {
        self.rest
    }

    #[cold]
    fn eof(&self, want: usize) -> Error {
        Error::at(
            ErrorKind::UnexpectedEof {
                needed: want.saturating_sub(self.rest.len()),
            },
            self.offset(),
        )
    }

    #[inline]
    fn take(&mut self, len: usize) -> Result<&'de [u8]> {
        match self.rest.split_at_checked(len) {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(bytes)
            }
            None => Err(self.eof(len)),
        }
    }
}

impl private::Sealed for SliceRead<'_> {}

impl<'de> Read<'de> for SliceRead<'de> {
    #[inline]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.rest.split_first_chunk::<N>() {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(*bytes)
            }
            None => Err(self.eof(N)),
        }
    }

    #[inline]
    fn read_slice<'s>(
        &'s mut self,
        len: usize,
        _scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        self.take(len).map(Reference::Borrowed)
    }

    fn skip_padding(&mut self, len: usize) -> Result<()> {
        self.rest = self.rest.get(len..).unwrap_or_default();
        Ok(())
    }

    #[inline]
    fn offset(&self) -> usize {
        self.len - self.rest.len()
    }

    #[inline]
    fn remaining(&self) -> Option<usize> {
        Some(self.rest.len())
    }

    fn input_from(&self, start: usize) -> Option<&'de [u8]> {
        self.all.get(start..)
    }

    #[inline(always)]
    fn unread(&self) -> Option<&'de [u8]> {
        Some(self.rest)
    }

    #[inline(always)]
    fn read_to(&mut self, rest: &'de [u8]) {
        self.rest = rest;
    }
}

/// Reads from any [`std::io::Read`]. Strings and byte arrays are copied; the scratch buffer
/// grows as bytes arrive, from 4 KiB and at most doubling each step, so a forged length
/// cannot make it hold more than twice what the reader really delivered, plus 4 KiB.
pub struct IoRead<R> {
    reader: R,
    offset: usize,
}

/// The first step by which a buffer grows ahead of the bytes actually read; each later step
/// is at most what has arrived so far.
const READ_CHUNK: usize = 4 * 1024;

impl<R: std::io::Read> IoRead<R> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> Self {
        IoRead { reader, offset: 0 }
    }

    /// Gives back the reader.
    pub fn into_inner(self) -> R {
        self.reader
    }

    fn fill(&mut self, buf: &mut [u8]) -> Result<()> {
        let mut done = 0;
        while let Some(rest) = buf.get_mut(done..) {
            if rest.is_empty() {
                break;
            }
            match self.reader.read(rest) {
                Ok(0) => {
                    return Err(Error::at(
                        ErrorKind::UnexpectedEof { needed: rest.len() },
                        self.offset + done,
                    ));
                }
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::at(ErrorKind::Io(e), self.offset + done)),
            }
        }
        self.offset += done;
        Ok(())
    }
}

impl<R> private::Sealed for IoRead<R> {}

impl<'de, R: std::io::Read> Read<'de> for IoRead<R> {
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0; N];
        self.fill(&mut out)?;
        Ok(out)
    }

    fn read_slice<'s>(
        &'s mut self,
        len: usize,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        scratch.clear();
        while scratch.len() < len {
            let have = scratch.len();
            let step = (len - have).min(have.max(READ_CHUNK));
            // Exactly: amortized growth could double a buffer that is mostly unread.
            scratch.reserve_exact(step);
            scratch.resize(have + step, 0);
            if let Some(dst) = scratch.get_mut(have..) {
                self.fill(dst).map_err(|e| match e.kind() {
                    ErrorKind::UnexpectedEof { needed } => Error::at(
                        ErrorKind::UnexpectedEof {
                            needed: needed + (len - have - step),
                        },
                        self.offset,
                    ),
                    _ => e,
                })?;
            }
        }
        Ok(Reference::Copied(scratch.as_slice()))
    }

    fn skip_padding(&mut self, len: usize) -> Result<()> {
        let mut pad = [0u8; 3];
        let mut left = len.min(pad.len());
        while left > 0 {
            match self.reader.read(pad.get_mut(..left).unwrap_or_default()) {
                Ok(0) => break,
                Ok(n) => {
                    self.offset += n;
                    left = left.saturating_sub(n);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::at(ErrorKind::Io(e), self.offset)),
            }
        }
        Ok(())
    }

    fn offset(&self) -> usize {
        self.offset
    }

    fn remaining(&self) -> Option<usize> {
        None
    }
}
