//! Hostile input to `godot_serde::json`: the text form's limits (docs/security.md). Nesting
//! is bounded by `Config::max_depth` and fits a 2 MiB thread at Godot's 1 024 levels; the heap
//! held while reading stays within 64 KiB + 2 `Variant`s per input byte (the text form's budget); time is linear.

use crate::heap;

// main.rs's allocator counts the heap so each read is held to its budget.
use std::time::Instant;

use godot_serde::{Config, GODOT_MAX_DEPTH, Variant, json};

/// The nesting shapes of the JSON form, each as (opening, closing) text around the next level:
/// an Array, a typed Array, a Dictionary value, a Dictionary key, an object property.
const SHAPES: [(&str, &str, &str); 5] = [
    ("Array", "[", "]"),
    (
        "typed Array",
        r#"{"type":"Array","elem_type":"Array","args":["#,
        "]}",
    ),
    (
        "Dictionary value",
        r#"{"type":"Dictionary","args":["i:0","#,
        "]}",
    ),
    (
        "Dictionary key",
        r#"{"type":"Dictionary","args":["#,
        ",null]}",
    ),
    ("object property", r#"{"type":"Node","props":["p","#, "]}"),
];

fn nest(shape: (&str, &str, &str), levels: usize) -> String {
    let (_, open, close) = shape;
    let inner = if open == "[" { "" } else { "[]" };
    format!("{}{inner}{}", open.repeat(levels), close.repeat(levels))
}

fn on_2_mib_thread(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no stack overflow");
}

#[test]
fn every_shape_reads_at_godots_limit_and_fails_past_it_on_a_2_mib_thread() {
    on_2_mib_thread(|| {
        let config = Config::default()
            .with_allow_objects(true)
            .with_max_depth(GODOT_MAX_DEPTH);
        for shape in SHAPES {
            // The innermost level holds `[]` (one more Array) except for the Array shape.
            let levels = if shape.1 == "[" {
                GODOT_MAX_DEPTH
            } else {
                GODOT_MAX_DEPTH - 1
            };
            let text = nest(shape, levels);
            let v =
                json::parse_variant(&text, config).unwrap_or_else(|e| panic!("{}: {e}", shape.0));
            // And back: written at the limit, read again.
            let written = json::variant_to_string(&v, config).unwrap();
            assert_eq!(
                json::parse_variant(&written, config).unwrap(),
                v,
                "{}",
                shape.0
            );
            let err = json::parse_variant(&nest(shape, levels + 1), config).unwrap_err();
            assert!(err.to_string().contains("nest"), "{}: {err}", shape.0);
            // Far past any limit: refused by the parser without recursing that deep.
            let err = json::parse_variant(&nest(shape, 100_000), config).unwrap_err();
            assert!(err.to_string().contains("too deep"), "{}: {err}", shape.0);
            drop(v);
        }
    });
}

#[test]
fn writing_a_variant_nested_100_000_deep_fails_cleanly() {
    on_2_mib_thread(|| {
        let mut v = Variant::Nil;
        for _ in 0..100_000 {
            v = Variant::from(vec![v]);
        }
        let err = json::variant_to_string(&v, Config::default()).unwrap_err();
        assert!(err.to_string().contains("nesting deeper"), "{err}");
        // Dropping it is the caller's business: unwind it level by level.
        while let Variant::Array(mut a) = v {
            v = a.items.pop().unwrap_or_default();
        }
    });
}

fn repeat(item: &str, n: usize) -> String {
    let mut s = String::from("[");
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(item);
    }
    s.push(']');
    s
}

/// The densest texts per `Variant`: many empty Arrays, nulls, short strings, Vector2s,
/// Dictionaries of distinct keys, packed arrays of one-digit numbers, nested arrays.
fn dense_texts(n: usize) -> Vec<(&'static str, String)> {
    let mut keys = String::from(r#"{"type":"Dictionary","args":["#);
    for i in 0..n {
        keys.push_str(&format!("\"i:{i}\",null,"));
    }
    keys.push_str("]}");
    vec![
        ("empty Arrays", repeat("[]", n)),
        ("nulls", repeat("null", n)),
        ("empty Strings", repeat(r#""s:""#, n)),
        (
            "Vector2s",
            repeat(r#"{"type":"Vector2","args":[0,0]}"#, n / 8),
        ),
        ("a Dictionary of distinct keys", keys),
        (
            "a PackedByteArray",
            format!(r#"{{"type":"PackedByteArray","args":{}}}"#, repeat("0", n)),
        ),
        (
            "a PackedStringArray",
            format!(
                r#"{{"type":"PackedStringArray","args":{}}}"#,
                repeat(r#""""#, n)
            ),
        ),
        (
            "a PackedVector4Array",
            format!(
                r#"{{"type":"PackedVector4Array","args":{}}}"#,
                repeat("0", n)
            ),
        ),
        (
            "repeated keys",
            format!("{{{}\"type\":\"RID\"}}", r#""type":"RID","#.repeat(n / 8)),
        ),
        (
            "127 nested Arrays",
            format!("{}{}", "[".repeat(127), "]".repeat(127)),
        ),
    ]
}

#[test]
fn reading_holds_at_most_64_kib_plus_2_variants_per_byte() {
    let per_byte = 2 * size_of::<Variant>();
    for (what, text) in dense_texts(1 << 17) {
        let v = heap::within(heap::budget(per_byte, text.len()), what, || {
            json::parse_variant(&text, Config::default())
        });
        assert!(v.is_ok(), "{what}: {v:?}");
        println!(
            "{what}: {} bytes read within {} bytes of heap",
            text.len(),
            heap::budget(per_byte, text.len())
        );
    }
}

/// Reading 4× the input takes about 4× the time (measured in one run; the machine is shared,
/// so only the ratio counts, each the best of 5 interleaved runs, a shape measured up to 3
/// times): below 8× for every dense shape, where a quadratic step would give 16×.
#[test]
fn reading_time_is_linear() {
    let once = |text: &str| {
        let start = Instant::now();
        let r = json::parse_variant(text, Config::default());
        let t = start.elapsed().as_secs_f64();
        assert!(r.is_ok());
        t
    };
    let small = dense_texts(1 << 15);
    let large = dense_texts(1 << 17);
    for ((what, s), (_, l)) in small.iter().zip(&large) {
        if what.contains("nested") {
            continue;
        }
        let mut ratio = f64::MAX;
        for _ in 0..3 {
            let (mut ts, mut tl) = (f64::MAX, f64::MAX);
            for _ in 0..5 {
                ts = ts.min(once(s));
                tl = tl.min(once(l));
            }
            ratio = ratio.min(tl / ts);
            if ratio < 8.0 {
                break;
            }
        }
        println!("{what}: {} → {} bytes, time ×{ratio:.2}", s.len(), l.len());
        assert!(
            ratio < 8.0,
            "{what}: 4× the input took {ratio:.1}× the time"
        );
    }
}
