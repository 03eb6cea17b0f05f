//! What interest management makes the session hold per peer: at most
//! `Limits::max_interest_per_peer` nodes, however many the rule would give.

use godot_serde_multiplayer::{
    InterestRule, Limits, ReplicationConfig, Session, Settings, SpawnScene, Spawner, Synchronizer,
    Variant,
};
use peak_alloc::PeakAlloc;

static HEAP: PeakAlloc = PeakAlloc;

const PEERS: i32 = 200;
const NODES: usize = 2000;

/// The heap a server holds for `PEERS` peers that all stand among `NODES` nodes (every node
/// within everyone's radius), under the limit `limit`, beside the same server whose peers have
/// no position (they see nothing); and the nodes each peer was given.
fn held(limit: usize) -> (usize, usize) {
    let settings =
        Settings::authoritative().with_limits(Limits::default().with_max_interest_per_peer(limit));
    let mut s = Session::server(settings);
    s.declare_spawner(Spawner::new("World/Spawner", "World/Units").scene("res://u.tscn"));
    s.set_interest(InterestRule::radius_2d(1000.0));
    for peer in 2..2 + PEERS {
        s.connected(peer, crate::clock::at_ms(0));
    }
    let sync = Synchronizer::new("Sync", ReplicationConfig::new().property(".:position"));
    for i in 0..NODES {
        let node = s
            .spawn(
                "World/Spawner",
                SpawnScene::Index(0),
                &format!("N{i}"),
                vec![(sync.clone(), vec![Variant::Nil])],
            )
            .unwrap();
        s.set_node_position(node, [i as f32 * 0.1, 0.0]).unwrap();
    }
    s.update_interest();
    while s.poll_output().is_some() {}
    while s.poll_event().is_some() {}
    let before = HEAP.current_usage();
    for peer in 2..2 + PEERS {
        s.set_peer_position(peer, [0.0, 0.0]);
    }
    s.update_interest();
    // The SPAWNs go out; what stays is the peers' state.
    while s.poll_output().is_some() {}
    let held = HEAP.current_usage().saturating_sub(before);
    let seen = s.interest_of(2).len();
    drop(s);
    (held, seen)
}

/// Each node in a peer's interest costs its entry in the interest (a `NodeId`, 8 bytes), in
/// the spawned nodes and in the visible synchronizers (B-tree sets: 8 bytes a key in nodes of
/// 11 keys, 2 × 8 to 2 × 16 bytes with their fill and edges): at most 48 bytes; the peer holds
/// `limit` of them whatever the rule gives (here all 2,000).
#[test]
fn a_peer_holds_at_most_its_limit() {
    let _alone = crate::alone();
    let (small, seen_small) = held(16);
    let (large, seen_large) = held(64);
    assert_eq!((seen_small, seen_large), (16, 64));
    let per_node = large.saturating_sub(small) / (PEERS as usize * (64 - 16));
    println!(
        "interest: {} bytes a peer at 16 nodes, {} at 64: {per_node} bytes a node",
        small / PEERS as usize,
        large / PEERS as usize
    );
    assert!(per_node <= 48, "{per_node} bytes a node");
    // And nothing grows with the 2,000 nodes the rule would give: 64 nodes cost no more than
    // 64 × 48 bytes and a 1 KiB allowance for the peer's own records and growth slack.
    assert!(large / PEERS as usize <= 64 * 48 + 1024, "{large}");
}
