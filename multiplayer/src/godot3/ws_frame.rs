//! Godot 3.2's WebSocket multiplayer framing (`WebSocketMultiplayerPeer` with
//! `gd_mp_api = true`, `modules/websocket/websocket_multiplayer_peer.cpp`) as typed messages,
//! sans IO: what a transport of one's own (another WebSocket library, a proxy) needs to talk
//! to Godot 3 clients and servers. [`Ws3Peer`](crate::godot3::websocket::Ws3Peer) uses it.
//!
//! Every WebSocket message is one [`Ws3Frame`]: a type byte, the source and target ids
//! (`i32` little-endian), then the payload (`_make_pkt`; [`WsMessage`] is the raw layout).
//! When a client connects the server sends, in order, [`welcome`]: `SYS_ID` (its id),
//! `SYS_ADD 1` (the client's `connection_succeeded`), then, relay on, `SYS_ADD` of every other
//! client to it and of it to each other client ([`Relay::joined`]); when one leaves, `SYS_DEL`
//! to the others ([`Relay::left`], [`announcement`]). A data message from a client is routed by
//! [`Relay::route`] after its type is checked (only the server sends system messages).

use super::relay::{Announce, Relay};
use super::wire::{WS_HEADER_SIZE, WS_SYS_ADD, WS_SYS_DEL, WS_SYS_ID, WS_SYS_NONE, WsMessage};
use crate::ProtocolError;

/// One message of Godot 3's WebSocket multiplayer peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ws3Frame<'a> {
    /// `SYS_NONE`: a `MultiplayerAPI` packet from `source` for `target` (an id, 0 everyone,
    /// `-n` everyone but `n`).
    Data {
        /// The sender.
        source: i32,
        /// The target.
        target: i32,
        /// The `MultiplayerAPI` bytes.
        payload: &'a [u8],
    },
    /// `SYS_ID`: the server tells a new client its id.
    Id(i32),
    /// `SYS_ADD`: a peer is connected (1: the server, i.e. the connection succeeded).
    Add(i32),
    /// `SYS_DEL`: a peer left.
    Del(i32),
}

impl<'a> Ws3Frame<'a> {
    /// Parses a message. System messages carry one id (the first 4 payload bytes, as the
    /// engine reads them).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Truncated`] below the 9-byte header or for a system message without
    /// its id; [`ProtocolError::Invalid`] (offset 0) for an unknown type.
    pub fn parse(p: &'a [u8]) -> Result<Self, ProtocolError> {
        let message = WsMessage::parse(p)?;
        if message.kind == WS_SYS_NONE {
            return Ok(Self::Data {
                source: message.source,
                target: message.target,
                payload: message.payload,
            });
        }
        let id = message.sys_id()?;
        match message.kind {
            WS_SYS_ID => Ok(Self::Id(id)),
            WS_SYS_ADD => Ok(Self::Add(id)),
            WS_SYS_DEL => Ok(Self::Del(id)),
            kind => Err(ProtocolError::Invalid {
                what: "WebSocket system message",
                offset: 0,
                detail: format!("type {kind} with id {id}"),
            }),
        }
    }

    /// The bytes of the message (system messages from the server: source 1, target 0).
    pub fn to_bytes(&self) -> Vec<u8> {
        let (kind, id) = match *self {
            Self::Data {
                source,
                target,
                payload,
            } => {
                return WsMessage {
                    kind: WS_SYS_NONE,
                    source,
                    target,
                    payload,
                }
                .to_bytes();
            }
            Self::Id(id) => (WS_SYS_ID, id),
            Self::Add(id) => (WS_SYS_ADD, id),
            Self::Del(id) => (WS_SYS_DEL, id),
        };
        WsMessage::sys(kind, id)
    }
}

/// The size of a system message: the header and one id.
pub const WS_SYS_SIZE: usize = WS_HEADER_SIZE + 4;

/// A relay announcement as the message to send and its receiver.
pub fn announcement(announce: Announce) -> (i32, Vec<u8>) {
    match announce {
        Announce::Add { to, peer } => (to, Ws3Frame::Add(peer).to_bytes()),
        Announce::Remove { to, peer } => (to, Ws3Frame::Del(peer).to_bytes()),
    }
}

/// What the server sends when client `id` connects, `peers` being its clients (with `id` or
/// without): `SYS_ID`, `SYS_ADD 1` to it, then `relay`'s announcements (`_send_add`).
pub fn welcome(id: i32, relay: &Relay, peers: &[i32]) -> Vec<(i32, Vec<u8>)> {
    let mut out = vec![
        (id, Ws3Frame::Id(id).to_bytes()),
        (id, Ws3Frame::Add(1).to_bytes()),
    ];
    out.extend(relay.joined(id, peers).into_iter().map(announcement));
    out
}

#[cfg(test)]
mod tests {
    use super::{Ws3Frame, welcome};
    use crate::ProtocolError;
    use crate::godot3::relay::{Link, Relay};

    /// The layouts of `_make_pkt` and `_send_sys`, written out: type, source, target
    /// (little-endian), payload.
    #[test]
    fn frames_as_the_engine_writes_them() {
        assert_eq!(
            Ws3Frame::Id(7).to_bytes(),
            [3, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0]
        );
        assert_eq!(
            Ws3Frame::Del(0x0102_0304).to_bytes(),
            [2, 1, 0, 0, 0, 0, 0, 0, 0, 4, 3, 2, 1]
        );
        let data = Ws3Frame::Data {
            source: 7,
            target: -9,
            payload: &[4, 0xAA],
        };
        let bytes = [0, 7, 0, 0, 0, 0xF7, 0xFF, 0xFF, 0xFF, 4, 0xAA];
        assert_eq!(data.to_bytes(), bytes);
        assert_eq!(Ws3Frame::parse(&bytes), Ok(data));
        assert_eq!(
            Ws3Frame::parse(&[1, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0]),
            Ok(Ws3Frame::Add(5))
        );
    }

    #[test]
    fn short_and_unknown_messages_are_errors() {
        assert!(matches!(
            Ws3Frame::parse(&[0, 1, 0, 0, 0, 0, 0, 0]),
            Err(ProtocolError::Truncated { .. })
        ));
        assert!(matches!(
            Ws3Frame::parse(&[3, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0]),
            Err(ProtocolError::Truncated { .. })
        ));
        assert!(matches!(
            Ws3Frame::parse(&[4, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0]),
            Err(ProtocolError::Invalid { offset: 0, .. })
        ));
    }

    /// Client 8 joins clients 6 and 8: its id, the server, then 6 to it and it to 6.
    #[test]
    fn the_welcome_of_a_new_client() {
        let sys = |kind: u8, id: u8| vec![kind, 1, 0, 0, 0, 0, 0, 0, 0, id, 0, 0, 0];
        assert_eq!(
            welcome(8, &Relay::new(Link::WebSocket), &[6, 8]),
            [
                (8, sys(3, 8)),
                (8, sys(1, 1)),
                (8, sys(1, 6)),
                (6, sys(1, 8)),
            ]
        );
        let mut off = Relay::new(Link::WebSocket);
        off.set_enabled(false);
        assert_eq!(welcome(8, &off, &[6, 8]), [(8, sys(3, 8)), (8, sys(1, 1))]);
    }
}
