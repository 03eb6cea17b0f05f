//! Join-burst benchmark: N ENet clients (the crate's own `EnetPeer`, Godot 4's channel layout,
//! 255 channels as Godot's `create_client` opens) are created at once in a child process and
//! join (a) our server with relay on (Godot's default), paced (`Limits::announce_per_round`);
//! the same unpaced (every announcement at admission, as Godot's `_admit_peer` sends them);
//! (b) relay off; and (c) headless Godot 4.6 (`benches/bench_burst_server.gd`), relay on and
//! off. N = 2,000 on one port, and 4,000 over two ports of one `Host` (ENet's limit is 4,095
//! a host). Reported, same run: joined, dropped (disconnected after joining, or never
//! answered), time until every client joined (and, relay on, was told of every other), the
//! server's longest `service()` (Godot: longest frame), server memory per peer (ours: the
//! counting allocator; Godot: resident memory), and server CPU per peer over one idle second
//! with everyone joined (ours also per peer-tick, a tick being one `service()`).
//!
//! Columns: `told%` is the share of the N × (N − 1) `SYS_ADD_PEER` notices the clients
//! received by the end (relay on); `pass ms` the clients' longest pass over all N of them
//! (one thread services them all: a pass longer than ENet's 5 s timeout gets clients
//! dropped by whichever server); `µs/peer/s` the server's CPU per peer over one idle second
//! once everyone joined and was told (or at the 45 s limit), `ns/peer/t` the same per
//! `service()` call.
//!
//! Run: `GODOT4=... cargo bench -p godot-serde-multiplayer --bench burst`; `-- ours` skips
//! Godot, `-- quick` runs N = 2,000 only, `-- on` only the paced relay-on rows;
//! `GODOT_SERDE_BURST_PROGRESS=1` prints the clients' progress each second and every
//! `service()` call of ours over 200 ms.

use godot_serde_test_support::engine;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use godot_serde_multiplayer::enet::{EnetPeer, EnetTransport};
use godot_serde_multiplayer::transport::Host;
use godot_serde_multiplayer::{Event, Limits, Settings};
use peak_alloc::PeakAlloc;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// How long the clients wait for everyone to join (and be told of everyone).
const LIMIT: Duration = Duration::from_secs(45);
/// How long they stay connected after that, for the idle measurement.
const HOLD: Duration = Duration::from_secs(3);

/// What the clients saw.
#[derive(Debug, Default, Clone)]
struct Seen {
    joined: usize,
    dropped: usize,
    /// Until every client that joined was told of every other (relay on), or joined.
    all_ms: Option<u128>,
    joined_ms: Option<u128>,
    /// `SYS_ADD_PEER` notices received, all clients together.
    told: usize,
    /// The clients' longest pass over all of them (ENet drops a peer silent for 5 to 30 s).
    longest_pass_ms: u64,
}

/// The child process: `clients ADDR[,ADDR] N TOLD(0/1)`.
fn clients_main(args: &[String]) {
    let addrs: Vec<SocketAddr> = args[0].split(',').map(|a| a.parse().unwrap()).collect();
    let n: usize = args[1].parse().unwrap();
    let want_told = args[2] == "1";
    let started = Instant::now();
    let mut peers: Vec<EnetPeer> = (0..n)
        .map(|i| {
            EnetPeer::client_with_id(addrs[i % addrs.len()], i as i32 + 2, Settings::default())
                .unwrap()
        })
        .collect();
    println!("CREATED_MS {}", started.elapsed().as_millis());
    let mut joined = vec![false; n];
    let mut dropped = vec![false; n];
    let mut told = vec![0usize; n];
    let (mut joined_ms, mut all_ms) = (None, None);
    let mut done_at = None;
    let mut last_report = 0;
    let mut longest_pass = Duration::ZERO;
    loop {
        let pass = Instant::now();
        for (i, p) in peers.iter_mut().enumerate() {
            let _ = p.service();
            while let Some(e) = p.poll_event() {
                match e {
                    Event::PeerConnected(1) => joined[i] = true,
                    Event::PeerConnected(_) => told[i] += 1,
                    Event::PeerDisconnected(1) => dropped[i] = true,
                    _ => {}
                }
            }
        }
        longest_pass = longest_pass.max(pass.elapsed());
        let now = started.elapsed();
        if std::env::var_os("GODOT_SERDE_BURST_PROGRESS").is_some() && now.as_secs() != last_report
        {
            last_report = now.as_secs();
            let sum: usize = told.iter().sum();
            let min = told.iter().min().copied().unwrap_or(0);
            eprintln!(
                "{:>3} s: joined {}, told {sum} (least {min})",
                last_report,
                joined.iter().filter(|&&j| j).count()
            );
        }
        let settled = |i: usize| joined[i] || dropped[i];
        if joined_ms.is_none() && (0..n).all(settled) {
            joined_ms = Some(now.as_millis());
        }
        let all_told =
            (0..n).all(|i| dropped[i] || (joined[i] && (!want_told || told[i] >= n - 1)));
        if all_ms.is_none() && all_told {
            all_ms = Some(now.as_millis());
            println!("DONE");
        }
        if done_at.is_none() && (all_told || now > LIMIT) {
            if !all_told {
                println!("DONE");
            }
            done_at = Some(Instant::now());
        }
        if done_at.is_some_and(|d| d.elapsed() > HOLD) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let joined_n = joined.iter().filter(|&&j| j).count();
    let dropped_n = (0..n).filter(|&i| dropped[i] || !joined[i]).count();
    let told_n: usize = told.iter().sum();
    println!(
        "RESULT {joined_n} {dropped_n} {} {} {told_n} {}",
        joined_ms.map_or(-1, |v| v as i64),
        all_ms.map_or(-1, |v| v as i64),
        longest_pass.as_millis()
    );
    for p in &mut peers {
        p.close();
    }
}

/// Runs the clients against `addrs`; `at_done` is called when they report DONE (everyone
/// joined and told), and again (`false`) one second later.
fn run_clients(
    addrs: &[SocketAddr],
    n: usize,
    want_told: bool,
    closing: &AtomicBool,
    at_done: &mut dyn FnMut(bool),
) -> Seen {
    let list: Vec<String> = addrs.iter().map(ToString::to_string).collect();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .arg("clients")
        .arg(list.join(","))
        .arg(n.to_string())
        .arg(if want_told { "1" } else { "0" })
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Seen::default();
    for line in out.lines() {
        let line = line.unwrap();
        if line == "DONE" {
            at_done(true);
            std::thread::sleep(Duration::from_secs(1));
            at_done(false);
        } else if let Some(rest) = line.strip_prefix("RESULT ") {
            closing.store(true, Ordering::Relaxed);
            let v: Vec<i64> = rest.split(' ').map(|w| w.parse().unwrap()).collect();
            seen.joined = v[0] as usize;
            seen.dropped = v[1] as usize;
            seen.joined_ms = u128::try_from(v[2]).ok();
            seen.all_ms = u128::try_from(v[3]).ok();
            seen.told = v[4] as usize;
            seen.longest_pass_ms = v[5] as u64;
        }
    }
    child.wait().unwrap();
    seen
}

/// CPU seconds (user + system) of process `pid` (`self`), from `/proc/<pid>/stat`.
fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the command name's closing parenthesis: fields 3.., utime and stime are 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|w| w.parse().unwrap_or(0.0))
        .collect();
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

/// Resident memory of process `pid` in bytes.
fn rss(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| {
            v.trim()
                .trim_end_matches(" kB")
                .trim()
                .parse::<usize>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// One row of the table.
struct Row {
    name: String,
    n: usize,
    seen: Seen,
    longest_ms: f64,
    bytes_per_peer: usize,
    cpu_us_per_peer_s: f64,
    cpu_ns_per_peer_tick: Option<f64>,
}

fn print_header() {
    println!(
        "{:<34} {:>5} {:>6} {:>7} {:>9} {:>9} {:>6} {:>7} {:>10} {:>8} {:>10} {:>10}",
        "server",
        "N",
        "joined",
        "dropped",
        "joined s",
        "all s",
        "told%",
        "pass ms",
        "longest ms",
        "B/peer",
        "µs/peer/s",
        "ns/peer/t"
    );
}

fn print_row(r: &Row) {
    let secs = |ms: Option<u128>| ms.map_or("-".to_string(), |v| format!("{:.2}", v as f64 / 1e3));
    println!(
        "{:<34} {:>5} {:>6} {:>7} {:>9} {:>9} {:>6.1} {:>7} {:>10.1} {:>8} {:>10.2} {:>10}",
        r.name,
        r.n,
        r.seen.joined,
        r.seen.dropped,
        secs(r.seen.joined_ms),
        secs(r.seen.all_ms),
        r.seen.told as f64 * 100.0 / (r.n as f64 * (r.n as f64 - 1.0)),
        r.seen.longest_pass_ms,
        r.longest_ms,
        r.bytes_per_peer,
        r.cpu_us_per_peer_s,
        r.cpu_ns_per_peer_tick
            .map_or("-".to_string(), |v| format!("{v:.1}"))
    );
}

/// Our server on `ports` ports of 127.0.0.1, on a thread, with `settings`.
fn ours(name: &str, n: usize, ports: usize, settings: Settings) -> Row {
    let relay = settings.relay;
    let before = HEAP.current_usage();
    let mut host = Host::server(settings.clone());
    let mut addrs = Vec::new();
    for _ in 0..ports {
        let t =
            EnetTransport::server("127.0.0.1:0".parse().unwrap(), 4095, &settings.limits).unwrap();
        addrs.push(t.local_addr().unwrap());
        host.add(t);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let closing = Arc::new(AtomicBool::new(false));
    let ticks = Arc::new(AtomicU64::new(0));
    let longest_us = Arc::new(AtomicU64::new(0));
    let server = {
        let (stop, ticks, longest_us) = (stop.clone(), ticks.clone(), longest_us.clone());
        let closing = closing.clone();
        std::thread::Builder::new()
            .name("server".into())
            .spawn(move || {
                let mut errors = std::collections::BTreeMap::new();
                let progress = std::env::var_os("GODOT_SERDE_BURST_PROGRESS").is_some();
                let started = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    host.service().unwrap();
                    let took = t.elapsed();
                    let mut busy = false;
                    let mut events = 0;
                    while let Some(event) = host.poll_event() {
                        busy = true;
                        events += 1;
                        match event {
                            Event::Error { error, .. } => {
                                let kind = format!("{error:?}");
                                let kind =
                                    kind.split([' ', '(', '{']).next().unwrap_or("").to_string();
                                *errors.entry(kind).or_insert(0usize) += 1;
                            }
                            Event::PeerDisconnected(_) => {
                                let when = if closing.load(Ordering::Relaxed) {
                                    "(disconnected: the clients closing)"
                                } else {
                                    "(disconnected before the end)"
                                };
                                *errors.entry(when.into()).or_insert(0) += 1;
                            }
                            _ => {}
                        }
                    }
                    if progress && took > Duration::from_millis(200) {
                        eprintln!(
                            "server: service() took {took:?}, {events} events, at {:?}",
                            started.elapsed()
                        );
                    }
                    longest_us.fetch_max(took.as_micros() as u64, Ordering::Relaxed);
                    ticks.fetch_add(1, Ordering::Relaxed);
                    if !busy {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
                let lagging = host.session().announcing();
                if lagging > 0 {
                    errors.insert("(clients not yet told of everyone)".into(), lagging);
                }
                host.close();
                errors
            })
            .unwrap()
    };
    let mut sample = None;
    let mut measured = (0usize, 0.0f64, 0u64);
    let seen = run_clients(&addrs, n, relay, &closing, &mut |first| {
        let now = (
            HEAP.current_usage(),
            cpu_seconds("self"),
            ticks.load(Ordering::Relaxed),
        );
        if first {
            sample = Some(now);
        } else if let Some((heap, cpu, t)) = sample {
            measured = (heap, now.1 - cpu, now.2 - t);
        }
    });
    stop.store(true, Ordering::Relaxed);
    let errors = server.join().unwrap();
    if !errors.is_empty() {
        println!("  {name}: the server's peer errors: {errors:?}");
    }
    let peers = seen.joined.max(1);
    let (heap, cpu, t) = measured;
    Row {
        name: name.to_string(),
        n,
        longest_ms: longest_us.load(Ordering::Relaxed) as f64 / 1e3,
        bytes_per_peer: heap.saturating_sub(before) / peers,
        cpu_us_per_peer_s: cpu * 1e6 / peers as f64,
        cpu_ns_per_peer_tick: (t > 0).then(|| cpu * 1e9 / (peers as f64 * t as f64)),
        seen,
    }
}

/// Headless Godot 4.6 running `bench_burst_server.gd`.
fn godot(godot: &std::path::Path, n: usize, relay: bool) -> Row {
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches");
    let project = engine::Godot4Project::new("mp_burst", &[&dir.join("bench_burst_server.gd")]);
    let secs = (LIMIT + HOLD + Duration::from_secs(8)).as_secs();
    let spawned = Instant::now();
    let mut child = engine::engine_command(
        godot,
        "--headless",
        &project.dir,
        "bench_burst_server.gd",
        &[
            port.to_string(),
            secs.to_string(),
            if relay { "1" } else { "0" }.to_string(),
        ],
    )
    .env("XDG_DATA_HOME", project.dir.join(".data"))
    .env("XDG_CONFIG_HOME", project.dir.join(".config"))
    .env("XDG_CACHE_HOME", project.dir.join(".cache"))
    .spawn()
    .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 && !line.contains("READY") {
        line.clear();
    }
    let pid = child.id();
    let idle_rss = rss(pid);
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut sample = None;
    let mut measured = (0usize, 0.0f64);
    let seen = run_clients(&[addr], n, relay, &AtomicBool::new(false), &mut |first| {
        let now = (rss(pid), cpu_seconds(&pid.to_string()));
        if first {
            sample = Some(now);
        } else if let Some((mem, cpu)) = sample {
            measured = (mem, now.1 - cpu);
        }
    });
    // The rest of its output, once its timer ends; a server that is still swamped then (its
    // frames take seconds) is killed after 20 s more and reports no longest frame.
    let reader = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut rest);
        rest
    });
    while child.try_wait().ok().flatten().is_none() {
        if spawned.elapsed() > Duration::from_secs(secs + 20) {
            let _ = child.kill();
            println!("  Godot 4.6, relay {relay}: still busy, killed");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let rest = reader.join().unwrap_or_default();
    let longest_us: f64 = rest
        .lines()
        .find_map(|l| l.split("LONGEST_US ").nth(1))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(f64::NAN);
    let peers = seen.joined.max(1);
    Row {
        name: format!("Godot 4.6, relay {}", if relay { "on" } else { "off" }),
        n,
        longest_ms: longest_us / 1e3,
        bytes_per_peer: measured.0.saturating_sub(idle_rss) / peers,
        cpu_us_per_peer_s: measured.1 * 1e6 / peers as f64,
        cpu_ns_per_peer_tick: None,
        seen,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("clients") {
        clients_main(&args[1..]);
        return;
    }
    let quick = args.iter().any(|a| a == "quick");
    let only_ours = args.iter().any(|a| a == "ours");
    let unpaced = Limits::default()
        .with_announce_per_round(usize::MAX)
        .with_announce_per_round_total(usize::MAX);
    println!("join burst: N clients created at once, one process, 127.0.0.1");
    print_header();
    let mut rows = Vec::new();
    for (n, ports) in [(2_000usize, 1usize), (4_000, 2)] {
        if quick && n > 2_000 {
            continue;
        }
        let on = Settings::default();
        let r = ours(
            &format!("ours, relay on, {ports} port(s)"),
            n,
            ports,
            on.clone(),
        );
        print_row(&r);
        rows.push(r);
        if args.iter().any(|a| a == "on") {
            continue;
        }
        let r = ours(
            &format!("ours, relay on unpaced, {ports} port(s)"),
            n,
            ports,
            on.clone().with_limits(unpaced),
        );
        print_row(&r);
        rows.push(r);
        let r = ours(
            &format!("ours, relay off, {ports} port(s)"),
            n,
            ports,
            Settings::authoritative(),
        );
        print_row(&r);
        rows.push(r);
    }
    let Some(engine_path) = engine::godot4().filter(|_| !only_ours) else {
        println!("no Godot 4 engine ($GODOT4), or `ours`: the Godot rows are skipped");
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine_path));
    for relay in [true, false] {
        let r = godot(&engine_path, 2_000, relay);
        print_row(&r);
        rows.push(r);
    }
    // Same-run ratios at N = 2,000: joined, and idle CPU per peer, ours / Godot's.
    let find = |prefix: &str| {
        rows.iter()
            .find(|r| r.n == 2_000 && r.name.starts_with(prefix))
    };
    for (ours_name, godot_name) in [
        ("ours, relay on, 1", "Godot 4.6, relay on"),
        ("ours, relay off, 1", "Godot 4.6, relay off"),
    ] {
        if let (Some(a), Some(b)) = (find(ours_name), find(godot_name)) {
            println!(
                "{ours_name} / {godot_name}: joined {:.2}×, idle CPU per peer {:.2}×",
                a.seen.joined as f64 / b.seen.joined.max(1) as f64,
                a.cpu_us_per_peer_s / b.cpu_us_per_peer_s.max(f64::MIN_POSITIVE)
            );
        }
    }
}
