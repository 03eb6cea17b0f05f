//! The pieces of the protocol core both dialects share, written once: [`Target`] (the
//! engine's `0 / -n / n` rule), the path cache and its per-peer record, the node-id field,
//! and the event and output queues. The Godot 4 [`Session`](crate::Session) and the Godot 3
//! [`Session`](crate::godot3::Session) differ in packet layouts, addressing and modes only.

pub(crate) mod cache;
pub(crate) mod node_id;
mod target;

use std::collections::VecDeque;

pub use target::Target;

use crate::{Event, Output, ProtocolError, TransferMode};

/// What every session has, in both dialects (as rustls's `ConnectionCommon` under its client
/// and server): our peer id and the queues of [`Event`]s and [`Output`]s. The Godot 4
/// [`Session`](crate::Session) and the Godot 3 [`Session`](crate::godot3::Session) dereference
/// to it, so `session.unique_id()`, `session.poll_event()` and the rest are called on either.
#[derive(Debug)]
pub struct SessionCommon {
    pub(crate) id: i32,
    pub(crate) queues: Queues,
}

impl SessionCommon {
    pub(crate) fn new(id: i32) -> Self {
        Self {
            id,
            queues: Queues::default(),
        }
    }

    /// Our peer id.
    pub fn unique_id(&self) -> i32 {
        self.id
    }

    /// Whether this is the server (peer 1).
    pub fn is_server(&self) -> bool {
        self.id == 1
    }

    /// Sets our id: a WebSocket client learns it from the server's first message.
    pub(crate) fn set_unique_id(&mut self, id: i32) {
        self.id = id;
    }

    /// The next event for the application.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.queues.poll_event()
    }

    /// The next thing for the transport to do.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.queues.poll_output()
    }

    /// Reports an error of `peer` (a transport's, or the application's verdict on what the
    /// peer sent) as its [`Event::Error`].
    pub fn report(&mut self, peer: i32, error: ProtocolError) {
        self.queues.report(peer, error);
    }

    /// The value of `result`, or `None` with its error queued as `peer`'s [`Event::Error`]:
    /// how a serve loop takes a typed call (`args_of`, `value_of`, `call_of`) and goes on,
    /// as the engine logs a call its method refuses.
    pub(crate) fn or_report<T>(
        &mut self,
        peer: i32,
        result: Result<T, ProtocolError>,
    ) -> Option<T> {
        result.map_err(|error| self.report(peer, error)).ok()
    }
}

/// Both sessions dereference to their [`SessionCommon`].
macro_rules! deref_common {
    ($session:ty) => {
        impl std::ops::Deref for $session {
            type Target = $crate::core::SessionCommon;
            fn deref(&self) -> &Self::Target {
                &self.common
            }
        }

        impl std::ops::DerefMut for $session {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.common
            }
        }
    };
}
pub(crate) use deref_common;

/// The session's two queues: [`Event`]s for the application, [`Output`]s for the transport.
#[derive(Debug, Default)]
pub(crate) struct Queues {
    events: VecDeque<Event>,
    out: VecDeque<Output>,
}

impl Queues {
    /// Queues an event.
    pub(crate) fn event(&mut self, event: Event) {
        self.events.push_back(event);
    }

    /// Queues `error` as `peer`'s [`Event::Error`].
    pub(crate) fn report(&mut self, peer: i32, error: ProtocolError) {
        self.events.push_back(Event::Error { peer, error });
    }

    /// Queues a packet for the transport.
    pub(crate) fn packet(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        self.out.push_back(Output::Packet {
            to,
            channel,
            mode,
            data,
        });
    }

    /// Queues a disconnection.
    pub(crate) fn disconnect(&mut self, peer: i32) {
        self.out.push_back(Output::Disconnect(peer));
    }

    /// The next event.
    pub(crate) fn poll_event(&mut self) -> Option<Event> {
        let next = self.events.pop_front();
        if next.is_none() {
            release(&mut self.events);
        }
        next
    }

    /// The next output.
    pub(crate) fn poll_output(&mut self) -> Option<Output> {
        let next = self.out.pop_front();
        if next.is_none() {
            release(&mut self.out);
        }
        next
    }
}

/// The entries a drained queue keeps room for ([`release`]).
const QUEUE_KEEP: usize = 64;

/// Gives back the room of a drained queue above [`QUEUE_KEEP`] entries: a burst (a server's
/// ADD_PEER notices, 2 × (peers − 1) per join; a broadcast) grew it, and a `VecDeque` keeps its
/// largest size (32 bytes an output: 64 KiB after a join at 1,000 peers) for good.
fn release<T>(queue: &mut VecDeque<T>) {
    if queue.capacity() > QUEUE_KEEP {
        queue.shrink_to(QUEUE_KEEP);
    }
}
