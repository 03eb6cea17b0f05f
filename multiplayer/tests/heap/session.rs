//! Memory per connected peer: what the session holds for a peer that joined, announced the
//! node's path, and was sent one call (both path caches filled).

use godot_serde_multiplayer::{RpcMethod, RpcTable, Session, Settings, TransferMode, wire};

use crate::{HEAP, alone};

#[test]
fn memory_per_connected_peer_is_small() {
    let _alone = alone();
    let table = RpcTable::new("Bench")
        .with(RpcMethod::any_peer("ping"))
        .with(RpcMethod::authority("pong"));
    let mut simplify = Vec::new();
    wire::write_simplify_path(&mut simplify, table.md5(), 1, "Bench");
    let mut s = Session::server(Settings::default());
    s.declare(table);
    // Warm the queues up, so their capacity is not counted per peer.
    s.connected(2, crate::clock::at_ms(0));
    s.rpc(2, "Bench", "pong", &(1i64,)).unwrap();
    while s.poll_event().is_some() {}
    while s.poll_output().is_some() {}
    let before = HEAP.current_usage();
    for peer in 3..1003 {
        s.connected(peer, crate::clock::at_ms(0));
        s.receive(peer, 0, TransferMode::Reliable, &simplify);
        s.rpc(peer, "Bench", "pong", &(1i64,)).unwrap();
        while s.poll_event().is_some() {}
        while s.poll_output().is_some() {}
    }
    let per_peer = HEAP.current_usage().saturating_sub(before) / 1000;
    println!("session memory per connected peer: {per_peer} bytes");
    // Two one-entry hash maps and a tree node: well under a kilobyte.
    assert!(per_peer < 1024, "{per_peer} bytes per peer");
}
