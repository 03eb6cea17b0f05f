//! A server's work for one peer does not grow with the number of peers connected: an RPC to
//! one client and a relayed packet for one client are one lookup of that client, not a walk
//! over every connected peer (at 1,000 clients the walk was most of the server's time per
//! round trip, `benches/load.rs -- 1000`). Same-run ratios of CPU time, N against 16N peers,
//! the best of several rounds (no absolute times).

use std::time::{Duration, Instant};

use godot_serde_multiplayer::{RpcMethod, RpcTable, Session, Settings, TransferMode, wire};

fn table() -> RpcTable {
    RpcTable::new("Bench")
        .with(RpcMethod::any_peer("ping"))
        .with(RpcMethod::authority("pong"))
}

/// A server with `n` clients (ids 2..n+2), relaying, every client's path cached, the queues
/// drained.
fn server(n: i32) -> Session {
    let table = table();
    let mut simplify = Vec::new();
    wire::write_simplify_path(&mut simplify, table.md5(), 1, "Bench");
    let mut s = Session::server(Settings::default());
    s.declare(table);
    let now = Instant::now();
    for peer in 2..n + 2 {
        s.connected(peer, now);
        s.receive(peer, 0, TransferMode::Reliable, &simplify);
    }
    while s.poll_event().is_some() {}
    while s.poll_output().is_some() {}
    s
}

const CALLS: i64 = 1_000;

/// The best of 5 rounds of `work` (each `CALLS` operations on `s`, outputs drained).
fn best(s: &mut Session, work: &dyn Fn(&mut Session, i64)) -> Duration {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            for k in 0..CALLS {
                work(s, k);
                while s.poll_output().is_some() {}
                while s.poll_event().is_some() {}
            }
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The time ratio of `work` at 4,096 peers to 256 (16× the peers). A walk over the peers
/// per operation made it 11 (the RPC) and 9 (the relay) in a release build, 27 and 16 in a
/// debug one; one lookup keeps it near 1 (a
/// B-tree's lookup grows by a few levels, far below 2).
fn ratio(work: &dyn Fn(&mut Session, i64)) -> f64 {
    let mut small = server(256);
    let mut large = server(4_096);
    // Warm both up once (the SIMPLIFY_PATH each target is sent first).
    best(&mut small, work);
    best(&mut large, work);
    best(&mut large, work).as_secs_f64() / best(&mut small, work).as_secs_f64().max(1e-9)
}

#[test]
fn an_rpc_to_one_peer_costs_the_same_at_16_times_the_peers() {
    let r = ratio(&|s: &mut Session, k| {
        s.rpc(200, "Bench", "pong", &(k,)).unwrap();
    });
    assert!(r < 2.5, "4,096 peers / 256 peers: {r:.2}× the time per RPC");
}

#[test]
fn a_relay_to_one_peer_costs_the_same_at_16_times_the_peers() {
    // Peer 3 sends peer 200 a RAW packet through the server (SYS RELAY, target 200).
    let mut relay = Vec::new();
    wire::write_sys(&mut relay, wire::SYS_RELAY, 200);
    relay.extend_from_slice(&[wire::COMMAND_RAW, 1, 2, 3]);
    let r = ratio(&|s: &mut Session, _| {
        s.receive(3, 0, TransferMode::Reliable, &relay);
    });
    assert!(
        r < 2.5,
        "4,096 peers / 256 peers: {r:.2}× the time per relay"
    );
}
