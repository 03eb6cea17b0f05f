//! Text forms: [`Display`](fmt::Display) prints Godot 4's `var_to_str` syntax on one line
//! (`{:#}`: exactly `var_to_str`), and [`Variant::to_godot3_string`] prints Godot 3's
//! `var2str` syntax. All use the one writer of this module (`text::writer`); the impls live
//! here, beside it, so that `value` does not import `text`.

use core::fmt;

use super::writer::{Dialect, write_array, write_dictionary, write_object, write_variant};
use crate::types::{
    Aabb, Basis, Callable, Color, ObjectId, PackedByteArray, PackedColorArray, PackedFloat32Array,
    PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array,
    PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion, Rect2, Rect2i, Rid,
    Signal, Transform2D, Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};

use crate::value::{Array, Dictionary, Object, Variant};

impl Variant {
    /// This value in Godot 3's `var2str` syntax (3.x names such as `Quat`, `Transform`,
    /// `PoolIntArray`, spaces inside parentheses, floats with six significant digits).
    ///
    /// The rules (Godot 3.2 – 3.6):
    ///
    /// - Constructors have spaces inside the parentheses: `Vector2( 1, 2 )`, `[ 1, 2 ]`,
    ///   `PoolIntArray( 1, 2 )`, and empty ones keep two spaces: `[  ]`, `PoolIntArray(  )`.
    /// - Floats are converted to `f32` (Godot 3's `real_t`) and printed with `%g`, i.e. six
    ///   significant digits: `3.14159`, `1e+10`, `1.23457e+06`; a `float` Variant gets `.0`
    ///   appended as in Godot 4, also after `-inf` (`-inf.0`, the engine's own quirk).
    /// - Dictionaries always span lines, `{\n\n}` when empty; keys are sorted by Godot 3 type
    ///   id, then by value. Typed container descriptors do not exist and are not printed.
    /// - `RID` prints as nothing at all (the engine writes an empty string).
    /// - Types that Godot 3 does not have (`Vector2i`, `StringName`, `PackedInt64Array`, ...)
    ///   are printed in their Godot 4 syntax, which Godot 3 cannot read back: convert them first
    ///   if the text is meant for a Godot 3 engine.
    ///
    /// ```
    /// use godot_serde::{Variant, Vector2};
    ///
    /// let v = Variant::Vector2(Vector2 { x: 1.0, y: 2.5 });
    /// assert_eq!(v.to_godot3_string(), "Vector2( 1, 2.5 )");
    /// assert_eq!(v.to_string(), "Vector2(1, 2.5)");
    /// assert_eq!(Variant::Float(std::f64::consts::PI).to_godot3_string(), "3.14159");
    /// ```
    #[must_use]
    pub fn to_godot3_string(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = write_variant(&mut out, self, Dialect::Godot3);
        out
    }
}

/// Prints Godot 4's `var_to_str` text on one line, e.g. `Vector2(1, 2)`, `&"name"`,
/// `[1, "a"]`, `{"a": 1, "b": 2}`; `{:#}` prints exactly what `var_to_str` prints.
///
/// **One line by default.** As `serde_json`'s `Display` is compact JSON and `{:#}` the
/// pretty form, the default here fits a log line: it is the `var_to_str` text with two
/// layout changes, and nothing else: a dictionary prints as `{key: value, key: value}`
/// instead of one entry per line, and an object is not followed by a newline. Godot's
/// `str_to_var` reads it back to the same value (its parser ignores the layout). A newline
/// appears only inside a String that holds one (strings are quoted, not escaped, in this
/// syntax). Godot's own `str(v)` / `print(v)` is not followed: it drops the type of most
/// values (`Vector2(1, 2)`, `Vector2i(1, 2)` and `PackedFloat32Array(1, 2)` print as
/// `(1.0, 2.0)`, `(1, 2)` and `[1.0, 2.0]`, a String and a StringName both print bare) and
/// cannot be read back; the text here always can.
///
/// The form is Godot 4's whatever engine a value came from (a Variant does not know):
/// use [`Variant::to_godot3_string`] or [`crate::text::to_string_with`] for the exact
/// engine text of either engine.
///
/// The rules (Godot 4.5 – 4.6; 4.0 – 4.4 differ only in the floats, see
/// [the text module](crate::text#floats-per-engine-version)):
///
/// - Floats go through `rtos_fix`: `0` for both zeros, `inf`, `inf_neg` (negative infinity),
///   `nan`, and otherwise the engine's Grisu2 digits, which read back to the same value (of
///   an `f32` when the value is exactly an `f32`, so `0.1f32` prints `0.1`). They are
///   usually the shortest such digits, but not always: as the engine, an `f32` `30000001024`
///   prints `30000001000` (not `3e+10`) and `320610.875` prints `320610.87`.
///   Plain notation is used for 10⁻⁴ ≤ |x| < 10¹⁵, scientific (`1e+300`, `5e-324`) outside.
///   A `float` Variant gets `.0` appended when the text has no `.` or `e` (`1.0`, `0.0`).
/// - Strings are quoted, with only `\` and `"` escaped (newlines stay raw); StringName
///   (`&"name"`), NodePath (`NodePath("a/b:c")`) and PackedStringArray elements use C escapes.
/// - Dictionary keys are printed **sorted** (String and StringName keys by text, other keys by
///   type id, then by value): `{"a": 1, "b": 2}`, with `{:#}` one entry per line as
///   `var_to_str`: `{\n"a": 1,\n"b": 2\n}`; `{}` when empty.
/// - Typed containers print their type: `Array[int]([1, 2])`,
///   `Dictionary[String, int]({...})`; a script type prints as `Resource("res://path.gd")`.
/// - A full [`Object`] prints as `Object(Class,"prop":value,...)` (with `{:#}` followed by a
///   newline, as the engine does); an [`ObjectId`] prints as the engine prints a decoded id,
///   `Object(EncodedObjectAsID,"object_id":N,"script":null)` (and the newline with `{:#}`),
///   `ObjectId(0)` as `null`. Callable and Signal print as `Callable()` / `Signal()`.
///
/// ```
/// use godot_serde::{Array, Dictionary, Variant};
///
/// let mut d = Dictionary::new();
/// d.insert("b".into(), Variant::Float(1.0));
/// d.insert("a".into(), Variant::from(Array { items: vec![1.into(), "x".into()], ..Default::default() }));
/// let v = Variant::from(d);
/// assert_eq!(v.to_string(), "{\"a\": [1, \"x\"], \"b\": 1.0}");
/// assert_eq!(format!("{v:#}"), "{\n\"a\": [1, \"x\"],\n\"b\": 1.0\n}");
/// ```
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_variant(f, self, godot4(f))
    }
}

/// The Godot 4 layout a formatter asks for: one line, or `var_to_str`'s with `{:#}`.
fn godot4(f: &fmt::Formatter<'_>) -> Dialect {
    if f.alternate() {
        Dialect::Godot4
    } else {
        Dialect::Godot4Compact
    }
}

/// Prints Godot 4's `var_to_str` text of the Array, e.g. `[1, 2]` or `Array[int]([1, 2])`,
/// on one line as [`Variant`]'s `Display` does (`{:#}`: exactly `var_to_str`).
impl fmt::Display for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_array(f, self, godot4(f))
    }
}

/// Prints Godot 4's `var_to_str` text of the Dictionary, keys sorted as the engine does, on
/// one line as [`Variant`]'s `Display` does (`{:#}`: exactly `var_to_str`).
impl fmt::Display for Dictionary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dictionary(f, self, godot4(f))
    }
}

/// Prints Godot 4's `var_to_str` text of a full object, `Object(Class,"prop":value,...)`,
/// on one line as [`Variant`]'s `Display` does (`{:#}`: exactly `var_to_str`, which ends
/// with a newline).
impl fmt::Display for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_object(f, self, godot4(f))
    }
}

/// Implements `Display` (Godot 4 `var_to_str` text) for marker types by wrapping them in the
/// matching Variant case. `StringName` and `NodePath` print their plain text instead (the
/// inverse of their `From<&str>` / `FromStr`); `Variant` prints them as `&"name"` / `^"path"`.
macro_rules! display_via_variant {
    ($($ty:ident),* $(,)?) => {$(
        #[doc = concat!("Prints Godot 4's `var_to_str` text of a `", stringify!($ty), "`, on one line as [`Variant`]'s `Display` does.")]
        #[allow(clippy::clone_on_copy)]
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_variant(f, &Variant::$ty(self.clone().into()), godot4(f))
            }
        }
    )*};
}

display_via_variant!(
    Vector2,
    Vector2i,
    Rect2,
    Rect2i,
    Vector3,
    Vector3i,
    Transform2D,
    Vector4,
    Vector4i,
    Plane,
    Quaternion,
    Aabb,
    Basis,
    Transform3D,
    Projection,
    Color,
    Rid,
    ObjectId,
    Callable,
    Signal,
    PackedByteArray,
    PackedInt32Array,
    PackedInt64Array,
    PackedFloat32Array,
    PackedFloat64Array,
    PackedStringArray,
    PackedVector2Array,
    PackedVector3Array,
    PackedColorArray,
    PackedVector4Array,
);
