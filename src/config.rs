//! [`Config`]: which engine's layout to read and write, and the limits applied while doing it.

/// Deepest nesting Godot accepts (`Variant::MAX_RECURSION_DEPTH`).
pub const GODOT_MAX_DEPTH: usize = 1024;
/// Our default nesting limit (as serde_json's): deep enough for any real game data, shallow
/// enough that decoding hostile input into a `Variant` cannot overflow a 2 MiB thread stack
/// even in a debug build, where a typed Array or object property level costs up to 14 KiB of
/// stack (about 170 levels fit; release builds need under 3 KiB a level).
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// The Godot engine whose Variant layout is read and written.
///
/// The layout is always chosen explicitly, never guessed from the bytes: Godot 3 and Godot 4
/// streams share only nil, bool, int, float, String and Vector2, so a guess would silently
/// misread everything else.
///
/// The binary layouts of [`V4_4`](Self::V4_4) and [`V4_5`](Self::V4_5) are identical; they
/// differ in the text form only (`var_to_str`, ConfigFile, `.tscn` / `.tres`), where Godot 4.5
/// changed how floats are written: 4.0 – 4.4 print six significant digits with C's `%lg`
/// (`0.707107`), 4.5 and later the shortest digits that read back to the same value
/// (`0.70710677`). See [`crate::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[non_exhaustive]
pub enum GodotVersion {
    /// Godot 3.x (`var2bytes` / `bytes2var`): 27 type ids, `Pool*Array`, RID without payload,
    /// no StringName, Callable, Signal, integer vectors, Vector4 or Projection.
    V3,
    /// Godot 4.0, 4.1 and 4.2: no PackedVector4Array, no typed container headers.
    V4_0,
    /// Godot 4.3: adds PackedVector4Array and typed Array headers.
    V4_3,
    /// Godot 4.4: adds typed Dictionary headers. Text floats as 4.0 – 4.3 (`%lg`, six
    /// significant digits).
    V4_4,
    /// Godot 4.5 and later (4.6 at the time of writing): the binary layout of 4.4; text floats
    /// in their shortest round-trip form (Grisu2).
    #[default]
    V4_5,
}

impl GodotVersion {
    /// Whether this engine reads and writes the typed-Array descriptor (4.3+).
    #[must_use]
    pub const fn has_typed_arrays(self) -> bool {
        matches!(
            self,
            GodotVersion::V4_3 | GodotVersion::V4_4 | GodotVersion::V4_5
        )
    }

    /// Whether this engine reads and writes the typed-Dictionary descriptors (4.4+).
    #[must_use]
    pub const fn has_typed_dictionaries(self) -> bool {
        matches!(self, GodotVersion::V4_4 | GodotVersion::V4_5)
    }

    /// Whether this engine's text form writes floats in their shortest round-trip form
    /// (4.5+), rather than with C's `%lg` (4.0 – 4.4) or `%g` of an `f32` (3.x).
    #[must_use]
    pub const fn has_shortest_float_text(self) -> bool {
        matches!(self, GodotVersion::V4_5)
    }

    /// Whether this is a Godot 4 layout.
    #[must_use]
    pub const fn is_godot4(self) -> bool {
        !matches!(self, GodotVersion::V3)
    }
}

impl core::fmt::Display for GodotVersion {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            GodotVersion::V3 => "3.x",
            GodotVersion::V4_0 => "4.0-4.2",
            GodotVersion::V4_3 => "4.3",
            GodotVersion::V4_4 => "4.4",
            GodotVersion::V4_5 => "4.5+",
        })
    }
}

/// How Rust enum variants are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum EnumRepr {
    /// The variant's name as a String (`"Idle"`, `{"Move": ...}`), serde's usual external
    /// tagging. Readable on the GDScript side with `match value: "Idle": ...`.
    #[default]
    Name,
    /// The variant's index as an int (`0`, `{1: ...}`), which is what a GDScript `enum` holds.
    Index,
}

/// Settings for encoding and decoding: target engine, precision, enum style, object policy
/// and limits.
///
/// `Config` is a small `Copy` value; the crate-root functions use [`Config::default()`]
/// (Godot 4.5+). Every entry point exists as a method here too:
///
/// ```
/// # #[derive(serde::Serialize)] struct Player { hp: u32 }
/// # let player = Player { hp: 3 };
/// let g4 = godot_serde::to_bytes(&player)?;                        // var_to_bytes in 4.4+
/// let g3 = godot_serde::Config::godot3().to_bytes(&player)?;      // var2bytes in 3.x
/// # Ok::<(), godot_serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub(crate) version: GodotVersion,
    pub(crate) double_precision: bool,
    pub(crate) typed_containers: bool,
    pub(crate) enum_repr: EnumRepr,
    pub(crate) allow_objects: bool,
    pub(crate) max_depth: usize,
    pub(crate) sorted_maps: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self::new(GodotVersion::V4_5)
    }
}

impl Config {
    /// The default settings for `version`: single precision, untyped containers, enums by
    /// name, full objects refused, nesting depth limited to [`DEFAULT_MAX_DEPTH`](crate::DEFAULT_MAX_DEPTH) (128).
    #[must_use]
    pub const fn new(version: GodotVersion) -> Self {
        Self {
            version,
            double_precision: false,
            typed_containers: false,
            enum_repr: EnumRepr::Name,
            allow_objects: false,
            max_depth: DEFAULT_MAX_DEPTH,
            sorted_maps: false,
        }
    }

    /// Godot 3.x (`var2bytes` / `bytes2var`).
    #[must_use]
    pub const fn godot3() -> Self {
        Self::new(GodotVersion::V3)
    }

    /// Godot 4.x, latest engine (4.5 and later; binary layout of 4.4). Same as
    /// [`Config::default()`].
    #[must_use]
    pub const fn godot4() -> Self {
        Self::new(GodotVersion::V4_5)
    }

    /// Returns this config targeting `version`.
    #[must_use]
    pub const fn with_version(mut self, version: GodotVersion) -> Self {
        self.version = version;
        self
    }

    /// Write float math types (Vector2, Rect2, Vector3, Transform2D, Vector4, Plane,
    /// Quaternion, AABB, Basis, Transform3D, Projection and the packed vector arrays) with
    /// header bit 16 set and f64 components, as a Godot 4 engine built with
    /// `precision=double` does. Color, the integer vectors and float arrays are unaffected.
    ///
    /// Decoding always honours the flag whatever this setting says. Godot 3 never writes or
    /// reads the flag: encoding with this set and [`GodotVersion::V3`] is an error.
    #[must_use]
    pub const fn with_double_precision(mut self, on: bool) -> Self {
        self.double_precision = on;
        self
    }

    /// Write a typed Array header (`Array[int]`, `Array[Vector2]`, ...) for every Rust
    /// sequence whose elements all have one builtin type, so that GDScript can assign the
    /// result to a typed variable. Off by default. The type is inferred from the elements:
    /// an empty sequence, or one mixing types, nil, objects or containers, stays untyped.
    ///
    /// Only Godot 4.3+ reads typed Array headers; for older targets the setting has no
    /// effect, as those engines themselves write no typing. Typing carried by a
    /// [`Variant`](crate::Variant) (including typed Dictionaries, 4.4+) is written whenever
    /// the target can read it, whatever this setting says.
    pub const fn with_typed_containers(mut self, on: bool) -> Self {
        self.typed_containers = on;
        self
    }

    /// Write the entries of every map (`serialize_map`: `HashMap`, `BTreeMap`, [`Dictionary`](crate::Dictionary),
    /// ...) in one stable order, sorted by their encoded key bytes, so that a `HashMap`
    /// gives the same bytes on every run (for snapshot tests, content hashes, caches).
    /// Off by default: maps are written in their iteration order, which for `BTreeMap`,
    /// `IndexMap`, [`Dictionary`](crate::Dictionary) and a `Vec` of pairs is stable already,
    /// and for `HashMap` changes from run to run. Structs are unaffected (their fields keep
    /// declaration order). Costs one offset per entry and one reordering copy per map when on,
    /// nothing when off.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// let m: HashMap<&str, i32> = [("b", 2), ("a", 1), ("c", 3)].into();
    /// let config = godot_serde::Config::godot4().with_sorted_maps(true);
    /// let sorted: std::collections::BTreeMap<_, _> = m.iter().collect();
    /// // Same-length string keys: encoded-byte order is text order here.
    /// assert_eq!(config.to_bytes(&m)?, godot_serde::to_bytes(&sorted)?);
    /// # Ok::<(), godot_serde::Error>(())
    /// ```
    #[must_use]
    pub const fn with_sorted_maps(mut self, on: bool) -> Self {
        self.sorted_maps = on;
        self
    }

    /// How enum variants are written, and whether decoding reads an int as a variant index.
    ///
    /// Decoding reads a variant name (`"Bye"`, `{"Move": 3}`) in both modes, and an int
    /// (`3`, `{1: 3}`) as the variant at that position only with [`EnumRepr::Index`]: in
    /// the default name mode an int is an error, so a peer cannot pick a variant by number and
    /// reordering the variants changes nothing on the wire.
    #[must_use]
    pub const fn with_enum_repr(mut self, repr: EnumRepr) -> Self {
        self.enum_repr = repr;
        self
    }

    /// Accept full objects (`var_to_bytes_with_objects` output) when decoding, as a
    /// [`Object`](crate::Object) record: class name and ordered properties. Nothing is ever
    /// instantiated or executed. Refused by default, as Godot's `bytes_to_var` does
    /// (`ERR_UNAUTHORIZED`).
    ///
    /// It also picks how containers typed with a class or a script are written and read, as
    /// Godot does: with it (`var_to_bytes_with_objects`) an `Array[Node]` carries `"Node"` (a
    /// script-typed one its `res://` path); without it (`var_to_bytes` / `bytes_to_var`) such
    /// a container carries the class `EncodedObjectAsID`, as do the class-less OBJECT
    /// containers read without it.
    #[must_use]
    pub const fn with_allow_objects(mut self, on: bool) -> Self {
        self.allow_objects = on;
        self
    }

    /// Maximum nesting depth of Arrays, Dictionaries, enum payloads and objects below the
    /// top-level value, for encoding and decoding; a value at depth `max_depth` is accepted,
    /// one deeper is [`ErrorKind::DepthLimitExceeded`](crate::ErrorKind::DepthLimitExceeded).
    ///
    /// Default [`DEFAULT_MAX_DEPTH`](crate::DEFAULT_MAX_DEPTH) (128). Godot's own limit is
    /// [`GODOT_MAX_DEPTH`](crate::GODOT_MAX_DEPTH) (1024); decoding that deep recurses
    /// 1024 times, which needs more than a 2 MiB thread stack in a debug build (release
    /// builds need about a quarter of it), so raise the limit only where the stack allows.
    #[must_use]
    pub const fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// The target engine.
    #[must_use]
    pub const fn version(&self) -> GodotVersion {
        self.version
    }

    /// Whether float math types are written as f64 (see [`Config::with_double_precision`]).
    #[must_use]
    pub const fn double_precision(&self) -> bool {
        self.double_precision
    }

    /// Whether typed container headers are inferred (see [`Config::with_typed_containers`]).
    #[must_use]
    pub const fn typed_containers(&self) -> bool {
        self.typed_containers
    }

    /// How enum variants are written.
    #[must_use]
    pub const fn enum_repr(&self) -> EnumRepr {
        self.enum_repr
    }

    /// Whether decoding reads an int as an enum variant index ([`EnumRepr::Index`]).
    pub(crate) const fn enum_indices(&self) -> bool {
        matches!(self.enum_repr, EnumRepr::Index)
    }

    /// Whether full objects are accepted when decoding.
    #[must_use]
    pub const fn allow_objects(&self) -> bool {
        self.allow_objects
    }

    /// The nesting-depth limit.
    #[must_use]
    pub const fn max_depth(&self) -> usize {
        self.max_depth
    }
}
