//! The WebSocket transport as Godot 3.2.3's `WebSocketMultiplayerPeer` frames it
//! (`WebSocketServer.listen(port, [], true)` / `WebSocketClient.connect_to_url(url, [], true)`,
//! `modules/websocket/websocket_multiplayer_peer.cpp` in 3.2): every message starts with the
//! [`WsMessage`] header (type, source, target). The server picks the client's id and sends
//! `SYS_ID`, then `SYS_ADD 1` (the client's `connection_succeeded`) and `SYS_ADD` of every
//! other client (and the new one to them); `SYS_DEL` when one leaves. It relays client packets
//! whose target is another client, everyone, or everyone but one, after checking the source.
//! WebSocket is reliable: transfer modes do not exist here.
//!
//! Every peer is bounded by [`WsLimits`](crate::WsLimits) (`Limits::websocket`), as the
//! Godot 4 transport is (see [`crate::websocket`]); relayed packets count toward the receiving
//! peer's outbound bound. A peer that breaks a bound gets an [`Event::Error`] and is
//! disconnected (the others get `SYS_DEL`); `service` goes on.
//!
//! [`Ws3Transport`] is the [`Transport`] (framing, relay by [`Relay`], the peers as the
//! engine reports them); [`Ws3Peer`] is a [`Session`] over one of them. Nothing blocks: a
//! client's connection, handshake and `SYS_ID` come in `service`, their failure is an
//! [`Event::Error`] for peer 1.
//!
//! One quirk kept from the engine: a packet "for everyone but `n`" (target `-n`) from a client
//! is also delivered to the server even when `n` is 1 (3.2.3 compares its own id with `-sender`,
//! which never matches).
//!
//! [`Event::Error`]: crate::Event::Error

use std::net::SocketAddr;

use super::Session;
use super::relay::{Announce, Link, Relay};
use super::wire::{WS_SYS_NONE, WsMessage};
use super::ws_frame::{Ws3Frame, announcement, welcome};
use crate::transport::{Events, Peer, Transport, TransportEvent};
use crate::websocket::WsError;
use crate::ws_core::{Notice, Read, Sockets};
use crate::{Limits, ProtocolError, TransferMode};

/// Godot 3.2.3's WebSocket transport (`WebSocketMultiplayerPeer`, `gd_mp_api = true`): a
/// server's listener and clients (relaying between them), or a client's connection, bounded
/// by [`WsLimits`](crate::WsLimits). Its packets' `to` is the `MultiplayerAPI` target: a
/// peer, 0 for everyone, `-n` for everyone but `n`.
pub struct Ws3Transport {
    sockets: Sockets,
    /// 1 for a server; a client's once `SYS_ID` came.
    id: Option<i32>,
    relay: Relay,
    events: Events,
}

impl std::fmt::Debug for Ws3Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ws3Transport")
            .field("id", &self.id)
            .field("peers", &self.sockets.len())
            .field("relay", &self.relay)
            .finish()
    }
}

impl Ws3Transport {
    /// A server listening on `addr`.
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    pub fn server(addr: SocketAddr, limits: &Limits) -> Result<Self, WsError> {
        Ok(Self::with(
            Sockets::server(addr, limits.websocket)?,
            Some(1),
        ))
    }

    /// A client of the Godot 3 server at `addr`, requesting `url` (`ws://host:port/`);
    /// returns at once: the connection, the handshake, `SYS_ID` and `SYS_ADD 1` come in
    /// `service`, or their failure ([`TransportEvent::Error`] for peer 1).
    ///
    /// # Errors
    ///
    /// [`WsError::WebSocket`] for a URL tungstenite refuses, [`WsError::Io`] when no socket
    /// can be made.
    pub fn client(addr: SocketAddr, url: &str, limits: &Limits) -> Result<Self, WsError> {
        Ok(Self::with(
            Sockets::client(addr, url, limits.websocket)?,
            None,
        ))
    }

    fn with(sockets: Sockets, id: Option<i32>) -> Self {
        Self {
            sockets,
            id,
            relay: Relay::new(Link::WebSocket),
            events: Events::default(),
        }
    }

    /// Turns the server's relay off (Godot 3.2.3's WebSocket server has no such switch and
    /// always relays): clients then only reach the server and learn of no other client, as
    /// with [`Enet3Transport::set_relay`](crate::godot3::enet::Enet3Transport::set_relay).
    pub fn set_relay(&mut self, on: bool) {
        self.relay.set_enabled(on);
    }

    /// The listening address (server).
    ///
    /// # Errors
    ///
    /// The socket's error, or `NotConnected` for a client.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.sockets.local_addr()
    }

    /// Closes every connection.
    pub fn close(&mut self) {
        self.sockets.close_all();
    }

    fn server_side(&self) -> bool {
        self.sockets.server_side()
    }

    /// `_send_add`: the id, the server, then (relay on) every other client both ways.
    fn open(&mut self, ws: tungstenite::WebSocket<crate::ws_core::Conn>) {
        let id = self.sockets.fresh_id();
        self.sockets.insert(id, ws);
        for (to, message) in welcome(id, &self.relay, &self.sockets.ids()) {
            self.sockets.send(to, message);
        }
        self.events.push(TransportEvent::Connected(id));
    }

    /// Sends the relay's announcements as system messages.
    fn announce(&mut self, announcements: Vec<Announce>) {
        for (to, message) in announcements.into_iter().map(announcement) {
            self.sockets.send(to, message);
        }
    }

    fn read_all(&mut self) {
        for id in self.sockets.read_order() {
            loop {
                match self.sockets.read(id) {
                    Read::Binary(data) => self.receive(id, &data),
                    Read::Text(text) => self.receive(id, text.as_bytes()),
                    Read::Other => {}
                    Read::Idle => break,
                }
            }
        }
        self.take_notices();
    }

    /// What happened to the connections, as events; a lost one's departure is announced to
    /// the others, which may lose more: until nothing is left to tell.
    fn take_notices(&mut self) {
        loop {
            let notices = self.sockets.take_notices();
            if notices.is_empty() {
                return;
            }
            for notice in notices {
                match notice {
                    Notice::Report(id, error) => self.events.error(id, error),
                    Notice::Lost(id, error) => {
                        if let Some(error) = error {
                            self.events.error(id, error);
                        }
                        if self.server_side() {
                            let announcements = self.relay.left(id, &self.sockets.ids());
                            self.announce(announcements);
                        }
                        self.events.push(TransportEvent::Disconnected(id));
                    }
                }
            }
        }
    }

    fn receive(&mut self, id: i32, data: &[u8]) {
        let packet = |from: i32, payload: &[u8]| TransportEvent::Packet {
            from,
            channel: 0,
            mode: TransferMode::Reliable,
            data: payload.to_vec(),
        };
        if !self.server_side() {
            let frame = match Ws3Frame::parse(data) {
                Ok(frame) => frame,
                Err(e) => return self.events.error(id, e),
            };
            let event = match frame {
                Ws3Frame::Data {
                    source, payload, ..
                } => packet(source, payload),
                Ws3Frame::Id(peer) if peer > 1 => {
                    self.id = Some(peer);
                    return;
                }
                Ws3Frame::Add(peer) => TransportEvent::Connected(peer),
                Ws3Frame::Del(peer) => TransportEvent::Disconnected(peer),
                Ws3Frame::Id(peer) => {
                    return self.events.error(
                        id,
                        ProtocolError::Invalid {
                            what: "WebSocket system message",
                            offset: 0,
                            detail: format!("type 3 with id {peer}"),
                        },
                    );
                }
            };
            self.events.push(event);
            return;
        }
        let message = match WsMessage::parse(data) {
            Ok(m) => m,
            Err(e) => return self.events.error(id, e),
        };
        // "Only server sends sys messages".
        if message.kind != WS_SYS_NONE {
            return self.events.error(
                id,
                ProtocolError::Invalid {
                    what: "WebSocket header",
                    offset: 0,
                    detail: format!(
                        "type {} source {} from peer {id}",
                        message.kind, message.source
                    ),
                },
            );
        }
        let peers = self.sockets.ids();
        match self.relay.route(id, message.source, message.target, &peers) {
            Ok(Some(route)) => {
                if route.local {
                    self.events.push(packet(id, message.payload));
                }
                for to in route.forward {
                    self.sockets.send(to, data.to_vec());
                }
            }
            Ok(None) => {}
            Err(e) => self.events.error(id, e),
        }
    }
}

impl Transport for Ws3Transport {
    fn unique_id(&self) -> Option<i32> {
        self.id
    }

    /// Accepts (and welcomes), advances the handshakes, reads and relays; bounded as
    /// [`WsTransport`](crate::websocket::WsTransport)'s is. Never fails.
    fn service(&mut self) -> std::io::Result<()> {
        if !self.sockets.start(&mut self.events) {
            return Ok(());
        }
        for ws in self.sockets.accept() {
            self.open(ws);
        }
        self.read_all();
        Ok(())
    }

    fn poll_event(&mut self) -> Option<TransportEvent> {
        self.events.pop()
    }

    /// Frames `data` (source: our id, target: `to`) and sends it: a client to the server, a
    /// server to the clients `to` names (`Relay::targets`). WebSocket is reliable: every mode
    /// is sent reliably.
    fn send(&mut self, to: i32, _channel: u8, _mode: TransferMode, data: Vec<u8>) {
        let data = Ws3Frame::Data {
            source: self.id.unwrap_or(0),
            target: to,
            payload: &data,
        }
        .to_bytes();
        if !self.server_side() {
            self.sockets.send(1, data);
        } else {
            for to in Relay::targets(to, &self.sockets.ids()) {
                self.sockets.send(to, data.clone());
            }
        }
        self.take_notices();
    }

    fn disconnect(&mut self, peer: i32) {
        self.events.forget(peer);
        self.sockets.close_one(peer);
        if self.server_side() {
            let announcements = self.relay.left(peer, &self.sockets.ids());
            self.announce(announcements);
        }
    }

    fn flush(&mut self) {
        self.sockets.maintain();
        self.take_notices();
    }

    fn close(&mut self) {
        self.sockets.close_all();
    }
}

/// A Godot 3.2.3-compatible WebSocket multiplayer peer, the server (peer 1) or a client: a
/// [`Session`] over one [`Ws3Transport`]. Its session, transport, `service` (bounded as
/// [`WsTransport`](crate::websocket::WsTransport)'s `service` is) and the rest are
/// [`Peer`]'s.
pub type Ws3Peer = Peer<Ws3Transport, Session>;

impl Ws3Peer {
    /// A server listening on `addr`.
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    pub fn server(addr: SocketAddr, limits: Limits) -> Result<Self, WsError> {
        let transport = Ws3Transport::server(addr, &limits)?;
        Ok(Self::new(transport, Session::server(limits)))
    }

    /// A client of the Godot 3 server at `url` (`ws://host:port/`); returns at once: the
    /// connection, the handshake, the id and `connected` come with
    /// [`service`](Peer::service), or their failure (an
    /// [`Event::Error`](crate::Event::Error) for peer 1).
    ///
    /// # Errors
    ///
    /// As [`Ws3Transport::client`].
    pub fn client(addr: SocketAddr, url: &str, limits: Limits) -> Result<Self, WsError> {
        let transport = Ws3Transport::client(addr, url, &limits)?;
        // The id comes with SYS_ID; 0 until then.
        Ok(Self::new(transport, Session::client(0, limits)))
    }

    /// Turns the server's relay off (see [`Ws3Transport::set_relay`]).
    pub fn set_relay(&mut self, on: bool) {
        self.transport().set_relay(on);
    }
}

impl crate::transport::SocketTransport for Ws3Transport {
    type Error = WsError;
    fn address(&self) -> std::io::Result<SocketAddr> {
        self.sockets.local_addr()
    }
}
