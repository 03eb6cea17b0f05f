//! Runs every record of the C# reference output (`tests/fixtures/vectors-sample.jsonl`,
//! see shared/fixtures/README.md) through the `.lbs` schema + dynamic value API.

use litebyte::{BaseType, ErrorKind, FieldType, Mode, Schema, TypeDef, Value};
use serde_json::Value as Json;

const FIXTURE: &str = include_str!("../fixtures/vectors-sample.jsonl");
const SURR: &str = "@@SURR_";

/// serde_json rejects lone-surrogate escapes; replace each lone `\uDXXX` by a marker that
/// `json_str` turns back into that UTF-16 unit.
fn protect_lone_surrogates(line: &str) -> String {
    let b = line.as_bytes();
    let unit_at = |i: usize| -> Option<u16> {
        if b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u') {
            let h = line.get(i + 2..i + 6)?;
            u16::from_str_radix(h, 16).ok()
        } else {
            None
        }
    };
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push_str("\\\\");
            i += 2;
            continue;
        }
        if let Some(u) = unit_at(i) {
            if (0xD800..0xDC00).contains(&u) {
                if let Some(lo) = unit_at(i + 6) {
                    if (0xDC00..0xE000).contains(&lo) {
                        out.push_str(&line[i..i + 12]);
                        i += 12;
                        continue;
                    }
                }
            }
            if (0xD800..0xE000).contains(&u) {
                out.push_str(&format!("{SURR}{u:04x}@@"));
                i += 6;
                continue;
            }
        }
        let c = line[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

fn json_str(s: &str) -> Value {
    if !s.contains(SURR) {
        return Value::Str(s.to_owned());
    }
    let mut units = Vec::new();
    let mut rest = s;
    while let Some(p) = rest.find(SURR) {
        units.extend(rest[..p].encode_utf16());
        let h = &rest[p + SURR.len()..p + SURR.len() + 4];
        units.push(u16::from_str_radix(h, 16).unwrap());
        rest = &rest[p + SURR.len() + 6..];
    }
    units.extend(rest.encode_utf16());
    Value::Utf16(units)
}

fn json_f64(j: &Json) -> f64 {
    match j {
        Json::Number(n) => n.as_f64().unwrap(),
        Json::String(s) => match s.as_str() {
            "NaN" => f64::from_bits(0xfff8_0000_0000_0000),
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            "-0.0" => -0.0,
            other => panic!("float string {other}"),
        },
        other => panic!("float {other}"),
    }
}

fn json_f32(j: &Json) -> f32 {
    match j {
        Json::String(s) if s == "NaN" => f32::from_bits(0xffc0_0000),
        _ => json_f64(j) as f32,
    }
}

/// Converts JSON to a [`Value`] using the schema's field types.
fn conv(schema: &Schema, ty: FieldType<'_>, j: &Json) -> Value {
    match ty {
        FieldType::Custom(def) => conv_obj(schema, def, j),
        FieldType::Base(b) => {
            if j.is_null() {
                return Value::Null;
            }
            if b.is_string() {
                return json_str(j.as_str().unwrap());
            }
            match b {
                BaseType::Bit1 => Value::Bool(j.as_bool().unwrap()),
                BaseType::Float64 => Value::F64(json_f64(j)),
                _ if b.is_float() => Value::F32(json_f32(j)),
                _ if b.is_signed_int() => Value::Int(j.as_i64().unwrap()),
                _ => Value::UInt(j.as_u64().unwrap()),
            }
        }
    }
}

fn conv_obj(schema: &Schema, def: &TypeDef, j: &Json) -> Value {
    if j.is_null() {
        return Value::Null;
    }
    let obj = j.as_object().unwrap();
    let mut members = Vec::new();
    for f in &def.fields {
        let Some(fj) = obj.get(&*f.name) else {
            continue;
        };
        let ty = schema.resolve(&f.type_name).unwrap();
        let v = if f.is_array {
            match fj {
                Json::Null => Value::Null,
                Json::Array(items) => {
                    Value::Array(items.iter().map(|i| conv(schema, ty, i)).collect())
                }
                other => panic!("array {other}"),
            }
        } else {
            conv(schema, ty, fj)
        };
        members.push((f.name.clone(), v));
    }
    Value::Object(members)
}

/// Equality with floats compared bit for bit (any NaN equals any NaN).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (Value::F64(x), Value::F64(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same(a, b))
        }
        _ => a == b,
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn every_fixture_record() {
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    let mut total = 0;
    for line in FIXTURE.lines().filter(|l| !l.trim().is_empty()) {
        total += 1;
        let rec: Json = serde_json::from_str(&protect_lone_surrogates(line)).unwrap();
        let name = rec["name"].as_str().unwrap();
        let error_kind = rec.get("error_kind").and_then(Json::as_str);

        // Schema: aliases + .lbs texts registered together, then validated.
        let mut schema = Schema::new();
        for pair in rec["aliases"].as_array().unwrap() {
            let base = BaseType::from_name(pair[0].as_str().unwrap()).unwrap();
            schema.add_alias(base, pair[1].as_str().unwrap());
        }
        let mut schema_result = Ok(());
        for src in rec["schema"].as_array().unwrap() {
            if let Err(e) = schema.add_lbs(src.as_str().unwrap()) {
                schema_result = Err(e);
                break;
            }
        }
        let schema_result = schema_result.and_then(|_| schema.validate());
        if error_kind == Some("schema") {
            let e = schema_result.expect_err(name);
            assert!(matches!(e.kind(), ErrorKind::Schema(_)), "{name}: {e}");
            *counts.entry("schema_error").or_default() += 1;
            continue;
        }
        schema_result.unwrap_or_else(|e| panic!("{name}: schema: {e}"));
        let root_name = rec["root"].as_str().unwrap();
        let root = FieldType::Custom(schema.get(root_name).unwrap());

        if rec.get("decode_only") == Some(&Json::Bool(true)) {
            let bytes = unhex(rec["hex"].as_str().unwrap());
            let compat = schema.decode(root_name, &bytes, Mode::Compat);
            let strict = schema.decode(root_name, &bytes, Mode::Strict);
            if error_kind == Some("reader") {
                assert!(compat.is_err(), "{name}: compat decode should fail");
                assert!(strict.is_err(), "{name}: strict decode should fail");
            } else {
                let expected = conv(&schema, root, &rec["decoded"]);
                let got = compat.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(same(&got, &expected), "{name}: {got:?} != {expected:?}");
                // Strict mode either rejects the quirk or agrees.
                if let Ok(s) = strict {
                    assert!(same(&s, &expected), "{name}: strict {s:?}");
                }
            }
            *counts.entry("decode_only").or_default() += 1;
            continue;
        }

        let value = conv(&schema, root, &rec["value"]);
        let encoded = schema.encode(root_name, &value);
        if name.starts_with("csharp_bug_") {
            // The C# writer overran its buffer; a correct writer must not copy that.
            let bytes = encoded.unwrap_or_else(|e| panic!("{name}: {e}"));
            let back = schema.decode(root_name, &bytes, Mode::Strict).unwrap();
            assert!(same(&back, &value), "{name}");
            *counts.entry("csharp_bug").or_default() += 1;
            continue;
        }
        if error_kind == Some("writer") {
            let e = encoded.expect_err(name);
            let msg = rec["error"].as_str().unwrap();
            if msg.contains("ArgumentOutOfRange") {
                assert!(
                    matches!(e.kind(), ErrorKind::OutOfRange { .. }),
                    "{name}: {e}"
                );
            } else {
                assert!(
                    matches!(e.kind(), ErrorKind::InvalidString(_)),
                    "{name}: {e}"
                );
            }
            *counts.entry("writer_error").or_default() += 1;
            continue;
        }
        assert!(error_kind.is_none(), "{name}: unhandled error kind");
        let expected_hex = rec["hex"].as_str().unwrap();
        let bytes = encoded.unwrap_or_else(|e| panic!("{name}: encode: {e}"));
        assert_eq!(hex_str(&bytes), expected_hex, "{name}: bytes");
        // The typed C# reader is right where LBObject drops -0.0 (records with
        // hex_lbobject); elsewhere LBObject's reading is the reference (the typed reader
        // cannot read VarUnicode).
        let expected = if rec.get("hex_lbobject").is_some() && rec.get("decoded_typed").is_some() {
            &rec["decoded_typed"]
        } else {
            &rec["decoded"]
        };
        let expected = conv(&schema, root, expected);
        for mode in [Mode::Strict, Mode::Compat] {
            let got = schema
                .decode(root_name, &bytes, mode)
                .unwrap_or_else(|e| panic!("{name}: decode {mode:?}: {e}"));
            assert!(
                same(&got, &expected),
                "{name}: decoded {got:?}\n expected {expected:?}"
            );
        }
        *counts.entry("bytes").or_default() += 1;
    }
    assert_eq!(total, 201, "fixture record count");
    assert_eq!(counts.values().sum::<usize>(), total);
    eprintln!("{counts:?}");
}

fn hex_str(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
