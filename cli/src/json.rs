//! The JSON mapping of Variants (`--json`), both ways. Documented in cli/README.md.
//!
//! Plain JSON where that is lossless: null, bool, int (a JSON number without fraction or
//! exponent), finite float (a JSON number written with a fraction or exponent, e.g. `1.0`),
//! String, untyped Array, untyped Dictionary whose keys are all Strings other than `"$type"`.
//! Everything else is an object tagged with `"$type"`.

use godot_serde::{
    Array, Callable, Config, ContainerType, Dictionary, NodePath, Object, ObjectId,
    PackedByteArray, PackedColorArray, PackedFloat32Array, PackedFloat64Array, PackedInt32Array,
    PackedInt64Array, PackedStringArray, PackedVector2Array, PackedVector3Array,
    PackedVector4Array, Rid, Signal, StringName, Variant, VariantType,
};
use serde_json::{Map, Number, Value, json};

/// The key naming the Godot type of a tagged object.
pub const TAG: &str = "$type";

/// Every Godot 4.4 type, for looking types up by name.
fn all_types() -> impl Iterator<Item = VariantType> {
    (0..64u32).filter_map(|id| VariantType::from_id(id, godot_serde::GodotVersion::V4_4))
}

/// The type named `name` (Godot 4 spelling, or Godot 3's for the renamed ones).
fn type_named(name: &str) -> Option<VariantType> {
    all_types().find(|t| t.name() == name || t.name_in(godot_serde::GodotVersion::V3) == name)
}

fn tagged(ty: &str, fields: impl IntoIterator<Item = (&'static str, Value)>) -> Value {
    let mut map = Map::new();
    map.insert(TAG.to_owned(), Value::String(ty.to_owned()));
    for (k, v) in fields {
        map.insert(k.to_owned(), v);
    }
    Value::Object(map)
}

/// A float as a JSON number, or `"inf"`, `"-inf"`, `"nan"`, `"-nan"` (the quiet NaNs
/// without payload), or the 16 hex digits of its bits (any other NaN).
fn float(f: f64) -> Value {
    match Number::from_f64(f) {
        Some(n) => Value::Number(n),
        None if f == f64::INFINITY => Value::String("inf".into()),
        None if f == f64::NEG_INFINITY => Value::String("-inf".into()),
        None if f.to_bits() == f64::NAN.to_bits() => Value::String("nan".into()),
        None if f.to_bits() == (-f64::NAN).to_bits() => Value::String("-nan".into()),
        None => Value::String(format!("{:016x}", f.to_bits())),
    }
}

/// An f32 component, written with the shortest decimal that reads back as the same f32
/// (`0.1`, not `0.10000000149011612`).
fn float32(f: f32) -> Value {
    if f.is_finite() {
        match f.to_string().parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Value::Number(n),
            None => float(f64::from(f)),
        }
    } else {
        float(f64::from(f))
    }
}

/// The component words of a math type, in Godot's wire order, read from its Godot 4 encoding
/// (header, then 4-byte components: f32, or i32 for the integer types). Exact by construction.
fn components(v: &Variant, ty: VariantType) -> Value {
    // Written with 64-bit floats (header bit 16), so that values of a library built with
    // `double-precision` lose nothing; Color and the integer types keep 4-byte components.
    let bytes = Config::godot4()
        .with_double_precision(true)
        .to_bytes(v)
        .unwrap_or_default();
    let payload = bytes.get(4..).unwrap_or_default();
    let width = payload.len() / component_count(ty).unwrap_or(1).max(1);
    let words = payload.chunks_exact(width.max(4));
    let value: Vec<Value> = if is_int(ty) {
        words
            .map(|w| Value::from(i32::from_le_bytes([w[0], w[1], w[2], w[3]])))
            .collect()
    } else if width == 8 {
        let floats: Vec<f64> = words
            .map(|w| f64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
            .collect();
        #[allow(clippy::cast_possible_truncation)] // checked: the f32 reads back the same
        let single = floats
            .iter()
            .all(|&f| f.is_nan() || f64::from(f as f32) == f);
        #[allow(clippy::cast_possible_truncation)]
        floats
            .into_iter()
            .map(|f| if single { float32(f as f32) } else { float(f) })
            .collect()
    } else {
        words
            .map(|w| float32(f32::from_le_bytes([w[0], w[1], w[2], w[3]])))
            .collect()
    };
    Value::Array(value)
}

/// Whether the components of `ty` are integers.
fn is_int(ty: VariantType) -> bool {
    matches!(
        ty,
        VariantType::Vector2i | VariantType::Vector3i | VariantType::Vector4i | VariantType::Rect2i
    )
}

/// How many components a math type has, or `None` if `ty` is not one.
fn component_count(ty: VariantType) -> Option<usize> {
    use VariantType as T;
    Some(match ty {
        T::Vector2 | T::Vector2i => 2,
        T::Vector3 | T::Vector3i => 3,
        T::Rect2 | T::Rect2i | T::Vector4 | T::Vector4i | T::Plane | T::Quaternion | T::Color => 4,
        T::Transform2D | T::Aabb => 6,
        T::Basis => 9,
        T::Transform3D => 12,
        T::Projection => 16,
        _ => return None,
    })
}

fn container(t: &ContainerType) -> Value {
    match t {
        ContainerType::Untyped => Value::Null,
        ContainerType::Builtin(ty) => Value::String(ty.name().to_owned()),
        ContainerType::ClassName(c) => json!({ "class": c }),
        ContainerType::Script(s) => json!({ "script": s }),
    }
}

/// Converts a Variant into its JSON mapping.
pub fn to_json(v: &Variant) -> Value {
    let ty_name = |ty: VariantType| ty.name();
    match v {
        Variant::Nil => Value::Null,
        Variant::Bool(b) => Value::Bool(*b),
        Variant::Int(i) => Value::from(*i),
        Variant::Float(f) => match float(*f) {
            n @ Value::Number(_) => n,
            s => tagged("float", [("value", s)]),
        },
        Variant::String(s) => Value::String(s.to_string()),
        Variant::StringName(StringName(s)) => {
            tagged("StringName", [("value", Value::from(s.as_str()))])
        }
        Variant::NodePath(p) => tagged("NodePath", [("value", Value::String(p.to_string()))]),
        Variant::Rid(Rid(id)) => tagged("RID", [("value", Value::from(*id))]),
        Variant::ObjectId(ObjectId(id)) => tagged("ObjectId", [("value", Value::from(*id))]),
        Variant::Object(o) => tagged(
            "Object",
            [
                ("class", Value::String(o.class.clone())),
                (
                    "properties",
                    Value::Array(
                        o.properties
                            .iter()
                            .map(|(k, v)| Value::Array(vec![Value::String(k.clone()), to_json(v)]))
                            .collect(),
                    ),
                ),
            ],
        ),
        Variant::Callable(_) => tagged("Callable", []),
        Variant::Signal(sig) => tagged(
            "Signal",
            [
                ("name", Value::String(sig.name.clone())),
                ("object", Value::from(sig.object.0)),
            ],
        ),
        Variant::Array(a) => {
            let items = Value::Array(a.items.iter().map(to_json).collect());
            if a.element_type == ContainerType::Untyped {
                items
            } else {
                tagged(
                    "Array",
                    [
                        ("element_type", container(&a.element_type)),
                        ("value", items),
                    ],
                )
            }
        }
        Variant::Dictionary(d) => {
            let plain = !d.is_typed()
                && d.iter()
                    .all(|(k, _)| matches!(k, Variant::String(s) if s != TAG));
            if plain {
                let mut map = Map::new();
                for (k, v) in d.iter() {
                    if let Variant::String(k) = k {
                        map.insert(k.to_string(), to_json(v));
                    }
                }
                Value::Object(map)
            } else {
                let entries = d
                    .iter()
                    .map(|(k, v)| Value::Array(vec![to_json(k), to_json(v)]))
                    .collect();
                let mut fields = Vec::new();
                if *d.key_type() != ContainerType::Untyped {
                    fields.push(("key_type", container(d.key_type())));
                }
                if *d.value_type() != ContainerType::Untyped {
                    fields.push(("value_type", container(d.value_type())));
                }
                fields.push(("entries", Value::Array(entries)));
                tagged("Dictionary", fields)
            }
        }
        Variant::PackedByteArray(PackedByteArray(b)) => {
            packed(v, b.iter().map(|&x| Value::from(x)))
        }
        Variant::PackedInt32Array(PackedInt32Array(a)) => {
            packed(v, a.iter().map(|&x| Value::from(x)))
        }
        Variant::PackedInt64Array(PackedInt64Array(a)) => {
            packed(v, a.iter().map(|&x| Value::from(x)))
        }
        Variant::PackedFloat32Array(PackedFloat32Array(a)) => {
            packed(v, a.iter().map(|&x| float32(x)))
        }
        Variant::PackedFloat64Array(PackedFloat64Array(a)) => {
            packed(v, a.iter().map(|&x| float(x)))
        }
        Variant::PackedStringArray(PackedStringArray(a)) => {
            packed(v, a.iter().map(|s| Value::String(s.clone())))
        }
        Variant::PackedVector2Array(PackedVector2Array(a)) => packed(
            v,
            a.iter()
                .map(|&x| components(&Variant::Vector2(x), VariantType::Vector2)),
        ),
        Variant::PackedVector3Array(PackedVector3Array(a)) => packed(
            v,
            a.iter()
                .map(|&x| components(&Variant::Vector3(x), VariantType::Vector3)),
        ),
        Variant::PackedColorArray(PackedColorArray(a)) => packed(
            v,
            a.iter()
                .map(|&x| components(&Variant::Color(x), VariantType::Color)),
        ),
        Variant::PackedVector4Array(PackedVector4Array(a)) => packed(
            v,
            a.iter()
                .map(|&x| components(&Variant::Vector4(x), VariantType::Vector4)),
        ),
        other => {
            let ty = other.variant_type();
            tagged(ty_name(ty), [("value", components(other, ty))])
        }
    }
}

fn packed(v: &Variant, items: impl Iterator<Item = Value>) -> Value {
    tagged(
        v.variant_type().name(),
        [("value", Value::Array(items.collect()))],
    )
}

/// Where in the JSON input a conversion failed, e.g. `$[2]["pos"]`.
type Path = String;

/// A JSON value that does not map to a Variant.
#[derive(Debug)]
pub struct JsonError {
    /// Where, as a JSONPath-like string.
    pub path: Path,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}", self.message, self.path)
    }
}

fn err<T>(path: &str, message: impl Into<String>) -> Result<T, JsonError> {
    Err(JsonError {
        path: path.to_owned(),
        message: message.into(),
    })
}

/// Nesting limit of the JSON input, the library's default limit.
const MAX_DEPTH: usize = godot_serde::DEFAULT_MAX_DEPTH;

/// Converts the JSON mapping back into a Variant.
pub fn from_json(v: &Value) -> Result<Variant, JsonError> {
    from_json_at(v, "$", 0)
}

fn from_json_at(v: &Value, path: &str, depth: usize) -> Result<Variant, JsonError> {
    if depth > MAX_DEPTH {
        return err(path, format!("nesting deeper than {MAX_DEPTH} levels"));
    }
    Ok(match v {
        Value::Null => Variant::Nil,
        Value::Bool(b) => Variant::Bool(*b),
        Value::Number(n) => number(n, path)?,
        Value::String(s) => Variant::String(s.as_str().into()),
        Value::Array(items) => Variant::from(Array {
            element_type: ContainerType::Untyped,
            items: items_of(items, path, depth)?,
        }),
        Value::Object(map) => match map.get(TAG) {
            None => {
                let mut d = Dictionary::new();
                for (k, v) in map {
                    let p = format!("{path}[{}]", Value::String(k.clone()));
                    d.insert(
                        Variant::String(k.as_str().into()),
                        from_json_at(v, &p, depth + 1)?,
                    );
                }
                Variant::from(d)
            }
            Some(Value::String(tag)) => from_tagged(tag, map, path, depth)?,
            Some(_) => return err(path, format!("\"{TAG}\" must be a type name")),
        },
    })
}

fn number(n: &Number, path: &str) -> Result<Variant, JsonError> {
    if let Some(i) = n.as_i64() {
        return Ok(Variant::Int(i));
    }
    if n.is_u64() {
        return err(
            path,
            format!("integer {n} is outside Godot's int (i64) range"),
        );
    }
    match n.as_f64() {
        Some(f) => Ok(Variant::Float(f)),
        None => err(path, format!("number {n} is not representable")),
    }
}

fn items_of(items: &[Value], path: &str, depth: usize) -> Result<Vec<Variant>, JsonError> {
    items
        .iter()
        .enumerate()
        .map(|(i, v)| from_json_at(v, &format!("{path}[{i}]"), depth + 1))
        .collect()
}

fn field<'a>(
    map: &'a Map<String, Value>,
    name: &str,
    tag: &str,
    path: &str,
) -> Result<&'a Value, JsonError> {
    match map.get(name) {
        Some(v) => Ok(v),
        None => err(path, format!("{tag} needs a \"{name}\" field")),
    }
}

fn array_field<'a>(
    map: &'a Map<String, Value>,
    name: &str,
    tag: &str,
    path: &str,
) -> Result<&'a [Value], JsonError> {
    match field(map, name, tag, path)? {
        Value::Array(a) => Ok(a),
        _ => err(path, format!("{tag}: \"{name}\" must be an array")),
    }
}

fn str_field<'a>(
    map: &'a Map<String, Value>,
    name: &str,
    tag: &str,
    path: &str,
) -> Result<&'a str, JsonError> {
    match field(map, name, tag, path)? {
        Value::String(s) => Ok(s),
        _ => err(path, format!("{tag}: \"{name}\" must be a string")),
    }
}

fn u64_field(
    map: &Map<String, Value>,
    name: &str,
    tag: &str,
    path: &str,
) -> Result<u64, JsonError> {
    match field(map, name, tag, path)?.as_u64() {
        Some(n) => Ok(n),
        None => err(
            path,
            format!("{tag}: \"{name}\" must be an integer from 0 to 2^64-1"),
        ),
    }
}

fn float_of(v: &Value, path: &str) -> Result<f64, JsonError> {
    match v {
        Value::Number(n) => n.as_f64().map_or_else(|| err(path, "not a number"), Ok),
        Value::String(s) if s == "nan" => Ok(f64::NAN),
        Value::String(s) if s == "-nan" => Ok(-f64::NAN),
        Value::String(s) if s == "inf" => Ok(f64::INFINITY),
        Value::String(s) if s == "-inf" => Ok(f64::NEG_INFINITY),
        Value::String(s) if s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit()) => {
            u64::from_str_radix(s, 16)
                .map(f64::from_bits)
                .or_else(|_| err(path, "bad float bits"))
        }
        _ => err(
            path,
            "expected a number (or \"inf\", \"-inf\", \"nan\", \"-nan\", 16 hex digits of the bits)",
        ),
    }
}

fn int_of<T: TryFrom<i64>>(v: &Value, path: &str, what: &str) -> Result<T, JsonError> {
    match v.as_i64().and_then(|i| T::try_from(i).ok()) {
        Some(i) => Ok(i),
        None => err(path, format!("expected an integer in the range of {what}")),
    }
}

/// Builds a math type from its components by decoding its Godot 4 encoding.
fn from_components(ty: VariantType, comps: &[Value], path: &str) -> Result<Variant, JsonError> {
    let Some(count) = component_count(ty) else {
        return err(path, format!("{} has no components", ty.name()));
    };
    if comps.len() != count {
        return err(
            path,
            format!(
                "{} needs {count} components, got {}",
                ty.name(),
                comps.len()
            ),
        );
    }
    let mut bytes = vec![ty as u8, 0, 0, 0];
    if is_int(ty) {
        for (i, c) in comps.iter().enumerate() {
            bytes.extend(int_of::<i32>(c, &format!("{path}[{i}]"), "a 32-bit int")?.to_le_bytes());
        }
    } else {
        let floats = comps
            .iter()
            .enumerate()
            .map(|(i, c)| float_of(c, &format!("{path}[{i}]")))
            .collect::<Result<Vec<f64>, _>>()?;
        // f32 components unless one needs more (header bit 16: 64-bit components, read back
        // by any library build); Color is always f32.
        #[allow(clippy::cast_possible_truncation)]
        let single = ty == VariantType::Color
            || floats
                .iter()
                .all(|&f| f.is_nan() || f64::from(f as f32) == f);
        if single {
            #[allow(clippy::cast_possible_truncation)] // checked above
            bytes.extend(floats.iter().flat_map(|&f| (f as f32).to_le_bytes()));
        } else {
            bytes[2] = 1;
            bytes.extend(floats.iter().flat_map(|&f| f.to_le_bytes()));
        }
    }
    match Config::godot4().variant_from_bytes(&bytes) {
        Ok(v) => Ok(v),
        Err(e) => err(path, format!("{}: {e}", ty.name())),
    }
}

fn container_of(v: Option<&Value>, path: &str) -> Result<ContainerType, JsonError> {
    Ok(match v {
        None | Some(Value::Null) => ContainerType::Untyped,
        Some(Value::String(name)) => match type_named(name) {
            Some(t) => ContainerType::Builtin(t),
            None => return err(path, format!("unknown type name {name:?}")),
        },
        Some(Value::Object(m)) => match (m.get("class"), m.get("script")) {
            (Some(Value::String(c)), None) => ContainerType::ClassName(c.clone()),
            (None, Some(Value::String(s))) => ContainerType::Script(s.clone()),
            _ => {
                return err(
                    path,
                    "a container type is a type name, {\"class\": ...} or {\"script\": ...}",
                );
            }
        },
        Some(_) => {
            return err(
                path,
                "a container type is a type name, {\"class\": ...} or {\"script\": ...}",
            );
        }
    })
}

fn from_tagged(
    tag: &str,
    map: &Map<String, Value>,
    path: &str,
    depth: usize,
) -> Result<Variant, JsonError> {
    if tag == "float" {
        return Ok(Variant::Float(float_of(
            field(map, "value", tag, path)?,
            path,
        )?));
    }
    if tag == "ObjectId" {
        return Ok(Variant::ObjectId(ObjectId(u64_field(
            map, "value", tag, path,
        )?)));
    }
    let Some(ty) = type_named(tag) else {
        return err(path, format!("unknown \"{TAG}\" {tag:?}"));
    };
    let value = || array_field(map, "value", tag, path);
    let each = |f: &dyn Fn(&Value, &str) -> Result<Variant, JsonError>| -> Result<Vec<Variant>, JsonError> {
        value()?
            .iter()
            .enumerate()
            .map(|(i, v)| f(v, &format!("{path}.value[{i}]")))
            .collect()
    };
    let vec_of = |ty: VariantType| {
        each(&|v, p| match v {
            Value::Array(c) => from_components(ty, c, p),
            _ => err(p, format!("a {} is an array of components", ty.name())),
        })
    };
    use VariantType as T;
    Ok(match ty {
        T::Nil => Variant::Nil,
        T::Bool | T::Int | T::Float | T::String => {
            let v = from_json_at(field(map, "value", tag, path)?, path, depth + 1)?;
            if v.variant_type() != ty {
                return err(
                    path,
                    format!("{tag}: \"value\" is a {}", v.variant_type().name()),
                );
            }
            v
        }
        T::StringName => Variant::from(StringName(str_field(map, "value", tag, path)?.to_owned())),
        T::NodePath => Variant::from(NodePath::from(str_field(map, "value", tag, path)?)),
        T::Rid => Variant::Rid(Rid(u64_field(map, "value", tag, path)?)),
        T::Callable => Variant::Callable(Callable),
        T::Signal => Variant::from(Signal {
            name: str_field(map, "name", tag, path)?.to_owned(),
            object: ObjectId(u64_field(map, "object", tag, path)?),
        }),
        T::Object => {
            let class = str_field(map, "class", tag, path)?.to_owned();
            let mut properties = Vec::new();
            for (i, p) in array_field(map, "properties", tag, path)?
                .iter()
                .enumerate()
            {
                let pp = format!("{path}.properties[{i}]");
                match p.as_array().map(Vec::as_slice) {
                    Some([Value::String(name), v]) => {
                        properties.push((name.clone(), from_json_at(v, &pp, depth + 1)?));
                    }
                    _ => return err(&pp, "a property is [\"name\", value]"),
                }
            }
            Variant::from(Object { class, properties })
        }
        T::Array => Variant::from(Array {
            element_type: container_of(map.get("element_type"), path)?,
            items: items_of(value()?, &format!("{path}.value"), depth)?,
        }),
        T::Dictionary => {
            let mut d = Dictionary::typed(
                container_of(map.get("key_type"), path)?,
                container_of(map.get("value_type"), path)?,
            );
            for (i, e) in array_field(map, "entries", tag, path)?.iter().enumerate() {
                let p = format!("{path}.entries[{i}]");
                match e.as_array().map(Vec::as_slice) {
                    Some([k, v]) => {
                        let k = from_json_at(k, &p, depth + 1)?;
                        let v = from_json_at(v, &p, depth + 1)?;
                        if d.insert(k, v).is_some() {
                            return err(&p, "duplicate Dictionary key");
                        }
                    }
                    _ => return err(&p, "an entry is [key, value]"),
                }
            }
            Variant::from(d)
        }
        T::PackedByteArray => Variant::PackedByteArray(PackedByteArray(
            value()?
                .iter()
                .enumerate()
                .map(|(i, v)| int_of::<u8>(v, &format!("{path}.value[{i}]"), "a byte"))
                .collect::<Result<_, _>>()?,
        )),
        T::PackedInt32Array => Variant::PackedInt32Array(PackedInt32Array(
            value()?
                .iter()
                .enumerate()
                .map(|(i, v)| int_of::<i32>(v, &format!("{path}.value[{i}]"), "a 32-bit int"))
                .collect::<Result<_, _>>()?,
        )),
        T::PackedInt64Array => Variant::PackedInt64Array(PackedInt64Array(
            value()?
                .iter()
                .enumerate()
                .map(|(i, v)| int_of::<i64>(v, &format!("{path}.value[{i}]"), "a 64-bit int"))
                .collect::<Result<_, _>>()?,
        )),
        #[allow(clippy::cast_possible_truncation)] // the elements are f32
        T::PackedFloat32Array => Variant::PackedFloat32Array(PackedFloat32Array(
            value()?
                .iter()
                .enumerate()
                .map(|(i, v)| float_of(v, &format!("{path}.value[{i}]")).map(|f| f as f32))
                .collect::<Result<_, _>>()?,
        )),
        T::PackedFloat64Array => Variant::PackedFloat64Array(PackedFloat64Array(
            value()?
                .iter()
                .enumerate()
                .map(|(i, v)| float_of(v, &format!("{path}.value[{i}]")))
                .collect::<Result<_, _>>()?,
        )),
        T::PackedStringArray => Variant::PackedStringArray(PackedStringArray(
            value()?
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::String(s) => Ok(s.clone()),
                    _ => err(&format!("{path}.value[{i}]"), "expected a string"),
                })
                .collect::<Result<_, _>>()?,
        )),
        T::PackedVector2Array => Variant::PackedVector2Array(PackedVector2Array(
            vec_of(T::Vector2)?
                .into_iter()
                .filter_map(|v| match v {
                    Variant::Vector2(x) => Some(x),
                    _ => None,
                })
                .collect(),
        )),
        T::PackedVector3Array => Variant::PackedVector3Array(PackedVector3Array(
            vec_of(T::Vector3)?
                .into_iter()
                .filter_map(|v| match v {
                    Variant::Vector3(x) => Some(x),
                    _ => None,
                })
                .collect(),
        )),
        T::PackedColorArray => Variant::PackedColorArray(PackedColorArray(
            vec_of(T::Color)?
                .into_iter()
                .filter_map(|v| match v {
                    Variant::Color(x) => Some(x),
                    _ => None,
                })
                .collect(),
        )),
        T::PackedVector4Array => Variant::PackedVector4Array(PackedVector4Array(
            vec_of(T::Vector4)?
                .into_iter()
                .filter_map(|v| match v {
                    Variant::Vector4(x) => Some(x),
                    _ => None,
                })
                .collect(),
        )),
        other => from_components(other, value()?, &format!("{path}.value"))?,
    })
}
