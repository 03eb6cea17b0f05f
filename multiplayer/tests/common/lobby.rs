//! The Lobby node of `tests/godot/lobby.gd` as the Rust side declares it, shared by the
//! protocol tests (whose hand-derived bytes hash this table) and the live tests.

use godot_serde_multiplayer::{RpcMethod, RpcTable, TransferMode};

/// The `/root/Lobby` RPC table: every method of `tests/godot/lobby.gd` with its mode, in
/// the engine's (sorted) order.
pub fn lobby() -> RpcTable {
    RpcTable::new("/root/Lobby")
        .with(RpcMethod::any_peer("chan").channel(2))
        .with(RpcMethod::any_peer("done"))
        .with(RpcMethod::authority("echo"))
        .with(RpcMethod::any_peer("hello"))
        .with(RpcMethod::any_peer("ordered").transfer(TransferMode::UnreliableOrdered))
        .with(RpcMethod::any_peer("ping"))
        .with(RpcMethod::any_peer("take"))
        .with(RpcMethod::any_peer("unrel").transfer(TransferMode::Unreliable))
        .with(RpcMethod::authority("welcome"))
}
