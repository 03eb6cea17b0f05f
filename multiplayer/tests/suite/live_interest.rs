//! Live: two headless Godot 4 clients (`tests/godot/interest_client.gd`) join a Rust server
//! that places them and three spawned nodes on a plane, with a 2D radius interest rule of 10
//! updated every 50 ms. Each client's `MultiplayerSpawner` gets exactly the nodes within its
//! radius; a node moving across, then a client moving, spawn and despawn them on the stock
//! engine, and each client's scene tree reports what it has at the end.
//!
//! Positions: client A (the first to join) at (0, 0), client B at (100, 0); "Near" at (0, 0),
//! "Far" at (100, 0), "Mover" at (50, 0) (nobody's). Frame 20: Mover to (5, 0) (A's); frame
//! 40: Mover to (95, 0) (B's); frame 60: A moves to (100, 0) (Far and Mover, not Near).

use crate::engine;
use crate::world::{at, interest_client, project, spawn_player_at, spawner};

use std::collections::HashMap;
use std::time::{Duration, Instant};

use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::{Event, InterestRule, Settings, TransferMode};

/// The server: returns (the peers in join order, the errors it saw).
fn serve(mut server: EnetPeer, deadline: Instant) -> (Vec<i32>, Vec<String>) {
    let (mut peers, mut errors) = (Vec::new(), Vec::new());
    let mut nodes = HashMap::new();
    let mut frame = 0u32;
    while Instant::now() < deadline && frame <= 100 {
        server.service().unwrap();
        let session = server.session();
        while let Some(event) = session.poll_event() {
            match event {
                Event::PeerConnected(peer) => {
                    let x = if peers.is_empty() { 0.0 } else { 100.0 };
                    session.set_peer_position(peer, [x, 0.0]);
                    peers.push(peer);
                }
                Event::Error { peer, error } => errors.push(format!("peer {peer}: {error}")),
                _ => {}
            }
        }
        if peers.len() == 2 && nodes.is_empty() {
            for (name, x) in [("Near", 0.0), ("Far", 100.0), ("Mover", 50.0)] {
                nodes.insert(name, spawn_player_at(session, name, x));
            }
        }
        if !nodes.is_empty() {
            frame += 1;
            let mover = nodes["Mover"];
            let mut place = |x: f32| {
                let sync = session.node_synchronizers(mover)[0];
                session.set_state(sync, at(x)).unwrap();
                session.set_node_position(mover, [x, 0.0]).unwrap();
            };
            match frame {
                20 => place(5.0),
                40 => place(95.0),
                60 => session.set_peer_position(peers[0], [100.0, 0.0]),
                90 => {
                    for &peer in &peers {
                        session
                            .send_bytes(peer, b"done", TransferMode::Reliable, 0)
                            .unwrap();
                    }
                }
                _ => {}
            }
        }
        session.handle_timeout(Instant::now());
        server.service().unwrap();
        std::thread::sleep(Duration::from_millis(16));
    }
    // Let the last packets leave before the host goes.
    for _ in 0..20 {
        server.service().unwrap();
        std::thread::sleep(Duration::from_millis(10));
    }
    server.close();
    (peers, errors)
}

#[test]
fn godot4_clients_get_what_their_radius_gives_them() {
    let Some(engine) = engine::godot4_or_skip("godot4_clients_get_what_their_radius_gives_them")
    else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let mut server =
        EnetPeer::server("127.0.0.1:0".parse().unwrap(), 8, Settings::default()).unwrap();
    let port = server.local_addr().unwrap().port().to_string();
    server.session().declare_spawner(spawner());
    server
        .session()
        .set_interest(InterestRule::radius_2d(10.0).with_interval(0.05));
    let handle =
        std::thread::spawn(move || serve(server, Instant::now() + Duration::from_secs(60)));
    let clients: Vec<_> = ["mp_interest_a", "mp_interest_b"]
        .into_iter()
        .map(|name| {
            let (engine, port, project) = (
                engine.clone(),
                port.clone(),
                project(name, "interest_client.gd"),
            );
            let run = std::thread::spawn(move || {
                project.run(
                    &engine,
                    "interest_client.gd",
                    &[&port],
                    Duration::from_secs(65),
                )
            });
            // One at a time: the server places them in join order, and the test finds each
            // one's output by the id it prints.
            std::thread::sleep(Duration::from_millis(300));
            run
        })
        .collect();
    let outputs: Vec<_> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    let (peers, errors) = handle.join().unwrap();
    assert!(errors.is_empty(), "server errors: {errors:?}");
    assert_eq!(peers.len(), 2, "both clients joined");
    let mut by_id = HashMap::new();
    for out in &outputs {
        let c = interest_client(out);
        by_id.insert(c.id, (c.events, c.has, c.stdout));
    }
    let (a_events, a_has, a_out) = &by_id[&peers[0]];
    let (b_events, b_has, b_out) = &by_id[&peers[1]];
    // A: Near at once; Mover comes (frame 20) and goes (frame 40); A moves (frame 60): Near
    // goes, Far and Mover come (in node order: Far was spawned before Mover).
    assert_eq!(
        a_events,
        &[
            "SPAWNED Near",
            "SPAWNED Mover",
            "DESPAWNED Mover",
            "DESPAWNED Near",
            "SPAWNED Far",
            "SPAWNED Mover",
        ],
        "{a_out}"
    );
    // The spawn state carries the position where the node is.
    assert!(a_out.contains("SPAWNED Mover (5.0, 0.0)"), "{a_out}");
    assert!(a_out.contains("SPAWNED Mover (95.0, 0.0)"), "{a_out}");
    // B: Far, then Mover at frame 40; never Near.
    assert_eq!(b_events, &["SPAWNED Far", "SPAWNED Mover"], "{b_out}");
    assert_eq!(a_has, "Far,Mover");
    assert_eq!(b_has, "Far,Mover");
}
