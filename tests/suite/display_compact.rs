//! The default `Display` of a Variant is one line (`{:#}` is `var_to_str`, checked against the
//! engine in `tests/suite/display.rs`). The one-line texts here are derived by hand from the engine's
//! `var_to_str` text (Godot 4.6, shown next to each): the dictionary's line breaks become
//! `, ` and the newline after an object goes; nothing else changes.

use crate::fuzz_checks;
use crate::generate;

use godot_serde::{
    Array, Config, ContainerType, Dictionary, GodotVersion, Object, ObjectId, StringName, Variant,
    VariantType, Vector2, text,
};

fn dict(entries: Vec<(Variant, Variant)>) -> Dictionary {
    let mut d = Dictionary::new();
    for (k, v) in entries {
        d.insert(k, v);
    }
    d
}

fn arr(items: Vec<Variant>) -> Variant {
    Variant::from(Array {
        items,
        ..Default::default()
    })
}

/// (value, engine `var_to_str`, one-line form).
fn cases() -> Vec<(Variant, &'static str, &'static str)> {
    let nested = dict(vec![(
        Variant::Int(1),
        Variant::from(dict(vec![(
            "k".into(),
            arr(vec![Variant::Vector2(Vector2 { x: 1.0, y: 2.0 })]),
        )])),
    )]);
    let mut typed = dict(vec![(Variant::Int(1), "a".into())]);
    typed.set_key_type(ContainerType::Builtin(VariantType::Int));
    typed.set_value_type(ContainerType::Builtin(VariantType::String));
    let object = Variant::Object(Box::new(Object {
        class: "Node".into(),
        properties: vec![("name".into(), "n".into()), ("script".into(), Variant::Nil)],
    }));
    vec![
        (
            Variant::from(dict(vec![
                ("b".into(), Variant::Float(1.0)),
                ("a".into(), arr(vec![1.into(), "x".into()])),
            ])),
            "{\n\"a\": [1, \"x\"],\n\"b\": 1.0\n}",
            "{\"a\": [1, \"x\"], \"b\": 1.0}",
        ),
        (Variant::from(Dictionary::new()), "{}", "{}"),
        (
            Variant::from(nested),
            "{\n1: {\n\"k\": [Vector2(1, 2)]\n}\n}",
            "{1: {\"k\": [Vector2(1, 2)]}}",
        ),
        (
            Variant::from(typed),
            "Dictionary[int, String]({\n1: \"a\"\n})",
            "Dictionary[int, String]({1: \"a\"})",
        ),
        (
            object.clone(),
            "Object(Node,\"name\":\"n\",\"script\":null)\n",
            "Object(Node,\"name\":\"n\",\"script\":null)",
        ),
        (
            arr(vec![object, 2.into()]),
            "[Object(Node,\"name\":\"n\",\"script\":null)\n, 2]",
            "[Object(Node,\"name\":\"n\",\"script\":null), 2]",
        ),
        (
            Variant::ObjectId(ObjectId(5)),
            "Object(EncodedObjectAsID,\"object_id\":5,\"script\":null)\n",
            "Object(EncodedObjectAsID,\"object_id\":5,\"script\":null)",
        ),
        // Strings keep their raw newlines in both forms (the syntax does not escape them);
        // a StringName escapes them.
        (
            arr(vec![
                "a\nb".into(),
                Variant::StringName(StringName("c\nd".into())),
            ]),
            "[\"a\nb\", &\"c\\nd\"]",
            "[\"a\nb\", &\"c\\nd\"]",
        ),
    ]
}

#[test]
fn default_display_is_one_line_and_alternate_is_var_to_str() {
    for (value, engine, compact) in cases() {
        assert_eq!(format!("{value:#}"), engine);
        assert_eq!(value.to_string(), compact);
        // The exact engine text stays where it was.
        let config = Config::new(GodotVersion::V4_4).with_allow_objects(true);
        assert_eq!(text::to_string_with(&value, config).unwrap(), engine);
        // Read back: the same value as the engine's text gives.
        let back = text::parse_variant_with(compact, config).unwrap();
        assert_eq!(format!("{back:#}"), engine);
    }
}

#[test]
fn container_and_object_types_follow_the_same_rule() {
    let d = dict(vec![("x".into(), 1.into()), ("y".into(), 2.into())]);
    assert_eq!(d.to_string(), "{\"x\": 1, \"y\": 2}");
    assert_eq!(format!("{d:#}"), "{\n\"x\": 1,\n\"y\": 2\n}");
    let o = Object {
        class: "C".into(),
        properties: vec![("p".into(), Variant::from(d))],
    };
    assert_eq!(o.to_string(), "Object(C,\"p\":{\"x\": 1, \"y\": 2})");
    assert_eq!(
        format!("{o:#}"),
        "Object(C,\"p\":{\n\"x\": 1,\n\"y\": 2\n})\n"
    );
    assert_eq!(
        ObjectId(7).to_string(),
        "Object(EncodedObjectAsID,\"object_id\":7,\"script\":null)"
    );
    // A Godot 3 value prints in Godot 4 syntax on one line; its exact Godot 3 text is elsewhere.
    let g3 = Variant::from(dict(vec![(
        "v".into(),
        Variant::Vector2(Vector2 { x: 1.0, y: 2.0 }),
    )]));
    assert_eq!(g3.to_string(), "{\"v\": Vector2(1, 2)}");
    assert_eq!(g3.to_godot3_string(), "{\n\"v\": Vector2( 1, 2 )\n}");
}

/// Random values of every type, nested (strings from the generator never hold a newline):
/// the default text never has a newline, and it reads back as the `{:#}` text does.
#[test]
fn default_display_of_random_values_has_no_newline() {
    let mut rng = generate::Rng::new(27);
    let mut data = vec![0u8; 512];
    let mut nested = 0;
    let mut parsed = 0;
    for _ in 0..2000 {
        for b in &mut data {
            #[allow(clippy::cast_possible_truncation)]
            let x = rng.next() as u8;
            *b = x;
        }
        let value = fuzz_checks::Gen::new(&data).variant(GodotVersion::V4_4, 3);
        let has_newline_string = fuzz_checks::count_values(
            &value,
            &|v| matches!(v, Variant::String(s) if s.contains('\n')),
        ) > 0;
        assert!(!has_newline_string, "the generator made a newline");
        let compact = value.to_string();
        assert!(!compact.contains('\n'), "{compact:?}");
        let pretty = format!("{value:#}");
        if pretty.contains('\n') {
            nested += 1;
        }
        let config = Config::new(GodotVersion::V4_4).with_allow_objects(true);
        let read = |t: &str| {
            text::parse_variant_with(t, config)
                .ok()
                .map(|v| format!("{v:#}"))
        };
        let back = read(&compact);
        assert_eq!(back, read(&pretty), "{compact:?}");
        parsed += usize::from(back.is_some());
    }
    assert!(parsed > 1000, "only {parsed} values read back");
    // The check is not vacuous: many values had a multi-line `var_to_str`.
    assert!(nested > 50, "only {nested} multi-line values");
}
