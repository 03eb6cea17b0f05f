//! Interest management at the byte level, offline: a node entering a peer's interest is the
//! SPAWN Godot sends when a synchronizer becomes visible (`_update_spawn_visibility`), one
//! leaving it the DESPAWN, and the state (SYNC, delta SYNC) reaches the peers that see the
//! node only. Layouts derived by hand from `scene_replication_interface.cpp`
//! (`_make_spawn_packet`, `_make_despawn_packet`, `_send_sync`, `_send_delta`), as in
//! `replication.rs`; checked against the live engine in `live_interest.rs`.

use crate::replication::{le, simplify};

use godot_serde::{Real, Variant, Vector2};
use godot_serde_multiplayer::{
    InterestRule, Limits, NodeId, ReplicationConfig, ReplicationMode, Session, Settings,
    SpawnScene, Spawner, Synchronizer, TransferMode,
};

/// The packets queued, peer by peer (each peer's in their order: what reaches a peer; the
/// order between two peers' queues is not on any wire).
fn outputs(s: &mut Session) -> Vec<(i32, TransferMode, Vec<u8>)> {
    let mut v = crate::replication::outputs(s);
    v.sort_by_key(|(to, _, _)| *to);
    v
}

/// position (ALWAYS, spawned) and rotation (ON_CHANGE, not spawned).
fn unit() -> Synchronizer {
    Synchronizer::new(
        "Sync",
        ReplicationConfig::new().property(".:position").with(
            ".:rotation",
            false,
            ReplicationMode::OnChange,
        ),
    )
}

fn state(x: f32, rot: f64) -> Vec<Variant> {
    vec![
        Variant::Vector2(Vector2::new(Real::from(x), 2.0)),
        Variant::Float(rot),
    ]
}

/// Spawns `name` (scene 0) with the one synchronizer `sync` of [`unit`], its state at
/// (0, 2) with rotation `rot`.
fn spawn_unit(s: &mut Session, name: &str, sync: Synchronizer, rot: f64) -> NodeId {
    s.spawn(
        "World/Spawner",
        SpawnScene::Index(0),
        name,
        vec![(sync, state(0.0, rot))],
    )
    .unwrap()
}

/// Vector2(x, 2): type 5, then two f32.
fn vec2(x: f32) -> Vec<u8> {
    let mut v = vec![5, 0, 0, 0];
    v.extend_from_slice(&x.to_le_bytes());
    v.extend_from_slice(&2.0f32.to_le_bytes());
    v
}

/// SPAWN of `name` (scene 0, spawner cache id 1) with node net id `net`, one synchronizer
/// `net + 1`, its spawn state the position Vector2(x, 2).
fn spawn_packet(name: &str, net: u32, x: f32) -> Vec<u8> {
    let mut want = vec![4, 0];
    want.extend(le(1)); // spawner cache id
    want.extend(le(net)); // node net id
    want.extend(le(1)); // one synchronizer
    want.extend(le(name.len() as u32 + 1)); // name and its NUL
    want.extend(le(net + 1)); // the synchronizer's net id
    want.extend(name.as_bytes());
    want.push(0);
    want.extend(vec2(x));
    want
}

fn despawn_packet(net: u32) -> Vec<u8> {
    let mut v = vec![5];
    v.extend(le(net));
    v
}

/// SYNC (unreliable): command 6, the peer's network time (u16), then per synchronizer its net
/// id, the state's size and the state (the position only: the one ALWAYS property).
fn sync_packet(time: u16, entries: &[(u32, f32)]) -> Vec<u8> {
    let mut v = vec![6];
    v.extend(time.to_le_bytes());
    for &(net, x) in entries {
        v.extend(le(net));
        v.extend(le(12));
        v.extend(vec2(x));
    }
    v
}

/// Delta SYNC (reliable): 0x16 (SYNC with flag 0), net id, the changed indexes (u64), the
/// size, then rotation as a float (type 3, f32 since it fits).
fn delta_packet(net: u32, rot: f32) -> Vec<u8> {
    let mut v = vec![0x16];
    v.extend(le(net));
    v.extend(1u64.to_le_bytes());
    v.extend(le(8));
    v.extend([3, 0, 0, 0]);
    v.extend(rot.to_le_bytes());
    v
}

fn server(limits: Limits) -> Session {
    let mut s = Session::server(Settings::default().with_limits(limits));
    s.declare_spawner(Spawner::new("/root/World/Spawner", "World/Units").scene("res://u.tscn"));
    s.connected(2, crate::clock::at_ms(0));
    s.connected(3, crate::clock::at_ms(0));
    s
}

#[test]
fn entering_spawns_leaving_despawns_and_state_follows_interest() {
    let mut s = server(Limits::default());
    s.set_interest(InterestRule::radius_2d(10.0));
    let node = spawn_unit(&mut s, "A", unit(), 0.5);
    // No position yet: nobody sees it, nothing is sent.
    assert_eq!(outputs(&mut s), []);
    s.set_node_position(node, [0.0, 0.0]).unwrap();
    s.set_peer_position(2, [6.0, 8.0]); // distance 10: within (the radius is inclusive)
    s.set_peer_position(3, [10.0, 1.0]); // distance 10.05: outside
    s.handle_timeout(crate::clock::at_ms(10));
    let out = outputs(&mut s);
    // Peer 2: the spawner's path, the SPAWN (node net id 1, synchronizer 2), then in the same
    // frame the SYNC (time 1) and the delta with every watched property (its first).
    assert_eq!(
        out,
        [
            (2, TransferMode::Reliable, simplify(1, "World/Spawner")),
            (2, TransferMode::Reliable, spawn_packet("A", 1, 0.0)),
            (2, TransferMode::Unreliable, sync_packet(1, &[(2, 0.0)])),
            (2, TransferMode::Reliable, delta_packet(2, 0.5)),
        ]
    );
    assert_eq!(s.interest_of(2), [node]);
    assert_eq!(s.interest_of(3), []);

    // The node moves away from peer 2 and near peer 3: DESPAWN on 2, SPAWN on 3 (its path
    // first), and the state goes to 3 alone (its network time starts at 1).
    let sid = s.node_synchronizers(node)[0];
    s.set_state(sid, state(20.0, 0.5)).unwrap();
    s.set_node_position(node, [18.0, 0.0]).unwrap(); // 14.4 from peer 2, 8.1 from peer 3
    s.handle_timeout(crate::clock::at_ms(20));
    assert_eq!(
        outputs(&mut s),
        [
            (2, TransferMode::Reliable, despawn_packet(1)),
            (3, TransferMode::Reliable, simplify(1, "World/Spawner")),
            (3, TransferMode::Reliable, spawn_packet("A", 1, 20.0)),
            (3, TransferMode::Unreliable, sync_packet(1, &[(2, 20.0)])),
            (3, TransferMode::Reliable, delta_packet(2, 0.5)),
        ]
    );

    // Peer 2 moves to it: the spawn again, with the same net ids (the engine keeps them), and
    // the delta again in full (its delta time was forgotten with its visibility); peer 2's
    // network time goes on from 1.
    s.set_peer_position(2, [25.0, 0.0]);
    s.handle_timeout(crate::clock::at_ms(30));
    assert_eq!(
        outputs(&mut s),
        [
            (2, TransferMode::Reliable, spawn_packet("A", 1, 20.0)),
            (2, TransferMode::Unreliable, sync_packet(2, &[(2, 20.0)])),
            (2, TransferMode::Reliable, delta_packet(2, 0.5)),
            (3, TransferMode::Unreliable, sync_packet(2, &[(2, 20.0)])),
        ]
    );
    assert_eq!(s.spawned_on(node).into_iter().collect::<Vec<_>>(), [2, 3]);
}

#[test]
fn the_engines_visibility_still_gates_and_the_authority_always_sees() {
    let mut s = server(Limits::default());
    s.set_interest(InterestRule::radius_2d(10.0));
    // Not public: interest alone does not spawn it.
    let hidden = spawn_unit(&mut s, "Hidden", unit().with_public(false), 0.0);
    // Owned by peer 3 (a client-owned synchronizer besides the server's): 3 sees it anywhere.
    let owned = s
        .spawn(
            "World/Spawner",
            SpawnScene::Index(0),
            "Owned",
            vec![
                (unit(), state(0.0, 0.0)),
                (
                    Synchronizer::new("Input", ReplicationConfig::new().property(".:dir"))
                        .with_authority(3),
                    vec![Variant::Nil],
                ),
            ],
        )
        .unwrap();
    assert_eq!(s.spawned_on(owned).into_iter().collect::<Vec<_>>(), [3]);
    s.set_node_position(hidden, [0.0, 0.0]).unwrap();
    s.set_node_position(owned, [500.0, 0.0]).unwrap();
    s.set_peer_position(2, [0.0, 0.0]);
    s.set_peer_position(3, [0.0, 0.0]);
    s.update_interest();
    assert!(s.spawned_on(hidden).is_empty());
    assert_eq!(s.spawned_on(owned).into_iter().collect::<Vec<_>>(), [3]);
    // ... and gets its state: the server's synchronizer of the node (net id 2: the node is 1),
    // position (0, 2) as spawned, in peer 3's first SYNC (time 1).
    outputs(&mut s);
    s.handle_timeout(crate::clock::at_ms(10));
    let syncs: Vec<_> = outputs(&mut s)
        .into_iter()
        .filter(|(_, mode, _)| *mode == TransferMode::Unreliable)
        .collect();
    assert_eq!(
        syncs,
        [(3, TransferMode::Unreliable, sync_packet(1, &[(2, 0.0)]))]
    );
    // `set_visibility_for(2)`: now both the engine and the interest agree for 2 only.
    let sid = s.node_synchronizers(hidden)[0];
    s.set_visibility_for(sid, 2, true).unwrap();
    assert_eq!(s.spawned_on(hidden).into_iter().collect::<Vec<_>>(), [2]);
    // Out of peer 2's radius: despawned although the engine's visibility allows it.
    s.set_peer_position(2, [100.0, 0.0]);
    s.update_interest();
    assert!(s.spawned_on(hidden).is_empty());
    // Without the rule, the engine's visibility alone: peer 2 (set_visibility_for) and the
    // public one on both.
    s.clear_interest();
    assert_eq!(s.spawned_on(hidden).into_iter().collect::<Vec<_>>(), [2]);
    assert_eq!(s.spawned_on(owned).into_iter().collect::<Vec<_>>(), [2, 3]);
}

#[test]
fn a_peer_sees_its_nearest_up_to_the_limit_and_its_focus() {
    let mut s = server(Limits::default().with_max_interest_per_peer(2));
    s.set_interest(InterestRule::radius_3d(100.0));
    let mut nodes = Vec::new();
    // Nodes at z = 50, 10, 40, 20, 30 from peer 2 at the origin: the nearest two are the
    // second (10) and the fourth (20).
    for (i, z) in [50.0, 10.0, 40.0, 20.0, 30.0].into_iter().enumerate() {
        let n = spawn_unit(&mut s, &format!("N{i}"), unit(), 0.0);
        s.set_node_position(n, [0.0, 0.0, z]).unwrap();
        nodes.push(n);
    }
    s.set_peer_position(2, [0.0, 0.0, 0.0]);
    s.update_interest();
    assert_eq!(s.interest_of(2), [nodes[1], nodes[3]]);
    let seen: Vec<_> = nodes
        .iter()
        .map(|&n| s.spawned_on(n).contains(&2))
        .collect();
    assert_eq!(seen, [false, true, false, true, false]);
    // Focus on the farthest: it is seen at once, and it is where the peer is now (z = 50).
    s.set_peer_focus(2, Some(nodes[0]));
    assert!(s.spawned_on(nodes[0]).contains(&2));
    s.update_interest();
    let seen: Vec<_> = nodes
        .iter()
        .map(|&n| s.spawned_on(n).contains(&2))
        .collect();
    assert_eq!(seen, [true, false, true, false, false]);
    // From z = 50 the nearest two are the focus itself (distance 0) and the one at 40 (10).
    assert_eq!(s.interest_of(2), [nodes[0], nodes[2]]);
}

#[test]
fn groups_and_callback_rules() {
    let mut s = server(Limits::default());
    let mut nodes = Vec::new();
    for name in ["Red", "Blue"] {
        nodes.push(spawn_unit(&mut s, name, unit(), 0.0));
    }
    // Without a rule both peers have both.
    assert_eq!(s.spawned_on(nodes[0]).len(), 2);
    s.set_interest(InterestRule::groups());
    // A rule, no groups yet: both despawned on both, at once.
    assert!(s.spawned_on(nodes[0]).is_empty() && s.spawned_on(nodes[1]).is_empty());
    s.add_node_to_group(nodes[0], "red").unwrap();
    s.add_node_to_group(nodes[1], "blue").unwrap();
    s.add_peer_to_group(2, "red");
    s.add_peer_to_group(3, "red");
    s.add_peer_to_group(3, "blue");
    s.update_interest();
    assert_eq!(
        s.spawned_on(nodes[0]).into_iter().collect::<Vec<_>>(),
        [2, 3]
    );
    assert_eq!(s.spawned_on(nodes[1]).into_iter().collect::<Vec<_>>(), [3]);
    s.remove_peer_from_group(3, "red");
    s.update_interest();
    assert_eq!(s.spawned_on(nodes[0]).into_iter().collect::<Vec<_>>(), [2]);

    // A callback: peer 3 sees the second node only.
    let blue = nodes[1];
    s.set_interest(InterestRule::callback(move |peer, node| {
        peer == 3 && node == blue
    }));
    assert!(s.spawned_on(nodes[0]).is_empty());
    assert_eq!(s.spawned_on(nodes[1]).into_iter().collect::<Vec<_>>(), [3]);
}

#[test]
fn the_interval_schedules_updates_and_poll_timeout_says_when() {
    let mut s = server(Limits::default());
    s.set_interest(InterestRule::radius_2d(10.0).with_interval(0.1));
    let node = s
        .spawn("World/Spawner", SpawnScene::Index(0), "A", vec![])
        .unwrap();
    s.set_node_position(node, [0.0, 0.0]).unwrap();
    s.set_peer_position(2, [0.0, 0.0]);
    // The session's clock counts microseconds from 1 at its first instant (the connections at
    // 0 ms): the first update is due at its 100,000 µs, 99,999 µs after that instant.
    assert_eq!(s.poll_timeout(), Some(crate::clock::at_us(99_999)));
    s.handle_timeout(crate::clock::at_ms(99));
    assert!(s.spawned_on(node).is_empty());
    s.handle_timeout(crate::clock::at_ms(100));
    assert_eq!(s.spawned_on(node).into_iter().collect::<Vec<_>>(), [2]);
    assert_eq!(s.poll_timeout(), Some(crate::clock::at_ms(200)));
}

#[test]
fn interest_state_goes_with_its_peer_and_its_node() {
    let mut s = server(Limits::default());
    s.set_interest(InterestRule::radius_2d(10.0));
    let node = spawn_unit(&mut s, "A", unit(), 0.0);
    s.set_node_position(node, [0.0, 0.0]).unwrap();
    s.set_peer_position(2, [0.0, 0.0]);
    s.set_peer_position(3, [1.0, 0.0]);
    s.add_node_to_group(node, "g").unwrap();
    s.update_interest();
    // One synchronizer, one node; per peer 4 entries (the spawned node, the visible
    // synchronizer, its interest record and the node in it), and the node's interest record.
    assert_eq!(s.replication_footprint(), (1, 1, 9));
    s.disconnected(3);
    assert_eq!(s.replication_footprint(), (1, 1, 5));
    s.despawn(node).unwrap();
    // The node's record goes with it; peer 2's stale entry with the next update.
    s.update_interest();
    assert_eq!(s.replication_footprint(), (0, 0, 1));
    // Unknown nodes are our error, never a panic; unknown peers are ignored.
    assert!(s.set_node_position(node, [0.0, 0.0]).is_err());
    assert!(s.add_node_to_group(node, "g").is_err());
    s.set_peer_position(99, [0.0, 0.0]);
    s.set_peer_focus(99, Some(node));
    assert_eq!(s.interest_of(99), []);
}

/// Interest is the server's: a rule set on a client changes nothing, so a client's own
/// synchronizer in a node the server spawned (here the node's only one) still reaches the
/// server: its path is announced (SIMPLIFY_PATH, then the state once confirmed).
#[test]
fn a_rule_on_a_client_leaves_its_own_state_alone() {
    let input =
        Synchronizer::new("Input", ReplicationConfig::new().property(".:skew")).with_authority(5);
    let mut c = Session::client(5, Settings::default());
    c.declare_spawner(
        Spawner::new("World/Spawner", "World/Units")
            .scene("res://u.tscn")
            .synchronizer(input),
    );
    c.set_interest(InterestRule::radius_2d(10.0));
    c.connected(1, crate::clock::at_ms(0));
    c.receive(1, 0, TransferMode::Reliable, &simplify(1, "World/Spawner"));
    // SPAWN of "A" (net id 1) with no synchronizer of the server's and no spawn state.
    let mut spawn = vec![4, 0];
    spawn.extend(le(1));
    spawn.extend(le(1));
    spawn.extend(le(0));
    spawn.extend(le(2));
    spawn.extend(b"A\0");
    c.receive(1, 0, TransferMode::Reliable, &spawn);
    outputs(&mut c);
    c.handle_timeout(crate::clock::at_ms(10));
    assert_eq!(
        outputs(&mut c),
        [(
            1,
            TransferMode::Reliable,
            simplify(1, "World/Units/A/Input")
        )]
    );
}

/// `poll_timeout` names a synchronizer's next SYNC while some peer sees it, and forgets it
/// when none does: the peers seeing it are counted as they come and go.
#[test]
fn poll_timeout_follows_who_sees_a_synchronizer() {
    let mut s = server(Limits::default());
    s.set_interest(InterestRule::radius_2d(10.0));
    let node = spawn_unit(&mut s, "A", unit().with_interval(0.5), 0.0);
    s.set_node_position(node, [0.0, 0.0]).unwrap();
    // Nobody near: no deadline (the rule's interval is 0: every frame, no deadline either).
    s.update_interest();
    assert_eq!(s.poll_timeout(), None);
    // Peers 2 and 3 near: its first SYNC is due 500,000 µs into the session's clock.
    s.set_peer_position(2, [0.0, 0.0]);
    s.set_peer_position(3, [1.0, 0.0]);
    s.update_interest();
    assert_eq!(s.poll_timeout(), Some(crate::clock::at_us(499_999)));
    // One leaves the radius, one disconnects: nobody sees it, no deadline.
    s.set_peer_position(2, [100.0, 0.0]);
    s.update_interest();
    assert_eq!(s.poll_timeout(), Some(crate::clock::at_us(499_999)));
    s.disconnected(3);
    assert_eq!(s.poll_timeout(), None);
    // Back in view.
    s.set_peer_position(2, [0.0, 0.0]);
    s.update_interest();
    assert_eq!(s.poll_timeout(), Some(crate::clock::at_us(499_999)));
}
