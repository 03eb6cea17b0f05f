//! A blocking TCP adapter: listen, accept one game, read its events, send it commands.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::command::Command;
use crate::event::Event;
use crate::session::{SendError, Session};
use crate::wire::{self, Limits, Protocol};

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
        let deadline = Instant::now() + timeout;
        self.listener.set_nonblocking(true)?;
        let stream = loop {
            match self.listener.accept() {
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
        Ok(Connection {
            stream,
            limits: self.limits,
            start: Vec::new(),
            session: None,
            buf: vec![0; READ_SIZE],
            closed: false,
        })
    }
}

/// One game's connection. Its dialect is told from the first frame.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    limits: Limits,
    /// The bytes before the dialect is known (at most 8).
    start: Vec<u8>,
    session: Option<Session>,
    buf: Vec<u8>,
    closed: bool,
}

impl Connection {
    /// The protocol state, once the first frame told the dialect.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The dialect, once known.
    #[must_use]
    pub fn protocol(&self) -> Option<Protocol> {
        self.session.as_ref().map(Session::protocol)
    }

    /// The next event, waiting up to `timeout`; `None` on timeout, and for good after
    /// [`Event::Disconnected`].
    pub fn next_event(&mut self, timeout: Duration) -> Option<Event> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(event) = self.session.as_mut().and_then(Session::poll_event) {
                return Some(event);
            }
            if self.closed {
                return None;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            if self.stream.set_read_timeout(Some(left)).is_err() {
                self.fail(Some("cannot set the read timeout".into()));
                continue;
            }
            match self.stream.read(&mut self.buf) {
                Ok(0) => self.fail(None),
                Ok(n) => {
                    let bytes = self.buf.get(..n).unwrap_or_default().to_vec();
                    self.receive(&bytes);
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return None;
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
            Err(e) => {
                let mut session = Session::new(Protocol::Godot4, self.limits);
                session.close(Some(e.to_string()));
                self.session = Some(session);
                self.closed = true;
                let _ = self.stream.shutdown(std::net::Shutdown::Both);
            }
        }
    }

    fn fail(&mut self, error: Option<String>) {
        self.closed = true;
        match self.session.as_mut() {
            Some(session) => session.close(error),
            None => {
                let mut session = Session::new(Protocol::Godot4, self.limits);
                session.close(error);
                self.session = Some(session);
            }
        }
    }

    /// Sends a command.
    ///
    /// # Errors
    ///
    /// [`SendError`]; [`SendError::Io`] before the dialect is known (no frame arrived yet).
    pub fn send(&mut self, command: Command) -> Result<(), SendError> {
        let Some(session) = self.session.as_mut() else {
            return Err(SendError::Io(std::io::Error::new(
                ErrorKind::NotConnected,
                "the game has not sent its first message yet",
            )));
        };
        session.send(command)?;
        let bytes = session.take_outgoing();
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
