//! Same-run ratios against baselines: `cargo bench --bench ratios [-- FILTER]`.
//!
//! Shared machines drift by ±25 % between runs, but ratios measured in one process with the
//! samples interleaved (ours, baseline 1, baseline 2, ..., ours, ...) hold within a few per
//! cent (`timing.rs`). Each metric runs for a fixed time budget. At the end, one JSON object
//! per line and per (metric, baseline):
//! `{"metric": "...", "ours_ns": ..., "baseline": "...", "baseline_ns": ..., "ratio": ...}`
//! with the medians of the samples and `ratio = ours / baseline`, the median of the rounds'
//! ratios, then `{"alloc": ...}` lines with allocation counts.

#![allow(clippy::unwrap_used, clippy::cast_precision_loss, missing_docs)]

mod data;
mod plain;
mod timing;

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use data::*;
use godot_binary_serialization::decoder::Decoder as GbsDecoder;
use godot_binary_serialization::encoder::Encoder as GbsEncoder;
use godot_binary_serialization::types::primitive::{
    GodotFloat, GodotInteger, GodotNull, GodotString,
};
use godot_binary_serialization::types::structures::{GodotDictionary, GodotVector2, GodotVector3};
use godot_serde::{PackedByteArray, PackedFloat32Array, PackedVector3Array};
use timing::{Contender, Plan, fmt_ns, interleave, profile_iters, profile_run, ratio};

// ---------------------------------------------------------------------------------------------
// Allocation counting.

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations (including reallocations) made by one call of `f`.
fn allocations(mut f: impl FnMut()) -> usize {
    let before = ALLOCS.load(Ordering::Relaxed);
    f();
    ALLOCS.load(Ordering::Relaxed) - before
}

// ---------------------------------------------------------------------------------------------
// Interleaved timing (`timing.rs`, shared with the multiplayer crate's `typed_rpc`).

const PLAN: Plan = Plan {
    budget: Duration::from_millis(2_500),
    sample: Duration::from_millis(4),
    max_iters: 100_000,
    min_rounds: 5,
    max_rounds: 201,
};
const PROFILE_ITERS: u32 = 20;

struct Line {
    metric: String,
    ours_ns: f64,
    baseline: &'static str,
    baseline_ns: f64,
    ratio: f64,
}

struct Bench {
    filter: Option<String>,
    /// `GODOT_SERDE_BENCH_PROFILE=N`: run only our side of each selected metric, N times
    /// ([`PROFILE_ITERS`] when N is 1), for callgrind or perf.
    profile: bool,
    lines: Vec<Line>,
    allocs: Vec<String>,
    notes: Vec<String>,
}

impl Bench {
    fn wants(&self, metric: &str) -> bool {
        self.filter.as_deref().is_none_or(|f| metric.contains(f))
    }

    /// Whether any metric of a group (a name prefix) can match the filter: a filter that
    /// names no group (e.g. `decode`) leaves every group to the per-metric check.
    fn wants_group(&self, group: &str) -> bool {
        const GROUPS: [&str; 6] = ["packed", "mesh", "game_state", "message", "gbs", "text"];
        let related = |f: &str, g: &str| g.contains(f) || f.contains(g);
        self.filter
            .as_deref()
            .is_none_or(|f| related(f, group) || !GROUPS.iter().any(|g| related(f, g)))
    }

    /// Times `ours` against each baseline, interleaved, and records one line per baseline.
    fn compare<'a>(
        &mut self,
        metric: &str,
        ours: impl FnMut() + 'a,
        baselines: Vec<Contender<'a>>,
    ) {
        if !self.wants(metric) {
            return;
        }
        if self.profile {
            // Under a profiler: only our side (or the baseline named by
            // GODOT_SERDE_BENCH_PROFILE_BASELINE), a fixed number of times.
            match std::env::var("GODOT_SERDE_BENCH_PROFILE_BASELINE") {
                Ok(name) if !name.is_empty() => {
                    for mut c in baselines.into_iter().filter(|c| c.name == name) {
                        profile_run(&mut c.run, profile_iters(PROFILE_ITERS));
                    }
                }
                _ => profile_run(&mut { ours }, profile_iters(PROFILE_ITERS)),
            }
            return;
        }
        let mut all = vec![Contender::new("ours", ours)];
        all.extend(baselines);
        let rounds = interleave(&mut all, &PLAN);
        let ours = &all[0];
        let ours_ns = ours.median();
        eprintln!("{metric}: ours {} ({rounds} rounds)", fmt_ns(ours_ns));
        for c in &all[1..] {
            let base = c.median();
            let ratio = ratio(ours, c);
            eprintln!("    {:<40} {:>12}  ratio {ratio:.3}", c.name, fmt_ns(base));
            self.lines.push(Line {
                metric: metric.to_owned(),
                ours_ns,
                baseline: c.name,
                baseline_ns: base,
                ratio,
            });
        }
    }

    fn alloc(&mut self, what: &str, ours: usize, baseline: &str, theirs: usize) {
        if !self.wants(what) {
            return;
        }
        self.allocs.push(format!(
            "{{\"alloc\": \"{what}\", \"ours\": {ours}, \"baseline\": \"{baseline}\", \"baseline_allocs\": {theirs}}}"
        ));
    }
}

fn c<'a>(name: &'static str, run: impl FnMut() + 'a) -> Contender<'a> {
    Contender::new(name, run)
}

// ---------------------------------------------------------------------------------------------
// Baselines that serialize into a reused buffer.

fn rmp_into<T: serde::Serialize>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    rmp_serde::encode::write_named(buf, v).unwrap();
}

fn postcard_into<T: serde::Serialize>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    postcard::to_io(v, &mut *buf).unwrap();
}

fn bincode_into<T: serde::Serialize>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    bincode::serialize_into(&mut *buf, v).unwrap();
}

fn json_into<T: serde::Serialize>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    serde_json::to_writer(&mut *buf, v).unwrap();
}

fn plain_into<T: serde::Serialize>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    plain::to_vec_into(v, buf);
}

/// The plain encoder's `to_bytes`: a new `Vec` with the same starting capacity as ours.
fn plain_to_bytes<T: serde::Serialize>(v: &T) -> Vec<u8> {
    let mut buf = Vec::with_capacity(1024);
    plain::to_vec_into(v, &mut buf);
    buf
}

fn ours_into<T: serde::Serialize>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    godot_serde::to_bytes_into(v, buf).unwrap();
}

/// A math-type component as the f32 that `godot-binary-serialization` stores.
#[allow(clippy::unnecessary_cast, clippy::cast_possible_truncation)]
fn f(x: godot_serde::Real) -> f32 {
    x as f32
}

/// The `godot-binary-serialization` form of a [`FlatPlayer`]: a Dictionary of its fields.
fn gbs_dictionary(p: &FlatPlayer) -> GodotDictionary {
    let mut d = GodotDictionary::new();
    d.insert(
        GodotString::new("id"),
        GodotInteger::new_from_i32(p.id as i32),
    );
    d.insert(GodotString::new("name"), GodotString::new(&p.name));
    d.insert(
        GodotString::new("position"),
        GodotVector3::new(f(p.position.x), f(p.position.y), f(p.position.z)),
    );
    d.insert(
        GodotString::new("velocity"),
        GodotVector2::new(f(p.velocity.x), f(p.velocity.y)),
    );
    d.insert(
        GodotString::new("rotation"),
        GodotFloat::new_from_f32(p.rotation),
    );
    d.insert(
        GodotString::new("health"),
        GodotFloat::new_from_f32(p.health),
    );
    d.insert(
        GodotString::new("score"),
        GodotInteger::new_from_i64(p.score),
    );
    match p.team {
        Some(t) => d.insert(
            GodotString::new("team"),
            GodotInteger::new_from_i32(t.into()),
        ),
        None => d.insert(GodotString::new("team"), GodotNull),
    }
    d
}

fn main() {
    let filter = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .filter(|a| !a.is_empty());
    let mut b = Bench {
        filter,
        profile: std::env::var_os("GODOT_SERDE_BENCH_PROFILE").is_some(),
        lines: Vec::new(),
        allocs: Vec::new(),
        notes: Vec::new(),
    };
    let total = Instant::now();

    packed(&mut b);
    mesh_bench(&mut b);
    game_state_bench(&mut b);
    message_bench(&mut b);
    gbs_bench(&mut b);
    text_bench(&mut b);

    eprintln!("total {:.1} s", total.elapsed().as_secs_f64());
    for n in &b.notes {
        println!("# {n}");
    }
    for l in &b.lines {
        println!(
            "{{\"metric\": \"{}\", \"ours_ns\": {:.1}, \"baseline\": \"{}\", \"baseline_ns\": {:.1}, \"ratio\": {:.4}}}",
            l.metric, l.ours_ns, l.baseline, l.baseline_ns, l.ratio
        );
    }
    for a in &b.allocs {
        println!("{a}");
    }
}

fn packed(b: &mut Bench) {
    if !b.wants_group("packed") {
        return;
    }
    let floats = packed_floats();
    let bytes = packed_bytes();
    let float_payload: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let float_enc = godot_serde::to_bytes(&floats).unwrap();
    let byte_enc = godot_serde::to_bytes(&bytes).unwrap();
    assert_eq!(float_enc.len(), 8 + PACKED_BYTES);
    assert_eq!(byte_enc.len(), 8 + PACKED_BYTES);
    assert_eq!(
        godot_serde::from_bytes::<PackedFloat32Array>(&float_enc).unwrap(),
        floats
    );
    assert_eq!(
        godot_serde::from_bytes::<PackedByteArray>(&byte_enc).unwrap(),
        bytes
    );

    let mut buf = Vec::new();
    let mut base = Vec::new();
    b.compare(
        "packed_f32_encode",
        || ours_into(black_box(&floats), &mut buf),
        vec![c("memcpy", || {
            base.clear();
            base.extend_from_slice(black_box(&float_payload));
        })],
    );
    b.compare(
        "packed_f32_decode_owned",
        || {
            black_box(
                godot_serde::from_bytes::<PackedFloat32Array>(black_box(&float_enc)).unwrap(),
            );
        },
        vec![c("memcpy", || {
            black_box(black_box(&float_enc[8..]).to_vec());
        })],
    );
    let mut buf = Vec::new();
    let mut base = Vec::new();
    b.compare(
        "packed_bytes_encode",
        || ours_into(black_box(&bytes), &mut buf),
        vec![c("memcpy", || {
            base.clear();
            base.extend_from_slice(black_box(&bytes.0));
        })],
    );
    b.compare(
        "packed_bytes_decode_owned",
        || {
            black_box(godot_serde::from_bytes::<PackedByteArray>(black_box(&byte_enc)).unwrap());
        },
        vec![c("memcpy", || {
            black_box(black_box(&byte_enc[8..]).to_vec());
        })],
    );
}

fn mesh_bench(b: &mut Bench) {
    if !b.wants_group("mesh") {
        return;
    }
    let mesh = mesh();
    let tris = mesh_triangles(&mesh);
    let ours = godot_serde::to_bytes(&mesh).unwrap();
    assert_eq!(ours.len(), 6_000_008);
    let payload = ours[8..].to_vec();
    let rmp = rmp_serde::to_vec_named(&tris).unwrap();
    let post = postcard::to_allocvec(&tris).unwrap();
    let binc = bincode::serialize(&tris).unwrap();
    let json = serde_json::to_vec(&tris).unwrap();
    assert_eq!(rmp_serde::from_slice::<Vec<Triangle>>(&rmp).unwrap(), tris);
    b.notes.push(format!(
        "mesh: godot {} bytes (PackedVector3Array); baselines encode Vec<Triangle>: rmp-serde named {}, postcard {}, bincode {}, serde_json {}",
        ours.len(),
        rmp.len(),
        post.len(),
        binc.len(),
        json.len()
    ));

    let (mut b0, mut b1, mut b2, mut b3, mut b4, mut b5) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    b.compare(
        "mesh_encode",
        || ours_into(black_box(&mesh), &mut b0),
        vec![
            c("memcpy", || {
                b1.clear();
                b1.extend_from_slice(black_box(&payload));
            }),
            c("rmp-serde named", || rmp_into(black_box(&tris), &mut b2)),
            c("postcard", || postcard_into(black_box(&tris), &mut b3)),
            c("bincode 1.3.3", || bincode_into(black_box(&tris), &mut b4)),
            c("serde_json", || json_into(black_box(&tris), &mut b5)),
        ],
    );
    b.compare(
        "mesh_decode_owned",
        || {
            black_box(godot_serde::from_bytes::<PackedVector3Array>(black_box(&ours)).unwrap());
        },
        vec![
            c("memcpy", || {
                black_box(black_box(&payload).to_vec());
            }),
            c("rmp-serde named", || {
                black_box(rmp_serde::from_slice::<Vec<Triangle>>(black_box(&rmp)).unwrap());
            }),
            c("postcard", || {
                black_box(postcard::from_bytes::<Vec<Triangle>>(black_box(&post)).unwrap());
            }),
            c("bincode 1.3.3", || {
                black_box(bincode::deserialize::<Vec<Triangle>>(black_box(&binc)).unwrap());
            }),
            c("serde_json", || {
                black_box(serde_json::from_slice::<Vec<Triangle>>(black_box(&json)).unwrap());
            }),
        ],
    );
}

fn game_state_bench(b: &mut Bench) {
    if !b.wants_group("game_state") {
        return;
    }
    let state = game_state();
    let ours = godot_serde::to_bytes(&state).unwrap();
    let rmp = rmp_serde::to_vec_named(&state).unwrap();
    let post = postcard::to_allocvec(&state).unwrap();
    let binc = bincode::serialize(&state).unwrap();
    let json = serde_json::to_vec(&state).unwrap();
    assert_eq!(godot_serde::from_bytes::<GameState>(&ours).unwrap(), state);
    assert_eq!(rmp_serde::from_slice::<GameState>(&rmp).unwrap(), state);
    assert_eq!(postcard::from_bytes::<GameState>(&post).unwrap(), state);
    assert_eq!(bincode::deserialize::<GameState>(&binc).unwrap(), state);
    assert_eq!(serde_json::from_slice::<GameState>(&json).unwrap(), state);
    let borrowed = godot_serde::from_bytes::<GameStateRef<'_>>(&ours).unwrap();
    assert_eq!(borrowed.players[7].name, state.players[7].name);
    b.notes.push(format!(
        "game state: godot {} bytes, rmp-serde named {}, postcard {}, bincode {}, serde_json {}",
        ours.len(),
        rmp.len(),
        post.len(),
        binc.len(),
        json.len()
    ));

    let (mut b0, mut b1, mut b2, mut b3, mut b4, mut b5) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    plain_into(&state, &mut b5);
    assert_eq!(
        b5, ours,
        "the plain encoder writes our bytes for the game state"
    );
    // Reused buffers: fill them once so that capacity is there.
    ours_into(&state, &mut b0);
    rmp_into(&state, &mut b1);
    postcard_into(&state, &mut b2);
    bincode_into(&state, &mut b3);
    json_into(&state, &mut b4);
    let enc_allocs = allocations(|| ours_into(black_box(&state), &mut b0));
    let rmp_allocs = allocations(|| rmp_into(black_box(&state), &mut b1));
    b.alloc(
        "game_state_encode_reused",
        enc_allocs,
        "rmp-serde named",
        rmp_allocs,
    );
    b.compare(
        "game_state_encode_reused",
        || ours_into(black_box(&state), &mut b0),
        vec![
            c("rmp-serde named", || rmp_into(black_box(&state), &mut b1)),
            c("postcard", || postcard_into(black_box(&state), &mut b2)),
            c("bincode 1.3.3", || bincode_into(black_box(&state), &mut b3)),
            c("serde_json", || json_into(black_box(&state), &mut b4)),
            c("plain serde encoder", || {
                plain_into(black_box(&state), &mut b5);
            }),
        ],
    );

    let dec_allocs = allocations(|| {
        black_box(godot_serde::from_bytes::<GameState>(&ours).unwrap());
    });
    let rmp_dec_allocs = allocations(|| {
        black_box(rmp_serde::from_slice::<GameState>(&rmp).unwrap());
    });
    b.alloc(
        "game_state_decode_owned",
        dec_allocs,
        "rmp-serde named",
        rmp_dec_allocs,
    );
    b.compare(
        "game_state_decode_owned",
        || {
            black_box(godot_serde::from_bytes::<GameState>(black_box(&ours)).unwrap());
        },
        vec![
            c("rmp-serde named", || {
                black_box(rmp_serde::from_slice::<GameState>(black_box(&rmp)).unwrap());
            }),
            c("postcard", || {
                black_box(postcard::from_bytes::<GameState>(black_box(&post)).unwrap());
            }),
            c("bincode 1.3.3", || {
                black_box(bincode::deserialize::<GameState>(black_box(&binc)).unwrap());
            }),
            c("serde_json", || {
                black_box(serde_json::from_slice::<GameState>(black_box(&json)).unwrap());
            }),
        ],
    );

    let ref_allocs = allocations(|| {
        black_box(godot_serde::from_bytes::<GameStateRef<'_>>(&ours).unwrap());
    });
    let rmp_ref_allocs = allocations(|| {
        black_box(rmp_serde::from_slice::<GameStateRef<'_>>(&rmp).unwrap());
    });
    b.alloc(
        "game_state_decode_borrowed",
        ref_allocs,
        "rmp-serde named",
        rmp_ref_allocs,
    );
    b.compare(
        "game_state_decode_borrowed",
        || {
            black_box(godot_serde::from_bytes::<GameStateRef<'_>>(black_box(&ours)).unwrap());
        },
        vec![
            c("rmp-serde named", || {
                black_box(rmp_serde::from_slice::<GameStateRef<'_>>(black_box(&rmp)).unwrap());
            }),
            c("postcard", || {
                black_box(postcard::from_bytes::<GameStateRef<'_>>(black_box(&post)).unwrap());
            }),
            c("bincode 1.3.3", || {
                black_box(bincode::deserialize::<GameStateRef<'_>>(black_box(&binc)).unwrap());
            }),
            c("serde_json", || {
                black_box(serde_json::from_slice::<GameStateRef<'_>>(black_box(&json)).unwrap());
            }),
        ],
    );
    // The dynamic decode against our own typed one (issue 13: at most 1.5x).
    b.compare(
        "game_state_decode_variant",
        || {
            black_box(godot_serde::from_bytes::<godot_serde::Variant>(black_box(&ours)).unwrap());
        },
        vec![c("godot_serde typed GameState", || {
            black_box(godot_serde::from_bytes::<GameState>(black_box(&ours)).unwrap());
        })],
    );
    // The same through the direct path, which skips serde's data model.
    assert_eq!(
        godot_serde::variant_from_bytes(&ours).unwrap(),
        godot_serde::from_bytes::<godot_serde::Variant>(&ours).unwrap()
    );
    // The floor of any decode into a Variant: building the same tree (allocations, entries,
    // strings) with no input to read, by cloning a decoded one.
    let tree = godot_serde::variant_from_bytes(&ours).unwrap();
    b.compare(
        "game_state_variant_from_bytes",
        || {
            black_box(godot_serde::variant_from_bytes(black_box(&ours)).unwrap());
        },
        vec![
            c("godot_serde typed GameState", || {
                black_box(godot_serde::from_bytes::<GameState>(black_box(&ours)).unwrap());
            }),
            c("Variant::clone of the decoded tree", || {
                black_box(black_box(&tree).clone());
            }),
        ],
    );
}

fn message_bench(b: &mut Bench) {
    if !b.wants_group("message") {
        return;
    }
    let msg = message();
    let ours = godot_serde::to_bytes(&msg).unwrap();
    let rmp = rmp_serde::to_vec_named(&msg).unwrap();
    let post = postcard::to_allocvec(&msg).unwrap();
    let binc = bincode::serialize(&msg).unwrap();
    let json = serde_json::to_vec(&msg).unwrap();
    assert_eq!(godot_serde::from_bytes::<Message>(&ours).unwrap(), msg);
    assert_eq!(
        plain_to_bytes(&msg),
        ours,
        "the plain encoder writes our bytes for the message"
    );
    b.notes.push(format!(
        "message: godot {} bytes, rmp-serde named {}, postcard {}, bincode {}, serde_json {}",
        ours.len(),
        rmp.len(),
        post.len(),
        binc.len(),
        json.len()
    ));
    let to_bytes_allocs = allocations(|| {
        black_box(godot_serde::to_bytes(&msg).unwrap());
    });
    let rmp_allocs = allocations(|| {
        black_box(rmp_serde::to_vec_named(&msg).unwrap());
    });
    b.alloc(
        "message_to_bytes",
        to_bytes_allocs,
        "rmp-serde named",
        rmp_allocs,
    );
    b.compare(
        "message_to_bytes",
        || {
            black_box(godot_serde::to_bytes(black_box(&msg)).unwrap());
        },
        vec![
            c("rmp-serde named", || {
                black_box(rmp_serde::to_vec_named(black_box(&msg)).unwrap());
            }),
            c("postcard", || {
                black_box(postcard::to_allocvec(black_box(&msg)).unwrap());
            }),
            c("bincode 1.3.3", || {
                black_box(bincode::serialize(black_box(&msg)).unwrap());
            }),
            c("plain serde encoder", || {
                black_box(plain_to_bytes(black_box(&msg)));
            }),
            c("serde_json", || {
                black_box(serde_json::to_vec(black_box(&msg)).unwrap());
            }),
        ],
    );
    b.compare(
        "message_decode_owned",
        || {
            black_box(godot_serde::from_bytes::<Message>(black_box(&ours)).unwrap());
        },
        vec![
            c("rmp-serde named", || {
                black_box(rmp_serde::from_slice::<Message>(black_box(&rmp)).unwrap());
            }),
            c("postcard", || {
                black_box(postcard::from_bytes::<Message>(black_box(&post)).unwrap());
            }),
            c("bincode 1.3.3", || {
                black_box(bincode::deserialize::<Message>(black_box(&binc)).unwrap());
            }),
            c("serde_json", || {
                black_box(serde_json::from_slice::<Message>(black_box(&json)).unwrap());
            }),
        ],
    );
}

/// `godot-binary-serialization` 0.2 writes and reads only nil, bool, int, float, String,
/// Vector2, Vector3 and Dictionary: it is measured on the scalar part of a player. The
/// Array, PackedStringArray, mesh, packed and game-state datasets are beyond it.
fn gbs_bench(b: &mut Bench) {
    if !b.wants_group("gbs") {
        return;
    }
    b.notes.push(
        "godot-binary-serialization 0.2.0 has no Array or packed arrays: it cannot express the mesh, packed, game-state or full message datasets; it is measured on the message's scalar fields (gbs_* metrics)"
            .to_owned(),
    );
    let flat = flat_player(&message().player);
    let dict = gbs_dictionary(&flat);
    let ours = godot_serde::to_bytes(&flat).unwrap();
    let theirs = GbsEncoder::encode_dictionary(&dict).unwrap();
    assert_eq!(
        ours, theirs,
        "both write the same bytes for the flat player"
    );
    let decoded = GbsDecoder::decode_variant(&ours).unwrap();
    assert_eq!(decoded.byte_length(), ours.len());

    b.compare(
        "gbs_flat_player_to_bytes",
        || {
            black_box(godot_serde::to_bytes(black_box(&flat)).unwrap());
        },
        vec![c("godot-binary-serialization 0.2.0", || {
            black_box(GbsEncoder::encode_dictionary(black_box(&dict)).unwrap());
        })],
    );
    b.compare(
        "gbs_flat_player_decode",
        || {
            black_box(godot_serde::from_bytes::<FlatPlayer>(black_box(&ours)).unwrap());
        },
        vec![c("godot-binary-serialization 0.2.0", || {
            black_box(GbsDecoder::decode_variant(black_box(&ours)).unwrap());
        })],
    );
    b.compare(
        "gbs_flat_player_decode_variant",
        || {
            black_box(godot_serde::from_bytes::<godot_serde::Variant>(black_box(&ours)).unwrap());
        },
        vec![c("godot-binary-serialization 0.2.0", || {
            black_box(GbsDecoder::decode_variant(black_box(&ours)).unwrap());
        })],
    );
    b.compare(
        "gbs_flat_player_variant_from_bytes",
        || {
            black_box(godot_serde::variant_from_bytes(black_box(&ours)).unwrap());
        },
        vec![c("godot-binary-serialization 0.2.0", || {
            black_box(GbsDecoder::decode_variant(black_box(&ours)).unwrap());
        })],
    );
}

/// Parsing Godot's text form (`str_to_var` syntax) into a `Variant` against serde_json parsing
/// the same data as JSON into a `serde_json::Value`: 2000 records of a name, an int, a
/// two-float position and two tags (target: at most 2x).
fn text_bench(b: &mut Bench) {
    if !b.wants_group("text") {
        return;
    }
    let mut records = Vec::new();
    for i in 0..2000 {
        records.push(serde_json::json!({
            "name": format!("player_{i}"),
            "hp": i,
            "pos": [f64::from(i) * 0.5, 1.25],
            "tags": ["alpha", "beta"],
        }));
    }
    let json = serde_json::to_string(&records).unwrap();
    let variant = godot_serde::to_variant(&records).unwrap();
    let text = godot_serde::text::variant_to_string(&variant);
    // The text form writes Dictionary keys sorted (as the engine does), so the parsed value is
    // checked by printing it again rather than against `variant`'s insertion order.
    let parsed = godot_serde::text::parse_variant(&text).unwrap();
    assert_eq!(godot_serde::text::variant_to_string(&parsed), text);
    b.notes.push(format!(
        "text: {} bytes of var_to_str text, {} bytes of JSON",
        text.len(),
        json.len()
    ));
    b.compare(
        "text_parse_variant",
        || {
            black_box(godot_serde::text::parse_variant(black_box(&text)).unwrap());
        },
        vec![c("serde_json", || {
            black_box(serde_json::from_str::<serde_json::Value>(black_box(&json)).unwrap());
        })],
    );
}
