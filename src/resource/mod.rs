//! Godot's resource files (feature `resource`): scenes and resources as the engine saves them,
//! as text (`.tscn`, `.tres`: `format=2` of Godot 3, `format=3` of Godot 4) and as binary
//! (`.scn`, `.res`: `RSRC`), read into one model, [`ResourceFile`], that both forms share.
//!
//! A property's value is a [`Variant`]; a reference to another resource of the file is the
//! text form's `ExtResource(id)` / `SubResource(id)`: an [`Object`](crate::Object) of class
//! `ExtResource` / `SubResource` whose one property `id` holds the id (a `String` in Godot 4,
//! an `Int` in Godot 3), as the [`text`](crate::text) module reads them. [`ext_ref`] and
//! [`sub_ref`] make one; [`reference`] tells one apart.

mod binary;
mod binary_scene;
mod binary_variant;
mod model;

pub use binary::{
    BinaryInfo, BinaryOptions, MAX_FORMAT_VERSION, read_binary, read_binary_with_info, uid_id,
    uid_text, write_binary,
};

pub use model::{
    Connection, ExtResource, Reference, ResourceFile, ResourceFormat, Scene, SceneNode,
    SubResource, ext_ref, reference, sub_ref,
};
