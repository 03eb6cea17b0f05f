//! End to end at scale: rooms, interest management and the bot swarm together, live.
//!
//! The crate's server runs in a child process (this binary again, with
//! `GODOT_SERDE_SCALE_SERVER` set), so that the swarm's own cost is not counted as the
//! server's: a `RoomsHost` over ENet with 2 rooms on 2 worker threads (a new peer joins room 1,
//! every second one is moved to room 2), a network frame (tick) of 50 ms, and in each room a
//! 2D radius interest rule of 50 evaluated every tick. Each peer has one unit (a spawned node
//! whose synchronizer carries `position` and `stamp`, synchronized every tick), the peer's
//! focus; each room's side is chosen so that a radius holds about 30 units
//! (`side = radius * sqrt(pi * peers / 30)`).
//!
//! N ENet bots (`bots::Swarm`, 64 to a socket) walk across their room and send
//! `input(x, y, stamp)` at 20 Hz; the server moves the bot's unit there and stores the stamp
//! (microseconds since the bench started) in its state. Measured over 5 s once all joined:
//! - server CPU per tick: the server process's CPU time (all its threads,
//!   `/proc/PID/task/*/schedstat`) over the ticks of the window;
//! - bytes per peer per tick: the SceneMultiplayer bytes the bots received (ENet's headers not
//!   counted), over the bots and ticks;
//! - latency: from an input to the next sync of that unit on each neighbour that sees it (a
//!   neighbour's sync whose `stamp` changed: now - stamp), p50 and p99;
//! - memory per peer: the server's VmRSS after the joins minus before, over N;
//! - the units each bot holds (its neighbours and itself), and the swarm thread's CPU share
//!   (near 100 %, the swarm is the bottleneck and the latency is partly its own).
//!
//! Same run, the same bots against a headless Godot 4 server (`scale_server.gd`): one world
//! of N at the same density, `MultiplayerSpawner` and `MultiplayerSynchronizer`s with a
//! visibility filter by distance per unit, evaluated by the engine for every peer every frame
//! (`update_visibility`), 20 frames a second; the ratios at the N both ran.
//!
//! Run: `GODOT4=/work/shared/godot4/godot cargo bench -p godot-serde-multiplayer --bench scale`
//! (`-- 4000` adds N = 4,000; without `GODOT4`, the crate's server only).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use godot_serde::Vector2;
use godot_serde_multiplayer::bots::{Behaviour, Bot, Stats, Swarm, SwarmConfig};
use godot_serde_multiplayer::enet::EnetTransport;
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::rooms::{Room, RoomId, RoomLogic, RoomsHost};
use godot_serde_multiplayer::{
    BotLimits, Event, InterestRule, Limits, NodeId, ReplicationConfig, ReplicationMode, RpcMethod,
    RpcTable, Settings, SpawnScene, Spawner, SyncId, Synchronizer, TransferMode,
};
use godot_serde_test_support::engine;
use serde::{Deserialize, Serialize};

const SERVER_ENV: &str = "GODOT_SERDE_SCALE_SERVER";
const RADIUS: f32 = 50.0;
const NEIGHBOURS: f64 = 30.0;
const TICK: Duration = Duration::from_millis(50);
const INPUT_HZ: f64 = 20.0;
/// ENet bots to a UDP socket. A server sends each tick's syncs in one burst: with the
/// swarm's default of 64, one socket of 2,000 bots gets about 110 datagrams within a
/// millisecond, more than the system's default receive buffer (212,992 bytes) holds, and most
/// are dropped before the swarm reads them (measured: 206,720 drops in 5 s at N = 2,000).
const PER_SOCKET: usize = 8;
const WINDOW: Duration = Duration::from_secs(5);
/// Latency histogram: buckets of 50 µs up to 5 s.
const BUCKET_US: u64 = 50;
const BUCKETS: usize = 100_000;

/// A unit's synchronized state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Unit {
    position: Vector2,
    stamp: i64,
}

fn unit_sync() -> Synchronizer {
    let config = ReplicationConfig::for_struct::<Unit>(ReplicationMode::Always)
        .expect("a struct of properties");
    Synchronizer::new("Sync", config)
}

fn spawner() -> Spawner {
    Spawner::new("World/Spawner", "World/Players")
        .scene("res://scale_unit.tscn")
        .synchronizer(unit_sync())
}

fn game() -> RpcTable {
    // Inputs are unreliable and ordered, as a game sends them: a lost one is replaced by the
    // next 50 ms later, and none waits for an older one's retransmission.
    RpcTable::new("Game")
        .with(RpcMethod::any_peer("input").transfer(TransferMode::UnreliableOrdered))
}

/// The side of a square world where `peers` units spread evenly put [`NEIGHBOURS`] within
/// [`RADIUS`] of each.
fn side_for(peers: usize) -> f32 {
    (f64::from(RADIUS) * (std::f64::consts::PI * peers as f64 / NEIGHBOURS).sqrt()) as f32
}

/// Where a new peer's unit starts (`scale_server.gd` does the same).
fn start_at(peer: i32, side: f32) -> [f32; 2] {
    let f = |k: f64| ((f64::from(peer) * k).fract() * f64::from(side)) as f32;
    [f(0.618_033_988_7), f(0.754_877_666_2)]
}

fn state(x: f32, y: f32, stamp: i64) -> Vec<godot_serde::Variant> {
    let unit = Unit {
        position: Vector2::new(godot_serde::Real::from(x), godot_serde::Real::from(y)),
        stamp,
    };
    godot_serde_multiplayer::args::to_arguments(&unit).expect("a struct of properties")
}

/// Microseconds since the Unix epoch: the stamps, comparable across the processes.
fn unix_us() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

/// Latencies in buckets of [`BUCKET_US`].
struct Hist(Vec<u64>);

impl Hist {
    fn new() -> Self {
        Self(vec![0; BUCKETS])
    }

    fn add(&mut self, us: i64) {
        if us >= 0 {
            let bucket = (us as u64 / BUCKET_US) as usize;
            self.0[bucket.min(BUCKETS - 1)] += 1;
        }
    }

    fn clear(&mut self) {
        self.0.iter_mut().for_each(|c| *c = 0);
    }

    fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The bucket's upper end where `p` % of the values are at or below it.
    fn percentile(&self, p: f64) -> Option<Duration> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let want = ((total as f64) * p / 100.0).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &c) in self.0.iter().enumerate() {
            seen += c;
            if seen >= want {
                return Some(Duration::from_micros((i as u64 + 1) * BUCKET_US));
            }
        }
        None
    }
}

type Shared = std::sync::Arc<std::sync::Mutex<Hist>>;

/// A room's game: a unit per peer, moved by the peer's input.
struct World {
    side: f32,
    joined: u64,
    units: std::collections::HashMap<i32, (NodeId, SyncId)>,
    /// The age of the inputs when the room handles them.
    ages: Shared,
}

impl RoomLogic for World {
    fn start(&mut self, room: &mut Room<'_>) {
        let s = room.session();
        s.declare(game());
        s.declare_spawner(spawner());
        s.set_interest(InterestRule::radius_2d(RADIUS));
    }

    fn event(&mut self, room: &mut Room<'_>, event: Event) {
        match event {
            Event::PeerConnected(peer) => {
                if room.id() == RoomId(1) {
                    self.joined += 1;
                    if self.joined.is_multiple_of(2) {
                        room.move_peer(peer, RoomId(2));
                        return;
                    }
                }
                let [x, y] = start_at(peer, self.side);
                let s = room.session();
                let Ok(node) = s.spawn(
                    "World/Spawner",
                    SpawnScene::Index(0),
                    &format!("P{peer}"),
                    vec![(unit_sync(), state(x, y, 0))],
                ) else {
                    return;
                };
                let _ = s.set_node_position(node, [x, y]);
                s.set_peer_focus(peer, Some(node));
                if let Some(&sync) = s.node_synchronizers(node).first() {
                    self.units.insert(peer, (node, sync));
                }
            }
            Event::PeerDisconnected(peer) => {
                if let Some((node, _)) = self.units.remove(&peer) {
                    let _ = room.session().despawn(node);
                }
            }
            Event::Rpc(call) if call.method == "input" => {
                let s = room.session();
                let Some((x, y, stamp)) = s.args_of::<(f64, f64, i64)>(&call) else {
                    return;
                };
                let Some(&(node, sync)) = self.units.get(&call.from) else {
                    return;
                };
                if let Ok(mut ages) = self.ages.lock() {
                    ages.add(unix_us() - stamp);
                }
                let side = f64::from(self.side);
                let (x, y) = (x.clamp(0.0, side) as f32, y.clamp(0.0, side) as f32);
                let _ = s.set_state(sync, state(x, y, stamp));
                let _ = s.set_node_position(node, [x, y]);
            }
            _ => {}
        }
    }
}

/// The crate's server (child process), for `n` peers in 2 rooms, until its stdin closes.
fn serve(n: usize) {
    let ages: Shared = std::sync::Arc::new(std::sync::Mutex::new(Hist::new()));
    let control = ages.clone();
    // RESET and REPORT (the inputs' ages at the rooms since the last RESET) from the bench,
    // until stdin closes (the bench ended, or failed).
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            let mut ages = control.lock().unwrap();
            if line == "RESET" {
                ages.clear();
            } else if line == "REPORT" {
                let us = |d: Option<Duration>| d.map_or(0, |d| d.as_micros());
                println!(
                    "AGE {} {} {}",
                    us(ages.percentile(50.0)),
                    us(ages.percentile(99.0)),
                    ages.total()
                );
            }
        }
        std::process::exit(0);
    });
    let settings = Settings::authoritative();
    let rooms = godot_serde_multiplayer::rooms::Rooms::with_frame(settings.clone(), 2, TICK);
    let mut host = RoomsHost::with_rooms(rooms);
    let side = side_for(n.div_ceil(2));
    for id in [1, 2] {
        let world = World {
            side,
            joined: 0,
            units: Default::default(),
            ages: ages.clone(),
        };
        host.rooms().add_room(RoomId(id), world).unwrap();
    }
    host.rooms().set_lobby(RoomId(1));
    let enet =
        EnetTransport::server("127.0.0.1:0".parse().unwrap(), 4095, &settings.limits).unwrap();
    println!("PORT {}", enet.local_addr().unwrap().port());
    host.add(enet);
    loop {
        host.service().unwrap();
        while host.rooms().poll_event().is_some() {}
        std::thread::sleep(Duration::from_micros(500));
    }
}

/// A server under test: the process, its address, and for the crate's its control pipes.
struct Server {
    child: Child,
    addr: SocketAddr,
    control: Option<(
        std::process::ChildStdin,
        BufReader<std::process::ChildStdout>,
    )>,
}

impl Server {
    fn send(&mut self, line: &str) {
        if let Some((stdin, _)) = &mut self.control {
            use std::io::Write;
            let _ = writeln!(stdin, "{line}");
        }
    }

    /// The inputs' ages at the rooms since the last RESET: p50, p99, count.
    fn ages(&mut self) -> Option<(Duration, Duration, u64)> {
        self.send("REPORT");
        let (_, out) = self.control.as_mut()?;
        let mut line = String::new();
        out.read_line(&mut line).ok()?;
        let v: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .filter_map(|v| v.parse().ok())
            .collect();
        Some((
            Duration::from_micros(*v.first()?),
            Duration::from_micros(*v.get(1)?),
            *v.get(2)?,
        ))
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn crate_server(n: usize) -> Server {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(SERVER_ENV, n.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port: u16 = line.trim().strip_prefix("PORT ").unwrap().parse().unwrap();
    let stdin = child.stdin.take().unwrap();
    Server {
        child,
        addr: format!("127.0.0.1:{port}").parse().unwrap(),
        control: Some((stdin, out)),
    }
}

/// `scale_server.gd` on Godot 4 for `n` peers in one world, `seconds` long.
fn godot_server(godot: &Path, n: usize, seconds: u32) -> (Server, engine::Godot4Project) {
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches");
    let project = engine::Godot4Project::new(
        "mp_bench_scale",
        &[
            &dir.join("scale_server.gd"),
            &dir.join("scale_game.gd"),
            &dir.join("scale_unit.gd"),
        ],
    );
    let generated = gdscript::script(&[("units", &spawner())], &[("unit", &unit_sync())]);
    std::fs::write(project.dir.join("replication.gd"), generated).unwrap();
    let args = [
        port.to_string(),
        side_for(n).to_string(),
        RADIUS.to_string(),
        seconds.to_string(),
    ];
    let mut child =
        engine::engine_command(godot, "--headless", &project.dir, "scale_server.gd", &args)
            .env("XDG_DATA_HOME", project.dir.join(".data"))
            .env("XDG_CONFIG_HOME", project.dir.join(".config"))
            .env("XDG_CACHE_HOME", project.dir.join(".cache"))
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 && !line.contains("READY") {
        line.clear();
    }
    assert!(line.contains("READY"), "the Godot server did not start");
    // Keep reading its output so that it never blocks on a full pipe.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let server = Server {
        child,
        addr: format!("127.0.0.1:{port}").parse().unwrap(),
        control: None,
    };
    (server, project)
}

/// The CPU time of every thread of process `pid` so far (Linux).
fn process_cpu(pid: u32) -> Duration {
    let mut ns = 0u64;
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for task in tasks.flatten() {
            let text = std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
            ns += text
                .split_whitespace()
                .next()
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0);
        }
    }
    Duration::from_nanos(ns)
}

/// The CPU time of each thread of process `pid` so far, by thread name (Linux).
fn thread_cpus(pid: u32) -> std::collections::BTreeMap<String, Duration> {
    let mut by_name = std::collections::BTreeMap::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for task in tasks.flatten() {
            let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            let text = std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
            let ns = text
                .split_whitespace()
                .next()
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0);
            *by_name.entry(name.trim().to_owned()).or_default() += Duration::from_nanos(ns);
        }
    }
    by_name
}

/// The socket inodes of process `pid` (`/proc/PID/fd`, Linux).
fn socket_inodes(pid: u32) -> std::collections::HashSet<String> {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter_map(|link| {
            let link = link.to_string_lossy().into_owned();
            Some(link.strip_prefix("socket:[")?.strip_suffix(']')?.to_owned())
        })
        .collect()
}

/// UDP datagrams dropped so far for a full receive buffer by the sockets of process `pid`
/// (`/proc/net/udp`, Linux).
fn socket_drops(pid: u32) -> u64 {
    let inodes = socket_inodes(pid);
    let text = std::fs::read_to_string("/proc/net/udp").unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let inode = fields.get(9)?;
            inodes
                .contains(*inode)
                .then(|| fields.last()?.parse::<u64>().ok())
                .flatten()
        })
        .sum()
}

/// Process `pid`'s resident memory in bytes (Linux).
fn rss(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0)
        * 1024
}

/// This thread's time on a CPU and waiting for one (runnable), so far (Linux).
fn thread_cpu() -> (Duration, Duration) {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let mut v = text
        .split_whitespace()
        .map(|v| Duration::from_nanos(v.parse().unwrap_or(0)));
    (v.next().unwrap_or_default(), v.next().unwrap_or_default())
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

#[derive(Default, Clone, Copy)]
struct Walker {
    pos: [f32; 2],
    vel: [f32; 2],
    own: Option<SyncId>,
}

/// The bots: each walks at 20 units a second, bouncing off its room's edges, and sends its
/// position with a stamp at each tick; the stamps of the other units' syncs give the latency.
struct Walk {
    epoch: Instant,
    side: f32,
    walkers: Vec<Walker>,
    /// `epoch` in [`unix_us`].
    epoch_us: i64,
    measuring: bool,
    latency: Hist,
}

impl Walk {
    fn new(side: f32, n: usize) -> Self {
        let walkers = (0..n)
            .map(|i| {
                let f = |k: f64| (i as f64 * k).fract() as f32;
                let angle = f(0.381_966) * std::f32::consts::TAU;
                Walker {
                    pos: [f(0.618_034) * side, f(0.754_878) * side],
                    vel: [angle.cos() * 20.0, angle.sin() * 20.0],
                    own: None,
                }
            })
            .collect();
        Self {
            epoch: Instant::now(),
            side,
            walkers,
            epoch_us: unix_us(),
            measuring: false,
            latency: Hist::new(),
        }
    }
}

impl Walk {
    /// The time of this `service` call, in [`unix_us`].
    fn stamp(&self, bot: &Bot<'_>) -> i64 {
        self.epoch_us + bot.now().duration_since(self.epoch).as_micros() as i64
    }
}

impl Behaviour for Walk {
    fn event(&mut self, bot: &mut Bot<'_>, event: &Event) {
        match event {
            Event::Spawned { node, name, .. } if *name == format!("P{}", bot.id()) => {
                let own = bot.session().node_synchronizers(*node).first().copied();
                if let Some(w) = self.walkers.get_mut(bot.index()) {
                    w.own = own;
                }
            }
            Event::Synchronized { sync, changed, .. }
                if self.measuring && changed.iter().any(|c| c == ".:stamp") =>
            {
                if self.walkers.get(bot.index()).and_then(|w| w.own) == Some(*sync) {
                    return;
                }
                let Ok(unit) = bot.session().state_as::<Unit>(*sync) else {
                    return;
                };
                if unit.stamp > 0 {
                    self.latency.add(self.stamp(bot) - unit.stamp);
                }
            }
            _ => {}
        }
    }

    fn tick(&mut self, bot: &mut Bot<'_>) {
        let (side, stamp) = (self.side, self.stamp(bot));
        let Some(w) = self.walkers.get_mut(bot.index()) else {
            return;
        };
        for k in 0..2 {
            w.pos[k] += w.vel[k] / INPUT_HZ as f32;
            if w.pos[k] < 0.0 || w.pos[k] > side {
                w.vel[k] = -w.vel[k];
                w.pos[k] = w.pos[k].clamp(0.0, side);
            }
        }
        let (x, y) = (f64::from(w.pos[0]), f64::from(w.pos[1]));
        let _ = bot.call("Game", "input", &(x, y, stamp));
    }
}

struct Measured {
    n: usize,
    joined: usize,
    cpu_ms_per_tick: f64,
    bytes_per_peer_tick: f64,
    packets_per_peer_tick: f64,
    p50: Option<Duration>,
    p99: Option<Duration>,
    mem_per_peer: f64,
    units_per_bot: f64,
    swarm_cpu: f64,
    swarm_wait: f64,
    inputs: f64,
}

fn service_for(swarm: &mut Swarm<Walk>, d: Duration) {
    let end = Instant::now() + d;
    while Instant::now() < end {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_micros(500));
    }
}

/// `n` bots against the server `pid` at `addr`, whose world side is `side`.
fn run(server: &mut Server, n: usize, side: f32) -> Measured {
    let (pid, addr) = (server.child.id(), server.addr);
    let rss_before = rss(pid);
    let limits = Limits::default().with_bots(BotLimits::default().with_bots_per_socket(PER_SOCKET));
    let config = SwarmConfig::enet(addr, n)
        .settings(Settings::default().with_limits(limits))
        .ramp(200.0)
        .rate(INPUT_HZ)
        .declare(game())
        .spawner(spawner());
    let mut swarm = Swarm::new(config, Walk::new(side, n));
    let start = Instant::now();
    while swarm.stats().joined + swarm.stats().failed < n
        && start.elapsed() < Duration::from_secs(30)
    {
        swarm.service().unwrap();
        while swarm.poll_event().is_some() {}
        std::thread::sleep(Duration::from_micros(500));
    }
    // Settle: the first inputs move every unit where its bot is, the spawns follow.
    service_for(&mut swarm, Duration::from_secs(2));
    while swarm.poll_event().is_some() {}
    let rss_after = rss(pid);
    let (threads0, drops0) = (
        thread_cpus(pid),
        [socket_drops(pid), socket_drops(std::process::id())],
    );
    let (cpu0, own0, s0, t0) = (
        process_cpu(pid),
        thread_cpu(),
        swarm.stats(),
        Instant::now(),
    );
    server.send("RESET");
    swarm.behaviour().measuring = true;
    service_for(&mut swarm, WINDOW);
    let (cpu1, own1, s1, wall) = (process_cpu(pid), thread_cpu(), swarm.stats(), t0.elapsed());
    swarm.behaviour().measuring = false;
    if let Some((p50, p99, count)) = server.ages() {
        println!(
            "    of which from the input to the room that handles it: p50 {}, p99 {} ({count} inputs handled)",
            ms(Some(p50)),
            ms(Some(p99)),
        );
    }
    let ticks = wall.as_secs_f64() / TICK.as_secs_f64();
    let threads: Vec<String> = thread_cpus(pid)
        .into_iter()
        .filter_map(|(name, t)| {
            let ms =
                (t - threads0.get(&name).copied().unwrap_or_default()).as_secs_f64() * 1e3 / ticks;
            (ms >= 0.05).then(|| format!("{name} {ms:.2}"))
        })
        .collect();
    let drops1 = [socket_drops(pid), socket_drops(std::process::id())];
    println!(
        "    server threads, ms/tick: {}; datagrams dropped for a full receive buffer: {} by the server's socket, {} by the bots'",
        threads.join(", "),
        drops1[0].saturating_sub(drops0[0]),
        drops1[1].saturating_sub(drops0[1]),
    );
    let joined = s1.connected.max(1);
    let per_peer_tick = |d: u64| d as f64 / joined as f64 / ticks;
    let units = (s1.spawns - s1.despawns) as f64 / joined as f64;
    let m = Measured {
        n,
        joined: s1.connected,
        cpu_ms_per_tick: (cpu1 - cpu0).as_secs_f64() * 1e3 / ticks,
        bytes_per_peer_tick: per_peer_tick(s1.bytes_received - s0.bytes_received),
        packets_per_peer_tick: per_peer_tick(s1.packets_received - s0.packets_received),
        p50: swarm.behaviour().latency.percentile(50.0),
        p99: swarm.behaviour().latency.percentile(99.0),
        mem_per_peer: rss_after.saturating_sub(rss_before) as f64 / n as f64,
        units_per_bot: units,
        swarm_cpu: (own1.0 - own0.0).as_secs_f64() / wall.as_secs_f64(),
        swarm_wait: (own1.1 - own0.1).as_secs_f64() / wall.as_secs_f64(),
        inputs: (s1.rpcs_sent - s0.rpcs_sent) as f64
            / (wall.as_secs_f64() * INPUT_HZ * joined as f64),
    };
    report(&m, &s1);
    swarm.close();
    m
}

fn ms(d: Option<Duration>) -> String {
    d.map_or("-".into(), |d| format!("{:.1} ms", d.as_secs_f64() * 1e3))
}

fn report(m: &Measured, s: &Stats) {
    println!(
        "  N = {:>5} ({} joined): server CPU {:.2} ms/tick; {:.0} B and {:.2} packets per peer per tick; input to neighbours' sync p50 {}, p99 {}; server memory {:.0} B/peer; {:.1} units per bot; swarm thread on a CPU {:.0} %, waiting for one {:.0} %, inputs sent {:.0} % of 20 Hz{}",
        m.n,
        m.joined,
        m.cpu_ms_per_tick,
        m.bytes_per_peer_tick,
        m.packets_per_peer_tick,
        ms(m.p50),
        ms(m.p99),
        m.mem_per_peer,
        m.units_per_bot,
        m.swarm_cpu * 100.0,
        m.swarm_wait * 100.0,
        m.inputs * 100.0,
        if s.failed + s.disconnected + s.errors as usize > 0 {
            format!(
                " ({} failed, {} left, {} errors)",
                s.failed, s.disconnected, s.errors
            )
        } else {
            String::new()
        }
    );
}

fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.2}", a / b)
    } else {
        "-".into()
    }
}

fn main() {
    if let Some(n) = std::env::var(SERVER_ENV).ok().and_then(|n| n.parse().ok()) {
        serve(n);
        return;
    }
    println!("load average before: {}", load_average());
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = vec![100, 200, 500, 2_000];
    }
    println!(
        "crate server (child process; 2 rooms on 2 threads, radius {RADIUS}, tick {} ms, inputs at {INPUT_HZ} Hz):",
        TICK.as_millis()
    );
    let mut ours = Vec::new();
    for &n in &sizes {
        let mut server = crate_server(n);
        ours.push(run(&mut server, n, side_for(n.div_ceil(2))));
        server.stop();
    }
    let Some(godot) = engine::godot4() else {
        println!("(GODOT4 not set: no Godot server run)");
        println!("load average after: {}", load_average());
        return;
    };
    println!(
        "Godot 4 server ({}; one world, visibility filters by distance, 20 frames a second):",
        engine::godot4_version(&godot)
    );
    for &n in &[100, 200, 500] {
        let (mut server, _project) = godot_server(&godot, n, 60);
        let theirs = run(&mut server, n, side_for(n));
        server.stop();
        if theirs.joined < n {
            println!("  (Godot held {} of {n} bots: not compared)", theirs.joined);
        } else if let Some(o) = ours.iter().find(|o| o.n == n) {
            let lat = |d: Option<Duration>| d.map_or(0.0, |d| d.as_secs_f64());
            println!(
                "  crate / Godot at N = {n}: CPU per tick {}, bytes per peer per tick {}, p50 {}, p99 {}, memory per peer {}",
                ratio(o.cpu_ms_per_tick, theirs.cpu_ms_per_tick),
                ratio(o.bytes_per_peer_tick, theirs.bytes_per_peer_tick),
                ratio(lat(o.p50), lat(theirs.p50)),
                ratio(lat(o.p99), lat(theirs.p99)),
                ratio(o.mem_per_peer, theirs.mem_per_peer),
            );
        }
    }
    println!("load average after: {}", load_average());
}
