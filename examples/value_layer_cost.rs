//! The value layer's price as same-run ratios: `to_variant` against `to_bytes`, and
//! `from_variant::<T>` against `from_bytes::<T>`, on 2,000 structs
//! `{name, hp, pos: Vector2, tags: [2 strings]}`.
//!
//! Run with `cargo run --release --example value_layer_cost [ROUNDS]`.
//!
//! `value_layer_cost calls OP` (OP: `to_bytes`, `to_variant`, `from_bytes`, `from_variant`)
//! makes 20 calls of one operation inside `measured_calls`, for an instruction count that the
//! machine's load does not change:
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured_calls*'
//! target/release/examples/value_layer_cost calls to_variant`.
//!
//! The four operations are timed in turn within each round (50 calls each), so a change in the
//! machine's load hits all of them alike; the ratios are of each round's times, and the line
//! printed gives their median, minimum and maximum over the rounds, and the ratio of the best
//! times. Only public API that has not changed since the value layer was introduced is used,
//! so the same file measures older commits too.

use godot_serde::{Variant, Vector2};
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The record measured.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Player {
    name: String,
    hp: i32,
    pos: Vector2,
    tags: Vec<String>,
}

/// Calls of one operation per round.
const CALLS: u32 = 50;

/// Time of `CALLS` calls of `f`.
fn time(mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..CALLS {
        f();
    }
    start.elapsed()
}

/// Median, minimum and maximum of `v` (not empty).
fn summary(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

/// 20 calls of `f` (what the instruction count measures).
#[inline(never)]
fn measured_calls(f: &mut dyn FnMut()) {
    for _ in 0..20 {
        f();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(15);
    let players: Vec<Player> = (0..2000)
        .map(|i| Player {
            name: format!("player{i}"),
            hp: i * 3 % 101,
            // `Real` is f32, or f64 with the `double-precision` feature.
            pos: Vector2::new((f64::from(i) * 0.5) as _, -f64::from(i) as _),
            tags: vec!["alpha".into(), "beta".into()],
        })
        .collect();
    let bytes = godot_serde::to_bytes(&players).unwrap();
    let variant: Variant = godot_serde::to_variant(&players).unwrap();
    // Both sides give the same value.
    assert_eq!(godot_serde::from_bytes::<Variant>(&bytes).unwrap(), variant);
    let back: Vec<Player> = godot_serde::from_variant(&variant).unwrap();
    assert_eq!(back, players);

    if args.first().map(String::as_str) == Some("calls") {
        let op = args.get(1).map_or("", String::as_str);
        measured_calls(&mut || match op {
            "to_bytes" => drop(black_box(
                godot_serde::to_bytes(black_box(&players)).unwrap(),
            )),
            "to_variant" => drop(black_box(
                godot_serde::to_variant(black_box(&players)).unwrap(),
            )),
            "from_bytes" => {
                let v: Vec<Player> = godot_serde::from_bytes(black_box(&bytes)).unwrap();
                drop(black_box(v));
            }
            "from_variant" => {
                let v: Vec<Player> = godot_serde::from_variant(black_box(&variant)).unwrap();
                drop(black_box(v));
            }
            _ => panic!("unknown operation {op:?}"),
        });
        return;
    }

    let (mut to_ratio, mut from_ratio) = (Vec::new(), Vec::new());
    let mut best = [Duration::MAX; 4];
    for _ in 0..rounds {
        let t = [
            time(|| {
                drop(black_box(
                    godot_serde::to_bytes(black_box(&players)).unwrap(),
                ))
            }),
            time(|| {
                drop(black_box(
                    godot_serde::to_variant(black_box(&players)).unwrap(),
                ))
            }),
            time(|| {
                let v: Vec<Player> = godot_serde::from_bytes(black_box(&bytes)).unwrap();
                drop(black_box(v));
            }),
            time(|| {
                let v: Vec<Player> = godot_serde::from_variant(black_box(&variant)).unwrap();
                drop(black_box(v));
            }),
        ];
        for (b, t) in best.iter_mut().zip(t) {
            *b = (*b).min(t);
        }
        to_ratio.push(t[1].as_secs_f64() / t[0].as_secs_f64());
        from_ratio.push(t[3].as_secs_f64() / t[2].as_secs_f64());
    }
    let (m, lo, hi) = summary(&mut to_ratio);
    println!(
        "to_variant / to_bytes:     median {m:.2}  min {lo:.2}  max {hi:.2}  best/best {:.2}  ({rounds} rounds of {CALLS} calls)",
        best[1].as_secs_f64() / best[0].as_secs_f64()
    );
    let (m, lo, hi) = summary(&mut from_ratio);
    println!(
        "from_variant / from_bytes: median {m:.2}  min {lo:.2}  max {hi:.2}  best/best {:.2}",
        best[3].as_secs_f64() / best[2].as_secs_f64()
    );
    println!(
        "best of {CALLS} calls: to_bytes {:?}, to_variant {:?}, from_bytes {:?}, from_variant {:?}",
        best[0], best[1], best[2], best[3]
    );
}
