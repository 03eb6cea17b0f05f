//! The WebSocket transport, as Godot 4.6's `WebSocketMultiplayerPeer` uses WebSocket
//! (`modules/websocket/websocket_multiplayer_peer.cpp`): once the handshake is done the server
//! sends the new peer its id as one 4-byte little-endian binary message, and from then on each
//! binary message is one SceneMultiplayer packet. WebSocket is reliable and ordered: every
//! transfer mode is sent reliably and channels are not used, as in Godot. This is how Godot
//! web exports play online.
//!
//! [`WsTransport`] is the [`Transport`] over non-blocking TCP sockets (no TLS here: put a
//! terminating proxy in front for `wss://`): give it to a [`Host`](crate::transport::Host),
//! beside other transports. [`WsPeer`] is the one-transport convenience: a [`Session`] over one
//! `WsTransport`; call [`WsPeer::service`] often, then drain [`WsPeer::poll_event`]. Nothing
//! blocks: a client's TCP connection and handshake advance in `service`, and their failure
//! (refused, no handshake within `handshake_timeout_ms`, an invalid id message) is an
//! [`Event::Error`] for peer 1. The id message is [`crate::transport::ws_id_message`].
//!
//! Every peer is bounded by [`WsLimits`](crate::WsLimits) (`Settings::limits.websocket`):
//! what it may send per `service` call (Godot's `inbound_buffer_size` and
//! `max_queued_packets`), what may be queued for it (`outbound_buffer_size`), how long it may
//! stay silent, and how many connections and handshakes there may be. A peer that breaks a
//! bound gets an [`Event::Error`] and is disconnected; `service` goes on.
//!
//! [`Event::Error`]: crate::Event::Error

use std::net::SocketAddr;

use crate::transport::{
    Events, Peer, Transport, TransportEvent, parse_ws_id_message, ws_id_message,
};
use crate::ws_core::{Notice, Read, Sockets};
use crate::{Limits, ProtocolError, Session, Settings, TransferMode};

/// A transport error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WsError {
    /// The socket failed.
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
    /// The WebSocket request could not be made (a URL that is not `ws://...`).
    #[error("WebSocket: {0}")]
    WebSocket(#[from] tungstenite::Error),
}

/// Godot 4's WebSocket transport (`WebSocketMultiplayerPeer`): a server's listener and
/// clients, or a client's connection, bounded by [`WsLimits`](crate::WsLimits).
pub struct WsTransport {
    sockets: Sockets,
    /// Our id: 1 for a server; a client's once the server sent it.
    id: Option<i32>,
    events: Events,
}

impl std::fmt::Debug for WsTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WsTransport")
            .field("id", &self.id)
            .field("peers", &self.sockets.len())
            .finish()
    }
}

impl WsTransport {
    /// A server listening on `addr` (`create_server`).
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    pub fn server(addr: SocketAddr, limits: &Limits) -> Result<Self, WsError> {
        Ok(Self {
            sockets: Sockets::server(addr, limits.websocket)?,
            id: Some(1),
            events: Events::default(),
        })
    }

    /// A client of the server at `addr`, requesting `url` (`ws://host:port/...`,
    /// `create_client`). Returns at once: the connection, the handshake and the id message
    /// come in [`service`](Transport::service) ([`TransportEvent::Connected`] for peer 1), or
    /// their failure ([`TransportEvent::Error`] for peer 1).
    ///
    /// # Errors
    ///
    /// [`WsError::WebSocket`] for a URL tungstenite refuses, [`WsError::Io`] when no socket
    /// can be made.
    pub fn client(addr: SocketAddr, url: &str, limits: &Limits) -> Result<Self, WsError> {
        Ok(Self {
            sockets: Sockets::client(addr, url, limits.websocket)?,
            id: None,
            events: Events::default(),
        })
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

    /// What happened to the connections, as events.
    fn take_notices(&mut self) {
        for notice in self.sockets.take_notices() {
            match notice {
                Notice::Report(id, error) => self.events.error(id, error),
                Notice::Lost(id, error) => {
                    if let Some(error) = error {
                        self.events.error(id, error);
                    } else if self.id.is_none() {
                        self.events.error(
                            id,
                            ProtocolError::State {
                                peer: id,
                                detail: "closed the connection before sending our peer id",
                            },
                        );
                    }
                    self.events.push(TransportEvent::Disconnected(id));
                }
            }
        }
    }

    fn read_all(&mut self) {
        for id in self.sockets.read_order() {
            loop {
                let data = match self.sockets.read(id) {
                    Read::Binary(data) => data.to_vec(),
                    Read::Text(text) if self.id.is_some() => text.as_bytes().to_vec(),
                    Read::Text(_) | Read::Other => continue,
                    Read::Idle => break,
                };
                if self.id.is_some() {
                    self.events.push(TransportEvent::Packet {
                        from: id,
                        channel: 0,
                        mode: TransferMode::Reliable,
                        data,
                    });
                    continue;
                }
                match parse_ws_id_message(&data) {
                    Ok(mine) => {
                        self.id = Some(mine);
                        self.events.push(TransportEvent::Connected(1));
                    }
                    Err(error) => {
                        // The engine closes the connection.
                        self.events.error(id, error);
                        self.sockets.close_one(id);
                        break;
                    }
                }
            }
        }
    }
}

impl Transport for WsTransport {
    fn unique_id(&self) -> Option<i32> {
        self.id
    }

    /// Accepts (and sends each new client its id), advances the handshakes, and reads. The
    /// work of one call is bounded: a few accepts, the handshakes in progress, and per peer at
    /// most `inbound_buffer_size` bytes and `max_queued_packets` messages. Errors of one peer
    /// (its socket, a bound of [`WsLimits`](crate::WsLimits)) disconnect that peer only, and an
    /// accept error (no file descriptor left) pauses accepting for a moment: this never fails.
    fn service(&mut self) -> std::io::Result<()> {
        if !self.sockets.start(&mut self.events) {
            return Ok(());
        }
        for ws in self.sockets.accept() {
            let id = self.sockets.fresh_id();
            self.sockets.insert(id, ws);
            // The id first (a full 4-byte binary message); WouldBlock keeps it queued.
            self.sockets.send(id, ws_id_message(id).to_vec());
            self.events.push(TransportEvent::Connected(id));
        }
        self.read_all();
        self.take_notices();
        Ok(())
    }

    fn poll_event(&mut self) -> Option<TransportEvent> {
        self.events.pop()
    }

    /// Sent at once as far as the socket takes it, the rest queued and flushed by
    /// [`flush`](Transport::flush). WebSocket is reliable and ordered: every mode is sent
    /// reliably, channels are not used.
    fn send(&mut self, to: i32, _channel: u8, _mode: TransferMode, data: Vec<u8>) {
        self.sockets.send(to, data);
        self.take_notices();
    }

    fn disconnect(&mut self, peer: i32) {
        self.events.forget(peer);
        self.sockets.close_one(peer);
    }

    fn flush(&mut self) {
        if self.id.is_some() || self.server_side() {
            self.sockets.maintain();
            self.take_notices();
        }
    }

    fn close(&mut self) {
        self.sockets.close_all();
    }
}

/// A Godot-compatible WebSocket multiplayer peer, the server (peer 1) or a client: a
/// [`Session`] over one [`WsTransport`]. Its session, transport, `service` (bounded as
/// [`WsTransport`]'s `service` is) and the rest are [`Peer`]'s.
pub type WsPeer = Peer<WsTransport>;

impl WsPeer {
    /// A server listening on `addr` (`create_server`).
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    pub fn server(addr: SocketAddr, settings: Settings) -> Result<Self, WsError> {
        let transport = WsTransport::server(addr, &settings.limits)?;
        Ok(Self::new(transport, Session::server(settings)))
    }

    /// A client of the server at `url` (`ws://host:port/...`, `create_client`); returns at
    /// once, the connection, handshake and peer id come with [`service`](Peer::service) (or
    /// their failure, an [`Event::Error`](crate::Event::Error) for peer 1).
    ///
    /// # Errors
    ///
    /// As [`WsTransport::client`].
    pub fn client(addr: SocketAddr, url: &str, settings: Settings) -> Result<Self, WsError> {
        let transport = WsTransport::client(addr, url, &settings.limits)?;
        // The id comes with the server's first message; 0 until then.
        Ok(Self::new(transport, Session::client(0, settings)))
    }
}

impl crate::transport::SocketTransport for WsTransport {
    type Error = WsError;
    fn address(&self) -> std::io::Result<SocketAddr> {
        self.sockets.local_addr()
    }
}
