//! The WebSocket transport, as Godot 4.6's `WebSocketMultiplayerPeer` uses WebSocket
//! (`modules/websocket/websocket_multiplayer_peer.cpp`): once the handshake is done the server
//! sends the new peer its id as one 4-byte little-endian binary message, and from then on each
//! binary message is one SceneMultiplayer packet. WebSocket is reliable and ordered: every
//! transfer mode is sent reliably and channels are not used, as in Godot. This is how Godot
//! web exports play online.
//!
//! [`WsPeer`] drives a [`Session`] over non-blocking TCP sockets (no TLS here: put a
//! terminating proxy in front for `wss://`). Call [`WsPeer::service`] often, then drain
//! [`WsPeer::poll_event`].
//!
//! Every peer is bounded by [`WsLimits`](crate::WsLimits) (`Settings::limits.websocket`):
//! what it may send per `service` call (Godot's `inbound_buffer_size` and
//! `max_queued_packets`), what may be queued for it (`outbound_buffer_size`), how long it may
//! stay silent, and how many connections and handshakes there may be. A peer that breaks a
//! bound gets an [`Event::Error`] and is disconnected; `service` goes on.

use std::net::SocketAddr;
use std::time::Instant;

use crate::ws_core::{Notice, Read, Sockets};
use crate::{Event, Output, Session, Settings, TransferMode};

/// A transport error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WsError {
    /// The socket failed.
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
    /// The WebSocket handshake or protocol failed.
    #[error("WebSocket: {0}")]
    WebSocket(#[from] tungstenite::Error),
    /// The server's first message was not a valid 4-byte peer id.
    #[error("invalid peer id message from the server ({0} bytes)")]
    BadId(usize),
}

/// A Godot-compatible WebSocket multiplayer peer: the server (peer 1) or a client.
pub struct WsPeer {
    sockets: Sockets,
    session: Session,
    /// A client waits for its id before the session starts.
    awaiting_id: bool,
}

impl std::fmt::Debug for WsPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::debug_peer(f, "WsPeer", &self.session, self.sockets.len())
    }
}

impl WsPeer {
    /// A server listening on `addr` (`create_server`).
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    pub fn server(addr: SocketAddr, settings: Settings) -> Result<Self, WsError> {
        Ok(Self {
            sockets: Sockets::server(addr, settings.limits.websocket)?,
            session: Session::server(settings),
            awaiting_id: false,
        })
    }

    /// A client of the server at `url` (`ws://host:port/...`, `create_client`); the handshake
    /// is done before this returns, the peer id arrives with the first [`service`](Self::service).
    ///
    /// # Errors
    ///
    /// [`WsError`] when the connection or the handshake fails.
    pub fn client(addr: SocketAddr, url: &str, settings: Settings) -> Result<Self, WsError> {
        Ok(Self {
            sockets: Sockets::client(addr, url, settings.limits.websocket)?,
            session: Session::client(0, settings),
            awaiting_id: true,
        })
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

    /// Accepts, reads, and writes what the session queued. The work of one call is bounded:
    /// a few accepts, the handshakes in progress, and per peer at most
    /// `inbound_buffer_size` bytes and `max_queued_packets` messages.
    ///
    /// # Errors
    ///
    /// A client whose id message is invalid gets [`WsError::BadId`]. A server never fails
    /// here: errors of one peer (its socket, a bound of [`WsLimits`](crate::WsLimits))
    /// disconnect that peer only, and an accept error (no file descriptor left) pauses
    /// accepting for a moment.
    pub fn service(&mut self) -> Result<(), WsError> {
        self.sockets.begin();
        for ws in self.sockets.accept() {
            self.open(ws);
        }
        self.read_all()?;
        let now = Instant::now();
        if self.session.poll_timeout().is_some_and(|due| due <= now) {
            self.session.handle_timeout(now);
        }
        self.write_outputs();
        Ok(())
    }

    fn open(&mut self, ws: tungstenite::WebSocket<crate::ws_core::Conn>) {
        let id = self.sockets.fresh_id();
        self.sockets.insert(id, ws);
        // The id first (a full 4-byte binary message); WouldBlock keeps it queued.
        self.sockets.send(id, id.to_le_bytes().to_vec());
        let now = Instant::now();
        self.session.connected(id, now);
    }

    fn read_all(&mut self) -> Result<(), WsError> {
        for id in self.sockets.read_order() {
            loop {
                match self.sockets.read(id) {
                    Read::Binary(data) => {
                        if self.awaiting_id {
                            let id_bytes: [u8; 4] = data
                                .as_ref()
                                .try_into()
                                .map_err(|_| WsError::BadId(data.len()))?;
                            let mine = i32::from_le_bytes(id_bytes);
                            if mine < 2 {
                                return Err(WsError::BadId(4));
                            }
                            self.awaiting_id = false;
                            self.session.set_unique_id(mine);
                            self.session.connected(1, Instant::now());
                            continue;
                        }
                        self.session.receive(id, 0, TransferMode::Reliable, &data);
                    }
                    Read::Text(text) if !self.awaiting_id => {
                        self.session
                            .receive(id, 0, TransferMode::Reliable, text.as_bytes());
                    }
                    Read::Text(_) | Read::Other => {}
                    Read::Idle => break,
                }
            }
        }
        self.handle_notices();
        Ok(())
    }

    /// Reports what happened to the connections, and disconnects the lost ones.
    fn handle_notices(&mut self) {
        for notice in self.sockets.take_notices() {
            match notice {
                Notice::Report(id, error) => self.session.report(id, error),
                Notice::Lost(id, error) => {
                    if self.awaiting_id {
                        continue;
                    }
                    if let Some(error) = error {
                        self.session.report(id, error);
                    }
                    self.session.disconnected(id);
                }
            }
        }
    }

    fn write_outputs(&mut self) {
        self.send_outputs();
        self.sockets.maintain();
        self.handle_notices();
        // What the disconnections made the session send (the relay's notices).
        self.send_outputs();
        self.handle_notices();
    }

    fn send_outputs(&mut self) {
        while let Some(output) = self.session.poll_output() {
            match output {
                // Sent at once as far as the socket takes it, the rest queued and flushed by
                // `maintain`.
                Output::Packet { to, data, .. } => self.sockets.send(to, data),
                Output::Disconnect(id) => self.sockets.close_one(id),
            }
        }
    }

    /// Closes every connection.
    pub fn close(&mut self) {
        self.sockets.close_all();
    }
}
