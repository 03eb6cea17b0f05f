//! [`Target`]: who a packet is for, the engine's `0 / -n / n` rule written once.

/// Who a packet, call or set is for: the engine's integer target (`rpc_id`'s `peer_id`,
/// `set_target_peer`, the Godot 3 ENet and WebSocket headers) as a type. `0` is everyone,
/// `-n` everyone but `n`, `n` one peer ([`Target::from_engine`], [`Target::to_engine`], and
/// `From`/`Into` `i32` both ways).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Every peer (`0`).
    All,
    /// One peer (`n`, positive).
    Peer(i32),
    /// Every peer but this one (`-n`).
    AllBut(i32),
}

impl Target {
    /// The engine's integer form read: `0` is [`All`](Self::All), `n > 0` is
    /// [`Peer(n)`](Self::Peer), `-n` is [`AllBut(n)`](Self::AllBut) (`i32::MIN`, which has no
    /// positive counterpart, excludes `i32::MAX`, as no peer has either id).
    pub fn from_engine(target: i32) -> Self {
        match target {
            0 => Self::All,
            t if t > 0 => Self::Peer(t),
            t => Self::AllBut(t.saturating_neg()),
        }
    }

    /// The engine's integer form: `0`, `n` or `-n`.
    pub fn to_engine(self) -> i32 {
        match self {
            Self::All => 0,
            Self::Peer(n) => n,
            Self::AllBut(n) => n.saturating_neg(),
        }
    }

    /// Whether `peer` is one of the targets.
    pub fn includes(self, peer: i32) -> bool {
        match self {
            Self::All => true,
            Self::Peer(n) => peer == n,
            Self::AllBut(n) => peer != n,
        }
    }

    /// The peer this target names, if any: `n` for [`Peer(n)`](Self::Peer) and
    /// [`AllBut(n)`](Self::AllBut) (Godot 3's `_send_rpc` checks `ABS(p_to)` is connected).
    pub fn named(self) -> Option<i32> {
        match self {
            Self::All => None,
            Self::Peer(n) | Self::AllBut(n) => Some(n),
        }
    }

    /// The peers of `peers` (the connected ones) this target reaches, in their order.
    pub fn expand(self, peers: impl IntoIterator<Item = i32>) -> Vec<i32> {
        peers.into_iter().filter(|&p| self.includes(p)).collect()
    }

    /// As [`expand`](Self::expand), with `is_peer` telling whether an id is connected: a
    /// [`Peer`](Self::Peer) target is answered by one lookup instead of a walk over every
    /// connected peer (a server answering one client of 1,000 does not touch the other 999).
    pub(crate) fn expand_with(
        self,
        peers: impl IntoIterator<Item = i32>,
        is_peer: impl Fn(i32) -> bool,
    ) -> Vec<i32> {
        match self {
            Self::Peer(n) => {
                if is_peer(n) {
                    vec![n]
                } else {
                    Vec::new()
                }
            }
            _ => self.expand(peers),
        }
    }

    /// The server's relay of a client's packet (`source`) for this target, with `peers`
    /// connected: whether the server's own side receives it, and the clients it is forwarded
    /// to (never back to `source`). The rule of Godot 3.2.3's `NetworkedMultiplayerENet::poll`
    /// and of Godot 4's `SceneMultiplayer` relay: `-1` excludes the server. Godot 3.2.3's
    /// WebSocket peer differs for `-1` only (see [`crate::godot3::wire::ws_route`]).
    pub fn relay(self, source: i32, peers: impl IntoIterator<Item = i32>) -> (bool, Vec<i32>) {
        let forward = match self {
            Self::Peer(_) => self.expand(peers),
            _ => self.expand(peers.into_iter().filter(|&p| p != source && p != 1)),
        };
        (self.includes(1), forward)
    }

    /// As [`relay`](Self::relay), with `is_peer` telling whether an id is connected: a
    /// [`Peer`](Self::Peer) target is one lookup, not a walk over every connected peer.
    pub(crate) fn relay_with(
        self,
        source: i32,
        peers: impl IntoIterator<Item = i32>,
        is_peer: impl Fn(i32) -> bool,
    ) -> (bool, Vec<i32>) {
        match self {
            Self::Peer(_) => (self.includes(1), self.expand_with(peers, is_peer)),
            _ => self.relay(source, peers),
        }
    }
}

impl From<i32> for Target {
    fn from(target: i32) -> Self {
        Self::from_engine(target)
    }
}

impl From<Target> for i32 {
    fn from(target: Target) -> Self {
        target.to_engine()
    }
}
