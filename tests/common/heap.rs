//! Heap budgets for the fuzz checks: a global allocator that counts, per thread, the bytes held
//! and their peak, so that a check can assert that one decode stayed within the budget
//! docs/security.md states for its entry point.
//!
//! The fuzz targets (`fuzz/`, `litebyte/fuzz/`) and the replay tests install [`Tracking`] as
//! their global allocator. This is the fuzzing runs' memory limit: unlike libFuzzer's
//! `-malloc_limit_mb`, which needs a sanitizer's malloc hooks and looks at one allocation at a
//! time, it bounds everything one decode holds at once, nested containers included, and works
//! in a plain (`-s none`) build. Counting is per thread, so tests running side by side do not
//! see each other's allocations. Where [`Tracking`] is not installed, [`within`] checks nothing.
#![allow(dead_code, unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// Fixed slack every budget allows, whatever the input's length.
pub const SLACK: usize = 64 * 1024;

/// The system allocator, counting what each thread holds.
pub struct Tracking;

static INSTALLED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Bytes allocated minus bytes freed on this thread (wrapping: a block may be freed on
    /// another thread than the one that allocated it).
    static HELD: Cell<usize> = const { Cell::new(0) };
    /// The highest `HELD` since the last [`within`] started.
    static PEAK: Cell<usize> = const { Cell::new(0) };
    /// Allocations and reallocations made by this thread ([`allocations`]).
    static CALLS: Cell<usize> = const { Cell::new(0) };
}

fn called() {
    // `try_with`: the thread's slot may already be gone while the thread shuts down.
    let _ = CALLS.try_with(|c| c.set(c.get().wrapping_add(1)));
}

fn grew(n: usize) {
    let _ = HELD.try_with(|held| {
        let now = held.get().wrapping_add(n);
        held.set(now);
        let _ = PEAK.try_with(|peak| {
            if now > peak.get() {
                peak.set(now);
            }
        });
    });
}

fn shrank(n: usize) {
    let _ = HELD.try_with(|held| held.set(held.get().wrapping_sub(n)));
}

// SAFETY: every call forwards to `System` with the same arguments; the counters are plain
// thread-local cells that never allocate.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        called();
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        called();
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        called();
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // While a block moves, the old and the new one are both held.
            grew(new_size);
            shrank(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }
}

/// `SLACK + per_byte × len`: the budget of an entry point that may hold `per_byte` bytes of
/// heap per input byte.
pub fn budget(per_byte: usize, len: usize) -> usize {
    SLACK.saturating_add(per_byte.saturating_mul(len))
}

/// Runs `f` and asserts that the heap this thread held above its starting point, at its
/// peak and with `f`'s result included, stayed within `limit` bytes.
#[track_caller]
pub fn within<R>(limit: usize, what: &str, f: impl FnOnce() -> R) -> R {
    if !INSTALLED.load(Ordering::Relaxed) {
        return f();
    }
    let (r, used) = peak_of(f);
    assert!(
        used <= limit,
        "{what}: held {used} bytes of heap at its peak, over its budget of {limit} bytes"
    );
    r
}

/// Runs `f` and returns its result with the heap this thread held above its starting point
/// at its peak (the result included); 0 where [`Tracking`] is not installed.
pub fn peak_of<R>(f: impl FnOnce() -> R) -> (R, usize) {
    if !INSTALLED.load(Ordering::Relaxed) {
        return (f(), 0);
    }
    let start = HELD.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let r = f();
    let used = PEAK.with(Cell::get).wrapping_sub(start);
    (r, used)
}

/// `open`, then `unit(0)`, `unit(1)`, … while the text is shorter than `len`, then `close`:
/// texts of many distinct small items (keys, sections) of about `len` bytes.
pub fn fill_to(open: &str, unit: impl Fn(usize) -> String, close: &str, len: usize) -> String {
    let mut s = String::from(open);
    let mut i = 0;
    while s.len() < len {
        s.push_str(&unit(i));
        i += 1;
    }
    s.push_str(close);
    s
}

/// `item` repeated in one outer Array (`[item,item,…]`, both the text form and JSON), as
/// many times as fit in `len` bytes: the long runs of one small shape that cost the most heap
/// per byte of text.
pub fn run_of(item: &str, len: usize) -> String {
    let n = (len.saturating_sub(2) / (item.len() + 1)).max(1);
    let mut s = String::with_capacity(len);
    s.push('[');
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(item);
    }
    s.push(']');
    s
}

/// Runs `f` and returns its result with the number of allocations and reallocations this
/// thread made meanwhile.
///
/// # Panics
///
/// Where [`Tracking`] is not installed (nothing would be counted, so a zero would prove
/// nothing).
pub fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    assert!(
        INSTALLED.load(Ordering::Relaxed),
        "heap::Tracking is not this binary's global allocator"
    );
    let before = CALLS.with(Cell::get);
    let r = f();
    (CALLS.with(Cell::get).wrapping_sub(before), r)
}
