//! The body of the `session` fuzz target, shared with `tests/suite/fuzz_replay.rs` (which replays the
//! committed seeds on every `cargo test`).
//!
//! Input: byte 0 picks the role (bit 0: client), authentication (bit 1) and relay (bit 2);
//! then packets as `[sender selector, length, bytes...]`. Every packet goes through
//! `wire::parse` and `Session::receive`; nothing may panic, the session's outputs and
//! per-peer state stay within the documented bounds, and a call's arguments read typed
//! straight from the bytes agree with the `Variant` path.

use godot_serde_multiplayer::{
    Event, Limits, Output, ReplicationConfig, ReplicationMode, RpcMethod, RpcTable, Session,
    Settings, SpawnScene, Spawner, Synchronizer, TransferMode, Variant, wire,
};

/// Small limits so the fuzzer reaches them.
pub const MAX_PATHS: usize = 8;

fn table() -> RpcTable {
    RpcTable::new("/root/Lobby")
        .with(RpcMethod::any_peer("chat"))
        .with(RpcMethod::authority("welcome"))
        .with(RpcMethod::any_peer("move").channel(1))
}

/// Runs one input.
pub fn session(data: &[u8]) {
    let Some((&mode, mut rest)) = data.split_first() else {
        return;
    };
    let settings = Settings::default()
        .with_auth(mode & 2 != 0)
        .with_relay(mode & 4 != 0)
        .with_limits(Limits::default().with_max_cached_paths(MAX_PATHS));
    let client = mode & 1 != 0;
    let mut s = if client {
        Session::client(5, settings)
    } else {
        Session::server(settings)
    };
    s.declare(table());
    let peers: [i32; 4] = if client {
        [1, 1, 7, 9]
    } else {
        [2, 3, 4, i32::MAX]
    };
    // Replication: a spawner, a client-owned synchronizer (peer selector 0 owns it), a
    // server-owned one, and (on the server) a spawned node with both kinds.
    s.declare_spawner(Spawner::new("World/Spawner", "World/Players").scene("res://p.tscn"));
    let cfg = ReplicationConfig::new().property(".:position").with(
        ".:hp",
        true,
        ReplicationMode::OnChange,
    );
    let state = || vec![Variant::Nil, Variant::Int(0)];
    let _ = s.declare_synchronizer(
        Synchronizer::new("World/Aim", cfg.clone()).with_authority(peers[0]),
        state(),
    );
    let _ = s.declare_synchronizer(Synchronizer::new("World/Score", cfg.clone()), state());
    // The session's clock: milliseconds after this instant.
    let t0 = std::time::Instant::now();
    for &p in &peers {
        s.connected(p, t0);
    }
    let mut node = s
        .spawn(
            "World/Spawner",
            SpawnScene::Index(0),
            "P",
            vec![
                (Synchronizer::new("Sync", cfg.clone()), state()),
                (
                    Synchronizer::new("Input", cfg).with_authority(peers[0]),
                    state(),
                ),
            ],
        )
        .ok();
    if client {
        s.receive(1, 0, TransferMode::Reliable, &[7, 1, 7, 0, 0, 0]);
    }
    let mut now = 0;
    let mut received = 0;
    while let [selector, len, tail @ ..] = rest {
        received += 1;
        let len = usize::from(*len).min(tail.len());
        let (packet, next) = tail.split_at(len);
        rest = next;
        let from = peers[usize::from(*selector) % peers.len()];
        let _ = wire::parse(packet).map(|p| {
            if let wire::Packet::RemoteCall { args, .. } = p {
                // The typed path straight from the bytes: never a panic, and as `Variant`
                // the list the `Variant` path decodes (NaN compared by what it prints).
                let list = args.decode();
                let typed = godot_serde_multiplayer::args::decode::<Variant>(&args);
                if let Ok(list) = &list {
                    let want = format!("{:?}", Variant::from(list.clone()));
                    assert_eq!(typed.map(|v| format!("{v:?}")).ok(), Some(want));
                }
                let _ = godot_serde_multiplayer::args::decode::<(String, i64, bool)>(&args);
                let _ =
                    godot_serde_multiplayer::args::decode::<(f64, Vec<String>, Option<i64>)>(&args);
            }
        });
        s.receive(from, selector >> 4, TransferMode::Reliable, packet);
        if selector & 8 != 0 {
            let _ = s.rpc(0, "Lobby", "chat", &("x",));
            let _ = s.send_bytes(from, packet, TransferMode::Unreliable, 0);
            let _ = s.complete_auth(from);
        }
        if selector & 0x80 != 0 {
            if let Some(n) = node.take() {
                let _ = s.despawn(n);
            }
        }
        now += 1000;
        s.handle_timeout(t0 + std::time::Duration::from_millis(now));
        let (syncs, nodes, per_peer) = s.replication_footprint();
        // A server may spawn on a client: one node and synchronizer per packet at most.
        assert!(
            syncs <= 4 + received && nodes <= 1 + received && per_peer <= 4 * 8 + 2 * received,
            "replication holds {syncs} {nodes} {per_peer}"
        );
        let mut confirms = 0;
        while let Some(out) = s.poll_output() {
            if let Output::Packet { data, .. } = out {
                confirms += usize::from(data.first() == Some(&2));
                assert!(
                    data.len() <= packet.len() + 64,
                    "an output far larger than its input"
                );
            }
        }
        assert!(confirms <= 1, "one packet confirmed {confirms} paths");
        while let Some(event) = s.poll_event() {
            if let Event::Error { error, .. } = event {
                let _ = error.to_string();
            }
        }
    }
}
