//! The WebSocket transport, as Godot 4.6's `WebSocketMultiplayerPeer` uses WebSocket
//! (`modules/websocket/websocket_multiplayer_peer.cpp`): once the handshake is done the server
//! sends the new peer its id as one 4-byte little-endian binary message, and from then on each
//! binary message is one SceneMultiplayer packet. WebSocket is reliable and ordered: every
//! transfer mode is sent reliably and channels are not used, as in Godot. This is how Godot
//! web exports play online.
//!
//! [`WsTransport`] is the [`Transport`] over non-blocking TCP sockets, `ws://`, or `wss://`
//! with the feature `tls` (`WsTransport::server_tls`, the `tls` module): give it to a
//! [`Host`](crate::transport::Host),
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
//! A server may check each upgrade request before the connection becomes a peer
//! ([`WsTransport::with_upgrade_auth`]): its path, query string and headers (a token in
//! `?token=`, an `Authorization` or `Sec-WebSocket-Protocol` header) decide between the
//! upgrade and an HTTP 401 or 403, and a refused connection never has a peer id, a
//! `peer_connected` or any session state. SceneMultiplayer's own authentication
//! ([`Settings::auth`]) comes after it, unchanged. What became of the connections that never
//! opened is counted in [`HandshakeStats`] ([`WsTransport::handshake_stats`]).
//!
//! [`Event::Error`]: crate::Event::Error

use std::net::SocketAddr;
use std::sync::Arc;

use tungstenite::handshake::server::{Callback, ErrorResponse, Request, Response};
use tungstenite::http::{HeaderValue, StatusCode};

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
    /// The TLS client could not be made (feature `tls`: a URL without a host name).
    #[cfg(feature = "tls")]
    #[error("{0}")]
    Tls(#[from] crate::tls::TlsError),
}

/// The check of a server's upgrade requests: given each request (bounded: at most 64 KiB
/// and 124 headers, tungstenite's bounds, read within `handshake_timeout_ms`), it accepts or
/// refuses it before the connection becomes a peer. It runs inside `service`, so it should
/// decide at once (a token compared, a signature checked), never wait for IO.
pub type UpgradeAuth = Arc<dyn Fn(&UpgradeRequest<'_>) -> Upgrade + Send + Sync>;

/// What the upgrade check decides.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Upgrade {
    /// The connection upgrades and becomes a peer.
    Accept,
    /// The connection upgrades, and the answer names this subprotocol
    /// (`Sec-WebSocket-Protocol`): it must be one the client offered, or browsers and Godot
    /// close the connection. For a token sent as a subprotocol. A name that cannot be a
    /// header value (a control character) refuses the upgrade with HTTP 500 instead.
    AcceptProtocol(String),
    /// Refused with HTTP 401 Unauthorized (no credentials, or wrong ones).
    Unauthorized,
    /// Refused with HTTP 403 Forbidden (credentials that are not allowed in).
    Forbidden,
}

/// One upgrade request, as the upgrade check sees it.
#[derive(Debug)]
pub struct UpgradeRequest<'a> {
    request: &'a Request,
    remote: SocketAddr,
    secure: bool,
}

impl UpgradeRequest<'_> {
    /// The path of the request's target, `/game` of `wss://host/game?token=x`.
    pub fn path(&self) -> &str {
        self.request.uri().path()
    }

    /// The query string, `token=x` of `wss://host/game?token=x`, as sent (not decoded).
    pub fn query(&self) -> Option<&str> {
        self.request.uri().query()
    }

    /// The value of the first `name=value` pair of the query string with this name, as sent
    /// (percent-escapes not decoded).
    pub fn query_value(&self, name: &str) -> Option<&str> {
        self.query()?.split('&').find_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (key == name).then_some(value)
        })
    }

    /// The first value of a header (the name in any case), if it is visible ASCII.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.request.headers().get(name)?.to_str().ok()
    }

    /// Every header, names in lower case, in the order sent.
    pub fn headers(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.request
            .headers()
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_bytes()))
    }

    /// The client's address.
    pub fn remote_addr(&self) -> SocketAddr {
        self.remote
    }

    /// Whether the request came over TLS (`wss://`).
    pub fn is_tls(&self) -> bool {
        self.secure
    }
}

/// What became of a server's connections that did not become peers, counted since it
/// started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HandshakeStats {
    /// Refused by the upgrade check (HTTP 401 or 403 sent).
    pub refused: u64,
    /// Failed: not a WebSocket upgrade, a TLS error (garbage instead of a ClientHello, a
    /// handshake message over 64 KiB), or closed by the client before opening.
    pub failed: u64,
    /// Dropped unfinished: older than `handshake_timeout_ms`, or the oldest when
    /// `max_pending` handshakes were under way.
    pub timed_out: u64,
    /// Closed at once: `max_peers` connections open or `max_pending_per_address` handshakes
    /// under way from that address.
    pub capped: u64,
}

/// The tungstenite callback of one server handshake: the upgrade check, if any.
pub(crate) struct Gate {
    auth: Option<UpgradeAuth>,
    remote: SocketAddr,
    secure: bool,
}

impl Gate {
    pub(crate) fn new(auth: Option<UpgradeAuth>, remote: SocketAddr, secure: bool) -> Self {
        Self {
            auth,
            remote,
            secure,
        }
    }
}

impl Callback for Gate {
    fn on_request(
        self,
        request: &Request,
        mut response: Response,
    ) -> Result<Response, ErrorResponse> {
        let Some(auth) = self.auth else {
            return Ok(response);
        };
        let seen = UpgradeRequest {
            request,
            remote: self.remote,
            secure: self.secure,
        };
        let status = match auth(&seen) {
            Upgrade::Accept => return Ok(response),
            Upgrade::AcceptProtocol(protocol) => {
                // A value that is not a valid header is refused rather than sent.
                let Ok(value) = HeaderValue::from_str(&protocol) else {
                    return Err(refusal(StatusCode::INTERNAL_SERVER_ERROR));
                };
                response
                    .headers_mut()
                    .insert("Sec-WebSocket-Protocol", value);
                return Ok(response);
            }
            Upgrade::Unauthorized => StatusCode::UNAUTHORIZED,
            Upgrade::Forbidden => StatusCode::FORBIDDEN,
        };
        Err(refusal(status))
    }
}

/// An HTTP answer refusing the upgrade, without a body.
fn refusal(status: StatusCode) -> ErrorResponse {
    let mut response = ErrorResponse::new(None);
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert("Connection", HeaderValue::from_static("close"));
    response
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

    /// A `wss://` server listening on `addr` (`create_server` with `TLSOptions.server`), its
    /// certificate and key in `tls` (feature `tls`).
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    #[cfg(feature = "tls")]
    pub fn server_tls(
        addr: SocketAddr,
        tls: crate::tls::TlsConfig,
        limits: &Limits,
    ) -> Result<Self, WsError> {
        let mut transport = Self::server(addr, limits)?;
        transport.sockets.set_tls(tls);
        Ok(transport)
    }

    /// A `wss://` client of the server at `addr`, requesting `url` (`wss://host:port/...`,
    /// its host the name the server's certificate is checked against), trusting what `tls`
    /// says (feature `tls`). As [`client`](Self::client) otherwise: the TLS handshake too
    /// advances in `service`, within `handshake_timeout_ms`.
    ///
    /// # Errors
    ///
    /// As [`client`](Self::client); [`WsError::Tls`] for a URL without a host name.
    #[cfg(feature = "tls")]
    pub fn client_tls(
        addr: SocketAddr,
        url: &str,
        tls: &crate::tls::TlsClientConfig,
        limits: &Limits,
    ) -> Result<Self, WsError> {
        let wrap = crate::ws_core::Wrap::Tls(Box::new(tls.connect(url)?));
        Ok(Self {
            sockets: Sockets::client_with(addr, url, limits.websocket, wrap)?,
            id: None,
            events: Events::default(),
        })
    }

    /// With a check of every upgrade request (a server's): see [`UpgradeAuth`]. A refused
    /// connection gets HTTP 401 or 403 and is closed; it never becomes a peer.
    #[must_use]
    pub fn with_upgrade_auth(
        mut self,
        auth: impl Fn(&UpgradeRequest<'_>) -> Upgrade + Send + Sync + 'static,
    ) -> Self {
        self.sockets.set_auth(Some(Arc::new(auth)));
        self
    }

    /// Replaces the upgrade check (`None`: every upgrade is accepted); connections whose
    /// request was already read keep the check they had.
    pub fn set_upgrade_auth(&mut self, auth: Option<UpgradeAuth>) {
        self.sockets.set_auth(auth);
    }

    /// What became of the connections that did not become peers, so far.
    pub fn handshake_stats(&self) -> HandshakeStats {
        self.sockets.stats()
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

    /// A `wss://` server listening on `addr` (feature `tls`): see [`WsTransport::server_tls`].
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    #[cfg(feature = "tls")]
    pub fn server_tls(
        addr: SocketAddr,
        tls: crate::tls::TlsConfig,
        settings: Settings,
    ) -> Result<Self, WsError> {
        let transport = WsTransport::server_tls(addr, tls, &settings.limits)?;
        Ok(Self::new(transport, Session::server(settings)))
    }

    /// A `wss://` client (feature `tls`): see [`WsTransport::client_tls`].
    ///
    /// # Errors
    ///
    /// As [`WsTransport::client_tls`].
    #[cfg(feature = "tls")]
    pub fn client_tls(
        addr: SocketAddr,
        url: &str,
        tls: &crate::tls::TlsClientConfig,
        settings: Settings,
    ) -> Result<Self, WsError> {
        let transport = WsTransport::client_tls(addr, url, tls, &settings.limits)?;
        Ok(Self::new(transport, Session::client(0, settings)))
    }

    /// With a check of every upgrade request: see [`WsTransport::with_upgrade_auth`].
    #[must_use]
    pub fn with_upgrade_auth(
        mut self,
        auth: impl Fn(&UpgradeRequest<'_>) -> Upgrade + Send + Sync + 'static,
    ) -> Self {
        self.transport().set_upgrade_auth(Some(Arc::new(auth)));
        self
    }
}

impl crate::transport::SocketTransport for WsTransport {
    type Error = WsError;
    fn address(&self) -> std::io::Result<SocketAddr> {
        self.sockets.local_addr()
    }
}
