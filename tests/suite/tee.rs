//! A math type's `Serialize` makes the same serde calls for every serializer: a "tee" that
//! forwards each call to this crate's serializer and to serde_json at once gives both the
//! output they give alone.

#![allow(clippy::unwrap_used)]

use godot_serde::{Color, Config, Serializer as GodotSerializer, Vector2, Vector3i};
use serde::Serialize;
use serde::ser::{self, Serializer as _};

/// The error of either side.
#[derive(Debug)]
struct TeeError(String);

impl std::fmt::Display for TeeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TeeError {}

impl ser::Error for TeeError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        TeeError(msg.to_string())
    }
}

fn e<E: std::fmt::Display>(err: E) -> TeeError {
    TeeError(err.to_string())
}

/// Forwards every call to `a` and `b`.
struct Tee<A, B> {
    a: A,
    b: B,
}

/// A value serialized through a [`Tee`] of the two serializers it is given.
struct Both<'v, T: ?Sized>(&'v T);

/// Forwards a call with the same arguments to both sides.
macro_rules! both {
    ($self:ident . $m:ident ( $($arg:expr),* )) => {{
        $self.a.$m($($arg),*).map_err(e)?;
        $self.b.$m($($arg),*).map_err(e)?;
        Ok(())
    }};
}

macro_rules! forward_scalars {
    ($($m:ident($t:ty);)*) => {$(
        fn $m(self, v: $t) -> Result<(), TeeError> {
            both!(self.$m(v))
        }
    )*};
}

impl<A, B> ser::Serializer for Tee<A, B>
where
    A: ser::Serializer<Ok = ()>,
    B: ser::Serializer<Ok = ()>,
    A::Error: std::fmt::Display,
    B::Error: std::fmt::Display,
{
    type Ok = ();
    type Error = TeeError;
    type SerializeSeq = Tee<A::SerializeSeq, B::SerializeSeq>;
    type SerializeTuple = Tee<A::SerializeTuple, B::SerializeTuple>;
    type SerializeTupleStruct = Tee<A::SerializeTupleStruct, B::SerializeTupleStruct>;
    type SerializeTupleVariant = Tee<A::SerializeTupleVariant, B::SerializeTupleVariant>;
    type SerializeMap = Tee<A::SerializeMap, B::SerializeMap>;
    type SerializeStruct = Tee<A::SerializeStruct, B::SerializeStruct>;
    type SerializeStructVariant = Tee<A::SerializeStructVariant, B::SerializeStructVariant>;

    forward_scalars! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_unit_struct(&'static str);
    }

    fn serialize_none(self) -> Result<(), TeeError> {
        both!(self.serialize_none())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<(), TeeError> {
        both!(self.serialize_some(v))
    }
    fn serialize_unit(self) -> Result<(), TeeError> {
        both!(self.serialize_unit())
    }
    fn serialize_unit_variant(
        self,
        n: &'static str,
        i: u32,
        v: &'static str,
    ) -> Result<(), TeeError> {
        both!(self.serialize_unit_variant(n, i, v))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        n: &'static str,
        v: &T,
    ) -> Result<(), TeeError> {
        both!(self.serialize_newtype_struct(n, v))
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        n: &'static str,
        i: u32,
        var: &'static str,
        v: &T,
    ) -> Result<(), TeeError> {
        both!(self.serialize_newtype_variant(n, i, var, v))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, TeeError> {
        Ok(Tee {
            a: self.a.serialize_seq(len).map_err(e)?,
            b: self.b.serialize_seq(len).map_err(e)?,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, TeeError> {
        Ok(Tee {
            a: self.a.serialize_tuple(len).map_err(e)?,
            b: self.b.serialize_tuple(len).map_err(e)?,
        })
    }
    fn serialize_tuple_struct(
        self,
        n: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, TeeError> {
        Ok(Tee {
            a: self.a.serialize_tuple_struct(n, len).map_err(e)?,
            b: self.b.serialize_tuple_struct(n, len).map_err(e)?,
        })
    }
    fn serialize_tuple_variant(
        self,
        n: &'static str,
        i: u32,
        v: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, TeeError> {
        Ok(Tee {
            a: self.a.serialize_tuple_variant(n, i, v, len).map_err(e)?,
            b: self.b.serialize_tuple_variant(n, i, v, len).map_err(e)?,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, TeeError> {
        Ok(Tee {
            a: self.a.serialize_map(len).map_err(e)?,
            b: self.b.serialize_map(len).map_err(e)?,
        })
    }
    fn serialize_struct(
        self,
        n: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, TeeError> {
        Ok(Tee {
            a: self.a.serialize_struct(n, len).map_err(e)?,
            b: self.b.serialize_struct(n, len).map_err(e)?,
        })
    }
    fn serialize_struct_variant(
        self,
        n: &'static str,
        i: u32,
        v: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, TeeError> {
        Ok(Tee {
            a: self.a.serialize_struct_variant(n, i, v, len).map_err(e)?,
            b: self.b.serialize_struct_variant(n, i, v, len).map_err(e)?,
        })
    }
}

/// The compound halves forward each element to both sides (serde's compound methods take
/// `&mut self`, so each side gets the value serialized once).
macro_rules! tee_compound {
    ($($tr:ident { $($m:ident($($arg:ident: $t:ty),*);)* })*) => {$(
        impl<A, B> ser::$tr for Tee<A, B>
        where
            A: ser::$tr<Ok = ()>,
            B: ser::$tr<Ok = ()>,
            A::Error: std::fmt::Display,
            B::Error: std::fmt::Display,
        {
            type Ok = ();
            type Error = TeeError;
            $(
                fn $m<T: ?Sized + Serialize>(&mut self, $($arg: $t,)* value: &T) -> Result<(), TeeError> {
                    self.a.$m($($arg,)* value).map_err(e)?;
                    self.b.$m($($arg,)* value).map_err(e)
                }
            )*
            fn end(self) -> Result<(), TeeError> {
                self.a.end().map_err(e)?;
                self.b.end().map_err(e)
            }
        }
    )*};
}

tee_compound! {
    SerializeSeq { serialize_element(); }
    SerializeTuple { serialize_element(); }
    SerializeTupleStruct { serialize_field(); }
    SerializeTupleVariant { serialize_field(); }
    SerializeMap { serialize_key(); serialize_value(); }
    SerializeStruct { serialize_field(key: &'static str); }
    SerializeStructVariant { serialize_field(key: &'static str); }
}

impl<T: ?Sized + Serialize> Both<'_, T> {
    /// The Godot bytes and the JSON text of one pass through the tee.
    fn run(&self, config: Config) -> (Vec<u8>, String) {
        let mut godot = Vec::new();
        let mut json = Vec::new();
        {
            let mut g = GodotSerializer::new(&mut godot, config);
            let mut j = serde_json::Serializer::new(&mut json);
            self.0
                .serialize(Tee {
                    a: &mut g,
                    b: &mut j,
                })
                .unwrap();
        }
        (godot, String::from_utf8(json).unwrap())
    }
}

#[test]
fn tee_gives_each_side_its_own_output_for_a_vector2() {
    let v = Vector2::new(1.0, 2.0);
    let (godot, json) = Both(&v).run(Config::godot4());
    // VECTOR2 = 5, then x and y as f32: 1.0 = 0x3f800000, 2.0 = 0x40000000.
    assert_eq!(godot, [5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]);
    assert_eq!(json, "[1.0,2.0]");
}

#[test]
fn tee_inside_containers_and_for_other_component_kinds() {
    #[derive(Serialize)]
    struct S {
        c: Color,
        i: Vector3i,
    }
    let s = S {
        c: Color::new(0.5, 0.25, 1.0, 1.0),
        i: Vector3i::new(1, -2, 3),
    };
    let (godot, json) = Both(&s).run(Config::godot4());
    assert_eq!(godot, godot_serde::to_bytes(&s).unwrap());
    assert_eq!(json, serde_json::to_string(&s).unwrap());
    assert_eq!(json, r#"{"c":[0.5,0.25,1.0,1.0],"i":[1,-2,3]}"#);
    // DICTIONARY 27, count 2; "c" as String 4 (len 1, padded); COLOR 20 + 4 f32;
    // "i" as String; VECTOR3I 10 + 3 i32.
    let mut expected = vec![27, 0, 0, 0, 2, 0, 0, 0];
    expected.extend_from_slice(&[4, 0, 0, 0, 1, 0, 0, 0, b'c', 0, 0, 0]);
    expected.extend_from_slice(&[20, 0, 0, 0]);
    for x in [0.5f32, 0.25, 1.0, 1.0] {
        expected.extend_from_slice(&x.to_le_bytes());
    }
    expected.extend_from_slice(&[4, 0, 0, 0, 1, 0, 0, 0, b'i', 0, 0, 0]);
    expected.extend_from_slice(&[10, 0, 0, 0]);
    for x in [1i32, -2, 3] {
        expected.extend_from_slice(&x.to_le_bytes());
    }
    assert_eq!(godot, expected);
}

#[test]
fn other_formats_see_plain_components() {
    // Without the tee too: serde_json alone, after our serializer ran on the same thread.
    let v = Vector2::new(1.0, 2.0);
    let _ = godot_serde::to_bytes(&v).unwrap();
    let mut json = Vec::new();
    (&mut serde_json::Serializer::new(&mut json))
        .serialize_newtype_struct("x", &v)
        .unwrap();
    assert_eq!(json, b"[1.0,2.0]");
}

#[test]
fn a_math_type_with_the_wrong_number_of_components_is_an_error() {
    use serde::ser::SerializeTupleStruct;
    // A hand-written Serialize that claims the Vector2 marker but sends one component.
    struct Short;
    impl Serialize for Short {
        fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple_struct("$godot_serde::Vector2", 2)?;
            t.serialize_field(&1.0f32)?;
            t.end()
        }
    }
    let err = godot_serde::to_bytes(&Short).unwrap_err();
    assert!(
        err.to_string()
            .contains("Vector2 needs 8 bytes of components, got 4"),
        "{err}"
    );
}
