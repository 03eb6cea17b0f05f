//! `rooms`, sans IO: rooms on worker threads, fed packets by hand and by client sessions
//! standing in for Godot clients. What each client is sent (to whom, in which order, the SYS
//! and DESPAWN bytes) is derived by hand from SceneMultiplayer's layouts: ADD_PEER is
//! `[NETWORK_COMMAND_SYS = 7, SYS_COMMAND_ADD_PEER = 1, id as 4 bytes LE]`, DEL_PEER the same
//! with 2, DESPAWN `[NETWORK_COMMAND_DESPAWN = 5, net id as 4 bytes LE]`.

use std::collections::{BTreeMap, HashMap};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use godot_serde_multiplayer::rooms::{Room, RoomId, Rooms, RoomsEvent, RoomsLimits};
use godot_serde_multiplayer::{
    Event, Limits, Output, ProtocolError, RpcMethod, RpcTable, Session, Settings, SpawnScene,
    Spawner, TransferMode,
};

const A: RoomId = RoomId(1);
const B: RoomId = RoomId(2);
const SETTLE: Duration = Duration::from_secs(20);

fn chat() -> RpcTable {
    RpcTable::new("/root/Chat")
        .with(RpcMethod::any_peer("say"))
        .with(RpcMethod::authority("said"))
}

fn spawner() -> Spawner {
    Spawner::new("World/Spawner", "World/Things").scene("res://thing.tscn")
}

/// Room B's first spawner, so that B gives its ids in another order than A.
fn extra() -> Spawner {
    Spawner::new("World/Extra", "World/Extras").scene("res://extra.tscn")
}

/// A room's logic: `say(text)` answers `said(from, text)` to the room (target 0), and
/// `say("/move N")` moves the caller to room N.
fn chat_room(room: &mut Room<'_>, event: Event) {
    if let Event::Rpc(call) = event {
        let Some((text,)) = room.session().args_of::<(String,)>(&call) else {
            return;
        };
        if let Some(to) = text.strip_prefix("/move ") {
            let to = RoomId(to.parse().unwrap_or(0));
            room.move_peer(call.from, to);
            return;
        }
        room.session()
            .rpc(0, "Chat", "said", &(call.from, text))
            .unwrap();
    }
}

/// Rooms A and B (one thread each, or both on one), each with the chat table, a spawner and
/// one spawned node named after the room; B also has `ExtraB`, spawned first by another
/// spawner, so that its first path-cache id names another path than A's first.
fn two_rooms(threads: usize, limits: RoomsLimits) -> Rooms {
    let settings = Settings::default().with_limits(Limits::default().with_rooms(limits));
    let mut rooms = Rooms::new(settings, threads);
    for (id, thing) in [(A, "ThingA"), (B, "ThingB")] {
        rooms.add_room(id, chat_room).unwrap();
        rooms
            .run_in(id, move |room| {
                let s = room.session();
                s.declare(chat());
                if thing == "ThingB" {
                    s.declare_spawner(extra());
                    s.spawn("World/Extra", SpawnScene::Index(0), "ExtraB", Vec::new())
                        .unwrap();
                }
                s.declare_spawner(spawner());
                s.spawn("World/Spawner", SpawnScene::Index(0), thing, Vec::new())
                    .unwrap();
            })
            .unwrap();
    }
    rooms.set_lobby(A);
    rooms
}

/// Client sessions standing in for Godot clients, and every packet each was sent.
#[derive(Default)]
struct Clients {
    sessions: BTreeMap<i32, Session>,
    got: HashMap<i32, Vec<Vec<u8>>>,
    events: HashMap<i32, Vec<Event>>,
}

impl Clients {
    fn join(&mut self, rooms: &mut Rooms, id: i32, room: RoomId) {
        let mut s = Session::client(id, Settings::default());
        s.declare(chat());
        s.declare_spawner(spawner());
        s.declare_spawner(extra());
        s.connected(1, Instant::now());
        self.sessions.insert(id, s);
        rooms.connected_to(id, room, Instant::now());
    }

    /// Moves packets both ways until nothing moves.
    fn pump(&mut self, rooms: &mut Rooms) {
        loop {
            assert!(rooms.settle(SETTLE), "the rooms did not settle");
            let mut moved = false;
            while let Some(output) = rooms.poll_output() {
                moved = true;
                if let Output::Packet {
                    to,
                    data,
                    channel,
                    mode,
                } = output
                {
                    self.got.entry(to).or_default().push(data.clone());
                    if let Some(s) = self.sessions.get_mut(&to) {
                        s.receive(1, channel, mode, &data);
                    }
                }
            }
            for (&id, s) in &mut self.sessions {
                while let Some(event) = s.poll_event() {
                    self.events.entry(id).or_default().push(event);
                }
                while let Some(output) = s.poll_output() {
                    if let Output::Packet {
                        channel,
                        mode,
                        data,
                        ..
                    } = output
                    {
                        moved = true;
                        rooms.receive(id, channel, mode, data);
                    }
                }
            }
            if !moved {
                return;
            }
        }
    }

    fn say(&mut self, rooms: &mut Rooms, id: i32, text: &str) {
        let s = self.sessions.get_mut(&id).unwrap();
        s.rpc(1, "Chat", "say", &(text,)).unwrap();
        self.pump(rooms);
    }

    /// The `said(from, text)` calls client `id` received, in order.
    fn heard(&self, id: i32) -> Vec<(i32, String)> {
        self.events
            .get(&id)
            .into_iter()
            .flatten()
            .filter_map(|e| match e {
                Event::Rpc(call) if call.method == "said" => call.args_as::<(i32, String)>().ok(),
                _ => None,
            })
            .collect()
    }

    /// The names of the nodes spawned on client `id` and not despawned, and its errors.
    fn nodes(&self, id: i32) -> Vec<String> {
        let mut live = BTreeMap::new();
        for e in self.events.get(&id).into_iter().flatten() {
            match e {
                Event::Spawned { node, name, .. } => {
                    live.insert(*node, name.clone());
                }
                Event::Despawned { node, .. } => {
                    live.remove(node);
                }
                _ => {}
            }
        }
        live.into_values().collect()
    }

    fn errors(&self, id: i32) -> Vec<String> {
        self.events
            .get(&id)
            .into_iter()
            .flatten()
            .filter_map(|e| match e {
                Event::Error { error, .. } => Some(error.to_string()),
                _ => None,
            })
            .collect()
    }

    fn clear(&mut self) {
        self.got.clear();
        self.events.clear();
    }
}

fn sys(sub: u8, id: i32) -> Vec<u8> {
    let mut p = vec![7, sub];
    p.extend_from_slice(&id.to_le_bytes());
    p
}

/// Peers 5 and 6 in room A, 7 in B, on two threads: ADD_PEER only between room-mates, each
/// client sees only its room's node, and a room's `said` to target 0 reaches its peers only.
#[test]
fn a_room_reaches_only_its_peers() {
    let mut rooms = two_rooms(2, RoomsLimits::default());
    let mut clients = Clients::default();
    clients.join(&mut rooms, 5, A);
    clients.pump(&mut rooms);
    clients.join(&mut rooms, 6, A);
    clients.join(&mut rooms, 7, B);
    clients.pump(&mut rooms);
    // 6 was admitted after 5: 5 is told of 6, 6 of 5; 7 of no one.
    assert!(clients.got[&5].contains(&sys(1, 6)));
    assert!(clients.got[&6].contains(&sys(1, 5)));
    assert!(!clients.got[&7].iter().any(|p| p[0] == 7));
    assert_eq!(clients.nodes(5), ["ThingA"]);
    assert_eq!(clients.nodes(6), ["ThingA"]);
    assert_eq!(clients.nodes(7), ["ExtraB", "ThingB"]);

    clients.say(&mut rooms, 5, "hi");
    clients.say(&mut rooms, 7, "yo");
    assert_eq!(clients.heard(5), [(5, "hi".to_owned())]);
    assert_eq!(clients.heard(6), [(5, "hi".to_owned())]);
    assert_eq!(clients.heard(7), [(7, "yo".to_owned())]);
    // 5 relays a RAW packet to everyone (RELAY to target 0): its room-mate 6 gets it from 5,
    // 7 (another room) nothing.
    clients.clear();
    let c5 = clients.sessions.get_mut(&5).unwrap();
    c5.send_bytes(0, b"psst", TransferMode::Reliable, 0)
        .unwrap();
    clients.pump(&mut rooms);
    let raw =
        |id: i32| {
            clients.events.get(&id).into_iter().flatten().any(
                |e| matches!(e, Event::Raw { from: 5, data, .. } if data.as_slice() == b"psst"),
            )
        };
    assert!(raw(6) && !raw(7), "relay stays in the room");
    // Room A's session disconnecting 7 (room B's peer) drops no one.
    rooms
        .run_in(A, |room| room.session().disconnect_peer(7))
        .unwrap();
    assert!(rooms.settle(SETTLE));
    assert_eq!(rooms.poll_output(), None);
    assert_eq!(rooms.room_of(7), Some(B));
    // Nor does it move 7.
    rooms.run_in(A, |room| room.move_peer(7, A)).unwrap();
    assert!(rooms.settle(SETTLE));
    assert_eq!(
        rooms.poll_event(),
        Some(RoomsEvent::MoveRefused { peer: 7, to: A })
    );
    assert_eq!(rooms.room_of(7), Some(B));
    assert!(!clients.got.contains_key(&7));
    for id in [5, 6, 7] {
        assert_eq!(clients.errors(id), Vec::<String>::new(), "client {id}");
    }
    let stats = rooms.stats();
    assert_eq!(stats.peers, 3);
    let per_room: Vec<(RoomId, usize)> = stats.rooms.iter().map(|r| (r.id, r.peers)).collect();
    assert_eq!(per_room, [(A, 2), (B, 1)]);
    assert_eq!((stats.threads, stats.threads_alive), (2, 2));
    // One room per thread.
    assert_ne!(stats.rooms[0].thread, stats.rooms[1].thread);
}

/// Six peers join room A at once with a budget of 2 announcements per client and round: the
/// ADD_PEERs over the budget follow in the rooms' next network frames, until every client is
/// told of each of the five others exactly once.
#[test]
fn a_join_burst_in_a_room_is_announced_over_its_frames() {
    let settings = Settings::default().with_limits(
        Limits::default()
            .with_announce_per_round(2)
            .with_announce_per_round_total(4),
    );
    let mut rooms = Rooms::new(settings, 1);
    rooms.add_room(A, chat_room).unwrap();
    rooms
        .run_in(A, |room| room.session().declare(chat()))
        .unwrap();
    rooms.set_lobby(A);
    let mut clients = Clients::default();
    let ids = [5, 6, 7, 8, 9, 10];
    for id in ids {
        clients.join(&mut rooms, id, A);
    }
    let told = |clients: &Clients, id: i32, other: i32| {
        clients
            .got
            .get(&id)
            .into_iter()
            .flatten()
            .filter(|p| **p == sys(1, other))
            .count()
    };
    let deadline = Instant::now() + SETTLE;
    loop {
        clients.pump(&mut rooms);
        let all = ids.iter().all(|&id| {
            ids.iter()
                .filter(|&&o| o != id)
                .all(|&o| told(&clients, id, o) == 1)
        });
        if all {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not every client was told of the others"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    for id in ids {
        assert_eq!(clients.errors(id), Vec::<String>::new(), "client {id}");
    }
}

/// Client 5 asks to move from A to B (its room's logic moves it). It is sent, in order: the
/// despawn of room A's node (net id 1: A's first), DEL_PEER of its old mate 6, then ADD_PEER
/// of its new mate 7 and room B's node. 6 hears that 5 left, 7 that it came. The client
/// keeps a consistent path cache: room B's ids are new to it (a client session refuses a
/// second announcement of an id, as Godot does), and its own announcement of Chat is known
/// in B, so its next `say` is B's. Then back to A, whose ids it holds already.
#[test]
fn a_moved_peer_sees_the_old_room_go_and_the_new_one_come() {
    for threads in [1, 2] {
        let mut rooms = two_rooms(threads, RoomsLimits::default());
        let mut clients = Clients::default();
        clients.join(&mut rooms, 5, A);
        clients.pump(&mut rooms);
        clients.join(&mut rooms, 6, A);
        clients.join(&mut rooms, 7, B);
        clients.pump(&mut rooms);
        clients.say(&mut rooms, 5, "hi");
        clients.clear();

        clients.say(&mut rooms, 5, "/move 2");
        assert_eq!(
            rooms.poll_event(),
            Some(RoomsEvent::Moved {
                peer: 5,
                from: A,
                to: B
            })
        );
        let got = &clients.got[&5];
        assert_eq!(
            got[0],
            [5, 1, 0, 0, 0],
            "DESPAWN of net id 1 first: {got:?}"
        );
        assert_eq!(clients.errors(5), Vec::<String>::new());
        assert_eq!(got[1], sys(2, 6));
        assert_eq!(got[2], sys(1, 7));
        assert!(
            got[3..].iter().any(|p| p[0] == 4),
            "a SPAWN follows: {got:?}"
        );
        assert_eq!(clients.got[&6], [sys(2, 5)]);
        assert!(clients.got[&7].contains(&sys(1, 5)));
        assert_eq!(clients.nodes(5), ["ExtraB", "ThingB"]);
        assert_eq!(clients.errors(5), Vec::<String>::new());
        let stats = rooms.stats();
        let per_room: Vec<usize> = stats.rooms.iter().map(|r| r.peers).collect();
        assert_eq!(per_room, [1, 2]);

        clients.clear();
        clients.say(&mut rooms, 5, "in b");
        assert_eq!(clients.heard(5), [(5, "in b".to_owned())]);
        assert_eq!(clients.heard(7), [(5, "in b".to_owned())]);
        assert_eq!(clients.heard(6), []);

        clients.clear();
        clients.say(&mut rooms, 5, "/move 1");
        clients.say(&mut rooms, 5, "back");
        assert_eq!(clients.nodes(5), ["ThingA"]);
        assert_eq!(clients.heard(6), [(5, "back".to_owned())]);
        // Room A's Chat and spawner ids are held: announced once, never again.
        assert!(
            !clients.got[&5].iter().any(|p| p[0] == 1),
            "{:?}",
            clients.got[&5]
        );
        for id in [5, 6, 7] {
            assert_eq!(
                clients.errors(id),
                Vec::<String>::new(),
                "client {id}, {threads} threads"
            );
        }
    }
}

/// A peer that sends more than `peer_queue` packets while its room's thread is busy is
/// disconnected with its error; a peer of a room on the other thread is served meanwhile,
/// and so is the busy room once its thread is free.
#[test]
fn a_full_peer_queue_drops_that_peer_only() {
    let mut rooms = two_rooms(2, RoomsLimits::default().with_peer_queue(4));
    let mut clients = Clients::default();
    clients.join(&mut rooms, 5, A);
    clients.join(&mut rooms, 6, A);
    clients.join(&mut rooms, 7, B);
    clients.pump(&mut rooms);
    let (open, gate) = mpsc::channel::<()>();
    rooms
        .run_in(A, move |_| {
            let _ = gate.recv_timeout(SETTLE);
        })
        .unwrap();
    // 5's fifth packet finds four waiting.
    for _ in 0..5 {
        rooms.receive(5, 0, TransferMode::Reliable, vec![3, 1, 2, 3]); // RAW
    }
    assert!(matches!(
        rooms.poll_event(),
        Some(RoomsEvent::Error {
            peer: 5,
            error: ProtocolError::State { .. }
        })
    ));
    assert_eq!(rooms.poll_output(), Some(Output::Disconnect(5)));
    assert_eq!(rooms.room_of(5), None);
    // Room B, on the other thread, answers while A's thread waits.
    clients
        .sessions
        .get_mut(&7)
        .unwrap()
        .rpc(1, "Chat", "say", &("b",))
        .unwrap();
    let s = clients.sessions.get_mut(&7).unwrap();
    while let Some(Output::Packet {
        channel,
        mode,
        data,
        ..
    }) = s.poll_output()
    {
        rooms.receive(7, channel, mode, data);
    }
    let mut said = None;
    let end = Instant::now() + SETTLE;
    while said.is_none() && Instant::now() < end {
        rooms.service();
        while let Some(o) = rooms.poll_output() {
            if let Output::Packet { to: 7, data, .. } = o {
                said = Some(data);
            }
        }
    }
    assert!(
        said.is_some(),
        "room B answered while room A's thread was held"
    );
    open.send(()).unwrap();
    clients.sessions.remove(&5);
    clients.pump(&mut rooms);
    clients.say(&mut rooms, 6, "still here");
    assert_eq!(clients.heard(6).last(), Some(&(6, "still here".to_owned())));
    assert_eq!(rooms.stats().peers, 2);
}

/// A room whose logic panics stops alone: its peers are disconnected, the other room and
/// the thread go on, and the counts say so.
#[test]
fn a_panicking_room_stops_alone() {
    let mut rooms = two_rooms(1, RoomsLimits::default());
    let mut clients = Clients::default();
    clients.join(&mut rooms, 5, A);
    clients.join(&mut rooms, 7, B);
    clients.pump(&mut rooms);
    rooms
        .run_in(A, |_| panic!("a bug in room A's logic"))
        .unwrap();
    assert!(rooms.settle(SETTLE));
    let mut outputs = Vec::new();
    while let Some(o) = rooms.poll_output() {
        outputs.push(o);
    }
    assert_eq!(outputs, [Output::Disconnect(5)]);
    assert_eq!(rooms.poll_event(), Some(RoomsEvent::RoomStopped(A)));
    clients.sessions.remove(&5);
    clients.say(&mut rooms, 7, "fine");
    assert_eq!(clients.heard(7), [(7, "fine".to_owned())]);
    let stats = rooms.stats();
    assert_eq!(
        (stats.peers, stats.rooms.len(), stats.threads_alive),
        (1, 1, 1)
    );
    assert!(!rooms.move_peer(7, A), "no room A to move to");
}

/// The network times of the full SYNC packets (`[NETWORK_COMMAND_SYNC = 6, time as u16 LE,
/// ...]`) in `outputs` for `peer`.
fn sync_times(outputs: &[Output], peer: i32) -> Vec<u16> {
    outputs
        .iter()
        .filter_map(|o| match o {
            Output::Packet { to, data, .. } if *to == peer && data.first() == Some(&6) => {
                Some(u16::from_le_bytes([data[1], data[2]]))
            }
            _ => None,
        })
        .collect()
}

/// A synchronizer outside any spawner (at the same path in both rooms) keeps its last
/// network time on the client, which refuses an older one: the room joined continues the
/// peer's SYNC times where the room left stopped, instead of starting again at 1.
#[test]
fn a_moved_peers_sync_times_continue() {
    use godot_serde_multiplayer::{ReplicationConfig, Synchronizer, Variant};
    let state = || Synchronizer::new("State", ReplicationConfig::new().property(".:score"));
    let mut rooms = Rooms::with_frame(Settings::default(), 2, Duration::from_millis(1));
    for id in [A, B] {
        rooms.add_room(id, |_: &mut Room<'_>, _: Event| {}).unwrap();
        rooms
            .run_in(id, move |room| {
                room.session()
                    .declare_synchronizer(state(), vec![Variant::Int(1)])
                    .unwrap();
            })
            .unwrap();
    }
    let mut client = Session::client(5, Settings::default());
    client
        .declare_synchronizer(state(), vec![Variant::Int(0)])
        .unwrap();
    client.connected(1, Instant::now());
    rooms.connected_to(5, A, Instant::now());
    let mut outputs = Vec::new();
    // Exchanges packets until `enough` SYNCs reached the client since `from`.
    let mut run = |rooms: &mut Rooms, outputs: &mut Vec<Output>, from: usize, enough: usize| {
        let end = Instant::now() + SETTLE;
        while sync_times(&outputs[from..], 5).len() < enough {
            assert!(Instant::now() < end, "{:?}", sync_times(outputs, 5));
            rooms.service();
            while let Some(o) = rooms.poll_output() {
                if let Output::Packet {
                    channel,
                    mode,
                    data,
                    ..
                } = &o
                {
                    client.receive(1, *channel, *mode, data);
                }
                outputs.push(o);
            }
            while let Some(Output::Packet {
                channel,
                mode,
                data,
                ..
            }) = client.poll_output()
            {
                rooms.receive(5, channel, mode, data);
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    };
    run(&mut rooms, &mut outputs, 0, 5);
    assert!(rooms.move_peer(5, B));
    let moved = outputs.len();
    run(&mut rooms, &mut outputs, moved, 3);
    let times = sync_times(&outputs, 5);
    let before = sync_times(&outputs[..moved], 5);
    let last = *before.last().unwrap();
    let after = &times[before.len()..];
    assert!(
        after.iter().all(|&t| t > last),
        "times after the move {after:?} not past {last} (before: {before:?})"
    );
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
}

/// A transport with no peers, listening in name only.
struct Idle;

impl godot_serde_multiplayer::transport::Transport for Idle {
    fn unique_id(&self) -> Option<i32> {
        Some(1)
    }
    fn service(&mut self) -> std::io::Result<()> {
        Ok(())
    }
    fn poll_event(&mut self) -> Option<godot_serde_multiplayer::transport::TransportEvent> {
        None
    }
    fn send(&mut self, _: i32, _: u8, _: TransferMode, _: Vec<u8>) {}
    fn disconnect(&mut self, _: i32) {}
}

/// Ready once a transport listens; healthy while the loop services; the counts follow
/// connections and moves.
#[test]
fn ready_health_and_counts_follow_the_serve_loop() {
    use godot_serde_multiplayer::rooms::RoomsHost;
    let mut host = RoomsHost::new(Settings::default(), 2);
    host.rooms()
        .add_room(A, |_: &mut Room<'_>, _: Event| {})
        .unwrap();
    host.rooms()
        .add_room(B, |_: &mut Room<'_>, _: Event| {})
        .unwrap();
    assert!(!host.is_ready(), "no transport");
    host.add(Idle);
    assert!(host.is_ready());
    let health = host.health();
    assert_eq!(health.since_service(), None);
    assert!(
        !health.is_healthy(Duration::from_secs(3600)),
        "never serviced"
    );
    host.service().unwrap();
    assert!(health.is_healthy(Duration::from_secs(3600)));
    let rooms = host.rooms();
    rooms.connected_to(5, A, Instant::now());
    rooms.connected_to(6, A, Instant::now());
    rooms.connected_to(7, B, Instant::now());
    assert!(rooms.settle(SETTLE));
    assert!(rooms.move_peer(6, B));
    // Counted in the room it goes to at once.
    let counts = |rooms: &Rooms| {
        let s = rooms.stats();
        (s.peers, s.rooms.iter().map(|r| r.peers).collect::<Vec<_>>())
    };
    assert_eq!(counts(rooms), (3, vec![1, 2]));
    assert!(rooms.settle(SETTLE));
    assert_eq!(rooms.room_of(6), Some(B));
    rooms.disconnected(5);
    assert_eq!(counts(rooms), (2, vec![0, 2]));
    assert_eq!(
        rooms.add_room(A, |_: &mut Room<'_>, _: Event| {}),
        Err(godot_serde_multiplayer::rooms::RoomsError::Exists(A))
    );
}

/// A peer still authenticating in its room is not moved: `MoveRefused`, it stays, and the
/// counts are back as they were.
#[test]
fn an_authenticating_peer_is_not_moved() {
    let settings = Settings::default().with_auth(true);
    let mut rooms = Rooms::new(settings, 1);
    rooms.add_room(A, |_: &mut Room<'_>, _: Event| {}).unwrap();
    rooms.add_room(B, |_: &mut Room<'_>, _: Event| {}).unwrap();
    rooms.connected_to(5, A, Instant::now());
    assert!(rooms.move_peer(5, B));
    assert!(rooms.settle(SETTLE));
    assert_eq!(
        rooms.poll_event(),
        Some(RoomsEvent::MoveRefused { peer: 5, to: B })
    );
    assert_eq!(rooms.room_of(5), Some(A));
    let per_room: Vec<usize> = rooms.stats().rooms.iter().map(|r| r.peers).collect();
    assert_eq!(per_room, [1, 0]);
}

/// The defaults as documented, and bounds that would refuse everything raised to 1.
#[test]
fn rooms_limits_defaults_and_builders() {
    let d = RoomsLimits::default();
    assert_eq!(
        (
            d.max_rooms,
            d.room_queue,
            d.peer_queue,
            d.output_batches,
            d.max_held_paths
        ),
        (1_024, 4_096, 256, 1_024, 4_096)
    );
    assert_eq!(Limits::default().rooms, d);
    let z = d
        .with_max_rooms(0)
        .with_room_queue(0)
        .with_peer_queue(0)
        .with_output_batches(0)
        .with_max_held_paths(0);
    assert_eq!(
        (
            z.max_rooms,
            z.room_queue,
            z.peer_queue,
            z.output_batches,
            z.max_held_paths
        ),
        (0, 1, 1, 1, 0)
    );
    // No room may be added past max_rooms.
    let settings =
        Settings::default().with_limits(Limits::default().with_rooms(d.with_max_rooms(1)));
    let mut rooms = Rooms::new(settings, 1);
    rooms.add_room(A, |_: &mut Room<'_>, _: Event| {}).unwrap();
    assert_eq!(
        rooms.add_room(B, |_: &mut Room<'_>, _: Event| {}),
        Err(godot_serde_multiplayer::rooms::RoomsError::Full(1))
    );
}
