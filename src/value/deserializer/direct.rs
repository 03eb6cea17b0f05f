//! When the direct path is exact: the checks that presenting a Variant directly gives what decoding
//! its bytes gives.

use super::super::{ContainerType, Variant};
use crate::config::{Config, GodotVersion};
use crate::wire::VariantType;

/// Whether presenting `v` directly gives exactly what decoding `config.to_bytes(v)` gives
/// (with objects allowed), read with [`infers`]: a layout that has every type and
/// descriptor in `v` (in Godot 3, one that decodes them unchanged and without double
/// precision), no text that the wire refuses (a NUL) or changes (a leading BOM, unless
/// `bom_ok`: the reader drops it as decoding does, except in Object names and inside keys
/// that are not text, and a text key that would become a reserved name), and a nesting well
/// within the depth limit. Anything else
/// takes the bytes. A reserved marker key is refused on the direct path wherever a map is
/// read (see the module docs).
pub(crate) fn direct_ok(v: &Variant, config: &Config, bom_ok: bool) -> bool {
    direct_with(v, config, bom_ok, false)
}

/// [`direct_ok`] for a Variant whose Objects, RIDs, object ids and NodePaths came from
/// decoding with `config` already (`settled`), as the Variant serializer builds them:
/// encoding and decoding them again changes nothing.
pub(crate) fn direct_with(v: &Variant, config: &Config, bom_ok: bool, settled: bool) -> bool {
    let version = config.version();
    // Godot 3 has no double-precision math types: the encoder refuses them.
    if !version.is_godot4() && config.double_precision() {
        return false;
    }
    let rules = Rules {
        version,
        bom_ok,
        settled,
    };
    plain(v, rules, config.max_depth() / 2)
}

/// Whether the encoder of `config` types a plain Array whose elements share one type
/// (typed-container inference): the direct reader then presents such an Array as typed
/// (see [`VariantDe::inferring`](super::VariantDe::inferring)).
pub(crate) fn infers(config: &Config) -> bool {
    config.typed_containers() && config.version().has_typed_arrays()
}

/// What the wire of one config keeps as it is.
#[derive(Clone, Copy)]
struct Rules {
    version: GodotVersion,
    /// A leading BOM in text is fine: the reader drops it, as decoding does
    /// ([`WireBorrowed`](super::WireBorrowed)); in a text key too, unless it would become a
    /// reserved name there. Inside a key that is not text it stays out.
    bom_ok: bool,
    /// See [`direct_with`].
    settled: bool,
}

/// Whether the encoder's typed-container inference would type this untyped Array: every
/// element has the same type, one that a typed Array can hold (not nil or a container).
pub(crate) fn inferred(items: &[Variant]) -> bool {
    let Some(first) = items.first() else {
        return false;
    };
    let ty = first.variant_type();
    !matches!(
        ty,
        VariantType::Nil | VariantType::Array | VariantType::Dictionary | VariantType::Object
    ) && items.iter().all(|x| x.variant_type() == ty)
}

/// A type that Godot 3 decodes as it was: any type it has (object ids and full objects take
/// the same form in both engines; a RID loses its id there, which the direct reader gives as
/// decoding does, see [`VariantDe::for_version`](super::VariantDe::for_version)).
fn godot3_same(v: &Variant) -> bool {
    v.variant_type().id(GodotVersion::V3).is_some()
}

fn text_ok(s: &str) -> bool {
    !s.as_bytes().contains(&0) && !s.starts_with('\u{FEFF}')
}

fn descriptor_ok(t: &ContainerType) -> bool {
    match t {
        ContainerType::Untyped => true,
        ContainerType::Builtin(ty) => *ty != VariantType::Nil && *ty != VariantType::Object,
        ContainerType::ClassName(_) | ContainerType::Script(_) => false,
    }
}

/// Whether dropping the leading BOM of one of this Dictionary's text keys, as decoding does,
/// makes it a reserved marker name, which decoding refuses: such a Dictionary takes the bytes.
/// (Keys that dropping it makes equal need nothing: the entries are presented in order, as
/// decoding presents them, and the visitor merges them as it merges the decoded ones.)
fn bom_key_reserved(d: &super::super::Dictionary) -> bool {
    d.iter().any(|(k, _)| {
        let text = match k {
            Variant::String(s) => s.as_str(),
            Variant::StringName(crate::types::StringName(s)) => s.as_str(),
            _ => return false,
        };
        text.strip_prefix('\u{FEFF}')
            .is_some_and(crate::types::is_reserved_key)
    })
}

fn plain(v: &Variant, rules: Rules, depth: usize) -> bool {
    let version = rules.version;
    let text_ok = |s: &str| text_ok(s) || rules.bom_ok && !s.as_bytes().contains(&0);
    if rules.settled
        && matches!(
            v,
            Variant::Rid(_) | Variant::ObjectId(_) | Variant::Object(_) | Variant::NodePath(_)
        )
    {
        return true;
    }
    if !version.is_godot4() && !godot3_same(v) {
        return false;
    }
    match v {
        Variant::String(s) => text_ok(s),
        Variant::StringName(crate::types::StringName(s)) => text_ok(s),
        Variant::NodePath(p) => p.names.iter().chain(&p.subnames).all(|s| text_ok(s)),
        Variant::Signal(s) => text_ok(&s.name),
        Variant::PackedStringArray(p) => p.0.iter().all(|s| text_ok(s)),
        Variant::PackedVector4Array(_) => version.has_typed_arrays(),
        Variant::Object(o) => {
            depth > 0
                // The class and property names are not read through the BOM-dropping lend.
                && self::text_ok(&o.class)
                && o.properties
                    .iter()
                    .all(|(k, x)| self::text_ok(k) && plain(x, rules, depth - 1))
        }
        Variant::Array(a) => {
            depth > 0
                && (a.element_type == ContainerType::Untyped
                    || a.element_type != ContainerType::Untyped
                        && version.has_typed_arrays()
                        && descriptor_ok(&a.element_type))
                && a.items.iter().all(|x| plain(x, rules, depth - 1))
        }
        Variant::Dictionary(d) => {
            depth > 0
                && (!d.is_typed()
                    || version.has_typed_dictionaries()
                        && descriptor_ok(d.key_type())
                        && descriptor_ok(d.value_type()))
                && d.iter().all(|(k, x)| {
                    let key_rules = Rules {
                        // A text key is read through the BOM-dropping lend too, unless it
                        // becomes a reserved name (see `bom_key_reserved`); inside other keys
                        // a BOM stays out.
                        bom_ok: rules.bom_ok
                            && matches!(k, Variant::String(_) | Variant::StringName(_)),
                        ..rules
                    };
                    plain(k, key_rules, depth - 1) && plain(x, rules, depth - 1)
                })
                && !(rules.bom_ok && bom_key_reserved(d))
        }
        _ => true,
    }
}
