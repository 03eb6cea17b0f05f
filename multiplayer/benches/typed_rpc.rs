//! Typed RPC arguments, same-run ratios: `cargo bench -p godot-serde-multiplayer --bench
//! typed_rpc`.
//!
//! For three calls (a 5-argument input: String, Vector2, int, bool, Array of 8 ints; one
//! int; a string-heavy chat line), in one process with the samples interleaved:
//!
//! - receive: a REMOTE_CALL packet to `T` (`wire::parse` + `args::decode`) against
//!   `godot_serde::from_bytes::<T>` on the same values as one Array (the root crate's
//!   decoder alone), and against the `Variant` path (`Args::decode` + `args::from_arguments`);
//! - send: `T` to a REMOTE_CALL packet (`args::encode` + `wire::write_remote_call`) against
//!   `godot_serde::to_bytes(&T)`, and against the `Variant` path (`to_arguments` +
//!   `encode_variants` + `write_remote_call`).
//!
//! Prints the medians of the samples and `ratio = ours / baseline` per metric (below 1:
//! faster), the median of the rounds' ratios (`benches/timing.rs`, shared with the root's
//! `ratios`), and whether the ratio is within its target (receive: 1.3× `from_bytes`, send:
//! 1.2× `to_bytes`). An argument selects the metrics whose name contains it (`input`, `ping`,
//! `chat`, `send`, `receive`, `send ping`);
//! `GODOT_SERDE_BENCH_PROFILE=N` runs only our side of each, N times, for a profiler.

#![allow(clippy::unwrap_used, clippy::cast_precision_loss, missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use godot_serde::Vector2;
use godot_serde_multiplayer::args::{self, Encoded};
use godot_serde_multiplayer::wire;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[path = "../tests/common/input.rs"]
mod input;
use input::Input;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Ping(i64);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Chat {
    from: String,
    channel: String,
    text: String,
    mentions: Vec<String>,
}

#[path = "../../benches/timing.rs"]
mod timing;

use timing::{Contender, Plan, fmt_ns, interleave, profile_iters, profile_run, ratio};

const PLAN: Plan = Plan {
    budget: Duration::from_millis(1_500),
    sample: Duration::from_micros(500),
    max_iters: 1_000_000,
    min_rounds: 5,
    max_rounds: 2_001,
};
/// Calls of our side per metric under a profiler (`GODOT_SERDE_BENCH_PROFILE=1`).
const PROFILE_ITERS: u32 = 2_000_000;

/// Runs the contenders interleaved; the first is ours, the ratios are against the others.
/// `target`: the baseline our time is held to and the ratio it may reach.
/// With `GODOT_SERDE_BENCH_PROFILE` set, runs only our side, for a profiler.
fn metric(name: &str, mut contenders: Vec<Contender<'_>>, target: (&str, f64)) {
    if !selected(name) {
        return;
    }
    if std::env::var_os("GODOT_SERDE_BENCH_PROFILE").is_some() {
        profile_run(&mut contenders[0].run, profile_iters(PROFILE_ITERS));
        return;
    }
    let rounds = interleave(&mut contenders, &PLAN);
    let ours = &contenders[0];
    let ours_ns = ours.median();
    for c in &contenders[1..] {
        let r = ratio(ours, c);
        let verdict = match target {
            (base, at_most) if base == c.name && r <= at_most => format!("  (target {at_most})"),
            (base, at_most) if base == c.name => format!("  (target {at_most}: MISSED)"),
            _ => String::new(),
        };
        println!(
            "{name:<22} ours {:>9}  {:<26} {:>9}  ratio {r:.2}{verdict}",
            fmt_ns(ours_ns),
            c.name,
            fmt_ns(c.median()),
        );
    }
    println!("{name:<22} ({rounds} rounds)");
}

/// Receiving a typed call: at most this many times `from_bytes::<T>` of the same values.
const RECEIVE_TARGET: f64 = 1.3;
/// Sending a typed call: at most this many times `to_bytes(&T)`.
const SEND_TARGET: f64 = 1.2;

fn call_packet(encoded: &Encoded) -> Vec<u8> {
    let mut p = Vec::with_capacity(encoded.bytes.len() + 8);
    wire::write_remote_call(&mut p, 1, None, 0, encoded);
    p
}

/// `T` from a packet; the baseline decodes the same values as one Array (`list`), or the
/// single argument's value itself.
fn receive<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(
    name: &str,
    value: &T,
    list: bool,
) {
    let list_shape = list;
    let packet = call_packet(&args::encode(value).unwrap());
    let array = if list {
        godot_serde::to_bytes(&godot_serde::Variant::from(
            args::to_arguments(value).unwrap(),
        ))
    } else {
        godot_serde::to_bytes(value)
    }
    .unwrap();
    // The three paths agree before they are timed.
    let typed = |p: &[u8]| -> T {
        let wire::Packet::RemoteCall { args, .. } = wire::parse(p).unwrap() else {
            panic!("not a call")
        };
        args::decode(&args).unwrap()
    };
    let variants = |p: &[u8]| -> T {
        let wire::Packet::RemoteCall { args, .. } = wire::parse(p).unwrap() else {
            panic!("not a call")
        };
        let list = args.decode().unwrap();
        if list_shape {
            args::from_arguments("m", &list).unwrap()
        } else {
            args::from_arguments::<(T,)>("m", &list).unwrap().0
        }
    };
    assert_eq!(&typed(&packet), value);
    assert_eq!(&variants(&packet), value);
    assert_eq!(&godot_serde::from_bytes::<T>(&array).unwrap(), value);
    metric(
        &format!("receive {name}"),
        vec![
            Contender::new("packet -> T", || {
                black_box(typed(black_box(&packet)));
            }),
            Contender::new("from_bytes::<T> (Array)", || {
                black_box(godot_serde::from_bytes::<T>(black_box(&array)).unwrap());
            }),
            Contender::new("Variant path", || {
                black_box(variants(black_box(&packet)));
            }),
        ],
        ("from_bytes::<T> (Array)", RECEIVE_TARGET),
    );
}

/// `T` to a packet; the baseline encodes `T` itself (`to_bytes`, which starts with a buffer
/// of 1 KiB: `write_call` is given one of 256 bytes, one allocation each).
fn send<T: Serialize>(name: &str, value: &T) {
    let typed = |v: &T| {
        let mut p = Vec::with_capacity(256);
        args::write_call(&mut p, 1, None, 0, v).unwrap();
        p
    };
    let encoded = |v: &T| call_packet(&args::encode(v).unwrap());
    let variants =
        |v: &T| call_packet(&args::encode_variants(&args::to_arguments(v).unwrap()).unwrap());
    assert_eq!(typed(value), variants(value));
    assert_eq!(encoded(value), variants(value));
    metric(
        &format!("send {name}"),
        vec![
            Contender::new("T -> packet", || {
                black_box(typed(black_box(value)));
            }),
            Contender::new("encode + write_remote_call", || {
                black_box(encoded(black_box(value)));
            }),
            Contender::new("to_bytes(T) (Array)", || {
                black_box(godot_serde::to_bytes(black_box(value)).unwrap());
            }),
            Contender::new("Variant path", || {
                black_box(variants(black_box(value)));
            }),
        ],
        ("to_bytes(T) (Array)", SEND_TARGET),
    );
}

/// Whether the metric's name contains the command line's filter (`send`, `ping`, `send ping`,
/// ...), or there is none.
fn selected(name: &str) -> bool {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    filter.is_none_or(|f| name.contains(&f))
}

fn main() {
    let run =
        |call: &str| selected(&format!("receive {call}")) || selected(&format!("send {call}"));
    let input = Input {
        name: "player_one".into(),
        dir: Vector2::new(0.70710677, -0.70710677),
        seq: 123_456,
        jump: true,
        keys: vec![87, 65, 83, 68, 32, 16, 17, 69],
    };
    let ping = Ping(1_234_567);
    let chat = Chat {
        from: "Sir Lancelot of the Round Table".into(),
        channel: "general".into(),
        text: "What is your name? What is your quest? What is the air-speed velocity of an \
               unladen swallow? African or European? I don't know that!"
            .into(),
        mentions: vec!["Arthur".into(), "Bedevere".into(), "Robin".into()],
    };
    if run("input") {
        receive("input (5 args)", &input, true);
        send("input (5 args)", &input);
    }
    if run("ping") {
        receive("ping (1 int)", &ping, false);
        send("ping (1 int)", &ping);
    }
    if run("chat") {
        receive("chat (strings)", &chat, true);
        send("chat (strings)", &chat);
    }
}
