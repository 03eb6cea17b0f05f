//! A transport of one's own, built only from the crate's public items: an in-memory pair of
//! channels that frames as Godot 4's `WebSocketMultiplayerPeer` does (the server's first
//! message is the client's id, `ws_id_message`), carrying a server [`Host`] and a client
//! [`Host`] through a path-cache + RPC exchange whose bytes are derived by hand (the same
//! derivation as `protocol.rs`); and what a [`Host`] of several transports does with ids.

use crate::lobby;

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use godot_serde::Variant;
use godot_serde_multiplayer::transport::{
    Host, Transport, TransportEvent, parse_ws_id_message, ws_id_message,
};
use godot_serde_multiplayer::{Event, ProtocolError, Settings, TransferMode};
use lobby::lobby;

/// md5("chandoneechohelloorderedpingtakeunrelwelcome"), as in `protocol.rs`.
const LOBBY_MD5: &[u8; 32] = b"576fb79fa0de0e6f50dd7d79cd2b5865";

/// Every message that went over the wires of a test: (sender's end, bytes).
type Log = Arc<Mutex<Vec<(&'static str, Vec<u8>)>>>;

/// One end of an in-memory connection, as both dialects' test transports carry it: the
/// channels, the events for the host, and the log of what it sent under its name.
struct End {
    name: &'static str,
    tx: Sender<Vec<u8>>,
    rx: Receiver<Vec<u8>>,
    events: VecDeque<TransportEvent>,
    log: Log,
}

/// The server's end (named `name`) and the client's end (`client`) of one connection.
fn ends(name: &'static str, log: &Log) -> (End, End) {
    let (to_client, from_server) = channel();
    let (to_server, from_client) = channel();
    let end = |name, tx, rx| End {
        name,
        tx,
        rx,
        events: VecDeque::new(),
        log: Arc::clone(log),
    };
    (
        end(name, to_client, from_client),
        end("client", to_server, from_server),
    )
}

impl End {
    /// Sends `data` to the other end, logged.
    fn put(&mut self, data: Vec<u8>) {
        self.log.lock().unwrap().push((self.name, data.clone()));
        let _ = self.tx.send(data);
    }
}

/// One end of an in-memory connection between a server and one client.
struct Mem {
    end: End,
    /// Our id: 1 (server end), or the client's once the server told it.
    id: Option<i32>,
    /// The other end's id: the client's (server end), 1 (client end).
    remote: i32,
    /// Whether the other end is connected (the server end announces at its first service).
    open: bool,
    /// Whether the host disconnected the other end (for good).
    closed: bool,
    /// The peers the host asked us to disconnect.
    disconnects: Arc<Mutex<Vec<i32>>>,
}

/// A server end (for client `client_id`) and the client end of one connection.
fn pair(name: &'static str, client_id: i32, log: &Log) -> (Mem, Mem) {
    let (server, client) = ends(name, log);
    let mem = |end, id, remote| Mem {
        end,
        id,
        remote,
        open: false,
        closed: false,
        disconnects: Arc::default(),
    };
    (mem(server, Some(1), client_id), mem(client, None, 1))
}

impl Transport for Mem {
    fn unique_id(&self) -> Option<i32> {
        self.id
    }

    fn service(&mut self) -> std::io::Result<()> {
        if self.id == Some(1) && !self.open && !self.closed {
            // The server assigns the id and says it first.
            self.open = true;
            self.end.put(ws_id_message(self.remote).to_vec());
            self.end
                .events
                .push_back(TransportEvent::Connected(self.remote));
        }
        while let Ok(data) = self.end.rx.try_recv() {
            if self.id.is_none() {
                match parse_ws_id_message(&data) {
                    Ok(id) => {
                        self.id = Some(id);
                        self.open = true;
                        self.end.events.push_back(TransportEvent::Connected(1));
                    }
                    Err(error) => self
                        .end
                        .events
                        .push_back(TransportEvent::Error { peer: 1, error }),
                }
                continue;
            }
            self.end.events.push_back(TransportEvent::Packet {
                from: self.remote,
                channel: 0,
                mode: TransferMode::Reliable,
                data,
            });
        }
        Ok(())
    }

    fn poll_event(&mut self) -> Option<TransportEvent> {
        self.end.events.pop_front()
    }

    fn send(&mut self, to: i32, _channel: u8, _mode: TransferMode, data: Vec<u8>) {
        if to == self.remote && self.open {
            self.end.put(data);
        }
    }

    fn disconnect(&mut self, peer: i32) {
        self.disconnects.lock().unwrap().push(peer);
        if peer == self.remote {
            self.open = false;
            self.closed = true;
        }
    }
}

fn events(host: &mut Host) -> Vec<Event> {
    std::iter::from_fn(|| host.poll_event()).collect()
}

/// Services both hosts until neither has anything left to say (bounded).
fn settle(a: &mut Host, b: &mut Host) {
    for _ in 0..8 {
        a.service().unwrap();
        b.service().unwrap();
    }
}

fn sent(log: &Log) -> Vec<(&'static str, Vec<u8>)> {
    std::mem::take(&mut *log.lock().unwrap())
}

/// Godot 4: the id message, SIMPLIFY_PATH + the call with its path, the client's
/// CONFIRM_PATH, then the compact form; and a call the other way, each side's session as it
/// is over ENet or WebSocket.
#[test]
fn a_transport_of_ones_own_carries_a_server_and_a_client() {
    let log = Log::default();
    let (server_end, client_end) = pair("server", 5, &log);
    let mut server = Host::server(Settings::default());
    server.session().declare(lobby());
    server.add(server_end);
    let mut client = Host::client(client_end, Settings::default());
    client.session().declare(lobby());
    settle(&mut server, &mut client);
    assert_eq!(events(&mut server), [Event::PeerConnected(5)]);
    assert_eq!(events(&mut client), [Event::PeerConnected(1)]);
    assert_eq!(client.session().unique_id(), 5);
    // The id message: 5, 4 bytes little-endian.
    assert_eq!(sent(&log), [("server", vec![5, 0, 0, 0])]);

    server
        .session()
        .rpc(5, "Lobby", "welcome", &("Rusty", 5i64))
        .unwrap();
    settle(&mut server, &mut client);
    let mut simplify = vec![0x01];
    simplify.extend_from_slice(LOBBY_MD5);
    simplify.extend_from_slice(&[0, 1, 0, 0, 0]); // path-cache id 1
    simplify.extend_from_slice(b"Lobby\0");
    #[rustfmt::skip]
    let call = vec![
        0x20,                   // REMOTE_CALL, 32-bit node id, 8-bit method id
        0x19, 0, 0, 0x80,       // 0x80000000 | 25: the path starts at byte 25
        8,                      // welcome (the 9th name in sorted order)
        2,                      // two arguments
        4, 0, 0, 0, 5, 0, 0, 0, b'R', b'u', b's', b't', b'y', 0, 0, 0, // String "Rusty"
        0x02, 5,                // int 5, 8 bits
        b'L', b'o', b'b', b'b', b'y', 0,
    ];
    // CONFIRM_PATH: command 2, valid, path-cache id 1.
    let confirm = vec![0x02, 1, 1, 0, 0, 0];
    assert_eq!(
        sent(&log),
        [
            ("server", simplify.clone()),
            ("server", call),
            ("client", confirm.clone())
        ]
    );
    let welcome = events(&mut client);
    let [Event::Rpc(call)] = welcome.as_slice() else {
        panic!("{welcome:?}");
    };
    assert_eq!(
        (
            call.from,
            call.method.as_str(),
            call.variants().unwrap().as_slice()
        ),
        (
            1,
            "welcome",
            &[Variant::String("Rusty".into()), Variant::Int(5)][..]
        )
    );

    // Confirmed: the compact form. Meta 0, node 1, method 2 (echo), 2 arguments, int 300
    // in 16 bits (meta 0x42), true (0x81).
    server
        .session()
        .rpc(5, "Lobby", "echo", &(300i64, true))
        .unwrap();
    settle(&mut server, &mut client);
    assert_eq!(
        sent(&log),
        [("server", vec![0, 1, 2, 2, 0x42, 0x2c, 0x01, 0x81])]
    );
    assert!(matches!(
        events(&mut client).as_slice(),
        [Event::Rpc(call)] if call.method == "echo" && call.variants().unwrap() == [Variant::Int(300), Variant::Bool(true)]
    ));

    // The client calls `ping(7, true)`: its own SIMPLIFY_PATH (its cache id 1), the call
    // with the path (method 5), and the server's CONFIRM_PATH.
    client
        .session()
        .rpc(1, "Lobby", "ping", &(7i64, true))
        .unwrap();
    settle(&mut server, &mut client);
    #[rustfmt::skip]
    let ping = vec![
        0x20, 0x0A, 0, 0, 0x80, // REMOTE_CALL, the path at byte 10 = 5 + 1 + 1 + 2 + 1
        5, 2,                   // ping (the 6th name), two arguments
        0x02, 7, 0x81,          // int 7, true
        b'L', b'o', b'b', b'b', b'y', 0,
    ];
    assert_eq!(
        sent(&log),
        [("client", simplify), ("client", ping), ("server", confirm)]
    );
    assert!(matches!(
        events(&mut server).as_slice(),
        [Event::Rpc(call)] if call.from == 5 && call.method == "ping"
            && call.variants().unwrap() == [Variant::Int(7), Variant::Bool(true)]
    ));
}

/// A server end that announces a client with a chosen id, as Godot's ENet client picks its
/// own: a second transport's peer with an id the first one's peer has is refused (its
/// transport disconnects it, the session reports the id), and the first peer keeps it.
#[test]
fn a_second_peer_with_an_id_in_use_is_refused() {
    let log = Log::default();
    let (first, first_client) = pair("first", 9, &log);
    let (second, second_client) = pair("second", 9, &log);
    let refused = Arc::clone(&second.disconnects);
    let kept = Arc::clone(&first.disconnects);
    let mut server = Host::server(Settings::default());
    server.session().declare(lobby());
    server.add(first);
    let second_index = server.add(second);
    let mut a = Host::client(first_client, Settings::default());
    let mut b = Host::client(second_client, Settings::default());
    for _ in 0..4 {
        server.service().unwrap();
        a.service().unwrap();
        b.service().unwrap();
    }
    assert_eq!(
        events(&mut server),
        [
            Event::PeerConnected(9),
            Event::Error {
                peer: 9,
                error: ProtocolError::State {
                    peer: 9,
                    detail: "connected with an id in use (or below 2): refused",
                },
            },
        ]
    );
    assert_eq!(*refused.lock().unwrap(), [9]);
    assert!(kept.lock().unwrap().is_empty());
    assert_eq!(server.transport_of(9), Some(0));
    assert_ne!(server.transport_of(9), Some(second_index));
    // Peer 9 is the first transport's: a call reaches only it.
    sent(&log);
    server
        .session()
        .send_bytes(9, b"hi", TransferMode::Reliable, 0)
        .unwrap();
    server.service().unwrap();
    assert_eq!(sent(&log), [("first", vec![3, b'h', b'i'])]);
}

/// One session over two transports relays between their peers: a client on one calls
/// `rpc(0, ...)` (everyone), and the server's session forwards it to the client on the other
/// (SYS_RELAY), whose session sees the first client as the caller.
#[test]
fn one_host_relays_between_its_transports() {
    let log = Log::default();
    let (one, one_client) = pair("one", 11, &log);
    let (two, two_client) = pair("two", 12, &log);
    let mut server = Host::server(Settings::default());
    server.session().declare(lobby());
    server.add(one);
    server.add(two);
    let mut a = Host::client(one_client, Settings::default());
    let mut b = Host::client(two_client, Settings::default());
    a.session().declare(lobby());
    b.session().declare(lobby());
    let all = |server: &mut Host, a: &mut Host, b: &mut Host| {
        for _ in 0..8 {
            server.service().unwrap();
            a.service().unwrap();
            b.service().unwrap();
        }
    };
    all(&mut server, &mut a, &mut b);
    assert_eq!(
        events(&mut server),
        [Event::PeerConnected(11), Event::PeerConnected(12)]
    );
    // Each client learns of the other (SYS_ADD_PEER through the session's relay).
    assert!(events(&mut a).contains(&Event::PeerConnected(12)));
    assert!(events(&mut b).contains(&Event::PeerConnected(11)));
    a.session().rpc(0, "Lobby", "hello", &("from a",)).unwrap();
    all(&mut server, &mut a, &mut b);
    assert!(
        events(&mut b)
            .iter()
            .any(|e| matches!(e, Event::Rpc(call) if call.from == 11 && call.method == "hello")),
    );
    assert!(
        events(&mut server)
            .iter()
            .any(|e| matches!(e, Event::Rpc(call) if call.from == 11 && call.method == "hello")),
    );
}

/// The crate's transports on 127.0.0.1, everything driven from the test's one thread.
#[cfg(all(feature = "enet", feature = "websocket"))]
mod sockets {
    use std::net::SocketAddr;
    use std::time::{Duration, Instant};

    use godot_serde_multiplayer::enet::{EnetPeer, EnetTransport};
    use godot_serde_multiplayer::transport::Host;
    use godot_serde_multiplayer::websocket::{WsPeer, WsTransport};
    use godot_serde_multiplayer::{Event, ProtocolError, Settings};

    use super::{events, lobby};

    /// How long a loop of these tests may wait for what it expects before failing (a bound,
    /// not a measure: on loopback each step takes a few milliseconds).
    const PATIENCE: Duration = Duration::from_secs(4);

    fn any_port() -> SocketAddr {
        "127.0.0.1:0".parse().unwrap()
    }

    /// Services everything until `done` says so or `PATIENCE` runs out; whether it did.
    fn until(step: &mut dyn FnMut() -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < PATIENCE {
            if step() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        false
    }

    /// One thread drives a server (a Host with an ENet and a WebSocket transport) and a client
    /// of each transport: `client(...)` returns before the server answered (it was not
    /// serviced yet; before, the WebSocket client waited for the handshake in `client` and
    /// failed after the handshake timeout), the handshakes complete in `service`, and RPCs go
    /// both ways.
    #[test]
    fn one_thread_drives_a_server_and_its_clients() {
        let settings = Settings::default();
        let enet = EnetTransport::server(any_port(), 8, &settings.limits).unwrap();
        let ws = WsTransport::server(any_port(), &settings.limits).unwrap();
        let (enet_addr, ws_addr) = (enet.local_addr().unwrap(), ws.local_addr().unwrap());
        let mut server = Host::server(settings.clone());
        server.session().declare(lobby());
        server.add(enet);
        server.add(ws);
        let mut over_enet = EnetPeer::client_with_id(enet_addr, 40, settings.clone()).unwrap();
        let url = format!("ws://{ws_addr}/");
        let started = Instant::now();
        let mut over_ws = WsPeer::client(ws_addr, &url, settings).unwrap();
        println!("WsPeer::client returned after {:?}", started.elapsed());
        over_enet.session().declare(lobby());
        over_ws.session().declare(lobby());
        let mut seen_server = Vec::new();
        let (mut enet_up, mut ws_up) = (false, false);
        assert!(until(&mut || {
            server.service().unwrap();
            over_enet.service().unwrap();
            over_ws.service().unwrap();
            seen_server.extend(events(&mut server));
            enet_up |=
                std::iter::from_fn(|| over_enet.poll_event()).any(|e| e == Event::PeerConnected(1));
            ws_up |=
                std::iter::from_fn(|| over_ws.poll_event()).any(|e| e == Event::PeerConnected(1));
            enet_up && ws_up && seen_server.len() == 2
        }));
        let ws_id = over_ws.session().unique_id();
        assert!(ws_id >= 2);
        assert!(seen_server.contains(&Event::PeerConnected(40)));
        assert!(seen_server.contains(&Event::PeerConnected(ws_id)));
        assert_eq!(server.transport_of(40), Some(0));
        assert_eq!(server.transport_of(ws_id), Some(1));

        // Each client calls the server, the server answers each.
        over_enet
            .session()
            .rpc(1, "Lobby", "ping", &(1i64, true))
            .unwrap();
        over_ws
            .session()
            .rpc(1, "Lobby", "ping", &(2i64, false))
            .unwrap();
        let mut pings = Vec::new();
        let mut welcomed = (false, false);
        assert!(until(&mut || {
            over_enet.service().unwrap();
            over_ws.service().unwrap();
            server.service().unwrap();
            while let Some(event) = server.poll_event() {
                if let Event::Rpc(call) = event {
                    let (n, _): (i64, bool) = call.args_as().unwrap();
                    pings.push((call.from, n));
                    server
                        .session()
                        .rpc(call.from, "Lobby", "welcome", &("Rusty", n))
                        .unwrap();
                }
            }
            let welcome = |e: &Event, n: i64| matches!(e, Event::Rpc(c) if c.method == "welcome" && c.args_as::<(String, i64)>().unwrap().1 == n);
            welcomed.0 |= std::iter::from_fn(|| over_enet.poll_event()).any(|e| welcome(&e, 1));
            welcomed.1 |= std::iter::from_fn(|| over_ws.poll_event()).any(|e| welcome(&e, 2));
            welcomed == (true, true)
        }));
        pings.sort_unstable();
        let mut want = vec![(40, 1), (ws_id, 2)];
        want.sort_unstable();
        assert_eq!(pings, want);
    }

    /// A WebSocket client of a port nobody listens on: `client` returns at once, and the
    /// failure is the client's `Event::Error` for peer 1 in `service`.
    #[test]
    fn a_failed_websocket_connection_is_an_event() {
        // A port that was just free.
        let addr = std::net::TcpListener::bind(any_port())
            .unwrap()
            .local_addr()
            .unwrap();
        let mut client =
            WsPeer::client(addr, &format!("ws://{addr}/"), Settings::default()).unwrap();
        let mut error = None;
        assert!(until(&mut || {
            client.service().unwrap();
            error = client.poll_event();
            error.is_some()
        }));
        assert!(
            matches!(
                error,
                Some(Event::Error {
                    peer: 1,
                    error: ProtocolError::WebSocket { peer: 1, .. }
                })
            ),
            "{error:?}"
        );
        assert_eq!(client.session().peers().count(), 0);
    }

    /// An ENet server that goes away without `close()` tells its clients: the client sees
    /// the server leave within `PATIENCE` (4 s), before ENet's own timeout would have told it
    /// (5 s at the least, about 9.5 s in Godot's client). Before, dropping the server sent
    /// nothing.
    #[test]
    fn a_dropped_enet_server_disconnects_its_clients() {
        let settings = Settings::default();
        let server = EnetPeer::server(any_port(), 4, settings.clone()).unwrap();
        let addr = server.local_addr().unwrap();
        let mut server = Some(server);
        let mut client = EnetPeer::client(addr, settings).unwrap();
        assert!(until(&mut || {
            if let Some(server) = server.as_mut() {
                server.service().unwrap();
            }
            client.service().unwrap();
            std::iter::from_fn(|| client.poll_event()).any(|e| e == Event::PeerConnected(1))
        }));
        // Let the server see it too, so that it has a peer to tell.
        let server_sees = until(&mut || {
            let Some(server) = server.as_mut() else {
                return false;
            };
            server.service().unwrap();
            client.service().unwrap();
            server.session().peers().count() == 1
        });
        assert!(server_sees);
        drop(server.take());
        let dropped = Instant::now();
        assert!(until(&mut || {
            client.service().unwrap();
            std::iter::from_fn(|| client.poll_event()).any(|e| e == Event::PeerDisconnected(1))
        }));
        println!(
            "the client saw the server leave {:?} after the drop",
            dropped.elapsed()
        );
    }
}

/// Godot 3 over a transport of one's own: Godot 3's WebSocket framing and the server's relay,
/// both public (`godot3::ws_frame`, `godot3::relay`), carry a Godot 3 server and client
/// session through `welcome`, the path cache and a call by name.
mod godot3 {
    use godot_serde::Variant;
    use godot_serde_multiplayer::Event;
    use godot_serde_multiplayer::godot3::relay::{Link, Relay};
    use godot_serde_multiplayer::godot3::ws_frame::{Ws3Frame, welcome};
    use godot_serde_multiplayer::godot3::{NodeTable, RemoteMode, Session};
    use godot_serde_multiplayer::transport::{Host, Transport, TransportEvent};
    use godot_serde_multiplayer::{Limits, TransferMode};

    use super::{End, Log, ends, sent};

    /// One end of an in-memory connection framed as Godot 3's WebSocket peer frames it.
    struct Mem3 {
        end: End,
        /// 1 for the server end; the client's once `SYS_ID` came.
        id: Option<i32>,
        /// The client's id (server end), 1 (client end).
        remote: i32,
        relay: Relay,
        welcomed: bool,
    }

    fn pair(client_id: i32, log: &Log) -> (Mem3, Mem3) {
        let (server, client) = ends("server", log);
        let mem = |end, id, remote| Mem3 {
            end,
            id,
            remote,
            relay: Relay::new(Link::WebSocket),
            welcomed: false,
        };
        (mem(server, Some(1), client_id), mem(client, None, 1))
    }

    impl Transport for Mem3 {
        fn unique_id(&self) -> Option<i32> {
            self.id
        }

        fn service(&mut self) -> std::io::Result<()> {
            if self.id == Some(1) && !self.welcomed {
                self.welcomed = true;
                for (_, message) in welcome(self.remote, &self.relay, &[self.remote]) {
                    self.end.put(message);
                }
                self.end
                    .events
                    .push_back(TransportEvent::Connected(self.remote));
            }
            while let Ok(data) = self.end.rx.try_recv() {
                let event = match Ws3Frame::parse(&data) {
                    Err(error) => TransportEvent::Error {
                        peer: self.remote,
                        error,
                    },
                    Ok(Ws3Frame::Id(id)) => {
                        self.id = Some(id);
                        continue;
                    }
                    Ok(Ws3Frame::Add(peer)) => TransportEvent::Connected(peer),
                    Ok(Ws3Frame::Del(peer)) => TransportEvent::Disconnected(peer),
                    Ok(Ws3Frame::Data {
                        source,
                        target,
                        payload,
                    }) => {
                        let from = if self.id == Some(1) {
                            let route =
                                self.relay
                                    .route(self.remote, source, target, &[self.remote]);
                            match route {
                                Ok(Some(route)) if route.local => self.remote,
                                Ok(_) => continue,
                                Err(error) => {
                                    self.end.events.push_back(TransportEvent::Error {
                                        peer: self.remote,
                                        error,
                                    });
                                    continue;
                                }
                            }
                        } else {
                            source
                        };
                        TransportEvent::Packet {
                            from,
                            channel: 0,
                            mode: TransferMode::Reliable,
                            data: payload.to_vec(),
                        }
                    }
                };
                self.end.events.push_back(event);
            }
            Ok(())
        }

        fn poll_event(&mut self) -> Option<TransportEvent> {
            self.end.events.pop_front()
        }

        fn send(&mut self, to: i32, _channel: u8, _mode: TransferMode, data: Vec<u8>) {
            let framed = Ws3Frame::Data {
                source: self.id.unwrap_or(0),
                target: to,
                payload: &data,
            }
            .to_bytes();
            // One connection: the client's server, or the server's one client.
            if self.id != Some(1) || !Relay::targets(to, &[self.remote]).is_empty() {
                self.end.put(framed);
            }
        }

        fn disconnect(&mut self, _peer: i32) {}
    }

    fn lobby() -> NodeTable {
        NodeTable::new("/root/Lobby").method("chat", RemoteMode::Remote)
    }

    #[test]
    fn a_godot3_transport_of_ones_own_carries_a_server_and_a_client() {
        let log = Log::default();
        let (server_end, client_end) = pair(5, &log);
        let mut server = Host::new(Session::server(Limits::default()));
        server.session().declare(lobby());
        server.add(server_end);
        let mut client = Host::new(Session::client(0, Limits::default()));
        client.session().declare(lobby());
        client.add(client_end);
        let settle = |server: &mut Host<Session>, client: &mut Host<Session>| {
            for _ in 0..8 {
                server.service().unwrap();
                client.service().unwrap();
            }
        };
        settle(&mut server, &mut client);
        assert_eq!(
            std::iter::from_fn(|| server.poll_event()).collect::<Vec<_>>(),
            [Event::PeerConnected(5)]
        );
        assert_eq!(
            std::iter::from_fn(|| client.poll_event()).collect::<Vec<_>>(),
            [Event::PeerConnected(1)]
        );
        assert_eq!(client.session().unique_id(), 5);
        // `_send_add`: SYS_ID 5, then SYS_ADD 1; type, source 1, target 0, the id.
        assert_eq!(
            sent(&log),
            [
                ("server", vec![3, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0]),
                ("server", vec![1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]),
            ]
        );

        server.session().rpc(5, "Lobby", "chat", &("hi",)).unwrap();
        settle(&mut server, &mut client);
        // Each framed as SYS_NONE from 1 to 5 (or 5 to 1): 0, source, target.
        let frame = |source: u8, target: u8, payload: &[u8]| {
            [&[0, source, 0, 0, 0, target, 0, 0, 0][..], payload].concat()
        };
        // SIMPLIFY_PATH: command 2, cache id 1, "Lobby\0".
        let simplify = [&[2u8, 1, 0, 0, 0][..], b"Lobby\0"].concat();
        // REMOTE_CALL: command 0, node id 0x80000000 | 23 (the path after 1 + 4 + "chat\0" +
        // the count + 12 bytes of String "hi": type 4, length 2, "hi" padded to 4), "chat\0",
        // 1 argument, the String, "Lobby\0".
        let call = [
            &[0u8, 23, 0, 0, 0x80][..],
            b"chat\0",
            &[1, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0],
            b"Lobby\0",
        ]
        .concat();
        // CONFIRM_PATH: command 3, "Lobby\0".
        let confirm = [&[3u8][..], b"Lobby\0"].concat();
        assert_eq!(
            sent(&log),
            [
                ("server", frame(1, 5, &simplify)),
                ("server", frame(1, 5, &call)),
                ("client", frame(5, 1, &confirm)),
            ]
        );
        let got: Vec<Event> = std::iter::from_fn(|| client.poll_event()).collect();
        assert!(
            matches!(got.as_slice(), [Event::Rpc(call)] if call.from == 1 && call.method == "chat"
                && call.variants().unwrap() == [Variant::String("hi".into())]),
            "{got:?}"
        );
    }
}
