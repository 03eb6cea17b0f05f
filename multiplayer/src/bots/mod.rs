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

#[cfg(feature = "enet")]
mod enet;
mod stats;

use std::collections::{HashSet, VecDeque};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::{Event, ProtocolError, RpcTable, Session, Settings, Spawner, Variant};

pub use stats::Stats;

/// How the bots reach the server.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Link {
    /// ENet (`ENetMultiplayerPeer`), bots sharing UDP sockets.
    #[cfg(feature = "enet")]
    Enet,
    /// WebSocket (`WebSocketMultiplayerPeer`), requesting `url` (`ws://host:port/`).
    #[cfg(feature = "websocket")]
    WebSocket {
        /// The URL each bot requests.
        url: String,
    },
}

/// What a swarm is: the server, how many bots, how fast they start and tick, what each
/// declares and sends to authenticate.
#[derive(Debug, Clone)]
pub struct SwarmConfig {
    server: SocketAddr,
    link: Link,
    count: usize,
    ramp: f64,
    rate: f64,
    settings: Settings,
    auth: Option<Vec<u8>>,
    tables: Vec<RpcTable>,
    spawners: Vec<Spawner>,
}

impl SwarmConfig {
    /// `count` ENet bots of the server at `server`; all started at once, ticking 10 times a
    /// second, with the default client settings.
    #[cfg(feature = "enet")]
    pub fn enet(server: SocketAddr, count: usize) -> Self {
        Self::with_link(server, Link::Enet, count)
    }

    /// `count` WebSocket bots of the server at `server`, requesting `url`.
    #[cfg(feature = "websocket")]
    pub fn websocket(server: SocketAddr, url: &str, count: usize) -> Self {
        Self::with_link(server, Link::WebSocket { url: url.into() }, count)
    }

    fn with_link(server: SocketAddr, link: Link, count: usize) -> Self {
        Self {
            server,
            link,
            count,
            ramp: 0.0,
            rate: 10.0,
            settings: Settings::default(),
            auth: None,
            tables: Vec::new(),
            spawners: Vec::new(),
        }
    }

    /// Bots started per second (0, the default: all in the first `service` call).
    #[must_use]
    pub fn ramp(mut self, per_second: f64) -> Self {
        self.ramp = if per_second.is_finite() {
            per_second.max(0.0)
        } else {
            0.0
        };
        self
    }

    /// Ticks per second of each joined bot ([`Behaviour::tick`]; default 10; 0: never).
    #[must_use]
    pub fn rate(mut self, hz: f64) -> Self {
        self.rate = if hz.is_finite() { hz.max(0.0) } else { 0.0 };
        self
    }

    /// Each bot's session settings and bounds (`settings.limits` also holds the swarm's
    /// own, [`BotLimits`](crate::BotLimits)).
    #[must_use]
    pub fn settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// The data each bot sends when its server asks it to authenticate (SceneMultiplayer's
    /// `send_auth` from the `auth_callback`); the bot then completes its side. Turns
    /// `settings.auth` on.
    #[must_use]
    pub fn auth(mut self, data: &[u8]) -> Self {
        self.auth = Some(data.to_vec());
        self.settings.auth = true;
        self
    }

    /// A node's RPC table every bot declares.
    #[must_use]
    pub fn declare(mut self, table: RpcTable) -> Self {
        self.tables.push(table);
        self
    }

    /// A spawner every bot declares (with the synchronizers of its scenes,
    /// [`Spawner::synchronizer`]), so that the server's spawns and syncs are followed.
    #[must_use]
    pub fn spawner(mut self, spawner: Spawner) -> Self {
        self.spawners.push(spawner);
        self
    }
}

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
    index: usize,
    state: &'a mut BotState,
    session: &'a mut Session,
    stats: &'a mut Stats,
    max_in_flight: usize,
    now: Instant,
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
struct BotState {
    id: i32,
    phase: BotPhase,
    next_tick: Instant,
    in_flight: VecDeque<Instant>,
    received: Received,
}

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
    ids: HashSet<i32>,
    #[cfg(feature = "enet")]
    pool: Option<enet::Pool>,
    start: Option<Instant>,
    started: usize,
    stats: Stats,
    events: VecDeque<SwarmEvent>,
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
            ids: HashSet::new(),
            #[cfg(feature = "enet")]
            pool,
            start: None,
            started: 0,
            stats,
            events: VecDeque::new(),
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

    /// Bot `index`'s session, while it has a connection.
    pub fn session(&mut self, index: usize) -> Option<&mut Session> {
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
        for index in 0..self.bots.len() {
            self.step(index, now);
        }
        #[cfg(feature = "enet")]
        if let Some(pool) = &mut self.pool {
            pool.flush();
        }
        failed.map_or(Ok(()), Err)
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
        let id = self.fresh_id();
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
        let bots = &mut self.bots;
        let mut timed_out = Vec::new();
        let read = pool.service(|event| match event {
            enet::PoolEvent::Connected(bot) => {
                if let Some(BotRecord {
                    conn: Conn::Enet { session, .. },
                    ..
                }) = bots.get_mut(bot)
                {
                    session.connected(1, now);
                }
            }
            enet::PoolEvent::Disconnected(bot) => {
                if let Some(record) = bots.get_mut(bot) {
                    if record.state.phase == BotPhase::Connecting {
                        timed_out.push(bot);
                    } else if let Conn::Enet { session, .. } = &mut record.conn {
                        session.disconnected(1);
                    }
                }
            }
            enet::PoolEvent::Packet {
                bot,
                channel,
                mode,
                data,
            } => {
                if let Some(BotRecord {
                    conn: Conn::Enet { session, .. },
                    ..
                }) = bots.get_mut(bot)
                {
                    session.receive(1, channel, mode, &data);
                }
            }
        });
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
                state.next_tick = period.map_or(now, |p| first_tick(now, p, index));
                after = After::Joined;
            }
            Event::PeerDisconnected(1) if state.phase == BotPhase::Joined => after = After::Left,
            Event::AuthenticationFailed(1) => after = After::Fail("authentication failed".into()),
            Event::Error { peer: 1, error } if state.phase == BotPhase::Connecting => {
                after = After::Fail(error.to_string());
            }
            Event::Error { error, .. } => after = After::Error(error.clone()),
            Event::Rpc(_) | Event::Rset(_) => {
                self.stats.rpcs_received += 1;
                state.received.rpcs += 1;
            }
            Event::Raw { .. } => {
                self.stats.raw_received += 1;
                state.received.raw += 1;
            }
            Event::Spawned { .. } => {
                self.stats.spawns += 1;
                state.received.spawns += 1;
            }
            Event::Despawned { .. } => {
                self.stats.despawns += 1;
                state.received.despawns += 1;
            }
            Event::Synchronized { .. } => {
                self.stats.syncs += 1;
                state.received.syncs += 1;
            }
            _ => {}
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
