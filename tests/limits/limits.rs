//! Nesting limits, for decoding and encoding.
use crate::common;
use common::*;
use godot_serde::{Config, DEFAULT_MAX_DEPTH, ErrorKind, GODOT_MAX_DEPTH};
use serde::de::IgnoredAny;

fn depth_error(r: godot_serde::Result<impl Sized>) -> Option<usize> {
    match r {
        Ok(_) => None,
        Err(e) => match e.kind() {
            ErrorKind::DepthLimitExceeded { limit } => Some(*limit),
            other => panic!("unexpected error {other}"),
        },
    }
}

#[test]
fn decoding_fails_exactly_one_past_the_default_limit() {
    let config = Config::default();
    assert_eq!(config.max_depth(), DEFAULT_MAX_DEPTH);
    let ok: godot_serde::Result<serde_json::Value> =
        config.from_bytes(&nested_arrays_g4(DEFAULT_MAX_DEPTH));
    assert!(ok.is_ok());
    let err: godot_serde::Result<IgnoredAny> =
        config.from_bytes(&nested_arrays_g4(DEFAULT_MAX_DEPTH + 1));
    assert_eq!(depth_error(err), Some(DEFAULT_MAX_DEPTH));
}

#[test]
fn godot_limit_1024_matches_the_engine() {
    // Spec §6.1: 1025 nested arrays are accepted when the innermost is empty (its depth is
    // 1024); one more level is refused ("Variant is too deep").
    with_big_stack(|| {
        let config = Config::default().with_max_depth(GODOT_MAX_DEPTH);
        let ok: godot_serde::Result<serde_json::Value> = config.from_bytes(&nested_arrays_g4(1024));
        assert!(ok.is_ok(), "{ok:?}");
        let err: godot_serde::Result<serde_json::Value> =
            config.from_bytes(&nested_arrays_g4(1025));
        assert_eq!(depth_error(err), Some(1024));
        // The reader path counts the same way.
        let err: godot_serde::Result<serde_json::Value> =
            config.from_reader(&nested_arrays_g4(1025)[..]);
        assert_eq!(depth_error(err), Some(1024));
    });
}

fn nested_value(depth: usize) -> serde_json::Value {
    let mut v = serde_json::json!([]);
    for _ in 0..depth {
        v = serde_json::Value::Array(vec![v]);
    }
    v
}

#[test]
fn encoding_fails_exactly_one_past_the_limit() {
    let config = Config::default().with_max_depth(40);
    let bytes = config
        .to_bytes(&nested_value(40))
        .expect("depth 40 is allowed");
    assert_eq!(bytes, nested_arrays_g4(40));
    assert_eq!(depth_error(config.to_bytes(&nested_value(41))), Some(40));
    assert_eq!(
        depth_error(config.serialized_size(&nested_value(41))),
        Some(40)
    );
}

#[test]
fn hostile_depth_is_refused_without_overflowing_the_stack() {
    // 100 000 nested arrays (800 KB) would crash Godot 3.2.3; we stop at the limit.
    let bytes = nested_arrays_g4(100_000);
    for config in [Config::default(), Config::godot3()] {
        let err: godot_serde::Result<IgnoredAny> = config.from_bytes(&bytes);
        assert!(err.is_err());
    }
}

/// Every config the decoder can run in: both engines, double precision on and off, full
/// objects allowed or not.
fn all_configs() -> Vec<Config> {
    let mut out = Vec::new();
    for version in [
        godot_serde::GodotVersion::V3,
        godot_serde::GodotVersion::V4_0,
        godot_serde::GodotVersion::V4_3,
        godot_serde::GodotVersion::V4_4,
    ] {
        for double in [false, true] {
            for objects in [false, true] {
                out.push(
                    Config::new(version)
                        .with_double_precision(double && version.is_godot4())
                        .with_allow_objects(objects),
                );
            }
        }
    }
    out
}

/// `levels` copies of `open`, then `leaf`, then `levels` copies of `close`: the shapes that
/// recurse in the decoder.
fn nest(shape: &Shape, levels: usize) -> Vec<u8> {
    let (open, close) = (hex(shape.open), hex(shape.close));
    let mut v = Vec::with_capacity((open.len() + close.len()) * levels + 8);
    for _ in 0..levels {
        v.extend_from_slice(&open);
    }
    v.extend_from_slice(&hex(shape.leaf));
    for _ in 0..levels {
        v.extend_from_slice(&close);
    }
    v
}

struct Shape {
    name: &'static str,
    godot3: bool,
    open: &'static str,
    leaf: &'static str,
    close: &'static str,
}

/// Each way of nesting values.
const SHAPES: [Shape; 10] = [
    Shape {
        name: "Array",
        godot3: false,
        open: "1c000000 01000000",
        leaf: "00000000",
        close: "",
    },
    Shape {
        name: "Dictionary value",
        godot3: false,
        open: "1b000000 01000000 04000000 01000000 6b000000",
        leaf: "00000000",
        close: "",
    },
    Shape {
        name: "Dictionary key",
        godot3: false,
        open: "1b000000 01000000",
        leaf: "1b000000 00000000",
        close: "00000000",
    },
    Shape {
        name: "typed Array[Array]",
        godot3: false,
        open: "1c000100 1c000000 01000000",
        leaf: "1c000000 00000000",
        close: "",
    },
    Shape {
        name: "typed Dictionary[int, Dictionary] value",
        godot3: false,
        open: "1b000500 02000000 1b000000 01000000 02000000 01000000",
        leaf: "00000000",
        close: "",
    },
    Shape {
        name: "typed Dictionary[Dictionary, int] key",
        godot3: false,
        open: "1b000500 1b000000 02000000 01000000",
        leaf: "1b000000 00000000",
        close: "02000000 01000000",
    },
    Shape {
        name: "Object property",
        godot3: false,
        open: "18000000 01000000 41000000 01000000 01000000 70000000",
        leaf: "00000000",
        close: "",
    },
    Shape {
        name: "enum payload",
        godot3: false,
        open: "1b000000 01000000 04000000 04000000 4e6f6465",
        leaf: "04000000 04000000 4c656166",
        close: "",
    },
    Shape {
        name: "Godot 3 Array",
        godot3: true,
        open: "13000000 01000000",
        leaf: "00000000",
        close: "",
    },
    Shape {
        name: "Godot 3 Dictionary",
        godot3: true,
        open: "12000000 01000000 04000000 01000000 6b000000",
        leaf: "00000000",
        close: "",
    },
];

/// A recursive enum: `{"Node": {"Node": ... "Leaf"}}`.
#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)]
enum Tree {
    Leaf,
    Node(Box<Tree>),
}

/// The layout a shape is written in (Godot 3's or Godot 4's), objects allowed.
fn shape_config(godot3: bool) -> Config {
    if godot3 {
        Config::godot3()
    } else {
        Config::godot4()
    }
    .with_allow_objects(true)
}

/// `bytes` read each way the decoder recurses in its own code: into a `Variant` through serde
/// from a slice and from a reader, skipped as `IgnoredAny` from both, and the direct
/// `variant_from_bytes` / `variant_from_reader`; each outcome with its name.
fn every_path(config: Config, bytes: &[u8]) -> [(&'static str, godot_serde::Result<()>); 6] {
    [
        (
            "Variant",
            config.from_bytes::<godot_serde::Variant>(bytes).map(drop),
        ),
        (
            "from_reader",
            config
                .from_reader::<_, godot_serde::Variant>(bytes)
                .map(drop),
        ),
        (
            "IgnoredAny",
            config.from_bytes::<IgnoredAny>(bytes).map(drop),
        ),
        (
            "IgnoredAny from_reader",
            config.from_reader::<_, IgnoredAny>(bytes).map(drop),
        ),
        (
            "variant_from_bytes",
            config.variant_from_bytes(bytes).map(drop),
        ),
        (
            "variant_from_reader",
            config.variant_from_reader(bytes).map(drop),
        ),
    ]
}

#[test]
fn a_hundred_thousand_levels_of_every_shape_fail_cleanly_in_every_config() {
    // The limit stops the recursion before the stack runs out, whatever recurses; deep levels
    // run on stack segments the decoder adds (see every_shape_at_the_default_limit_fits_a_2_mib_thread).
    on_2_mib_thread(every_shape_100_000_deep);
}

fn every_shape_100_000_deep() {
    for shape in &SHAPES {
        let (name, godot3) = (shape.name, shape.godot3);
        let bytes = nest(shape, 100_000);
        for config in all_configs()
            .into_iter()
            .filter(|c| c.version().is_godot4() != godot3)
        {
            let what = format!("{name} in {config:?}");
            let json: godot_serde::Result<serde_json::Value> = config.from_bytes(&bytes);
            let tree: godot_serde::Result<Tree> = config.from_bytes(&bytes);
            let objects_refused = name.starts_with("Object") && !config.allow_objects();
            for (path, r) in every_path(config, &bytes) {
                let e = r.expect_err(&what);
                if objects_refused {
                    assert!(
                        matches!(e.kind(), ErrorKind::ObjectsNotAllowed { .. }),
                        "{what}: {e}"
                    );
                } else {
                    assert_eq!(
                        depth_error(Err::<(), _>(e)),
                        Some(DEFAULT_MAX_DEPTH),
                        "{what} via {path}"
                    );
                }
            }
            // JSON has only string keys: a Dictionary key (or an int key of a typed
            // Dictionary) fails before the limit.
            assert!(json.is_err(), "{what} as JSON");
            let string_keys = !name.ends_with(" key") && !name.starts_with("typed Dictionary");
            if string_keys && !objects_refused {
                assert_eq!(depth_error(json), Some(DEFAULT_MAX_DEPTH), "{what} as JSON");
            }
            assert!(tree.is_err(), "{what} as an enum");
            if name == "enum payload" {
                assert_eq!(depth_error(tree), Some(DEFAULT_MAX_DEPTH), "{what}");
            }
        }
    }
}

#[test]
fn every_shape_decodes_at_the_limit_and_fails_one_past_it() {
    for shape in &SHAPES {
        let (name, godot3) = (shape.name, shape.godot3);
        let config = shape_config(godot3).with_max_depth(64);
        // `levels` openings put the leaf at depth `levels` (the top level is 0).
        let ok = nest(shape, 64);
        let bad = nest(shape, 65);
        if name == "enum payload" {
            let ok: godot_serde::Result<Tree> = config.from_bytes(&ok);
            assert!(ok.is_ok(), "{name}: {ok:?}");
            assert_eq!(
                depth_error(config.from_bytes::<Tree>(&bad)),
                Some(64),
                "{name}"
            );
            continue;
        }
        for (path, r) in every_path(config, &ok) {
            assert!(r.is_ok(), "{name} at the limit via {path}: {r:?}");
        }
        for (path, r) in every_path(config, &bad) {
            assert_eq!(depth_error(r), Some(64), "{name} via {path}");
        }
    }
}

/// A Variant of Arrays `depth` deep (the innermost empty, at `depth`).
fn deep_variant(depth: usize) -> godot_serde::Variant {
    let mut v = godot_serde::Variant::Array(Box::default());
    for _ in 0..depth {
        v = godot_serde::Variant::Array(Box::new(godot_serde::Array {
            items: vec![v],
            ..Default::default()
        }));
    }
    v
}

#[test]
fn encoding_a_deep_variant_stops_at_the_limit() {
    let v = deep_variant(DEFAULT_MAX_DEPTH);
    let bytes = Config::default().to_bytes(&v).expect("at the limit");
    assert_eq!(bytes, nested_arrays_g4(DEFAULT_MAX_DEPTH));
    let v = deep_variant(DEFAULT_MAX_DEPTH + 1);
    for config in [Config::default(), Config::godot3()] {
        assert_eq!(depth_error(config.to_bytes(&v)), Some(DEFAULT_MAX_DEPTH));
        assert_eq!(
            depth_error(config.serialized_size(&v)),
            Some(DEFAULT_MAX_DEPTH)
        );
    }
    // Godot's own limit, opt-in.
    with_big_stack(|| {
        let config = Config::default().with_max_depth(GODOT_MAX_DEPTH);
        let bytes = config.to_bytes(&deep_variant(1024)).expect("1024 levels");
        assert_eq!(bytes, nested_arrays_g4(1024));
        assert_eq!(
            depth_error(config.to_bytes(&deep_variant(1025))),
            Some(1024)
        );
    });
}

#[test]
fn encoding_a_hundred_thousand_levels_fails_without_overflowing() {
    // Built, encoded and dropped on a big stack: dropping (not encoding) a Variant this deep
    // recurses once per level, like any Rust tree.
    with_big_stack(|| {
        let v = deep_variant(100_000);
        assert_eq!(
            depth_error(godot_serde::to_bytes(&v)),
            Some(DEFAULT_MAX_DEPTH)
        );
        assert_eq!(
            depth_error(Config::godot3().to_bytes(&v)),
            Some(DEFAULT_MAX_DEPTH)
        );
    });
}

/// Issue 11.5: a type recursing through `Option` read the same header again and again
/// without consuming input (`deserialize_option` puts it back), past every depth check.
#[derive(serde_derive::Deserialize, Debug)]
#[allow(dead_code)]
struct Chain(Option<Box<Chain>>);

#[test]
fn recursion_through_option_counts_against_the_depth_limit() {
    // int 5: not nil, so each `Chain` is `Some` of the next, reading the same header.
    let bytes = hex("02000000 05000000");
    // A 2 MiB thread: before the fix this overflowed the stack at any limit.
    let outcome = on_2_mib_thread(move || {
        let mut out = Vec::new();
        for config in [
            Config::default(),
            Config::godot3(),
            Config::default().with_max_depth(GODOT_MAX_DEPTH),
        ] {
            let limit = config.max_depth();
            let e = config.from_bytes::<Chain>(&bytes).unwrap_err();
            let r = config.from_reader::<_, Chain>(&bytes[..]).unwrap_err();
            out.push((limit, e, r));
        }
        out
    });
    for (limit, e, r) in outcome {
        for e in [e, r] {
            assert!(
                matches!(e.kind(), ErrorKind::DepthLimitExceeded { limit: l } if *l == limit),
                "{e}"
            );
            assert_eq!(e.offset(), Some(0), "{e}");
        }
    }
    // Options that end still decode: Some(Some(None)) is the value nil for the innermost.
    let v: Option<Option<Option<i32>>> = godot_serde::from_bytes(&hex("00000000")).unwrap();
    assert_eq!(v, None);
    let v: Option<Option<i32>> = godot_serde::from_bytes(&hex("02000000 05000000")).unwrap();
    assert_eq!(v, Some(Some(5)));
    // An Option key at the limit reads its (already read ahead) header once: no extra level.
    // {"a": 1} with max_depth 1: the key is at depth 1.
    let dict = hex("1b000000 01000000 04000000 01000000 61000000 02000000 01000000");
    let m: std::collections::BTreeMap<Option<String>, Option<i32>> = Config::default()
        .with_max_depth(1)
        .from_bytes(&dict)
        .unwrap();
    assert_eq!(m.get(&Some("a".into())), Some(&Some(1)));
}

/// Issue 11.4: the default limit must fit a 2 MiB thread (Rust's spawned threads, tokio's
/// workers) for every shape, in debug and release builds: 128 nested typed Dictionaries
/// overflowed it in a debug build. Every shape at the limit, decoded into `Variant` (slice and
/// reader), `IgnoredAny`, `serde_json::Value` (untyped) and a recursive enum (typed).
#[test]
fn every_shape_at_the_default_limit_fits_a_2_mib_thread() {
    on_2_mib_thread(every_shape_at_the_default_limit);
}

fn every_shape_at_the_default_limit() {
    for shape in &SHAPES {
        let (name, godot3) = (shape.name, shape.godot3);
        let config = shape_config(godot3);
        let bytes = nest(shape, DEFAULT_MAX_DEPTH);
        let bad = nest(shape, DEFAULT_MAX_DEPTH + 1);
        if name == "enum payload" {
            let ok: godot_serde::Result<Tree> = config.from_bytes(&bytes);
            assert!(ok.is_ok(), "{name}: {ok:?}");
            assert_eq!(
                depth_error(config.from_bytes::<Tree>(&bad)),
                Some(DEFAULT_MAX_DEPTH),
                "{name}"
            );
        }
        for (path, r) in every_path(config, &bytes) {
            assert!(r.is_ok(), "{name} via {path}: {r:?}");
        }
        // JSON has only string keys: a Dictionary key fails, after the whole nesting.
        let _ = config.from_bytes::<serde_json::Value>(&bytes);
        for (path, r) in every_path(config, &bad) {
            assert_eq!(depth_error(r), Some(DEFAULT_MAX_DEPTH), "{name} via {path}");
        }
        // Godot's own limit, 1024, fits too: deeper levels run on added stack segments.
        let deep = config.with_max_depth(GODOT_MAX_DEPTH);
        let bytes = nest(shape, GODOT_MAX_DEPTH);
        let v: godot_serde::Result<godot_serde::Variant> = deep.from_bytes(&bytes);
        assert!(v.is_ok(), "{name} at 1024: {v:?}");
        let v = deep.variant_from_bytes(&bytes);
        assert!(v.is_ok(), "{name} at 1024, direct: {v:?}");
    }
}

/// Issue 11.8: a `Variant` built in code is as deep as the code makes it; its `Drop`,
/// `Clone`, `==`, `Debug` and `Display` recurse. Documented limit (docs/security.md): as
/// deep as the decoder's default limit fits a 2 MiB thread, and Godot's 1024 an 8 MiB one (the
/// main thread's), in debug and release builds, for Arrays, Dictionaries (keys and values)
/// and object properties.
#[test]
fn a_deep_variant_built_in_code_fits_the_documented_stack() {
    for (depth, stack) in [(DEFAULT_MAX_DEPTH, 2 << 20), (GODOT_MAX_DEPTH, 8 << 20)] {
        deep_variant_operations(depth, stack);
    }
}

fn deep_variant_operations(depth: usize, stack: usize) {
    use godot_serde::{Dictionary, Object, Variant};
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let shapes: [fn(Variant) -> Variant; 4] = [
                |v| {
                    Variant::from(godot_serde::Array {
                        items: vec![v],
                        ..Default::default()
                    })
                },
                |v| {
                    let mut d = Dictionary::new();
                    d.insert(Variant::Int(0), v);
                    Variant::from(d)
                },
                |v| {
                    let mut d = Dictionary::new();
                    d.insert(v, Variant::Nil);
                    Variant::from(d)
                },
                |v| {
                    Variant::from(Object {
                        class: "Node".into(),
                        properties: vec![("p".into(), v)],
                    })
                },
            ];
            for wrap in shapes {
                let mut v = Variant::Nil;
                for _ in 0..depth {
                    v = wrap(v);
                }
                let copy = v.clone();
                assert!(copy == v);
                assert!(format!("{v:?}").len() > depth);
                assert!(v.to_string().len() > depth);
                drop(copy);
                drop(v);
            }
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow");
}

/// Issue 22.6: the text form nests as the bytes do, so its parser (and the writer printing
/// what it parsed, and ConfigFile values read through it) must hold Godot's 1024 levels on a
/// 2 MiB thread in debug and release builds, refuse level 1025 and fail cleanly at 100 000.
/// Each shape is `open`×n, `leaf`, `close`×n; the text of issue 22.6 plus a nested key.
const TEXT_SHAPES: [(&str, &str, &str, &str); 6] = [
    ("Array", "[", "", "]"),
    ("typed Array", "Array[Array]([", "", "])"),
    ("Dictionary value", "{0:", "0", "}"),
    ("Dictionary key", "{", "0", ":0}"),
    (
        "typed Dictionary",
        "Dictionary[int, Variant]({0:",
        "0",
        "})",
    ),
    ("object property", "Object(Node,\"p\":", "0", ")"),
];

fn text_nest(open: &str, leaf: &str, close: &str, n: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * n + leaf.len());
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(leaf);
    for _ in 0..n {
        s.push_str(close);
    }
    s
}

/// The parser's depth error (a syntax error naming the limit), or `None` for a value.
fn text_depth_error(r: godot_serde::Result<impl Sized>) -> Option<String> {
    let e = r.err()?;
    match e.kind() {
        ErrorKind::TextSyntax { message, .. } => Some(message.to_string()),
        other => panic!("unexpected error {other}"),
    }
}

#[test]
fn text_form_at_godot_limit_fits_a_2_mib_thread() {
    on_2_mib_thread(text_form_at_godot_limit);
}

fn text_form_at_godot_limit() {
    let limit = "recursion limit of 1024 exceeded";
    for (name, open, leaf, close) in TEXT_SHAPES {
        let config = Config::godot4()
            .with_allow_objects(true)
            .with_max_depth(GODOT_MAX_DEPTH);
        let text = text_nest(open, leaf, close, GODOT_MAX_DEPTH);
        let v = godot_serde::text::parse_variant_with(&text, config);
        let v = v.unwrap_or_else(|e| panic!("{name} at 1024: {e}"));
        // The writer recurses as the parser does; what it prints parses back to the value.
        let printed = godot_serde::text::variant_to_string_with(&v, config);
        let again = godot_serde::text::parse_variant_with(&printed, config)
            .unwrap_or_else(|e| panic!("{name}: printed text does not parse back: {e}"));
        assert!(again == v, "{name}: round trip");
        // As a ConfigFile value, through the lossless document and through serde.
        let file = format!("[s]\nk={text}\n");
        let doc = godot_serde::config_file::Document::parse(&file, config)
            .unwrap_or_else(|e| panic!("{name}: Document::parse at 1024: {e}"));
        let got = doc.get("s", "k").unwrap().expect("the key");
        assert!(got == v, "{name}: Document::get");
        drop((v, again, doc, got));
        // Through serde the file is one Variant: the file and the section are two levels more.
        let inner = text_nest(open, leaf, close, GODOT_MAX_DEPTH - 2);
        let file = format!("[s]\nk={inner}\n");
        let file_value: godot_serde::Variant =
            godot_serde::config_file::from_str_with(&file, config)
                .unwrap_or_else(|e| panic!("{name}: config_file::from_str at 1024: {e}"));
        let inner = godot_serde::text::parse_variant_with(&inner, config).unwrap();
        assert!(
            file_value["s"]["k"] == inner,
            "{name}: config_file::from_str"
        );
        drop((inner, file_value));

        for n in [GODOT_MAX_DEPTH + 1, 100_000] {
            let text = text_nest(open, leaf, close, n);
            let r = godot_serde::text::parse_variant_with(&text, config);
            assert_eq!(text_depth_error(r).as_deref(), Some(limit), "{name} at {n}");
            let file = format!("[s]\nk={text}\n");
            let r = godot_serde::config_file::Document::parse(&file, config);
            assert_eq!(text_depth_error(r).as_deref(), Some(limit), "{name} at {n}");
        }
    }
    // Godot 3's text form nests the same way (`var2str`).
    let config = Config::godot3()
        .with_allow_objects(true)
        .with_max_depth(GODOT_MAX_DEPTH);
    for (name, open, leaf, close) in [
        ("Array", "[", "", "]"),
        ("Dictionary value", "{0:", "0", "}"),
        ("object property", "Object(Node,\"p\":", "0", ")"),
    ] {
        let text = text_nest(open, leaf, close, GODOT_MAX_DEPTH);
        let v = godot_serde::text::parse_variant_with(&text, config)
            .unwrap_or_else(|e| panic!("Godot 3 {name} at 1024: {e}"));
        let printed = godot_serde::text::variant_to_string_with(&v, config);
        let again = godot_serde::text::parse_variant_with(&printed, config)
            .unwrap_or_else(|e| panic!("Godot 3 {name}: printed text does not parse back: {e}"));
        assert!(again == v, "Godot 3 {name}: round trip");
        let text = text_nest(open, leaf, close, 100_000);
        let r = godot_serde::text::parse_variant_with(&text, config);
        assert_eq!(
            text_depth_error(r).as_deref(),
            Some(limit),
            "Godot 3 {name}"
        );
    }
}

/// `Object(Node, "p0": 0, …)` with 4 × the properties takes about 4 × the time (best of 5
/// interleaved runs, a ratio in one run, up to 3 tries): each name is looked up by hash, where
/// comparing each with every earlier one gave 18 × (10,000 → 40,000 properties, 56 ms →
/// 1.03 s in release).
#[test]
fn text_object_properties_read_in_linear_time() {
    let object = |n: usize| {
        let props: Vec<String> = (0..n).map(|i| format!("\"p{i}\":{i}")).collect();
        // One repeated name, so that the last value wins: `"p0": -1` at the end.
        format!("Object(Node,{},\"p0\":-1)", props.join(","))
    };
    let config = Config::godot4().with_allow_objects(true);
    let (small, large) = (object(10_000), object(40_000));
    let once = |text: &str| {
        let start = std::time::Instant::now();
        let v = godot_serde::text::parse_variant_with(text, config).unwrap();
        let t = start.elapsed().as_secs_f64();
        let godot_serde::Variant::Object(o) = v else {
            panic!("not an object")
        };
        // Each name once, where it first came, with its last value.
        assert_eq!(o.properties.first(), Some(&("p0".to_owned(), (-1).into())));
        assert_eq!(o.properties.get(1), Some(&("p1".to_owned(), 1.into())));
        assert!(o.properties.len() == 10_000 || o.properties.len() == 40_000);
        t
    };
    let mut ratio = f64::MAX;
    for _ in 0..3 {
        let (mut ts, mut tl) = (f64::MAX, f64::MAX);
        for _ in 0..5 {
            ts = ts.min(once(&small));
            tl = tl.min(once(&large));
        }
        ratio = ratio.min(tl / ts);
        if ratio < 8.0 {
            break;
        }
    }
    println!("Object of 10,000 → 40,000 properties: time × {ratio:.2}");
    assert!(ratio < 8.0, "4 × the properties took {ratio:.1} × the time");
}
