//! A tokio adapter (feature `tokio`): the same connection as [`blocking`](crate::blocking),
//! with `async` reads and writes, so that one task serves one game without a thread.
//!
//! ```no_run
//! # async fn f() -> std::io::Result<()> {
//! use godot_serde_debugger::{Event, Limits, tokio::AsyncConnection};
//!
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! // start: godot --headless --remote-debug tcp://127.0.0.1:<port>
//! let mut game = AsyncConnection::accept(&listener, Limits::default()).await?;
//! while let Some(event) = game.next_event().await {
//!     if let Event::Output(lines) = &event {
//!         lines.iter().for_each(|l| println!("{}", l.text));
//!     }
//! }
//! # Ok(()) }
//! ```

use std::io::ErrorKind;

use ::tokio::io::{AsyncReadExt, AsyncWriteExt};
use ::tokio::net::{TcpListener, TcpStream};

use crate::blocking::READ_SIZE;
use crate::command::Command;
use crate::event::Event;
use crate::session::{SendError, Session};
use crate::wire::{self, Limits, Protocol};

/// One game's debugging connection over a tokio [`TcpStream`].
#[derive(Debug)]
pub struct AsyncConnection {
    stream: TcpStream,
    limits: Limits,
    /// The first bytes, until they tell the dialect.
    start: Vec<u8>,
    session: Option<Session>,
    buf: Vec<u8>,
    closed: bool,
}

impl AsyncConnection {
    /// Accepts the next game on `listener`.
    ///
    /// # Errors
    ///
    /// The accept's error.
    pub async fn accept(listener: &TcpListener, limits: Limits) -> std::io::Result<Self> {
        let (stream, _) = listener.accept().await?;
        Ok(Self::new(stream, limits))
    }

    /// A connection over a stream accepted elsewhere.
    #[must_use]
    pub fn new(stream: TcpStream, limits: Limits) -> Self {
        AsyncConnection {
            stream,
            limits,
            start: Vec::new(),
            session: None,
            buf: vec![0; READ_SIZE],
            closed: false,
        }
    }

    /// The dialect, once the game's first frame told it.
    #[must_use]
    pub fn protocol(&self) -> Option<Protocol> {
        self.session.as_ref().map(Session::protocol)
    }

    /// The protocol state (break, stack, counts), once the dialect is known.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The next event; `None` after [`Event::Disconnected`]. Each read takes at most
    /// [`READ_SIZE`] bytes; cancel-safe (a cancelled call loses no bytes: they are handed to
    /// the session as soon as the read returns).
    pub async fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.session.as_mut().and_then(Session::poll_event) {
                return Some(event);
            }
            if self.closed {
                return None;
            }
            match self.stream.read(&mut self.buf).await {
                Ok(0) => self.fail(None),
                Ok(n) => {
                    let bytes = self.buf.get(..n).unwrap_or_default().to_vec();
                    self.receive(&bytes);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => self.fail(Some(e.to_string())),
            }
        }
    }

    fn receive(&mut self, bytes: &[u8]) {
        if let Some(session) = self.session.as_mut() {
            session.receive(bytes);
            return;
        }
        let (head, rest) = bytes.split_at(bytes.len().min(8 - self.start.len()));
        self.start.extend_from_slice(head);
        match wire::detect(&self.start) {
            Ok(None) => {}
            Ok(Some(protocol)) => {
                let mut session = Session::new(protocol, self.limits);
                session.receive(&std::mem::take(&mut self.start));
                session.receive(rest);
                self.session = Some(session);
            }
            Err(e) => self.fail(Some(e.to_string())),
        }
    }

    fn fail(&mut self, error: Option<String>) {
        self.closed = true;
        self.session
            .get_or_insert_with(|| Session::new(Protocol::Godot4, self.limits))
            .close(error);
    }

    /// Sends a command.
    ///
    /// # Errors
    ///
    /// [`SendError`]; [`SendError::Io`] before the dialect is known (no frame arrived yet).
    pub async fn send(&mut self, command: Command) -> Result<(), SendError> {
        let Some(session) = self.session.as_mut() else {
            return Err(SendError::Io(std::io::Error::new(
                ErrorKind::NotConnected,
                "the game has not sent its first message yet",
            )));
        };
        session.send(command)?;
        let bytes = session.take_outgoing();
        self.stream.write_all(&bytes).await.map_err(SendError::Io)
    }
}
