//! The sans-IO half the socket adapters ([`blocking`](crate::blocking), [`tokio`](crate::tokio))
//! share: the game's first bytes (at most 8) tell the dialect, then every byte goes to a
//! [`Session`]; the end of the stream, a read error or a start in no dialect closes it with
//! [`Event::Disconnected`] and that error.

use std::io::ErrorKind;

use crate::command::Command;
use crate::event::Event;
use crate::session::{SendError, Session};
use crate::wire::{self, Limits, Protocol};

/// The first bytes of a game's stream (at most 8), until they tell its dialect.
#[derive(Debug, Default)]
pub(crate) struct Sniffer {
    start: Vec<u8>,
}

/// What the bytes so far say.
pub(crate) enum Sniffed<'a> {
    /// Not enough yet (all were taken).
    Pending,
    /// The dialect, the bytes taken up to here, and the rest of this read.
    Dialect(Protocol, Vec<u8>, &'a [u8]),
    /// No debugger stream: why, and the bytes taken (the rest of this read is not).
    Foreign(String, Vec<u8>),
}

impl Sniffer {
    /// Takes what of `bytes` the dialect needs.
    pub(crate) fn feed<'a>(&mut self, bytes: &'a [u8]) -> Sniffed<'a> {
        let (head, rest) =
            bytes.split_at(bytes.len().min(8_usize.saturating_sub(self.start.len())));
        self.start.extend_from_slice(head);
        match wire::detect(&self.start) {
            Ok(None) => Sniffed::Pending,
            Ok(Some(protocol)) => Sniffed::Dialect(protocol, std::mem::take(&mut self.start), rest),
            Err(e) => Sniffed::Foreign(e.to_string(), std::mem::take(&mut self.start)),
        }
    }
}

/// One game's protocol state, fed by whatever reads its socket.
#[derive(Debug)]
pub(crate) struct Link {
    limits: Limits,
    start: Sniffer,
    session: Option<Session>,
    closed: bool,
}

impl Link {
    pub(crate) fn new(limits: Limits) -> Self {
        Link {
            limits,
            start: Sniffer::default(),
            session: None,
            closed: false,
        }
    }

    pub(crate) fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    pub(crate) fn protocol(&self) -> Option<Protocol> {
        self.session.as_ref().map(Session::protocol)
    }

    /// No more bytes are taken: the events left are all there will be.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed
    }

    /// The next event already decoded.
    pub(crate) fn poll_event(&mut self) -> Option<Event> {
        self.session.as_mut().and_then(Session::poll_event)
    }

    /// Takes the outcome of one read: its bytes, the end of the stream (no bytes) or an error
    /// (an interrupted read is tried again by the caller and changes nothing).
    pub(crate) fn read(&mut self, result: std::io::Result<&[u8]>) {
        match result {
            Ok([]) => self.fail(None),
            Ok(bytes) => self.receive(bytes),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => self.fail(Some(e.to_string())),
        }
    }

    fn receive(&mut self, bytes: &[u8]) {
        if let Some(session) = self.session.as_mut() {
            session.receive(bytes);
            return;
        }
        match self.start.feed(bytes) {
            Sniffed::Pending => {}
            Sniffed::Dialect(protocol, start, rest) => {
                let mut session = Session::new(protocol, self.limits);
                session.receive(&start);
                session.receive(rest);
                self.session = Some(session);
            }
            Sniffed::Foreign(error, _) => self.fail(Some(error)),
        }
    }

    /// Closes the link: [`Event::Disconnected`] with `error` comes after the events decoded.
    pub(crate) fn fail(&mut self, error: Option<String>) {
        self.closed = true;
        self.session
            .get_or_insert_with(|| Session::new(Protocol::Godot4, self.limits))
            .close(error);
    }

    /// The bytes that send `command`.
    ///
    /// # Errors
    ///
    /// The session's; [`SendError::Io`] before the dialect is known (no frame arrived yet).
    pub(crate) fn encode(&mut self, command: Command) -> Result<Vec<u8>, SendError> {
        let Some(session) = self.session.as_mut() else {
            return Err(SendError::Io(std::io::Error::new(
                ErrorKind::NotConnected,
                "the game has not sent its first message yet",
            )));
        };
        session.send(command)?;
        Ok(session.take_outgoing())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Godot 4 frame starts with its length, then the Array type (28); split anywhere in
    /// its first 8 bytes, the dialect is told once the 8th arrives, with all 8 bytes handed
    /// back and the rest of that read after them.
    #[test]
    fn the_dialect_is_told_from_8_bytes_however_they_are_split() {
        let stream = [12, 0, 0, 0, 28, 0, 0, 0, 1, 2, 3];
        for cut in 1..8 {
            let mut sniffer = Sniffer::default();
            assert!(matches!(sniffer.feed(&stream[..cut]), Sniffed::Pending));
            match sniffer.feed(&stream[cut..]) {
                Sniffed::Dialect(protocol, start, rest) => {
                    assert_eq!(protocol, Protocol::Godot4);
                    assert_eq!(start, stream[..8]);
                    assert_eq!(rest, [1, 2, 3]);
                }
                _ => panic!("no dialect at cut {cut}"),
            }
        }
    }

    /// An Int (type 2) first is neither dialect: the link closes with why, its session a
    /// Godot 4 one that ends with `Disconnected` and that error.
    #[test]
    fn a_foreign_start_closes_the_link() {
        let mut link = Link::new(Limits::default());
        link.read(Ok(&[8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]));
        assert!(link.is_closed());
        assert_eq!(link.protocol(), Some(Protocol::Godot4));
        assert!(matches!(
            link.poll_event(),
            Some(Event::Disconnected { error: Some(_) })
        ));
    }
}
