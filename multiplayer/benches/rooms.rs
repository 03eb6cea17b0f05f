//! Rooms over 2 threads against 1, same run: `cargo bench -p godot-serde-multiplayer --bench
//! rooms`.
//!
//! 8 rooms × 50 peers, sans IO (no sockets: the bench is the transport thread). A round: each
//! of the 400 peers sends 10 `say(text)` calls (the compact, cached-id form a Godot client
//! sends once its path is confirmed); each room answers every call with `said(from, text)` to
//! its 50 peers, so a round is 4,000 packets in and 200,000 out, read back by the bench. The two
//! servers (`Rooms` over 1 thread, over 2) run their rounds interleaved; the bench prints the
//! median of the rounds' time ratios (1 thread / 2 threads: above 1, the second thread
//! helps), the ratio of the best rounds (the rounds the shared machine disturbed least), and
//! each server's CPU time over its wall time, the process's and its rooms' threads' (Linux
//! `/proc/self/task/*/stat`: above 1, more than one core worked at once), and the ratio of the
//! busiest thread's CPU time (transport thread or a rooms' thread) of the two servers: what
//! the wall-time ratio is when each thread has a core, which a loaded machine does not give. The machine is shared: read the ratio with `uptime`.
//! A second workload, `sync`, is room work with little routing: each room spawns one player
//! per peer, and a round moves all 400 players and runs a network frame in every room (a
//! full SYNC of its 50 synchronizers to each of its 50 peers), 20 times. `chat` or `sync` selects one.
//! Arguments: `ROUNDS` (default 40), `ROOMS` (8), `PEERS` per room (50), `CALLS` per peer
//! and round (10).

#![allow(clippy::unwrap_used, clippy::cast_precision_loss, missing_docs)]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use godot_serde::Vector2;
use godot_serde_multiplayer::rooms::{Room, RoomId, Rooms};
use godot_serde_multiplayer::{
    Event, Output, ReplicationConfig, RpcMethod, RpcTable, Session, Settings, SpawnScene, Spawner,
    Synchronizer, Variant,
};

fn chat() -> RpcTable {
    RpcTable::new("/root/Chat")
        .with(RpcMethod::any_peer("say"))
        .with(RpcMethod::authority("said"))
}

fn room_logic(room: &mut Room<'_>, event: Event) {
    if let Event::Rpc(call) = event {
        if let Some((text,)) = room.session().args_of::<(String,)>(&call) {
            room.session()
                .rpc(0, "Chat", "said", &(call.from, text))
                .unwrap();
        }
    }
}

/// CPU ticks (user + system, 10 ms each) of the process's threads by thread id, each with
/// whether it is a rooms' thread (named `rooms-N`), from `/proc/self/task/*/stat` (Linux;
/// empty elsewhere).
fn cpu_ticks() -> HashMap<u64, (u64, bool)> {
    let mut out = HashMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in tasks.flatten() {
        let Ok(tid) = task.file_name().to_string_lossy().parse::<u64>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let comm = head.rsplit_once('(').map_or("", |(_, c)| c);
        let room = comm
            .strip_prefix("rooms-")
            .is_some_and(|n| n.parse::<usize>().is_ok());
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // After the command: utime and stime are fields 14 and 15 of proc(5).
        let tick = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<u64>().ok())
                .unwrap_or(0)
        };
        out.insert(tid, (tick(11) + tick(12), room));
    }
    out
}

/// Adds the ticks each thread used between `before` and now to `into`.
fn add_ticks(into: &mut HashMap<u64, (u64, bool)>, before: &HashMap<u64, (u64, bool)>) {
    for (tid, (ticks, room)) in cpu_ticks() {
        let was = before.get(&tid).map_or(0, |b| b.0);
        into.entry(tid).or_insert((0, room)).0 += ticks.saturating_sub(was);
    }
}

struct Server {
    rooms: Rooms,
    /// Each peer with its call packet.
    calls: Vec<(i32, Vec<u8>)>,
    calls_per_peer: usize,
    outputs_per_round: usize,
    wall: Duration,
    /// Ticks of each thread over this server's rounds.
    cpu: HashMap<u64, (u64, bool)>,
    best: Duration,
}

/// `rooms` rooms of `peers` peers over `threads` threads, the peers' path confirmed (one
/// warm-up exchange with a client session each), their call packets kept.
fn server(threads: usize, rooms_n: u32, peers: i32, calls_per_peer: usize) -> Server {
    let mut rooms = Rooms::new(Settings::authoritative(), threads);
    for r in 0..rooms_n {
        rooms.add_room(RoomId(r), room_logic).unwrap();
        rooms
            .run_in(RoomId(r), |room| room.session().declare(chat()))
            .unwrap();
    }
    let mut clients = Vec::new();
    for r in 0..rooms_n {
        for p in 0..peers {
            let id = 2 + i32::try_from(r).unwrap() * peers + p;
            let mut c = Session::client(id, Settings::authoritative());
            c.declare(chat());
            c.connected(1, Instant::now());
            rooms.connected_to(id, RoomId(r), Instant::now());
            clients.push((id, c));
        }
    }
    let text = "a chat line of about forty bytes....".to_owned();
    // Warm-up: the SIMPLIFY_PATH / CONFIRM_PATH exchange both ways.
    for _ in 0..3 {
        for (id, c) in &mut clients {
            c.rpc(1, "Chat", "say", &(text.as_str(),)).unwrap();
            while let Some(o) = c.poll_output() {
                if let Output::Packet {
                    channel,
                    mode,
                    data,
                    ..
                } = o
                {
                    rooms.receive(*id, channel, mode, data);
                }
            }
        }
        assert!(rooms.settle(Duration::from_secs(120)));
        while let Some(o) = rooms.poll_output() {
            if let Output::Packet {
                to,
                channel,
                mode,
                data,
            } = o
            {
                let c = &mut clients[usize::try_from(to - 2).unwrap()].1;
                c.receive(1, channel, mode, &data);
            }
        }
    }
    let calls = clients
        .iter_mut()
        .map(|(id, c)| {
            while c.poll_output().is_some() {}
            c.rpc(1, "Chat", "say", &(text.as_str(),)).unwrap();
            let Some(Output::Packet { data, .. }) = c.poll_output() else {
                panic!("no call packet")
            };
            assert!(c.poll_output().is_none(), "one packet: the compact call");
            (*id, data)
        })
        .collect();
    Server {
        rooms,
        calls,
        calls_per_peer,
        outputs_per_round: (rooms_n as usize)
            * (peers as usize)
            * (peers as usize)
            * calls_per_peer,
        wall: Duration::ZERO,
        cpu: HashMap::new(),
        best: Duration::MAX,
    }
}

/// One round: every call in, every answer out.
fn round(s: &mut Server) -> Duration {
    let (start, cpu0) = (Instant::now(), cpu_ticks());
    for _ in 0..s.calls_per_peer {
        for (id, data) in &s.calls {
            s.rooms.receive(
                *id,
                0,
                godot_serde_multiplayer::TransferMode::Reliable,
                data.clone(),
            );
        }
        s.rooms.service();
    }
    let mut got = 0;
    let deadline = start + Duration::from_secs(120);
    while got < s.outputs_per_round {
        s.rooms.service();
        while let Some(o) = s.rooms.poll_output() {
            if let Output::Packet { .. } = std::hint::black_box(o) {
                got += 1;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{got} of {} outputs",
            s.outputs_per_round
        );
        std::thread::sleep(Duration::from_micros(50));
    }
    let took = start.elapsed();
    s.wall += took;
    s.best = s.best.min(took);
    add_ticks(&mut s.cpu, &cpu0);
    took
}

/// The sync workload: each room spawns one player per peer (a public synchronizer of a
/// Vector2 and a float); a round moves every player and runs one network frame in each room:
/// a full SYNC of the room's 50 synchronizers to each of its 50 peers (split at the 1,350-byte
/// `sync_mtu`). The rooms' frames run only when a round asks.
fn sync_server(threads: usize, rooms_n: u32, peers: i32) -> Server {
    let mut rooms = Rooms::with_frame(
        Settings::authoritative(),
        threads,
        Duration::from_secs(3600),
    );
    for r in 0..rooms_n {
        let room = RoomId(r);
        rooms
            .add_room(room, |_: &mut Room<'_>, _: Event| {})
            .unwrap();
        for p in 0..peers {
            let id = 2 + i32::try_from(r).unwrap() * peers + p;
            rooms.connected_to(id, room, Instant::now());
        }
        rooms
            .run_in(room, move |room| {
                let s = room.session();
                s.declare_spawner(
                    Spawner::new("World/Spawner", "World/Players").scene("res://p.tscn"),
                );
                for p in 0..peers {
                    s.spawn(
                        "World/Spawner",
                        SpawnScene::Index(0),
                        &format!("P{p}"),
                        vec![(
                            player_sync(),
                            vec![
                                Variant::Vector2(Vector2::new(0.0, 0.0)),
                                Variant::Float(0.0),
                            ],
                        )],
                    )
                    .unwrap();
                }
            })
            .unwrap();
    }
    assert!(rooms.settle(Duration::from_secs(120)));
    while rooms.poll_output().is_some() {}
    Server {
        rooms,
        calls: Vec::new(),
        calls_per_peer: 0,
        outputs_per_round: 0,
        wall: Duration::ZERO,
        cpu: HashMap::new(),
        best: Duration::MAX,
    }
}

fn player_sync() -> Synchronizer {
    let config = ReplicationConfig::new()
        .property(".:position")
        .property(".:rotation");
    Synchronizer::new("Sync", config)
}

/// Network frames in one round of the sync workload.
const FRAMES: usize = 20;

/// One round of the sync workload: every player moved and a network frame in every room,
/// [`FRAMES`] times.
fn sync_round(s: &mut Server, rooms_n: u32, peers: i32, round: usize) -> Duration {
    let (start, cpu0) = (Instant::now(), cpu_ticks());
    for r in 0..rooms_n {
        s.rooms
            .run_in(RoomId(r), move |room| {
                let session = room.session();
                for frame in 0..FRAMES {
                    for p in 0..peers {
                        let sync = session
                            .synchronizer_at(&format!("World/Players/P{p}/Sync"))
                            .unwrap();
                        let x = (round * FRAMES + frame) as godot_serde::Real;
                        session
                            .set_state(
                                sync,
                                vec![Variant::Vector2(Vector2::new(x, 1.0)), Variant::Float(0.5)],
                            )
                            .unwrap();
                    }
                    session.handle_timeout(Instant::now());
                }
            })
            .unwrap();
    }
    assert!(s.rooms.settle(Duration::from_secs(120)));
    let mut got = 0;
    while let Some(o) = s.rooms.poll_output() {
        std::hint::black_box(o);
        got += 1;
    }
    assert!(
        got >= (rooms_n as usize) * (peers as usize),
        "{got} SYNC packets"
    );
    let took = start.elapsed();
    s.wall += took;
    s.best = s.best.min(took);
    add_ticks(&mut s.cpu, &cpu0);
    took
}

/// Prints one workload's lines.
fn report(name: &str, one: &Server, two: &Server, rounds: usize, mut ratios: Vec<f64>) {
    ratios.sort_by(f64::total_cmp);
    println!("{name}");
    // The busiest thread's CPU ticks: the transport thread (every thread not a rooms' one)
    // or the busiest of this server's `n` rooms' threads (the other server's idle thread
    // ticks its frames too, at the bottom).
    let critical = |s: &Server, n: usize| {
        let main: u64 = s.cpu.values().filter(|t| !t.1).map(|t| t.0).sum();
        let mut rooms: Vec<u64> = s.cpu.values().filter(|t| t.1).map(|t| t.0).collect();
        rooms.sort_unstable_by(|a, b| b.cmp(a));
        rooms.truncate(n);
        main.max(rooms.first().copied().unwrap_or(0))
    };
    for (label, s) in [("1 thread ", one), ("2 threads", two)] {
        let wall_ticks = s.wall.as_secs_f64() * 100.0;
        let all: u64 = s.cpu.values().map(|t| t.0).sum();
        let mut rooms: Vec<u64> = s
            .cpu
            .values()
            .filter(|t| t.1 && t.0 > 0)
            .map(|t| t.0)
            .collect();
        rooms.sort_unstable_by(|a, b| b.cmp(a));
        let room_total: u64 = rooms.iter().sum();
        let split: Vec<String> = rooms
            .iter()
            .map(|t| format!("{:.0} %", *t as f64 * 100.0 / room_total.max(1) as f64))
            .collect();
        println!(
            "  {label}: {:.1} ms a round (best {:.1}); CPU / wall: process {:.2}, rooms' threads {:.2}; rooms' threads' share: {}",
            s.wall.as_secs_f64() * 1e3 / rounds as f64,
            s.best.as_secs_f64() * 1e3,
            all as f64 / wall_ticks,
            room_total as f64 / wall_ticks,
            split.join(" / ")
        );
    }
    println!(
        "  1 thread / 2 threads: median of rounds {:.2} (quartiles {:.2}..{:.2}), best rounds {:.2}",
        ratios[ratios.len() / 2],
        ratios[ratios.len() / 4],
        ratios[ratios.len() * 3 / 4],
        one.best.as_secs_f64() / two.best.as_secs_f64()
    );
    println!(
        "  busiest thread's CPU time, 1 thread / 2 threads: {:.2} (the wall-time ratio with a core per thread)",
        critical(one, 1) as f64 / critical(two, 2).max(1) as f64
    );
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .filter_map(|a| a.parse().ok())
        .collect();
    let rounds = args.first().copied().unwrap_or(40);
    let rooms_n = u32::try_from(args.get(1).copied().unwrap_or(8)).unwrap();
    let peers = i32::try_from(args.get(2).copied().unwrap_or(50)).unwrap();
    let calls = args.get(3).copied().unwrap_or(10);
    let which = std::env::args()
        .skip(1)
        .find(|a| a == "chat" || a == "sync");
    let want = |w: &str| which.as_deref().is_none_or(|x| x == w);
    if want("chat") {
        let mut one = server(1, rooms_n, peers, calls);
        let mut two = server(2, rooms_n, peers, calls);
        let mut ratios = Vec::new();
        for _ in 0..rounds {
            let a = round(&mut one);
            let b = round(&mut two);
            ratios.push(a.as_secs_f64() / b.as_secs_f64());
        }
        let name = format!(
            "chat: {rooms_n} rooms x {peers} peers, {rounds} rounds of {} calls in, {} packets out",
            one.calls.len() * calls,
            one.outputs_per_round
        );
        report(&name, &one, &two, rounds, ratios);
    }
    if want("sync") {
        let mut one = sync_server(1, rooms_n, peers);
        let mut two = sync_server(2, rooms_n, peers);
        let mut ratios = Vec::new();
        for i in 0..rounds {
            let a = sync_round(&mut one, rooms_n, peers, i);
            let b = sync_round(&mut two, rooms_n, peers, i);
            ratios.push(a.as_secs_f64() / b.as_secs_f64());
        }
        let name = format!(
            "sync: {rooms_n} rooms x {peers} peers, {rounds} rounds of {FRAMES} frames: {} players moved and one frame a room",
            rooms_n as usize * peers as usize
        );
        report(&name, &one, &two, rounds, ratios);
    }
}
