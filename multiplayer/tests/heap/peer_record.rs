//! The Godot 4 session's record of a connected peer, by part, against budgets derived by hand
//! from the layout: the path-cache entries of one node, the queues' room after a burst of
//! join notices, and the whole record.

use godot_serde_multiplayer::{
    Event, Output, RpcMethod, RpcTable, Session, Settings, SpawnScene, Spawner, TransferMode, wire,
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

/// The path cache of one node costs a peer its record, made with its first path (a B-tree
/// entry of three vectors: at most 203 bytes, below), and two entries: the id it announced (a
/// `u32` and our table slot, a `usize`: 16 bytes) and whether it confirmed our id (a `usize`
/// slot and a `bool`: 16 bytes), 235 bytes in all (two one-entry hash maps took 2 × 84 bytes
/// of table, beside a record every peer had).
#[test]
fn a_peer_pays_at_most_235_bytes_for_a_cached_node() {
    if crate::in_a_process_of_its_own(
        "peer_record::a_peer_pays_at_most_235_bytes_for_a_cached_node",
    ) {
        return;
    }
    let _alone = crate::alone();
    let bare = held(false, false);
    let cached = held(false, true);
    // Rounded: the test harness's own allocations on other threads move the totals by a
    // hundred bytes or so (over 1,000 peers, a tenth of a byte each).
    let per_peer = (cached.saturating_sub(bare) + PEERS / 2) / PEERS;
    println!("path cache of one node: {per_peer} bytes per peer");
    assert!(per_peer <= 203 + 16 + 16, "{per_peer} bytes per peer");
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
/// from the layout. Its id in two sorted vectors of connected peers (4 bytes each, a vector at
/// most twice its entries: 16 bytes). One B-tree entry keyed by the peer's id (4 bytes): the
/// path cache's record (three vectors, 72 bytes); a leaf holds 11 keys, 11 values and 16 bytes
/// of links (856 bytes with padding), an internal node is a leaf with 12 child pointers more,
/// every node but the root is at least 5 full, so an entry costs at most (leaf + internal / 6)
/// / 5: 203 bytes. Replication has no record for it: nothing is spawned on or synced to it.
/// With the two 16-byte path-cache entries, the queues' 4 bytes a peer and the announcement
/// record (162, above): 16 + 203 + 32 + 4 + 162 = 417. (Replication's record, made for every
/// peer at its join, took 532 more: the bound was 933, 690 measured.)
#[test]
fn a_connected_peer_costs_at_most_417_bytes() {
    if crate::in_a_process_of_its_own("peer_record::a_connected_peer_costs_at_most_417_bytes") {
        return;
    }
    let _alone = crate::alone();
    let per_peer = held(true, true) / PEERS;
    println!("session memory per connected peer: {per_peer} bytes");
    assert!(per_peer <= 417, "{per_peer} bytes per peer");
}

/// What `s` holds after `PEERS` peers joined it by `join`, each drained as a serve loop does
/// (a first peer joined before the count: the queues' room and the node's ids are not
/// counted per peer).
fn held_by(mut s: Session, join: impl Fn(&mut Session, i32)) -> usize {
    join(&mut s, 3);
    while s.poll_event().is_some() {}
    while s.poll_output().is_some() {}
    let before = HEAP.current_usage();
    for peer in 4..4 + PEERS as i32 {
        join(&mut s, peer);
        while s.poll_event().is_some() {}
        while s.poll_output().is_some() {}
    }
    let held = HEAP.current_usage().saturating_sub(before);
    drop(s);
    held
}

/// A peer that joins a server (relay off: with relay on, each also has its announcement
/// record, 162 bytes, below) and does nothing is in two sorted vectors of ids, the path
/// cache's and replication's connected peers (4 bytes each, a vector at most twice its
/// entries: 8 bytes each): 16 bytes. Its records come with its first path or replicated node.
/// (The records made at the join took 519 bytes a peer, measured.)
#[test]
fn an_idle_peer_costs_a_server_at_most_16_bytes() {
    if crate::in_a_process_of_its_own("peer_record::an_idle_peer_costs_a_server_at_most_16_bytes") {
        return;
    }
    let _alone = crate::alone();
    let server = Session::server(Settings::default().with_relay(false));
    let per_peer = held_by(server, |s, peer| {
        s.connected(peer, crate::clock::at_ms(0));
    }) / PEERS;
    println!("server memory per idle peer: {per_peer} bytes");
    assert!(per_peer <= 16, "{per_peer} bytes per peer");
}

/// A server (relay off) that spawned one node spawns it on each peer that joins: the peer gets
/// replication's record, a B-tree entry keyed by its id (4 bytes) whose value is three sorted
/// vectors, a `u16` and the box of what the peer spawned here (none on a server): 88 bytes. A
/// leaf holds 11 keys (44 bytes, padded to 48), 11 values (968) and 16 bytes of links (1,032
/// bytes); an internal node adds 12 child pointers (1,128); every node but the root is at
/// least 5 full, so an entry costs at most (1,032 + 1,128 / 6) / 5 = 244 bytes. Its set of
/// spawned nodes holds one 8-byte handle. The spawner's path is sent to it (SIMPLIFY_PATH):
/// the path cache's record, a B-tree entry of three vectors (at most 203 bytes, above), with
/// one 16-byte entry (slot, confirmed). The ids of the connected peers: 16 bytes (above).
/// 244 + 8 + 203 + 16 + 16 = 487. (Every record made at the join, B-tree sets and hash maps,
/// took 640 bytes a peer, measured.)
#[test]
fn a_peer_with_one_spawned_node_costs_at_most_487_bytes() {
    if crate::in_a_process_of_its_own(
        "peer_record::a_peer_with_one_spawned_node_costs_at_most_487_bytes",
    ) {
        return;
    }
    let _alone = crate::alone();
    let mut s = Session::server(Settings::default().with_relay(false));
    s.declare_spawner(Spawner::new("World/Spawner", "World/Players").scene("res://p.tscn"));
    s.spawn("World/Spawner", SpawnScene::Index(0), "Alice", Vec::new())
        .unwrap();
    let per_peer = held_by(s, |s, peer| s.connected(peer, crate::clock::at_ms(0))) / PEERS;
    println!("server memory per peer with one spawned node: {per_peer} bytes");
    assert!(per_peer <= 487, "{per_peer} bytes per peer");
}

/// A client with relay on is told of every other client (SYS ADD_PEER); it never sends them a
/// path nor replicates to them, so each is its id in the two sorted vectors of connected
/// peers: at most 16 bytes (above). (The records made at the announcement took 519 bytes,
/// measured: 0.5 GB over a swarm of 1,000 bots.)
#[test]
fn another_client_costs_a_client_at_most_16_bytes() {
    if crate::in_a_process_of_its_own("peer_record::another_client_costs_a_client_at_most_16_bytes")
    {
        return;
    }
    let _alone = crate::alone();
    let mut client = Session::client(2, Settings::default().with_relay(true));
    client.connected(1, crate::clock::at_ms(0));
    let per_peer = held_by(client, |s, peer| {
        let mut add = Vec::new();
        wire::write_sys(&mut add, wire::SYS_ADD_PEER, peer);
        s.receive(1, 0, TransferMode::Reliable, &add);
    }) / PEERS;
    println!("client memory per other client: {per_peer} bytes");
    assert!(per_peer <= 16, "{per_peer} bytes per peer");
}
