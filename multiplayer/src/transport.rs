//! The IO side of a [`Session`]: the [`Transport`] trait, and the [`Host`] that runs one session
//! over any number of transports (so one Godot 4 server serves ENet and WebSocket clients at
//! once).
//!
//! A transport moves a session's packets: it reports its peers ([`TransportEvent`]: connected
//! with an id, disconnected, a packet with its channel and transfer mode, an error of one
//! peer) and sends what it is given, without blocking. The crate's transports are
//! [`EnetTransport`](crate::enet::EnetTransport) (feature `enet`) and
//! [`WsTransport`](crate::websocket::WsTransport) (feature `websocket`); a transport of one's
//! own (a relay service, an in-memory pair for tests, WebRTC) implements the trait with the
//! sans-IO pieces the Godot transports use, public here: the WebSocket peer-id message
//! ([`ws_id_message`], [`parse_ws_id_message`]) and ENet's channel layout
//! ([`enet_channel`], [`from_enet_channel`]).
//!
//! A host of several ENet transports on different ports serves more players than one ENet
//! host takes (4,095): the relay and the server's announcements cross transports. Each
//! `service` is one announcement round ([`Session::announce_round`]), paced by what each
//! peer's transport still holds for it ([`Transport::congested`]).
//!
//! Ids are unique across a host's transports: a peer that connects with an id another
//! transport's peer has (Godot's ENet client picks its own id; the WebSocket server draws one
//! at random, 31 bits) is refused: its transport disconnects it at once and the session gets
//! [`Event::Error`] for that id ([`ProtocolError::State`], "id in use"); the peer that had the
//! id stays. A Godot ENet client so refused sees its connection succeed, then
//! `server_disconnected` (Godot's own server resets such a client, which then waits for
//! ENet's timeout).
//!
//! A Godot 3 session runs on a host too (`Host::new(godot3::Session::server(limits))`) over
//! Godot 3's transports (`Enet3Transport`, `Ws3Transport`), whose packets' `to` is the
//! `MultiplayerAPI` target (0 for everyone, `-n` for everyone but `n`) and which relay as
//! the engine's transport peers do: within each transport.
//!
//! With one transport, `Peer<T, S>` is a host that keeps its transport typed: `EnetPeer`,
//! `WsPeer` (Godot 4), `Enet3Peer` and `Ws3Peer` (Godot 3) are its kinds.
//!
//! What a peer does is an event of that peer, never the end of [`Host::service`]: a transport
//! reports its bounds ([`Limits`](crate::Limits)' `enet` and `websocket`) as
//! [`TransportEvent::Error`] and [`TransportEvent::Disconnected`]; `service` fails only when a
//! transport itself is gone (its socket), after servicing the others.

use std::collections::HashMap;
use std::time::Instant;

use crate::{Event, Output, ProtocolError, Session, SessionCommon, TransferMode};

/// What a transport reports to the session, in order.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TransportEvent {
    /// A peer connected with its id: a server's client (2..=i32::MAX), a client's server (1).
    Connected(i32),
    /// A peer left (it closed, timed out, or broke a bound: then its
    /// [`Error`](Self::Error) comes first). For a peer the host disconnected the host passes
    /// over it.
    Disconnected(i32),
    /// A packet of a connected peer: SceneMultiplayer's bytes as they are.
    Packet {
        /// The sender.
        from: i32,
        /// The user channel (0: the transfer mode's default channel).
        channel: u8,
        /// The transfer mode it came with.
        mode: TransferMode,
        /// The bytes.
        data: Vec<u8>,
    },
    /// Something of one peer's (a bound it broke, a packet of ours it cannot take, a failed
    /// connection): the session's [`Event::Error`] for it. Never the end of the transport.
    Error {
        /// The peer it concerns (1: a client's server).
        peer: i32,
        /// What was wrong.
        error: ProtocolError,
    },
}

/// The IO side of a session: peers, packets in and out, without blocking.
///
/// A [`Host`] calls [`service`](Self::service) once per [`Host::service`], drains
/// [`poll_event`](Self::poll_event), gives it the session's packets with
/// [`send`](Self::send) (and [`disconnect`](Self::disconnect)), then calls
/// [`flush`](Self::flush) and drains the events again.
pub trait Transport {
    /// This side's peer id: 1 for a server, the client's id, or `None` while a client does not
    /// know it yet (a WebSocket client learns it from the server's first message).
    fn unique_id(&self) -> Option<i32>;

    /// Does the IO that is ready (accepts, handshakes, reads within the transport's bounds)
    /// and queues what happened as events. Never blocks.
    ///
    /// # Errors
    ///
    /// Only when the transport itself is gone (its socket failed); what one peer does is a
    /// [`TransportEvent::Error`].
    fn service(&mut self) -> std::io::Result<()>;

    /// The next thing that happened.
    fn poll_event(&mut self) -> Option<TransportEvent>;

    /// Sends `data` to peer `to` (a positive id) on user channel `channel` with `mode`, as far
    /// as the transport's bounds let it: a packet it cannot take is the peer's
    /// [`TransportEvent::Error`]; nothing for a peer it does not have.
    fn send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>);

    /// Disconnects peer `peer` and forgets it: no packet of it follows (a
    /// [`TransportEvent::Disconnected`] may, which the host passes over).
    fn disconnect(&mut self, peer: i32);

    /// Pushes what [`send`](Self::send) queued to the network, and does the transport's
    /// periodic work (keep-alive pings, timeouts). Never blocks.
    fn flush(&mut self) {}

    /// Disconnects every peer and sends the notices.
    fn close(&mut self) {}

    /// Whether what is queued for `peer` and not yet taken by it is so much that packets
    /// that can wait (the server's announcements of other clients) should wait: the ENet
    /// transport answers true above a 64th of its `outbound_buffer_size` (16 KiB by
    /// default). Default false.
    fn congested(&self, _peer: i32) -> bool {
        false
    }
}

/// The message a Godot 4 `WebSocketMultiplayerPeer` server sends a new client first, once its
/// handshake is done (`modules/websocket/websocket_multiplayer_peer.cpp` in 4.x): the client's
/// peer id as one 4-byte little-endian binary message. Every later message is one
/// SceneMultiplayer packet.
pub fn ws_id_message(id: i32) -> [u8; 4] {
    id.to_le_bytes()
}

/// Reads the server's first message on a Godot 4 WebSocket client: the client's peer id.
///
/// # Errors
///
/// [`ProtocolError::Invalid`] (offset 0) unless it is 4 bytes holding an id of 2 or more (the
/// engine closes the connection then).
pub fn parse_ws_id_message(data: &[u8]) -> Result<i32, ProtocolError> {
    let bytes: [u8; 4] = data.try_into().map_err(|_| ProtocolError::Invalid {
        what: "WebSocket peer-id message",
        offset: 0,
        detail: format!("{} bytes, Godot sends 4", data.len()),
    })?;
    match i32::from_le_bytes(bytes) {
        id if id >= 2 => Ok(id),
        id => Err(ProtocolError::Invalid {
            what: "WebSocket peer-id message",
            offset: 0,
            detail: format!("id {id}, ids of clients are 2 or more"),
        }),
    }
}

/// `SYSCH_RELIABLE`: Godot 4's ENet channel of reliable packets on user channel 0.
pub const ENET_SYSCH_RELIABLE: u8 = 0;
/// `SYSCH_UNRELIABLE`: the ENet channel of unreliable (and unreliable-ordered) packets on user
/// channel 0.
pub const ENET_SYSCH_UNRELIABLE: u8 = 1;
/// `SYSCH_MAX`: user channel `n` (1 and up) is ENet channel `SYSCH_MAX + n - 1`.
pub const ENET_SYSCH_MAX: u8 = 2;

/// The ENet channel Godot 4's `ENetMultiplayerPeer` sends a packet of user channel `channel`
/// with `mode` on (`enet_multiplayer_peer.cpp`, `put_packet`).
pub fn enet_channel(channel: u8, mode: TransferMode) -> u8 {
    if channel > 0 {
        ENET_SYSCH_MAX.saturating_add(channel - 1)
    } else if mode == TransferMode::Reliable {
        ENET_SYSCH_RELIABLE
    } else {
        ENET_SYSCH_UNRELIABLE
    }
}

/// The user channel and transfer mode Godot 4 reports for a packet that came on ENet channel
/// `enet_channel`: user channels are reliable, `SYSCH_UNRELIABLE` is unreliable. (ENet's packet
/// flags tell unreliable-ordered from unreliable; Godot reports both as unreliable here.)
pub fn from_enet_channel(enet_channel: u8) -> (u8, TransferMode) {
    match enet_channel {
        c if c >= ENET_SYSCH_MAX => (c - ENET_SYSCH_MAX + 1, TransferMode::Reliable),
        ENET_SYSCH_UNRELIABLE => (0, TransferMode::Unreliable),
        _ => (0, TransferMode::Reliable),
    }
}

/// One [`Session`] over any number of [`Transport`]s: a Godot 4 server that ENet and
/// WebSocket clients join at once, or a client over one transport.
///
/// ```no_run
/// # #[cfg(all(feature = "enet", feature = "websocket"))]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use godot_serde_multiplayer::enet::EnetTransport;
/// use godot_serde_multiplayer::transport::Host;
/// use godot_serde_multiplayer::websocket::WsTransport;
/// use godot_serde_multiplayer::{Event, Settings};
///
/// let settings = Settings::default();
/// let mut host = Host::server(settings.clone());
/// host.add(EnetTransport::server("0.0.0.0:7000".parse()?, 32, &settings.limits)?);
/// host.add(WsTransport::server("0.0.0.0:7001".parse()?, &settings.limits)?);
/// loop {
///     host.service()?;
///     while let Some(event) = host.poll_event() {
///         if let Event::PeerConnected(peer) = event {
///             println!("{peer} joined");
///         }
///     }
///     std::thread::sleep(std::time::Duration::from_millis(5));
/// }
/// # }
/// # #[cfg(not(all(feature = "enet", feature = "websocket")))]
/// # fn main() {}
/// ```
pub struct Host<S: Dialect = Session> {
    router: Router<S>,
    transports: Vec<Box<dyn Transport + Send>>,
}

impl<S: Dialect> std::fmt::Debug for Host<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("session", &self.router.session)
            .field("transports", &self.transports.len())
            .field("peers", &self.router.owner.len())
            .finish()
    }
}

impl Host {
    /// A Godot 4 server (peer 1) with no transport yet: [`add`](Self::add) them.
    pub fn server(settings: crate::Settings) -> Self {
        Self::new(Session::server(settings))
    }

    /// A Godot 4 client over `transport`; its id is the transport's (a WebSocket client's
    /// arrives with the server's first message).
    pub fn client(transport: impl Transport + Send + 'static, settings: crate::Settings) -> Self {
        let id = transport.unique_id().unwrap_or(0);
        let mut host = Self::new(Session::client(id, settings));
        host.add(transport);
        host
    }
}

impl<S: Dialect> Host<S> {
    /// A host of `session` (Godot 4's [`Session`] or Godot 3's
    /// [`godot3::Session`](crate::godot3::Session)), with no transport yet. A client's
    /// session may start with id 0: it takes its transport's id once that is known.
    pub fn new(session: S) -> Self {
        Self {
            router: Router::new(session),
            transports: Vec::new(),
        }
    }

    /// Adds a transport; returns its index (for [`transport_mut`](Self::transport_mut)).
    /// Transports are `Send`, so that a host can run on a thread of its own.
    pub fn add(&mut self, transport: impl Transport + Send + 'static) -> usize {
        self.transports.push(Box::new(transport));
        self.transports.len() - 1
    }

    /// The transport of index `index`.
    pub fn transport_mut(&mut self, index: usize) -> Option<&mut (dyn Transport + Send + 'static)> {
        self.transports.get_mut(index).map(|t| &mut **t)
    }

    /// The protocol session, to declare RPC tables, call RPCs, authenticate, send bytes.
    pub fn session(&mut self) -> &mut S {
        &mut self.router.session
    }

    /// The next event of the session.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.router.session.next_event()
    }

    /// The index of the transport peer `peer` is connected through.
    pub fn transport_of(&self, peer: i32) -> Option<usize> {
        self.router.owner.get(&peer).copied()
    }

    /// Services every transport: what arrived goes to the session, what the session queued
    /// to the peer's transport. Never blocks; call it often (each frame, or every few ms).
    ///
    /// # Errors
    ///
    /// The first error of a transport that is gone (its socket failed); the other transports
    /// were serviced. What a peer does is never this call's error.
    pub fn service(&mut self) -> std::io::Result<()> {
        let mut refs: Vec<&mut dyn Transport> =
            self.transports.iter_mut().map(|t| &mut **t as _).collect();
        self.router.service(&mut refs)
    }

    /// Closes every transport (disconnects every peer and sends the notices).
    pub fn close(&mut self) {
        for transport in &mut self.transports {
            transport.close();
        }
    }
}

/// The session and which transport each peer is on: the work of [`Host`], also run by the
/// single-transport [`Peer`] over a transport it keeps typed.
pub(crate) struct Router<S> {
    pub(crate) session: S,
    /// Peer id → index of its transport.
    owner: HashMap<i32, usize>,
}

impl<S: Dialect> Router<S> {
    pub(crate) fn new(session: S) -> Self {
        Self {
            session,
            owner: HashMap::new(),
        }
    }

    /// One `service` over `transports` (the same ones, in the same order, every call).
    pub(crate) fn service(&mut self, transports: &mut [&mut dyn Transport]) -> std::io::Result<()> {
        let mut failed = None;
        // Reads first: what the application queued since the last call goes to the peers
        // still there.
        for transport in transports.iter_mut() {
            if let Err(e) = transport.service() {
                failed.get_or_insert(e);
            }
        }
        self.drain(transports);
        self.route_outputs(transports);
        {
            let (owner, ts): (&HashMap<i32, usize>, &[&mut dyn Transport]) =
                (&self.owner, transports);
            let congested = |peer: i32| {
                owner
                    .get(&peer)
                    .and_then(|&i| ts.get(i))
                    .is_some_and(|t| t.congested(peer))
            };
            self.session.on_round(&congested);
        }
        self.route_outputs(transports);
        self.session.on_timeout(Instant::now());
        self.route_outputs(transports);
        for transport in transports.iter_mut() {
            transport.flush();
        }
        // What the flush found (timeouts, lost connections), and the answers (relay notices).
        self.drain(transports);
        failed.map_or(Ok(()), Err)
    }

    /// Gives the session every event of every transport, routing its outputs after each.
    fn drain(&mut self, transports: &mut [&mut dyn Transport]) {
        loop {
            let mut any = false;
            for index in 0..transports.len() {
                while let Some(event) = transports.get_mut(index).and_then(|t| t.poll_event()) {
                    any = true;
                    self.event(transports, index, event);
                    self.route_outputs(transports);
                }
            }
            if !any {
                return;
            }
        }
    }

    fn event(
        &mut self,
        transports: &mut [&mut dyn Transport],
        index: usize,
        event: TransportEvent,
    ) {
        let Some(transport) = transports.get_mut(index) else {
            return;
        };
        if self.session.id() == 0 {
            if let Some(id) = transport.unique_id() {
                self.session.set_id(id);
            }
        }
        match event {
            TransportEvent::Connected(id) => {
                let refused = match self.owner.get(&id) {
                    Some(&other) => other != index,
                    None => self.session.id() == 1 && id < 2,
                };
                if refused {
                    transport.disconnect(id);
                    self.session.peer_error(
                        id,
                        ProtocolError::State {
                            peer: id,
                            detail: "connected with an id in use (or below 2): refused",
                        },
                    );
                } else if self.owner.insert(id, index).is_none() {
                    self.session.peer_connected(id, Instant::now());
                }
            }
            TransportEvent::Disconnected(id) => {
                if self.owner.get(&id) == Some(&index) {
                    self.owner.remove(&id);
                    if id == 1 && self.session.id() != 1 {
                        // A client that lost its server lost everyone it knew through it.
                        self.owner.retain(|_, &mut i| i != index);
                    }
                    self.session.peer_disconnected(id);
                }
            }
            TransportEvent::Packet {
                from,
                channel,
                mode,
                data,
            } => {
                // Not a peer of another transport (a refused duplicate id); one the host does
                // not know goes to the session, which refuses it.
                if self.owner.get(&from).is_none_or(|&i| i == index) {
                    self.session.packet(from, channel, mode, &data);
                }
            }
            TransportEvent::Error { peer, error } => self.session.peer_error(peer, error),
        }
    }

    /// Hands the session's outputs to the transports of their peers; a Godot 3 broadcast
    /// (target 0 or `-n`) to every transport, which frames and expands it.
    fn route_outputs(&mut self, transports: &mut [&mut dyn Transport]) {
        while let Some(output) = self.session.next_output() {
            match output {
                Output::Packet {
                    to,
                    channel,
                    mode,
                    data,
                } if to <= 0 => {
                    for t in transports.iter_mut() {
                        t.send(to, channel, mode, data.clone());
                    }
                }
                Output::Packet {
                    to,
                    channel,
                    mode,
                    data,
                } => {
                    if let Some(t) = self.owner.get(&to).and_then(|&i| transports.get_mut(i)) {
                        t.send(to, channel, mode, data);
                    }
                }
                Output::Disconnect(id) => {
                    // Forgotten now: whatever it still sends is not for the session.
                    if let Some(t) = self.owner.remove(&id).and_then(|i| transports.get_mut(i)) {
                        t.disconnect(id);
                    }
                }
            }
        }
    }
}

/// A protocol session a [`Host`] runs: Godot 4's [`Session`] or Godot 3's
/// [`godot3::Session`](crate::godot3::Session). Sealed: its methods are the host's, not for
/// calling (use the sessions' own methods). What both sessions do alike (the id, the queues,
/// errors) is their [`SessionCommon`]'s, written once here; the rest is each dialect's.
pub trait Dialect:
    sealed::Sealed + std::fmt::Debug + std::ops::DerefMut<Target = SessionCommon>
{
    /// The next event for the application.
    fn next_event(&mut self) -> Option<Event> {
        self.poll_event()
    }
    /// The next thing for the transports to do, as Godot 4's [`Output`] (Godot 3: user channel
    /// 0, the target as `to`, which may be 0 or `-n`).
    fn next_output(&mut self) -> Option<Output> {
        self.poll_output()
    }
    /// Our id (0: a client that does not know it yet).
    fn id(&self) -> i32 {
        self.unique_id()
    }
    /// Sets our id once the transport knows it.
    fn set_id(&mut self, id: i32) {
        self.set_unique_id(id);
    }
    /// A transport connected `peer`.
    fn peer_connected(&mut self, peer: i32, now: Instant);
    /// A transport lost `peer`.
    fn peer_disconnected(&mut self, peer: i32);
    /// A packet of `from`.
    fn packet(&mut self, from: i32, channel: u8, mode: TransferMode, data: &[u8]);
    /// An error of `peer`.
    fn peer_error(&mut self, peer: i32, error: ProtocolError) {
        self.report(peer, error);
    }
    /// The time, for the session's timeouts (run when its `poll_timeout` is due).
    fn on_timeout(&mut self, now: Instant);
    /// One `service` round: the paced work (Godot 4's announcements of a join burst), with
    /// whether a peer's transport is congested.
    fn on_round(&mut self, _congested: &dyn Fn(i32) -> bool) {}
}

mod sealed {
    /// Only this crate's sessions are [`Dialect`](super::Dialect)s.
    pub trait Sealed {}
    impl Sealed for crate::Session {}
    impl Sealed for crate::godot3::Session {}

    /// Only this crate's socket transports are
    /// [`SocketTransport`](super::SocketTransport)s.
    #[cfg(any(feature = "enet", feature = "websocket"))]
    pub trait Socket {}
    #[cfg(feature = "enet")]
    impl Socket for crate::enet::EnetTransport {}
    #[cfg(feature = "enet")]
    impl Socket for crate::godot3::enet::Enet3Transport {}
    #[cfg(feature = "websocket")]
    impl Socket for crate::websocket::WsTransport {}
    #[cfg(feature = "websocket")]
    impl Socket for crate::godot3::websocket::Ws3Transport {}
}

impl Dialect for Session {
    fn peer_connected(&mut self, peer: i32, now: Instant) {
        self.connected(peer, now);
    }
    fn peer_disconnected(&mut self, peer: i32) {
        self.disconnected(peer);
    }
    fn packet(&mut self, from: i32, channel: u8, mode: TransferMode, data: &[u8]) {
        self.receive(from, channel, mode, data);
    }
    fn on_timeout(&mut self, now: Instant) {
        if self.poll_timeout().is_some_and(|due| due <= now) {
            self.handle_timeout(now);
        }
    }
    fn on_round(&mut self, congested: &dyn Fn(i32) -> bool) {
        self.announce_round(congested);
    }
}

impl Dialect for crate::godot3::Session {
    fn peer_connected(&mut self, peer: i32, _now: Instant) {
        self.connected(peer);
    }
    fn peer_disconnected(&mut self, peer: i32) {
        self.disconnected(peer);
    }
    fn packet(&mut self, from: i32, _channel: u8, mode: TransferMode, data: &[u8]) {
        self.receive(from, mode != TransferMode::Reliable, data);
    }
    fn on_timeout(&mut self, _now: Instant) {}
}

/// One of the crate's socket transports (Godot 4's [`EnetTransport`](crate::enet::EnetTransport)
/// and [`WsTransport`](crate::websocket::WsTransport), Godot 3's
/// [`Enet3Transport`](crate::godot3::enet::Enet3Transport) and
/// [`Ws3Transport`](crate::godot3::websocket::Ws3Transport)): what a [`Peer`] needs of its
/// transport beyond [`Transport`]. Sealed.
#[cfg(any(feature = "enet", feature = "websocket"))]
pub trait SocketTransport: Transport + std::fmt::Debug + sealed::Socket {
    /// The error of [`Peer::service`] (and of the constructors):
    /// [`EnetError`](crate::enet::EnetError) or [`WsError`](crate::websocket::WsError).
    type Error: std::error::Error + From<std::io::Error>;
    /// The bound address (a WebSocket client: `NotConnected`): the transport's `local_addr`.
    ///
    /// # Errors
    ///
    /// The socket's error.
    fn address(&self) -> std::io::Result<std::net::SocketAddr>;
}

/// A [`Session`] (or Godot 3's [`godot3::Session`](crate::godot3::Session)) over one of the
/// crate's socket transports, kept typed: what a [`Host`] with one transport does, with the
/// transport at hand. Its four kinds are [`EnetPeer`](crate::enet::EnetPeer) and
/// [`WsPeer`](crate::websocket::WsPeer) (Godot 4),
/// [`Enet3Peer`](crate::godot3::enet::Enet3Peer) and
/// [`Ws3Peer`](crate::godot3::websocket::Ws3Peer) (Godot 3), each with its constructors
/// (`server`, `client`) and what its transport adds. Call [`service`](Self::service) often
/// (each frame, or every few milliseconds), then drain [`poll_event`](Self::poll_event).
#[cfg(any(feature = "enet", feature = "websocket"))]
pub struct Peer<T, S = Session> {
    router: Router<S>,
    transport: T,
}

#[cfg(any(feature = "enet", feature = "websocket"))]
impl<T: SocketTransport, S: Dialect> std::fmt::Debug for Peer<T, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("session", &self.router.session)
            .field("transport", &self.transport)
            .finish()
    }
}

#[cfg(any(feature = "enet", feature = "websocket"))]
impl<T: SocketTransport, S: Dialect> Peer<T, S> {
    /// `session` over `transport` (the kinds' constructors make both from one address and
    /// one set of limits).
    pub(crate) fn new(transport: T, session: S) -> Self {
        Self {
            router: Router::new(session),
            transport,
        }
    }

    /// The protocol session, to declare RPC tables (Godot 3: nodes), call RPCs,
    /// authenticate, send bytes.
    pub fn session(&mut self) -> &mut S {
        &mut self.router.session
    }

    /// The transport under the session.
    pub fn transport(&mut self) -> &mut T {
        &mut self.transport
    }

    /// The bound address (a server's; a WebSocket client has none).
    ///
    /// # Errors
    ///
    /// The socket's error, or `NotConnected` for a WebSocket client.
    pub fn local_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.transport.address()
    }

    /// The next event of the session.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.router.session.next_event()
    }

    /// Sends what the session queued, does the transport's work ([`Transport::service`]:
    /// accepts, handshakes, reads within the call's budget of [`EnetLimits`](crate::EnetLimits)
    /// or [`WsLimits`](crate::WsLimits), the rest waiting for the next call; a Godot 3 server
    /// relays), and sends the answers. What one peer does (a flood, a packet above the
    /// bounds, not acknowledging, an unreachable address, a failed connection) is that
    /// peer's [`Event::Error`] or disconnection, never this call's error.
    ///
    /// # Errors
    ///
    /// The transport's, when its socket itself fails (is gone):
    /// [`EnetError::Io`](crate::enet::EnetError::Io); the WebSocket transports have none
    /// today (the signature leaves room for one).
    pub fn service(&mut self) -> Result<(), T::Error> {
        Ok(self.router.service(&mut [&mut self.transport])?)
    }

    /// Disconnects every peer now and sends the notices (as dropping it does).
    pub fn close(&mut self) {
        self.transport.close();
    }
}

/// A queue of transport events, bounded by what the transport's own bounds let in: the
/// transports of this crate fill it in `service` and `send`.
#[cfg(any(feature = "enet", feature = "websocket"))]
#[derive(Debug, Default)]
pub(crate) struct Events(std::collections::VecDeque<TransportEvent>);

#[cfg(any(feature = "enet", feature = "websocket"))]
impl Events {
    /// Queues `event`.
    pub(crate) fn push(&mut self, event: TransportEvent) {
        self.0.push_back(event);
    }

    /// Queues `error` as `peer`'s [`TransportEvent::Error`].
    pub(crate) fn error(&mut self, peer: i32, error: ProtocolError) {
        self.push(TransportEvent::Error { peer, error });
    }

    /// The next event ([`Transport::poll_event`]).
    pub(crate) fn pop(&mut self) -> Option<TransportEvent> {
        self.0.pop_front()
    }

    /// Forgets the queued packets of `peer` (the host disconnected it).
    pub(crate) fn forget(&mut self, peer: i32) {
        self.0
            .retain(|event| !matches!(event, TransportEvent::Packet { from, .. } if *from == peer));
    }
}
