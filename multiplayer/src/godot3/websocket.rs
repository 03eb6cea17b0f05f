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
//! One quirk kept from the engine: a packet "for everyone but `n`" (target `-n`) from a client
//! is also delivered to the server even when `n` is 1 (3.2.3 compares its own id with `-sender`,
//! which never matches).

use std::net::SocketAddr;

use super::relay::{Announce, Link, Relay};
use super::wire::{WS_SYS_NONE, WsMessage};
use super::ws_frame::{Ws3Frame, announcement, welcome};
use super::{Event, Session};
use crate::websocket::WsError;
use crate::ws_core::{Notice, Read, Sockets};
use crate::{Limits, ProtocolError};

/// A Godot 3.2.3-compatible WebSocket multiplayer peer: the server (peer 1) or a client.
pub struct Ws3Peer {
    sockets: Sockets,
    session: Session,
    relay: Relay,
}

impl std::fmt::Debug for Ws3Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::debug_peer(f, "Ws3Peer", &self.session, self.sockets.len())
    }
}

impl Ws3Peer {
    /// A server listening on `addr`.
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    pub fn server(addr: SocketAddr, limits: Limits) -> Result<Self, WsError> {
        Ok(Self {
            sockets: Sockets::server(addr, limits.websocket)?,
            session: Session::server(limits),
            relay: Relay::new(Link::WebSocket),
        })
    }

    /// A client of the Godot 3 server at `url` (`ws://host:port/`); returns at once: the
    /// connection, the handshake, the id and `connected` come with [`service`](Self::service),
    /// or their failure (an [`Event::Error`] for peer 1).
    ///
    /// # Errors
    ///
    /// [`WsError`] when the connection or the handshake fails.
    pub fn client(addr: SocketAddr, url: &str, limits: Limits) -> Result<Self, WsError> {
        Ok(Self {
            sockets: Sockets::client(addr, url, limits.websocket)?,
            // The id comes with SYS_ID; 0 until then.
            session: Session::client(0, limits),
            relay: Relay::new(Link::WebSocket),
        })
    }

    /// Turns the server's relay off (Godot 3.2.3's WebSocket server has no such switch and
    /// always relays): clients then only reach the server and learn of no other client, as
    /// with [`Enet3Peer::set_relay`](crate::godot3::enet::Enet3Peer::set_relay).
    pub fn set_relay(&mut self, on: bool) {
        self.relay.set_enabled(on);
    }

    /// The protocol session.
    pub fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The listening address (server).
    ///
    /// # Errors
    ///
    /// The socket's error, or `NotConnected` for a client.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.sockets.local_addr()
    }

    /// The next event of the session.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.session.poll_event()
    }

    fn server_side(&self) -> bool {
        self.sockets.server_side()
    }

    /// Accepts, reads, relays, and writes what the session queued. The work of one call is
    /// bounded as [`WsPeer::service`](crate::websocket::WsPeer::service)'s is.
    ///
    /// # Errors
    ///
    /// None today (the signature leaves room for a transport error): errors of one peer (its
    /// socket, a bound of [`WsLimits`](crate::WsLimits)) disconnect that peer only, and an
    /// accept error (no file descriptor left) pauses accepting for a moment.
    pub fn service(&mut self) -> Result<(), WsError> {
        self.sockets.begin();
        match self.sockets.advance_client() {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(detail) => {
                let error = ProtocolError::WebSocket { peer: 1, detail };
                self.session.report(1, error.into());
                return Ok(());
            }
        }
        for ws in self.sockets.accept() {
            self.open(ws);
        }
        self.read_all();
        self.write_outputs();
        Ok(())
    }

    fn send_to(&mut self, id: i32, data: Vec<u8>) {
        self.sockets.send(id, data);
    }

    /// `_send_add`: the id, the server, then (relay on) every other client both ways.
    fn open(&mut self, ws: tungstenite::WebSocket<crate::ws_core::Conn>) {
        let id = self.sockets.fresh_id();
        self.sockets.insert(id, ws);
        for (to, message) in welcome(id, &self.relay, &self.sockets.ids()) {
            self.send_to(to, message);
        }
        self.session.connected(id);
    }

    /// Sends the relay's announcements as system messages.
    fn notify(&mut self, announcements: Vec<Announce>) {
        for (to, message) in announcements.into_iter().map(announcement) {
            self.send_to(to, message);
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
        self.handle_notices();
    }

    /// Reports what happened to the connections, and disconnects the lost ones (telling the
    /// others, which may lose more: until nothing is left to tell).
    fn handle_notices(&mut self) {
        loop {
            let notices = self.sockets.take_notices();
            if notices.is_empty() {
                return;
            }
            for notice in notices {
                match notice {
                    Notice::Report(id, error) => self.session.report(id, error.into()),
                    Notice::Lost(id, error) => {
                        if let Some(error) = error {
                            self.session.report(id, error.into());
                        }
                        self.drop_peer(id);
                    }
                }
            }
        }
    }

    fn receive(&mut self, id: i32, data: &[u8]) {
        if !self.server_side() {
            let frame = match Ws3Frame::parse(data) {
                Ok(frame) => frame,
                Err(e) => return self.session.report(id, e.into()),
            };
            match frame {
                Ws3Frame::Data {
                    source, payload, ..
                } => self.session.receive(source, false, payload),
                Ws3Frame::Id(peer) if peer > 1 => self.session.set_unique_id(peer),
                Ws3Frame::Add(peer) => self.session.connected(peer),
                Ws3Frame::Del(peer) => self.session.disconnected(peer),
                Ws3Frame::Id(peer) => self.session.report(
                    id,
                    ProtocolError::Invalid {
                        what: "WebSocket system message",
                        offset: 0,
                        detail: format!("type 3 with id {peer}"),
                    }
                    .into(),
                ),
            }
            return;
        }
        let message = match WsMessage::parse(data) {
            Ok(m) => m,
            Err(e) => return self.session.report(id, e.into()),
        };
        // "Only server sends sys messages".
        if message.kind != WS_SYS_NONE {
            return self.session.report(
                id,
                ProtocolError::Invalid {
                    what: "WebSocket header",
                    offset: 0,
                    detail: format!(
                        "type {} source {} from peer {id}",
                        message.kind, message.source
                    ),
                }
                .into(),
            );
        }
        let (source, target, payload) = (message.source, message.target, message.payload);
        let peers = self.sockets.ids();
        match self.relay.route(id, source, target, &peers) {
            Ok(Some(route)) => {
                if route.local {
                    self.session.receive(id, false, payload);
                }
                for to in route.forward {
                    self.send_to(to, data.to_vec());
                }
            }
            Ok(None) => {}
            Err(e) => self.session.report(id, e.into()),
        }
    }

    /// `_send_del` and `peer_disconnected` for a connection the sockets lost.
    fn drop_peer(&mut self, id: i32) {
        if self.server_side() {
            let notices = self.relay.left(id, &self.sockets.ids());
            self.notify(notices);
        }
        self.session.disconnected(id);
    }

    fn write_outputs(&mut self) {
        while let Some(output) = self.session.poll_output() {
            let data = Ws3Frame::Data {
                source: self.session.unique_id(),
                target: output.target,
                payload: &output.data,
            }
            .to_bytes();
            if !self.server_side() {
                self.send_to(1, data);
                continue;
            }
            for to in Relay::targets(output.target, &self.sockets.ids()) {
                self.send_to(to, data.clone());
            }
        }
        self.sockets.maintain();
        self.handle_notices();
    }

    /// Closes every connection.
    pub fn close(&mut self) {
        self.sockets.close_all();
    }
}
