//! The socket side shared by both WebSocket dialects (Godot 4's [`crate::websocket`] and
//! Godot 3.2.3's [`crate::godot3::websocket`]): the listener, the handshakes in progress, the
//! open connections by peer id, and their non-blocking reads and writes. What a message means
//! is the dialect's business.
//!
//! Every connection is bounded as [`WsLimits`] says, and so is the work of one `service` call:
//!
//! - reads: at most `inbound_buffer_size` bytes and `max_queued_packets` messages per peer and
//!   call (the socket returns `WouldBlock` past the byte budget, so even a stream of empty
//!   continuation frames stops there), and at most `inbound_bytes_per_call` and
//!   `packets_per_call` from all peers together; a peer sending faster waits in its TCP
//!   window, as a Godot peer whose inbound buffer is full does. Peers are read round-robin: a
//!   call starts with the peer the previous call could not finish, or the next one.
//! - writes: at most `outbound_buffer_size` bytes (plus one frame header) queued for a peer
//!   (tungstenite's `max_write_buffer_size`); past it the peer is dropped.
//! - connections: at most `max_peers` open and `max_pending` handshakes (a new connection
//!   then closes the oldest handshake), `max_pending_per_address` of them from one IP address
//!   (a further one is closed at once); at most
//!   [`ACCEPTS_PER_CALL`] accepted per call; an accept error (no descriptor left, ...) pauses
//!   accepting for [`ACCEPT_BACKOFF`] and is never the caller's error.
//! - time: a handshake older than `handshake_timeout_ms` is dropped, a connection silent for
//!   `idle_timeout_ms` too (it is pinged at half of it), and so is one whose data message
//!   stays unfinished that long (the frame headers are followed as the bytes are read).
//!
//! Whatever goes wrong with one connection becomes a [`Notice`] for the dialect, which tells
//! the application (an `Event::Error`, then the disconnection) and goes on.
//!
//! With the feature `tls` a connection's bytes may be TLS (`crate::tls`): the same bounds
//! hold, the byte budgets counting the encrypted bytes read and the decrypted ones delivered,
//! and `tls_handshakes_per_call` bounds the handshakes' cryptography. A server may check each
//! upgrade request (`Gate`); what became of the connections that never opened is counted.

use std::collections::HashMap;
use std::io::{self, ErrorKind, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use tungstenite::handshake::HandshakeError;
use tungstenite::handshake::client::ClientHandshake;
use tungstenite::handshake::server::ServerHandshake;
use tungstenite::protocol::WebSocketConfig;
use tungstenite::protocol::frame::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{Bytes, Message, Utf8Bytes, WebSocket};

use crate::transport::Events;
use crate::websocket::{Gate, HandshakeStats, UpgradeAuth, WsError};
use crate::{ProtocolError, WsLimits};

/// Connections accepted (or refused) in one `service` call at most (Godot accepts one per
/// poll).
const ACCEPTS_PER_CALL: usize = 32;
/// How long accepting pauses after an accept error such as EMFILE (no descriptor left): the
/// connection waits in the listen backlog, and the call does its other work.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// The largest WebSocket frame header: 2 bytes, an 8-byte length, a 4-byte mask.
const FRAME_HEADER_MAX: usize = 14;
/// The read buffer every connection allocates (tungstenite's default is 128 KiB, per
/// connection, whether it sends anything or not).
const READ_CHUNK: usize = 4096;

type Mid = tungstenite::handshake::MidHandshake<ServerHandshake<Conn, Gate>>;
type ClientMid = tungstenite::handshake::MidHandshake<ClientHandshake<Conn>>;

/// A client's connection to its server while it is not open yet.
enum Connecting {
    /// The TCP connection could not even start.
    Failed(String),
    /// The TCP connection and the handshake under way, since when.
    Handshake(Instant, ClientMid),
    /// The handshake completed at once.
    Open(WebSocket<Conn>),
}

/// `EINPROGRESS`, what a non-blocking `connect` says on Unix (`ErrorKind::InProgress` is not
/// stable yet); Windows says `WSAEWOULDBLOCK`, which is `WouldBlock`.
#[cfg(any(target_os = "linux", target_os = "android"))]
const EINPROGRESS: Option<i32> = Some(115);
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
const EINPROGRESS: Option<i32> = Some(36);
#[cfg(not(unix))]
const EINPROGRESS: Option<i32> = None;

/// A TCP connection to `addr` that is started, not waited for (std's `connect` blocks): the
/// socket is non-blocking from the start, and its first read or write says how it went.
fn connect_nonblocking(addr: SocketAddr) -> io::Result<TcpStream> {
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(addr),
        socket2::Type::STREAM,
        Some(socket2::Protocol::TCP),
    )?;
    socket.set_nonblocking(true)?;
    match socket.connect(&addr.into()) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::WouldBlock || e.raw_os_error() == EINPROGRESS => {}
        Err(e) => return Err(e),
    }
    let tcp = TcpStream::from(socket);
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// The bytes under the WebSocket: the TCP socket itself, or TLS over it.
pub(crate) enum Io {
    /// `ws://`.
    Plain(TcpStream),
    /// `wss://` (boxed: rustls's state is large beside a socket).
    #[cfg(feature = "tls")]
    Tls(Box<crate::tls::TlsIo>),
}

/// How a client's connection is made.
pub(crate) enum Wrap {
    /// `ws://`.
    Plain,
    /// `wss://`, this TLS client connection over the socket.
    #[cfg(feature = "tls")]
    Tls(Box<rustls::ClientConnection>),
}

impl Wrap {
    fn io(self, tcp: TcpStream) -> Io {
        match self {
            Wrap::Plain => Io::Plain(tcp),
            #[cfg(feature = "tls")]
            Wrap::Tls(conn) => Io::Tls(Box::new(crate::tls::TlsIo::new(*conn, tcp))),
        }
    }
}

/// A TCP connection whose reads stop (`WouldBlock`) once this call's byte budget is spent,
/// and which follows the peer's frames as they pass (to know how long a message has been
/// unfinished).
pub(crate) struct Conn {
    io: Io,
    /// Bytes this connection may still read in this `service` call (from the socket: over
    /// TLS, the encrypted ones).
    budget: usize,
    /// Over TLS, the decrypted bytes it may still deliver in this call (the same number as
    /// `budget` at the start of the call: a record completed in this call may hold more than
    /// was read in it).
    plain: usize,
    /// The time of this `service` call.
    now: Instant,
    /// Where the bytes read stand.
    stream: Stream,
}

impl Conn {
    fn new(io: Io, budget: usize, now: Instant) -> Self {
        Self {
            io,
            budget,
            plain: budget,
            now,
            stream: Stream::Http { last: 0 },
        }
    }

    /// Gives this connection `bytes` to read in this call (and as many decrypted bytes to
    /// deliver).
    fn give(&mut self, bytes: usize) {
        self.budget = bytes;
        self.plain = bytes;
    }

    /// What is left of the bytes given: the smaller of the two budgets.
    fn left(&self) -> usize {
        match self.io {
            Io::Plain(_) => self.budget,
            #[cfg(feature = "tls")]
            Io::Tls(_) => self.budget.min(self.plain),
        }
    }

    /// Whether advancing it may cost a TLS handshake's cryptography.
    fn handshake_work(&self) -> bool {
        match &self.io {
            Io::Plain(_) => false,
            #[cfg(feature = "tls")]
            Io::Tls(tls) => tls.handshake_work(),
        }
    }

    /// Since when the peer's current data message has been unfinished, if it is.
    fn unfinished_since(&self) -> Option<Instant> {
        match &self.stream {
            Stream::Http { .. } => None,
            Stream::Frames(frames) => frames.since,
        }
    }
}

impl io::Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let (got, part) = match &mut self.io {
            Io::Plain(tcp) => {
                if self.budget == 0 {
                    return Err(ErrorKind::WouldBlock.into());
                }
                let len = buf.len().min(self.budget);
                let Some(part) = buf.get_mut(..len) else {
                    return Ok(0);
                };
                let got = io::Read::read(tcp, part)?;
                self.budget = self.budget.saturating_sub(got);
                (got, part)
            }
            // `budget` counts the encrypted bytes taken from the socket, `plain` the
            // decrypted ones delivered.
            #[cfg(feature = "tls")]
            Io::Tls(tls) => {
                if self.plain == 0 {
                    return Err(ErrorKind::WouldBlock.into());
                }
                let len = buf.len().min(self.plain);
                let Some(part) = buf.get_mut(..len) else {
                    return Ok(0);
                };
                let got = tls.read(part, &mut self.budget)?;
                self.plain = self.plain.saturating_sub(got);
                (got, part)
            }
        };
        if let Some(bytes) = part.get(..got) {
            self.stream.feed(bytes, self.now);
        }
        Ok(got)
    }
}

/// The peer's byte stream as far as read: the HTTP handshake, then frames.
enum Stream {
    /// The handshake, until its blank line; `last` holds its last 4 bytes.
    Http { last: u32 },
    /// Frames (RFC 6455 section 5.2).
    Frames(Frames),
}

/// Enough of the frame layout to know where each frame ends and whether a data message is
/// unfinished: the header being read, the payload left of the current frame.
#[derive(Default)]
struct Frames {
    header: [u8; 14],
    have: usize,
    payload_left: u64,
    /// Whether the current frame's end ends a data message (FIN on a data frame).
    ends_message: bool,
    /// When the first frame of the unfinished data message arrived.
    since: Option<Instant>,
}

impl Stream {
    fn feed(&mut self, mut bytes: &[u8], now: Instant) {
        if let Stream::Http { last } = self {
            while let Some((&b, rest)) = bytes.split_first() {
                bytes = rest;
                *last = (*last << 8) | u32::from(b);
                if *last == u32::from_be_bytes(*b"\r\n\r\n") {
                    *self = Stream::Frames(Frames::default());
                    break;
                }
            }
        }
        if let Stream::Frames(frames) = self {
            frames.feed(bytes, now);
        }
    }
}

impl Frames {
    fn feed(&mut self, mut bytes: &[u8], now: Instant) {
        while !bytes.is_empty() {
            if self.payload_left > 0 {
                let n = usize::try_from(self.payload_left)
                    .unwrap_or(usize::MAX)
                    .min(bytes.len());
                bytes = bytes.get(n..).unwrap_or_default();
                self.payload_left -= n as u64;
                if self.payload_left == 0 && self.ends_message {
                    self.since = None;
                }
                continue;
            }
            let Some((&b, rest)) = bytes.split_first() else {
                break;
            };
            bytes = rest;
            if let Some(slot) = self.header.get_mut(self.have) {
                *slot = b;
            }
            self.have += 1;
            let Some(&second) = self.header.get(1).filter(|_| self.have >= 2) else {
                continue;
            };
            let length_bytes = match second & 0x7F {
                126 => 2,
                127 => 8,
                _ => 0,
            };
            let mask_bytes = if second & 0x80 != 0 { 4 } else { 0 };
            if self.have < 2 + length_bytes + mask_bytes {
                continue;
            }
            let [first, ..] = self.header;
            let length = match length_bytes {
                0 => u64::from(second & 0x7F),
                _ => self
                    .header
                    .get(2..2 + length_bytes)
                    .map_or(0, |b| b.iter().fold(0, |n, &d| (n << 8) | u64::from(d))),
            };
            // Opcodes 0 (continuation), 1 (text) and 2 (binary) carry data; 8 and up
            // control frames, which may come between a message's fragments.
            let data = first & 0x08 == 0;
            if data && self.since.is_none() {
                self.since = Some(now);
            }
            self.ends_message = data && first & 0x80 != 0;
            self.have = 0;
            self.payload_left = length;
            if length == 0 && self.ends_message {
                self.since = None;
            }
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.io {
            Io::Plain(tcp) => tcp.write(buf),
            #[cfg(feature = "tls")]
            Io::Tls(tls) => tls.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.io {
            Io::Plain(tcp) => tcp.flush(),
            #[cfg(feature = "tls")]
            Io::Tls(tls) => tls.flush(),
        }
    }
}

/// The tungstenite settings of every connection.
fn config(limits: &WsLimits) -> WebSocketConfig {
    let inbound = limits.inbound_buffer_size.max(1);
    WebSocketConfig::default()
        .read_buffer_size(READ_CHUNK)
        // Each message goes to the socket at once; the buffer only fills while the peer does
        // not read, up to the outbound bound (plus one header, so that a message of the full
        // size fits an empty buffer).
        .write_buffer_size(0)
        .max_write_buffer_size(
            limits
                .outbound_buffer_size
                .max(1)
                .saturating_add(FRAME_HEADER_MAX),
        )
        .max_message_size(Some(inbound))
        .max_frame_size(Some(inbound))
}

/// What one read of a peer's connection gave.
pub(crate) enum Read {
    /// A binary message.
    Binary(Bytes),
    /// A text message.
    Text(Utf8Bytes),
    /// A control frame: read again.
    Other,
    /// Nothing more in this call (no data, the budget spent, the peer gone or unknown).
    Idle,
}

/// Something the dialect must act on, in order.
pub(crate) enum Notice {
    /// An error concerning peer `0` that does not end its connection.
    Report(i32, ProtocolError),
    /// Peer `0`'s connection is gone (closed by it, failed, or dropped for the error).
    Lost(i32, Option<ProtocolError>),
}

/// An open connection.
struct Open {
    ws: WebSocket<Conn>,
    /// When it last sent a complete frame (or opened).
    heard: Instant,
    /// Whether it was pinged since then.
    pinged: bool,
    /// Messages it may still deliver in this call.
    messages_left: usize,
}

/// The connections of one WebSocket peer: a server's listener and clients, or a client's one
/// connection to the server (peer 1).
pub(crate) struct Sockets {
    listener: Option<TcpListener>,
    limits: WsLimits,
    /// Handshakes in progress, oldest first: when each began, the client's address.
    pending: Vec<(Instant, IpAddr, Mid)>,
    peers: HashMap<i32, Open>,
    notices: Vec<Notice>,
    accept_paused_until: Option<Instant>,
    /// The time of this `service` call.
    now: Instant,
    /// Bytes all peers may still deliver in this call.
    call_bytes: usize,
    /// Messages all peers may still deliver in this call.
    call_messages: usize,
    /// The peer being read in this call, and the byte budget its connection was given.
    reading: Option<(i32, usize)>,
    /// A client's connection to its server until it is open (boxed: a server has none).
    connecting: Option<Box<Connecting>>,
    /// Whether this call's budget ran out (the peer it ran out on is read first next time).
    exhausted: bool,
    /// The first peer the next call reads (the first id at or after it).
    next_first: i32,
    /// A server's TLS settings (`wss://`), if it has them.
    #[cfg(feature = "tls")]
    tls: Option<crate::tls::TlsConfig>,
    /// A server's check of each upgrade request, if it has one.
    auth: Option<UpgradeAuth>,
    /// What became of the connections that did not open.
    stats: HandshakeStats,
}

impl Sockets {
    fn new(listener: Option<TcpListener>, limits: WsLimits) -> Self {
        Self {
            listener,
            limits,
            pending: Vec::new(),
            peers: HashMap::new(),
            notices: Vec::new(),
            accept_paused_until: None,
            now: Instant::now(),
            call_bytes: 0,
            call_messages: 0,
            reading: None,
            connecting: None,
            exhausted: false,
            next_first: 0,
            #[cfg(feature = "tls")]
            tls: None,
            auth: None,
            stats: HandshakeStats::default(),
        }
    }

    /// A server listening on `addr`.
    pub(crate) fn server(addr: SocketAddr, limits: WsLimits) -> Result<Self, WsError> {
        let listener = TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        Ok(Self::new(Some(listener), limits))
    }

    /// A client of the server at `url` (peer 1), connecting: returns at once, the TCP
    /// connection and the handshake advance in [`advance_client`](Self::advance_client).
    /// Fails here only for a URL tungstenite refuses or a socket that cannot be made.
    pub(crate) fn client(addr: SocketAddr, url: &str, limits: WsLimits) -> Result<Self, WsError> {
        Self::client_with(addr, url, limits, Wrap::Plain)
    }

    /// A client as [`client`](Self::client), its connection made as `wrap` says (TLS).
    pub(crate) fn client_with(
        addr: SocketAddr,
        url: &str,
        limits: WsLimits,
        wrap: Wrap,
    ) -> Result<Self, WsError> {
        let mut sockets = Self::new(None, limits);
        let tcp = match connect_nonblocking(addr) {
            Ok(tcp) => tcp,
            Err(e) => {
                // Refused at once (no route, ...): reported by the first `service`.
                sockets.connecting = Some(Box::new(Connecting::Failed(e.to_string())));
                return Ok(sockets);
            }
        };
        let conn = Conn::new(wrap.io(tcp), usize::MAX, Instant::now());
        sockets.connecting = Some(Box::new(
            match tungstenite::client::client_with_config(url, conn, Some(config(&limits))) {
                Ok((ws, _)) => Connecting::Open(ws),
                Err(HandshakeError::Interrupted(mid)) => Connecting::Handshake(Instant::now(), mid),
                // The connection failed at once (refused on loopback): the first `service`'s.
                Err(HandshakeError::Failure(tungstenite::Error::Io(e))) => {
                    Connecting::Failed(e.to_string())
                }
                // A URL that is not `ws://...`, or a request tungstenite cannot make.
                Err(HandshakeError::Failure(e)) => return Err(WsError::WebSocket(e)),
            },
        ));
        Ok(sockets)
    }

    /// Advances a client's connection and handshake: `Ok(true)` once the connection to the
    /// server is open (it is peer 1 then), `Ok(false)` while it is under way, `Err` with what
    /// went wrong when it failed or took longer than `handshake_timeout_ms` (then it is gone).
    /// A server's sockets are always open.
    pub(crate) fn advance_client(&mut self) -> Result<bool, String> {
        let Some(connecting) = self.connecting.take() else {
            return Ok(true);
        };
        let timeout = Duration::from_millis(self.limits.handshake_timeout_ms.max(1));
        let ws = match *connecting {
            Connecting::Failed(e) => return Err(e),
            Connecting::Open(ws) => ws,
            Connecting::Handshake(since, mut mid) => {
                if self.now.saturating_duration_since(since) > timeout {
                    return Err(format!(
                        "no WebSocket handshake within {} ms",
                        self.limits.handshake_timeout_ms
                    ));
                }
                mid.get_mut().get_mut().give(usize::MAX);
                match mid.handshake() {
                    Ok((ws, _)) => ws,
                    Err(HandshakeError::Interrupted(mid)) => {
                        self.connecting = Some(Box::new(Connecting::Handshake(since, mid)));
                        return Ok(false);
                    }
                    Err(HandshakeError::Failure(e)) => return Err(e.to_string()),
                }
            }
        };
        self.insert(1, ws);
        Ok(true)
    }

    /// Starts a transport's `service` call ([`begin`](Self::begin)) and advances a client's
    /// connection ([`advance_client`](Self::advance_client)): whether the connections are
    /// open for accepting and reading (a server's always, a client's once connected). A
    /// client's failed connection is peer 1's [`TransportEvent::Error`] in `events`.
    pub(crate) fn start(&mut self, events: &mut Events) -> bool {
        self.begin();
        match self.advance_client() {
            Ok(open) => open,
            Err(detail) => {
                events.error(1, ProtocolError::WebSocket { peer: 1, detail });
                false
            }
        }
    }

    /// Serves `wss://` with these settings (a server's sockets).
    #[cfg(feature = "tls")]
    pub(crate) fn set_tls(&mut self, tls: crate::tls::TlsConfig) {
        self.tls = Some(tls);
    }

    /// Checks every upgrade request with `auth` from now on (a server's sockets).
    pub(crate) fn set_auth(&mut self, auth: Option<UpgradeAuth>) {
        self.auth = auth;
    }

    /// What became of the connections that did not open, so far.
    pub(crate) fn stats(&self) -> HandshakeStats {
        self.stats
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

    /// How many connections are open.
    pub(crate) fn len(&self) -> usize {
        self.peers.len()
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

    /// Records an open connection as peer `id`.
    pub(crate) fn insert(&mut self, id: i32, ws: WebSocket<Conn>) {
        self.peers.insert(
            id,
            Open {
                ws,
                heard: self.now,
                pinged: false,
                messages_left: 0,
            },
        );
        // Nothing is read from it before its turn in a call.
        if let Some(open) = self.peers.get_mut(&id) {
            open.ws.get_mut().give(0);
        }
    }

    /// Starts a `service` call: the clock, and the call's read budget.
    pub(crate) fn begin(&mut self) {
        self.now = Instant::now();
        self.call_bytes = self.limits.inbound_bytes_per_call.max(1);
        self.call_messages = self.limits.packets_per_call.max(1);
        self.reading = None;
        self.exhausted = false;
        for open in self.peers.values_mut() {
            open.ws.get_mut().give(0);
            open.messages_left = 0;
        }
    }

    /// The ids of the open connections in reading order (round-robin): from the peer the
    /// last call's budget ran out on, else one peer later than the last call.
    pub(crate) fn read_order(&mut self) -> Vec<i32> {
        let mut ids = self.ids();
        ids.sort_unstable();
        let start = ids
            .iter()
            .position(|&id| id >= self.next_first)
            .unwrap_or(0);
        ids.rotate_left(start);
        self.next_first = ids.get(1).or(ids.first()).copied().unwrap_or(0);
        ids
    }

    /// Gives peer `id` its share of what is left of the call's budget (once per call), after
    /// counting what the previous peer used.
    fn select(&mut self, id: i32) {
        if let Some((previous, given)) = self.reading.take() {
            // A peer lost while read counts all it was given.
            let left = self
                .peers
                .get(&previous)
                .map_or(0, |open| open.ws.get_ref().left());
            self.call_bytes = self.call_bytes.saturating_sub(given.saturating_sub(left));
        }
        let bytes = self.limits.inbound_buffer_size.max(1).min(self.call_bytes);
        let messages = self
            .limits
            .max_queued_packets
            .max(1)
            .min(self.call_messages);
        let Some(open) = self.peers.get_mut(&id) else {
            return;
        };
        if (bytes == 0 || messages == 0) && !self.exhausted {
            self.exhausted = true;
            self.next_first = id;
        }
        open.ws.get_mut().give(bytes);
        open.ws.get_mut().now = self.now;
        open.messages_left = messages;
        self.reading = Some((id, bytes));
    }

    /// Accepts new connections and advances the handshakes in progress; returns the
    /// connections whose handshake is done, in the order they completed. A handshake slower
    /// than the timeout is dropped, as Godot drops it; connections above the caps are closed
    /// at once. Never fails: an accept error pauses accepting for a moment.
    pub(crate) fn accept(&mut self) -> Vec<WebSocket<Conn>> {
        let mut open = Vec::new();
        if self.listener.is_none() {
            return open;
        }
        let config = config(&self.limits);
        let budget = self.limits.inbound_buffer_size.max(1);
        let paused = self.accept_paused_until.is_some_and(|t| self.now < t);
        if !paused {
            self.accept_paused_until = None;
            for _ in 0..ACCEPTS_PER_CALL {
                let Some(listener) = &self.listener else {
                    break;
                };
                let (tcp, remote) = match listener.accept() {
                    Ok((tcp, remote)) => (tcp, remote),
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    // The connection failed before we took it: its own business.
                    Err(e)
                        if matches!(
                            e.kind(),
                            ErrorKind::Interrupted
                                | ErrorKind::ConnectionAborted
                                | ErrorKind::ConnectionReset
                        ) =>
                    {
                        continue;
                    }
                    // EMFILE, ENFILE, ENOBUFS, ...: the connection stays in the backlog.
                    Err(_) => {
                        self.accept_paused_until = Some(self.now + ACCEPT_BACKOFF);
                        break;
                    }
                };
                let from = remote.ip();
                let count = self.peers.len() + self.pending.len() + open.len();
                let from_there = self.pending.iter().filter(|p| p.1 == from).count();
                if count >= self.limits.max_peers
                    || from_there >= self.limits.max_pending_per_address
                {
                    // Refused: closed at once.
                    self.stats.capped += 1;
                    continue;
                }
                if self.pending.len() >= self.limits.max_pending.max(1) {
                    // The oldest handshake makes room (closed as it is dropped).
                    self.pending.remove(0);
                    self.stats.timed_out += 1;
                }
                if tcp.set_nonblocking(true).is_err() {
                    continue;
                }
                let _ = tcp.set_nodelay(true);
                let io = match self.wrap_accepted(tcp) {
                    Some(io) => io,
                    None => continue,
                };
                let conn = Conn::new(io, budget, self.now);
                let gate = Gate::new(self.auth.clone(), remote, self.secure());
                let mid = ServerHandshake::start(conn, gate, Some(config));
                if self.secure() {
                    // Advanced below, after the older handshakes (`tls_handshakes_per_call`).
                    self.pending.push((self.now, from, mid));
                } else {
                    self.handshook(mid.handshake(), self.now, from, &mut open);
                }
            }
        }
        let timeout = Duration::from_millis(self.limits.handshake_timeout_ms.max(1));
        let pending = std::mem::take(&mut self.pending);
        let mut tls_left = self.limits.tls_handshakes_per_call.max(1);
        for (since, from, mut mid) in pending {
            if self.now.saturating_duration_since(since) > timeout {
                self.stats.timed_out += 1;
                continue;
            }
            if mid.get_ref().get_ref().handshake_work() {
                if tls_left == 0 {
                    self.pending.push((since, from, mid));
                    continue;
                }
                tls_left -= 1;
            }
            // The request is at most 64 KiB (tungstenite's own bound), a TLS handshake
            // message too (rustls's).
            mid.get_mut().get_mut().give(budget);
            self.handshook(mid.handshake(), since, from, &mut open);
        }
        open
    }

    /// Whether this server serves `wss://`.
    fn secure(&self) -> bool {
        #[cfg(feature = "tls")]
        return self.tls.is_some();
        #[cfg(not(feature = "tls"))]
        false
    }

    /// An accepted socket as the connection's bytes: TLS over it for `wss://` (`None` when
    /// rustls cannot start one).
    fn wrap_accepted(&mut self, tcp: TcpStream) -> Option<Io> {
        #[cfg(feature = "tls")]
        if let Some(tls) = &self.tls {
            let Some(conn) = crate::tls::accept(tls) else {
                self.stats.failed += 1;
                return None;
            };
            return Some(Io::Tls(Box::new(crate::tls::TlsIo::new(conn, tcp))));
        }
        Some(Io::Plain(tcp))
    }

    /// Where a handshake stands after it was advanced: open, still pending (since `since`),
    /// or gone and counted (refused at the upgrade, or failed).
    fn handshook(
        &mut self,
        result: Result<WebSocket<Conn>, HandshakeError<ServerHandshake<Conn, Gate>>>,
        since: Instant,
        from: IpAddr,
        open: &mut Vec<WebSocket<Conn>>,
    ) {
        match result {
            Ok(ws) => open.push(ws),
            Err(HandshakeError::Interrupted(mid)) => self.pending.push((since, from, mid)),
            Err(HandshakeError::Failure(tungstenite::Error::Http(_))) => self.stats.refused += 1,
            Err(HandshakeError::Failure(_)) => self.stats.failed += 1,
        }
    }

    /// The next message of peer `id` in this call (read each peer's messages one after the
    /// other: its budget is given at its first read of the call).
    pub(crate) fn read(&mut self, id: i32) -> Read {
        if self.reading.map(|(r, _)| r) != Some(id) {
            self.select(id);
        }
        let Some(open) = self.peers.get_mut(&id) else {
            return Read::Idle;
        };
        if open.messages_left == 0 {
            return Read::Idle;
        }
        let limit = self.limits.inbound_buffer_size.max(1);
        let error = match open.ws.read() {
            Ok(message) => {
                open.messages_left -= 1;
                self.call_messages = self.call_messages.saturating_sub(1);
                open.heard = self.now;
                open.pinged = false;
                return match message {
                    Message::Binary(data) => Read::Binary(data),
                    Message::Text(text) => Read::Text(text),
                    Message::Close(_) => {
                        self.lose(id, None);
                        Read::Idle
                    }
                    _ => Read::Other,
                };
            }
            Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => {
                return Read::Idle;
            }
            Err(e) => e,
        };
        let error = match error {
            tungstenite::Error::Capacity(tungstenite::error::CapacityError::MessageTooLong {
                size,
                ..
            }) => {
                close_with(&mut open.ws, CloseCode::Size, "Message too big");
                Some(ProtocolError::MessageTooLarge {
                    peer: id,
                    size,
                    limit,
                })
            }
            tungstenite::Error::Protocol(
                tungstenite::error::ProtocolError::ResetWithoutClosingHandshake,
            )
            | tungstenite::Error::ConnectionClosed
            | tungstenite::Error::AlreadyClosed
            | tungstenite::Error::Io(_) => None,
            other => {
                close_with(&mut open.ws, CloseCode::Protocol, "Protocol error");
                Some(ProtocolError::WebSocket {
                    peer: id,
                    detail: other.to_string(),
                })
            }
        };
        self.lose(id, error);
        Read::Idle
    }

    /// Queues a binary message for peer `id` (nothing if there is no such peer). A message
    /// larger than the outbound bound is not sent (a [`Notice::Report`]); a peer whose queue
    /// is full is dropped.
    pub(crate) fn send(&mut self, id: i32, data: Vec<u8>) {
        let limit = self.limits.outbound_buffer_size.max(1);
        let Some(open) = self.peers.get_mut(&id) else {
            return;
        };
        if data.len() > limit {
            self.notices.push(Notice::Report(
                id,
                ProtocolError::SendTooLarge {
                    peer: id,
                    size: data.len(),
                    limit,
                },
            ));
            return;
        }
        let result = open.ws.write(Message::Binary(data.into()));
        self.after_write(id, result);
    }

    /// What a write or flush gave: queued, or the peer is lost.
    fn after_write(&mut self, id: i32, result: tungstenite::Result<()>) {
        match result {
            Ok(()) => {}
            // Queued: the socket takes it later.
            Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => {}
            Err(tungstenite::Error::WriteBufferFull(_)) => {
                let limit = self.limits.outbound_buffer_size.max(1);
                self.lose(id, Some(ProtocolError::OutboundFull { peer: id, limit }));
            }
            Err(_) => self.lose(id, None),
        }
    }

    /// Drops the connections that were silent too long, pings those silent for half of it,
    /// and flushes every connection.
    pub(crate) fn maintain(&mut self) {
        let idle = self.limits.idle_timeout_ms;
        for id in self.ids() {
            let Some(open) = self.peers.get_mut(&id) else {
                continue;
            };
            if idle > 0 {
                let silent = self.now.saturating_duration_since(open.heard);
                if silent >= Duration::from_millis(idle) {
                    self.lose(id, Some(ProtocolError::TimedOut { peer: id, ms: idle }));
                    continue;
                }
                let unfinished = open.ws.get_ref().unfinished_since();
                if unfinished.is_some_and(|t| {
                    self.now.saturating_duration_since(t) >= Duration::from_millis(idle)
                }) {
                    self.lose(id, Some(ProtocolError::Unfinished { peer: id, ms: idle }));
                    continue;
                }
                if !open.pinged && silent >= Duration::from_millis(idle / 2) {
                    open.pinged = true;
                    let result = open.ws.write(Message::Ping(Bytes::new()));
                    self.after_write(id, result);
                    if !self.peers.contains_key(&id) {
                        continue;
                    }
                }
            }
            if let Some(open) = self.peers.get_mut(&id) {
                let result = open.ws.flush();
                self.after_write(id, result);
            }
        }
    }

    /// What happened to the connections since the last call, in order.
    pub(crate) fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// Forgets peer `id`'s connection (closing it) and records why.
    fn lose(&mut self, id: i32, error: Option<ProtocolError>) {
        if let Some(mut open) = self.peers.remove(&id) {
            let _ = open.ws.flush();
            self.notices.push(Notice::Lost(id, error));
        }
    }

    /// Closes and forgets the connection of peer `id` (our decision: no notice).
    pub(crate) fn close_one(&mut self, id: i32) {
        if let Some(mut open) = self.peers.remove(&id) {
            let _ = open.ws.close(None);
            let _ = open.ws.flush();
        }
    }

    /// Closes every connection.
    pub(crate) fn close_all(&mut self) {
        for open in self.peers.values_mut() {
            let _ = open.ws.close(None);
            let _ = open.ws.flush();
        }
    }
}

/// Sends a close frame with `code` as far as the socket takes it (the connection is dropped
/// right after, as Godot drops it).
fn close_with(ws: &mut WebSocket<Conn>, code: CloseCode, reason: &'static str) {
    let _ = ws.close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }));
}
