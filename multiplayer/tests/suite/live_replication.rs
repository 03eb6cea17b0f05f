//! Live: a headless Godot 4 client (`tests/godot/replication_client.gd`) joins the Rust server,
//! whose spawner and synchronizers it declares with the GDScript generated from the Rust
//! declarations (`replication::gdscript`). The client's `MultiplayerSpawner` sees the server's
//! spawns (a spawnable scene and a custom spawn) with their spawn state, its synchronized
//! properties follow the server's full and delta syncs, a client-owned synchronizer's state
//! reaches the server, and the despawns remove the nodes.

use crate::dialect::free_udp_port;
use crate::engine;
use crate::world::{self, Input, Player, player_sync, project, spawner};

use std::path::Path;
use std::time::{Duration, Instant};

use godot_serde::{Dictionary, Variant, Vector2};
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::{Event, Settings, SpawnScene, Synchronizer, TransferMode};

fn input_sync(owner: i32) -> Synchronizer {
    world::input_sync().with_authority(owner)
}

#[derive(Default)]
struct Seen {
    inputs: Vec<Input>,
    errors: Vec<String>,
}

fn state(p: &Player) -> Vec<Variant> {
    godot_serde_multiplayer::args::to_arguments(p).unwrap()
}

/// The server's script: spawn on join, move Alice for 30 frames (rotation changed once at
/// frame 10), despawn Bob at 40 and Alice at 60, "done" at 80.
fn serve(mut server: EnetPeer, deadline: Instant) -> Seen {
    let mut seen = Seen::default();
    let mut client = None;
    let mut frame = 0u32;
    let (mut alice, mut bob) = (None, None);
    while Instant::now() < deadline {
        server.service().unwrap();
        while let Some(event) = server.poll_event() {
            let session = server.session();
            match event {
                Event::PeerConnected(peer) => {
                    client = Some(peer);
                    let a = Player {
                        position: Vector2::new(1.0, 2.0),
                        rotation: 0.5,
                        z_index: 7,
                    };
                    alice = Some(
                        session
                            .spawn(
                                "World/Spawner",
                                SpawnScene::Index(0),
                                "Alice",
                                vec![(player_sync(), state(&a))],
                            )
                            .unwrap(),
                    );
                    let b = Player {
                        position: Vector2::new(3.0, 4.0),
                        rotation: 0.0,
                        z_index: 1,
                    };
                    let mut data = Dictionary::new();
                    data.insert(Variant::from("owner"), Variant::Int(i64::from(peer)));
                    bob = Some(
                        session
                            .spawn(
                                "World/Spawner",
                                SpawnScene::Custom(Variant::Dictionary(data)),
                                "Bob",
                                vec![
                                    (player_sync(), state(&b)),
                                    (input_sync(peer), vec![Variant::Float(0.0)]),
                                ],
                            )
                            .unwrap(),
                    );
                }
                Event::Synchronized { sync, from, .. } => {
                    assert_eq!(Some(from), client);
                    seen.inputs.push(session.state_as::<Input>(sync).unwrap());
                }
                Event::Error { peer, error } => seen.errors.push(format!("peer {peer}: {error}")),
                _ => {}
            }
        }
        if let Some(peer) = client {
            frame += 1;
            let session = server.session();
            if let Some(a) = alice {
                let sync = session.node_synchronizers(a)[0];
                let mut p: Player = session.state_as(sync).unwrap();
                if frame <= 30 {
                    p.position = Vector2::new(1.0 + frame as godot_serde::Real, 2.0);
                }
                if frame == 10 {
                    p.rotation = 1.25;
                }
                session.set_state_as(sync, &p).unwrap();
            }
            if frame == 40 {
                session.despawn(bob.take().unwrap()).unwrap();
            }
            if frame == 60 {
                session.despawn(alice.take().unwrap()).unwrap();
            }
            if frame == 80 {
                session
                    .send_bytes(peer, b"done", TransferMode::Reliable, 0)
                    .unwrap();
            }
            session.handle_timeout(std::time::Instant::now());
        }
        server.service().unwrap();
        if frame > 120 {
            break;
        }
        std::thread::sleep(Duration::from_millis(16));
    }
    server.close();
    seen
}

#[test]
fn godot4_client_follows_the_rust_servers_spawns_and_syncs() {
    let Some(engine) =
        engine::godot4_or_skip("godot4_client_follows_the_rust_servers_spawns_and_syncs")
    else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let mut server =
        EnetPeer::server("127.0.0.1:0".parse().unwrap(), 8, Settings::default()).unwrap();
    let port = server.local_addr().unwrap().port();
    server.session().declare_spawner(spawner());
    let project = project("mp_replication", "replication_client.gd");
    let handle =
        std::thread::spawn(move || serve(server, Instant::now() + Duration::from_secs(40)));
    let out = project.run(
        &engine,
        "replication_client.gd",
        &[&port.to_string()],
        Duration::from_secs(45),
    );
    let seen = handle.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    println!("{stdout}\n--- stderr\n{stderr}");
    assert!(seen.errors.is_empty(), "server errors: {:?}", seen.errors);
    // The engine refused nothing we sent (its only error line is the harmless script cache).
    let engine_errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("ERROR:") && !l.contains("global script cache"))
        .collect();
    assert!(engine_errors.is_empty(), "engine errors: {engine_errors:?}");
    assert_eq!(out.status.code(), Some(0), "client failed");
    let lines: Vec<&str> = stdout.lines().collect();
    let has = |want: &str| lines.iter().any(|l| l.starts_with(want));
    // Spawn state: position, rotation and z_index applied before `spawned`.
    assert!(has("SPAWNED Alice scene (1.0, 2.0) 0.5 7"), "Alice's spawn");
    assert!(has("SPAWNED Bob custom {\"owner\":"), "Bob's custom spawn");
    assert!(
        has("SPAWNED Bob custom")
            && lines
                .iter()
                .any(|l| l.starts_with("SPAWNED Bob") && l.ends_with("(3.0, 4.0) 0.0 1"))
    );
    // Full sync (position every frame) and delta (rotation once changed).
    assert!(has("STATE Alice (31.0, 2.0) 1.25 7"), "Alice's last state");
    let alice_states = lines
        .iter()
        .filter(|l| l.starts_with("STATE Alice"))
        .count();
    assert!(alice_states >= 10, "{alice_states} states of Alice");
    assert!(has("DESPAWNED Bob") && has("DESPAWNED Alice"));
    let count = lines
        .iter()
        .find(|l| l.starts_with("COUNT"))
        .expect("the COUNT line");
    let nums: Vec<u64> = count.split(' ').filter_map(|w| w.parse().ok()).collect();
    assert!(nums[0] >= 10 && nums[1] >= 2, "{count}");
    // The client-owned synchronizer.
    assert!(
        seen.inputs.iter().any(|i| i.skew == 0.25),
        "inputs {:?}",
        seen.inputs.len()
    );
    println!(
        "counts: {alice_states} Alice states seen by the client, {count}, {} input syncs received",
        seen.inputs.len()
    );
}

/// A packet in comparable form: SYNC and delta entries sorted by net id (the engine walks its
/// synchronizers in hash-set order), everything else as it is.
fn normalized(p: &[u8]) -> Vec<u8> {
    use godot_serde_multiplayer::replication::wire;
    if p.first().map(|b| b & 7) != Some(6) {
        return p.to_vec();
    }
    let sync = wire::parse_sync(p).unwrap();
    let mut entries: Vec<_> = sync.entries().map(|e| e.unwrap()).collect();
    entries.sort_by_key(|e| e.net_id);
    let mut out = p[..if sync.delta { 1 } else { 3 }].to_vec();
    for e in entries {
        match e.indexes {
            Some(bits) => wire::write_delta_entry(&mut out, e.net_id, bits, e.state),
            None => wire::write_sync_entry(&mut out, e.net_id, e.state),
        }
    }
    out
}

/// Our server doing what `replication_server.gd` does, offline: the packets for `peer`.
fn our_packets(peer: i32) -> Vec<Vec<u8>> {
    use godot_serde_multiplayer::{Output, Session};
    let mut s = Session::server(Settings::default());
    s.declare_spawner(spawner());
    let mut out = Vec::new();
    let mut drain = |s: &mut Session| {
        while let Some(o) = s.poll_output() {
            if let Output::Packet { data, .. } = o {
                out.push(data);
            }
        }
    };
    s.connected(peer, crate::clock::at_ms(0));
    let a = Player {
        position: Vector2::new(1.0, 2.0),
        rotation: 0.5,
        z_index: 7,
    };
    let alice = s
        .spawn(
            "World/Spawner",
            SpawnScene::Index(0),
            "Alice",
            vec![(player_sync(), state(&a))],
        )
        .unwrap();
    let b = Player {
        position: Vector2::new(3.0, 4.0),
        rotation: 0.0,
        z_index: 1,
    };
    let mut data = Dictionary::new();
    data.insert(Variant::from("owner"), Variant::Int(i64::from(peer)));
    let bob = s
        .spawn(
            "World/Spawner",
            SpawnScene::Custom(Variant::Dictionary(data)),
            "Bob",
            vec![
                (player_sync(), state(&b)),
                (input_sync(peer), vec![Variant::Float(0.0)]),
            ],
        )
        .unwrap();
    let mut now = 1000;
    s.handle_timeout(crate::clock::at_us(now));
    let sync = s.node_synchronizers(alice)[0];
    for f in 1..=30u32 {
        let mut p: Player = s.state_as(sync).unwrap_or_default();
        if f <= 3 {
            p.position = Vector2::new(1.0 + f as godot_serde::Real, 2.0);
        }
        if f == 2 {
            p.rotation = 1.25;
        }
        if f <= 7 {
            s.set_state_as(sync, &p).unwrap();
        }
        now += 16_000;
        s.handle_timeout(crate::clock::at_us(now));
        if f == 5 {
            s.despawn(bob).unwrap();
        }
        if f == 7 {
            s.despawn(alice).unwrap();
        }
        if f == 9 {
            s.send_bytes(peer, b"done", TransferMode::Reliable, 0)
                .unwrap();
        }
        drain(&mut s);
    }
    drain(&mut s);
    out
}

/// Starts `replication_server.gd` (with the generated replication script of [`spawner`],
/// [`player_sync`] and [`input_sync`]) in project `name` on a free port, and an ENet client of
/// it with id `id`; returns the engine's thread and the client.
fn godot_server_and_client(
    engine: &Path,
    name: &str,
    id: i32,
) -> (std::thread::JoinHandle<std::process::Output>, EnetPeer) {
    let port = free_udp_port();
    let project = project(name, "replication_server.gd");
    let engine = engine.to_path_buf();
    let godot = std::thread::spawn(move || {
        project.run(
            &engine,
            "replication_server.gd",
            &[&port.to_string()],
            Duration::from_secs(40),
        )
    });
    std::thread::sleep(Duration::from_millis(700));
    let client = EnetPeer::client_with_id(
        format!("127.0.0.1:{port}").parse().unwrap(),
        id,
        Settings::default(),
    )
    .unwrap();
    (godot, client)
}

#[test]
fn engine_server_bytes_match_ours() {
    let Some(engine) = engine::godot4_or_skip("engine_server_bytes_match_ours") else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    const ID: i32 = 12345;
    let (godot, mut client) = godot_server_and_client(&engine, "mp_replication_server", ID);
    client.set_capture(true);
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut theirs = Vec::new();
    while Instant::now() < deadline {
        client.service().unwrap();
        while client.poll_event().is_some() {}
        theirs.extend(client.take_captured().into_iter().map(|c| c.data));
        if theirs.iter().any(|p| p == b"\x03done") {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    client.close();
    let out = godot.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    println!(
        "{stdout}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<Vec<u8>> = theirs
        .into_iter()
        .filter(|p| p.first().map(|b| b & 7) != Some(7)) // SYS (ADD_PEER, ...) aside.
        .map(|p| normalized(&p))
        .collect();
    let ours: Vec<Vec<u8>> = our_packets(ID).iter().map(|p| normalized(p)).collect();
    let (their_rel, their_sync): (Vec<_>, Vec<_>) = theirs.iter().partition(|p| p[0] != 6);
    let (our_rel, our_sync): (Vec<_>, Vec<_>) = ours.iter().partition(|p| p[0] != 6);
    for (i, (t, o)) in their_rel.iter().zip(&our_rel).enumerate() {
        assert_eq!(t, o, "reliable packet {i}: engine {t:02x?}, ours {o:02x?}");
    }
    assert_eq!(
        their_rel.len(),
        our_rel.len(),
        "reliable packets: engine {their_rel:02x?}, ours {our_rel:02x?}"
    );
    // Unreliable full syncs: compared as a set (one may in principle be lost on loopback).
    let missing: Vec<_> = their_sync
        .iter()
        .filter(|t| !our_sync.contains(t))
        .collect();
    assert!(
        missing.is_empty(),
        "engine SYNC packets we do not write: {missing:02x?}"
    );
    assert!(
        their_sync.len() + 1 >= our_sync.len(),
        "{} engine SYNC packets, {} ours",
        their_sync.len(),
        our_sync.len()
    );
    println!(
        "byte comparison: {} reliable packets (SIMPLIFY_PATH, SPAWN, delta SYNC, DESPAWN, RAW) identical, {} of our {} SYNC packets identical to the engine's",
        their_rel.len(),
        their_sync.len(),
        our_sync.len()
    );
}

/// The client role: a Rust client of a Godot 4 server (`replication_server.gd`) gets its
/// spawns with their spawn state, follows the full and delta syncs, and sees the despawns.
#[test]
fn rust_client_follows_a_godot4_servers_spawns() {
    let Some(engine) = engine::godot4_or_skip("rust_client_follows_a_godot4_servers_spawns") else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    const ID: i32 = 23456;
    let (godot, mut client) = godot_server_and_client(&engine, "mp_replication_client_role", ID);
    // The scene's synchronizers: the server's Sync (its net id comes in the SPAWN) and, for
    // Bob, our own Input (path-based, ours to send).
    client.session().declare_spawner(
        spawner()
            .synchronizer(player_sync())
            .synchronizer(input_sync(ID)),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let (mut spawned, mut states, mut despawned, mut errors) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    while Instant::now() < deadline && despawned.len() < 2 {
        client.service().unwrap();
        while let Some(event) = client.poll_event() {
            let session = client.session();
            match event {
                Event::Spawned { node, .. } => {
                    let sync = session.node_synchronizers(node)[0];
                    let p: Player = session.state_as(sync).unwrap();
                    spawned.push((format!("{node:?}"), p));
                }
                // Events queue: the node may be despawned by the time this one is read.
                Event::Synchronized { sync, delta, .. } => {
                    if let Ok(p) = session.state_as::<Player>(sync) {
                        states.push((delta, p));
                    }
                }
                Event::Despawned { name, .. } => despawned.push(name),
                Event::Error { error, .. } => errors.push(error.to_string()),
                _ => {}
            }
        }
        client.session().handle_timeout(std::time::Instant::now());
        std::thread::sleep(Duration::from_millis(1));
    }
    client.close();
    let out = godot.join().unwrap();
    println!("{}", String::from_utf8_lossy(&out.stdout));
    assert!(errors.is_empty(), "{errors:?}");
    let players: Vec<&Player> = spawned.iter().map(|(_, p)| p).collect();
    assert_eq!(
        players,
        [
            &Player {
                position: Vector2::new(1.0, 2.0),
                rotation: 0.5,
                z_index: 7
            },
            &Player {
                position: Vector2::new(3.0, 4.0),
                rotation: 0.0,
                z_index: 1
            },
        ]
    );
    assert!(
        states
            .iter()
            .any(|(delta, p)| !delta && p.position == Vector2::new(4.0, 2.0))
    );
    assert!(states.iter().any(|(delta, p)| *delta && p.rotation == 1.25));
    assert_eq!(despawned, ["Bob", "Alice"]);
    println!(
        "client role: {} spawns, {} syncs ({} deltas), {} despawns",
        spawned.len(),
        states.len(),
        states.iter().filter(|(d, _)| *d).count(),
        despawned.len()
    );
}
