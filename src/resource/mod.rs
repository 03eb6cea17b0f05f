//! Godot's resource files (feature `resource`): scenes and resources as the engine saves them,
//! as text (`.tscn`, `.tres`: `format=2` of Godot 3, `format=3` and `4` of Godot 4) and as binary
//! (`.scn`, `.res`: `RSRC`), read into one model, [`ResourceFile`], that both forms share.
//!
//! A property's value is a [`Variant`](crate::Variant); a reference to another resource of the
//! file is the text form's `ExtResource(id)` / `SubResource(id)`: an [`Object`](crate::Object)
//! of class `ExtResource` / `SubResource` whose one property `id` holds the id (a `String` in
//! Godot 4, an `Int` in Godot 3), as the [`text`](crate::text) module reads them. [`ext_ref`]
//! and [`sub_ref`] make one; [`reference()`] tells one apart.
//!
//! # Text files
//!
//! [`TextResource`] keeps a `.tscn` / `.tres` as its text: unedited, it prints its input byte
//! for byte; [`TextResource::to_model`] reads it into a [`ResourceFile`]; its edits (set or
//! remove a property, add, remove, rename or reparent a node, add an instance, an
//! `[ext_resource]` or a `[connection]`) change only the bytes they must and are read back
//! before they are kept. [`write_text`] lays a [`ResourceFile`] out as the engine's saver
//! does, `format=4` included (Godot 4.3+: base64 byte arrays when the file holds more than
//! 64 bytes in one PackedByteArray, or a PackedVector4Array). The grammar and the saver's layout are those of the engines'
//! `scene/resources/resource_format_text.cpp` (3.2 and 4.x); see the README's "Scenes and
//! resources" for what is checked against them.
//!
//! ```
//! use godot_serde::resource::{ext_ref, write_text, Target, TextResource};
//! use godot_serde::{GodotVersion, Variant};
//!
//! let tres = "[gd_resource type=\"Resource\" format=2]\n\n[resource]\nname = \"Sword\"\n";
//! let mut doc = TextResource::parse(tres)?; // format=2: Godot 3
//! let script = doc.add_ext_resource("Script", "res://item.gd", None)?;
//! assert_eq!(script, "1"); // Godot 3's ids are the next integer
//! doc.set_property(Target::Resource, "script", &ext_ref(1i64))?;
//! assert_eq!(
//!     doc.to_string(),
//!     "[gd_resource type=\"Resource\" load_steps=2 format=2]\n\n\
//!      [ext_resource path=\"res://item.gd\" type=\"Script\" id=1]\n\n\
//!      [resource]\nname = \"Sword\"\nscript = ExtResource( 1 )\n"
//! );
//! let model = doc.to_model()?;
//! assert_eq!(model.properties[0], ("name".to_owned(), Variant::from("Sword")));
//! assert_eq!(write_text(&model, GodotVersion::V3), doc.to_string());
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! # Binary form
//!
//! [`read_binary`] reads a `.res` / `.scn` of Godot 3 (format version 3) or Godot 4 (4–6);
//! [`write_binary`] writes one in the layout its [`BinaryOptions`] choose, explicitly
//! ([`BinaryOptions::godot4`], [`BinaryOptions::godot3`], or [`BinaryInfo::options`] of a read
//! file), never guessed. The layout (`core/io/resource_format_binary.cpp`):
//!
//! ```text
//! "RSRC"  big_endian u32  real_is_double u32  engine major u32  minor u32  format version u32
//! main resource class (string)  import metadata offset u64
//! Godot 4: flags u32  uid u64  [script class (string) with flag 8]  11 reserved u32
//! Godot 3: 14 reserved u32
//! string table: count u32, strings
//! external resources: count u32, each class (string) path (string) [uid u64, Godot 4 with flag 2]
//! internal resources: count u32, each path (string: local://ID or res://…::ID) offset u64
//! each internal resource at its offset: class (string), property count u32,
//!   each property: name (string table index u32) value
//! "RSRC"
//! ```
//!
//! A string is its UTF-8 length plus one (u32), the bytes and a NUL. The last internal
//! resource is the main one. Flags (Godot 4): 1 named scene ids, 2 uids, 4 `real_t` is double,
//! 8 script class. Format 4 is Godot 4.0–4.1, 5 (script class) 4.2, 6 (PackedVector4Array)
//! 4.3 and later; Godot 3 writes 3.
//!
//! A compressed file is `RSCC` followed by the rest of a `FileAccessCompressed` file (mode,
//! block size, size, block table, blocks; [`container`](crate::container) reads and writes
//! them), whose content is the file above from the byte after `RSRC`.
//!
//! # Conversion
//!
//! [`binary_to_text`] and [`text_to_binary`] (and [`ResourceFile::to_text`],
//! [`ResourceFile::to_binary`]) convert one form to the other as the engine's savers write a
//! resource loaded from the other form. Both forms read into the one [`ResourceFile`]; what differs between them for the same
//! resource is handled here and only here:
//!
//! - **External ids.** A binary file refers to its external resources by their index in its
//!   table and stores no id; the model numbers them `1`, `2`, … in table order. Godot 4's
//!   text saver names each `N_xxxxx` (`N` its place in the file, 1 first, then five random
//!   letters and digits of `Resource::generate_scene_unique_id`):
//!   [`ResourceFile::with_text_ids`] gives the same shape with the five characters derived from the path, so a conversion
//!   is deterministic (the engine's are random: the one byte-level difference from its own
//!   conversion). Godot 3 numbers them `1`, `2`, … in both forms: kept.
//! - **Internal ids.** Godot 4's binary saver stores each sub-resource's scene-unique id
//!   (`local://Gradient_x7k2p`, header flag 1) and its text saver keeps a loaded one: kept.
//!   An empty or repeated one is replaced by `Class_xxxxx`, as the saver does. Godot 3's are
//!   integers in both forms (`local://3`, `id=3`): kept; a Godot 3 binary file needs them to
//!   be integers, which [`write_binary`] checks.
//! - **A null `script`.** Godot 4's binary saver stores every resource's `script`, null
//!   ones too (after the class's properties, before the metadata); the text saver leaves
//!   out a null Object property, which `script` always is. Binary to text leaves a null
//!   `script` out; text to binary (Godot 4) adds `script = null` where it is missing.
//!   Godot 3's binary saver stores no null `script`.
//! - **Other null object properties.** The text saver leaves out a resource's Object-typed
//!   property holding null (`resource_format_text.cpp`: `pi.type == OBJECT &&
//!   value.is_zero()`, unless `PROPERTY_USAGE_STORE_IF_NULL`); the binary saver stores it as
//!   a plain null, the same as an untyped property holding null, which the text saver
//!   writes (`x = null`) and which loads its default when left out. The file does not tell
//!   the two apart, so binary to text writes every null (`child = null`): the same value
//!   loads, and the text has that line more than the engine's conversion.
//! - **`load_steps`**: not in the model; [`write_text`] counts it (external and
//!   sub-resources plus the main resource, written when above 1).
//! - **Scenes**: the binary form stores a scene as its `PackedScene`'s `_bundled` Dictionary,
//!   which [`read_binary`] reads into [`Scene`] and [`write_binary`] builds
//!   back; the text form writes the same nodes and connections as sections.
//! - **Typed containers**: a binary file does not store an Array's or a Dictionary's element
//!   types (`resource_format_binary.cpp` writes the count and the elements); text does
//!   (`Array[int]([1, 2])`). Binary to text writes plain `[1, 2]`: the engine types the
//!   value when it sets it on a typed property, as it does loading the binary file, so the
//!   loaded resource is the same, while the engine's own conversion writes the type it then
//!   knows. Text to binary drops the types, as the engine's binary saver does.

mod binary;
mod binary_scene;
mod binary_variant;
mod binary_writer;
mod convert;
mod model;
mod text;
mod text_edit;
mod text_scan;
mod text_write;

pub use binary::{
    BinaryInfo, BinaryOptions, MAX_FORMAT_VERSION, read_binary, read_binary_with_info, uid_id,
    uid_text, write_binary,
};

pub use convert::{binary_to_text, text_to_binary};

pub use model::{
    Connection, ExtResource, Reference, ResourceFile, ResourceFormat, Scene, SceneNode,
    SubResource, ext_ref, reference, sub_ref,
};
pub use text::{Target, TextResource, default_limits};
pub use text_write::write_text;
