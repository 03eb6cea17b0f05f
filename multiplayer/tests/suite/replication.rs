//! Replication (SPAWN, DESPAWN, SYNC, delta SYNC) at the byte level, offline: layouts derived by
//! hand from `scene_replication_interface.cpp` (and checked against the live engine in
//! `tests/suite/live_replication.rs`), the schedule, visibility, client-owned state, hostile peers.

use godot_serde::{Real, Variant, Vector2};
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::{
    Event, Output, ProtocolError, ReplicationConfig, ReplicationMode, Session, Settings,
    SpawnScene, Spawner, Synchronizer, TransferMode,
};
use serde::{Deserialize, Serialize};

/// MD5 of no RPC names (a spawner or synchronizer without `@rpc` methods).
pub(crate) const EMPTY_MD5: &[u8] = b"d41d8cd98f00b204e9800998ecf8427e";

/// The packets queued, in their order (SYS packets aside); `interest.rs` shares it.
pub(crate) fn outputs(s: &mut Session) -> Vec<(i32, TransferMode, Vec<u8>)> {
    let mut v = Vec::new();
    while let Some(o) = s.poll_output() {
        // SYS packets (the relay's ADD_PEER) aside.
        if let Output::Packet { to, mode, data, .. } = o {
            if data.first() != Some(&7) {
                v.push((to, mode, data));
            }
        }
    }
    v
}

fn errors(s: &mut Session) -> Vec<ProtocolError> {
    let mut v = Vec::new();
    while let Some(e) = s.poll_event() {
        if let Event::Error { error, .. } = e {
            v.push(error);
        }
    }
    v
}

/// SIMPLIFY_PATH: command 1, the MD5, a 0 byte, the cache id, the path and its NUL.
pub(crate) fn simplify(id: u32, path: &str) -> Vec<u8> {
    let mut p = vec![1];
    p.extend_from_slice(EMPTY_MD5);
    p.push(0);
    p.extend_from_slice(&id.to_le_bytes());
    p.extend_from_slice(path.as_bytes());
    p.push(0);
    p
}

pub(crate) fn le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

fn player() -> Synchronizer {
    Synchronizer::new(
        "Sync",
        ReplicationConfig::new()
            .property(".:position")
            .with(".:hp", true, ReplicationMode::Never)
            .with(".:rotation", false, ReplicationMode::OnChange),
    )
}

fn player_state(x: f32, hp: i64, rot: f64) -> Vec<Variant> {
    vec![
        Variant::Vector2(Vector2::new(Real::from(x), 2.0)),
        Variant::Int(hp),
        Variant::Float(rot),
    ]
}

/// Vector2(x, 2): type 5, then two f32.
fn vec2(x: f32) -> Vec<u8> {
    let mut v = vec![5, 0, 0, 0];
    v.extend_from_slice(&x.to_le_bytes());
    v.extend_from_slice(&2.0f32.to_le_bytes());
    v
}

fn server() -> Session {
    let mut s = Session::server(Settings::default());
    s.declare_spawner(Spawner::new("/root/World/Spawner", "World/Players").scene("res://p.tscn"));
    s
}

#[test]
fn spawn_writes_the_engines_layout() {
    let mut s = server();
    s.connected(2, crate::clock::at_ms(0));
    errors(&mut s);
    let node = s
        .spawn(
            "World/Spawner",
            SpawnScene::Index(0),
            "Alice",
            vec![(player(), player_state(1.0, 5, 0.5))],
        )
        .unwrap();
    let out = outputs(&mut s);
    assert_eq!(out.len(), 2);
    // The spawner's path first (cache id 1), then the SPAWN on the same reliable channel.
    assert_eq!(
        out[0],
        (2, TransferMode::Reliable, simplify(1, "World/Spawner"))
    );
    let mut want = vec![4, 0];
    want.extend(le(1)); // spawner cache id
    want.extend(le(1)); // node net id: ++last_net_id
    want.extend(le(1)); // one synchronizer
    want.extend(le(6)); // "Alice" and its NUL
    want.extend(le(2)); // the synchronizer's net id
    want.extend(b"Alice\0");
    // Spawn properties: position and hp (rotation is not spawned); hp as a compressed int.
    want.extend(vec2(1.0));
    want.extend([2, 5]);
    assert_eq!(out[1], (2, TransferMode::Reliable, want));
    assert_eq!(s.node_net_id(node), Some(1));
    assert_eq!(s.spawned_on(node).into_iter().collect::<Vec<_>>(), [2]);

    // DESPAWN: command and net id.
    s.despawn(node).unwrap();
    assert_eq!(
        outputs(&mut s),
        [(2, TransferMode::Reliable, vec![5, 1, 0, 0, 0])]
    );
    assert_eq!(s.replication_footprint(), (0, 0, 0));
}

#[test]
fn custom_spawn_carries_its_argument() {
    let mut s = server();
    s.connected(2, crate::clock::at_ms(0));
    s.spawn(
        "World/Spawner",
        SpawnScene::Custom(Variant::Int(300)),
        "Bob",
        vec![],
    )
    .unwrap();
    let out = outputs(&mut s);
    let mut want = vec![4, 0xFF];
    want.extend(le(1));
    want.extend(le(1));
    want.extend(le(0));
    want.extend(le(4));
    want.extend(b"Bob\0");
    // Argument size, then 300 as a 16-bit compressed int (meta 2 | 1 << 6).
    want.extend(le(3));
    want.extend([0x42, 0x2C, 0x01]);
    assert_eq!(out[1].2, want);
}

#[test]
fn full_and_delta_sync_on_the_engines_schedule() {
    let mut s = server();
    s.connected(2, crate::clock::at_ms(0));
    let sync = player().with_interval(0.1);
    let node = s
        .spawn(
            "World/Spawner",
            SpawnScene::Index(0),
            "A",
            vec![(sync, player_state(1.0, 5, 0.5))],
        )
        .unwrap();
    let sid = s.node_synchronizers(node)[0];
    outputs(&mut s);
    // The engine's clock starts at its launch; a synchronizer with an interval first sends
    // once the interval has passed since time 0.
    s.handle_timeout(crate::clock::at_us(200_000));
    let out = outputs(&mut s);
    // SYNC (unreliable): time 1, net id 2, position only (the one ALWAYS property).
    let mut sync1 = vec![6, 1, 0];
    sync1.extend(le(2));
    sync1.extend(le(12));
    sync1.extend(vec2(1.0));
    // Delta (reliable): every watched property the first time: bit 0, rotation 0.5 as a float.
    let mut delta1 = vec![0x16];
    delta1.extend(le(2));
    delta1.extend(1u64.to_le_bytes());
    delta1.extend(le(8));
    delta1.extend([3, 0, 0, 0]);
    delta1.extend(0.5f32.to_le_bytes());
    assert_eq!(
        out,
        [
            (2, TransferMode::Unreliable, sync1),
            (2, TransferMode::Reliable, delta1)
        ]
    );
    // 50 ms later: within the 100 ms interval, no SYNC; nothing changed, no delta.
    s.set_state(sid, player_state(9.0, 5, 0.5)).unwrap();
    s.handle_timeout(crate::clock::at_us(250_000));
    assert_eq!(outputs(&mut s), []);
    // 101 ms: the SYNC carries the network time 3 (it counts frames, not packets).
    s.set_state(sid, player_state(9.0, 5, 1.25)).unwrap();
    s.handle_timeout(crate::clock::at_us(301_000));
    let out = outputs(&mut s);
    let mut sync3 = vec![6, 3, 0];
    sync3.extend(le(2));
    sync3.extend(le(12));
    sync3.extend(vec2(9.0));
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].2, sync3);
    // 1.25 is exact in f32, so it is written as a 32-bit float like 0.5.
    let mut want = vec![0x16];
    want.extend(le(2));
    want.extend(1u64.to_le_bytes());
    want.extend(le(8));
    want.extend([3, 0, 0, 0]);
    want.extend(1.25f32.to_le_bytes());
    assert_eq!(out[1], (2, TransferMode::Reliable, want));
}

#[test]
fn visibility_spawns_and_despawns_per_peer() {
    let mut s = server();
    s.connected(2, crate::clock::at_ms(0));
    s.connected(3, crate::clock::at_ms(0));
    let node = s
        .spawn(
            "World/Spawner",
            SpawnScene::Index(0),
            "Hidden",
            vec![(player().with_public(false), player_state(1.0, 5, 0.5))],
        )
        .unwrap();
    assert_eq!(outputs(&mut s), [], "visible to nobody");
    let sid = s.node_synchronizers(node)[0];
    s.handle_timeout(crate::clock::at_us(1_000));
    assert_eq!(outputs(&mut s), [], "no state for peers that cannot see it");
    s.set_visibility_for(sid, 3, true).unwrap();
    let out = outputs(&mut s);
    assert_eq!(
        out.iter().map(|o| (o.0, o.2[0])).collect::<Vec<_>>(),
        [(3, 1), (3, 4)]
    );
    s.handle_timeout(crate::clock::at_us(2_000));
    assert!(outputs(&mut s).iter().all(|o| o.0 == 3));
    s.set_visibility_for(sid, 3, false).unwrap();
    assert_eq!(
        outputs(&mut s),
        [(3, TransferMode::Reliable, vec![5, 1, 0, 0, 0])]
    );
    // A peer that joins later gets the public nodes when it joins.
    s.set_visibility_for(sid, 0, true).unwrap();
    outputs(&mut s);
    s.connected(4, crate::clock::at_ms(0));
    let out = outputs(&mut s);
    assert_eq!(
        out.iter().map(|o| (o.0, o.2[0])).collect::<Vec<_>>(),
        [(4, 1), (4, 4)]
    );
}

#[test]
fn unspawned_synchronizers_use_confirmed_path_ids() {
    let mut s = server();
    let cfg = ReplicationConfig::new().property(".:score");
    let sid = s
        .declare_synchronizer(Synchronizer::new("World/Score", cfg), vec![Variant::Int(7)])
        .unwrap();
    s.connected(2, crate::clock::at_ms(0));
    s.handle_timeout(crate::clock::at_us(1_000));
    // SIMPLIFY_PATH first; no state until the peer confirms.
    assert_eq!(
        outputs(&mut s),
        [(2, TransferMode::Reliable, simplify(1, "World/Score"))]
    );
    s.receive(2, 0, TransferMode::Reliable, &[2, 1, 1, 0, 0, 0]);
    assert_eq!(errors(&mut s), []);
    s.handle_timeout(crate::clock::at_us(2_000));
    let mut want = vec![6, 2, 0];
    want.extend(le(0x8000_0001));
    want.extend(le(2));
    want.extend([2, 7]);
    assert_eq!(outputs(&mut s), [(2, TransferMode::Unreliable, want)]);
    s.set_state(sid, vec![Variant::Int(8)]).unwrap();
    assert_eq!(s.state(sid), Some(&[Variant::Int(8)][..]));
}

#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct Aim {
    direction: Vector2,
    #[serde(rename = "Gun:firing")]
    firing: bool,
}

#[test]
fn client_owned_state_arrives_typed() {
    let mut s = server();
    let cfg = ReplicationConfig::for_struct::<Aim>(ReplicationMode::Always).unwrap();
    assert_eq!(
        cfg.properties()
            .iter()
            .map(|p| p.path.as_str())
            .collect::<Vec<_>>(),
        [".:direction", "Gun:firing"]
    );
    let sid = s
        .declare_synchronizer(
            Synchronizer::new("World/Aim", cfg).with_authority(2),
            vec![Variant::Vector2(Vector2::default()), Variant::Bool(false)],
        )
        .unwrap();
    s.connected(2, crate::clock::at_ms(0));
    s.connected(3, crate::clock::at_ms(0));
    errors(&mut s);
    s.handle_timeout(crate::clock::at_us(1_000));
    assert_eq!(outputs(&mut s), [], "we do not send what a client owns");
    // Peer 2 names its synchronizer by path (id 9), we confirm with a valid checksum.
    s.receive(2, 0, TransferMode::Reliable, &simplify(9, "World/Aim"));
    assert_eq!(
        outputs(&mut s),
        [(2, TransferMode::Reliable, vec![2, 1, 9, 0, 0, 0])]
    );
    let sync = |time: u16, x: f32, firing: bool| {
        let mut p = vec![6];
        p.extend(time.to_le_bytes());
        p.extend(le(0x8000_0009));
        p.extend(le(13));
        p.extend(vec2(x));
        p.push(if firing { 0x81 } else { 1 });
        p
    };
    s.receive(2, 0, TransferMode::Unreliable, &sync(5, 3.0, true));
    let events: Vec<Event> = std::iter::from_fn(|| s.poll_event()).collect();
    assert!(
        matches!(
            events.as_slice(),
            [Event::Synchronized {
                from: 2,
                delta: false,
                ..
            }]
        ),
        "{events:?}"
    );
    assert_eq!(
        s.state_as::<Aim>(sid).unwrap(),
        Aim {
            direction: Vector2::new(3.0, 2.0),
            firing: true
        }
    );
    // An older network time is dropped, as `update_inbound_sync_time` drops it.
    s.receive(2, 0, TransferMode::Unreliable, &sync(4, 8.0, false));
    assert_eq!(std::iter::from_fn(|| s.poll_event()).count(), 0);
    assert!(s.state_as::<Aim>(sid).unwrap().firing);
    // Peer 3 is not the authority.
    s.receive(3, 0, TransferMode::Reliable, &simplify(9, "World/Aim"));
    outputs(&mut s);
    s.receive(3, 0, TransferMode::Unreliable, &sync(6, 8.0, false));
    assert!(matches!(
        errors(&mut s).as_slice(),
        [ProtocolError::NotAuthority {
            peer: 3,
            command: "SYNC",
            authority: 2,
            ..
        }]
    ));
    assert!(s.state_as::<Aim>(sid).unwrap().firing);
}

#[test]
fn clients_cannot_spawn_or_despawn() {
    let mut s = server();
    s.connected(2, crate::clock::at_ms(0));
    // A client names our spawner and spawns in it: its authority is the server.
    s.receive(2, 0, TransferMode::Reliable, &simplify(4, "World/Spawner"));
    outputs(&mut s);
    let mut spawn = vec![4, 0];
    spawn.extend(le(4));
    spawn.extend(le(1));
    spawn.extend(le(0));
    spawn.extend(le(2));
    spawn.extend(b"X\0");
    s.receive(2, 0, TransferMode::Reliable, &spawn);
    spawn[2] = 5; // an id it never announced
    s.receive(2, 0, TransferMode::Reliable, &spawn);
    s.receive(2, 0, TransferMode::Reliable, &[5, 1, 0, 0, 0]);
    assert_eq!(
        errors(&mut s),
        [
            ProtocolError::NotAuthority {
                peer: 2,
                command: "SPAWN",
                path: "World/Spawner".into(),
                authority: 1
            },
            ProtocolError::UnknownCacheId { peer: 2, id: 5 },
            ProtocolError::UnknownNetId { peer: 2, net_id: 1 },
        ]
    );
    assert_eq!(outputs(&mut s), []);
}

#[test]
fn forged_sizes_and_counts_are_refused_without_allocating() {
    let mut s = server();
    s.connected(2, crate::clock::at_ms(0));
    // SPAWN announcing 2^30 synchronizer ids and a 4 GiB name in a 22-byte packet.
    let mut spawn = vec![4, 0];
    spawn.extend(le(1));
    spawn.extend(le(1));
    spawn.extend(le(0x4000_0000));
    spawn.extend(le(u32::MAX));
    spawn.extend(b"abc\0");
    s.receive(2, 0, TransferMode::Reliable, &spawn);
    // A name that is not a node name.
    let mut bad_name = vec![4, 0];
    bad_name.extend(le(1));
    bad_name.extend(le(1));
    bad_name.extend(le(0));
    bad_name.extend(le(4));
    bad_name.extend(b"a/b\0");
    s.receive(2, 0, TransferMode::Reliable, &bad_name);
    // SYNC entry of 1 GiB.
    let mut sync = vec![6, 1, 0];
    sync.extend(le(0x8000_0001));
    sync.extend(le(0x4000_0000));
    sync.extend([0, 0, 0]);
    s.receive(2, 0, TransferMode::Unreliable, &sync);
    let errs = errors(&mut s);
    assert!(
        matches!(
            errs[0],
            ProtocolError::Invalid {
                what: "SPAWN sizes",
                offset: 10,
                ..
            }
        ),
        "{errs:?}"
    );
    assert!(
        matches!(
            errs[1],
            ProtocolError::Invalid {
                what: "spawn name",
                offset: 19,
                ..
            }
        ),
        "{errs:?}"
    );
    assert!(
        matches!(
            errs[2],
            ProtocolError::Invalid {
                what: "SYNC entry size",
                offset: 7,
                ..
            }
        ),
        "{errs:?}"
    );
    assert_eq!(errs.len(), 3);
}

#[test]
fn forged_delta_indexes_and_sizes_are_refused() {
    let mut s = server();
    let cfg = ReplicationConfig::new().with(".:hp", true, ReplicationMode::OnChange);
    let sid = s
        .declare_synchronizer(
            Synchronizer::new("World/Hp", cfg).with_authority(2),
            vec![Variant::Int(1)],
        )
        .unwrap();
    s.connected(2, crate::clock::at_ms(0));
    errors(&mut s);
    s.receive(2, 0, TransferMode::Reliable, &simplify(3, "World/Hp"));
    outputs(&mut s);
    let delta = |bits: u64, body: &[u8]| {
        let mut p = vec![0x16];
        p.extend(le(0x8000_0003));
        p.extend(bits.to_le_bytes());
        p.extend(le(body.len() as u32));
        p.extend(body);
        p
    };
    s.receive(2, 0, TransferMode::Reliable, &delta(1, &[2, 9]));
    assert!(matches!(
        std::iter::from_fn(|| s.poll_event())
            .collect::<Vec<_>>()
            .as_slice(),
        [Event::Synchronized { delta: true, .. }]
    ));
    assert_eq!(s.state(sid), Some(&[Variant::Int(9)][..]));
    // Bit 1 names no watched property; a size larger than the values; a truncated value.
    s.receive(2, 0, TransferMode::Reliable, &delta(2, &[2, 9]));
    s.receive(2, 0, TransferMode::Reliable, &delta(1, &[2, 9, 0]));
    s.receive(2, 0, TransferMode::Reliable, &delta(1, &[2 | 3 << 6, 9]));
    let errs = errors(&mut s);
    assert!(
        matches!(
            errs[0],
            ProtocolError::Invalid {
                what: "delta indexes",
                offset: 5,
                ..
            }
        ),
        "{errs:?}"
    );
    assert!(
        matches!(
            errs[1],
            ProtocolError::Invalid {
                what: "delta size",
                offset: 13,
                ..
            }
        ),
        "{errs:?}"
    );
    assert!(
        matches!(
            errs[2],
            ProtocolError::Argument {
                index: 0,
                offset: 17,
                ..
            }
        ),
        "{errs:?}"
    );
    assert_eq!(s.state(sid), Some(&[Variant::Int(9)][..]));
}

#[test]
fn spawn_and_despawn_forever_holds_no_memory() {
    let mut s = server();
    s.connected(2, crate::clock::at_ms(0));
    for i in 0..2000 {
        let input = Synchronizer::new("Input", ReplicationConfig::new().property(".:skew"))
            .with_authority(2);
        let node = s
            .spawn(
                "World/Spawner",
                SpawnScene::Index(0),
                &format!("P{i}"),
                vec![
                    (player(), player_state(1.0, 5, 0.5)),
                    (input, vec![Variant::Float(0.0)]),
                ],
            )
            .unwrap();
        // The client names its input by path each time.
        s.receive(
            2,
            0,
            TransferMode::Reliable,
            &simplify(100 + i, &format!("World/Players/P{i}/Input")),
        );
        s.handle_timeout(crate::clock::at_us(u64::from(i) * 1000 + 1));
        s.despawn(node).unwrap();
        outputs(&mut s);
        assert_eq!(errors(&mut s), []);
    }
    assert_eq!(s.replication_footprint(), (0, 0, 0));
}

#[test]
fn our_calls_are_checked() {
    let mut s = server();
    let err = |r: Result<_, ProtocolError>| r.map(|_| ()).unwrap_err().to_string();
    assert!(err(s.spawn("Nope", SpawnScene::Index(0), "A", vec![])).contains("no spawner"));
    assert!(
        err(s.spawn("World/Spawner", SpawnScene::Index(1), "A", vec![])).contains("1 spawnable")
    );
    assert!(
        err(s.spawn("World/Spawner", SpawnScene::Index(0), "a.b", vec![]))
            .contains("valid node name")
    );
    assert!(
        err(s.spawn(
            "World/Spawner",
            SpawnScene::Index(0),
            "A",
            vec![(player(), vec![])]
        ))
        .contains("3 properties, 0 values")
    );
    s.spawn("World/Spawner", SpawnScene::Index(0), "A", vec![])
        .unwrap();
    assert!(
        err(s.spawn("World/Spawner", SpawnScene::Index(0), "A", vec![])).contains("exists already")
    );
    s.declare_spawner(
        Spawner::new("World/Spawner", "World/Players")
            .scene("res://p.tscn")
            .with_limit(1),
    );
    assert!(err(s.spawn("World/Spawner", SpawnScene::Index(0), "B", vec![])).contains("limit"));
    let mut c = Session::client(5, Settings::default());
    c.declare_spawner(Spawner::new("World/Spawner", "World/Players").scene("res://p.tscn"));
    assert!(err(c.spawn("World/Spawner", SpawnScene::Index(0), "A", vec![])).contains("server"));
}

#[test]
fn generated_gdscript_lists_properties_and_scenes_in_order() {
    let sync = player().with_interval(0.05).with_public(false);
    let spawner = Spawner::new("World/Spawner", "World/Players")
        .scene("res://a.tscn")
        .scene("res://b \"2\".tscn")
        .with_limit(4);
    let text = gdscript::script(&[("players", &spawner)], &[("player", &sync)]);
    let want = "\
# Generated by godot-serde-multiplayer from the Rust declarations: do not edit.
extends RefCounted

# Synchronizer \"Sync\".
static func player_config() -> SceneReplicationConfig:
\tvar config := SceneReplicationConfig.new()
\tconfig.add_property(^\".:position\")
\tconfig.property_set_spawn(^\".:position\", true)
\tconfig.property_set_replication_mode(^\".:position\", SceneReplicationConfig.REPLICATION_MODE_ALWAYS)
\tconfig.add_property(^\".:hp\")
\tconfig.property_set_spawn(^\".:hp\", true)
\tconfig.property_set_replication_mode(^\".:hp\", SceneReplicationConfig.REPLICATION_MODE_NEVER)
\tconfig.add_property(^\".:rotation\")
\tconfig.property_set_spawn(^\".:rotation\", false)
\tconfig.property_set_replication_mode(^\".:rotation\", SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE)
\treturn config

static func configure_player(sync: MultiplayerSynchronizer) -> void:
\tsync.replication_config = player_config()
\tsync.replication_interval = 0.05
\tsync.delta_interval = 0.0
\tsync.public_visibility = false

# Whether sync's SceneReplicationConfig is the declared one (the same properties in the
# same order, with the same spawn flags and modes): the state's values go to the
# properties by position, so a config made in the editor in another order would fill
# the wrong ones without a word. push_error names the first difference. Call it from
# _ready (checked_synchronizer_script() generates a synchronizer script that does).
static func check_player(sync: MultiplayerSynchronizer) -> bool:
\tvar want := player_config()
\tvar have := sync.replication_config
\tvar at := \"MultiplayerSynchronizer %s (declared as player)\" % (sync.get_path() if sync.is_inside_tree() else NodePath(sync.name))
\tif have == null:
\t\tpush_error(\"%s has no replication config; the Rust declaration has .:position, .:hp, .:rotation\" % at)
\t\treturn false
\tvar w_props := want.get_properties()
\tvar h_props := have.get_properties()
\tvar modes := [\"NEVER\", \"ALWAYS\", \"ON_CHANGE\"]
\tfor i in range(maxi(w_props.size(), h_props.size())):
\t\tvar w: String = str(w_props[i]) if i < w_props.size() else \"(none)\"
\t\tvar h: String = str(h_props[i]) if i < h_props.size() else \"(none)\"
\t\tif w != h:
\t\t\tpush_error(\"%s: property %d is %s in the scene, %s in the Rust declaration; the declared order is .:position, .:hp, .:rotation\" % [at, i, h, w])
\t\t\treturn false
\t\tvar path: NodePath = w_props[i]
\t\tif have.property_get_spawn(path) != want.property_get_spawn(path):
\t\t\tpush_error(\"%s: property %s has spawn %s in the scene, %s in the Rust declaration\" % [at, w, have.property_get_spawn(path), want.property_get_spawn(path)])
\t\t\treturn false
\t\tif have.property_get_replication_mode(path) != want.property_get_replication_mode(path):
\t\t\tpush_error(\"%s: property %s has mode %s in the scene, %s in the Rust declaration\" % [at, w, modes[have.property_get_replication_mode(path)], modes[want.property_get_replication_mode(path)]])
\t\t\treturn false
\treturn true

# Spawner \"World/Spawner\".
static func configure_players(spawner: MultiplayerSpawner) -> void:
\tspawner.clear_spawnable_scenes()
\tspawner.add_spawnable_scene(\"res://a.tscn\")
\tspawner.add_spawnable_scene(\"res://b \\\"2\\\".tscn\")
\tspawner.spawn_limit = 4
";
    assert_eq!(text, want);
}

#[test]
fn a_client_takes_the_servers_spawns_syncs_and_despawns() {
    let mut c = Session::client(5, Settings::default());
    c.declare_spawner(
        Spawner::new("World/Spawner", "World/Players")
            .scene("res://p.tscn")
            .synchronizer(player()),
    );
    c.connected(1, crate::clock::at_ms(0));
    c.receive(1, 0, TransferMode::Reliable, &simplify(1, "World/Spawner"));
    assert_eq!(
        outputs(&mut c),
        [(1, TransferMode::Reliable, vec![2, 1, 1, 0, 0, 0])]
    );
    let spawn = |net_id: u32, sync_ids: &[u32], name: &str| {
        let mut p = vec![4, 0];
        p.extend(le(1));
        p.extend(le(net_id));
        p.extend(le(sync_ids.len() as u32));
        p.extend(le(name.len() as u32 + 1));
        for id in sync_ids {
            p.extend(le(*id));
        }
        p.extend(name.as_bytes());
        p.push(0);
        p.extend(vec2(1.0));
        p.extend([2, 5]); // hp (rotation is not a spawn property)
        p
    };
    while c.poll_event().is_some() {}
    c.receive(1, 0, TransferMode::Reliable, &spawn(1, &[2], "Alice"));
    let Some(Event::Spawned {
        from: 1,
        node,
        name,
        spawner,
        scene,
    }) = c.poll_event()
    else {
        panic!("no spawn")
    };
    // The SPAWN's byte 1 is the scene index (0); the name and spawner as sent and declared.
    assert_eq!(
        (name.as_str(), spawner.as_str(), scene),
        ("Alice", "World/Spawner", SpawnScene::Index(0))
    );
    let sid = c.node_synchronizers(node)[0];
    // The SPAWN listed net id 2 for the server's synchronizer.
    assert_eq!(c.synchronizer_net_id(sid), Some(2));
    assert_eq!(c.state(sid).unwrap()[..2], player_state(1.0, 5, 0.0)[..2]);
    assert_eq!(
        c.state(sid).unwrap()[2],
        Variant::Nil,
        "not in the spawn state"
    );
    // A full SYNC by the spawn-assigned net id; a delta of the watched rotation.
    let mut sync = vec![6, 1, 0];
    sync.extend(le(2));
    sync.extend(le(12));
    sync.extend(vec2(7.0));
    c.receive(1, 0, TransferMode::Unreliable, &sync);
    let mut delta = vec![0x16];
    delta.extend(le(2));
    delta.extend(1u64.to_le_bytes());
    delta.extend(le(8));
    delta.extend([3, 0, 0, 0]);
    delta.extend(1.25f32.to_le_bytes());
    c.receive(1, 0, TransferMode::Reliable, &delta);
    assert_eq!(c.state(sid).unwrap(), player_state(7.0, 5, 1.25));
    // A used net id, a wrong synchronizer count, a used name.
    c.receive(1, 0, TransferMode::Reliable, &spawn(1, &[3], "Bob"));
    c.receive(1, 0, TransferMode::Reliable, &spawn(4, &[], "Bob"));
    c.receive(1, 0, TransferMode::Reliable, &spawn(4, &[5], "Alice"));
    c.receive(1, 0, TransferMode::Reliable, &[5, 1, 0, 0, 0]);
    c.receive(1, 0, TransferMode::Reliable, &[5, 1, 0, 0, 0]);
    let events: Vec<Event> = std::iter::from_fn(|| c.poll_event()).collect();
    let what: Vec<String> = events
        .iter()
        .map(|e| match e {
            Event::Error {
                error: ProtocolError::Invalid { what, .. },
                ..
            } => (*what).to_owned(),
            Event::Error { error, .. } => format!("{error:?}"),
            Event::Synchronized { delta, changed, .. } => format!("sync {delta} {changed:?}"),
            Event::Despawned { name, .. } => format!("despawned {name}"),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        what,
        [
            // The full SYNC moved the position from (1, 2) to (7, 2); the delta set the
            // rotation, which the spawn state did not carry.
            "sync false [\".:position\"]",
            "sync true [\".:rotation\"]",
            "spawn net id",
            "spawn synchronizer count",
            "spawn name",
            "despawned Alice",
            "UnknownNetId { peer: 1, net_id: 1 }",
        ]
    );
    assert_eq!(c.replication_footprint(), (0, 0, 0));
}

#[test]
fn poll_timeout_names_the_next_sync_and_handle_timeout_sends_it() {
    use std::time::Duration;
    let us = Duration::from_micros;
    let t0 = crate::clock::at_ms(0);
    let mut s = server();
    // The session's clock starts at its first instant, reading 1 µs there (the engine's 0
    // means "never synced").
    s.connected(2, t0);
    assert_eq!(s.poll_timeout(), None, "nothing to replicate yet");
    s.spawn(
        "World/Spawner",
        SpawnScene::Index(0),
        "A",
        vec![(player().with_interval(0.1), player_state(1.0, 5, 0.5))],
    )
    .unwrap();
    outputs(&mut s);
    // Full SYNC when `usec >= last_sync_usec (0) + interval (100,000)`: the clock reads
    // 100,000 µs at t0 + 99,999 µs. The delta interval is 0 (every frame): no deadline.
    assert_eq!(s.poll_timeout(), Some(t0 + us(99_999)));
    let syncs = |s: &mut Session| {
        outputs(s)
            .into_iter()
            .filter(|(_, mode, _)| *mode == TransferMode::Unreliable)
            .count()
    };
    s.handle_timeout(t0 + us(99_998));
    assert_eq!(syncs(&mut s), 0, "1 µs early");
    s.handle_timeout(t0 + us(99_999));
    assert_eq!(syncs(&mut s), 1);
    // The next one an interval after this one.
    assert_eq!(s.poll_timeout(), Some(t0 + us(199_999)));
}
