//! Live: the bot swarm (`bots::Swarm`) against the crate's server and against a headless Godot
//! 4.6 server running the same game (`tests/godot/swarm_server.gd` + `swarm_node.gd`): an
//! `@rpc` echo, and a spawner whose objects' positions are synchronized every network frame.
//! Bots join (authenticating with the Godot server), call `echo(seq)` at 10 Hz for 2 s, every
//! call is answered, every bot follows the spawns and the syncs (asserted from the bots'
//! received state), and the server counts every bot as its peer.

use crate::dialect::free_udp_port;
use crate::engine;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use godot_serde::{Real, Vector2};
use godot_serde_multiplayer::bots::{
    Behaviour, Bot, BotEvent, BotPhase, Stats, Swarm, SwarmConfig,
};
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::{
    BotLimits, Event, Limits, ReplicationConfig, ReplicationMode, RpcMethod, RpcTable, Settings,
    SpawnScene, Spawner, Synchronizer,
};
use serde::{Deserialize, Serialize};

/// An object's synchronized state (its one property, `.:position`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Obj {
    position: Vector2,
}

fn sync() -> Synchronizer {
    Synchronizer::new(
        "Sync",
        ReplicationConfig::for_struct::<Obj>(ReplicationMode::Always).unwrap(),
    )
}

fn spawner() -> Spawner {
    Spawner::new("World/Spawner", "World/Players").scene("res://object.tscn")
}

fn table() -> RpcTable {
    RpcTable::new("Swarm").with(RpcMethod::any_peer("echo"))
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/godot")
        .join(name)
}

/// Objects in the world.
const M: usize = 4;
/// Calls per second per bot, and for how long.
const HZ: f64 = 10.0;
const CALLING: Duration = Duration::from_secs(2);

/// Calls `echo(seq)` while `calling`, times each answer; keeps, per bot, the largest x
/// position a sync brought (the server moves object i to (frame + i, i) each frame).
struct Echo {
    calling: bool,
    seq: i64,
    moved: Vec<Real>,
}

impl Behaviour for Echo {
    fn tick(&mut self, bot: &mut Bot<'_>) {
        if self.calling {
            self.seq += 1;
            bot.call_timed("Swarm", "echo", &(self.seq,)).unwrap();
        }
    }

    fn event(&mut self, bot: &mut Bot<'_>, event: &Event) {
        match event {
            Event::Rpc(call) if call.method == "echo" => {
                bot.answered();
            }
            Event::Synchronized { sync, .. } => {
                let index = bot.index();
                if let Ok(o) = bot.session().state_as::<Obj>(*sync) {
                    if let Some(x) = self.moved.get_mut(index) {
                        *x = x.max(o.position.x);
                    }
                }
            }
            _ => {}
        }
    }
}

fn config(config: SwarmConfig, per_socket: usize) -> SwarmConfig {
    let limits = Limits::default().with_bots(BotLimits::default().with_bots_per_socket(per_socket));
    config
        .settings(Settings::default().with_limits(limits))
        .rate(HZ)
        .declare(table())
        .spawner(spawner().synchronizer(sync()))
}

/// Runs `swarm` of `n` bots: until all joined (the ramp-up's bound checked on the way), then
/// calling for [`CALLING`], then until every call is answered. Returns the statistics.
fn exercise(swarm: &mut Swarm<Echo>, n: usize, ramp: f64) -> Stats {
    let start = Instant::now();
    let mut events = Vec::new();
    while swarm.stats().joined < n {
        swarm.service().unwrap();
        // The ramp-up: never more bots started than `ramp` per second since the first call
        // (plus the first one).
        let limit = (start.elapsed().as_secs_f64() * ramp).floor() as usize + 1;
        assert!(
            ramp == 0.0 || swarm.stats().started <= limit,
            "{} started, the ramp allows {limit}",
            swarm.stats().started
        );
        while let Some(e) = swarm.poll_event() {
            events.push(e);
        }
        let s = swarm.stats();
        assert!(
            s.failed == 0 && start.elapsed() < Duration::from_secs(30),
            "{} of {n} joined, {} failed: {events:?}",
            s.joined,
            s.failed
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    swarm.behaviour().calling = true;
    swarm.run_for(CALLING).unwrap();
    swarm.behaviour().calling = false;
    let drain = Instant::now();
    while swarm.stats().round_trips() < swarm.stats().rpcs_sent
        && drain.elapsed() < Duration::from_secs(10)
    {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    // The syncs of the last frames, for the bots that joined last.
    swarm.run_for(Duration::from_millis(300)).unwrap();
    while let Some(e) = swarm.poll_event() {
        events.push(e);
    }
    let stats = swarm.stats();
    let joined = events
        .iter()
        .filter(|e| e.event == BotEvent::Joined)
        .count();
    assert_eq!(joined, n, "{events:?}");
    assert!(
        events.iter().all(|e| e.event == BotEvent::Joined),
        "{events:?}"
    );
    stats
}

/// What every bot received: the M objects spawned, syncs that moved them, an answer to each
/// of its calls.
fn check_bots(swarm: &Swarm<Echo>, n: usize, moved: &[Real]) {
    assert_eq!(moved.len(), n);
    for (i, &x) in moved.iter().enumerate() {
        let (id, phase, received) = swarm.bot(i).unwrap();
        assert_eq!(phase, BotPhase::Joined, "bot {i} ({id})");
        assert_eq!(received.spawns, M as u64, "bot {i}: {received:?}");
        assert_eq!(received.nodes(), M as u64, "bot {i}: {received:?}");
        assert!(received.syncs > 0, "bot {i}: {received:?}");
        assert_eq!(received.errors, 0, "bot {i}: {received:?}");
        // 2 s at 10 Hz: at most 21 calls each (the first tick is spread over one period;
        // a loaded machine may skip ticks, never add any).
        assert!(
            (5..=21).contains(&received.answers),
            "bot {i}: {received:?}"
        );
        assert_eq!(received.rpcs, received.answers, "bot {i}: {received:?}");
        // Positions start at (i, i) on spawn: x above M comes from a frame's move.
        assert!(x > M as Real, "bot {i}: largest x {x}");
    }
}

fn report(what: &str, stats: &Stats, sockets: usize) {
    println!(
        "{what}: {} joined, {} failed, {} sockets; {} calls, {} answered, p50 {:?}, p99 {:?}; {} spawns, {} syncs",
        stats.joined,
        stats.failed,
        sockets,
        stats.rpcs_sent,
        stats.round_trips(),
        stats.latency_percentile(50.0),
        stats.latency_percentile(99.0),
        stats.spawns,
        stats.syncs
    );
}

/// What the crate's server saw.
struct ServerSeen {
    max_peers: usize,
    calls: usize,
    auth_failed: usize,
}

/// The crate's server doing what `swarm_server.gd` does: `echo` answered, M objects spawned
/// and moved at 30 frames a second, peers authenticating with `secret` when there is one.
fn crate_server(
    secret: Option<&'static [u8]>,
) -> (
    SocketAddr,
    Arc<AtomicBool>,
    std::thread::JoinHandle<ServerSeen>,
) {
    let settings = Settings::default().with_auth(secret.is_some());
    let mut server = EnetPeer::server("127.0.0.1:0".parse().unwrap(), 4000, settings).unwrap();
    let addr = server.local_addr().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    let handle = std::thread::spawn(move || {
        let session = server.session();
        session.declare(table());
        session.declare_spawner(spawner());
        let mut syncs = Vec::new();
        for i in 0..M {
            let state = Obj {
                position: Vector2::new(i as Real, i as Real),
            };
            let values = godot_serde_multiplayer::args::to_arguments(&state).unwrap();
            let node = session
                .spawn(
                    "World/Spawner",
                    SpawnScene::Index(0),
                    &format!("O{i}"),
                    vec![(sync(), values)],
                )
                .unwrap();
            syncs.push(session.node_synchronizers(node)[0]);
        }
        let mut seen = ServerSeen {
            max_peers: 0,
            calls: 0,
            auth_failed: 0,
        };
        let mut frame = 0u32;
        let mut next = Instant::now();
        while !stopped.load(Ordering::Relaxed) {
            server.service().unwrap();
            while let Some(event) = server.poll_event() {
                let session = server.session();
                match event {
                    Event::PeerConnected(_) => {
                        seen.max_peers = seen.max_peers.max(session.peers().count());
                    }
                    Event::AuthData { peer, data } => {
                        if Some(data.as_slice()) == secret {
                            session.complete_auth(peer);
                        } else {
                            session.disconnect_peer(peer);
                            seen.auth_failed += 1;
                        }
                    }
                    Event::Rpc(call) if call.method == "echo" => {
                        seen.calls += 1;
                        let args = call.variants().unwrap();
                        session
                            .rpc_variants(call.from, "Swarm", "echo", &args)
                            .unwrap();
                    }
                    _ => {}
                }
            }
            let now = Instant::now();
            if now >= next {
                next = now + Duration::from_micros(33_333);
                frame += 1;
                let session = server.session();
                for (i, &sync) in syncs.iter().enumerate() {
                    let p = Vector2::new((frame as usize + i) as Real, i as Real);
                    session.set_state_as(sync, &Obj { position: p }).unwrap();
                }
                session.handle_timeout(now);
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        server.close();
        seen
    });
    (addr, stop, handle)
}

/// 50 ENet bots, 16 to a socket, ramped up at 100 a second, against the crate's server.
#[test]
fn swarm_against_the_crate_server() {
    const N: usize = 50;
    let (addr, stop, server) = crate_server(None);
    let mut swarm = Swarm::new(
        config(SwarmConfig::enet(addr, N), 16).ramp(100.0),
        Echo {
            calling: false,
            seq: 0,
            moved: vec![0.0; N],
        },
    );
    let stats = exercise(&mut swarm, N, 100.0);
    report("crate server", &stats, swarm.sockets());
    // 50 bots, 16 to a socket: 4 sockets.
    assert_eq!(swarm.sockets(), 4);
    assert_eq!((stats.joined, stats.failed, stats.connected), (N, 0, N));
    assert_eq!(stats.round_trips(), stats.rpcs_sent);
    let moved = swarm.behaviour().moved.clone();
    check_bots(&swarm, N, &moved);
    swarm.close();
    stop.store(true, Ordering::Relaxed);
    let seen = server.join().unwrap();
    assert_eq!(seen.max_peers, N);
    assert_eq!(seen.calls as u64, stats.rpcs_sent);
}

/// Bots whose authentication data the server refuses fail, each as its event; the others
/// join.
#[test]
fn refused_authentication_is_each_bots_failure() {
    let (addr, stop, server) = crate_server(Some(b"s3cret"));
    let echo = || Echo {
        calling: false,
        seq: 0,
        moved: vec![0.0; 3],
    };
    let mut bad = Swarm::new(
        config(SwarmConfig::enet(addr, 3), 64).auth(b"wrong"),
        echo(),
    );
    let mut good = Swarm::new(
        config(SwarmConfig::enet(addr, 3), 64).auth(b"s3cret"),
        echo(),
    );
    let start = Instant::now();
    while (bad.stats().failed < 3 || good.stats().joined < 3)
        && start.elapsed() < Duration::from_secs(20)
    {
        bad.service().unwrap();
        good.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut failures = Vec::new();
    while let Some(e) = bad.poll_event() {
        failures.push(e);
    }
    assert_eq!(failures.len(), 3, "{failures:?}");
    for (i, e) in failures.iter().enumerate() {
        assert!(matches!(&e.event, BotEvent::Failed(_)), "{e:?}");
        assert_eq!(bad.bot(e.bot).unwrap().1, BotPhase::Failed, "failure {i}");
    }
    let (b, g) = (bad.stats(), good.stats());
    assert_eq!((b.failed, b.joined, b.connected), (3, 0, 0));
    assert_eq!((g.failed, g.joined, g.connected), (0, 3, 3));
    stop.store(true, Ordering::Relaxed);
    assert_eq!(server.join().unwrap().auth_failed, 3);
}

/// WebSocket bots of a port where nothing listens: each fails as its event; `service` never
/// fails.
#[test]
fn websocket_bots_of_a_closed_port_fail_each() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let url = format!("ws://127.0.0.1:{port}/");
    let mut swarm = Swarm::new(SwarmConfig::websocket(addr, &url, 3), |_: &mut Bot<'_>| {});
    let start = Instant::now();
    while swarm.stats().failed < 3 && start.elapsed() < Duration::from_secs(10) {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut events = Vec::new();
    while let Some(e) = swarm.poll_event() {
        events.push(e);
    }
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(
        events
            .iter()
            .all(|e| matches!(e.event, BotEvent::Failed(_)))
    );
    let s = swarm.stats();
    assert_eq!((s.started, s.failed, s.joined), (3, 3, 0));
}

/// Starts `swarm_server.gd` on `port` (transport `transport`, `secret` for authentication)
/// for `seconds`; returns its thread.
fn godot_server(
    engine: &Path,
    name: &str,
    port: u16,
    transport: &'static str,
    secret: &'static str,
    seconds: u32,
) -> std::thread::JoinHandle<std::process::Output> {
    let scripts = [&script("swarm_server.gd"), &script("swarm_node.gd")];
    let project = engine::Godot4Project::new(name, &scripts.map(PathBuf::as_path));
    let generated = gdscript::script(&[("objects", &spawner())], &[("object", &sync())]);
    std::fs::write(project.dir.join("replication.gd"), generated).unwrap();
    let engine = engine.to_path_buf();
    std::thread::spawn(move || {
        let args = [
            port.to_string(),
            seconds.to_string(),
            M.to_string(),
            transport.to_owned(),
            secret.to_owned(),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        project.run(&engine, "swarm_server.gd", &args, Duration::from_secs(90))
    })
}

/// The number after `key` in the engine's output.
fn printed(stdout: &str, key: &str) -> Option<u64> {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
}

fn against_godot(name: &str, ws: bool, n: usize) {
    let Some(engine) = engine::godot4_or_skip(name) else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let port = if ws {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    } else {
        free_udp_port()
    };
    let transport = if ws { "ws" } else { "enet" };
    let godot = godot_server(&engine, name, port, transport, "s3cret", 9);
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    if ws {
        // A WebSocket bot of a port not yet open fails at once: wait for the listener.
        let start = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(start.elapsed() < Duration::from_secs(30), "no server");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let base = if ws {
        SwarmConfig::websocket(addr, &format!("ws://127.0.0.1:{port}/"), n)
    } else {
        SwarmConfig::enet(addr, n)
    };
    let mut swarm = Swarm::new(
        config(base, 16).auth(b"s3cret").ramp(100.0),
        Echo {
            calling: false,
            seq: 0,
            moved: vec![0.0; n],
        },
    );
    let stats = exercise(&mut swarm, n, 100.0);
    report(
        &format!("Godot 4 server ({transport})"),
        &stats,
        swarm.sockets(),
    );
    assert_eq!((stats.joined, stats.failed, stats.connected), (n, 0, n));
    assert_eq!(stats.round_trips(), stats.rpcs_sent);
    let moved = swarm.behaviour().moved.clone();
    check_bots(&swarm, n, &moved);
    swarm.close();
    let out = godot.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    println!(
        "{}",
        stdout
            .lines()
            .filter(|l| !l.starts_with("PEERS"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The engine counted every bot as its peer at once, answered every call, refused none.
    assert_eq!(printed(&stdout, "MAX_PEERS "), Some(n as u64), "{stdout}");
    assert_eq!(
        printed(&stdout, "CALLS "),
        Some(stats.rpcs_sent),
        "{stdout}"
    );
    assert_eq!(printed(&stdout, "AUTH_FAILED "), Some(0), "{stdout}");
}

/// 50 ENet bots (16 to a socket) authenticate with a headless Godot 4.6 server and play.
#[test]
fn enet_swarm_against_godot4() {
    against_godot("enet_swarm_against_godot4", false, 50);
}

/// 20 WebSocket bots authenticate with a headless Godot 4.6 server and play.
#[test]
fn websocket_swarm_against_godot4() {
    against_godot("websocket_swarm_against_godot4", true, 20);
}

/// The swarm's bounds: events beyond `max_events` are counted, not queued; timed calls beyond
/// `max_in_flight` forget the oldest, counted as unanswered.
#[test]
fn events_and_timed_calls_are_bounded() {
    // Three WebSocket bots fail at a closed port; two events are queued, one counted.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let limits = Limits::default().with_bots(BotLimits::default().with_max_events(2));
    let config = SwarmConfig::websocket(addr, &format!("ws://{addr}/"), 3)
        .settings(Settings::default().with_limits(limits));
    let mut swarm = Swarm::new(config, |_: &mut Bot<'_>| {});
    let start = Instant::now();
    while swarm.stats().failed < 3 && start.elapsed() < Duration::from_secs(10) {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut events = 0;
    while swarm.poll_event().is_some() {
        events += 1;
    }
    assert_eq!((events, swarm.stats().events_dropped), (2, 1));

    // Three timed calls a tick, one remembered: the first two of each tick are forgotten.
    struct Three(bool);
    impl Behaviour for Three {
        fn tick(&mut self, bot: &mut Bot<'_>) {
            if !self.0 {
                return;
            }
            for seq in 0..3 {
                bot.call_timed("Swarm", "echo", &(seq,)).unwrap();
                assert_eq!(bot.in_flight(), 1);
            }
        }
        fn event(&mut self, bot: &mut Bot<'_>, event: &Event) {
            if matches!(event, Event::Rpc(call) if call.method == "echo") {
                bot.answered();
            }
        }
    }
    let (addr, stop, server) = crate_server(None);
    let limits = Limits::default().with_bots(BotLimits::default().with_max_in_flight(1));
    let config = SwarmConfig::enet(addr, 2)
        .settings(Settings::default().with_limits(limits))
        .rate(HZ)
        .declare(table())
        .spawner(spawner().synchronizer(sync()));
    let mut swarm = Swarm::new(config, Three(true));
    let start = Instant::now();
    while swarm.stats().rpcs_sent < 30 && start.elapsed() < Duration::from_secs(20) {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    // Stop calling; every call is answered (the forgotten ones too, untimed).
    swarm.behaviour().0 = false;
    while swarm.stats().rpcs_received < swarm.stats().rpcs_sent
        && start.elapsed() < Duration::from_secs(30)
    {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    let s = swarm.stats();
    swarm.close();
    stop.store(true, Ordering::Relaxed);
    server.join().unwrap();
    assert!(s.rpcs_sent >= 30, "{s:?}");
    // At least 2 of each tick's 3 calls forgotten; at most the third answered.
    assert!(3 * s.unanswered >= 2 * s.rpcs_sent, "{s:?}");
    assert!(3 * s.round_trips() <= s.rpcs_sent, "{s:?}");
    assert_eq!(s.rpcs_received, s.rpcs_sent, "{s:?}");
}

/// What the ENet bots received is counted in packets and bytes: two bots, each sent one RAW
/// packet of 5 bytes by a server without relay (nothing else reaches a bot of it), so
/// 2 packets of 1 + 5 bytes (the RAW command byte, `NETWORK_COMMAND_RAW`, then the data).
#[test]
fn enet_bots_count_the_packets_and_bytes_they_receive() {
    let mut server =
        EnetPeer::server("127.0.0.1:0".parse().unwrap(), 8, Settings::authoritative()).unwrap();
    let addr: SocketAddr = format!("127.0.0.1:{}", server.local_addr().unwrap().port())
        .parse()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let handle = std::thread::spawn(move || {
        let mut peers = 0;
        while !stopped.load(Ordering::Relaxed) {
            server.service().unwrap();
            while let Some(event) = server.poll_event() {
                if let Event::PeerConnected(peer) = event {
                    peers += 1;
                    server
                        .session()
                        .send_bytes(
                            peer,
                            b"hello",
                            godot_serde_multiplayer::TransferMode::Reliable,
                            0,
                        )
                        .unwrap();
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        server.close();
        peers
    });
    let mut swarm = Swarm::new(SwarmConfig::enet(addr, 2), |_: &mut Bot<'_>| {});
    let start = Instant::now();
    while swarm.stats().raw_received < 2 && start.elapsed() < Duration::from_secs(20) {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    // Anything else would have arrived by now.
    let settle = Instant::now();
    while settle.elapsed() < Duration::from_millis(300) {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    let stats = swarm.stats();
    swarm.close();
    stop.store(true, Ordering::Relaxed);
    assert_eq!(handle.join().unwrap(), 2);
    assert_eq!(stats.raw_received, 2);
    assert_eq!((stats.packets_received, stats.bytes_received), (2, 12));
}
