//! The nesting guards every reader and writer of the crate shares, in one place each:
//!
//! - [`Depth`]: the one depth counter and comparison. The binary decoders (the serde
//!   `Deserializer`, bytes → `Variant`, the dump) through the [`Reader`](super::Reader), the
//!   binary encoder through the [`Writer`](super::writer::Writer), the text parser, and the
//!   JSON form (`JSON.from_native`'s walk, the JSON parser, `to_native`'s walk, and
//!   `serde_json::Value` → JSON, at [`Depth::json_text`]'s two JSON levels per Variant
//!   container) all count levels with it; each keeps the error text its engine gives.
//! - [`grow`] with [`STACK_RED_ZONE`] and [`STACK_SEGMENT`]: the stack every recursion runs
//!   on (the decoders, the Variant serializer and clone, the text parser and writer, the JSON
//!   parser, writer and walks), so that every nesting shape at every depth limit (up to
//!   Godot's 1024) fits a 2 MiB thread in debug and release builds.

use crate::error::{Error, ErrorKind, Result};

/// Stack a nesting level may use before the next one checks again: when less is left, the
/// next level runs on a new segment of [`STACK_SEGMENT`] bytes (heap-allocated by `stacker`).
/// A level takes at most about 20 KiB in unoptimized builds (typed Dictionaries), 3 KiB
/// optimized, plus what the visitor's own frames take; so every nesting shape, at any depth
/// limit, fits any thread, a 2 MiB one (Rust's spawned threads, tokio's workers) included.
pub(crate) const STACK_RED_ZONE: usize = 256 * 1024;

/// Size of each stack segment added when the red zone is reached: 2 MiB.
pub(crate) const STACK_SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `f`, on a new stack segment of [`STACK_SEGMENT`] bytes when less than
/// [`STACK_RED_ZONE`] is left on the current one: each nesting level of every recursion
/// goes through here.
#[inline(always)]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, f)
}

/// The nesting depth of the value about to be read (top level = 0, as Godot counts it) and
/// its limit: see the module docs for who counts with it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Depth {
    /// The current level.
    level: usize,
    /// The deepest level allowed.
    limit: usize,
}

impl Depth {
    /// Level 0 of at most `limit`.
    #[must_use]
    pub(crate) const fn new(limit: usize) -> Self {
        Depth { level: 0, limit }
    }

    /// Level 0 of the JSON text that holds a Variant nested at most `max_depth` levels deep
    /// (`JSON.from_native`'s form): two JSON levels per Variant container (an object holding
    /// `args`), and two for a math type inside the deepest one, so the limit is
    /// `2 * max_depth + 2` (saturating).
    #[must_use]
    #[cfg_attr(not(feature = "json"), allow(dead_code))] // the JSON form only
    pub(crate) const fn json_text(max_depth: usize) -> Self {
        Depth::new(max_depth.saturating_mul(2).saturating_add(2))
    }

    /// The one comparison: whether a value may be read at the current level.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn allows(self) -> bool {
        self.level <= self.limit
    }

    /// The one error: the limit was passed at `offset`.
    #[cold]
    #[must_use]
    pub(crate) fn exceeded(self, offset: usize) -> Error {
        Error::at(ErrorKind::DepthLimitExceeded { limit: self.limit }, offset)
    }

    /// The one error, where there is no input offset (a tree being walked).
    #[cold]
    #[must_use]
    #[cfg_attr(not(feature = "json"), allow(dead_code))] // the JSON form's walk only
    pub(crate) fn exceeded_here(self) -> Error {
        Error::new(ErrorKind::DepthLimitExceeded { limit: self.limit })
    }

    /// `Ok` when a value may be read at the current level, else the error at `offset`.
    #[inline(always)]
    pub(crate) fn check(self, offset: usize) -> Result<()> {
        if self.allows() {
            Ok(())
        } else {
            Err(self.exceeded(offset))
        }
    }

    /// One level deeper.
    #[inline(always)]
    pub(crate) fn enter(&mut self) {
        self.level += 1;
    }

    /// One level deeper, if the limit allows a value there: `false` (and the level
    /// unchanged) when it does not. For the walks that check before they enter.
    #[inline(always)]
    #[must_use]
    pub(crate) fn try_enter(&mut self) -> bool {
        self.enter();
        if self.allows() {
            return true;
        }
        self.leave();
        false
    }

    /// One level back up (never below the top: a writer left by an error may leave once
    /// more than it entered).
    #[inline(always)]
    pub(crate) fn leave(&mut self) {
        self.level = self.level.saturating_sub(1);
    }

    /// The current level.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn level(self) -> usize {
        self.level
    }

    /// The deepest level allowed.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn limit(self) -> usize {
        self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_allows_up_to_the_limit_and_fails_once_past_it() {
        let mut d = Depth::new(2);
        assert!(d.allows());
        d.enter();
        d.enter();
        assert!(d.allows());
        assert!(d.check(0).is_ok());
        d.enter();
        let e = d.check(12).unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::DepthLimitExceeded { limit: 2 }
        ));
        assert_eq!(e.offset(), Some(12));
    }

    #[test]
    fn try_enter_refuses_past_the_limit_and_keeps_the_level() {
        // Limit 1: levels 0 and 1 may hold a value, level 2 may not.
        let mut d = Depth::new(1);
        assert!(d.try_enter());
        assert_eq!(d.level(), 1);
        assert!(!d.try_enter());
        assert_eq!(d.level(), 1);
        d.leave();
        d.leave();
        // Never below the top, however often it is left.
        d.leave();
        assert_eq!(d.level(), 0);
        assert!(d.try_enter());
    }

    #[test]
    fn json_text_is_two_json_levels_a_variant_container_and_two_more() {
        // Variant [[1]] at max_depth 2 is `{"type":"Array","args":[{"type":"Array",
        // "args":[1]}]}`: 4 JSON levels; a Vector2 inside takes 2 more (object, args): 6.
        assert_eq!(Depth::json_text(2).limit(), 6);
        assert_eq!(Depth::json_text(128).limit(), 258);
        assert_eq!(Depth::json_text(usize::MAX).limit(), usize::MAX);
        assert_eq!(Depth::json_text(usize::MAX / 2).limit(), usize::MAX);
    }
}
