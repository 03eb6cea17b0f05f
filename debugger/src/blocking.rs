//! A blocking TCP adapter: listen, accept one game, read its events, send it commands.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::command::Command;
use crate::event::Event;
use crate::link::Link;
use crate::session::{SendError, Session};
use crate::wire::{Limits, Protocol};

/// The size of one read from the game: 64 KiB.
pub const READ_SIZE: usize = 64 * 1024;

/// How long a command may take to write before the connection counts as failed: 10 s.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// A listening debugger: what `--remote-debug tcp://HOST:PORT` (Godot 4) or
/// `--remote-debug HOST:PORT` (Godot 3) connects to.
#[derive(Debug)]
pub struct Debugger {
    listener: TcpListener,
    limits: Limits,
}

impl Debugger {
    /// Listens on `addr` (use port 0 for a free port, then [`local_addr`](Self::local_addr)).
    ///
    /// # Errors
    ///
    /// The bind's error.
    pub fn listen(addr: impl ToSocketAddrs) -> std::io::Result<Self> {
        Ok(Debugger {
            listener: TcpListener::bind(addr)?,
            limits: Limits::default(),
        })
    }

    /// Returns this debugger with `limits` for the connections it accepts.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The address listened on.
    ///
    /// # Errors
    ///
    /// The socket's error.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Waits up to `timeout` for a game to connect.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TimedOut`] when none did, or the socket's error.
    pub fn accept(&self, timeout: Duration) -> std::io::Result<Connection> {
        Ok(Connection {
            stream: accept_game(&self.listener, timeout)?,
            link: Link::new(self.limits),
            buf: vec![0; READ_SIZE],
        })
    }
}

/// Waits up to `timeout` for a game on `listener`: its stream, blocking, without Nagle's delay
/// and with [`WRITE_TIMEOUT`]. Polls every 10 ms.
pub(crate) fn accept_game(listener: &TcpListener, timeout: Duration) -> std::io::Result<TcpStream> {
    let deadline = Instant::now() + timeout;
    listener.set_nonblocking(true)?;
    let stream = loop {
        match listener.accept() {
            Ok((stream, _)) => break stream,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    return Err(std::io::Error::new(
                        ErrorKind::TimedOut,
                        format!("no game connected within {timeout:?}"),
                    ));
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(e),
        }
    };
    stream.set_nonblocking(false)?;
    stream.set_nodelay(true)?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    Ok(stream)
}

/// One game's connection. Its dialect is told from the first frame.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    link: Link,
    buf: Vec<u8>,
}

impl Connection {
    /// The protocol state, once the first frame told the dialect.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        self.link.session()
    }

    /// The dialect, once known.
    #[must_use]
    pub fn protocol(&self) -> Option<Protocol> {
        self.link.protocol()
    }

    /// The next event, waiting up to `timeout`; `None` on timeout, and for good after
    /// [`Event::Disconnected`].
    pub fn next_event(&mut self, timeout: Duration) -> Option<Event> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(event) = self.link.poll_event() {
                return Some(event);
            }
            if self.link.is_closed() {
                return None;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            if self.stream.set_read_timeout(Some(left)).is_err() {
                self.link.fail(Some("cannot set the read timeout".into()));
                continue;
            }
            let read = self.stream.read(&mut self.buf);
            if let Err(e) = &read
                && matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
            {
                return None;
            }
            self.link
                .read(read.map(|n| self.buf.get(..n).unwrap_or_default()));
            if self.link.is_closed() {
                let _ = self.stream.shutdown(std::net::Shutdown::Both);
            }
        }
    }

    /// Sends a command.
    ///
    /// # Errors
    ///
    /// [`SendError`]; [`SendError::Io`] before the dialect is known (no frame arrived yet).
    pub fn send(&mut self, command: Command) -> Result<(), SendError> {
        let bytes = self.link.encode(command)?;
        self.stream.write_all(&bytes).map_err(SendError::Io)
    }

    /// Events until one matches `stop` (included, last) or `timeout` passes or the game
    /// disconnects; `continue_errors`: answer each [`Event::DebugEnter`] with
    /// [`Command::Continue`] on the way.
    pub fn events_until(
        &mut self,
        timeout: Duration,
        continue_errors: bool,
        mut stop: impl FnMut(&Event) -> bool,
    ) -> Vec<Event> {
        let deadline = Instant::now() + timeout;
        let mut events = Vec::new();
        while let Some(event) = self.next_event(deadline.saturating_duration_since(Instant::now()))
        {
            if continue_errors && matches!(event, Event::DebugEnter(_)) {
                let _ = self.send(Command::Continue);
            }
            let done = stop(&event) || matches!(event, Event::Disconnected { .. });
            events.push(event);
            if done {
                break;
            }
        }
        events
    }
}
