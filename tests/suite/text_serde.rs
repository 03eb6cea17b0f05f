//! `text::to_string` / `text::from_str` for ordinary serde types. Expected texts are derived
//! by hand from the engine's writer rules (dictionary keys sorted, one entry per line; Godot 3
//! puts spaces inside brackets).

use godot_serde::{Config, ErrorKind, Vector2, text};
use serde_derive::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Player {
    name: String,
    hp: u32,
    pos: Vector2,
    tags: Vec<String>,
}

fn player() -> Player {
    Player {
        name: "Ada".into(),
        hp: 3,
        pos: Vector2 { x: 1.0, y: 2.5 },
        tags: vec!["a".into()],
    }
}

#[test]
fn a_struct_writes_as_var_to_str_and_reads_back() {
    let s = text::to_string(&player()).unwrap();
    assert_eq!(
        s,
        "{\n\"hp\": 3,\n\"name\": \"Ada\",\n\"pos\": Vector2(1, 2.5),\n\"tags\": [\"a\"]\n}"
    );
    assert_eq!(text::from_str::<Player>(&s).unwrap(), player());
}

#[test]
fn a_struct_writes_as_var2str_for_godot3_and_reads_back() {
    let g3 = Config::godot3();
    let s = text::to_string_with(&player(), g3).unwrap();
    assert_eq!(
        s,
        "{\n\"hp\": 3,\n\"name\": \"Ada\",\n\"pos\": Vector2( 1, 2.5 ),\n\"tags\": [ \"a\" ]\n}"
    );
    assert_eq!(text::from_str_with::<Player>(&s, g3).unwrap(), player());
}

#[test]
fn errors_carry_line_and_column() {
    let err = text::from_str::<Player>("{\n\"hp\": 3,\n\"name\" \"Ada\"}").unwrap_err();
    match err.kind() {
        ErrorKind::TextSyntax { line, column, .. } => assert_eq!((*line, *column), (3, 8)),
        other => panic!("{other:?}"),
    }
    // Text after the value: refused by from_str, returned by take_from_str.
    assert!(text::parse_variant("1 2").is_err());
    let (v, rest) = text::take_from_str("1 2", Config::default()).unwrap();
    assert_eq!((v, rest), (1.into(), " 2"));
}

#[test]
fn depth_limit_and_objects_are_enforced() {
    let deep = "[".repeat(200) + &"]".repeat(200);
    assert!(text::parse_variant(&deep).is_err());
    let ok = Config::default().with_max_depth(300);
    assert!(text::parse_variant_with(&deep, ok).is_ok());
    assert!(text::parse_variant("Object(Node,\"a\":1)").is_err());
    let objects = Config::default().with_allow_objects(true);
    assert!(text::parse_variant_with("Object(Node,\"a\":1)", objects).is_ok());
}

#[test]
fn comments_and_legacy_names_parse() {
    let v = text::parse_variant("[ ; comment\n Quat(0, 0, 0, 1), PoolIntArray(1, 2) ]").unwrap();
    assert_eq!(
        v.to_string(),
        "[Quaternion(0, 0, 0, 1), PackedInt32Array(1, 2)]"
    );
}

#[test]
fn repeated_keys_merge_as_in_the_engine_in_linear_time() {
    // Godot 4.6 fixtures: `{&"a": 1, "a": 2}` is `{&"a": 2}`; `{1: 1, 1.0: 2}` keeps both.
    let v = text::parse_variant("{&\"a\": 1, \"a\": 2}").unwrap();
    assert_eq!(format!("{v:#}"), "{\n&\"a\": 2\n}");
    let v = text::parse_variant("{1: 1, 1.0: 2}").unwrap();
    assert_eq!(format!("{v:#}"), "{\n1: 1,\n1.0: 2\n}");
    // NaN keys are one key (Godot's hash_compare), also inside vectors, and -0 is 0.
    let v = text::parse_variant(
        "{nan: 1, nan: 2, Vector2(nan, 1): 3, Vector2(nan, 1): 4, 0.0: 5, -0.0: 6}",
    )
    .unwrap();
    let godot_serde::Variant::Dictionary(d) = v else {
        panic!("not a dictionary")
    };
    let pairs: Vec<String> = d.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    assert_eq!(pairs, ["nan: 2", "Vector2(nan, 1): 4", "0.0: 6"]);
    // 20000 distinct keys and then each again: linear, and every value replaced in place.
    let n = 20_000;
    let mut s = String::from("{");
    for round in 0..2 {
        for i in 0..n {
            s.push_str(&format!("Vector2({i}, 1): {round},"));
        }
    }
    s.push('}');
    let start = std::time::Instant::now();
    let godot_serde::Variant::Dictionary(d) = text::parse_variant(&s).unwrap() else {
        panic!("not a dictionary")
    };
    assert_eq!(d.len(), n);
    assert!(d.iter().all(|(_, v)| *v == 1.into()));
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
