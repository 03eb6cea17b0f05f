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

use std::net::SocketAddr;
use std::time::Instant;

use crate::ws_core::{Read, Sockets};
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
    start: Instant,
    /// A client waits for its id before the session starts.
    awaiting_id: bool,
}

impl std::fmt::Debug for WsPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::debug_peer(f, "WsPeer", &self.session, self.sockets.peers.len())
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
            sockets: Sockets::server(addr)?,
            session: Session::server(settings),
            start: Instant::now(),
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
            sockets: Sockets::client(addr, url)?,
            session: Session::client(0, settings),
            start: Instant::now(),
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

    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Accepts, reads, and writes what the session queued.
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the listening socket fails; a client whose id message is invalid
    /// gets [`WsError::BadId`]. Errors of one peer's socket disconnect that peer only.
    pub fn service(&mut self) -> Result<(), WsError> {
        for ws in self.sockets.accept()? {
            self.open(ws);
        }
        self.read_all()?;
        self.session.tick(self.now_ms());
        self.write_outputs();
        Ok(())
    }

    fn open(&mut self, ws: tungstenite::WebSocket<std::net::TcpStream>) {
        let id = self.sockets.fresh_id();
        self.sockets.peers.insert(id, ws);
        // The id first (a full 4-byte binary message); WouldBlock keeps it queued.
        self.sockets.send(id, id.to_le_bytes().to_vec());
        let now = self.now_ms();
        self.session.connected(id, now);
    }

    fn read_all(&mut self) -> Result<(), WsError> {
        for id in self.sockets.ids() {
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
                            self.session.connected(1, self.now_ms());
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
                    Read::Gone => {
                        self.drop_peer(id);
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    fn drop_peer(&mut self, id: i32) {
        if self.sockets.peers.remove(&id).is_some() && !self.awaiting_id {
            self.session.disconnected(id);
        }
    }

    fn write_outputs(&mut self) {
        while let Some(output) = self.session.poll_output() {
            match output {
                // WouldBlock keeps the message queued; flushed below.
                Output::Packet { to, data, .. } => self.sockets.send(to, data),
                Output::Disconnect(id) => self.sockets.close_one(id),
            }
        }
        for id in self.sockets.flush() {
            self.drop_peer(id);
        }
    }

    /// Closes every connection.
    pub fn close(&mut self) {
        self.sockets.close_all();
    }
}
