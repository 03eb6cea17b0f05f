//! [`StringName`] and [`NodePath`].

use core::convert::Infallible;
use core::fmt;
use core::str::FromStr;

use serde::de::{self, MapAccess, SeqAccess};
use serde::ser::SerializeTupleStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::proto::{Payload, visit_marker_map};
use super::{NODE_PATH, STRING_NAME};

/// Godot 4 `StringName` (type id 21; no Godot 3 equivalent): an interned string, written
/// exactly like a String with another type id. GDScript literal: `&"name"`.
///
/// Serialized as `serialize_newtype_struct("$godot_serde::StringName", &str)`, so other
/// formats see a plain string; deserializing also accepts a plain string.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StringName(pub String);

impl StringName {
    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for StringName {
    fn from(s: &str) -> Self {
        StringName(s.to_owned())
    }
}

impl From<String> for StringName {
    fn from(s: String) -> Self {
        StringName(s)
    }
}

impl From<StringName> for String {
    fn from(s: StringName) -> Self {
        s.0
    }
}

impl core::ops::Deref for StringName {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for StringName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for StringName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(STRING_NAME, self.0.as_str())
    }
}

impl Payload for StringName {
    const NAMES: &'static [&'static str] = &[STRING_NAME];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        map.next_value().map(StringName)
    }
}

struct StringNameVisitor;

impl<'de> de::Visitor<'de> for StringNameVisitor {
    type Value = StringName;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a StringName or a string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<StringName, E> {
        Ok(StringName(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<StringName, E> {
        Ok(StringName(v))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<StringName, D::Error> {
        String::deserialize(d).map(StringName)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<StringName, A::Error> {
        visit_marker_map(map, &self)
    }
}

impl<'de> Deserialize<'de> for StringName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(StringNameVisitor)
        } else {
            deserializer.deserialize_newtype_struct(STRING_NAME, StringNameVisitor)
        }
    }
}

/// Godot `NodePath` (4.x id 22, 3.x id 15): node names and property subnames.
///
/// `NodePath("/root/Main:position")` has names `["root", "Main"]`, subnames `["position"]`
/// and is absolute. It is kept split as on the wire, so decoding and encoding again gives the
/// same bytes even for names that contain `/` or `:`.
///
/// The text form converts both ways: [`FromStr`] / `From<&str>` parse it as Godot's
/// `NodePath(String)` constructor does, and [`Display`](fmt::Display) prints it as Godot's
/// `String(NodePath)` does. Human-readable serde formats (JSON, ...) carry the text form;
/// others carry the three fields.
///
/// ```
/// use godot_serde::NodePath;
///
/// let path: NodePath = "/root/Main:position".parse().unwrap();
/// assert_eq!(path.names, ["root", "Main"]);
/// assert_eq!(path.subnames, ["position"]);
/// assert!(path.absolute);
/// assert_eq!(path.to_string(), "/root/Main:position");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodePath {
    /// Node names, separated by `/` in the text form.
    pub names: Vec<String>,
    /// Property subnames, each introduced by `:` in the text form.
    pub subnames: Vec<String>,
    /// Whether the path starts at the root (`/`).
    pub absolute: bool,
}

impl NodePath {
    /// Whether the path is empty (`NodePath("")`): no names, no subnames, not absolute.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && self.subnames.is_empty() && !self.absolute
    }
}

impl FromStr for NodePath {
    type Err = Infallible;

    /// Parses Godot's text form (`core/string/node_path.cpp`, `NodePath(const String &)`):
    /// a leading `/` makes the path absolute; the first `:` starts the subnames, which are
    /// split on `:`; the part before it is split on `/` into names. Empty names are dropped,
    /// as Godot does (`"a//b"` is `a/b`), and so are empty subnames (Godot drops a trailing
    /// `:` but rejects `"a::b"` with an empty path; here it is `a:b`).
    fn from_str(text: &str) -> Result<Self, Infallible> {
        let (path, subpath) = match text.split_once(':') {
            Some((path, subpath)) => (path, Some(subpath)),
            None => (text, None),
        };
        let (absolute, path) = match path.strip_prefix('/') {
            Some(rest) => (true, rest),
            None => (false, path),
        };
        let owned = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        Ok(NodePath {
            names: path.split('/').filter_map(owned).collect(),
            subnames: subpath.map_or_else(Vec::new, |s| s.split(':').filter_map(owned).collect()),
            absolute,
        })
    }
}

impl From<&str> for NodePath {
    fn from(text: &str) -> Self {
        match text.parse() {
            Ok(path) => path,
            Err(never) => match never {},
        }
    }
}

impl fmt::Display for NodePath {
    /// Godot's text form: `/` if absolute, the names joined by `/`, then `:` and each subname.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.absolute {
            f.write_str("/")?;
        }
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            f.write_str(name)?;
        }
        for sub in &self.subnames {
            f.write_str(":")?;
            f.write_str(sub)?;
        }
        Ok(())
    }
}

impl Serialize for NodePath {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            return serializer.collect_str(self);
        }
        let mut t = serializer.serialize_tuple_struct(NODE_PATH, 3)?;
        t.serialize_field(&self.names)?;
        t.serialize_field(&self.subnames)?;
        t.serialize_field(&self.absolute)?;
        t.end()
    }
}

impl Payload for NodePath {
    const NAMES: &'static [&'static str] = &[NODE_PATH];

    fn next_payload<'de, A: MapAccess<'de>>(map: &mut A, _wide: bool) -> Result<Self, A::Error> {
        map.next_value_seed(NodePathFields)
    }
}

/// The payload of a NodePath marker: a tuple of names, subnames, absolute.
struct NodePathFields;

impl<'de> de::DeserializeSeed<'de> for NodePathFields {
    type Value = NodePath;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<NodePath, D::Error> {
        d.deserialize_tuple(3, NodePathVisitor { readable: false })
    }
}

/// `readable`: decoding a human-readable format, where a NodePath's text is accepted too (the
/// binary format takes only a NodePath value, so its error does not offer text).
struct NodePathVisitor {
    readable: bool,
}

impl<'de> de::Visitor<'de> for NodePathVisitor {
    type Value = NodePath;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.readable {
            f.write_str("a NodePath (its text, or names, subnames and absolute)")
        } else {
            f.write_str("a NodePath")
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<NodePath, E> {
        Ok(NodePath::from(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NodePath, A::Error> {
        let names = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let subnames = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        let absolute = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(2, &self))?;
        Ok(NodePath {
            names,
            subnames,
            absolute,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<NodePath, A::Error> {
        visit_marker_map(map, &self)
    }
}

impl<'de> Deserialize<'de> for NodePath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(NodePathVisitor { readable: true })
        } else {
            deserializer.deserialize_tuple_struct(NODE_PATH, 3, NodePathVisitor { readable: false })
        }
    }
}
