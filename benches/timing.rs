//! Interleaved timing for same-run ratios, shared by the benches that compare our code with a
//! baseline in one process: the root's `ratios` (`mod timing;`) and the multiplayer crate's
//! `typed_rpc` (`#[path = "../../benches/timing.rs"] mod timing;`), so that both measure the
//! same way.
//!
//! Shared machines drift by ±25 % between runs and by more within one: every contender runs
//! one sample per round, in turn (ours, baseline 1, baseline 2, ..., ours, ...), so the
//! samples of one round saw the same load. A ratio is the median over the rounds of that
//! round's ratio ([`ratio`]), which a load spike in a few rounds leaves where it was; the
//! medians of the samples ([`Contender::median`]) are the times printed beside it.

use std::time::{Duration, Instant};

/// One side of a comparison: a closure and its samples (ns per call).
pub struct Contender<'a> {
    pub name: &'static str,
    pub run: Box<dyn FnMut() + 'a>,
    iters: u32,
    samples: Vec<f64>,
}

impl<'a> Contender<'a> {
    pub fn new(name: &'static str, run: impl FnMut() + 'a) -> Self {
        Contender {
            name,
            run: Box::new(run),
            iters: 1,
            samples: Vec::new(),
        }
    }

    /// Warms up (page faults, caches, allocator state) for about a millisecond, then sizes a
    /// sample to last `sample` (at least one call, at most `max_iters`).
    fn calibrate(&mut self, sample: Duration, max_iters: u32) {
        const WARM: Duration = Duration::from_millis(1);
        let start = Instant::now();
        let mut calls = 0u32;
        while calls < 2 || (start.elapsed() < WARM && calls < max_iters) {
            (self.run)();
            calls += 1;
        }
        let start = Instant::now();
        for _ in 0..calls {
            (self.run)();
        }
        let once = (start.elapsed() / calls).max(Duration::from_nanos(1));
        let iters = sample.as_nanos() / once.as_nanos();
        self.iters = u32::try_from(iters).unwrap_or(u32::MAX).clamp(1, max_iters);
    }

    fn sample(&mut self) {
        let start = Instant::now();
        for _ in 0..self.iters {
            (self.run)();
        }
        let ns = start.elapsed().as_nanos() as f64 / f64::from(self.iters);
        self.samples.push(ns);
    }

    /// The median of the samples, ns per call.
    pub fn median(&self) -> f64 {
        median(self.samples.clone())
    }
}

/// How long [`interleave`] runs.
pub struct Plan {
    /// Time for all contenders together.
    pub budget: Duration,
    /// Target length of one sample: fast operations repeat within it.
    pub sample: Duration,
    /// Calls per sample at the most.
    pub max_iters: u32,
    pub min_rounds: usize,
    pub max_rounds: usize,
}

/// Calibrates the contenders, then samples them in turn, one round after another, until the
/// budget is spent (within the round limits); returns the number of rounds.
pub fn interleave(all: &mut [Contender<'_>], plan: &Plan) -> usize {
    for c in all.iter_mut() {
        c.calibrate(plan.sample, plan.max_iters);
    }
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < plan.max_rounds && (rounds < plan.min_rounds || start.elapsed() < plan.budget) {
        for c in all.iter_mut() {
            c.sample();
        }
        rounds += 1;
    }
    rounds
}

/// `ours / theirs`: the median over the rounds of the two samples' ratio in each round.
pub fn ratio(ours: &Contender<'_>, theirs: &Contender<'_>) -> f64 {
    let per_round = ours
        .samples
        .iter()
        .zip(&theirs.samples)
        .map(|(a, b)| a / b)
        .collect();
    median(per_round)
}

fn median(mut s: Vec<f64>) -> f64 {
    s.sort_by(f64::total_cmp);
    s.get(s.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Runs `run` `iters` times for a profiler (`valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='*profile_run*'`, or `perf record`, which then sees only this side) and
/// prints the time per run.
#[inline(never)]
pub fn profile_run(run: &mut dyn FnMut(), iters: u32) {
    let start = Instant::now();
    for _ in 0..iters {
        run();
    }
    eprintln!(
        "profile: {iters} runs, {} per run",
        fmt_ns(start.elapsed().as_nanos() as f64 / f64::from(iters))
    );
}

/// The calls [`profile_run`] makes: `GODOT_SERDE_BENCH_PROFILE=N` (N > 1), else `default`.
pub fn profile_iters(default: u32) -> u32 {
    std::env::var("GODOT_SERDE_BENCH_PROFILE")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &u32| n > 1)
        .unwrap_or(default)
}

pub fn fmt_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.3} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}
