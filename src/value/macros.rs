//! The [`variant!`](crate::variant) literal macro.

/// Builds a [`Variant`](crate::Variant) from a GDScript-like literal.
///
/// - `null` is `Nil`; `[a, b]` an Array; `{k: v, ...}` a Dictionary (keys in order);
/// - `Vector2(x, y)`, `Vector2i(x, y)`, `Vector3(x, y, z)`, `Vector3i(..)`, `Vector4(..)`,
///   `Vector4i(..)`, `Rect2(x, y, w, h)`, `Rect2i(..)`, `Color(r, g, b, a)` as in GDScript
///   (components are cast to the math type's scalar with `as`);
/// - `&"name"` is a `StringName`, `^"path"` a `NodePath`;
/// - anything else is a Rust expression converted with `Variant::from` (numbers, strings,
///   booleans, variables, marker types, nested `Variant`s). Keys take the same forms
///   (`&"name": 1`, `7: "seven"`, `(a + b): x`).
///
/// ```
/// use godot_serde::{variant, Dictionary, StringName, Variant, Vector2};
///
/// let hp = 5;
/// let v = variant!({
///     "hp": hp,
///     "pos": Vector2(1, 2.5),
///     "tags": ["a", &"b", null],
///     "speed": -1.5,
///     7: {"nested": true},
/// });
/// assert_eq!(v["hp"], Variant::Int(5));
/// assert_eq!(v["pos"], Variant::Vector2(Vector2::new(1.0, 2.5)));
/// assert_eq!(v["tags"][1], Variant::StringName(StringName::from("b")));
/// assert_eq!(v["tags"][2], Variant::Nil);
/// assert_eq!(v["speed"], Variant::Float(-1.5));
/// assert_eq!(v.pointer("/7/nested"), Some(&Variant::Bool(true)));
/// let keys: Vec<String> = v.as_dictionary().unwrap().keys().map(|k| k.to_string()).collect();
/// assert_eq!(keys, ["\"hp\"", "\"pos\"", "\"tags\"", "\"speed\"", "7"]); // in order
/// ```
#[macro_export]
macro_rules! variant {
    // Internal: Dictionary entries, one value munched token by token up to a comma.
    (@dict $d:ident) => {};
    (@dict $d:ident $($rest:tt)+) => {
        $crate::variant!(@key $d () $($rest)+)
    };
    // Internal: a key, munched up to its colon.
    (@key $d:ident ($($k:tt)+) : $($rest:tt)*) => {
        $crate::variant!(@value $d [$($k)+] () $($rest)*)
    };
    (@key $d:ident ($($k:tt)*) $next:tt $($rest:tt)*) => {
        $crate::variant!(@key $d ($($k)* $next) $($rest)*)
    };
    (@value $d:ident [$($key:tt)+] ($($v:tt)+) , $($rest:tt)*) => {
        $d.insert($crate::variant!($($key)+), $crate::variant!($($v)+));
        $crate::variant!(@dict $d $($rest)*)
    };
    (@value $d:ident [$($key:tt)+] ($($v:tt)+)) => {
        $d.insert($crate::variant!($($key)+), $crate::variant!($($v)+));
    };
    (@value $d:ident [$($key:tt)+] ($($v:tt)*) $next:tt $($rest:tt)*) => {
        $crate::variant!(@value $d [$($key)+] ($($v)* $next) $($rest)*)
    };
    // Internal: Array elements, munched the same way.
    (@array [$($done:expr,)*] ()) => {
        ::std::vec![$($done,)*]
    };
    (@array [$($done:expr,)*] ($($v:tt)+)) => {
        ::std::vec![$($done,)* $crate::variant!($($v)+)]
    };
    (@array [$($done:expr,)*] ($($v:tt)+) , $($rest:tt)*) => {
        $crate::variant!(@array [$($done,)* $crate::variant!($($v)+),] () $($rest)*)
    };
    (@array [$($done:expr,)*] ($($v:tt)*) $next:tt $($rest:tt)*) => {
        $crate::variant!(@array [$($done,)*] ($($v)* $next) $($rest)*)
    };
    (null) => {
        $crate::Variant::Nil
    };
    ([ $($items:tt)* ]) => {
        $crate::Variant::from($crate::variant!(@array [] () $($items)*))
    };
    ({ $($entries:tt)* }) => {{
        #[allow(unused_mut)]
        let mut d = $crate::Dictionary::new();
        $crate::variant!(@dict d $($entries)*);
        $crate::Variant::from(d)
    }};
    (Vector2($x:expr, $y:expr $(,)?)) => {
        $crate::Variant::from($crate::Vector2::new(($x) as $crate::Real, ($y) as $crate::Real))
    };
    (Vector2i($x:expr, $y:expr $(,)?)) => {
        $crate::Variant::from($crate::Vector2i::new(($x) as i32, ($y) as i32))
    };
    (Vector3($x:expr, $y:expr, $z:expr $(,)?)) => {
        $crate::Variant::from($crate::Vector3::new(
            ($x) as $crate::Real,
            ($y) as $crate::Real,
            ($z) as $crate::Real,
        ))
    };
    (Vector3i($x:expr, $y:expr, $z:expr $(,)?)) => {
        $crate::Variant::from($crate::Vector3i::new(($x) as i32, ($y) as i32, ($z) as i32))
    };
    (Vector4($x:expr, $y:expr, $z:expr, $w:expr $(,)?)) => {
        $crate::Variant::from($crate::Vector4::new(
            ($x) as $crate::Real,
            ($y) as $crate::Real,
            ($z) as $crate::Real,
            ($w) as $crate::Real,
        ))
    };
    (Vector4i($x:expr, $y:expr, $z:expr, $w:expr $(,)?)) => {
        $crate::Variant::from($crate::Vector4i::new(
            ($x) as i32,
            ($y) as i32,
            ($z) as i32,
            ($w) as i32,
        ))
    };
    (Rect2($x:expr, $y:expr, $w:expr, $h:expr $(,)?)) => {
        $crate::Variant::from($crate::Rect2::new(
            $crate::Vector2::new(($x) as $crate::Real, ($y) as $crate::Real),
            $crate::Vector2::new(($w) as $crate::Real, ($h) as $crate::Real),
        ))
    };
    (Rect2i($x:expr, $y:expr, $w:expr, $h:expr $(,)?)) => {
        $crate::Variant::from($crate::Rect2i::new(
            $crate::Vector2i::new(($x) as i32, ($y) as i32),
            $crate::Vector2i::new(($w) as i32, ($h) as i32),
        ))
    };
    (Color($r:expr, $g:expr, $b:expr, $a:expr $(,)?)) => {
        $crate::Variant::from($crate::Color::new(
            ($r) as f32,
            ($g) as f32,
            ($b) as f32,
            ($a) as f32,
        ))
    };
    (& $name:literal) => {
        $crate::Variant::from($crate::StringName::from($name))
    };
    (^ $path:literal) => {
        $crate::Variant::from($crate::NodePath::from($path))
    };
    ($($other:tt)+) => {
        $crate::Variant::from($($other)+)
    };
}
