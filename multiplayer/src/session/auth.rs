//! Authentication (`SceneMultiplayer`'s `auth_callback`, `send_auth`, `complete_auth` and
//! `auth_timeout`): the peers still authenticating, each with when it connected and which
//! side has completed. Private state; the session reaches it through the methods here.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::Session;
use crate::{Event, ProtocolError, TransferMode, wire};

/// The per-peer record of a peer still authenticating.
#[derive(Debug)]
struct Pending {
    since: Instant,
    /// We completed (`complete_auth`).
    local: bool,
    /// It completed (an empty SYS AUTH).
    remote: bool,
}

/// The authentication room.
#[derive(Debug, Default)]
pub(super) struct Auth {
    pending: BTreeMap<i32, Pending>,
}

/// What a packet of a peer means to authentication.
pub(super) enum Received<'a> {
    /// The peer is not authenticating: the packet is for the rest of the session.
    Admitted,
    /// Authentication was over on our side: the packet admits the peer, and is processed as
    /// an admitted peer's.
    Admit,
    /// Authentication data for the application.
    Data(&'a [u8]),
    /// Nothing more to do.
    Nothing,
}

impl Auth {
    /// `peer` connected at `now` and must authenticate.
    pub(super) fn start(&mut self, peer: i32, now: Instant) {
        self.pending.insert(
            peer,
            Pending {
                since: now,
                local: false,
                remote: false,
            },
        );
    }

    /// Whether `peer` is authenticating.
    pub(super) fn is_pending(&self, peer: i32) -> bool {
        self.pending.contains_key(&peer)
    }

    /// The peers authenticating.
    pub(super) fn ids(&self) -> impl Iterator<Item = i32> + '_ {
        self.pending.keys().copied()
    }

    /// Ends `peer`'s authentication; whether it was authenticating.
    pub(super) fn remove(&mut self, peer: i32) -> bool {
        self.pending.remove(&peer).is_some()
    }

    /// Removes and returns the peers whose `timeout` has passed at `now`.
    pub(super) fn expire(&mut self, now: Instant, timeout: Duration) -> Vec<i32> {
        let expired: Vec<i32> = self
            .pending
            .iter()
            .filter(|(_, p)| p.since.checked_add(timeout).is_some_and(|due| due <= now))
            .map(|(&id, _)| id)
            .collect();
        for peer in &expired {
            self.pending.remove(peer);
        }
        expired
    }

    /// The earliest timeout.
    pub(super) fn deadline(&self, timeout: Duration) -> Option<Instant> {
        self.pending
            .values()
            .filter_map(|p| p.since.checked_add(timeout))
            .min()
    }

    /// A packet from `from`, as `SceneMultiplayer::poll` treats a pending peer's.
    pub(super) fn receive<'a>(
        &mut self,
        from: i32,
        packet: &'a [u8],
    ) -> Result<Received<'a>, ProtocolError> {
        let Some(pending) = self.pending.get_mut(&from) else {
            return Ok(Received::Admitted);
        };
        if pending.local {
            // Authentication is over on our side: the first packet admits the peer.
            self.pending.remove(&from);
            return Ok(Received::Admit);
        }
        let before = ProtocolError::State {
            peer: from,
            detail: "sent a packet before authenticating",
        };
        let (Some(&cmd), Some(&sub)) = (packet.first(), packet.get(1)) else {
            return Err(before);
        };
        if cmd & wire::CMD_MASK != wire::COMMAND_SYS || sub != wire::SYS_AUTH {
            return Err(before);
        }
        let data = packet.get(2..).unwrap_or_default();
        if !data.is_empty() {
            return Ok(Received::Data(data));
        }
        pending.remote = true;
        Ok(Received::Nothing)
    }

    /// Whether auth data may go to `peer`: authenticating, and neither side completed.
    pub(super) fn may_send(&self, peer: i32) -> bool {
        self.pending
            .get(&peer)
            .is_some_and(|p| !p.local && !p.remote)
    }

    /// Our completion for `peer`: `None` when it is not authenticating or we completed
    /// already, else whether the peer completed too (then it is no longer pending).
    pub(super) fn complete(&mut self, peer: i32) -> Option<bool> {
        let pending = self.pending.get_mut(&peer).filter(|p| !p.local)?;
        pending.local = true;
        let remote = pending.remote;
        if remote {
            self.pending.remove(&peer);
        }
        Some(remote)
    }
}

impl Session {
    /// The peers still authenticating.
    pub fn authenticating(&self) -> impl Iterator<Item = i32> + '_ {
        self.auth.ids()
    }

    /// Sends authentication data to a pending peer (`send_auth`). When `peer` is not
    /// authenticating or completed already (it left, timed out, or was admitted), nothing is
    /// sent and [`ProtocolError::NoSuchPeer`] is queued as its [`Event::Error`].
    ///
    /// # Errors
    ///
    /// [`ProtocolError::EmptyPayload`] for empty data, [`ProtocolError::NoSuchPeer`] for our
    /// own id.
    pub fn send_auth(&mut self, peer: i32, data: &[u8]) -> Result<(), ProtocolError> {
        if data.is_empty() {
            return Err(ProtocolError::EmptyPayload("auth"));
        }
        if !self.auth.may_send(peer) {
            self.gone(peer)?;
            return Ok(());
        }
        let mut packet = Vec::with_capacity(data.len() + 2);
        wire::write_auth(&mut packet, data);
        self.push_packet(peer, 0, TransferMode::Reliable, packet);
        Ok(())
    }

    /// Completes authentication of a pending peer on our side (`complete_auth`); whether it
    /// did. `false`, with nothing sent, when `peer` is not authenticating (it left, timed out,
    /// was disconnected, or never connected) or was completed already (auth data sent twice):
    /// the peer's doing, which Godot answers with an error code and a log line, and a serve
    /// loop with nothing (or a kick).
    pub fn complete_auth(&mut self, peer: i32) -> bool {
        let Some(remote) = self.auth.complete(peer) else {
            return false;
        };
        let mut packet = Vec::with_capacity(2);
        wire::write_auth(&mut packet, &[]);
        self.push_packet(peer, 0, TransferMode::Reliable, packet);
        if remote {
            self.admit(peer);
        }
        true
    }

    /// A pending peer's packet; `Ok(true)` when the rest of the session must process it.
    pub(super) fn receive_pending(
        &mut self,
        from: i32,
        packet: &[u8],
    ) -> Result<bool, ProtocolError> {
        match self.auth.receive(from, packet)? {
            Received::Admitted => Ok(true),
            Received::Admit => {
                self.admit(from);
                Ok(true)
            }
            Received::Data(data) => {
                self.common.queues.event(Event::AuthData {
                    peer: from,
                    data: data.to_vec(),
                });
                Ok(false)
            }
            Received::Nothing => Ok(false),
        }
    }
}
