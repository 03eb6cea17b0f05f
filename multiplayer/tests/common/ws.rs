//! A raw WebSocket client for the transport tests: the handshake and the frames written by hand
//! from RFC 6455, so that a test can flood, stall, or hold half a message as no well-behaved
//! client would. The server under test runs on the test's thread: every wait services it.
#![allow(dead_code)]

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The handshake request of RFC 6455 section 1.3 (its example key).
const REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\
Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
/// The answer RFC 6455 section 1.3 derives for that key.
const ACCEPT: &str = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

/// Opcodes (RFC 6455 section 5.2).
pub const BINARY: u8 = 0x2;
pub const PING: u8 = 0x9;
pub const PONG: u8 = 0xA;

/// How long any wait of these helpers may last before the test fails.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// A client frame: FIN, `opcode`, masked with the all-zero key (so the payload is sent as
/// is), the length in 7, 7+16 or 7+64 bits.
pub fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0x80 | opcode];
    header_len(&mut out, payload.len());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(payload);
    out
}

/// The masked length field of a client frame whose payload is `len` bytes.
pub fn header_len(out: &mut Vec<u8>, len: usize) {
    if len < 126 {
        out.push(0x80 | len as u8);
    } else if len <= 0xFFFF {
        out.push(0x80 | 126);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(0x80 | 127);
        out.extend_from_slice(&(len as u64).to_be_bytes());
    }
}

/// One raw connection.
pub struct Raw {
    pub tcp: TcpStream,
    buf: Vec<u8>,
}

impl Raw {
    /// Connects and completes the handshake, servicing the server meanwhile; `Err` with what
    /// happened when the server closes the connection or does not answer.
    pub fn connect(addr: SocketAddr, service: &mut dyn FnMut()) -> Result<Raw, String> {
        let mut tcp = TcpStream::connect_timeout(&addr, PATIENCE).map_err(|e| e.to_string())?;
        tcp.set_nodelay(true).unwrap();
        tcp.write_all(REQUEST).map_err(|e| e.to_string())?;
        tcp.set_nonblocking(true).unwrap();
        let mut raw = Raw {
            tcp,
            buf: Vec::new(),
        };
        let start = Instant::now();
        loop {
            if let Some(end) = raw.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&raw.buf[..end]).into_owned();
                assert!(head.starts_with("HTTP/1.1 101"), "{head}");
                // Header names are case-insensitive (RFC 7230), the value is not.
                let accept = head.lines().find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    name.eq_ignore_ascii_case("sec-websocket-accept")
                        .then(|| value.trim().to_owned())
                });
                assert_eq!(accept.as_deref(), Some(ACCEPT), "{head}");
                raw.buf.drain(..end + 4);
                return Ok(raw);
            }
            service();
            match raw.fill() {
                Ok(true) => {}
                Ok(false) => return Err("closed during the handshake".into()),
                Err(e) => return Err(e),
            }
            if start.elapsed() > PATIENCE {
                return Err("no handshake answer".into());
            }
        }
    }

    /// Reads what the socket has; false at end of stream.
    fn fill(&mut self) -> Result<bool, String> {
        let mut chunk = [0u8; 4096];
        match self.tcp.read(&mut chunk) {
            Ok(0) => Ok(false),
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                Ok(true)
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(1));
                Ok(true)
            }
            Err(e) if e.kind() == ErrorKind::ConnectionReset => Ok(false),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The next server frame (unmasked, RFC 6455 section 5.2): its opcode and payload, or
    /// `None` at end of stream.
    pub fn next_frame(&mut self, service: &mut dyn FnMut()) -> Option<(u8, Vec<u8>)> {
        let start = Instant::now();
        loop {
            if let Some((opcode, len, at)) = parse_header(&self.buf) {
                if self.buf.len() >= at + len {
                    let payload = self.buf[at..at + len].to_vec();
                    self.buf.drain(..at + len);
                    return Some((opcode, payload));
                }
            }
            service();
            if !self.fill().unwrap() {
                return None;
            }
            assert!(start.elapsed() < PATIENCE, "no frame from the server");
        }
    }

    /// Sends bytes (the socket is non-blocking: waits while the server reads).
    pub fn send(&mut self, bytes: &[u8], service: &mut dyn FnMut()) {
        let start = Instant::now();
        let mut rest = bytes;
        while !rest.is_empty() {
            match self.tcp.write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    service();
                    assert!(start.elapsed() < PATIENCE, "the server does not read");
                }
                Err(e) => panic!("send: {e}"),
            }
        }
    }

    /// Whether the server closed the connection (what remains unread is discarded).
    pub fn closed(&mut self) -> bool {
        let mut chunk = [0u8; 4096];
        loop {
            match self.tcp.read(&mut chunk) {
                Ok(0) => return true,
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
                Err(_) => return true,
            }
        }
    }
}

/// A server frame header: opcode, payload length, header length.
fn parse_header(b: &[u8]) -> Option<(u8, usize, usize)> {
    let opcode = b.first()? & 0x0F;
    let len7 = (b.get(1)? & 0x7F) as usize;
    match len7 {
        126 => Some((
            opcode,
            u16::from_be_bytes([*b.get(2)?, *b.get(3)?]) as usize,
            4,
        )),
        127 => {
            let bytes: [u8; 8] = b.get(2..10)?.try_into().ok()?;
            Some((opcode, u64::from_be_bytes(bytes) as usize, 10))
        }
        n => Some((opcode, n, 2)),
    }
}

use godot_serde_multiplayer::godot3::websocket::Ws3Peer;
use godot_serde_multiplayer::websocket::WsPeer;
use godot_serde_multiplayer::{Limits, Settings, TransferMode};

pub use crate::dialect::{BOTH, Dialect, Seen};

/// A server of either dialect on 127.0.0.1 (one per test: its size does not matter).
#[allow(clippy::large_enum_variant)]
pub enum Server {
    Godot4(WsPeer),
    Godot3(Ws3Peer),
}

impl Server {
    pub fn new(dialect: Dialect, limits: Limits) -> Server {
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        match dialect {
            Dialect::Godot4 => Server::Godot4(
                WsPeer::server(addr, Settings::default().with_limits(limits)).unwrap(),
            ),
            Dialect::Godot3 => Server::Godot3(Ws3Peer::server(addr, limits).unwrap()),
        }
    }

    pub fn addr(&self) -> SocketAddr {
        match self {
            Server::Godot4(p) => p.local_addr().unwrap(),
            Server::Godot3(p) => p.local_addr().unwrap(),
        }
    }

    /// One `service()`: it must never fail, whatever the peers do.
    pub fn service(&mut self) {
        let result = match self {
            Server::Godot4(p) => p.service(),
            Server::Godot3(p) => p.service(),
        };
        if let Err(e) = result {
            panic!("service() failed: {e}");
        }
    }

    /// The events since the last call.
    pub fn events(&mut self) -> Vec<Seen> {
        let mut out = Vec::new();
        loop {
            let event = match self {
                Server::Godot4(p) => p.poll_event(),
                Server::Godot3(p) => p.poll_event(),
            };
            let Some(e) = event else { break };
            out.push(Seen::from(e));
        }
        out
    }

    /// RAW bytes from the server to every client.
    pub fn broadcast(&mut self, data: &[u8]) {
        match self {
            Server::Godot4(p) => p
                .session()
                .send_bytes(0, data, TransferMode::Reliable, 0)
                .unwrap(),
            Server::Godot3(p) => p.session().send_bytes(0, data, false).unwrap(),
        }
    }
}

/// The id the server gives a raw client: its first message (Godot 4: the 4-byte id; Godot 3:
/// `SYS_ID`, type 3, source 1, target 0, then the id).
pub fn read_id(dialect: Dialect, raw: &mut Raw, service: &mut dyn FnMut()) -> i32 {
    let (opcode, payload) = raw.next_frame(service).expect("the id message");
    assert_eq!(opcode, BINARY);
    let id = match dialect {
        Dialect::Godot4 => &payload[..],
        Dialect::Godot3 => {
            assert_eq!(payload[..9], [3, 1, 0, 0, 0, 0, 0, 0, 0]);
            &payload[9..]
        }
    };
    i32::from_le_bytes(id.try_into().unwrap())
}

/// A client's RAW packet with `data` for the server (Godot 4: command 3, then the bytes;
/// Godot 3: the header type 0, source `id`, target `target`, then command 4 and the bytes).
pub fn raw_packet(dialect: Dialect, id: i32, target: i32, data: &[u8]) -> Vec<u8> {
    let mut p = Vec::new();
    match dialect {
        Dialect::Godot4 => p.push(3),
        Dialect::Godot3 => {
            p.push(0);
            p.extend_from_slice(&id.to_le_bytes());
            p.extend_from_slice(&target.to_le_bytes());
            p.push(4);
        }
    }
    p.extend_from_slice(data);
    p
}
