//! The socket side shared by both WebSocket dialects (Godot 4's [`crate::websocket`] and
//! Godot 3.2.3's [`crate::godot3::websocket`]): the listener, the handshakes in progress, the
//! open connections by peer id, and their non-blocking reads and writes. What a message means
//! is the dialect's business.

use std::collections::HashMap;
use std::io::ErrorKind;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use tungstenite::handshake::HandshakeError;
use tungstenite::handshake::server::{NoCallback, ServerHandshake};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Bytes, Message, Utf8Bytes, WebSocket};

use crate::websocket::WsError;

/// Godot's `handshake_timeout` default: 3 seconds.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(3);
/// The largest message accepted (Godot's inbound buffer defaults to 64 KiB; the session's
/// packets are far smaller). Bounds the memory one peer can make us hold.
const MAX_MESSAGE: usize = 1 << 20;

type Mid = tungstenite::handshake::MidHandshake<ServerHandshake<TcpStream, NoCallback>>;

fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
}

/// What one read of a peer's connection gave.
pub(crate) enum Read {
    /// A binary message.
    Binary(Bytes),
    /// A text message.
    Text(Utf8Bytes),
    /// A control frame or nothing of use: read again.
    Other,
    /// Nothing more for now (or no such peer).
    Idle,
    /// The peer closed, or its socket failed.
    Gone,
}

/// The connections of one WebSocket peer: a server's listener and clients, or a client's one
/// connection to the server (peer 1).
pub(crate) struct Sockets {
    listener: Option<TcpListener>,
    pending: Vec<(Instant, Mid)>,
    pub(crate) peers: HashMap<i32, WebSocket<TcpStream>>,
}

impl Sockets {
    /// A server listening on `addr`.
    pub(crate) fn server(addr: SocketAddr) -> Result<Self, WsError> {
        let listener = TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        Ok(Self {
            listener: Some(listener),
            pending: Vec::new(),
            peers: HashMap::new(),
        })
    }

    /// A client connected to the server at `url` (peer 1), the handshake done.
    pub(crate) fn client(addr: SocketAddr, url: &str) -> Result<Self, WsError> {
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
        })
    }

    /// Whether this is the server's side.
    pub(crate) fn server_side(&self) -> bool {
        self.listener.is_some()
    }

    /// The listening address (server), or `NotConnected` for a client.
    pub(crate) fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener
            .as_ref()
            .ok_or_else(|| ErrorKind::NotConnected.into())
            .and_then(TcpListener::local_addr)
    }

    /// The ids of the open connections.
    pub(crate) fn ids(&self) -> Vec<i32> {
        self.peers.keys().copied().collect()
    }

    /// A random id no open connection has (`generate_unique_id`).
    pub(crate) fn fresh_id(&self) -> i32 {
        loop {
            let id = crate::generate_unique_id();
            if !self.peers.contains_key(&id) {
                return id;
            }
        }
    }

    /// Accepts new connections and advances the handshakes in progress; returns the
    /// connections whose handshake is done, in the order they completed. A handshake slower
    /// than Godot's timeout is dropped, as Godot drops it.
    pub(crate) fn accept(&mut self) -> Result<Vec<WebSocket<TcpStream>>, WsError> {
        let Some(listener) = &self.listener else {
            return Ok(Vec::new());
        };
        let mut accepted = Vec::new();
        loop {
            match listener.accept() {
                Ok((stream, _)) => accepted.push(stream),
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => return Err(e.into()),
            }
        }
        let mut open = Vec::new();
        for stream in accepted {
            stream.set_nonblocking(true)?;
            let _ = stream.set_nodelay(true);
            match tungstenite::accept_with_config(stream, Some(config())) {
                Ok(ws) => open.push(ws),
                Err(HandshakeError::Interrupted(mid)) => self.pending.push((Instant::now(), mid)),
                Err(HandshakeError::Failure(_)) => {}
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for (since, mid) in pending {
            if since.elapsed() > HANDSHAKE_TIMEOUT {
                continue;
            }
            match mid.handshake() {
                Ok(ws) => open.push(ws),
                Err(HandshakeError::Interrupted(mid)) => self.pending.push((since, mid)),
                Err(HandshakeError::Failure(_)) => {}
            }
        }
        Ok(open)
    }

    /// The next message of peer `id`.
    pub(crate) fn read(&mut self, id: i32) -> Read {
        let Some(ws) = self.peers.get_mut(&id) else {
            return Read::Idle;
        };
        match ws.read() {
            Ok(Message::Binary(data)) => Read::Binary(data),
            Ok(Message::Text(text)) => Read::Text(text),
            Ok(Message::Close(_)) => Read::Gone,
            Ok(_) => Read::Other,
            Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => Read::Idle,
            Err(_) => Read::Gone,
        }
    }

    /// Queues a binary message for peer `id` (nothing if there is no such peer); WouldBlock
    /// keeps it queued until [`flush`](Self::flush).
    pub(crate) fn send(&mut self, id: i32, data: Vec<u8>) {
        if let Some(ws) = self.peers.get_mut(&id) {
            let _ = ws.write(Message::Binary(data.into()));
        }
    }

    /// Flushes every connection; returns the ids whose socket failed (still open: the
    /// dialect drops them).
    pub(crate) fn flush(&mut self) -> Vec<i32> {
        let mut broken = Vec::new();
        for (&id, ws) in &mut self.peers {
            match ws.flush() {
                Ok(()) => {}
                Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => broken.push(id),
            }
        }
        broken
    }

    /// Closes and forgets the connection of peer `id`.
    pub(crate) fn close_one(&mut self, id: i32) {
        if let Some(mut ws) = self.peers.remove(&id) {
            let _ = ws.close(None);
            let _ = ws.flush();
        }
    }

    /// Closes every connection.
    pub(crate) fn close_all(&mut self) {
        for ws in self.peers.values_mut() {
            let _ = ws.close(None);
            let _ = ws.flush();
        }
    }
}
