//! GDScript from the Rust tables: the script a Godot project puts on the node, so that the
//! method names (and, in Godot 4, their ids and the checksum), the modes, transfer modes and
//! channels match the Rust side by construction.
//!
//! - Godot 4, typed: from an [`RpcSet`](crate::typed::RpcSet) ([`Stubs::typed4`]), per method
//!   a typed `@rpc` function, a typed signal `<method>_received(sender: int, ...)`, an
//!   overridable `_on_<method>` and a typed sender `rpc_<method>(peer, ...)`: client code
//!   never matches method names. Parameter types come from [`GodotTypeName`].
//! - Godot 3.2, typed: from the same set ([`Stubs::typed3`]), the same members with the
//!   set's Godot 3 keywords (`remote`, `puppet`, ...), typed parameters and signals with
//!   argument names.
//! - Godot 4: from an [`RpcTable`], one `@rpc(mode, sync, transfer, channel) func` per method.
//! - Godot 3: from a [`NodeTable`], one `remote`/`master`/`puppet`/`*sync` `func` per method
//!   and one `remote`/... `var` (with a setter) per `rset` target.
//!
//! Argument names and types come from a serde type where one is given ([`Signature::of`] on a
//! sample value: a struct gives its field names, a tuple `arg0`, `arg1`, ...; each value's
//! Godot type becomes the parameter's type hint, nil stays untyped), else the stubs take
//! untyped `args` of the given count. Every stub forwards the call to one signal,
//! `rpc_received(method, sender, args)` (and Godot 3's setters to
//! `rset_received(property, sender, value)`), which the game connects to.
//!
//! ```
//! use godot_serde_multiplayer::gdscript::{Signature, Stubs};
//! use godot_serde_multiplayer::{RpcMethod, RpcTable};
//! #[derive(serde::Serialize)]
//! struct Chat { text: String, volume: i64 }
//! let table = RpcTable::new("/root/Lobby").with(RpcMethod::any_peer("chat"));
//! let script = Stubs::new()
//!     .signature("chat", Signature::of(&Chat { text: String::new(), volume: 0 }).unwrap())
//!     .godot4(&table)
//!     .unwrap();
//! assert!(script.contains("@rpc(\"any_peer\", \"call_remote\", \"reliable\", 0)\nfunc chat(text: String, volume: int) -> void:\n"));
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use godot_serde::{Config, GodotVersion, Variant, VariantType};
use serde::Serialize;

use crate::godot3::{NodeTable, RemoteMode};
use crate::{ProtocolError, RpcMode, RpcTable, TransferMode};

/// One parameter: a name and, where known, its Godot type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// The GDScript name.
    pub name: String,
    /// The type hint; `None` for untyped.
    pub ty: Option<VariantType>,
}

/// The parameters of one method.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signature(pub Vec<Param>);

impl Signature {
    /// `count` untyped parameters `arg0`, `arg1`, ...
    pub fn untyped(count: usize) -> Self {
        Self(
            (0..count)
                .map(|i| Param {
                    name: format!("arg{i}"),
                    ty: None,
                })
                .collect(),
        )
    }

    /// Untyped parameters with these names.
    pub fn named(names: &[&str]) -> Self {
        Self(
            names
                .iter()
                .map(|n| Param {
                    name: (*n).to_owned(),
                    ty: None,
                })
                .collect(),
        )
    }

    /// The parameters of the arguments `sample` stands for, as the session sends them: a
    /// struct gives its fields (names and types) in order, a tuple or sequence `arg0`, ...,
    /// `()` none, any other value one parameter `arg0`. A nil value (`None`, `()`) is untyped.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Encode`] when the sample has no Variant form.
    pub fn of<T: ?Sized + Serialize>(sample: &T) -> Result<Self, ProtocolError> {
        let value = Config::godot4()
            .to_variant(sample)
            .map_err(|e| ProtocolError::Encode(e.to_string()))?;
        let param = |name: String, v: &Variant| Param {
            name,
            ty: match v.variant_type() {
                VariantType::Nil | VariantType::Object => None,
                t => Some(t),
            },
        };
        Ok(Self(match &value {
            Variant::Nil => Vec::new(),
            Variant::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| param(format!("arg{i}"), v))
                .collect(),
            Variant::Dictionary(fields) => fields
                .iter()
                .enumerate()
                .map(|(i, (k, v))| match k {
                    Variant::String(s) if is_identifier(s) => param(s.to_string(), v),
                    _ => param(format!("arg{i}"), v),
                })
                .collect(),
            other => vec![param("arg0".into(), other)],
        }))
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The script generator: the base class, and the signatures of the methods and the types of
/// the properties that are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stubs {
    extends: String,
    signatures: BTreeMap<String, Signature>,
    properties: BTreeMap<String, Option<VariantType>>,
}

impl Default for Stubs {
    fn default() -> Self {
        Self::new()
    }
}

impl Stubs {
    /// A generator for scripts that extend `Node`, every method untyped with one parameter
    /// list `args` unless a signature is given.
    pub fn new() -> Self {
        Self {
            extends: "Node".into(),
            signatures: BTreeMap::new(),
            properties: BTreeMap::new(),
        }
    }

    /// The class the script extends (`Node2D`, `"res://base.gd"`, ...).
    #[must_use]
    pub fn extends(mut self, class: impl Into<String>) -> Self {
        self.extends = class.into();
        self
    }

    /// A method's parameters.
    #[must_use]
    pub fn signature(mut self, method: impl Into<String>, signature: Signature) -> Self {
        self.signatures.insert(method.into(), signature);
        self
    }

    /// A Godot 3 property's type, from a sample value (nil: untyped).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Encode`] when the sample has no Variant form.
    pub fn property_type<T: ?Sized + Serialize>(
        mut self,
        property: impl Into<String>,
        sample: &T,
    ) -> Result<Self, ProtocolError> {
        let value = Config::godot3()
            .to_variant(sample)
            .map_err(|e| ProtocolError::Encode(e.to_string()))?;
        let ty = match value.variant_type() {
            VariantType::Nil | VariantType::Object => None,
            t => Some(t),
        };
        self.properties.insert(property.into(), ty);
        Ok(self)
    }

    fn params(
        &self,
        method: &str,
        version: GodotVersion,
    ) -> Result<(String, String), ProtocolError> {
        let Some(sig) = self.signatures.get(method) else {
            return Ok(("args = []".into(), "args".into()));
        };
        let mut decl = Vec::new();
        let mut names = Vec::new();
        for p in &sig.0 {
            if !is_identifier(&p.name) {
                return Err(ProtocolError::Encode(format!(
                    "parameter {:?} of {method:?} is not a GDScript identifier",
                    p.name
                )));
            }
            match p.ty {
                Some(t) => {
                    let name = type_name(t, version).ok_or_else(|| {
                        ProtocolError::Encode(format!(
                            "parameter {:?} of {method:?}: {} has no Godot 3 type",
                            p.name,
                            t.name()
                        ))
                    })?;
                    decl.push(format!("{}: {name}", p.name));
                }
                None => decl.push(p.name.clone()),
            }
            names.push(p.name.clone());
        }
        Ok((decl.join(", "), format!("[{}]", names.join(", "))))
    }

    fn header(&self, out: &mut String, path: &str, engine: &str) {
        let _ = writeln!(out, "extends {}", self.extends);
        let _ = writeln!(
            out,
            "# Generated by godot-serde-multiplayer from the Rust table of node \"{path}\" ({engine}).\n\
             # Regenerate it instead of editing it: the names and modes must match the Rust side."
        );
    }

    /// The Godot 4 script for `table`: `@rpc` stubs forwarding to `rpc_received`.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Encode`] for a method name or parameter that is not a GDScript
    /// identifier, or a `Disabled` method (it has no `@rpc` form).
    pub fn godot4(&self, table: &RpcTable) -> Result<String, ProtocolError> {
        let mut out = String::new();
        self.header(&mut out, table.path(), "Godot 4");
        out.push_str("\nsignal rpc_received(method: StringName, sender: int, args: Array)\n");
        for m in table.methods() {
            check_name(&m.name)?;
            let annotation = rpc_annotation(m)?;
            let (decl, list) = self.params(&m.name, GodotVersion::V4_5)?;
            let _ = write!(
                out,
                "\n{annotation}\nfunc {}({decl}) -> void:\n\
                 \trpc_received.emit(&\"{}\", multiplayer.get_remote_sender_id(), {list})\n",
                m.name, m.name
            );
        }
        Ok(out)
    }

    /// The typed Godot 4 script for the RPC set `R` (see [`typed`](crate::typed)): per
    /// method, a typed `@rpc` function with the set's options, a typed signal
    /// `<method>_received(sender: int, ...)` it emits, an overridable `_on_<method>(sender,
    /// ...)` it calls first (for a script that extends this one), and a typed sender
    /// `rpc_<method>(peer: int, ...) -> Error` (`rpc_id`; peer 0: everyone). Client code
    /// connects to or overrides one typed member per call and never matches method names.
    ///
    /// ```
    /// # #[cfg(feature = "derive")] {
    /// use godot_serde_multiplayer::Rpcs;
    /// use godot_serde_multiplayer::gdscript::Stubs;
    /// #[derive(serde::Serialize, serde::Deserialize, Rpcs)]
    /// #[serde(rename_all = "snake_case")]
    /// #[rpcs(node = "Lobby")]
    /// enum LobbyRpc {
    ///     #[rpc(any_peer, call_local, channel = 1)]
    ///     Hello { name: String },
    /// }
    /// let script = Stubs::new().typed4::<LobbyRpc>().unwrap();
    /// assert!(script.contains("signal hello_received(sender: int, name: String)\n"));
    /// assert!(script.contains(
    ///     "@rpc(\"any_peer\", \"call_local\", \"reliable\", 1)\nfunc hello(name: String) -> void:\n"
    /// ));
    /// assert!(script.contains("func rpc_hello(peer: int, name: String) -> Error:\n"));
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Encode`] for a method or parameter name that is not a GDScript
    /// identifier, two methods whose members would clash (`go` and `rpc_go`: `go`'s sender
    /// is named `rpc_go`), or a `Disabled` method.
    pub fn typed4<R: crate::typed::RpcSet>(&self) -> Result<String, ProtocolError> {
        let table = R::table();
        let specs = checked_specs::<R>()?;
        let mut out = String::new();
        let _ = writeln!(out, "extends {}", self.extends);
        let _ = writeln!(
            out,
            "# Generated by godot-serde-multiplayer from the Rust RPC set of node \"{}\" (Godot 4).\n\
             # Regenerate it instead of editing it: the names, modes and types must match the Rust side.\n\
             # Per method: the typed @rpc function, the signal <method>_received(sender, ...) it\n\
             # emits, _on_<method>(sender, ...) to override, rpc_<method>(peer, ...) to call it.",
            table.path()
        );
        for spec in &specs {
            let m = &spec.method;
            let decl: Vec<String> = spec.params.iter().map(TypedParam::declaration).collect();
            // A typed Array parameter of an @rpc function refuses an untyped Array (the
            // engine: "Cannot convert argument 1 from Array to Array"), and a Rust `Vec` is
            // typed on the wire only when every element is of one type: empty, it is not. The
            // @rpc function takes a plain Array and builds the typed one.
            let mut wire_decl = Vec::new();
            let mut convert = String::new();
            for p in &spec.params {
                match p.ty.as_deref().and_then(typed_array_element) {
                    Some(id) => {
                        wire_decl.push(format!("{}_wire: Array", p.name));
                        let _ = writeln!(
                            convert,
                            "\tvar {name}: {ty} = Array({name}_wire, {id}, &\"\", null)",
                            name = p.name,
                            ty = p.ty.as_deref().unwrap_or("Array"),
                        );
                    }
                    None => wire_decl.push(p.declaration()),
                }
            }
            let names: Vec<&str> = spec.params.iter().map(|p| p.name.as_str()).collect();
            let with = |first: &str| {
                std::iter::once(first.to_owned())
                    .chain(decl.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let unused: Vec<String> = std::iter::once("_sender: int".to_owned())
                .chain(spec.params.iter().map(|p| {
                    let mut p = p.clone();
                    p.name = format!("_{}", p.name);
                    p.declaration()
                }))
                .collect();
            let call_args = std::iter::once("sender")
                .chain(names.iter().copied())
                .collect::<Vec<_>>()
                .join(", ");
            let quoted = format!("&\"{}\"", m.name);
            let rpc_all = std::iter::once(quoted.as_str())
                .chain(names.iter().copied())
                .collect::<Vec<_>>()
                .join(", ");
            let rpc_args = ["peer", quoted.as_str()]
                .into_iter()
                .chain(names.iter().copied())
                .collect::<Vec<_>>()
                .join(", ");
            let _ = write!(
                out,
                "\nsignal {name}_received({signal})\n\
                 \n{annotation}\nfunc {name}({wire_decl}) -> void:\n\
                 {convert}\
                 \tvar sender := multiplayer.get_remote_sender_id()\n\
                 \t_on_{name}({call_args})\n\
                 \t{name}_received.emit({call_args})\n\
                 \n## Called on each {name} received (before the signal): override it in a script that extends this one.\n\
                 func _on_{name}({unused}) -> void:\n\tpass\n\
                 \n## Calls {name} on `peer` (0: everyone).\n\
                 func rpc_{name}({sender}) -> Error:\n\
                 \tif peer == 0:\n\t\treturn rpc({rpc_all})\n\
                 \treturn rpc_id({rpc_args})\n",
                name = m.name,
                signal = with("sender: int"),
                annotation = rpc_annotation(m)?,
                wire_decl = wire_decl.join(", "),
                unused = unused.join(", "),
                sender = with("peer: int"),
            );
        }
        Ok(out)
    }

    /// The typed Godot 3.2 script for the RPC set `R`, the Godot 3 counterpart of
    /// [`typed4`](Self::typed4): per method (by name), a typed `remote`/`master`/`puppet`/
    /// `*sync` function (the keyword of [`RpcSet::node_table`](crate::typed::RpcSet::node_table)),
    /// a signal `<method>_received(sender, ...)` with the argument names (Godot 3 signals
    /// have no types), an overridable `_on_<method>(sender: int, ...)` called first, and a
    /// sender `rpc_<method>(peer: int, ...)` (`rpc_id`, or `rpc_unreliable_id` for a method
    /// declared `unreliable` or `unreliable_ordered`; peer 0: everyone). Godot 3 has no
    /// typed arrays (`Vec<T>` is `Array`) and spells some types its own way (`Quat`,
    /// `Transform`, `PoolByteArray`, ...); channels do not exist there.
    ///
    /// ```
    /// # #[cfg(feature = "derive")] {
    /// use godot_serde_multiplayer::Rpcs;
    /// use godot_serde_multiplayer::gdscript::Stubs;
    /// #[derive(serde::Serialize, serde::Deserialize, Rpcs)]
    /// #[serde(rename_all = "snake_case")]
    /// #[rpcs(node = "Lobby")]
    /// enum LobbyRpc {
    ///     #[rpc(any_peer)]
    ///     Chat { text: String },
    /// }
    /// let script = Stubs::new().typed3::<LobbyRpc>().unwrap();
    /// assert!(script.contains("signal chat_received(sender, text)\n"));
    /// assert!(script.contains("remote func chat(text: String) -> void:\n"));
    /// assert!(script.contains("func rpc_chat(peer: int, text: String) -> void:\n"));
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`typed4`](Self::typed4), and for a parameter type Godot 3 does not have
    /// (`Vector2i`, `StringName`, `PackedInt64Array`, ...).
    pub fn typed3<R: crate::typed::RpcSet>(&self) -> Result<String, ProtocolError> {
        let specs = checked_specs::<R>()?;
        let keywords: BTreeMap<String, RemoteMode> = R::node_table()
            .methods()
            .map(|(name, mode)| (name.to_owned(), mode))
            .collect();
        let mut out = String::new();
        let _ = writeln!(out, "extends {}", self.extends);
        let _ = writeln!(
            out,
            "# Generated by godot-serde-multiplayer from the Rust RPC set of node \"{}\" (Godot 3).\n\
             # Regenerate it instead of editing it: the names, modes and types must match the Rust side.\n\
             # Per method: the typed remote function, the signal <method>_received(sender, ...) it\n\
             # emits, _on_<method>(sender, ...) to override, rpc_<method>(peer, ...) to call it.",
            crate::rpc::relative_path(R::NODE)
        );
        for spec in &specs {
            let m = &spec.method;
            let mode = keywords
                .get(&m.name)
                .copied()
                .unwrap_or(RemoteMode::Disabled);
            let keyword = keyword(&m.name, mode)?;
            let mut decl = Vec::new();
            for p in &spec.params {
                decl.push(match &p.ty {
                    Some(ty) => format!("{}: {}", p.name, godot3_type(ty, &m.name, &p.name)?),
                    None => p.name.clone(),
                });
            }
            let names: Vec<&str> = spec.params.iter().map(|p| p.name.as_str()).collect();
            let list = |first: &str, rest: &[String]| {
                std::iter::once(first.to_owned())
                    .chain(rest.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let plain: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
            let unused: Vec<String> = decl.iter().map(|d| format!("_{d}")).collect();
            let quoted = format!("\"{}\"", m.name);
            let (all, one) = match m.transfer_mode {
                TransferMode::Reliable => ("rpc", "rpc_id"),
                _ => ("rpc_unreliable", "rpc_unreliable_id"),
            };
            let _ = write!(
                out,
                "\nsignal {name}_received({signal})\n\
                 \n{keyword} func {name}({decl}) -> void:\n\
                 \tvar sender: int = get_tree().get_rpc_sender_id()\n\
                 \t_on_{name}({call_args})\n\
                 \temit_signal({emit})\n\
                 \n# Called on each {name} received (before the signal): override it in a script that extends this one.\n\
                 func _on_{name}({unused}) -> void:\n\tpass\n\
                 \n# Calls {name} on `peer` (0: everyone).\n\
                 func rpc_{name}({sender}) -> void:\n\
                 \tif peer == 0:\n\t\t{all}({to_all})\n\
                 \telse:\n\t\t{one}({to_one})\n",
                name = m.name,
                signal = list("sender", &plain),
                decl = decl.join(", "),
                call_args = list("sender", &plain),
                emit = list(&format!("\"{}_received\", sender", m.name), &plain),
                unused = list("_sender: int", &unused),
                sender = list("peer: int", &decl),
                to_all = list(&quoted, &plain),
                to_one = list(&format!("peer, {quoted}"), &plain),
            );
        }
        Ok(out)
    }

    /// The Godot 3 script for `table`: `remote`/`master`/`puppet`/`*sync` stubs forwarding to
    /// `rpc_received`, and `rset` targets as keyword `var`s whose setter emits `rset_received`.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Encode`] for a name or parameter that is not a GDScript identifier, a
    /// type Godot 3 does not have, or a `Disabled` member.
    pub fn godot3(&self, table: &NodeTable) -> Result<String, ProtocolError> {
        let mut out = String::new();
        self.header(&mut out, table.path(), "Godot 3");
        out.push_str("\nsignal rpc_received(method, sender, args)\nsignal rset_received(property, sender, value)\n");
        for (name, mode) in table.properties() {
            check_name(name)?;
            let keyword = keyword(name, mode)?;
            let hint = match self.properties.get(name).copied().flatten() {
                Some(t) => format!(
                    ": {}",
                    type_name(t, GodotVersion::V3).ok_or_else(|| ProtocolError::Encode(
                        format!("property {name:?}: {} has no Godot 3 type", t.name())
                    ))?
                ),
                None => String::new(),
            };
            let _ = write!(
                out,
                "\n{keyword} var {name}{hint} setget _set_{name}\n\nfunc _set_{name}(value):\n\
                 \t{name} = value\n\
                 \temit_signal(\"rset_received\", \"{name}\", get_tree().get_rpc_sender_id(), value)\n"
            );
        }
        for (name, mode) in table.methods() {
            check_name(name)?;
            let keyword = keyword(name, mode)?;
            let (decl, list) = self.params(name, GodotVersion::V3)?;
            let _ = write!(
                out,
                "\n{keyword} func {name}({decl}):\n\
                 \temit_signal(\"rpc_received\", \"{name}\", get_tree().get_rpc_sender_id(), {list})\n"
            );
        }
        Ok(out)
    }
}

/// The specs of `R` sorted by name, refused when a method or parameter has no GDScript form:
/// a name that is not an identifier, a parameter named as the script's own (`sender`,
/// `peer`), or two methods whose members would clash (each makes four: `m`, `m_received`,
/// `_on_m`, `rpc_m`).
fn checked_specs<R: crate::typed::RpcSet>() -> Result<Vec<crate::typed::RpcSpec>, ProtocolError> {
    let mut specs = R::specs();
    specs.sort_by(|a, b| a.method.name.cmp(&b.method.name));
    let mut members = std::collections::BTreeSet::new();
    for spec in &specs {
        let m = &spec.method.name;
        check_name(m)?;
        for member in [
            m.clone(),
            format!("{m}_received"),
            format!("_on_{m}"),
            format!("rpc_{m}"),
        ] {
            if !members.insert(member.clone()) {
                return Err(ProtocolError::Encode(format!(
                    "two methods would make the script member {member:?}: rename one"
                )));
            }
        }
        for p in &spec.params {
            if !is_identifier(&p.name) || p.name == "sender" || p.name == "peer" {
                return Err(ProtocolError::Encode(format!(
                    "parameter {:?} of {m:?} is not a GDScript identifier, or is a name the \
                     script uses (sender, peer)",
                    p.name
                )));
            }
        }
    }
    Ok(specs)
}

/// A typed parameter's Godot 4 type as Godot 3.2 spells it: `Array[T]` is `Array` (no typed
/// arrays there), `Quaternion` is `Quat`, `PackedByteArray` is `PoolByteArray`, ...
fn godot3_type(ty: &str, method: &str, param: &str) -> Result<String, ProtocolError> {
    if ty.starts_with("Array[") {
        return Ok("Array".to_owned());
    }
    VariantType::ALL
        .iter()
        .find(|t| t.name() == ty)
        .and_then(|t| type_name(*t, GodotVersion::V3))
        .map(str::to_owned)
        .ok_or_else(|| {
            ProtocolError::Encode(format!(
                "parameter {param:?} of {method:?}: {ty} has no Godot 3 type"
            ))
        })
}

/// The Godot 4 type id of the elements of a typed Array type (`Array[String]`: 4).
fn typed_array_element(ty: &str) -> Option<u8> {
    let inner = ty.strip_prefix("Array[")?.strip_suffix(']')?;
    VariantType::ALL
        .iter()
        .find(|t| t.name() == inner)
        .and_then(|t| t.id(GodotVersion::V4_5))
}

/// `@rpc(mode, sync, transfer, channel)` for a method, every option written out.
fn rpc_annotation(m: &crate::RpcMethod) -> Result<String, ProtocolError> {
    let mode = match m.mode {
        RpcMode::AnyPeer => "any_peer",
        RpcMode::Authority => "authority",
        _ => {
            return Err(ProtocolError::Encode(format!(
                "method {:?} is disabled: it has no @rpc form",
                m.name
            )));
        }
    };
    let sync = if m.call_local {
        "call_local"
    } else {
        "call_remote"
    };
    let transfer = match m.transfer_mode {
        TransferMode::Unreliable => "unreliable",
        TransferMode::UnreliableOrdered => "unreliable_ordered",
        _ => "reliable",
    };
    Ok(format!(
        "@rpc(\"{mode}\", \"{sync}\", \"{transfer}\", {})",
        m.channel
    ))
}

fn keyword(name: &str, mode: RemoteMode) -> Result<&'static str, ProtocolError> {
    mode.keyword()
        .ok_or_else(|| ProtocolError::Encode(format!("{name:?} is disabled: it has no keyword")))
}

fn check_name(name: &str) -> Result<(), ProtocolError> {
    if is_identifier(name) {
        Ok(())
    } else {
        Err(ProtocolError::Encode(format!(
            "{name:?} is not a GDScript identifier"
        )))
    }
}

/// A type's name in a GDScript type hint (Godot 3's `float` is `real` on the wire, `float` in
/// scripts); `None` for types the engine does not have.
fn type_name(t: VariantType, version: GodotVersion) -> Option<&'static str> {
    match version {
        GodotVersion::V3 => {
            t.id(GodotVersion::V3)?;
            Some(match t {
                VariantType::Float => "float",
                other => other.name_in(GodotVersion::V3),
            })
        }
        _ => Some(t.name()),
    }
}

/// The GDScript type of a Rust value that travels as one RPC argument, for typed parameters
/// and signals: `String`, `int`, `Vector2`, `Array[int]`, ... `None` leaves the parameter
/// untyped (a [`Variant`], an `Option`, which may be null).
///
/// Implemented for the std types serde writes as one Godot value and for the root crate's
/// marker types; implement it for a type of your own with the Godot type its serde form has
/// (a struct written as a Dictionary: `Some("Dictionary".into())`).
///
/// ```
/// use godot_serde_multiplayer::gdscript::GodotTypeName;
/// assert_eq!(<Vec<i32>>::godot_type_name().as_deref(), Some("Array[int]"));
/// assert_eq!(<Vec<godot_serde::Variant>>::godot_type_name().as_deref(), Some("Array"));
/// assert_eq!(<Option<String>>::godot_type_name(), None);
/// ```
pub trait GodotTypeName {
    /// The type's GDScript name, or `None` for untyped.
    fn godot_type_name() -> Option<String>;
}

macro_rules! godot_type_names {
    ($($name:literal: $($t:ty),*;)*) => {$($(
        impl GodotTypeName for $t {
            fn godot_type_name() -> Option<String> {
                Some($name.to_owned())
            }
        }
    )*)*};
}

godot_type_names! {
    "bool": bool;
    "int": i8, i16, i32, i64, u8, u16, u32, u64, isize, usize;
    "float": f32, f64;
    "String": String, str, char, godot_serde::CompactString;
    "StringName": godot_serde::StringName;
    "NodePath": godot_serde::NodePath;
    "Vector2": godot_serde::Vector2;
    "Vector2i": godot_serde::Vector2i;
    "Rect2": godot_serde::Rect2;
    "Rect2i": godot_serde::Rect2i;
    "Vector3": godot_serde::Vector3;
    "Vector3i": godot_serde::Vector3i;
    "Transform2D": godot_serde::Transform2D;
    "Vector4": godot_serde::Vector4;
    "Vector4i": godot_serde::Vector4i;
    "Plane": godot_serde::Plane;
    "Quaternion": godot_serde::Quaternion;
    "AABB": godot_serde::Aabb;
    "Basis": godot_serde::Basis;
    "Transform3D": godot_serde::Transform3D;
    "Projection": godot_serde::Projection;
    "Color": godot_serde::Color;
    "RID": godot_serde::Rid;
    "Callable": godot_serde::Callable;
    "Signal": godot_serde::Signal;
    "Dictionary": godot_serde::Dictionary;
    "Array": godot_serde::Array;
    "PackedByteArray": godot_serde::PackedByteArray;
    "PackedInt32Array": godot_serde::PackedInt32Array;
    "PackedInt64Array": godot_serde::PackedInt64Array;
    "PackedFloat32Array": godot_serde::PackedFloat32Array;
    "PackedFloat64Array": godot_serde::PackedFloat64Array;
    "PackedStringArray": godot_serde::PackedStringArray;
    "PackedVector2Array": godot_serde::PackedVector2Array;
    "PackedVector3Array": godot_serde::PackedVector3Array;
    "PackedColorArray": godot_serde::PackedColorArray;
    "PackedVector4Array": godot_serde::PackedVector4Array;
}

impl GodotTypeName for Variant {
    fn godot_type_name() -> Option<String> {
        None
    }
}

impl<T: GodotTypeName> GodotTypeName for Option<T> {
    /// Untyped: a typed GDScript parameter cannot hold `null` (except objects).
    fn godot_type_name() -> Option<String> {
        None
    }
}

impl<T: ?Sized + GodotTypeName> GodotTypeName for &T {
    fn godot_type_name() -> Option<String> {
        T::godot_type_name()
    }
}

impl<T: ?Sized + GodotTypeName> GodotTypeName for Box<T> {
    fn godot_type_name() -> Option<String> {
        T::godot_type_name()
    }
}

/// `Array[T]` for an element type with a name, else `Array`.
fn array_of<T: GodotTypeName>() -> Option<String> {
    Some(match T::godot_type_name() {
        // Typed arrays of typed arrays do not exist in GDScript.
        Some(inner) if !inner.starts_with("Array") => format!("Array[{inner}]"),
        _ => "Array".to_owned(),
    })
}

impl<T: GodotTypeName> GodotTypeName for Vec<T> {
    fn godot_type_name() -> Option<String> {
        array_of::<T>()
    }
}

impl<T: GodotTypeName> GodotTypeName for [T] {
    fn godot_type_name() -> Option<String> {
        array_of::<T>()
    }
}

impl<T: GodotTypeName, const N: usize> GodotTypeName for [T; N] {
    fn godot_type_name() -> Option<String> {
        array_of::<T>()
    }
}

impl<K, V, S> GodotTypeName for std::collections::HashMap<K, V, S> {
    fn godot_type_name() -> Option<String> {
        Some("Dictionary".to_owned())
    }
}

impl<K, V> GodotTypeName for BTreeMap<K, V> {
    fn godot_type_name() -> Option<String> {
        Some("Dictionary".to_owned())
    }
}

macro_rules! tuple_names {
    ($($t:ident)*) => {
        impl<$($t),*> GodotTypeName for ($($t,)*) {
            fn godot_type_name() -> Option<String> {
                Some("Array".to_owned())
            }
        }
    };
}

tuple_names!(A);
tuple_names!(A B);
tuple_names!(A B C);
tuple_names!(A B C D);
tuple_names!(A B C D E);
tuple_names!(A B C D E F);

/// One typed parameter of an RPC: its GDScript name and type (`None`: untyped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedParam {
    /// The parameter's name.
    pub name: String,
    /// Its GDScript type, `None` for untyped.
    pub ty: Option<String>,
}

impl TypedParam {
    /// The parameter `name` of Rust type `T`.
    pub fn of<T: ?Sized + GodotTypeName>(name: &str) -> Self {
        Self {
            name: name.trim_start_matches("r#").to_owned(),
            ty: T::godot_type_name(),
        }
    }

    /// `name: Type`, or `name` when untyped.
    pub fn declaration(&self) -> String {
        match &self.ty {
            Some(ty) => format!("{}: {ty}", self.name),
            None => self.name.clone(),
        }
    }
}
