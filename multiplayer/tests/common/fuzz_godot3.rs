//! The body of the `godot3` fuzz target, shared with `tests/suite/fuzz_replay_godot3.rs` (which
//! replays the committed seeds on every `cargo test`).
//!
//! Input: byte 0 picks the role (bit 0: client); then packets as `[selector, length,
//! bytes...]`. The selector's low 2 bits pick the sender, bit 2 sends the packet with an ENet
//! header / as a system message through the parsers, bit 3 makes the session send a call and an
//! rset. Every packet goes through `wire::parse` and `Session::receive`; nothing may panic, the
//! path cache stays within its limit and outputs stay proportional to the input.

use godot_serde_multiplayer::Event;
use godot_serde_multiplayer::Limits;
use godot_serde_multiplayer::godot3::wire::{self, EnetHeader, SysMsg, WsMessage};
use godot_serde_multiplayer::godot3::{NodeTable, RemoteMode, Session};

/// A small limit so the fuzzer reaches it.
pub const MAX_PATHS: usize = 8;

fn table() -> NodeTable {
    NodeTable::new("/root/Lobby")
        .method("chat", RemoteMode::Remote)
        .method("moved", RemoteMode::Puppet)
        .method("order", RemoteMode::MasterSync)
        .property("hp", RemoteMode::Puppet)
        .property("name", RemoteMode::RemoteSync)
}

/// Runs one input.
pub fn session(data: &[u8]) {
    let Some((&mode, mut rest)) = data.split_first() else {
        return;
    };
    let client = mode & 1 != 0;
    let limits = Limits::default().with_max_cached_paths(MAX_PATHS);
    let mut s = if client {
        Session::client(5, limits)
    } else {
        Session::server(limits)
    };
    s.declare(table());
    let peers: [i32; 4] = if client {
        [1, 6, 7, 9]
    } else {
        [2, 3, 4, i32::MAX]
    };
    for &p in &peers {
        s.connected(p);
    }
    let mut received = 0usize;
    let mut sent = 0usize;
    while let [selector, len, tail @ ..] = rest {
        let len = usize::from(*len).min(tail.len());
        let (packet, next) = tail.split_at(len);
        rest = next;
        received += packet.len() + 64;
        let from = peers[usize::from(*selector) % peers.len()];
        if selector & 4 != 0 {
            let _ = SysMsg::parse(packet);
            if let Ok(m) = WsMessage::parse(packet) {
                let _ = m.sys_id();
                let _ = m.to_bytes();
            }
            if let Ok((header, payload)) = EnetHeader::split(packet) {
                let _ = wire::route(header.source, header.target, &peers);
                s.receive(from, selector & 16 != 0, payload);
            }
        } else {
            if let Ok(wire::Packet::RemoteCall {
                count,
                args,
                args_offset,
                ..
            }) = wire::parse(packet)
            {
                let _ = wire::decode_args(count, args, args_offset);
            }
            s.receive(from, selector & 16 != 0, packet);
        }
        if selector & 8 != 0 {
            let _ = s.rpc(0, "Lobby", "chat", &("x",));
            let _ = s.rset(-from, "Lobby", "name", &"y");
            let _ = s.send_bytes(from, packet, true);
            received += 3 * (packet.len() + 64);
        }
        while let Some(out) = s.poll_output() {
            if let godot_serde_multiplayer::Output::Packet { data, .. } = out {
                sent += data.len();
            }
        }
        assert!(sent <= received * 4, "outputs far larger than the input");
        while let Some(event) = s.poll_event() {
            if let Event::Error { error, .. } = event {
                let _ = error.to_string();
            }
        }
    }
}
