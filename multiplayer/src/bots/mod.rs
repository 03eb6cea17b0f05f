//! A swarm of bots: N Godot 4 clients driven from one thread, for load tests of a game server
//! (a Godot server or this crate's), without one Godot process per bot.
//!
//! Each bot is a protocol-faithful client: its own [`Session`] (the path cache, checksums,
//! authentication, the client side of replication: spawns, despawns, full and delta syncs
//! kept as the session's state), its own peer id and connection. A [`Behaviour`] scripts
//! them: it is told when a bot joins, sees each of its events, and ticks every joined bot at
//! the swarm's rate ([`SwarmConfig::rate`]), with the bot's session and what it received
//! ([`Bot`]). The swarm starts its bots at the ramp-up rate ([`SwarmConfig::ramp`]), reports
//! each bot's join, failure, departure and errors as [`SwarmEvent`]s (never as the end of
//! [`Swarm::service`]), and counts what they did ([`Stats`]: connected, failed, disconnected,
//! calls sent and received, spawns, syncs, and the round-trip percentiles of timed calls).
//!
//! ```no_run
//! use godot_serde_multiplayer::bots::{Behaviour, Bot, Swarm, SwarmConfig};
//! use godot_serde_multiplayer::{Event, RpcMethod, RpcTable};
//!
//! /// Each bot calls `echo(n)` on the server's `/root/Swarm` ten times a second and times
//! /// the server's answer, `echo(n)` back.
//! struct Echo;
//! impl Behaviour for Echo {
//!     fn tick(&mut self, bot: &mut Bot<'_>) {
//!         let n = i64::from(bot.id());
//!         let _ = bot.call_timed("Swarm", "echo", &(n,));
//!     }
//!     fn event(&mut self, bot: &mut Bot<'_>, event: &Event) {
//!         if matches!(event, Event::Rpc(call) if call.method == "echo") {
//!             bot.answered();
//!         }
//!     }
//! }
//!
//! let config = SwarmConfig::enet("127.0.0.1:7777".parse()?, 1_000)
//!     .ramp(200.0) // bots started per second
//!     .rate(10.0) // ticks per second per bot
//!     .declare(RpcTable::new("Swarm").with(RpcMethod::any_peer("echo")));
//! let mut swarm = Swarm::new(config, Echo);
//! swarm.run_for(std::time::Duration::from_secs(30))?;
//! let stats = swarm.stats();
//! println!("{} joined, {} failed, p99 {:?}", stats.joined, stats.failed, stats.latency_percentile(99.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Sockets.** ENet bots share UDP sockets: one ENet host holds up to
//! [`BotLimits::bots_per_socket`](crate::BotLimits) (64) client connections, each its own
//! ENet peer with its own connect id and Godot peer id, so 4,000 bots take 63 descriptors
//! (one socket per bot would need `ulimit -n` above 4,000). A Godot server sees each as its
//! own peer either way; it accepts at most 4,095 peers from one IP address (ENet's
//! `duplicatePeers`) and `max_clients` in all. WebSocket bots are one TCP connection each.
//!
//! **Memory.** Each bot's session and connection have the [`Limits`](crate::Limits) of a
//! client ([`SwarmConfig::settings`]); the swarm adds per bot its record (about 200 bytes),
//! at most [`BotLimits::max_in_flight`](crate::BotLimits) timed calls (16 bytes each), and
//! per swarm at most `max_events` queued events and a 7.8 KB latency histogram. What a server
//! spawns on a bot is not bounded (nor is it in the engine).

mod bot;
mod config;
#[cfg(feature = "enet")]
mod enet;
mod stats;

use std::cmp::Reverse;
#[cfg(feature = "enet")]
use std::collections::HashSet;
use std::collections::{BinaryHeap, VecDeque};
use std::time::{Duration, Instant};

use crate::{Event, ProtocolError, Session};

use bot::BotState;
pub use bot::{Behaviour, Bot, BotEvent, BotPhase, Received, SwarmEvent};
pub use config::{Link, SwarmConfig};
pub use stats::Stats;

/// A bot's connection and session.
enum Conn {
    /// Not started, or gone.
    None,
    /// An ENet connection on a shared socket; the session is the bot's own.
    #[cfg(feature = "enet")]
    Enet {
        session: Box<Session>,
        slot: enet::Slot,
    },
    /// A WebSocket client (its session inside).
    #[cfg(feature = "websocket")]
    Ws(Box<crate::websocket::WsPeer>),
}

struct BotRecord {
    state: BotState,
    conn: Conn,
}

/// N bots of one server, driven by one [`Behaviour`] from the thread that calls
/// [`service`](Self::service) (several swarms on several threads: [`Stats::merge`]).
pub struct Swarm<B> {
    config: SwarmConfig,
    behaviour: B,
    bots: Vec<BotRecord>,
    /// The ENet bots' ids (each draws one of its own).
    #[cfg(feature = "enet")]
    ids: HashSet<i32>,
    #[cfg(feature = "enet")]
    pool: Option<enet::Pool>,
    start: Option<Instant>,
    started: usize,
    stats: Stats,
    events: VecDeque<SwarmEvent>,
    /// The bots to step in this call (news from their socket, a wake-up come, started).
    due: Vec<usize>,
    /// The bots' wake-ups, earliest first; an entry whose bot has another `wake` is stale.
    wakes: BinaryHeap<Reverse<(Instant, usize)>>,
}

impl<B> std::fmt::Debug for Swarm<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Swarm")
            .field("bots", &self.bots.len())
            .field("started", &self.started)
            .field("connected", &self.stats.connected)
            .finish()
    }
}

/// The first tick of bot `index`: spread over one period (by the golden ratio), so bots
/// started together do not all tick in the same call.
fn first_tick(now: Instant, period: Duration, index: usize) -> Instant {
    let spread = (index as f64 * 0.618_033_988_749_895).fract();
    now + period.mul_f64(spread)
}

impl<B: Behaviour> Swarm<B> {
    /// A swarm of `config.count` bots scripted by `behaviour`; nothing starts before the first
    /// [`service`](Self::service).
    pub fn new(config: SwarmConfig, behaviour: B) -> Self {
        let now = Instant::now();
        let bots = (0..config.count)
            .map(|_| BotRecord {
                state: BotState {
                    id: 0,
                    phase: BotPhase::Waiting,
                    next_tick: now,
                    in_flight: VecDeque::new(),
                    received: Received::default(),
                    wake: None,
                    marked: false,
                },
                conn: Conn::None,
            })
            .collect();
        #[cfg(feature = "enet")]
        let pool = match config.link {
            Link::Enet => Some(enet::Pool::new(
                config.server,
                config.settings.limits.bots.bots_per_socket,
                enet::channels(&config.settings.limits.enet),
                config.settings.limits.enet,
            )),
            #[cfg(feature = "websocket")]
            Link::WebSocket { .. } => None,
        };
        let stats = Stats::new(config.count);
        Self {
            config,
            behaviour,
            bots,
            #[cfg(feature = "enet")]
            ids: HashSet::new(),
            #[cfg(feature = "enet")]
            pool,
            start: None,
            started: 0,
            stats,
            events: VecDeque::new(),
            due: Vec::new(),
            wakes: BinaryHeap::new(),
        }
    }

    /// The behaviour.
    pub fn behaviour(&mut self) -> &mut B {
        &mut self.behaviour
    }

    /// The statistics so far.
    pub fn stats(&self) -> Stats {
        self.stats.clone()
    }

    /// The next event of a bot (joined, failed, left, an error).
    pub fn poll_event(&mut self) -> Option<SwarmEvent> {
        self.events.pop_front()
    }

    /// Bot `index`'s peer id (0 before it started), phase and what it received.
    pub fn bot(&self, index: usize) -> Option<(i32, BotPhase, Received)> {
        self.bots
            .get(index)
            .map(|b| (b.state.id, b.state.phase, b.state.received))
    }

    /// Bot `index`'s session, while it has a connection (what is queued on it is sent in the
    /// next [`service`](Self::service)).
    pub fn session(&mut self, index: usize) -> Option<&mut Session> {
        self.mark(index);
        match &mut self.bots.get_mut(index)?.conn {
            Conn::None => None,
            #[cfg(feature = "enet")]
            Conn::Enet { session, .. } => Some(session),
            #[cfg(feature = "websocket")]
            Conn::Ws(peer) => Some(peer.session()),
        }
    }

    /// The UDP sockets the ENet bots use (0 for WebSocket bots, one descriptor each).
    pub fn sockets(&self) -> usize {
        #[cfg(feature = "enet")]
        if let Some(pool) = &self.pool {
            return pool.sockets();
        }
        0
    }

    /// Runs [`service`](Self::service) every millisecond for `duration`.
    ///
    /// # Errors
    ///
    /// As [`service`](Self::service).
    pub fn run_for(&mut self, duration: Duration) -> std::io::Result<()> {
        let end = Instant::now() + duration;
        while Instant::now() < end {
            self.service()?;
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(())
    }

    /// One round: starts the bots the ramp-up has come to, reads what arrived, runs each
    /// bot's events and due tick through the behaviour, sends what they queued. Never blocks;
    /// call it every millisecond or so. What a bot meets (a refused connection, a failed
    /// authentication, a lost server, a refused packet) is its [`SwarmEvent`].
    ///
    /// # Errors
    ///
    /// Only when one of the swarm's UDP sockets itself fails (the other bots were served).
    pub fn service(&mut self) -> std::io::Result<()> {
        let now = Instant::now();
        self.start_due(now);
        #[cfg(feature = "enet")]
        let failed = self.read_enet(now).err();
        #[cfg(not(feature = "enet"))]
        let failed: Option<std::io::Error> = None;
        #[cfg(feature = "websocket")]
        if matches!(self.config.link, Link::WebSocket { .. }) {
            // Each WebSocket bot reads its own socket.
            for index in 0..self.started {
                self.mark(index);
            }
        }
        while let Some(&Reverse((at, index))) = self.wakes.peek() {
            if at > now {
                break;
            }
            self.wakes.pop();
            if let Some(record) = self.bots.get_mut(index) {
                if record.state.wake == Some(at) {
                    record.state.wake = None;
                    self.mark(index);
                }
            }
        }
        let due = std::mem::take(&mut self.due);
        for &index in &due {
            if let Some(record) = self.bots.get_mut(index) {
                record.state.marked = false;
            }
            self.step(index, now);
            self.schedule(index);
        }
        self.due = due;
        self.due.clear();
        #[cfg(feature = "enet")]
        if let Some(pool) = &mut self.pool {
            pool.flush();
        }
        failed.map_or(Ok(()), Err)
    }

    /// Bot `index` is stepped in this call.
    fn mark(&mut self, index: usize) {
        if let Some(record) = self.bots.get_mut(index) {
            if !record.state.marked {
                record.state.marked = true;
                self.due.push(index);
            }
        }
    }

    /// Bot `index`'s next wake-up: its tick or its session's timeout, whichever is first.
    /// An earlier wake-up already set stays (the bot is stepped then and rescheduled).
    fn schedule(&mut self, index: usize) {
        let period = self.tick_period();
        let Some(record) = self.bots.get_mut(index) else {
            return;
        };
        let tick = (record.state.phase == BotPhase::Joined && period.is_some())
            .then_some(record.state.next_tick);
        let timeout = session_of(&mut record.conn).and_then(|s| s.poll_timeout());
        let next = match (tick, timeout) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let Some(at) = next {
            if record.state.wake.is_none_or(|w| at < w) {
                record.state.wake = Some(at);
                self.wakes.push(Reverse((at, index)));
            }
        }
        // Stale entries (wake-ups moved earlier) are dropped when they come up; rebuilt here
        // when they outnumber the bots, so the heap stays within 2 entries a bot.
        if self.wakes.len() > 2 * self.bots.len() + 64 {
            self.wakes = self
                .bots
                .iter()
                .enumerate()
                .filter_map(|(i, b)| b.state.wake.map(|at| Reverse((at, i))))
                .collect();
        }
    }

    /// Disconnects every bot now (sending the notices) and forgets their connections.
    pub fn close(&mut self) {
        #[cfg(feature = "enet")]
        if let Some(pool) = &mut self.pool {
            pool.close();
        }
        for record in &mut self.bots {
            #[cfg(feature = "websocket")]
            if let Conn::Ws(peer) = &mut record.conn {
                peer.close();
            }
            record.conn = Conn::None;
            if record.state.phase == BotPhase::Joined {
                record.state.phase = BotPhase::Left;
            }
        }
        self.stats.connected = 0;
    }

    fn push_event(&mut self, bot: usize, event: BotEvent) {
        let id = self.bots.get(bot).map_or(0, |b| b.state.id);
        if self.events.len() >= self.config.settings.limits.bots.max_events {
            self.stats.events_dropped += 1;
        } else {
            self.events.push_back(SwarmEvent { bot, id, event });
        }
    }

    /// A random peer id no other bot of the swarm has (Godot's servers refuse a second
    /// connection with an id in use).
    #[cfg(feature = "enet")]
    fn fresh_id(&mut self) -> i32 {
        loop {
            let id = crate::generate_unique_id();
            if self.ids.insert(id) {
                return id;
            }
        }
    }

    /// Starts the bots whose time has come: `ramp` per second from the first call.
    fn start_due(&mut self, now: Instant) {
        let start = *self.start.get_or_insert(now);
        let due = if self.config.ramp > 0.0 {
            let n = now.saturating_duration_since(start).as_secs_f64() * self.config.ramp;
            (n.floor() as usize).saturating_add(1).min(self.bots.len())
        } else {
            self.bots.len()
        };
        while self.started < due {
            let index = self.started;
            self.started += 1;
            self.stats.started += 1;
            self.start_bot(index, now);
        }
    }

    fn start_bot(&mut self, index: usize, now: Instant) {
        // An ENet bot picks its id (as Godot's client does); a WebSocket server picks it.
        #[cfg(feature = "enet")]
        let id = match self.config.link {
            Link::Enet => self.fresh_id(),
            #[cfg(feature = "websocket")]
            Link::WebSocket { .. } => 0,
        };
        #[cfg(not(feature = "enet"))]
        let id = 0;
        let settings = self.config.settings.clone();
        let conn = match &self.config.link {
            #[cfg(feature = "enet")]
            Link::Enet => match self.pool.as_mut().map(|p| p.connect(index, id)) {
                Some(Ok(slot)) => {
                    let mut session = Box::new(Session::client(id, settings));
                    self.declare(&mut session);
                    Ok(Conn::Enet { session, slot })
                }
                Some(Err(e)) => Err(e.to_string()),
                None => Err("no ENet socket".to_owned()),
            },
            #[cfg(feature = "websocket")]
            Link::WebSocket { url } => {
                let url = url.clone();
                match crate::websocket::WsTransport::client(
                    self.config.server,
                    &url,
                    &settings.limits,
                ) {
                    Ok(transport) => {
                        let mut peer = Box::new(crate::transport::Peer::new(
                            transport,
                            Session::client(0, settings),
                        ));
                        self.declare(peer.session());
                        Ok(Conn::Ws(peer))
                    }
                    Err(e) => Err(e.to_string()),
                }
            }
        };
        let Some(record) = self.bots.get_mut(index) else {
            return;
        };
        record.state.id = id;
        record.state.next_tick = now;
        match conn {
            Ok(conn) => {
                record.conn = conn;
                record.state.phase = BotPhase::Connecting;
                self.mark(index);
            }
            Err(reason) => {
                record.state.phase = BotPhase::Failed;
                self.stats.failed += 1;
                self.push_event(index, BotEvent::Failed(reason));
            }
        }
    }

    fn declare(&self, session: &mut Session) {
        for table in &self.config.tables {
            session.declare(table.clone());
        }
        for spawner in &self.config.spawners {
            session.declare_spawner(spawner.clone());
        }
    }

    /// Reads the ENet sockets into the bots' sessions.
    #[cfg(feature = "enet")]
    fn read_enet(&mut self, now: Instant) -> std::io::Result<()> {
        let Some(pool) = self.pool.as_mut() else {
            return Ok(());
        };
        let (bots, due) = (&mut self.bots, &mut self.due);
        let mut timed_out = Vec::new();
        let (mut packets, mut bytes) = (0u64, 0u64);
        let read = pool.service(|event| {
            let bot = match event {
                enet::PoolEvent::Connected(bot)
                | enet::PoolEvent::Disconnected(bot)
                | enet::PoolEvent::Packet { bot, .. } => bot,
            };
            let Some(record) = bots.get_mut(bot) else {
                return;
            };
            if !record.state.marked {
                record.state.marked = true;
                due.push(bot);
            }
            let connecting = record.state.phase == BotPhase::Connecting;
            let Conn::Enet { session, .. } = &mut record.conn else {
                return;
            };
            match event {
                enet::PoolEvent::Connected(_) => session.connected(1, now),
                enet::PoolEvent::Disconnected(_) if connecting => timed_out.push(bot),
                enet::PoolEvent::Disconnected(_) => session.disconnected(1),
                enet::PoolEvent::Packet {
                    channel,
                    mode,
                    data,
                    ..
                } => {
                    packets += 1;
                    bytes += data.len() as u64;
                    session.receive(1, channel, mode, &data);
                }
            }
        });
        self.stats.packets_received += packets;
        self.stats.bytes_received += bytes;
        for bot in timed_out {
            self.fail(
                bot,
                "the server did not answer the connection (ENet timed out)",
            );
        }
        read
    }

    fn fail(&mut self, index: usize, reason: &str) {
        let Some(record) = self.bots.get_mut(index) else {
            return;
        };
        record.state.phase = BotPhase::Failed;
        self.drop_conn(index);
        self.stats.failed += 1;
        self.push_event(index, BotEvent::Failed(reason.to_owned()));
    }

    fn drop_conn(&mut self, index: usize) {
        let Some(record) = self.bots.get_mut(index) else {
            return;
        };
        match std::mem::replace(&mut record.conn, Conn::None) {
            Conn::None => {}
            #[cfg(feature = "enet")]
            Conn::Enet { slot, .. } => {
                if let Some(pool) = &mut self.pool {
                    pool.reset(slot);
                }
            }
            #[cfg(feature = "websocket")]
            Conn::Ws(mut peer) => peer.close(),
        }
        record.state.in_flight = VecDeque::new();
    }

    /// One bot's round: its transport (WebSocket), its events, its tick, its timeouts and
    /// (ENet) its packets out.
    fn step(&mut self, index: usize, now: Instant) {
        #[cfg(feature = "websocket")]
        if let Some(BotRecord {
            conn: Conn::Ws(peer),
            ..
        }) = self.bots.get_mut(index)
        {
            // The WebSocket transport's errors are its peers' events; it has no socket of
            // its own to fail.
            let _ = peer.service();
        }
        loop {
            let Some(record) = self.bots.get_mut(index) else {
                return;
            };
            let event = match &mut record.conn {
                Conn::None => return,
                #[cfg(feature = "enet")]
                Conn::Enet { session, .. } => session.poll_event(),
                #[cfg(feature = "websocket")]
                Conn::Ws(peer) => peer.poll_event(),
            };
            let Some(event) = event else { break };
            self.on_event(index, event, now);
        }
        self.tick(index, now);
        #[cfg(feature = "enet")]
        self.send_enet(index, now);
    }

    /// Counts `event` in bot `index`'s state and the statistics, moves its phase, and gives
    /// it to the behaviour.
    fn on_event(&mut self, index: usize, event: Event, now: Instant) {
        let period = self.tick_period();
        let Some(record) = self.bots.get_mut(index) else {
            return;
        };
        let state = &mut record.state;
        let mut after = After::Nothing;
        match &event {
            Event::PeerAuthenticating(1) => {
                state.phase = BotPhase::Authenticating;
                if let Some(session) = session_of(&mut record.conn) {
                    if let Some(data) = &self.config.auth {
                        if let Err(e) = session.send_auth(1, data) {
                            after = After::Error(e);
                        }
                    }
                    session.complete_auth(1);
                }
            }
            Event::PeerConnected(1) => {
                state.phase = BotPhase::Joined;
                // A WebSocket bot's id is the server's choice, known now.
                if let Some(session) = session_of(&mut record.conn) {
                    state.id = session.unique_id();
                }
                state.next_tick = period.map_or(now, |p| first_tick(now, p, index));
                after = After::Joined;
            }
            Event::PeerDisconnected(1) if state.phase == BotPhase::Joined => after = After::Left,
            Event::AuthenticationFailed(1) => after = After::Fail("authentication failed".into()),
            Event::Error { peer: 1, error } if state.phase == BotPhase::Connecting => {
                after = After::Fail(error.to_string());
            }
            Event::Error { error, .. } => after = After::Error(error.clone()),
            other => {
                if let Some((total, own)) =
                    received_counters(other, &mut self.stats, &mut state.received)
                {
                    *total += 1;
                    *own += 1;
                }
            }
        }
        let joined = matches!(after, After::Joined);
        match after {
            After::Nothing => {}
            After::Joined => {
                self.stats.connected += 1;
                self.stats.joined += 1;
                self.push_event(index, BotEvent::Joined);
            }
            After::Left => {
                self.leave(index);
                return;
            }
            After::Fail(reason) => {
                self.fail(index, &reason);
                return;
            }
            After::Error(error) => self.error(index, error),
        }
        let max_in_flight = self.config.settings.limits.bots.max_in_flight.max(1);
        let Some(record) = self.bots.get_mut(index) else {
            return;
        };
        let Some(session) = session_of(&mut record.conn) else {
            return;
        };
        let mut bot = Bot {
            index,
            state: &mut record.state,
            session,
            stats: &mut self.stats,
            max_in_flight,
            now,
        };
        if joined {
            self.behaviour.joined(&mut bot);
        }
        self.behaviour.event(&mut bot, &event);
    }

    /// Bot `index` lost its server after joining.
    fn leave(&mut self, index: usize) {
        if let Some(record) = self.bots.get_mut(index) {
            record.state.phase = BotPhase::Left;
        }
        self.stats.connected = self.stats.connected.saturating_sub(1);
        self.stats.disconnected += 1;
        self.drop_conn(index);
        self.push_event(index, BotEvent::Left);
    }

    /// One error of bot `index`: counted and reported; the bot stays.
    fn error(&mut self, index: usize, error: ProtocolError) {
        self.stats.errors += 1;
        if let Some(record) = self.bots.get_mut(index) {
            record.state.received.errors += 1;
        }
        self.push_event(index, BotEvent::Error(error));
    }

    fn tick_period(&self) -> Option<Duration> {
        (self.config.rate > 0.0).then(|| Duration::from_secs_f64(1.0 / self.config.rate))
    }

    fn tick(&mut self, index: usize, now: Instant) {
        let Some(period) = self.tick_period() else {
            return;
        };
        let max_in_flight = self.config.settings.limits.bots.max_in_flight.max(1);
        let Some(record) = self.bots.get_mut(index) else {
            return;
        };
        if record.state.phase != BotPhase::Joined || now < record.state.next_tick {
            return;
        }
        // One tick per call; a bot that fell more than a period behind skips the rest.
        record.state.next_tick += period;
        if record.state.next_tick < now {
            record.state.next_tick = now + period;
        }
        let Some(session) = session_of(&mut record.conn) else {
            return;
        };
        let mut bot = Bot {
            index,
            state: &mut record.state,
            session,
            stats: &mut self.stats,
            max_in_flight,
            now,
        };
        self.behaviour.tick(&mut bot);
    }

    /// An ENet bot's session timeouts and packets out.
    #[cfg(feature = "enet")]
    fn send_enet(&mut self, index: usize, now: Instant) {
        let Some(pool) = self.pool.as_mut() else {
            return;
        };
        let Some(BotRecord {
            conn: Conn::Enet { session, slot },
            ..
        }) = self.bots.get_mut(index)
        else {
            return;
        };
        if session.poll_timeout().is_some_and(|due| due <= now) {
            session.handle_timeout(now);
        }
        let slot = *slot;
        let mut errors = Vec::new();
        let mut gone = false;
        while let Some(output) = session.poll_output() {
            match output {
                crate::Output::Packet {
                    channel,
                    mode,
                    data,
                    ..
                } => match pool.send(slot, channel, mode, data) {
                    enet::Sent::Queued => {}
                    enet::Sent::TooLarge { size, limit } => {
                        errors.push(ProtocolError::SendTooLarge {
                            peer: 1,
                            size,
                            limit,
                        });
                    }
                    enet::Sent::Refused => errors.push(ProtocolError::Channel { channel, mode }),
                    enet::Sent::Dropped { limit } => {
                        errors.push(ProtocolError::OutboundFull { peer: 1, limit });
                        gone = true;
                        break;
                    }
                },
                crate::Output::Disconnect(_) => {
                    gone = true;
                    break;
                }
            }
        }
        for error in errors {
            self.error(index, error);
        }
        if gone {
            let joined = self
                .bots
                .get(index)
                .is_some_and(|r| r.state.phase == BotPhase::Joined);
            if joined {
                self.leave(index);
            } else {
                self.fail(index, "disconnected before joining");
            }
        }
    }
}

/// What an event does to its bot once counted.
enum After {
    Nothing,
    Joined,
    Left,
    Fail(String),
    Error(ProtocolError),
}

impl<B> Drop for Swarm<B> {
    fn drop(&mut self) {
        for record in &mut self.bots {
            #[cfg(feature = "websocket")]
            if let Conn::Ws(peer) = &mut record.conn {
                peer.close();
            }
            record.conn = Conn::None;
        }
    }
}

/// The session of a bot's connection.
fn session_of(conn: &mut Conn) -> Option<&mut Session> {
    match conn {
        Conn::None => None,
        #[cfg(feature = "enet")]
        Conn::Enet { session, .. } => Some(session),
        #[cfg(feature = "websocket")]
        Conn::Ws(peer) => Some(peer.session()),
    }
}

/// The two counters of a received RPC, raw packet, spawn, despawn or sync: the swarm's in
/// `stats` and the bot's own in `received` (`None` for another event).
fn received_counters<'a>(
    event: &Event,
    stats: &'a mut Stats,
    received: &'a mut Received,
) -> Option<(&'a mut u64, &'a mut u64)> {
    match event {
        Event::Rpc(_) | Event::Rset(_) => Some((&mut stats.rpcs_received, &mut received.rpcs)),
        Event::Raw { .. } => Some((&mut stats.raw_received, &mut received.raw)),
        Event::Spawned { .. } => Some((&mut stats.spawns, &mut received.spawns)),
        Event::Despawned { .. } => Some((&mut stats.despawns, &mut received.despawns)),
        Event::Synchronized { .. } => Some((&mut stats.syncs, &mut received.syncs)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Bot, Swarm};
    use crate::{BotLimits, Limits};

    /// A swarm can be moved to a thread of its own (one per core: `Stats::merge`).
    #[test]
    fn a_swarm_is_send() {
        fn send<T: Send>() {}
        send::<Swarm<fn(&mut Bot<'_>)>>();
    }

    /// Each builder sets its field; the counts that would stop the swarm at 0 are raised to
    /// 1, the event bound keeps 0 (no events queued).
    #[test]
    fn bot_limits_builders() {
        assert_eq!(
            BotLimits::default(),
            BotLimits::default()
                .with_bots_per_socket(64)
                .with_max_in_flight(64)
                .with_max_events(65_536)
        );
        let zero = BotLimits::default()
            .with_bots_per_socket(0)
            .with_max_in_flight(0)
            .with_max_events(0);
        assert_eq!(
            (zero.bots_per_socket, zero.max_in_flight, zero.max_events),
            (1, 1, 0)
        );
        assert_eq!(Limits::default().with_bots(zero).bots, zero);
    }
}
