//! [`Rid`], [`ObjectId`], [`Callable`] and [`Signal`]: engine handles that only mean
//! something inside the process that wrote them.

use core::fmt;

use serde::de::{self, MapAccess, SeqAccess};
use serde::ser::SerializeTupleStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::proto::{Payload, visit_marker_map};
use super::{CALLABLE, OBJECT_ID, RID, SIGNAL};

/// Godot `RID` (4.x id 23, 3.x id 16). Godot 4 writes the raw `u64` id; Godot 3 writes no
/// payload at all, so a Godot 3 RID always decodes as `Rid(0)` and a non-zero id is lost when
/// encoding for Godot 3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rid(pub u64);

/// An object sent by instance id (`OBJECT` with header bit 16, the default of
/// `var_to_bytes` / `put_var`). The id is only meaningful in the engine process that wrote it.
/// `ObjectId(0)` is Godot's null object and is written as nil, as the engine does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u64);

/// Godot 4 `Callable` (type id 25). Godot writes only the header: the target and method are
/// never serialized, and every Callable decodes as an empty one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Callable;

/// Godot 4 `Signal` (type id 26): a signal name and the id of the object that owns it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signal {
    /// The signal's name, e.g. `"pressed"`.
    pub name: String,
    /// The owning object's instance id.
    pub object: ObjectId,
}

impl From<u64> for Rid {
    fn from(id: u64) -> Self {
        Rid(id)
    }
}

impl From<Rid> for u64 {
    fn from(rid: Rid) -> Self {
        rid.0
    }
}

impl From<u64> for ObjectId {
    fn from(id: u64) -> Self {
        ObjectId(id)
    }
}

impl From<ObjectId> for u64 {
    fn from(id: ObjectId) -> Self {
        id.0
    }
}

impl Signal {
    /// `Signal(object, name)`: the signal `name` of the object with instance id `object`.
    #[must_use]
    pub fn new(name: impl Into<String>, object: ObjectId) -> Self {
        Signal {
            name: name.into(),
            object,
        }
    }
}

/// `Serialize`, `Deserialize` and the marker payload of a `u64` newtype marker.
macro_rules! id_marker {
    ($($t:ident = $name:ident, $what:literal;)*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_newtype_struct($name, &self.0)
            }
        }

        impl Payload for $t {
            const NAMES: &'static [&'static str] = &[$name];

            fn next_payload<'de, A: MapAccess<'de>>(
                map: &mut A,
                _wide: bool,
            ) -> Result<Self, A::Error> {
                map.next_value().map($t)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct V;

                impl<'de> de::Visitor<'de> for V {
                    type Value = $t;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($what)
                    }

                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$t, E> {
                        Ok($t(v))
                    }

                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$t, E> {
                        u64::try_from(v)
                            .map($t)
                            .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
                    }

                    fn visit_newtype_struct<D: Deserializer<'de>>(
                        self,
                        d: D,
                    ) -> Result<$t, D::Error> {
                        u64::deserialize(d).map($t)
                    }

                    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<$t, A::Error> {
                        visit_marker_map(map, &self)
                    }
                }

                if deserializer.is_human_readable() {
                    deserializer.deserialize_any(V)
                } else {
                    deserializer.deserialize_newtype_struct($name, V)
                }
            }
        }
    )*};
}

id_marker! {
    Rid = RID, "a RID (u64 id)";
    ObjectId = OBJECT_ID, "an object id (u64)";
}

impl Serialize for Callable {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_struct(CALLABLE)
    }
}

impl Payload for Callable {
    const NAMES: &'static [&'static str] = &[CALLABLE];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        map.next_value::<()>().map(|()| Callable)
    }
}

struct CallableVisitor;

impl<'de> de::Visitor<'de> for CallableVisitor {
    type Value = Callable;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Callable (unit)")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Callable, E> {
        Ok(Callable)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Callable, A::Error> {
        visit_marker_map(map, &self)
    }
}

impl<'de> Deserialize<'de> for Callable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(CallableVisitor)
        } else {
            deserializer.deserialize_unit_struct(CALLABLE, CallableVisitor)
        }
    }
}

impl Serialize for Signal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut t = serializer.serialize_tuple_struct(SIGNAL, 2)?;
        t.serialize_field(&self.name)?;
        t.serialize_field(&self.object.0)?;
        t.end()
    }
}

impl Payload for Signal {
    const NAMES: &'static [&'static str] = &[SIGNAL];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        map.next_value::<(String, u64)>()
            .map(|(name, id)| Signal::new(name, ObjectId(id)))
    }
}

struct SignalVisitor;

impl<'de> de::Visitor<'de> for SignalVisitor {
    type Value = Signal;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Signal (name and object id)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Signal, A::Error> {
        let name: String = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let id: u64 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok(Signal::new(name, ObjectId(id)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Signal, A::Error> {
        visit_marker_map(map, &self)
    }
}

impl<'de> Deserialize<'de> for Signal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(SignalVisitor)
        } else {
            deserializer.deserialize_tuple_struct(SIGNAL, 2, SignalVisitor)
        }
    }
}
