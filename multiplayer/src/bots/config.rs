//! What a swarm is: [`SwarmConfig`] and [`Link`].

use std::net::SocketAddr;

use crate::{RpcTable, Settings, Spawner};

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
    pub(super) server: SocketAddr,
    pub(super) link: Link,
    pub(super) count: usize,
    pub(super) ramp: f64,
    pub(super) rate: f64,
    pub(super) settings: Settings,
    pub(super) auth: Option<Vec<u8>>,
    pub(super) tables: Vec<RpcTable>,
    pub(super) spawners: Vec<Spawner>,
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

    /// Ticks per second of each joined bot ([`Behaviour::tick`](super::Behaviour::tick);
    /// default 10; 0: never).
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
