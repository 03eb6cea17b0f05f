//! A bot as the behaviour sees it ([`Bot`], [`Behaviour`]) and what the swarm reports of it.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::Stats;
use crate::{Event, ProtocolError, Session, Variant};

/// Where a bot is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BotPhase {
    /// Not started yet (the ramp-up).
    Waiting,
    /// Connecting.
    Connecting,
    /// Connected, authenticating.
    Authenticating,
    /// Admitted by the server.
    Joined,
    /// Its connection or authentication failed.
    Failed,
    /// It was admitted, then lost its server (or the swarm closed).
    Left,
}

/// What a bot received, counted as it came.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Received {
    /// Remote calls.
    pub rpcs: u64,
    /// RAW packets.
    pub raw: u64,
    /// Nodes spawned on it.
    pub spawns: u64,
    /// Nodes despawned.
    pub despawns: u64,
    /// Synchronizer states (full and delta).
    pub syncs: u64,
    /// Answers to its timed calls.
    pub answers: u64,
    /// Its errors (refused packets, failed sends).
    pub errors: u64,
}

impl Received {
    /// The nodes spawned on it and not despawned.
    pub fn nodes(&self) -> u64 {
        self.spawns.saturating_sub(self.despawns)
    }
}

/// What happened to one bot.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum BotEvent {
    /// The server admitted it.
    Joined,
    /// Its connection or authentication failed (it was never admitted).
    Failed(String),
    /// It lost its server after joining.
    Left,
    /// One of its errors (a refused packet, a send above its bounds); it stays.
    Error(ProtocolError),
}

/// An event of bot `bot` (its index in the swarm), whose peer id is `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct SwarmEvent {
    /// The bot's index (0..count).
    pub bot: usize,
    /// Its peer id.
    pub id: i32,
    /// What happened.
    pub event: BotEvent,
}

/// A bot's script: what it does when it joins, on each event of its session, and on each
/// tick. A closure `FnMut(&mut Bot)` is a behaviour that only ticks.
pub trait Behaviour {
    /// The server admitted `bot`.
    fn joined(&mut self, bot: &mut Bot<'_>) {
        let _ = bot;
    }

    /// An event of `bot`'s session (already counted in [`Bot::received`]).
    fn event(&mut self, bot: &mut Bot<'_>, event: &Event) {
        let _ = (bot, event);
    }

    /// A tick of a joined bot, at the swarm's rate.
    fn tick(&mut self, bot: &mut Bot<'_>);
}

impl<F: FnMut(&mut Bot<'_>)> Behaviour for F {
    fn tick(&mut self, bot: &mut Bot<'_>) {
        self(bot);
    }
}

/// A bot, as its behaviour sees it: its session, what it received, and calls that count in
/// the swarm's statistics.
pub struct Bot<'a> {
    pub(super) index: usize,
    pub(super) state: &'a mut BotState,
    pub(super) session: &'a mut Session,
    pub(super) stats: &'a mut Stats,
    pub(super) max_in_flight: usize,
    pub(super) now: Instant,
}

impl std::fmt::Debug for Bot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bot")
            .field("index", &self.index)
            .field("id", &self.state.id)
            .field("phase", &self.state.phase)
            .finish()
    }
}

impl Bot<'_> {
    /// Its index in the swarm.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Its peer id.
    pub fn id(&self) -> i32 {
        self.state.id
    }

    /// The time of this `service` call.
    pub fn now(&self) -> Instant {
        self.now
    }

    /// What it received so far.
    pub fn received(&self) -> Received {
        self.state.received
    }

    /// Its session: the synchronizers' state ([`Session::state_as`]), calls, RAW bytes.
    pub fn session(&mut self) -> &mut Session {
        self.session
    }

    /// Calls `method` on node `path` of the server (peer 1), counted in
    /// [`Stats::rpcs_sent`]; an error is counted in [`Stats::errors`] too.
    ///
    /// # Errors
    ///
    /// As [`Session::rpc`]: an undeclared node or method, arguments that cannot be encoded.
    pub fn call<A: ?Sized + Serialize>(
        &mut self,
        path: &str,
        method: &str,
        args: &A,
    ) -> Result<(), ProtocolError> {
        let sent = self.session.rpc(1, path, method, args);
        self.count(sent)
    }

    /// [`call`](Self::call) with the arguments as `Variant`s.
    ///
    /// # Errors
    ///
    /// As [`call`](Self::call).
    pub fn call_variants(
        &mut self,
        path: &str,
        method: &str,
        args: &[Variant],
    ) -> Result<(), ProtocolError> {
        let sent = self.session.rpc_variants(1, path, method, args);
        self.count(sent)
    }

    /// [`call`](Self::call), timed: its round trip ends at the [`answered`](Self::answered)
    /// that takes it (answers are taken oldest first, as a reliable channel delivers them).
    ///
    /// # Errors
    ///
    /// As [`call`](Self::call); nothing is timed then.
    pub fn call_timed<A: ?Sized + Serialize>(
        &mut self,
        path: &str,
        method: &str,
        args: &A,
    ) -> Result<(), ProtocolError> {
        self.call(path, method, args)?;
        self.time_call();
        Ok(())
    }

    /// [`call_timed`](Self::call_timed) with the arguments as `Variant`s.
    ///
    /// # Errors
    ///
    /// As [`call`](Self::call).
    pub fn call_timed_variants(
        &mut self,
        path: &str,
        method: &str,
        args: &[Variant],
    ) -> Result<(), ProtocolError> {
        self.call_variants(path, method, args)?;
        self.time_call();
        Ok(())
    }

    /// Its timed calls awaiting their answer.
    pub fn in_flight(&self) -> usize {
        self.state.in_flight.len()
    }

    /// The answer to the oldest timed call arrived: its round trip goes into the swarm's
    /// percentiles and is returned (`None` when no timed call waits).
    pub fn answered(&mut self) -> Option<Duration> {
        let sent = self.state.in_flight.pop_front()?;
        let rtt = self.now.saturating_duration_since(sent);
        self.stats.record_latency(rtt);
        self.state.received.answers += 1;
        Some(rtt)
    }

    fn time_call(&mut self) {
        if self.state.in_flight.len() >= self.max_in_flight {
            self.state.in_flight.pop_front();
            self.stats.unanswered += 1;
        }
        self.state.in_flight.push_back(self.now);
    }

    fn count(&mut self, sent: Result<(), ProtocolError>) -> Result<(), ProtocolError> {
        match &sent {
            Ok(()) => self.stats.rpcs_sent += 1,
            Err(_) => {
                self.stats.errors += 1;
                self.state.received.errors += 1;
            }
        }
        sent
    }
}

/// A bot's own state, besides its connection.
#[derive(Debug)]
pub(super) struct BotState {
    pub(super) id: i32,
    pub(super) phase: BotPhase,
    pub(super) next_tick: Instant,
    pub(super) in_flight: VecDeque<Instant>,
    pub(super) received: Received,
    /// When the bot must be stepped next without news from its socket (its tick, its
    /// session's timeout); `None`: only on news.
    pub(super) wake: Option<Instant>,
    /// Whether it is in this call's list of bots to step.
    pub(super) marked: bool,
}
