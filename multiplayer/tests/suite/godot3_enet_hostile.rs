//! A hostile ENet client against the Godot 3 ENet server (`godot3::enet::Enet3Peer`): short
//! packets, a forged source, a relay to a missing peer, a system message from a client, and
//! reserved or duplicate ids. Each is refused with a per-peer error; the server goes on.

use std::net::UdpSocket;
use std::time::{Duration, Instant};

use godot_serde_multiplayer::godot3::enet::Enet3Peer;
use godot_serde_multiplayer::godot3::wire::{self, EnetHeader};
use godot_serde_multiplayer::{Event, TransferMode};
use godot_serde_multiplayer::{Limits, ProtocolError};
use rusty_enet as enet;

struct Raw {
    host: enet::Host<UdpSocket>,
    peer: enet::PeerID,
    connected: bool,
}

impl Raw {
    fn connect(addr: std::net::SocketAddr, id: u32) -> Self {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        let mut host = enet::Host::new(
            socket,
            enet::HostSettings {
                peer_limit: 1,
                channel_limit: 3,
                ..Default::default()
            },
        )
        .unwrap();
        let peer = host.connect(addr, 3, id).unwrap().id();
        Self {
            host,
            peer,
            connected: false,
        }
    }

    fn service(&mut self) -> bool {
        let mut reset = false;
        while let Ok(Some(event)) = self.host.service() {
            match event {
                enet::Event::Connect { .. } => self.connected = true,
                enet::Event::Disconnect { .. } => reset = true,
                enet::Event::Receive { .. } => {}
            }
        }
        reset
    }

    fn send(&mut self, channel: u8, data: Vec<u8>) {
        let packet = enet::Packet::new(data, enet::PacketKind::Reliable);
        self.host
            .get_peer_mut(self.peer)
            .unwrap()
            .send(channel, &packet)
            .unwrap();
        self.host.flush();
    }
}

fn pump(
    server: &mut Enet3Peer,
    raws: &mut [&mut Raw],
    limit: Duration,
    until: impl Fn(&[Event]) -> bool,
) -> Vec<Event> {
    let mut events = Vec::new();
    let start = Instant::now();
    while start.elapsed() < limit && !until(&events) {
        server.service().unwrap();
        for raw in raws.iter_mut() {
            raw.service();
        }
        while let Some(e) = server.poll_event() {
            events.push(e);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    events
}

#[test]
fn forged_enet_packets_are_refused_per_peer() {
    let mut server =
        Enet3Peer::server("127.0.0.1:0".parse().unwrap(), 8, Limits::default()).unwrap();
    let addr = server.local_addr().unwrap();
    let mut good = Raw::connect(addr, 7);
    let events = pump(
        &mut server,
        &mut [&mut good],
        Duration::from_secs(10),
        |e| e.contains(&Event::PeerConnected(7)),
    );
    assert!(events.contains(&Event::PeerConnected(7)), "{events:?}");

    // Reserved id 1 and the id in use: reset by the server, never connected.
    let mut reserved = Raw::connect(addr, 1);
    let mut duplicate = Raw::connect(addr, 7);
    let events = pump(
        &mut server,
        &mut [&mut good, &mut reserved, &mut duplicate],
        Duration::from_secs(2),
        |_| false,
    );
    assert!(
        !events.iter().any(|e| matches!(e, Event::PeerConnected(_))),
        "{events:?}"
    );

    let errors = |events: &[Event]| -> Vec<ProtocolError> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Error { peer: 7, error } => Some(error.clone()),
                _ => None,
            })
            .collect()
    };
    // Shorter than the header.
    good.send(wire::SYSCH_RELIABLE, vec![7, 0, 0, 0, 1]);
    // A forged source.
    good.send(
        wire::SYSCH_RELIABLE,
        EnetHeader {
            source: 9,
            target: 1,
        }
        .frame(&[4, 1]),
    );
    // A relay to a peer that is not connected.
    good.send(
        wire::SYSCH_RELIABLE,
        EnetHeader {
            source: 7,
            target: 55,
        }
        .frame(&[4, 1]),
    );
    // A system message from a client.
    good.send(wire::SYSCH_CONFIG, vec![0, 0, 0, 0, 9, 0, 0, 0]);
    // And a valid RAW packet after all that.
    good.send(
        wire::SYSCH_RELIABLE,
        EnetHeader {
            source: 7,
            target: 1,
        }
        .frame(&[4, 1, 2]),
    );
    let events = pump(
        &mut server,
        &mut [&mut good],
        Duration::from_secs(10),
        |e| e.iter().any(|e| matches!(e, Event::Raw { .. })),
    );
    let errors = errors(&events);
    assert_eq!(errors.len(), 4, "{events:?}");
    assert!(matches!(
        errors[0],
        ProtocolError::Truncated { offset: 4, .. }
    ));
    assert!(matches!(
        errors[1],
        ProtocolError::Invalid {
            what: "ENet header source",
            ..
        }
    ));
    assert_eq!(errors[2], ProtocolError::NoSuchPeer(55));
    assert!(matches!(errors[3], ProtocolError::State { peer: 7, .. }));
    assert!(events.contains(&Event::Raw {
        from: 7,
        data: vec![1, 2],
        channel: 0,
        mode: TransferMode::Reliable,
    }));
}

#[test]
fn minus_one_leaves_the_enet_server_out() {
    // `NetworkedMultiplayerENet::poll` (3.2.3): a packet for everyone but 1 goes to the other
    // clients and not to the server; everyone but 8 reaches the server too.
    let mut server =
        Enet3Peer::server("127.0.0.1:0".parse().unwrap(), 8, Limits::default()).unwrap();
    let addr = server.local_addr().unwrap();
    let mut a = Raw::connect(addr, 7);
    let events = pump(&mut server, &mut [&mut a], Duration::from_secs(10), |e| {
        e.contains(&Event::PeerConnected(7))
    });
    assert!(events.contains(&Event::PeerConnected(7)), "{events:?}");
    // RAW (command 4) with one byte: 9 for `-1`, 8 for `-8`.
    for (target, byte) in [(-1, 9u8), (-8, 8)] {
        let header = EnetHeader { source: 7, target };
        a.send(wire::SYSCH_RELIABLE, header.frame(&[4, byte]));
    }
    let events = pump(&mut server, &mut [&mut a], Duration::from_secs(10), |e| {
        e.iter().any(|e| matches!(e, Event::Raw { .. }))
    });
    // Both were sent on one reliable channel, in order: had -1 reached the server, it would
    // be the first Raw.
    let raws: Vec<&Vec<u8>> = events
        .iter()
        .filter_map(|e| match e {
            Event::Raw { data, .. } => Some(data),
            _ => None,
        })
        .collect();
    assert_eq!(raws, [&vec![8u8]], "{events:?}");
}
