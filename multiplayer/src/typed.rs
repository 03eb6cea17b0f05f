//! Typed game logic: a node's whole RPC set as one Rust enum, whose variants are the methods
//! and whose fields are the arguments.
//!
//! The table (names, modes, transfer modes, channels, `call_local`), the checksum, the
//! dispatch (a `match` on a decoded value) and the GDScript all come from the one type:
//!
//! ```
//! # #[cfg(feature = "derive")] {
//! use godot_serde::Vector2;
//! use godot_serde_multiplayer::typed::RpcSet;
//! use godot_serde_multiplayer::{Rpcs, RpcMode, Session, Settings, TransferMode};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Rpcs, Debug, PartialEq)]
//! #[serde(rename_all = "snake_case")]
//! #[rpcs(node = "Lobby")]
//! enum LobbyRpc {
//!     #[rpc(any_peer, reliable, call_local, channel = 1)]
//!     Hello { name: String },
//!     #[rpc(any_peer, unreliable_ordered)]
//!     Move(Vector2),
//!     Welcome { players: Vec<String> },
//! }
//!
//! // The table as GDScript declares it: ids follow the sorted names.
//! let table = LobbyRpc::table();
//! assert_eq!(table.path(), "Lobby");
//! assert_eq!(table.method_names(), ["hello", "move", "welcome"]);
//! let hello = &table.methods()[0];
//! assert_eq!((hello.mode, hello.channel, hello.call_local), (RpcMode::AnyPeer, 1, true));
//! assert_eq!(table.methods()[1].transfer_mode, TransferMode::UnreliableOrdered);
//! assert_eq!(table.methods()[2].mode, RpcMode::Authority);
//!
//! // Sending: the variant is the method, its fields the arguments.
//! let mut server = Session::server(Settings::default());
//! server.declare(LobbyRpc::table());
//! server.connected(7, std::time::Instant::now());
//! server.rpc_to(7, &LobbyRpc::Welcome { players: vec!["Ann".into()] })?;
//! # }
//! # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
//! ```
//!
//! A received call is decoded with [`RemoteCall::decode`] (straight from the argument bytes
//! into the enum, serde's `deserialize_enum` with the method as the variant) and dispatched
//! with a `match`; in a serve loop [`call_of`](SessionCommon::call_of) (either session's)
//! reports a call that does not fit as the caller's [`Event::Error`](crate::Event::Error)
//! instead.
//!
//! Variant names are serde's (so `#[serde(rename_all = "snake_case")]` gives GDScript's
//! usual method names); a unit variant takes no argument, a newtype variant one (whatever
//! its shape: a struct is one Dictionary), a tuple or struct variant one per field, in order.
//!
//! The derive refuses what would put the table and serde out of step: a node without a path,
//! a variant serde skips, an enum serde does not tag by its variant's name.
//!
//! ```compile_fail
//! #[derive(serde::Serialize, serde::Deserialize, godot_serde_multiplayer::Rpcs)]
//! enum NoNode { Hello } // missing #[rpcs(node = "...")]
//! ```
//!
//! ```compile_fail
//! #[derive(serde::Serialize, serde::Deserialize, godot_serde_multiplayer::Rpcs)]
//! #[rpcs(node = "Lobby")]
//! enum Skipped {
//!     Hello,
//!     #[serde(skip)]
//!     Hidden,
//! }
//! ```
//!
//! ```compile_fail
//! #[derive(serde::Serialize, serde::Deserialize, godot_serde_multiplayer::Rpcs)]
//! #[serde(tag = "type")]
//! #[rpcs(node = "Lobby")]
//! enum Tagged { Hello { name: String } }
//! ```
//!
//! ```compile_fail
//! #[derive(serde::Serialize, serde::Deserialize, godot_serde_multiplayer::Rpcs)]
//! #[rpcs(node = "Lobby")]
//! enum SkippedField {
//!     Hello { name: String, #[serde(skip)] cached: u32 },
//! }
//! ```
//!
//! ```compile_fail
//! #[derive(serde::Serialize, serde::Deserialize, godot_serde_multiplayer::Rpcs)]
//! #[rpcs(node = "Lobby")]
//! enum BadOption {
//!     #[rpc(any_peer, sometimes)]
//!     Hello,
//! }
//! ```

use serde::Serialize;
use serde::de::{self, DeserializeOwned, Visitor};

use crate::args::{self, Args, Encoded};
use crate::gdscript::TypedParam;
use crate::godot3::{self, NodeTable, RemoteMode};
use crate::rpc::relative_path;
use crate::{
    ProtocolError, RemoteCall, RpcMethod, RpcMode, RpcTable, Session, SessionCommon, TransferMode,
};

/// One method as an [`RpcSet`] declares it, before serde names it: who may call it, how it
/// travels, and its typed parameters (what `#[rpc(...)]` and the variant's fields say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcDecl {
    /// Who may call it (`any_peer`, `authority`: the default).
    pub mode: RpcMode,
    /// `reliable` (the default), `unreliable`, `unreliable_ordered`.
    pub transfer_mode: TransferMode,
    /// `call_local` (the default is `call_remote`).
    pub call_local: bool,
    /// `channel = N` (0 by default).
    pub channel: u8,
    /// The Godot 3 keyword (`godot3 = "master"`); by default the Godot 4 options' meaning:
    /// `any_peer` is `remote`, `authority` is `puppet` (only the master calls it), with
    /// `call_local` their `*sync` forms.
    pub godot3: RemoteMode,
    /// The arguments: names and GDScript types.
    pub params: Vec<TypedParam>,
}

impl RpcDecl {
    /// `@rpc` with no option: authority, reliable, `call_remote`, channel 0, no parameter
    /// (Godot 3: `puppet`).
    pub fn new() -> Self {
        Self {
            mode: RpcMode::Authority,
            transfer_mode: TransferMode::Reliable,
            call_local: false,
            channel: 0,
            godot3: RemoteMode::Puppet,
            params: Vec::new(),
        }
    }

    /// The Godot 3 keyword with the meaning of Godot 4's `mode` and `call_local`: `any_peer`
    /// is `remote`, `authority` is `puppet`, `call_local` makes them `remotesync` and
    /// `puppetsync`.
    pub fn godot3_of(mode: RpcMode, call_local: bool) -> RemoteMode {
        match (mode, call_local) {
            (RpcMode::AnyPeer, false) => RemoteMode::Remote,
            (RpcMode::AnyPeer, true) => RemoteMode::RemoteSync,
            (RpcMode::Authority, false) => RemoteMode::Puppet,
            (RpcMode::Authority, true) => RemoteMode::PuppetSync,
            _ => RemoteMode::Disabled,
        }
    }
}

impl Default for RpcDecl {
    fn default() -> Self {
        Self::new()
    }
}

/// One method of an [`RpcSet`]: its table entry and its typed parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcSpec {
    /// The method as the table holds it (name, mode, transfer mode, channel, `call_local`).
    pub method: RpcMethod,
    /// Its typed parameters, in argument order.
    pub params: Vec<TypedParam>,
}

/// A node's RPC methods as one enum: `#[derive(Rpcs)]` implements it (see the [module
/// doc](self)); [`declared`](Self::declared) and [`variant_index`](Self::variant_index) are
/// what the derive writes, the rest follows from them and from serde.
pub trait RpcSet: Serialize + DeserializeOwned {
    /// The node's path (relative to the multiplayer root, `/root`).
    const NODE: &'static str;

    /// The methods in the enum's declaration order (names come from serde).
    fn declared() -> Vec<RpcDecl>;

    /// The declaration index of this value's variant.
    fn variant_index(&self) -> usize;

    /// The methods' names in declaration order, as serde names the variants.
    fn method_names() -> &'static [&'static str] {
        variant_names::<Self>()
    }

    /// Each method with its typed parameters, in declaration order.
    fn specs() -> Vec<RpcSpec> {
        let names = Self::method_names();
        Self::declared()
            .into_iter()
            .zip(names)
            .map(|(d, name)| RpcSpec {
                method: RpcMethod {
                    name: (*name).to_owned(),
                    mode: d.mode,
                    transfer_mode: d.transfer_mode,
                    call_local: d.call_local,
                    channel: d.channel,
                },
                params: d.params,
            })
            .collect()
    }

    /// The node's table: ids and checksum as the GDScript side derives them.
    fn table() -> RpcTable {
        Self::specs()
            .into_iter()
            .fold(RpcTable::new(Self::NODE), |t, s| t.with(s.method))
    }

    /// This value's method name.
    fn method(&self) -> &'static str {
        Self::method_names()
            .get(self.variant_index())
            .copied()
            .unwrap_or_default()
    }

    /// The typed GDScript parameter list of `method` (`name: String, pos: Vector2`), `None`
    /// for a method the set does not have.
    fn gdscript_signature(method: &str) -> Option<String> {
        Self::specs()
            .into_iter()
            .find(|s| s.method.name == method)
            .map(|s| {
                s.params
                    .iter()
                    .map(TypedParam::declaration)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
    }

    /// A call of `method` with `args` (from [`wire::parse`](crate::wire::parse)) as a value
    /// of the set, read straight from the bytes.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::NotInSet`] for a method the set does not have; as
    /// [`args::decode`] for arguments that are malformed or do not fit the variant.
    fn from_args(method: &str, args: &Args<'_>) -> Result<Self, ProtocolError> {
        if !Self::method_names().contains(&method) {
            return Err(not_in_set::<Self>(relative_path(Self::NODE), method));
        }
        args::decode_method(method, args)
    }

    /// This value's method and arguments, written straight into the argument layout.
    ///
    /// # Errors
    ///
    /// As [`args::encode`].
    fn encode(&self) -> Result<(&'static str, Encoded), ProtocolError> {
        args::encode_method(self)
    }

    /// The Godot 3 table of the node: each method with its keyword (see
    /// [`RpcDecl::godot3`]), the network master the server (peer 1).
    fn node_table() -> NodeTable {
        Self::declared()
            .into_iter()
            .zip(Self::method_names())
            .fold(NodeTable::new(Self::NODE), |t, (d, name)| {
                t.method(*name, d.godot3)
            })
    }

    /// A Godot 3 call of `method` with its `count` arguments in `bytes` (where `offset` is
    /// their start in the packet), read straight from the bytes in Godot 3's layout.
    ///
    /// # Errors
    ///
    /// As [`from_args`](Self::from_args).
    fn from_args3(
        method: &str,
        count: u8,
        bytes: &[u8],
        offset: usize,
    ) -> Result<Self, ProtocolError> {
        if !Self::method_names().contains(&method) {
            return Err(not_in_set::<Self>(relative_path(Self::NODE), method));
        }
        crate::godot3::args::decode_method(method, count, bytes, offset)
    }

    /// This value's method and arguments in Godot 3's layout (the values after the count
    /// byte) and their count.
    ///
    /// # Errors
    ///
    /// As [`encode`](Self::encode), for Godot 3.
    fn encode3(&self) -> Result<(&'static str, u8, Vec<u8>), ProtocolError> {
        crate::godot3::args::encode_method(self)
    }
}

fn not_in_set<R: RpcSet>(path: &str, method: &str) -> ProtocolError {
    ProtocolError::NotInSet {
        set: relative_path(R::NODE).to_owned(),
        path: path.to_owned(),
        method: method.to_owned(),
        methods: R::table().method_names(),
    }
}

/// The variant names serde's derived `Deserialize` of `T` passes to `deserialize_enum`.
fn variant_names<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Names(Option<&'static [&'static str]>);
    impl std::fmt::Display for Names {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("variant names")
        }
    }
    impl std::fmt::Debug for Names {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("variant names")
        }
    }
    impl std::error::Error for Names {}
    impl de::Error for Names {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Names(None)
        }
    }
    struct Probe;
    impl<'de> de::Deserializer<'de> for Probe {
        type Error = Names;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Names> {
            Err(Names(None))
        }
        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _: &'static str,
            variants: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Names> {
            Err(Names(Some(variants)))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct identifier ignored_any
        }
    }
    match T::deserialize(Probe) {
        Err(Names(Some(names))) => names,
        _ => &[],
    }
}

impl RemoteCall {
    /// The call as a value of the RPC set `R`: its method is the variant, its arguments the
    /// fields, read straight from the argument bytes (Godot 4's or Godot 3's layout).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::NotInSet`] for a call on another node, of a method `R` does not have,
    /// or a Godot 3 remote set; [`ProtocolError::ArgumentType`] when the arguments do not fit
    /// the variant.
    pub fn decode<R: RpcSet>(&self) -> Result<R, ProtocolError> {
        if relative_path(&self.path) != relative_path(R::NODE) {
            return Err(not_in_set::<R>(&self.path, &self.method));
        }
        let decoded = match (self.args(), self.godot3_list()) {
            (Some(args), _) => R::from_args(&self.method, &args),
            (None, Some((count, bytes, offset))) => {
                R::from_args3(&self.method, count, bytes, offset)
            }
            (None, None) => Err(not_in_set::<R>(&self.path, &self.method)),
        };
        decoded.map_err(|e| match e {
            ProtocolError::NotInSet {
                set,
                method,
                methods,
                ..
            } => ProtocolError::NotInSet {
                set,
                path: self.path.clone(),
                method,
                methods,
            },
            other => other,
        })
    }
}

impl Session {
    /// Calls `call`'s method on `R`'s node of peer `to` (0 all, `-id` all but one) with its
    /// fields as the arguments, written straight into the packet's layout. As
    /// [`rpc`](Self::rpc), a target that left meanwhile is its [`Event::Error`](crate::Event::Error).
    ///
    /// # Errors
    ///
    /// As [`rpc`](Self::rpc): [`ProtocolError::NotDeclared`] when `R`'s table is not declared
    /// ([`declare`](Self::declare)`(R::table())`), encoding errors, our own id.
    pub fn rpc_to<R: RpcSet>(&mut self, to: i32, call: &R) -> Result<(), ProtocolError> {
        let (method, encoded) = call.encode()?;
        self.rpc_with(to, R::NODE, method, || Ok(encoded))
    }
}

impl godot3::Session {
    /// Calls `call`'s method on `R`'s node (declared with
    /// [`declare`](godot3::Session::declare)`(R::node_table())`) of peer `to`, with its fields
    /// as the arguments: [`rpc`](godot3::Session::rpc) for the set's value, or
    /// [`rpc_unreliable`](godot3::Session::rpc_unreliable) when the method's transfer mode is
    /// not reliable (Godot 3 has no ordered unreliable mode: `unreliable_ordered` goes
    /// unreliable). Returns what `rpc` returns.
    ///
    /// # Errors
    ///
    /// As [`rpc`](godot3::Session::rpc).
    pub fn rpc_to<R: RpcSet>(&mut self, to: i32, call: &R) -> Result<bool, ProtocolError> {
        let (method, count, bytes) = call.encode3()?;
        let unreliable = R::declared()
            .get(call.variant_index())
            .is_some_and(|d| d.transfer_mode != crate::TransferMode::Reliable);
        self.rpc_encoded(to, (R::NODE, method), unreliable, (count, bytes))
    }
}

impl SessionCommon {
    /// [`RemoteCall::decode`] in a serve loop, on either dialect's session (through its
    /// [`SessionCommon`]): the call as a value of `R`, or `None` when it is not one, with the
    /// error queued as the caller's [`Event::Error`](crate::Event::Error) (as
    /// [`Session::args_of`] does).
    pub fn call_of<R: RpcSet>(&mut self, call: &RemoteCall) -> Option<R> {
        self.or_report(call.from, call.decode())
    }
}
