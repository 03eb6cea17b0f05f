//! Whether the wire keeps a [`Variant`] as it is, decided from the Variant alone where that is
//! certain: [`Config::from_variant`](crate::Config::from_variant)'s way around encoding and
//! decoding the common values.
//!
//! `from_variant(v)` reads `T` from `v` in place when `to_bytes(v)` succeeds and its bytes
//! decode back to `v` ([`same`](super::same)); otherwise from the bytes. Encoding `v`,
//! decoding the bytes into a second tree and comparing the two costs about three times the
//! in-place read itself, so [`kept_as_is`] first walks `v` once, with no allocation, and
//! answers `true` only where every part is one whose encode → decode is the identity for the
//! config; anything it is not sure of (text with a NUL or a leading BOM, a plain Array that
//! inference would type, a Godot 3 RID with an id, object id 0, math types whose width the
//! wire changes, a type the target lacks, typing the target does not write or the object
//! policy rewrites, full objects, the depth limit, ...) answers `false`, and the bytes decide
//! as before. It never gives a value or an error of its own: a `true` is a promise that the
//! bytes path would have said the same, which `tests/suite/value_contract.rs` checks against that
//! path on random Variants and on every rule below.

use super::{Array, ContainerType, Dictionary, Variant};
use crate::config::Config;
use crate::types::{Real, is_reserved_key};
use crate::wire::depth::{Depth, grow};
use crate::wire::{VariantType, has_nul, string};

/// Whether `to_bytes(v)` with `config` succeeds and its bytes decode (objects allowed) to a
/// Variant [`same`](super::same) as `v`, when that is certain from `v` alone; `false` when it
/// is not known (the bytes decide).
pub(crate) fn kept_as_is(v: &Variant, config: &Config) -> bool {
    Walk::new(config).value(v, Depth::new(config.max_depth))
}

/// The config's rules that decide whether a part is kept.
struct Walk {
    config: Config,
    /// Float math components (`Real`) come back as they are: the wire's width is `Real`'s, or
    /// wider (an f32 `Real` written as f64 and narrowed back exactly).
    reals_kept: bool,
    /// Plain Arrays may come back typed (typed-container inference on a 4.3+ target).
    infers: bool,
}

impl Walk {
    fn new(config: &Config) -> Self {
        let version = config.version;
        let wide_real = core::mem::size_of::<Real>() == 8;
        let reals_kept = if config.double_precision {
            // Godot 3 has no f64 components: encoding fails.
            version.has_64bit_reals()
        } else {
            // f64 `Real`s would be rounded to f32.
            !wide_real
        };
        Walk {
            config: *config,
            reals_kept,
            infers: config.typed_containers && version.has_typed_arrays(),
        }
    }

    /// Whether the target has type `ty` (else encoding fails).
    fn has(&self, ty: VariantType) -> bool {
        ty.id(self.config.version).is_some()
    }

    /// `v`, a value at `depth`.
    fn value(&self, v: &Variant, depth: Depth) -> bool {
        use Variant as V;
        match v {
            // Ints go out as i32 or i64, floats as f32 only when exact: both come back.
            V::Nil | V::Bool(_) | V::Int(_) | V::Float(_) => true,
            V::String(s) => text_kept(s),
            // Components are written as they are, but `Real`s of another width than the
            // wire's (the type table says which types have them).
            V::Vector2(_)
            | V::Vector2i(_)
            | V::Rect2(_)
            | V::Rect2i(_)
            | V::Vector3(_)
            | V::Vector3i(_)
            | V::Transform2D(_)
            | V::Vector4(_)
            | V::Vector4i(_)
            | V::Plane(_)
            | V::Quaternion(_)
            | V::Aabb(_)
            | V::Basis(_)
            | V::Transform3D(_)
            | V::Projection(_)
            | V::Color(_)
            | V::Callable(_) => self.numbers(v.variant_type()),
            V::StringName(s) => self.has(VariantType::StringName) && text_kept(&s.0),
            // Godot 3 writes no id: it reads back as 0.
            V::Rid(r) => self.config.version.has_rid_payload() || r.0 == 0,
            V::PackedByteArray(a) => self.packed(v, a.0.len()),
            V::PackedInt32Array(a) => self.packed(v, a.0.len()),
            V::PackedInt64Array(a) => self.packed(v, a.0.len()),
            V::PackedFloat32Array(a) => self.packed(v, a.0.len()),
            V::PackedFloat64Array(a) => self.packed(v, a.0.len()),
            V::PackedVector2Array(a) => self.packed(v, a.0.len()),
            V::PackedVector3Array(a) => self.packed(v, a.0.len()),
            V::PackedVector4Array(a) => self.packed(v, a.0.len()),
            V::PackedColorArray(a) => self.packed(v, a.0.len()),
            V::PackedStringArray(a) => {
                count_kept(a.0.len())
                    && a.0.iter().all(|s| {
                        text_kept(s)
                            && string::len_word(string::packed_element_len(s.len())).is_some()
                    })
            }
            // Id 0 is the null object: it reads back as nil.
            V::ObjectId(id) => id.0 != 0,
            V::NodePath(p) => {
                count_kept(p.names.len())
                    && count_kept(p.subnames.len())
                    && p.names.iter().chain(&p.subnames).all(|s| text_kept(s))
            }
            V::Signal(s) => self.has(VariantType::Signal) && text_kept(&s.name),
            V::Array(a) => {
                let mut items = depth;
                items.try_enter() && grow(|| self.array(a, items))
            }
            V::Dictionary(d) => {
                let mut entries = depth;
                entries.try_enter() && grow(|| self.dictionary(d, entries))
            }
            // Not decided here: full objects (the object policy, the null forms, property
            // names).
            _ => false,
        }
    }

    /// A container's element, key or value type comes back as it is: untyped, or (where the
    /// target writes typed headers for that container, `headers`: 4.3+, which has every type)
    /// a builtin type, but NIL (untyped on the wire) and OBJECT (which the object policy
    /// rewrites). Class and script types are the object policy's: not decided here.
    fn container_type(&self, t: &ContainerType, headers: bool) -> bool {
        match t {
            ContainerType::Untyped => true,
            ContainerType::Builtin(ty) => {
                headers && !matches!(ty, VariantType::Nil | VariantType::Object)
            }
            ContainerType::ClassName(_) | ContainerType::Script(_) => false,
        }
    }

    /// A value of type `ty` made of numbers (a math type, Color; Callable has none): the
    /// target has the type, and its `Real` components, if any, come back as they are.
    fn numbers(&self, ty: VariantType) -> bool {
        self.has(ty) && (self.reals_kept || !ty.has_real_components())
    }

    /// A numeric packed array of `len` elements ([`numbers`](Self::numbers)).
    fn packed(&self, v: &Variant, len: usize) -> bool {
        self.numbers(v.variant_type()) && count_kept(len)
    }

    /// An Array's items, at `depth`: of an element type the target keeps; when untyped, not
    /// typed by inference (which leaves typed ones as they are).
    fn array(&self, a: &Array, depth: Depth) -> bool {
        let version = self.config.version;
        self.container_type(&a.element_type, version.has_typed_arrays())
            && (a.element_type != ContainerType::Untyped || !self.infers)
            && count_kept(a.items.len())
            && a.items.iter().all(|item| self.value(item, depth))
    }

    /// A Dictionary's entries, at `depth`: of key and value types the target keeps, in an
    /// order the config keeps, with keys the decoder takes. Its keys are distinct, so keys
    /// that each come back make the decoded Dictionary hold every entry in its place.
    fn dictionary(&self, d: &Dictionary, depth: Depth) -> bool {
        let headers = self.config.version.has_typed_dictionaries();
        self.container_type(d.key_type(), headers)
            && self.container_type(d.value_type(), headers)
            && (!self.config.sorted_maps || d.len() <= 1)
            && count_kept(d.len())
            && d.as_slice()
                .iter()
                .all(|(k, v)| key_kept(k) && self.value(k, depth) && self.value(v, depth))
    }
}

/// A String field's text comes back as it is: no NUL (the encoder refuses it), no leading
/// BOM (the decoder drops it), a length Godot can read.
fn text_kept(s: &str) -> bool {
    !s.starts_with('\u{FEFF}') && !has_nul(s.as_bytes()) && string::len_word(s.len()).is_some()
}

/// A count the wire can carry (`i32`).
fn count_kept(len: usize) -> bool {
    string::len_word(len).is_some()
}

/// A Dictionary key the decoder takes: String and StringName keys may not be reserved marker
/// names.
fn key_kept(k: &Variant) -> bool {
    match k {
        Variant::String(s) => !is_reserved_key(s),
        Variant::StringName(s) => !is_reserved_key(&s.0),
        _ => true,
    }
}
