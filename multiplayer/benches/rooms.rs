//! Rooms over 2 threads against 1, same run: `cargo bench -p godot-serde-multiplayer --bench
//! rooms`.
//!
//! 8 rooms × 50 peers, sans IO (no sockets: the bench is the transport thread). A round: each
//! of the 400 peers sends 10 `say(text)` calls (the compact, cached-id form a Godot client
//! sends once its path is confirmed); each room answers every call with `said(from, text)` to
//! its 50 peers, so a round is 4,000 packets in and 200,000 out, read back by the bench. The two
//! servers (`Rooms` over 1 thread, over 2) run their rounds interleaved; the bench prints the
//! median of the rounds' time ratios (1 thread / 2 threads: above 1, the second thread
//! helps) and each server's CPU time over its wall time (Linux `/proc/self/task/*/stat`:
//! above 1, more than one core worked). The machine is shared: read the ratio with `uptime`.
//! Arguments: `ROUNDS` (default 20), `ROOMS` (8), `PEERS` per room (50), `CALLS` per peer
//! and round (10).

#![allow(clippy::unwrap_used, clippy::cast_precision_loss, missing_docs)]

use std::time::{Duration, Instant};

use godot_serde_multiplayer::rooms::{Room, RoomId, Rooms};
use godot_serde_multiplayer::{Event, Output, RpcMethod, RpcTable, Session, Settings};

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

/// The process's CPU time (user + system, all threads), from `/proc/self/stat`.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the command: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10)) // USER_HZ = 100
}

struct Server {
    rooms: Rooms,
    /// Each peer with its call packet.
    calls: Vec<(i32, Vec<u8>)>,
    calls_per_peer: usize,
    outputs_per_round: usize,
    wall: Duration,
    cpu: Duration,
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
        cpu: Duration::ZERO,
    }
}

/// One round: every call in, every answer out.
fn round(s: &mut Server) -> Duration {
    let (start, cpu0) = (Instant::now(), cpu_time());
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
    if let (Some(a), Some(b)) = (cpu0, cpu_time()) {
        s.cpu += b.saturating_sub(a);
    }
    took
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let rounds = args.first().copied().unwrap_or(20);
    let rooms_n = u32::try_from(args.get(1).copied().unwrap_or(8)).unwrap();
    let peers = i32::try_from(args.get(2).copied().unwrap_or(50)).unwrap();
    let calls = args.get(3).copied().unwrap_or(10);
    let mut one = server(1, rooms_n, peers, calls);
    let mut two = server(2, rooms_n, peers, calls);
    let mut ratios = Vec::new();
    for _ in 0..rounds {
        let a = round(&mut one);
        let b = round(&mut two);
        ratios.push(a.as_secs_f64() / b.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    let per = |s: &Server| s.wall.as_secs_f64() * 1e3 / rounds as f64;
    println!(
        "rooms: {rooms_n} rooms x {peers} peers, {rounds} rounds of {} calls in, {} packets out",
        one.calls.len() * calls,
        one.outputs_per_round
    );
    for (name, s) in [("1 thread ", &one), ("2 threads", &two)] {
        println!(
            "  {name}: {:.1} ms a round, CPU / wall {:.2}",
            per(s),
            s.cpu.as_secs_f64() / s.wall.as_secs_f64()
        );
    }
    println!(
        "  ratio (1 thread / 2 threads, median of rounds): {median:.2} (quartiles {:.2}..{:.2})",
        ratios[ratios.len() / 4],
        ratios[ratios.len() * 3 / 4]
    );
}
