//! What the transport tests share across the two dialects and the two transports: which
//! Godot a peer speaks, what a server reported (the same for both), a well-behaved client's
//! wait for its server, the polling of one peer, a server serving an engine's script until it
//! exits, and a free port on 127.0.0.1.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use godot_serde_multiplayer::transport::{self, Peer, SocketTransport};
use godot_serde_multiplayer::{Event, ProtocolError};

/// Which Godot a server or client speaks: Godot 4 (`WsPeer`, `EnetPeer`) or Godot 3
/// (`Ws3Peer`, `Enet3Peer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Godot4,
    Godot3,
}

pub const BOTH: [Dialect; 2] = [Dialect::Godot4, Dialect::Godot3];

/// What a server reported, the same for both dialects.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    Connected(i32),
    Disconnected(i32),
    Raw { from: i32, len: usize },
    Error { peer: i32, error: ProtocolError },
    Other,
}

impl From<Event> for Seen {
    /// Both dialects report the crate's one `Event`.
    fn from(event: Event) -> Seen {
        match event {
            Event::PeerConnected(id) => Seen::Connected(id),
            Event::PeerDisconnected(id) => Seen::Disconnected(id),
            Event::Raw { from, data, .. } => Seen::Raw {
                from,
                len: data.len(),
            },
            Event::Error { peer, error } => Seen::Error { peer, error },
            _ => Seen::Other,
        }
    }
}

/// Services a well-behaved `client` (its server serviced by another thread) until the server
/// (peer 1) connects, calls `joined` with the session then, and returns the client's id as
/// soon as `done()` holds after that; `Err` when a call fails or `patience` runs out.
pub fn serve_client<T: SocketTransport, S: transport::Dialect>(
    client: &mut Peer<T, S>,
    patience: Duration,
    mut joined: impl FnMut(&mut S) -> Result<(), String>,
    done: impl Fn() -> bool,
) -> Result<i32, String> {
    let start = Instant::now();
    let mut connected = false;
    while start.elapsed() < patience {
        client.service().map_err(|e| e.to_string())?;
        while let Some(e) = client.poll_event() {
            if e == Event::PeerConnected(1) {
                joined(client.session())?;
                connected = true;
            }
        }
        if connected && done() {
            return Ok(client.session().unique_id());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Err(if connected {
        "not done"
    } else {
        "never connected"
    }
    .into())
}

/// Services `peer` and drains its events until `until` holds for one (true) or `limit`
/// passes (false).
pub fn pump<T: SocketTransport, S: transport::Dialect>(
    peer: &mut Peer<T, S>,
    limit: Duration,
    mut until: impl FnMut(&Event) -> bool,
) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        peer.service().unwrap();
        while let Some(event) = peer.poll_event() {
            if until(&event) {
                return true;
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// A UDP port on 127.0.0.1 that was free a moment ago (for a server started by port number).
pub fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Services `server` until the engine's `client` has exited (at most 70 s), handing each
/// event but the errors to `on_event`, then 20 times more so that the last answers go out;
/// returns the engine's output and the errors' text.
pub fn serve_engine<T: SocketTransport, S: transport::Dialect>(
    server: &mut Peer<T, S>,
    client: std::thread::JoinHandle<std::process::Output>,
    mut on_event: impl FnMut(&mut Peer<T, S>, Event),
) -> (std::process::Output, Vec<String>) {
    let mut errors = Vec::new();
    let start = Instant::now();
    while !client.is_finished() && start.elapsed() < Duration::from_secs(70) {
        server.service().unwrap();
        while let Some(event) = server.poll_event() {
            match event {
                Event::Error { error, .. } => errors.push(error.to_string()),
                event => on_event(server, event),
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    for _ in 0..20 {
        server.service().unwrap();
        std::thread::sleep(Duration::from_millis(2));
    }
    (client.join().unwrap(), errors)
}
