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
        self.events.pop_front()
    }

    /// The next output.
    pub(crate) fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }
}
