//! Live: rooms and interest management together. Two headless Godot 4 clients
//! (`tests/godot/interest_client.gd`) join a Rust server of two rooms on two threads
//! (`rooms::RoomsHost` over ENet); each room's logic sets a 2D radius rule of 10 (updated every
//! 50 ms) on its session and spawns nodes on a plane. A client sees only the nodes of its room
//! within its radius; a node moving, then a client moving, spawn and despawn them on the stock
//! engine; a client moved to the other room loses the old room's nodes and gets the new room's
//! within its radius there.
//!
//! Room A: "ANear" (0, 0), "AFar" (100, 0), "AMover" (50, 0) (nobody's); ann (the first to
//! join) at (0, 0), bob at (100, 0). Room B: "BNear" (0, 0), "BFar" (100, 0); a peer moved in
//! is placed at (0, 0). Counting A's frames (16 ms) from bob's arrival: 20, AMover to (5, 0)
//! (ann's); 40, AMover to (95, 0) (bob's); 60, bob to (0, 0) (ANear, not AFar nor AMover); 80,
//! ann moved to room B. B's frames, from ann's arrival: 20, BFar to (3, 0) (ann's).

use crate::engine;
use crate::world::{
    Log, at, close_and_log, interest_client, project, say_done, serve_until_prefix,
    serve_while_running, spawn_player_at, spawner,
};

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use godot_serde_multiplayer::enet::EnetTransport;
use godot_serde_multiplayer::rooms::{Room, RoomId, RoomLogic, RoomsEvent, RoomsHost};
use godot_serde_multiplayer::{Event, InterestRule, NodeId, Settings};

const A: RoomId = RoomId(1);
const B: RoomId = RoomId(2);

/// A room's logic: its nodes, its peers in arrival order, its frames since the script began.
struct World {
    log: Log,
    nodes: Vec<(&'static str, f32, NodeId)>,
    peers: Vec<i32>,
    frame: u32,
}

impl World {
    fn new(log: Log) -> Self {
        Self {
            log,
            nodes: Vec::new(),
            peers: Vec::new(),
            frame: 0,
        }
    }

    fn note(&self, room: &Room<'_>, line: String) {
        let line = format!("{} {line}", if room.id() == A { "A" } else { "B" });
        self.log.lock().unwrap().push(line);
    }

    fn place(&self, room: &mut Room<'_>, name: &str, x: f32) {
        let node = self.nodes.iter().find(|n| n.0 == name).unwrap().2;
        let s = room.session();
        let sync = s.node_synchronizers(node)[0];
        s.set_state(sync, at(x)).unwrap();
        s.set_node_position(node, [x, 0.0]).unwrap();
    }
}

impl RoomLogic for World {
    fn start(&mut self, room: &mut Room<'_>) {
        let layout: &[(&'static str, f32)] = if room.id() == A {
            &[("ANear", 0.0), ("AFar", 100.0), ("AMover", 50.0)]
        } else {
            &[("BNear", 0.0), ("BFar", 100.0)]
        };
        let s = room.session();
        s.declare_spawner(spawner());
        s.set_interest(InterestRule::radius_2d(10.0).with_interval(0.05));
        for &(name, x) in layout {
            let node = spawn_player_at(s, name, x);
            self.nodes.push((name, x, node));
        }
    }

    fn event(&mut self, room: &mut Room<'_>, event: Event) {
        match event {
            Event::PeerConnected(peer) => {
                // A: the first at (0, 0), the second at (100, 0); B: everyone at (0, 0).
                let x = if room.id() == A && !self.peers.is_empty() {
                    100.0
                } else {
                    0.0
                };
                room.session().set_peer_position(peer, [x, 0.0]);
                self.peers.push(peer);
                self.note(room, format!("joined {peer}"));
            }
            Event::PeerDisconnected(peer) => {
                self.peers.retain(|&p| p != peer);
                self.note(room, format!("left {peer}"));
            }
            Event::Error { peer, error } => self.note(room, format!("ERROR {peer}: {error}")),
            _ => {}
        }
    }

    fn frame(&mut self, room: &mut Room<'_>) {
        let started = if room.id() == A {
            self.frame > 0 || self.peers.len() == 2
        } else {
            !self.peers.is_empty()
        };
        if !started {
            return;
        }
        self.frame += 1;
        match (room.id() == A, self.frame) {
            (true, 20) => self.place(room, "AMover", 5.0),
            (true, 40) => self.place(room, "AMover", 95.0),
            (true, 60) => {
                let bob = self.peers[1];
                room.session().set_peer_position(bob, [0.0, 0.0]);
            }
            (true, 80) => {
                let ann = self.peers[0];
                room.move_peer(ann, B);
            }
            (false, 20) => self.place(room, "BFar", 3.0),
            (false, 40) => self.note(room, "settled".to_owned()),
            _ => {}
        }
    }
}

fn client(
    engine: &Path,
    port: u16,
    name: &'static str,
) -> std::thread::JoinHandle<std::process::Output> {
    let (engine, project) = (engine.to_path_buf(), project(name, "interest_client.gd"));
    std::thread::spawn(move || {
        project.run(
            &engine,
            "interest_client.gd",
            &[&port.to_string()],
            Duration::from_secs(60),
        )
    })
}

#[test]
fn godot4_clients_see_their_room_within_their_radius_and_a_move() {
    let Some(engine) =
        engine::godot4_or_skip("godot4_clients_see_their_room_within_their_radius_and_a_move")
    else {
        return;
    };
    let settings = Settings::default();
    let mut host = RoomsHost::new(settings.clone(), 2);
    let log: Log = Arc::default();
    host.rooms().add_room(A, World::new(log.clone())).unwrap();
    host.rooms().add_room(B, World::new(log.clone())).unwrap();
    host.rooms().set_lobby(A);
    let port = crate::dialect::free_udp_port();
    let addr = format!("127.0.0.1:{port}").parse().unwrap();
    host.add(EnetTransport::server(addr, 8, &settings.limits).unwrap());

    let mut events = Vec::new();
    let ann = client(&engine, port, "mp_world_ann");
    serve_until_prefix(&mut host, &log, "A joined", &mut events);
    let bob = client(&engine, port, "mp_world_bob");
    serve_until_prefix(&mut host, &log, "B settled", &mut events);
    say_done(&mut host, &[A, B]);
    let mut outs = Vec::new();
    for handle in [ann, bob] {
        let out = serve_while_running(&mut host, handle, Duration::from_secs(60));
        outs.push(interest_client(&out));
    }
    let log = close_and_log(host, &log, &events);
    let (ann, bob) = (&outs[0], &outs[1]);
    assert_eq!(
        log.iter()
            .filter(|l| l.contains("joined") || l.contains("left"))
            .take(4) // then both leave as they quit
            .cloned()
            .collect::<Vec<_>>(),
        [
            format!("A joined {}", ann.id),
            format!("A joined {}", bob.id),
            format!("A left {}", ann.id),
            format!("B joined {}", ann.id),
        ]
    );
    assert!(events.contains(&RoomsEvent::Moved {
        peer: ann.id,
        from: A,
        to: B
    }));
    // ann: ANear at once; AMover comes (frame 20) and goes (40); moved (80): ANear despawned
    // by room A before room B's BNear (within 10 of (0, 0)) comes, never BFar at (100, 0)
    // until it moves to (3, 0) (B's frame 20). Never a node of room A after the move.
    assert_eq!(
        ann.events,
        [
            "SPAWNED ANear",
            "SPAWNED AMover",
            "DESPAWNED AMover",
            "DESPAWNED ANear",
            "SPAWNED BNear",
            "SPAWNED BFar",
        ],
        "{}",
        ann.stdout
    );
    assert!(ann.stdout.contains("SPAWNED AMover (5.0, 0.0)"));
    assert!(ann.stdout.contains("SPAWNED BFar (3.0, 0.0)"));
    assert_eq!(ann.has, "BFar,BNear");
    // bob: AFar at once, AMover at frame 40; moved to (0, 0) at frame 60: AFar and AMover go,
    // ANear comes (one update: the changes in node order). Never a node of room B.
    assert_eq!(
        bob.events,
        [
            "SPAWNED AFar",
            "SPAWNED AMover",
            "SPAWNED ANear",
            "DESPAWNED AFar",
            "DESPAWNED AMover",
        ],
        "{}",
        bob.stdout
    );
    assert!(bob.stdout.contains("SPAWNED AMover (95.0, 0.0)"));
    assert_eq!(bob.has, "ANear");
}
