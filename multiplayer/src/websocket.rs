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

use std::collections::HashMap;
use std::io::ErrorKind;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use tungstenite::handshake::HandshakeError;
use tungstenite::handshake::server::{NoCallback, ServerHandshake};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

use crate::{Event, Output, Session, Settings, TransferMode};

/// Godot's `handshake_timeout` default: 3 seconds.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(3);
/// The largest message accepted (Godot's inbound buffer defaults to 64 KiB; the session's
/// packets are far smaller). Bounds the memory one peer can make us hold.
const MAX_MESSAGE: usize = 1 << 20;

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

type Mid = tungstenite::handshake::MidHandshake<ServerHandshake<TcpStream, NoCallback>>;

fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
}

/// A Godot-compatible WebSocket multiplayer peer: the server (peer 1) or a client.
pub struct WsPeer {
    listener: Option<TcpListener>,
    pending: Vec<(Instant, Mid)>,
    peers: HashMap<i32, WebSocket<TcpStream>>,
    session: Session,
    start: Instant,
    /// A client waits for its id before the session starts.
    awaiting_id: bool,
}

impl std::fmt::Debug for WsPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WsPeer")
            .field("session", &self.session)
            .field("peers", &self.peers.len())
            .finish()
    }
}

impl WsPeer {
    /// A server listening on `addr` (`create_server`).
    ///
    /// # Errors
    ///
    /// [`WsError::Io`] when the address cannot be bound.
    pub fn server(addr: SocketAddr, settings: Settings) -> Result<Self, WsError> {
        let listener = TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        Ok(Self {
            listener: Some(listener),
            pending: Vec::new(),
            peers: HashMap::new(),
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
        let stream = TcpStream::connect_timeout(&addr, HANDSHAKE_TIMEOUT)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT))?;
        let (ws, _) = tungstenite::client::client_with_config(url, stream, Some(config()))
            .map_err(|e| match e {
                HandshakeError::Failure(e) => WsError::WebSocket(e),
                HandshakeError::Interrupted(_) => WsError::Io(ErrorKind::WouldBlock.into()),
            })?;
        ws.get_ref().set_read_timeout(None)?;
        ws.get_ref().set_nonblocking(true)?;
        let mut peers = HashMap::new();
        peers.insert(1, ws);
        Ok(Self {
            listener: None,
            pending: Vec::new(),
            peers,
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
        self.listener
            .as_ref()
            .ok_or_else(|| ErrorKind::NotConnected.into())
            .and_then(TcpListener::local_addr)
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
        self.accept()?;
        self.read_all()?;
        self.session.tick(self.now_ms());
        self.write_outputs();
        Ok(())
    }

    fn accept(&mut self) -> Result<(), WsError> {
        let Some(listener) = &self.listener else {
            return Ok(());
        };
        let mut accepted = Vec::new();
        loop {
            match listener.accept() {
                Ok((stream, _)) => accepted.push(stream),
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => return Err(e.into()),
            }
        }
        for stream in accepted {
            stream.set_nonblocking(true)?;
            let _ = stream.set_nodelay(true);
            match tungstenite::accept_with_config(stream, Some(config())) {
                Ok(ws) => self.open(ws),
                Err(HandshakeError::Interrupted(mid)) => self.pending.push((Instant::now(), mid)),
                Err(HandshakeError::Failure(_)) => {}
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for (since, mid) in pending {
            if since.elapsed() > HANDSHAKE_TIMEOUT {
                continue; // Dropped, as Godot drops slow handshakes.
            }
            match mid.handshake() {
                Ok(ws) => self.open(ws),
                Err(HandshakeError::Interrupted(mid)) => self.pending.push((since, mid)),
                Err(HandshakeError::Failure(_)) => {}
            }
        }
        Ok(())
    }

    fn open(&mut self, mut ws: WebSocket<TcpStream>) {
        let id = loop {
            let id = crate::generate_unique_id();
            if !self.peers.contains_key(&id) {
                break id;
            }
        };
        // The id first (a full 4-byte binary message); WouldBlock keeps it queued.
        let _ = ws.send(Message::Binary(id.to_le_bytes().to_vec().into()));
        self.peers.insert(id, ws);
        let now = self.now_ms();
        self.session.connected(id, now);
    }

    fn read_all(&mut self) -> Result<(), WsError> {
        let ids: Vec<i32> = self.peers.keys().copied().collect();
        for id in ids {
            while let Some(ws) = self.peers.get_mut(&id) {
                let message = ws.read();
                match message {
                    Ok(Message::Binary(data)) => {
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
                    Ok(Message::Text(text)) if !self.awaiting_id => {
                        self.session
                            .receive(id, 0, TransferMode::Reliable, text.as_bytes());
                    }
                    Ok(Message::Close(_)) => {
                        self.drop_peer(id);
                        break;
                    }
                    Ok(_) => {}
                    Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(_) => {
                        self.drop_peer(id);
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    fn drop_peer(&mut self, id: i32) {
        if self.peers.remove(&id).is_some() && !self.awaiting_id {
            self.session.disconnected(id);
        }
    }

    fn write_outputs(&mut self) {
        while let Some(output) = self.session.poll_output() {
            match output {
                Output::Packet { to, data, .. } => {
                    if let Some(ws) = self.peers.get_mut(&to) {
                        // WouldBlock keeps the message queued; flushed below.
                        let _ = ws.write(Message::Binary(data.into()));
                    }
                }
                Output::Disconnect(id) => {
                    if let Some(mut ws) = self.peers.remove(&id) {
                        let _ = ws.close(None);
                        let _ = ws.flush();
                    }
                }
            }
        }
        let mut broken = Vec::new();
        for (&id, ws) in &mut self.peers {
            match ws.flush() {
                Ok(()) => {}
                Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => broken.push(id),
            }
        }
        for id in broken {
            self.drop_peer(id);
        }
    }

    /// Closes every connection.
    pub fn close(&mut self) {
        for ws in self.peers.values_mut() {
            let _ = ws.close(None);
            let _ = ws.flush();
        }
    }
}
