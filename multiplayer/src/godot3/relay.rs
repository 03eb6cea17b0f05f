//! The Godot 3 server's relay policy, in one place for both transports (in Godot 3 the
//! transport peer relays, not `MultiplayerAPI`): whom a client's packet goes to, whether the
//! server's own session gets it, the source check, and who is told of joins and departures.
//! Sans IO: [`Enet3Peer`](crate::godot3::enet::Enet3Peer) and
//! [`Ws3Peer`](crate::godot3::websocket::Ws3Peer) apply it, and so can a transport of one's own.
//!
//! The two engine transports differ in two corners, kept as the engine has them ([`Link`]):
//! a packet "for everyone but 1" (`-1`) reaches the server over WebSocket (3.2.3 compares its
//! own id with `-sender`, which never matches) and not over ENet; and a client's packet for
//! itself is refused over WebSocket ([`ProtocolError::NoSuchPeer`]) and sent back to it over
//! ENet.

use super::wire::Route;
use crate::ProtocolError;

/// Which engine transport's rules apply where the two differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// `NetworkedMultiplayerENet`.
    Enet,
    /// `WebSocketMultiplayerPeer` (3.2, `gd_mp_api = true`).
    WebSocket,
}

/// What the server tells a client about another one (ENet `SYSMSG_ADD_PEER` /
/// `SYSMSG_REMOVE_PEER`, WebSocket `SYS_ADD` / `SYS_DEL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Announce {
    /// Tell `to` that `peer` is connected.
    Add {
        /// The client told.
        to: i32,
        /// The other client.
        peer: i32,
    },
    /// Tell `to` that `peer` left.
    Remove {
        /// The client told.
        to: i32,
        /// The client that left.
        peer: i32,
    },
}

/// The relay policy of a Godot 3 server: on by default (`server_relay`, Godot 3's default;
/// 3.2.3's WebSocket peer has no switch and always relays), off for a server-authoritative
/// game: then clients reach only the server and learn of no other client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relay {
    link: Link,
    on: bool,
}

impl Relay {
    /// The engine's policy for `link`: relay on.
    pub fn new(link: Link) -> Self {
        Self { link, on: true }
    }

    /// Turns client-to-client relay on or off.
    pub fn set_enabled(&mut self, on: bool) {
        self.on = on;
    }

    /// Whether client-to-client relay is on.
    pub fn enabled(&self) -> bool {
        self.on
    }

    /// Who is told what when client `new` joins a server whose clients are `peers` (`new`
    /// among them or not): with relay on, `new` learns of each other client and each of them
    /// of `new` (in that order per client, as `_send_add` and ENet's connect handler do).
    pub fn joined(&self, new: i32, peers: &[i32]) -> Vec<Announce> {
        self.others(new, peers)
            .flat_map(|other| {
                [
                    Announce::Add {
                        to: new,
                        peer: other,
                    },
                    Announce::Add {
                        to: other,
                        peer: new,
                    },
                ]
            })
            .collect()
    }

    /// Who is told that client `gone` left, `peers` being the clients still connected.
    pub fn left(&self, gone: i32, peers: &[i32]) -> Vec<Announce> {
        self.others(gone, peers)
            .map(|to| Announce::Remove { to, peer: gone })
            .collect()
    }

    /// The clients of `peers` but `peer` that relay announces `peer`'s arrival or departure
    /// to: none with relay off.
    fn others(&self, peer: i32, peers: &[i32]) -> impl Iterator<Item = i32> {
        let on = self.on;
        peers.iter().copied().filter(move |&p| on && p != peer)
    }

    /// Where a data packet of client `from` goes, its header saying `source` and `target`,
    /// with `peers` connected: `Ok(None)` when relay is off and the packet is not for the
    /// server (dropped, as the engine drops it).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Invalid`] when `source` is not `from` (the engine: "Someone is
    /// cheating and trying to fake the source!"); [`ProtocolError::NoSuchPeer`] for a target
    /// that is not connected (and, over WebSocket, for the sender itself).
    pub fn route(
        &self,
        from: i32,
        source: i32,
        target: i32,
        peers: &[i32],
    ) -> Result<Option<Route>, ProtocolError> {
        if source != from {
            let (what, detail) = match self.link {
                Link::Enet => ("ENet header source", format!("{source} from peer {from}")),
                Link::WebSocket => (
                    "WebSocket header",
                    format!("type 0 source {source} from peer {from}"),
                ),
            };
            return Err(ProtocolError::Invalid {
                what,
                offset: 0,
                detail,
            });
        }
        if target != 1 && !self.on {
            return Ok(None);
        }
        match self.link {
            Link::Enet => super::wire::route(from, target, peers),
            Link::WebSocket => super::wire::ws_route(from, target, peers),
        }
        .map(Some)
    }

    /// The clients the server's own packet for `target` (everyone: 0; everyone but `n`: `-n`;
    /// or one peer) goes to, `peers` being connected now.
    pub fn targets(target: i32, peers: &[i32]) -> Vec<i32> {
        crate::Target::from_engine(target).expand(peers.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::{Announce, Link, Relay};
    use crate::ProtocolError;
    use crate::godot3::wire::Route;

    fn route(local: bool, forward: &[i32]) -> Option<Route> {
        Some(Route {
            local,
            forward: forward.to_vec(),
        })
    }

    /// The rules of `networked_multiplayer_enet.cpp` and `websocket_multiplayer_peer.cpp`
    /// (3.2), per target, for client 5 with clients 5, 6 and 7 connected.
    #[test]
    fn both_links_route_as_the_engine_does() {
        let peers = [5, 6, 7];
        let enet = Relay::new(Link::Enet);
        let ws = Relay::new(Link::WebSocket);
        for relay in [enet, ws] {
            assert_eq!(relay.route(5, 5, 1, &peers), Ok(route(true, &[])));
            assert_eq!(relay.route(5, 5, 0, &peers), Ok(route(true, &[6, 7])));
            assert_eq!(relay.route(5, 5, -6, &peers), Ok(route(true, &[7])));
            assert_eq!(relay.route(5, 5, 7, &peers), Ok(route(false, &[7])));
            assert_eq!(
                relay.route(5, 5, 9, &peers),
                Err(ProtocolError::NoSuchPeer(9))
            );
            assert!(matches!(
                relay.route(5, 6, 1, &peers),
                Err(ProtocolError::Invalid { .. })
            ));
        }
        // The corners: -1 and the sender itself.
        assert_eq!(enet.route(5, 5, -1, &peers), Ok(route(false, &[6, 7])));
        assert_eq!(ws.route(5, 5, -1, &peers), Ok(route(true, &[6, 7])));
        assert_eq!(enet.route(5, 5, 5, &peers), Ok(route(false, &[5])));
        assert_eq!(ws.route(5, 5, 5, &peers), Err(ProtocolError::NoSuchPeer(5)));
    }

    /// Relay off: only packets for the server pass, and nobody is told of anyone.
    #[test]
    fn relay_off_keeps_clients_apart() {
        let mut relay = Relay::new(Link::Enet);
        relay.set_enabled(false);
        assert_eq!(relay.route(5, 5, 1, &[5, 6]), Ok(route(true, &[])));
        assert_eq!(relay.route(5, 5, 0, &[5, 6]), Ok(None));
        assert_eq!(relay.route(5, 5, 6, &[5, 6]), Ok(None));
        assert!(relay.joined(5, &[5, 6]).is_empty());
        assert!(relay.left(5, &[6]).is_empty());
        relay.set_enabled(true);
        assert_eq!(
            relay.joined(5, &[6, 5, 7]),
            [
                Announce::Add { to: 5, peer: 6 },
                Announce::Add { to: 6, peer: 5 },
                Announce::Add { to: 5, peer: 7 },
                Announce::Add { to: 7, peer: 5 },
            ]
        );
        assert_eq!(
            relay.left(5, &[6, 7]),
            [
                Announce::Remove { to: 6, peer: 5 },
                Announce::Remove { to: 7, peer: 5 },
            ]
        );
    }
}
