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

use ::tokio::io::{AsyncReadExt, AsyncWriteExt};
use ::tokio::net::{TcpListener, TcpStream};

use crate::blocking::READ_SIZE;
use crate::command::Command;
use crate::event::Event;
use crate::link::Link;
use crate::session::{SendError, Session};
use crate::wire::{Limits, Protocol};

/// One game's debugging connection over a tokio [`TcpStream`].
#[derive(Debug)]
pub struct AsyncConnection {
    stream: TcpStream,
    link: Link,
    buf: Vec<u8>,
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
            link: Link::new(limits),
            buf: vec![0; READ_SIZE],
        }
    }

    /// The dialect, once the game's first frame told it.
    #[must_use]
    pub fn protocol(&self) -> Option<Protocol> {
        self.link.protocol()
    }

    /// The protocol state (break, stack, counts), once the dialect is known.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        self.link.session()
    }

    /// The next event; `None` after [`Event::Disconnected`]. Each read takes at most
    /// [`READ_SIZE`] bytes; cancel-safe (a cancelled call loses no bytes: they are handed to
    /// the session as soon as the read returns).
    pub async fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.link.poll_event() {
                return Some(event);
            }
            if self.link.is_closed() {
                return None;
            }
            let read = self.stream.read(&mut self.buf).await;
            self.link
                .read(read.map(|n| self.buf.get(..n).unwrap_or_default()));
        }
    }

    /// Sends a command.
    ///
    /// # Errors
    ///
    /// [`SendError`]; [`SendError::Io`] before the dialect is known (no frame arrived yet).
    pub async fn send(&mut self, command: Command) -> Result<(), SendError> {
        let bytes = self.link.encode(command)?;
        self.stream.write_all(&bytes).await.map_err(SendError::Io)
    }
}
