//! ENet bots sharing UDP sockets: each socket is one ENet host with up to
//! [`BotLimits::bots_per_socket`](crate::BotLimits) client peers, each a connection of its own
//! to the server (its own connect id, its own Godot peer id as the connect data), as Godot's
//! ENet server tells peers apart by address and connect id. Each bot's connection is bounded
//! as an [`EnetTransport`](crate::enet::EnetTransport) client's is: `max_packet_size` and
//! `max_waiting_data` in ENet, `outbound_buffer_size` counted here; the reads of one call
//! by `datagrams_per_call`, `inbound_bytes_per_call` and `packets_per_call` per socket.

use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use rusty_enet as enet;

use crate::enet::EnetError;
use crate::enet_core::{Over, Udp, charge, host, packet_kind};
use crate::transport::{enet_channel, from_enet_channel};
use crate::{EnetLimits, TransferMode};

/// ENet's largest peer count per host (its 12-bit peer ids).
pub(crate) const MAX_PER_SOCKET: usize = 4095;

/// The ENet channels of each bot: `SYSCH_MAX` plus `user_channels`, or every channel ENet
/// allows for 0, as Godot's `create_client` (`channel_count`).
pub(crate) fn channels(limits: &EnetLimits) -> usize {
    match limits.user_channels {
        0 => 255,
        n => n
            .saturating_add(usize::from(crate::transport::ENET_SYSCH_MAX))
            .min(255),
    }
}

/// Where a bot's connection is: its socket (host) and ENet peer slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    host: usize,
    peer: enet::PeerID,
}

/// What happened to a bot's connection.
pub(crate) enum PoolEvent {
    /// The server accepted the connection of bot `0`.
    Connected(usize),
    /// Bot `0`'s connection ended (or never started: ENet timed out).
    Disconnected(usize),
    /// A packet for bot `bot`.
    Packet {
        bot: usize,
        channel: u8,
        mode: TransferMode,
        data: Vec<u8>,
    },
}

/// What became of a packet given to [`Pool::send`].
pub(crate) enum Sent {
    /// Queued (or the bot has no connection any more).
    Queued,
    /// Above `max_packet_size` or the outbound bound on its own: not sent.
    TooLarge { size: usize, limit: usize },
    /// ENet refused it (a channel the connection does not have).
    Refused,
    /// The bot's outbound total would pass `outbound_buffer_size`: its connection was reset.
    Dropped { limit: usize },
}

struct Shared {
    host: enet::Host<Udp>,
    /// Bot index and outbound total of each ENet peer slot.
    slots: Vec<Option<(usize, Arc<AtomicUsize>)>>,
    used: usize,
}

/// The sockets of a swarm's ENet bots.
pub(crate) struct Pool {
    server: SocketAddr,
    channels: usize,
    per_socket: usize,
    limits: EnetLimits,
    hosts: Vec<Shared>,
}

impl Pool {
    /// Bots of the server at `server`, `per_socket` per UDP socket, with `channels` ENet
    /// channels each.
    pub(crate) fn new(
        server: SocketAddr,
        per_socket: usize,
        channels: usize,
        limits: EnetLimits,
    ) -> Self {
        Self {
            server,
            channels,
            per_socket: per_socket.clamp(1, MAX_PER_SOCKET),
            limits,
            hosts: Vec::new(),
        }
    }

    /// The UDP sockets open.
    pub(crate) fn sockets(&self) -> usize {
        self.hosts.len()
    }

    fn new_host(&self) -> Result<Shared, EnetError> {
        let bind: SocketAddr = if self.server.is_ipv4() {
            SocketAddr::from(([0, 0, 0, 0], 0))
        } else {
            SocketAddr::from(([0u16; 8], 0))
        };
        // The transports' host: socket buffers of `socket_buffer`, reads within a call's
        // budget, the errors of one destination or datagram lost datagrams.
        let host = host(
            UdpSocket::bind(bind)?,
            self.per_socket,
            self.channels,
            &self.limits,
        )?;
        Ok(Shared {
            host,
            slots: (0..self.per_socket).map(|_| None).collect(),
            used: 0,
        })
    }

    /// Starts the connection of bot `bot` as Godot peer `id` (the connect data), on the last
    /// socket with a free slot or a new one.
    pub(crate) fn connect(&mut self, bot: usize, id: i32) -> Result<Slot, EnetError> {
        let free = self.hosts.iter().rposition(|h| h.used < self.per_socket);
        let index = match free {
            Some(i) => i,
            None => {
                let host = self.new_host()?;
                self.hosts.push(host);
                self.hosts.len() - 1
            }
        };
        let channels = self.channels;
        let server = self.server;
        let shared = self
            .hosts
            .get_mut(index)
            .ok_or_else(|| EnetError::Enet("no socket".into()))?;
        let peer = shared
            .host
            .connect(server, channels, id as u32)
            .map_err(|e| EnetError::Enet(format!("{e:?}")))?
            .id();
        let entry = shared
            .slots
            .get_mut(peer.0)
            .ok_or_else(|| EnetError::Enet("peer slot out of range".into()))?;
        if entry.is_none() {
            shared.used += 1;
        }
        *entry = Some((bot, Arc::default()));
        Ok(Slot { host: index, peer })
    }

    /// Reads every socket within the call's budget and hands each bot's event to `on`.
    ///
    /// # Errors
    ///
    /// Only when a socket itself is gone.
    pub(crate) fn service(&mut self, mut on: impl FnMut(PoolEvent)) -> io::Result<()> {
        let mut failed = None;
        for shared in &mut self.hosts {
            shared.host.socket_mut().refill(&self.limits);
            for _ in 0..self.limits.packets_per_call.max(1) {
                let event = match shared.host.service() {
                    Ok(Some(event)) => event.no_ref(),
                    Ok(None) => break,
                    Err(e) => {
                        failed.get_or_insert(e);
                        break;
                    }
                };
                match event {
                    enet::EventNoRef::Connect { peer, .. } => {
                        if let Some(Some((bot, _))) = shared.slots.get(peer.0) {
                            on(PoolEvent::Connected(*bot));
                        }
                    }
                    enet::EventNoRef::Disconnect { peer, .. } => {
                        if let Some(entry) = shared.slots.get_mut(peer.0) {
                            if let Some((bot, _)) = entry.take() {
                                shared.used -= 1;
                                on(PoolEvent::Disconnected(bot));
                            }
                        }
                    }
                    enet::EventNoRef::Receive {
                        peer,
                        channel_id,
                        packet,
                    } => {
                        if let Some(Some((bot, _))) = shared.slots.get(peer.0) {
                            let (channel, mode) = from_enet_channel(channel_id);
                            on(PoolEvent::Packet {
                                bot: *bot,
                                channel,
                                mode,
                                data: packet.data().to_vec(),
                            });
                        }
                    }
                }
            }
        }
        failed.map_or(Ok(()), Err)
    }

    /// Queues `data` for the server on bot `slot`'s connection, within its outbound bound.
    pub(crate) fn send(
        &mut self,
        slot: Slot,
        channel: u8,
        mode: TransferMode,
        data: Vec<u8>,
    ) -> Sent {
        let Some(shared) = self.hosts.get_mut(slot.host) else {
            return Sent::Queued;
        };
        let Some(Some((_, queued))) = shared.slots.get(slot.peer.0) else {
            return Sent::Queued;
        };
        let kind = packet_kind(mode);
        let packet = match charge(&self.limits, queued, data, kind) {
            Ok(packet) => packet,
            Err(Over::TooLarge { size, limit }) => return Sent::TooLarge { size, limit },
            Err(Over::Full { limit }) => {
                self.reset(slot);
                return Sent::Dropped { limit };
            }
        };
        match shared
            .host
            .get_peer_mut(slot.peer)
            .map(|peer| peer.send(enet_channel(channel, mode), &packet))
        {
            Some(Err(_)) => Sent::Refused,
            _ => Sent::Queued,
        }
    }

    /// Forgets bot `slot`'s connection and resets it at once (a notice is sent, not waited
    /// for); ENet reports nothing more of it.
    pub(crate) fn reset(&mut self, slot: Slot) {
        if let Some(shared) = self.hosts.get_mut(slot.host) {
            if let Some(entry) = shared.slots.get_mut(slot.peer.0) {
                if entry.take().is_some() {
                    shared.used -= 1;
                }
            }
            if let Some(peer) = shared.host.get_peer_mut(slot.peer) {
                peer.disconnect_now(0);
            }
        }
    }

    /// Sends what is queued on every socket.
    pub(crate) fn flush(&mut self) {
        for shared in &mut self.hosts {
            shared.host.flush();
        }
    }

    /// Disconnects every bot now and sends the notices.
    pub(crate) fn close(&mut self) {
        for shared in &mut self.hosts {
            for (index, entry) in shared.slots.iter_mut().enumerate() {
                if entry.take().is_some() {
                    if let Some(peer) = shared.host.get_peer_mut(enet::PeerID(index)) {
                        peer.disconnect_now(0);
                    }
                }
            }
            shared.used = 0;
            shared.host.flush();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.close();
    }
}
