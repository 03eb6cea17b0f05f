//! The swarm's statistics: counters and a round-trip histogram of fixed size.

use std::time::Duration;

/// Sub-buckets per power of two: a percentile is reported within 1/16 (6.25 %) of the
/// measured value.
const SUB: u64 = 16;
/// Buckets for every `u64` of microseconds: 16 exact ones, then 16 per power of two from 16.
const BUCKETS: usize = 16 * 61;

/// Round-trip times in microseconds, in log-linear buckets (HDR histograms' layout): a fixed
/// 7.8 KB whatever the number of samples.
#[derive(Clone)]
pub(crate) struct Histogram {
    counts: Box<[u64; BUCKETS]>,
    total: u64,
}

impl std::fmt::Debug for Histogram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Histogram")
            .field("total", &self.total)
            .finish()
    }
}

impl Default for Histogram {
    fn default() -> Self {
        Self {
            counts: Box::new([0; BUCKETS]),
            total: 0,
        }
    }
}

/// The bucket of `us`: below 16 the value itself; above, 16 sub-buckets per power of two.
fn bucket(us: u64) -> usize {
    if us < SUB {
        return us as usize;
    }
    let e = 63 - u64::from(us.leading_zeros()); // 4..=63
    let mantissa = (us >> (e - 4)) & (SUB - 1);
    ((e - 3) * SUB + mantissa) as usize
}

/// The largest value of bucket `index`.
fn upper(index: usize) -> u64 {
    let i = index as u64;
    if i < SUB {
        return i;
    }
    let e = i / SUB + 3;
    let m = i % SUB;
    let low = (SUB + m) << (e - 4);
    low.saturating_add((1u64 << (e - 4)) - 1)
}

impl Histogram {
    /// Adds one round trip.
    pub(crate) fn record(&mut self, rtt: Duration) {
        let us = u64::try_from(rtt.as_micros()).unwrap_or(u64::MAX);
        if let Some(c) = self.counts.get_mut(bucket(us)) {
            *c += 1;
            self.total += 1;
        }
    }

    /// Adds another histogram's samples.
    pub(crate) fn merge(&mut self, other: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += b;
        }
        self.total += other.total;
    }

    /// The samples.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// The `p`-th percentile (0 to 100), at most 6.25 % above the true value; `None` without
    /// samples.
    pub(crate) fn percentile(&self, p: f64) -> Option<Duration> {
        if self.total == 0 {
            return None;
        }
        let rank = ((p / 100.0) * self.total as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (index, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return Some(Duration::from_micros(upper(index)));
            }
        }
        None
    }
}

/// What a swarm did so far ([`Swarm::stats`](super::Swarm::stats)); [`merge`](Self::merge)
/// adds the statistics of swarms run on other threads.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Bots in the swarm.
    pub bots: usize,
    /// Bots whose connection was started (the ramp-up's progress).
    pub started: usize,
    /// Bots connected and admitted now (authenticated where the server asks for it).
    pub connected: usize,
    /// Bots that were ever admitted.
    pub joined: usize,
    /// Bots whose connection or authentication failed (never admitted).
    pub failed: usize,
    /// Admitted bots that lost their server.
    pub disconnected: usize,
    /// Calls the bots sent (through [`Bot::call`](super::Bot::call) and
    /// [`Bot::call_timed`](super::Bot::call_timed)).
    pub rpcs_sent: u64,
    /// Remote calls the bots received.
    pub rpcs_received: u64,
    /// RAW packets the bots received.
    pub raw_received: u64,
    /// Nodes the server spawned on the bots (SPAWN), all bots together.
    pub spawns: u64,
    /// Nodes the server despawned on the bots.
    pub despawns: u64,
    /// Synchronizer states received (full and delta SYNC).
    pub syncs: u64,
    /// Per-bot errors (refused packets, calls the session could not send).
    pub errors: u64,
    /// Timed calls forgotten unanswered (see [`BotLimits::max_in_flight`](crate::BotLimits)).
    pub unanswered: u64,
    /// Events not queued because [`BotLimits::max_events`](crate::BotLimits) were waiting.
    pub events_dropped: u64,
    /// SceneMultiplayer packets the ENet bots received (WebSocket bots' are not counted).
    pub packets_received: u64,
    /// The bytes of those packets (ENet's own protocol headers and acknowledgements not
    /// counted).
    pub bytes_received: u64,
    latency: Histogram,
}

impl Stats {
    /// The statistics of a swarm of `bots` bots that did nothing yet.
    pub(crate) fn new(bots: usize) -> Self {
        Self {
            bots,
            ..Self::default()
        }
    }

    /// Round trips measured (answers to timed calls).
    pub fn round_trips(&self) -> u64 {
        self.latency.total()
    }

    /// The `p`-th percentile round-trip time (0 to 100; within 6.25 % above the measured
    /// value), or `None` before the first answer.
    pub fn latency_percentile(&self, p: f64) -> Option<Duration> {
        self.latency.percentile(p)
    }

    /// Adds the statistics of another swarm (one per thread).
    pub fn merge(&mut self, other: &Stats) {
        self.bots += other.bots;
        self.started += other.started;
        self.connected += other.connected;
        self.joined += other.joined;
        self.failed += other.failed;
        self.disconnected += other.disconnected;
        self.rpcs_sent += other.rpcs_sent;
        self.rpcs_received += other.rpcs_received;
        self.raw_received += other.raw_received;
        self.spawns += other.spawns;
        self.despawns += other.despawns;
        self.syncs += other.syncs;
        self.errors += other.errors;
        self.unanswered += other.unanswered;
        self.events_dropped += other.events_dropped;
        self.packets_received += other.packets_received;
        self.bytes_received += other.bytes_received;
        self.latency.merge(&other.latency);
    }

    pub(crate) fn record_latency(&mut self, rtt: Duration) {
        self.latency.record(rtt);
    }
}

#[cfg(test)]
mod tests {
    use super::{Histogram, bucket, upper};
    use std::time::Duration;

    /// Every value lies in its bucket: not above the bucket's largest value, above the
    /// previous bucket's; buckets grow by 1/16 of their power of two.
    #[test]
    fn buckets_hold_their_values() {
        for us in (0..70_000u64).chain([u64::MAX / 3, u64::MAX]) {
            let b = bucket(us);
            assert!(us <= upper(b), "{us} above bucket {b} ({})", upper(b));
            if b > 0 {
                assert!(
                    us > upper(b - 1),
                    "{us} in bucket {b}, not above {}",
                    upper(b - 1)
                );
            }
        }
        // 1000 µs: 2^9 = 512, sub-bucket (1000 - 512) / 32 = 15 → 992..=1023.
        assert_eq!(upper(bucket(1000)), 1023);
        assert_eq!(bucket(u64::MAX), super::BUCKETS - 1);
    }

    /// Percentiles by rank: 100 samples of 1..=100 ms; p50 is the 50th (50,000 µs, reported
    /// as its bucket's top: 2^15 + 8 × 2^11 = 49,152 to 49,152 + 2^11 − 1 = 51,199 µs), p99
    /// the 99th.
    #[test]
    fn percentiles_by_rank() {
        let mut h = Histogram::default();
        assert_eq!(h.percentile(50.0), None);
        for ms in 1..=100 {
            h.record(Duration::from_millis(ms));
        }
        let p50 = h.percentile(50.0).unwrap();
        assert_eq!(p50, Duration::from_micros(51_199));
        let p99 = h.percentile(99.0).unwrap();
        assert!(p99 >= Duration::from_millis(99) && p99 < Duration::from_millis(99) * 17 / 16);
    }
}
