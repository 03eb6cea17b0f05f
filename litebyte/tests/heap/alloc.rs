//! Heap use of `Schema::decode` under hostile input, measured with a counting global
//! allocator: never more than `DECODE_HEAP_SLACK` + `DECODE_HEAP_PER_BYTE` × the input
//! length (64 KiB + 640 × input), whatever counts the input claims, how deep its arrays nest
//! or how long the schema's field names are. The inputs of issue 11 item 6 are here and in
//! `tests/fixtures/fuzz_seeds/` (the fuzz target's seeds).
//!
//! Run alone with `cargo test -p litebyte --test heap -- --nocapture` to see the worst
//! case. Everything runs inside one `#[test]`, so no other test thread allocates while a
//! case is measured.

use litebyte::{
    DECODE_HEAP_PER_BYTE, DECODE_HEAP_SLACK, ErrorKind, MAX_DEPTH, Mode, Schema, Value,
};
use peak_alloc::PeakAlloc;
use serde::Deserialize;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// Peak heap held above the starting point while `f` runs (its result included).
fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let base = HEAP.current_usage();
    HEAP.reset_peak_usage();
    let r = f();
    let peak = HEAP.peak_usage().saturating_sub(base);
    (peak, r)
}

/// A VarLength: `n + 1` as unsigned LEB128 (spec §2.3).
fn var_length(n: usize) -> Vec<u8> {
    let mut v = n as u64 + 1;
    let mut out = Vec::new();
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

const NAME64: &str = "a_field_name_of_sixty_four_characters_to_show_that_it_is_shared_";

fn schema(name: &str) -> Schema {
    Schema::from_lbs(
        [],
        [
            "struct Levels { Levels[] c; }",
            "struct Bits { OneBit[] items; }",
            format!("struct OneBit {{ Bit1 {name}; }}").as_str(),
            "struct Wrapped { Wrap2[] items; }",
            "struct Wrap2 { Wrap1 w; }",
            "struct Wrap1 { OneBit b; }",
            "struct Bools { Bit1[] items; }",
            "struct Strings { UTF8[] items; }",
        ],
    )
    .unwrap()
}

/// Issue 11.6, first input: `MAX_DEPTH` levels of `Levels[]`, each claiming one element per
/// `bits_per_element` bits left in the input (3-byte VarLengths, so about 400 bytes of
/// levels), then `tail` zero bytes. Before the fix every level reserved
/// `min(count, bytes left)` 32-byte values: 128 × 1 MiB × 32 = 4.29 GB for a 1 MiB tail.
fn nested_levels(tail: usize, bits_per_element: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for level in 0..MAX_DEPTH {
        let left_bits = (3 * (MAX_DEPTH - level - 1) + tail) * 8;
        let n = (left_bits / bits_per_element).min((1 << 21) - 2);
        let len = var_length(n);
        assert_eq!(len.len(), 3);
        out.extend_from_slice(&len);
    }
    out.resize(out.len() + tail, 0);
    out
}

/// Issue 11.6, second input: a `Bits` whose array holds one one-bit `OneBit` per bit of the
/// rest of a `total`-byte input (all zero: every member is `false`). Before the fix each
/// element copied its field name: 1,224 × the input with a 64-character name.
fn flat_one_bit_structs(total: usize) -> Vec<u8> {
    let mut out = (1..=4)
        .map(|len| var_length((total - len) * 8))
        .find(|p| (1..=4).contains(&p.len()) && var_length((total - p.len()) * 8) == *p)
        .unwrap();
    out.resize(total, 0);
    out
}

struct Worst {
    factor: f64,
    what: String,
}

fn check(worst: &mut Worst, s: &Schema, root: &str, input: &[u8], what: &str) -> usize {
    let (peak, r) = peak_of(|| s.decode(root, input, Mode::Strict));
    let budget = DECODE_HEAP_SLACK + DECODE_HEAP_PER_BYTE * input.len();
    assert!(
        peak <= budget,
        "{what}: {peak} bytes of heap for {} bytes of input (budget {budget})",
        input.len()
    );
    let factor = peak.saturating_sub(DECODE_HEAP_SLACK) as f64 / input.len() as f64;
    println!(
        "{what}: {} bytes in, peak {peak} bytes ({factor:.1} x), {}",
        input.len(),
        match &r {
            Ok(_) => "ok".to_string(),
            Err(e) => format!("{e}"),
        }
    );
    if factor > worst.factor {
        *worst = Worst {
            factor,
            what: what.into(),
        };
    }
    drop(r);
    peak
}

#[test]
fn decode_heap_stays_within_budget() {
    let s64 = schema(NAME64);
    let s1 = schema("a");
    let mut worst = Worst {
        factor: 0.0,
        what: String::new(),
    };

    // Nested levels claiming one element per bit left: a `Levels` takes a byte at least (its
    // array's VarLength), so the first count is refused before anything is reserved.
    let input = nested_levels(1 << 20, 1);
    assert!(input.len() - (1 << 20) <= 400);
    let e = s64.decode("Levels", &input, Mode::Strict).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthTooLarge { .. }), "{e}");
    assert_eq!(e.offset(), Some(0));
    check(
        &mut worst,
        &s64,
        "Levels",
        &input,
        "nested levels, 1 bit each",
    );

    // Nested levels claiming one element per byte left: refused at the nesting limit.
    let input = nested_levels(1 << 20, 8);
    let e = s64.decode("Levels", &input, Mode::Strict).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }),
        "{e}"
    );
    let peak = check(
        &mut worst,
        &s64,
        "Levels",
        &input,
        "nested levels, 1 byte each",
    );
    // Together the open levels reserve at most one 32-byte value per input byte (a `Levels`
    // takes one byte at least: its array's VarLength).
    assert!(peak <= DECODE_HEAP_SLACK + 32 * input.len(), "{peak}");

    // One-bit structs: decodes, and the field name's length does not matter.
    for total in [4096, 1 << 16, 1 << 20] {
        let input = flat_one_bit_structs(total);
        let what = format!("one-bit structs, {total} bytes, 64-character name");
        let p64 = check(&mut worst, &s64, "Bits", &input, &what);
        let what = format!("one-bit structs, {total} bytes, 1-character name");
        let p1 = check(&mut worst, &s1, "Bits", &input, &what);
        assert_eq!(p64, p1, "the field name is shared, not copied per element");
        let v = s64.decode("Bits", &input, Mode::Strict).unwrap();
        let Some(Value::Array(items)) = v.get("items") else {
            panic!("{v:?}")
        };
        assert_eq!(items.len(), (total - var_length(items.len()).len()) * 8);
        assert_eq!(items[0].get(NAME64), Some(&Value::Bool(false)));
    }

    // Two single-field wrappers around one bit need 176 bytes per bit: refused by the limit.
    let input = flat_one_bit_structs(1 << 16);
    let e = s64.decode("Wrapped", &input, Mode::Strict).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DecodeLimit { .. }), "{e}");
    check(
        &mut worst,
        &s64,
        "Wrapped",
        &input,
        "wrapped one-bit structs",
    );

    // Plain bits and short strings.
    check(&mut worst, &s64, "Bools", &input, "Bit1[]");
    let mut strings = var_length((1 << 16) - 3);
    strings.resize(1 << 16, 1); // empty strings: VarLength 1 = length 0
    check(&mut worst, &s64, "Strings", &strings, "empty UTF8[]");

    // Counts at the length check's bound for every shape, with and without a tail.
    for root in ["Levels", "Bits", "Wrapped", "Bools", "Strings"] {
        for tail in [0, 1, 100, 4096] {
            // One element per byte left passes the length check of every shape here.
            let mut input = var_length(tail);
            input.resize(input.len() + tail, 0);
            check(
                &mut worst,
                &s64,
                root,
                &input,
                &format!("{root}, tail {tail}"),
            );
        }
    }
    println!("worst: {:.1} x the input ({})", worst.factor, worst.what);

    typed_nested_size_hints_share_one_bound();
}

/// A typed target whose every level opens a sequence of 88-byte elements.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Tree {
    pad: (u64, u64, u64, u64, u64, u64, u64, u64),
    kids: Vec<Tree>,
}

/// The typed decoder gives serde size hints; before they shared one bound, 127 nested
/// `Vec<Tree>` each claiming 4,096 elements made serde reserve 127 × 4,096 × 88 bytes
/// (46 MB) for 2 KB of input. Together the hints now stay within the input bits left.
fn typed_nested_size_hints_share_one_bound() {
    let mut input = Vec::new();
    // The first 127 levels: eight VarUInt64 zeros (3-bit size tags, 0 = one byte, in the
    // bit stream: three bit bytes, each placed where the stream first needs it; eight value
    // bytes), then a VarLength of 4,096 (`81 20`: 4,097 in LEB128), spec §2.
    let level: &[u8] = &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x81, 0x20];
    for _ in 0..127 {
        input.extend_from_slice(level);
    }
    input.resize(input.len() + 600, 0);
    let (peak, r) = peak_of(|| litebyte::from_bytes::<Tree>(&input));
    let e = r.unwrap_err();
    println!(
        "typed nested Vec<Tree>: {} bytes in, peak {peak} bytes: {e}",
        input.len()
    );
    // Together the hints announce at most one element per input bit (before: 45.8 MB).
    assert!(
        peak <= DECODE_HEAP_SLACK + 8 * input.len() * size_of::<Tree>(),
        "{peak}"
    );
}
