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
//! Prints the medians and `ratio = ours / baseline` per metric (below 1: faster).

#![allow(clippy::unwrap_used, clippy::cast_precision_loss, missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use godot_serde::Vector2;
use godot_serde_multiplayer::args::{self, Encoded};
use godot_serde_multiplayer::wire;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Time per metric, all contenders together.
const BUDGET: Duration = Duration::from_millis(1_500);
/// Target length of one sample: fast operations repeat within it.
const SAMPLE: Duration = Duration::from_millis(3);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Input {
    name: String,
    dir: Vector2,
    seq: i64,
    jump: bool,
    keys: Vec<i64>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Ping(i64);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Chat {
    from: String,
    channel: String,
    text: String,
    mentions: Vec<String>,
}

struct Contender<'a> {
    name: &'static str,
    run: Box<dyn FnMut() + 'a>,
    iters: u32,
    samples: Vec<f64>,
}

impl<'a> Contender<'a> {
    fn new(name: &'static str, run: impl FnMut() + 'a) -> Self {
        Contender {
            name,
            run: Box::new(run),
            iters: 1,
            samples: Vec::new(),
        }
    }

    fn calibrate(&mut self) {
        for _ in 0..100 {
            (self.run)();
        }
        let start = Instant::now();
        for _ in 0..100 {
            (self.run)();
        }
        let once = (start.elapsed() / 100).max(Duration::from_nanos(5));
        self.iters = u32::try_from(SAMPLE.as_nanos() / once.as_nanos())
            .unwrap_or(u32::MAX)
            .clamp(1, 1_000_000);
    }

    fn sample(&mut self) {
        let start = Instant::now();
        for _ in 0..self.iters {
            (self.run)();
        }
        self.samples
            .push(start.elapsed().as_nanos() as f64 / f64::from(self.iters));
    }

    fn median(&self) -> f64 {
        let mut s = self.samples.clone();
        s.sort_by(f64::total_cmp);
        s[s.len() / 2]
    }
}

/// Runs the contenders interleaved; the first is ours, the ratios are against the others.
fn metric(name: &str, mut contenders: Vec<Contender<'_>>) {
    for c in &mut contenders {
        c.calibrate();
    }
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < 5 || (start.elapsed() < BUDGET && rounds < 301) {
        for c in &mut contenders {
            c.sample();
        }
        rounds += 1;
    }
    let ours = contenders[0].median();
    for c in &contenders[1..] {
        let theirs = c.median();
        println!(
            "{name:<22} ours {ours:>8.1} ns  {:<26} {theirs:>8.1} ns  ratio {:.2}",
            c.name,
            ours / theirs
        );
    }
}

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
    );
}

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let run = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
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
