//! Remote calls and RAW packets of the Godot 4 session (`SceneRPCInterface`): sending with the
//! path cache's forms, receiving with the modes' checks.

use godot_serde::Variant;
use serde::Serialize;

use super::Session;
use crate::args::{self, Args, Encoded};
use crate::core::Target;
use crate::event::{Event, RemoteCall};
use crate::rpc::relative_path;
use crate::wire::{self, NodeRef};
use crate::{ProtocolError, TransferMode};

impl Session {
    /// The arguments of `call` as a typed tuple or struct (fields in order), or `None` when they
    /// do not fit `T`: then the mismatch ([`ProtocolError::ArgumentType`]) is queued as the
    /// caller's [`Event::Error`], as the engine logs a call whose arguments its method refuses
    /// and goes on. A serve loop skips the call with
    /// `let Some(args) = session.args_of::<T>(&call) else { continue };`, or answers with a
    /// kick: `else { session.disconnect_peer(call.from); continue };`.
    pub fn args_of<T: serde::de::DeserializeOwned>(&mut self, call: &RemoteCall) -> Option<T> {
        self.common.or_report(call.from, call.args_as())
    }

    /// Sends RAW bytes (`send_bytes`): `to` is a peer, 0 for all, or `-id` for all but one. A
    /// target that is not connected gets nothing and a [`ProtocolError::NoSuchPeer`] event.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::EmptyPayload`], [`ProtocolError::NoSuchPeer`] for our own id.
    pub fn send_bytes(
        &mut self,
        to: i32,
        data: &[u8],
        mode: TransferMode,
        channel: u8,
    ) -> Result<(), ProtocolError> {
        if data.is_empty() {
            return Err(ProtocolError::EmptyPayload("RAW"));
        }
        let mut packet = Vec::with_capacity(data.len() + 1);
        wire::write_raw(&mut packet, data);
        if self.target_gone(Target::from_engine(to))? {
            return Ok(());
        }
        self.send_command(to, channel, mode, packet);
        Ok(())
    }

    /// Calls `method` on the node at `path` of peer `to` (0 all, `-id` all but one) with typed
    /// arguments: a tuple, a struct (fields in order), `()`, or a `Vec<Variant>`. A target that
    /// is not connected (it left while its events were queued) gets nothing and a
    /// [`ProtocolError::NoSuchPeer`] event: its departure is no error of ours.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::NotDeclared`] for an undeclared node or method, naming what is
    /// declared; [`ProtocolError::Encode`] and [`ProtocolError::TooManyArguments`] for
    /// arguments that cannot be sent; [`ProtocolError::NoSuchPeer`] for our own id.
    pub fn rpc<A: ?Sized + Serialize>(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &A,
    ) -> Result<(), ProtocolError> {
        // Straight into the layout, no Variants: the bytes `rpc_variants` writes for them.
        self.rpc_with(to, path, method, || args::encode(args))
    }

    /// [`rpc`](Self::rpc) with the arguments as `Variant`s.
    ///
    /// # Errors
    ///
    /// As [`rpc`](Self::rpc).
    pub fn rpc_variants(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &[Variant],
    ) -> Result<(), ProtocolError> {
        self.rpc_with(to, path, method, || args::encode_variants(args))
    }

    /// [`rpc`](Self::rpc) with the arguments encoded by `encode`, once the node and method
    /// are known to be declared.
    pub(crate) fn rpc_with(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        encode: impl FnOnce() -> Result<Encoded, ProtocolError>,
    ) -> Result<(), ProtocolError> {
        let path = relative_path(path);
        let not_declared = |methods| ProtocolError::NotDeclared {
            path: path.to_owned(),
            method: method.to_owned(),
            methods,
        };
        let (index, table) = self
            .paths
            .by_path(path)
            .ok_or_else(|| not_declared(Vec::new()))?;
        let method_id = table
            .method_id(method)
            .ok_or_else(|| not_declared(table.method_names()))?;
        let config = table
            .methods()
            .get(usize::from(method_id))
            .cloned()
            .ok_or_else(|| not_declared(table.method_names()))?;
        let (table_path, md5) = (table.path().to_owned(), table.md5().to_owned());
        let encoded: Encoded = encode()?;
        if self.target_gone(Target::from_engine(to))? {
            return Ok(());
        }
        let targets =
            Target::from_engine(to).expand_with(self.paths.ids(), |p| self.paths.is_connected(p));
        let send = self.paths.send(index, &targets);
        // SIMPLIFY_PATH to every target that has not been sent it (SceneCacheInterface).
        for target in send.announce {
            let mut packet = Vec::new();
            wire::write_simplify_path(&mut packet, &md5, send.id, &table_path);
            self.send_command(target, 0, TransferMode::Reliable, packet);
        }
        for &target in &targets {
            let mut packet = Vec::with_capacity(encoded.bytes.len() + 8);
            if send.all_confirmed {
                wire::write_remote_call(&mut packet, send.id, None, method_id, &encoded);
            } else if self.paths.confirmed(target, index) {
                // Godot writes the id in 32 bits when not every target has confirmed it.
                wire::write_remote_call(&mut packet, send.id, None, method_id, &encoded);
                wire::force_node_id_32(&mut packet, send.id);
            } else {
                wire::write_remote_call(
                    &mut packet,
                    send.id,
                    Some(&table_path),
                    method_id,
                    &encoded,
                );
            }
            self.send_command(target, config.channel, config.transfer_mode, packet);
        }
        Ok(())
    }

    /// Whether the one peer `target` names is not connected (then reported by
    /// [`gone`](Self::gone)); `0` and `-n` go to whoever is connected.
    fn target_gone(&mut self, target: Target) -> Result<bool, ProtocolError> {
        match target {
            Target::Peer(peer) if !self.paths.is_connected(peer) => self.gone(peer).map(|()| true),
            _ => Ok(false),
        }
    }

    /// A REMOTE_CALL of `from` (`_process_rpc`): the node, the method id, the mode's check.
    pub(super) fn receive_call(
        &mut self,
        from: i32,
        (channel, mode): (u8, TransferMode),
        (node, method, args): (NodeRef<'_>, u16, Args<'_>),
    ) -> Result<(), ProtocolError> {
        let table_index = self.paths.resolve(from, &node)?;
        let Some(table) = self.paths.table(table_index) else {
            return Err(ProtocolError::UnknownCacheId { peer: from, id: 0 });
        };
        let Some(config) = table.methods().get(usize::from(method)) else {
            return Err(ProtocolError::UnknownMethod {
                peer: from,
                path: table.path().to_owned(),
                id: method,
                count: table.methods().len(),
                methods: table.method_names(),
            });
        };
        let allowed = match config.mode {
            crate::RpcMode::Disabled => false,
            crate::RpcMode::AnyPeer => true,
            crate::RpcMode::Authority => from == table.authority(),
        };
        if !allowed {
            return Err(ProtocolError::NotAllowed {
                peer: from,
                path: table.path().to_owned(),
                method: config.name.clone(),
                mode: config.mode,
                authority: table.authority(),
            });
        }
        let names = (from, table.path().to_owned(), config.name.clone());
        let call = RemoteCall::godot4(names, channel, mode, &args);
        self.common.queues.event(Event::Rpc(call));
        Ok(())
    }
}
