//! The Godot 4 session's record of a connected peer, by part, against budgets derived by hand
//! from the layout: the path-cache entries of one node, the queues' room after a burst of
//! join notices, and the whole record.

use godot_serde_multiplayer::{
    Event, Output, RpcMethod, RpcTable, Session, Settings, TransferMode, wire,
};
use peak_alloc::PeakAlloc;

/// The counters of the binary's allocator (`memory.rs` installs it; the counts are global).
static HEAP: PeakAlloc = PeakAlloc;

const PEERS: usize = 1000;

/// What a server holds after `PEERS` peers joined, each drained as a server loop does;
/// `announce`: each announced the node's path and was sent one call (both caches filled).
fn held(relay: bool, announce: bool) -> usize {
    let table = RpcTable::new("Bench")
        .with(RpcMethod::any_peer("ping"))
        .with(RpcMethod::authority("pong"));
    let mut simplify = Vec::new();
    wire::write_simplify_path(&mut simplify, table.md5(), 1, "Bench");
    let mut s = Session::server(Settings::default().with_relay(relay));
    s.declare(table);
    // Warm the queues and the node's id up, so that they are not counted per peer.
    s.connected(2, crate::clock::at_ms(0));
    s.rpc(2, "Bench", "pong", &(1i64,)).unwrap();
    while s.poll_event().is_some() {}
    while s.poll_output().is_some() {}
    let before = HEAP.current_usage();
    for peer in 3..3 + PEERS as i32 {
        s.connected(peer, crate::clock::at_ms(0));
        if announce {
            s.receive(peer, 0, TransferMode::Reliable, &simplify);
            s.rpc(peer, "Bench", "pong", &(1i64,)).unwrap();
        }
        while s.poll_event().is_some() {}
        while s.poll_output().is_some() {}
    }
    let held = HEAP.current_usage().saturating_sub(before);
    drop(s);
    held
}

/// The path cache of one node costs a peer two entries: the id it announced (a `u32` and our
/// table slot, a `usize`: 16 bytes) and whether it confirmed our id (a `usize` slot and a
/// `bool`: 16 bytes), 32 bytes in all (two one-entry hash maps took 2 × 84 bytes of table).
#[test]
fn a_peer_pays_32_bytes_for_a_cached_node() {
    if crate::in_a_process_of_its_own("peer_record::a_peer_pays_32_bytes_for_a_cached_node") {
        return;
    }
    let _alone = crate::alone();
    let bare = held(false, false);
    let cached = held(false, true);
    // Rounded: the test harness's own allocations on other threads move the totals by a
    // hundred bytes or so (over 1,000 peers, a tenth of a byte each).
    let per_peer = (cached.saturating_sub(bare) + PEERS / 2) / PEERS;
    println!("path cache of one node: {per_peer} bytes per peer");
    assert_eq!(per_peer, 16 + 16);
}

/// With relay on, each join queues ADD_PEER notices for every other peer and about it:
/// 2 × 1,001 outputs at the last join. Drained, a queue keeps room for 64 entries: with relay
/// on, the server holds at most 64 outputs (32 bytes each) and 64 events more than with it off
/// (the queue grew to 2,048 outputs, 64 KiB, 65 bytes a peer, and kept them), and each peer's
/// announcement record: a hash-map entry (the id, 4 bytes padded to 8, and five 8-byte
/// counters and a flag: 56 bytes, plus a control byte) in a table at most 2 × 8/7 the entries
/// (130 bytes a peer at worst), and its admission-log entry (16 bytes, a vector at most twice
/// the entries: 32), 162 bytes a peer.
#[test]
fn drained_queues_give_back_a_burst() {
    if crate::in_a_process_of_its_own("peer_record::drained_queues_give_back_a_burst") {
        return;
    }
    let _alone = crate::alone();
    let quiet = held(false, true);
    let notified = held(true, true);
    let extra = notified.saturating_sub(quiet);
    let budget = 64 * size_of::<Output>() + 64 * size_of::<Event>() + PEERS * 162;
    println!("queues after 1,000 joins with relay: {extra} bytes more (budget {budget})");
    assert_eq!(size_of::<Output>(), 32);
    assert!(extra <= budget, "{extra} bytes held after the burst");
}

/// The whole record of a peer that joined, announced the node and was sent one call, bounded
/// from the layout. Two B-tree entries keyed by the peer's id (4 bytes): the path cache's
/// record (three vectors, 72 bytes) and replication's (two sets, a counter, three maps: 200).
/// A leaf holds 11 keys, 11 values and 16 bytes of links (path cache 856 bytes, replication
/// 2,264 with padding); an internal node is a leaf with 12 child pointers more; every node but
/// the root is at least 5 full, so an entry costs at most (leaf + internal / 6) / 5: 203 and
/// 532 bytes. With the two 16-byte path-cache entries, the queues' 4 bytes a peer and the
/// announcement record (162, above): 203 + 532 + 32 + 4 + 162 = 933. (Hash maps in the
/// record took 884 without the announcement record.)
#[test]
fn a_connected_peer_costs_at_most_933_bytes() {
    if crate::in_a_process_of_its_own("peer_record::a_connected_peer_costs_at_most_933_bytes") {
        return;
    }
    let _alone = crate::alone();
    let per_peer = held(true, true) / PEERS;
    println!("session memory per connected peer: {per_peer} bytes");
    assert!(per_peer <= 933, "{per_peer} bytes per peer");
}
