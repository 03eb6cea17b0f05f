//! [`RoomsHost`]: [`Rooms`] over any number of transports, and the hooks an orchestrator
//! needs (ready, health, player counts).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{Rooms, RoomsEvent};
use crate::transport::{Transport, TransportEvent};
use crate::{Output, ProtocolError, Settings};

/// [`Rooms`] served over transports (ENet and WebSocket at once, as
/// [`Host`](crate::transport::Host) serves one session): the transport thread's loop calls
/// [`service`](Self::service). Peer ids are unique across the transports, as in a `Host`.
pub struct RoomsHost {
    rooms: Rooms,
    transports: Vec<Box<dyn Transport + Send>>,
    owner: HashMap<i32, usize>,
    health: Health,
}

impl std::fmt::Debug for RoomsHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoomsHost")
            .field("rooms", &self.rooms)
            .field("transports", &self.transports.len())
            .finish()
    }
}

/// Whether a [`RoomsHost`]'s serve loop is alive, readable from any thread (an orchestrator
/// SDK's health task): cheap to clone.
#[derive(Debug, Clone)]
pub struct Health {
    start: Instant,
    /// Nanoseconds from `start` to the end of the last `service` (0: never).
    last: Arc<AtomicU64>,
    /// Every rooms' thread ran at the last `service`.
    threads: Arc<AtomicBool>,
}

impl Health {
    fn new() -> Self {
        Self {
            start: Instant::now(),
            last: Arc::new(AtomicU64::new(0)),
            threads: Arc::new(AtomicBool::new(true)),
        }
    }

    /// Whether the serve loop called [`RoomsHost::service`] within `within` of now, and every
    /// rooms' thread was running then.
    pub fn is_healthy(&self, within: Duration) -> bool {
        self.since_service().is_some_and(|d| d <= within) && self.threads.load(Ordering::Acquire)
    }

    /// The time since the last [`RoomsHost::service`] ended; `None` before the first.
    pub fn since_service(&self) -> Option<Duration> {
        let nanos = self.last.load(Ordering::Acquire);
        (nanos > 0).then(|| {
            self.start
                .elapsed()
                .saturating_sub(Duration::from_nanos(nanos))
        })
    }
}

impl RoomsHost {
    /// A server of rooms over `threads` worker threads (see [`Rooms::new`]), with no
    /// transport yet: [`add`](Self::add) them.
    pub fn new(settings: Settings, threads: usize) -> Self {
        Self::with_rooms(Rooms::new(settings, threads))
    }

    /// A server of `rooms`.
    pub fn with_rooms(rooms: Rooms) -> Self {
        Self {
            rooms,
            transports: Vec::new(),
            owner: HashMap::new(),
            health: Health::new(),
        }
    }

    /// Adds a (listening) transport; its index.
    pub fn add(&mut self, transport: impl Transport + Send + 'static) -> usize {
        self.transports.push(Box::new(transport));
        self.transports.len() - 1
    }

    /// The rooms: add rooms, move peers, read events and [`stats`](Rooms::stats).
    pub fn rooms(&mut self) -> &mut Rooms {
        &mut self.rooms
    }

    /// Ready for players (an orchestrator's `Ready`): a transport is listening and every
    /// rooms' thread runs.
    pub fn is_ready(&self) -> bool {
        let stats = self.rooms.stats();
        !self.transports.is_empty() && stats.threads_alive == stats.threads
    }

    /// The serve loop's liveness, for another thread ([`Health::is_healthy`]).
    pub fn health(&self) -> Health {
        self.health.clone()
    }

    /// The index of the transport `peer` is connected through.
    pub fn transport_of(&self, peer: i32) -> Option<usize> {
        self.owner.get(&peer).copied()
    }

    /// Services every transport and the rooms: what arrived goes to the peers' rooms, what
    /// the rooms sent back to the peers' transports. Never blocks.
    ///
    /// # Errors
    ///
    /// The first error of a transport that is gone (its socket failed); the others were
    /// serviced. What a peer does is never this call's error.
    pub fn service(&mut self) -> std::io::Result<()> {
        let mut failed = None;
        for transport in &mut self.transports {
            if let Err(e) = transport.service() {
                failed.get_or_insert(e);
            }
        }
        self.drain();
        self.rooms.service();
        self.route();
        for transport in &mut self.transports {
            transport.flush();
        }
        self.drain();
        self.route();
        let stats = self.rooms.stats();
        self.health
            .threads
            .store(stats.threads_alive == stats.threads, Ordering::Release);
        let nanos = u64::try_from(self.health.start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.health.last.store(nanos.max(1), Ordering::Release);
        failed.map_or(Ok(()), Err)
    }

    /// Closes every transport (disconnects every peer and sends the notices).
    pub fn close(&mut self) {
        for transport in &mut self.transports {
            transport.close();
        }
    }

    fn drain(&mut self) {
        let now = Instant::now();
        for index in 0..self.transports.len() {
            while let Some(event) = self.transports.get_mut(index).and_then(|t| t.poll_event()) {
                self.event(index, event, now);
            }
        }
    }

    fn event(&mut self, index: usize, event: TransportEvent, now: Instant) {
        match event {
            TransportEvent::Connected(id) => {
                let refused = match self.owner.get(&id) {
                    Some(&other) => other != index,
                    None => id < 2,
                };
                if refused {
                    if let Some(t) = self.transports.get_mut(index) {
                        t.disconnect(id);
                    }
                    self.rooms.events.push_back(RoomsEvent::Error {
                        peer: id,
                        error: ProtocolError::State {
                            peer: id,
                            detail: "connected with an id in use (or below 2): refused",
                        },
                    });
                } else if self.owner.insert(id, index).is_none() {
                    self.rooms.connected(id, now);
                }
            }
            TransportEvent::Disconnected(id) => {
                if self.owner.get(&id) == Some(&index) {
                    self.owner.remove(&id);
                    self.rooms.disconnected(id);
                }
            }
            TransportEvent::Packet {
                from,
                channel,
                mode,
                data,
            } => {
                if self.owner.get(&from) == Some(&index) {
                    self.rooms.receive(from, channel, mode, data);
                }
            }
            TransportEvent::Error { peer, error } => {
                self.rooms
                    .events
                    .push_back(RoomsEvent::Error { peer, error });
            }
        }
    }

    fn route(&mut self) {
        while let Some(output) = self.rooms.poll_output() {
            match output {
                Output::Packet {
                    to,
                    channel,
                    mode,
                    data,
                } => {
                    let owner = self.owner.get(&to).copied();
                    if let Some(t) = owner.and_then(|i| self.transports.get_mut(i)) {
                        t.send(to, channel, mode, data);
                    }
                }
                Output::Disconnect(id) => {
                    if let Some(t) = self
                        .owner
                        .remove(&id)
                        .and_then(|i| self.transports.get_mut(i))
                    {
                        t.disconnect(id);
                    }
                    self.rooms.disconnected(id);
                }
            }
        }
    }
}
