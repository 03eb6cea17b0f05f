//! The bot swarm's own cost (`bots::Swarm`), and the round-trip rate of 1,000 bots against
//! the crate's server and a headless Godot 4 server running the same game, in one run.
//!
//! The crate's server runs in a child process (this binary again, with
//! `GODOT_SERDE_SWARM_SERVER` set), so the heap and the CPU time measured here are the
//! swarm's alone: the heap through a counting allocator, the CPU time of the swarm's thread
//! from `/proc/thread-self/schedstat` (Linux; wall time in `service` elsewhere).
//!
//! The servers do not relay (`server_relay` off, a server-authoritative game): with relay on,
//! every join is announced to every other peer (N² notices, and each bot's session keeps a
//! record of each other peer, `tests/heap/bots.rs`), which is the server's and the bots'
//! cost of the protocol, not the swarm's.
//!
//! 1. Overhead at N = 250 and 1,000 ENet bots (64 to a socket): heap per joined bot; CPU per
//!    bot per second idle (joined, ENet's pings) and calling `echo` at 10 Hz; the 1,000 / 250
//!    per-bot ratios (1.0: linear).
//! 2. Round trips per second at 1,000 bots, each keeping 4 timed calls in flight (a call
//!    answered is sent again), against the crate's server and against `swarm_server.gd` on
//!    Godot 4 (frames as fast as it runs), with p50/p99; the Rust / Godot ratio.
//!
//! Run: `GODOT4=/work/shared/godot4/godot cargo bench -p godot-serde-multiplayer --bench swarm`
//! (without `GODOT4`, part 2 runs against the crate's server only).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use godot_serde_multiplayer::bots::{Behaviour, Bot, BotEvent, Stats, Swarm, SwarmConfig};
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::{
    Event, ReplicationConfig, ReplicationMode, RpcMethod, RpcTable, Settings, Spawner, Synchronizer,
};
use godot_serde_test_support::engine;
use peak_alloc::PeakAlloc;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

const SERVER_ENV: &str = "GODOT_SERDE_SWARM_SERVER";
const WINDOW: usize = 4;

fn table() -> RpcTable {
    RpcTable::new("Swarm").with(RpcMethod::any_peer("echo"))
}

/// The crate's server (child process): `echo` answered, until its stdin closes (the bench
/// ended, or failed).
fn serve() {
    std::thread::spawn(|| {
        let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
        std::process::exit(0);
    });
    let mut server = EnetPeer::server(
        "127.0.0.1:0".parse().unwrap(),
        4000,
        Settings::authoritative(),
    )
    .unwrap();
    server.session().declare(table());
    println!("PORT {}", server.local_addr().unwrap().port());
    loop {
        server.service().unwrap();
        let mut busy = false;
        while let Some(event) = server.poll_event() {
            if let Event::Rpc(call) = event {
                busy = true;
                let args = call.variants().unwrap_or_default();
                let _ = server
                    .session()
                    .rpc_variants(call.from, "Swarm", "echo", &args);
            }
        }
        if !busy {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

/// Starts the crate's server in a child process; its address.
fn crate_server() -> (Child, SocketAddr) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(SERVER_ENV, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line.trim().strip_prefix("PORT ").unwrap().parse().unwrap();
    (child, format!("127.0.0.1:{port}").parse().unwrap())
}

/// This thread's CPU time (Linux), else `None`.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// What the bots do: nothing, `echo` at each tick (10 Hz), or keep `WINDOW` timed calls in
/// flight (a call answered is sent again; the tick tops the window up).
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Idle,
    Rate,
    Window,
}

struct Echo {
    mode: Mode,
}

impl Behaviour for Echo {
    fn event(&mut self, bot: &mut Bot<'_>, event: &Event) {
        if matches!(event, Event::Rpc(call) if call.method == "echo") {
            bot.answered();
            if self.mode == Mode::Window {
                let _ = bot.call_timed("Swarm", "echo", &(1i64,));
            }
        }
    }

    fn tick(&mut self, bot: &mut Bot<'_>) {
        match self.mode {
            Mode::Idle => {}
            Mode::Rate => {
                let _ = bot.call_timed("Swarm", "echo", &(1i64,));
            }
            Mode::Window => {
                while bot.in_flight() < WINDOW {
                    let _ = bot.call_timed("Swarm", "echo", &(1i64,));
                }
            }
        }
    }
}

/// Services `swarm` for `d`; returns the swarm thread's CPU time in it (wall time in
/// `service` where the CPU time is not known).
fn measure(swarm: &mut Swarm<Echo>, d: Duration) -> Duration {
    let cpu = thread_cpu();
    let end = Instant::now() + d;
    let mut busy = Duration::ZERO;
    while Instant::now() < end {
        let t = Instant::now();
        swarm.service().unwrap();
        busy += t.elapsed();
        std::thread::sleep(Duration::from_millis(1));
    }
    match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => busy,
    }
}

/// Services `swarm` until its `n` bots joined or failed (20 s at most); prints what kept
/// bots out, counted by reason.
fn join(swarm: &mut Swarm<Echo>, n: usize) {
    let start = Instant::now();
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    while swarm.stats().joined + swarm.stats().failed < n
        && start.elapsed() < Duration::from_secs(20)
    {
        swarm.service().unwrap();
        while let Some(e) = swarm.poll_event() {
            if !matches!(e.event, BotEvent::Joined) {
                *reasons.entry(format!("{:?}", e.event)).or_default() += 1;
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let s = swarm.stats();
    if s.joined < n || !reasons.is_empty() {
        println!(
            "  {} of {n} joined in {:.1} s, {} failed, {} left: {reasons:?}",
            s.joined,
            start.elapsed().as_secs_f64(),
            s.failed,
            s.disconnected
        );
    }
}

struct Overhead {
    heap_per_bot: usize,
    idle_us: f64,
    calling_us: f64,
    stats: Stats,
}

fn overhead(addr: SocketAddr, n: usize) -> Overhead {
    let before = HEAP.current_usage();
    let config = SwarmConfig::enet(addr, n)
        .ramp(200.0)
        .rate(10.0)
        .declare(table());
    let mut swarm = Swarm::new(config, Echo { mode: Mode::Idle });
    join(&mut swarm, n);
    // Settle: the joins' notices and first pings.
    measure(&mut swarm, Duration::from_millis(500));
    let heap_per_bot = HEAP.current_usage().saturating_sub(before) / swarm.stats().joined.max(1);
    let secs = 2.0;
    let idle = measure(&mut swarm, Duration::from_secs_f64(secs));
    swarm.behaviour().mode = Mode::Rate;
    let calling = measure(&mut swarm, Duration::from_secs_f64(secs));
    let joined = swarm.stats().joined.max(1) as f64;
    let per_bot_s = |d: Duration| d.as_secs_f64() * 1e6 / joined / secs;
    let stats = swarm.stats();
    swarm.close();
    Overhead {
        heap_per_bot,
        idle_us: per_bot_s(idle),
        calling_us: per_bot_s(calling),
        stats,
    }
}

/// Round trips per second of `n` bots keeping [`WINDOW`] calls in flight for 3 s, once all
/// joined.
fn round_trips(addr: SocketAddr, n: usize) -> (f64, Stats) {
    // `GODOT_SERDE_SWARM_PER_SOCKET=1`: one socket a bot, to compare.
    let per_socket = std::env::var("GODOT_SERDE_SWARM_PER_SOCKET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let limits = godot_serde_multiplayer::Limits::default()
        .with_bots(godot_serde_multiplayer::BotLimits::default().with_bots_per_socket(per_socket));
    let config = SwarmConfig::enet(addr, n)
        .settings(Settings::default().with_limits(limits))
        .ramp(200.0)
        .rate(10.0)
        .declare(table());
    let mut swarm = Swarm::new(config, Echo { mode: Mode::Idle });
    join(&mut swarm, n);
    swarm.behaviour().mode = Mode::Window;
    measure(&mut swarm, Duration::from_millis(500));
    let before = swarm.stats().round_trips();
    let secs = 3.0;
    measure(&mut swarm, Duration::from_secs_f64(secs));
    let stats = swarm.stats();
    swarm.close();
    ((stats.round_trips() - before) as f64 / secs, stats)
}

fn ms(d: Option<Duration>) -> String {
    d.map_or("-".into(), |d| format!("{:.1} ms", d.as_secs_f64() * 1e3))
}

/// `swarm_server.gd` on Godot 4 (no objects, no authentication, frames as fast as it runs)
/// on a free port for `seconds`.
fn godot_server(engine: &Path, seconds: u32) -> (std::thread::JoinHandle<()>, SocketAddr) {
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/godot");
    let project = engine::Godot4Project::new(
        "mp_bench_swarm",
        &[&dir.join("swarm_server.gd"), &dir.join("swarm_node.gd")],
    );
    let spawner = Spawner::new("World/Spawner", "World/Players").scene("res://object.tscn");
    let sync = Synchronizer::new(
        "Sync",
        ReplicationConfig::new().with(".:position", true, ReplicationMode::Always),
    );
    let generated = gdscript::script(&[("objects", &spawner)], &[("object", &sync)]);
    std::fs::write(project.dir.join("replication.gd"), generated).unwrap();
    let engine = engine.to_path_buf();
    let handle = std::thread::spawn(move || {
        let args = [
            port.to_string(),
            seconds.to_string(),
            "0".into(),
            "enet".into(),
            String::new(),
            "0".into(),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = project.run(&engine, "swarm_server.gd", &args, Duration::from_secs(120));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        for line in stderr.lines().filter(|l| l.contains("ERROR")).take(3) {
            println!("  Godot: {line}");
        }
        for line in stdout
            .lines()
            .filter(|l| l.starts_with("MAX_PEERS") || l.starts_with("CALLS"))
        {
            println!("  Godot: {line}");
        }
    });
    std::thread::sleep(Duration::from_millis(1500));
    (handle, format!("127.0.0.1:{port}").parse().unwrap())
}

fn main() {
    if std::env::var_os(SERVER_ENV).is_some() {
        serve();
        return;
    }
    println!("load average before: {}", load_average());
    let (mut child, addr) = crate_server();
    // `-- rt`: the round trips only.
    let overheads: &[usize] = if std::env::args().any(|a| a == "rt") {
        &[]
    } else {
        &[250, 1_000]
    };
    println!("swarm overhead (the crate's server in a child process; ENet bots, 64 to a socket):");
    let mut per_n = Vec::new();
    for &n in overheads {
        let o = overhead(addr, n);
        println!(
            "  N = {n:>5}: heap {:>6} B/bot joined; CPU {:.1} µs/bot/s idle, {:.1} µs/bot/s calling at 10 Hz ({} calls, {} answered, p50 {}, p99 {})",
            o.heap_per_bot,
            o.idle_us,
            o.calling_us,
            o.stats.rpcs_sent,
            o.stats.round_trips(),
            ms(o.stats.latency_percentile(50.0)),
            ms(o.stats.latency_percentile(99.0)),
        );
        per_n.push(o);
    }
    if let [small, large] = per_n.as_slice() {
        println!(
            "  1,000 / 250 per bot: heap {:.2}, CPU idle {:.2}, calling {:.2}",
            large.heap_per_bot as f64 / small.heap_per_bot as f64,
            large.idle_us / small.idle_us,
            large.calling_us / small.calling_us
        );
    }
    const N: usize = 1_000;
    println!("round trips at {N} bots, {WINDOW} calls in flight each:");
    let (ours, stats) = round_trips(addr, N);
    let _ = child.kill();
    let _ = child.wait();
    println!(
        "  crate server: {ours:.0} rt/s, p50 {}, p99 {}",
        ms(stats.latency_percentile(50.0)),
        ms(stats.latency_percentile(99.0))
    );
    match engine::godot4() {
        Some(godot) => {
            println!("  engine: {}", engine::godot4_version(&godot));
            let (handle, addr) = godot_server(&godot, 40);
            let (theirs, stats) = round_trips(addr, N);
            println!(
                "  Godot 4 server: {theirs:.0} rt/s, p50 {}, p99 {}",
                ms(stats.latency_percentile(50.0)),
                ms(stats.latency_percentile(99.0))
            );
            println!("  Rust / Godot: {:.2}", ours / theirs.max(1e-9));
            handle.join().unwrap();
        }
        None => println!("  (GODOT4 not set: no Godot server run)"),
    }
    println!("load average after: {}", load_average());
}
