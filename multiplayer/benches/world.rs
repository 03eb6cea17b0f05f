//! World benchmark, sans IO: N peers, each with a moving synchronized node (its avatar), at 20
//! network ticks a second; every peer sends one input a tick as a real REMOTE_CALL packet
//! through `Session::receive`, the server moves the node it steers, and an interest rule
//! gives each peer the nodes within a radius (about 30 neighbours: the world's side grows
//! with √N so that the density stays the same). Prints, per configuration:
//!
//! - server CPU per tick (ms, p50 and mean; the thread's CPU time where Linux gives it, wall
//!   time elsewhere): receiving the inputs, moving the nodes, the interest update and the
//!   replication step (`handle_timeout`), draining the outputs;
//! - bytes per peer per tick (every packet the server queues: SPAWN, DESPAWN, SYNC);
//! - latency from an input to the neighbours' SYNC carrying it (in ticks, from the tick the
//!   input was received; × 50 ms at 20 Hz), p50 and p99, over a sample of the nodes;
//! - memory per peer (the session's heap after setup, peak_alloc, divided by N; each peer
//!   comes with its node).
//!
//! The same-run baseline is the same world with Godot's visibility-filter semantics: a filter
//! (`InterestRule::callback`, the distance test) evaluated for every peer-node pair on every
//! tick, as `MultiplayerSynchronizer::update_visibility(0)` runs its filters each frame.
//! Grid and baseline at N and N/4 give the scaling ratios; `grid+5` is the grid with a margin
//! of 5 (a node seen stays seen until 55 away), which damps the spawn/despawn churn at the
//! border. Run:
//! `cargo bench -p godot-serde-multiplayer --bench world` (`-- quick` for N = 1,000 only, `-- grid` without the
//! baseline).

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use godot_serde_multiplayer::replication::InterestRule;
use godot_serde_multiplayer::{
    Event, NodeId, Output, ReplicationConfig, RpcMethod, RpcTable, Session, Settings, SpawnScene,
    Spawner, Synchronizer, TransferMode, Variant, args, wire,
};
use peak_alloc::PeakAlloc;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

const TICK: Duration = Duration::from_millis(50);
const RADIUS: f32 = 50.0;
/// Neighbours within the radius, on average (the density is chosen for it).
const NEIGHBOURS: f32 = 30.0;
/// One node in `SAMPLE` is followed for the latency figure.
const SAMPLE: usize = 20;

fn table() -> RpcTable {
    RpcTable::new("World").with(RpcMethod::any_peer("input"))
}

fn sync() -> Synchronizer {
    // position and the last input's sequence number, both every tick (ALWAYS).
    Synchronizer::new(
        "Sync",
        ReplicationConfig::new()
            .property(".:position")
            .property(".:seq"),
    )
}

/// A small deterministic generator (xorshift), so both rules see the same world.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

struct World {
    session: Session,
    side: f32,
    nodes: Vec<NodeId>,
    syncs: Vec<godot_serde_multiplayer::SyncId>,
    net_ids: HashMap<u32, usize>,
    pos: Arc<RwLock<Vec<[f32; 2]>>>,
    vel: Vec<[f32; 2]>,
    seq: Vec<i64>,
    rng: Rng,
}

struct Report {
    tick_ms: Vec<f64>,
    bytes: usize,
    /// SPAWN and DESPAWN packets (nodes entering and leaving interest).
    churn: usize,
    latency_ticks: Vec<u64>,
    heap_per_peer: usize,
    /// Nodes in a peer's interest after the last tick, on average.
    neighbours: f64,
}

/// `Real` is `f32`, or `f64` with `godot-serde`'s `double-precision` feature.
#[allow(clippy::useless_conversion)]
fn vec2(p: [f32; 2]) -> Variant {
    Variant::Vector2(godot_serde::Vector2::new(p[0].into(), p[1].into()))
}

/// This thread's CPU time in nanoseconds (Linux's `/proc/thread-self/schedstat`), so that the
/// figures do not count the time the other processes of a loaded machine take; `None`
/// elsewhere (wall time then).
fn cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn peer_id(i: usize) -> i32 {
    i as i32 + 2
}

fn setup(n: usize, baseline: bool, margin: f32) -> (World, usize) {
    let before = HEAP.current_usage();
    let side = (n as f32 * std::f32::consts::PI * RADIUS * RADIUS / NEIGHBOURS).sqrt();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut session = Session::server(Settings::authoritative());
    session.declare(table());
    session.declare_spawner(Spawner::new("World/Spawner", "World/Units").scene("res://u.tscn"));
    let pos: Arc<RwLock<Vec<[f32; 2]>>> = Arc::new(RwLock::new(Vec::with_capacity(n)));
    let index: Arc<RwLock<HashMap<NodeId, usize>>> = Arc::default();
    if baseline {
        let (pos, index) = (pos.clone(), index.clone());
        let r2 = RADIUS * RADIUS;
        session.set_interest(InterestRule::callback(move |peer, node| {
            let (pos, index) = (pos.read().unwrap(), index.read().unwrap());
            let (Some(&a), Some(b)) = (index.get(&node), pos.get(peer as usize - 2)) else {
                return false;
            };
            let a = pos[a];
            let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
            dx * dx + dy * dy <= r2
        }));
    } else {
        session.set_interest(InterestRule::radius_2d(RADIUS).with_margin(margin));
    }
    let t0 = Instant::now();
    let mut simplify = Vec::new();
    wire::write_simplify_path(&mut simplify, table().md5(), 1, "World");
    for i in 0..n {
        session.connected(peer_id(i), t0);
        session.receive(peer_id(i), 0, TransferMode::Reliable, &simplify);
    }
    let mut nodes = Vec::with_capacity(n);
    let mut syncs = Vec::with_capacity(n);
    for i in 0..n {
        let p = [rng.next() * side, rng.next() * side];
        pos.write().unwrap().push(p);
        let state = vec![vec2(p), Variant::Int(0)];
        let node = session
            .spawn(
                "World/Spawner",
                SpawnScene::Index(0),
                &format!("U{i}"),
                vec![(sync(), state)],
            )
            .unwrap();
        index.write().unwrap().insert(node, i);
        session.set_node_position(node, p).unwrap();
        session.set_peer_focus(peer_id(i), Some(node));
        syncs.push(session.node_synchronizers(node)[0]);
        nodes.push(node);
    }
    while session.poll_event().is_some() {}
    while session.poll_output().is_some() {}
    let vel = (0..n).map(|_| [0.0, 0.0]).collect();
    let world = World {
        session,
        side,
        nodes,
        syncs,
        net_ids: HashMap::new(),
        pos,
        vel,
        seq: vec![0; n],
        rng,
    };
    (world, before)
}

/// The trailing compressed int of a SYNC entry's state (`encode_and_compress_variant`: type 2
/// with the width in the header's top bits: 0 → 8 bits, 1 → 16, 2 → 32, 3 → 64).
fn trailing_seq(state: &[u8]) -> Option<i64> {
    // position: Vector2 (4-byte header + 2 × f32), then the int.
    let int = state.get(12..)?;
    let header = *int.first()?;
    let body = int.get(1..)?;
    Some(match header >> 6 {
        0 => i64::from(*body.first()? as i8),
        1 => i64::from(i16::from_le_bytes(body.get(..2)?.try_into().ok()?)),
        2 => i64::from(i32::from_le_bytes(body.get(..4)?.try_into().ok()?)),
        _ => i64::from_le_bytes(body.get(..8)?.try_into().ok()?),
    })
}

fn run(n: usize, warmup: usize, ticks: usize, baseline: bool, margin: f32) -> Report {
    let (mut w, before) = setup(n, baseline, margin);
    let t0 = Instant::now();
    let mut report = Report {
        tick_ms: Vec::new(),
        bytes: 0,
        churn: 0,
        latency_ticks: Vec::new(),
        heap_per_peer: 0,
        neighbours: 0.0,
    };
    // (node index, seq) → the tick its input was received; per (peer, node) the last seq seen.
    let mut sent_at: HashMap<(usize, i64), usize> = HashMap::new();
    let mut seen: HashMap<(i32, usize), i64> = HashMap::new();
    let mut packet = Vec::new();
    for tick in 0..warmup + ticks {
        let now = t0 + TICK * (tick as u32 + 1);
        let measured = tick >= warmup;
        // The inputs, as the clients write them (before the tick; not timed).
        let inputs: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let dir = [w.rng.next() - 0.5, w.rng.next() - 0.5];
                let seq = w.seq[i] + 1;
                let encoded = args::encode(&(dir[0], dir[1], seq)).unwrap();
                packet.clear();
                wire::write_remote_call(&mut packet, 1, None, 0, &encoded);
                packet.clone()
            })
            .collect();
        let (start, cpu_start) = (Instant::now(), cpu_ns());
        for (i, input) in inputs.iter().enumerate() {
            w.session
                .receive(peer_id(i), 0, TransferMode::Reliable, input);
        }
        while let Some(event) = w.session.poll_event() {
            if let Event::Rpc(call) = event {
                let Some((dx, dy, seq)) = w.session.args_of::<(f32, f32, i64)>(&call) else {
                    continue;
                };
                let i = (call.from - 2) as usize;
                w.vel[i] = [dx * 4.0, dy * 4.0];
                w.seq[i] = seq;
                if measured && i.is_multiple_of(SAMPLE) {
                    sent_at.insert((i, seq), tick);
                }
            }
        }
        {
            let mut pos = w.pos.write().unwrap();
            for i in 0..n {
                let p = &mut pos[i];
                p[0] = (p[0] + w.vel[i][0]).rem_euclid(w.side);
                p[1] = (p[1] + w.vel[i][1]).rem_euclid(w.side);
                let state = vec![vec2(*p), Variant::Int(w.seq[i])];
                w.session.set_state(w.syncs[i], state).unwrap();
                w.session.set_node_position(w.nodes[i], *p).unwrap();
            }
        }
        w.session.handle_timeout(now);
        let mut outs = Vec::new();
        while let Some(o) = w.session.poll_output() {
            if let Output::Packet { to, data, .. } = o {
                outs.push((to, data));
            }
        }
        let spent = match (cpu_start, cpu_ns()) {
            (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)),
            _ => start.elapsed(),
        };
        if tick + 1 == warmup {
            // The session's heap once every peer sees its neighbours (the bench's own
            // per-peer vectors, about 60 bytes a peer, included).
            drop(outs);
            report.heap_per_peer = HEAP.current_usage().saturating_sub(before) / n;
            continue;
        }
        if !measured {
            continue;
        }
        report.tick_ms.push(spent.as_secs_f64() * 1000.0);
        if w.net_ids.is_empty() {
            for (i, &node) in w.nodes.iter().enumerate() {
                if let Some(id) = w.session.synchronizer_net_id(w.syncs[i]) {
                    w.net_ids.insert(id, i);
                }
                let _ = node;
            }
        }
        for (to, data) in &outs {
            report.bytes += data.len();
            report.churn += usize::from(matches!(data.first(), Some(4 | 5)));
            // SYNC entries: net id, size, state.
            if data.first() != Some(&6) {
                continue;
            }
            let mut at = 3;
            while let (Some(id), Some(size)) = (data.get(at..at + 4), data.get(at + 4..at + 8)) {
                let id = u32::from_le_bytes(id.try_into().unwrap());
                let size = u32::from_le_bytes(size.try_into().unwrap()) as usize;
                let state = &data[at + 8..at + 8 + size];
                at += 8 + size;
                let Some(&i) = w.net_ids.get(&id) else {
                    continue;
                };
                if !i.is_multiple_of(SAMPLE) || *to == peer_id(i) {
                    continue;
                }
                let Some(seq) = trailing_seq(state) else {
                    continue;
                };
                let last = seen.insert((*to, i), seq);
                if last != Some(seq) {
                    if let Some(&sent) = sent_at.get(&(i, seq)) {
                        report.latency_ticks.push((tick - sent + 1) as u64);
                    }
                }
            }
        }
    }

    let seen: usize = (0..n)
        .map(|i| w.session.interest_of(peer_id(i)).len())
        .sum();
    report.neighbours = seen as f64 / n as f64;
    report
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(((v.len() as f64 - 1.0) * p) as usize)
        .copied()
        .unwrap_or(0.0)
}

fn show(label: &str, n: usize, r: &mut Report) -> f64 {
    let ticks = r.tick_ms.len();
    let mean = r.tick_ms.iter().sum::<f64>() / ticks as f64;
    let p50 = pct(&mut r.tick_ms, 0.5);
    let mut lat: Vec<f64> = r.latency_ticks.iter().map(|&t| t as f64).collect();
    let (l50, l99) = (pct(&mut lat, 0.5), pct(&mut lat, 0.99));
    println!(
        "{label:<9} N={n:>5}: {p50:>8.2} ms/tick p50 ({mean:.2} mean, {ticks} ticks), {:>7.0} B/peer/tick ({:.2} spawns+despawns), \
         {:.1} nodes seen, input→neighbours' SYNC p50 {l50} / p99 {l99} ticks ({:.0} / {:.0} ms at 20 Hz, {} samples), {:.1} KiB/peer",
        r.bytes as f64 / (n * ticks) as f64,
        r.churn as f64 / (n * ticks) as f64,
        r.neighbours,
        l50 * 50.0,
        l99 * 50.0,
        lat.len(),
        r.heap_per_peer as f64 / 1024.0,
    );
    mean
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let grid_only = std::env::args().any(|a| a == "grid");
    let sizes: &[usize] = if quick { &[1000] } else { &[1000, 4000] };
    let mut grid_ms = Vec::new();
    let mut base_ms = Vec::new();
    for &n in sizes {
        let mut r = run(n, 10, 60, false, 0.0);
        grid_ms.push(show("grid", n, &mut r));
        let mut m = run(n, 10, 60, false, 5.0);
        show("grid+5", n, &mut m);
        if grid_only {
            continue;
        }
        let mut b = run(n, 2, 4, true, 0.0);
        base_ms.push(show("baseline", n, &mut b));
        println!(
            "  baseline / grid CPU per tick at N={n}: {:.1}×",
            base_ms.last().unwrap() / grid_ms.last().unwrap()
        );
    }
    if let ([g1, g4], [b1, b4]) = (grid_ms.as_slice(), base_ms.as_slice()) {
        println!(
            "  N=4000 / N=1000 CPU per tick: grid {:.1}× (linear would be 4), baseline {:.1}× (peers × nodes: 16)",
            g4 / g1,
            b4 / b1
        );
    }
}
