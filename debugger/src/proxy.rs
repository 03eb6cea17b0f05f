//! A proxy between a game and the Godot editor's debugger, so that the editor and this crate
//! watch and drive the same game at once (the engine takes one debugger connection).
//!
//! The game connects to our listener; we connect to the editor's listener (the editor's
//! default is `127.0.0.1:6007`). Frames go both ways unchanged, byte for byte; our side also
//! sees every game message as a typed [`Event`] and may send its own [`Command`]s.
//!
//! - Commands of ours reach the game between whole frames of the editor's (both engines'
//!   commands are one frame each), never inside one.
//! - Answers go to the side that asked. A request (`get_stack_dump`, `get_stack_frame_vars`,
//!   `evaluate`, the scene tree, inspecting objects) is remembered by the name of its answer,
//!   first asked first answered; an answer to one of ours is withheld from the editor
//!   ([`ProxyEvent::Withheld`]), every other message is forwarded. Godot 3's messages of
//!   several frames are routed whole. At most [`MAX_PENDING`] requests are remembered; the
//!   oldest is forgotten past that (its answer then goes to the editor).
//! - The editor closing is [`ProxyEvent::EditorClosed`]: the game keeps running with our side
//!   alone (a break the editor left open waits for our `Continue`). The game closing is
//!   [`Event::Disconnected`]; the adapter then closes the editor's connection too
//!   ([`ProxyEvent::EditorClosed`] follows).
//!
//! [`ProxySession`] is the sans-IO core; [`ProxyListener`] / [`ProxyConnection`] the blocking
//! TCP adapter.
//!
//! ```no_run
//! use godot_serde_debugger::{Command, Event, ProxyEvent, ProxyListener};
//! use std::time::Duration;
//!
//! let proxy = ProxyListener::listen("127.0.0.1:0", "127.0.0.1:6007")?;
//! // start: godot --path game --remote-debug tcp://127.0.0.1:<proxy port>
//! let mut game = proxy.accept(Duration::from_secs(30))?;
//! while let Some(event) = game.next_event(Duration::from_secs(30)) {
//!     match event {
//!         ProxyEvent::Game(Event::Output(lines)) => lines.iter().for_each(|l| println!("{}", l.text)),
//!         ProxyEvent::Game(Event::SceneTree(tree)) => println!("{} nodes", tree.nodes.len()),
//!         ProxyEvent::Game(Event::Pid(_)) => game.send(Command::RequestSceneTree)?,
//!         ProxyEvent::Game(Event::Disconnected { .. }) => break,
//!         _ => {}
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use godot_serde::Variant;
use godot_serde::frame::{FrameDecoder, Framing};

use crate::blocking::{READ_SIZE, WRITE_TIMEOUT};
use crate::command::Command;
use crate::event::Event;
use crate::link::{Sniffed, Sniffer};
use crate::session::{SendError, Session};
use crate::wire::{self, Decoder, Limits, Protocol};

/// The most requests remembered for routing their answers: 1,024.
pub const MAX_PENDING: usize = 1024;

/// The Godot editor's default debugger address.
pub const DEFAULT_EDITOR_ADDR: &str = "127.0.0.1:6007";

/// Who asked for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The editor (or whatever debugger the proxy connected to).
    Editor,
    /// This side, through [`ProxySession::send`].
    Ours,
}

/// Something that happened on a proxied game.
#[derive(Debug, PartialEq)]
pub enum ProxyEvent {
    /// A message from the game, typed as on a direct [`Connection`](crate::Connection); the
    /// last is [`Event::Disconnected`].
    Game(Event),
    /// A game message answering a request of ours, not forwarded to the editor: its name and
    /// where its frames lie in the game's stream (`offset`, `len` bytes, prefixes included).
    Withheld {
        /// The message name, e.g. `"scene:scene_tree"`.
        name: String,
        /// Stream offset of its first frame's prefix.
        offset: usize,
        /// Its bytes.
        len: usize,
    },
    /// The editor's connection closed (or failed, or sent a frame that cannot be framed:
    /// `error` says so). The game keeps running with our side.
    EditorClosed {
        /// Why, when it did not simply close.
        error: Option<String>,
    },
}

/// The answer's name for a request named `command`, when it has one.
fn answer_of(protocol: Protocol, command: &str) -> Option<&'static str> {
    match (protocol, command) {
        (_, "get_stack_dump") => Some("stack_dump"),
        (_, "get_stack_frame_vars") => Some("stack_frame_vars"),
        (Protocol::Godot4, "evaluate") => Some("evaluation_return"),
        (Protocol::Godot4, "scene:request_scene_tree") => Some("scene:scene_tree"),
        (Protocol::Godot4, "scene:inspect_objects") => Some("scene:inspect_objects"),
        (Protocol::Godot3, "request_scene_tree") => Some("message:scene_tree"),
        (Protocol::Godot3, "inspect_object") => Some("message:inspect_object"),
        _ => None,
    }
}

fn raw_frames(limits: Limits) -> FrameDecoder {
    // The framing alone: the payloads are not decoded here.
    FrameDecoder::with_framing(
        Framing::new(Protocol::Godot4.config(limits.max_depth))
            .with_max_frame_size(limits.max_frame_size),
    )
}

/// The routing state once the game's dialect is known.
#[derive(Debug)]
struct Route {
    session: Session,
    /// Names of the game's messages, frame by frame.
    names: Decoder,
}

/// The proxy's protocol core, sans IO: bytes from the game and the editor in, bytes for
/// each of them and [`ProxyEvent`]s out. Holds at most one frame of
/// [`Limits::max_frame_size`] per direction plus one Godot 3 message being gathered
/// ([`Limits::max_message_size`]; a longer one is forwarded in parts), and the bytes not yet
/// written.
#[derive(Debug)]
pub struct ProxySession {
    limits: Limits,
    /// The game's first bytes before the dialect is known.
    start: Sniffer,
    route: Option<Route>,
    game_frames: FrameDecoder,
    game_offset: usize,
    game_ended: bool,
    /// The frames of the game message being gathered, and its stream offset.
    held: Vec<u8>,
    held_at: usize,
    editor_frames: FrameDecoder,
    editor_open: bool,
    to_editor: Vec<u8>,
    to_game: Vec<u8>,
    pending: VecDeque<(&'static str, Side)>,
    /// Where Godot 4's `stack_frame_var`s go: with their `stack_frame_vars`.
    vars_to: Side,
    events: VecDeque<ProxyEvent>,
}

impl ProxySession {
    /// A proxy with `limits` for both sides' frames.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        ProxySession {
            limits,
            start: Sniffer::default(),
            route: None,
            game_frames: raw_frames(limits),
            game_offset: 0,
            game_ended: false,
            held: Vec::new(),
            held_at: 0,
            editor_frames: raw_frames(limits),
            editor_open: true,
            to_editor: Vec::new(),
            to_game: Vec::new(),
            pending: VecDeque::new(),
            vars_to: Side::Editor,
            events: VecDeque::new(),
        }
    }

    /// The game's protocol state (break, stack, counts), once its first frame told the dialect.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        self.route.as_ref().map(|r| &r.session)
    }

    /// The dialect, once known.
    #[must_use]
    pub fn protocol(&self) -> Option<Protocol> {
        self.session().map(Session::protocol)
    }

    /// Whether the editor's side is still open.
    #[must_use]
    pub fn editor_open(&self) -> bool {
        self.editor_open
    }

    /// Whether the game's side ended ([`Event::Disconnected`] was queued).
    #[must_use]
    pub fn game_ended(&self) -> bool {
        self.game_ended
    }

    /// Bytes received from the game.
    pub fn receive_game(&mut self, bytes: &[u8]) {
        if self.game_ended {
            return;
        }
        if self.route.is_none() {
            match self.start.feed(bytes) {
                Sniffed::Pending => return,
                Sniffed::Dialect(protocol, start, rest) => {
                    self.route = Some(Route {
                        session: Session::new(protocol, self.limits),
                        names: Decoder::new(protocol, self.limits),
                    });
                    self.receive_detected(&start);
                    self.receive_detected(rest);
                }
                Sniffed::Foreign(error, start) => {
                    // Not a debugger stream: forwarded as it came, and the game's side ends.
                    self.forward(&start);
                    let mut session = Session::new(Protocol::Godot4, self.limits);
                    session.close(Some(error));
                    self.route = Some(Route {
                        session,
                        names: Decoder::new(Protocol::Godot4, self.limits),
                    });
                    self.drain_session();
                }
            }
            return;
        }
        self.receive_detected(bytes);
    }

    fn receive_detected(&mut self, bytes: &[u8]) {
        let Some(route) = self.route.as_mut() else {
            return;
        };
        route.session.receive(bytes);
        if self.game_frames.try_feed(bytes).is_err() {
            // The session reports the same frame as a fatal BadFrame; nothing after it can
            // be framed, so nothing more is forwarded.
            let held = std::mem::take(&mut self.held);
            self.forward(&held);
        }
        while let Ok(Some(payload)) = self.game_frames.next_frame() {
            let mut frame = Vec::with_capacity(payload.len() + 4);
            let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
            frame.extend_from_slice(&len.to_le_bytes());
            frame.extend_from_slice(payload);
            self.route_frame(&frame);
        }
        self.drain_session();
    }

    fn drain_session(&mut self) {
        if let Some(route) = self.route.as_mut() {
            while let Some(event) = route.session.poll_event() {
                if matches!(event, Event::Disconnected { .. }) {
                    self.game_ended = true;
                }
                self.events.push_back(ProxyEvent::Game(event));
            }
        }
    }

    /// One raw frame from the game: gathered into its message, then routed.
    fn route_frame(&mut self, frame: &[u8]) {
        if self.held.is_empty() {
            self.held_at = self.game_offset;
        }
        self.game_offset += frame.len();
        self.held.extend_from_slice(frame);
        let Some(route) = self.route.as_mut() else {
            return;
        };
        let _ = route.names.feed(frame);
        let to = match route.names.next_message() {
            Ok(None) => {
                // The end of a skipped message, or a part over the limit: forwarded now.
                if route.names.between_messages() || self.held.len() > self.limits.max_message_size
                {
                    let held = std::mem::take(&mut self.held);
                    self.forward(&held);
                }
                return;
            }
            Err(_) => Side::Editor,
            Ok(Some(message)) => match message.name.as_str() {
                "stack_frame_var" if route.session.protocol() == Protocol::Godot4 => self.vars_to,
                name => {
                    let to = self
                        .pending
                        .iter()
                        .position(|(answer, _)| *answer == name)
                        .and_then(|i| self.pending.remove(i))
                        .map_or(Side::Editor, |(_, side)| side);
                    if name == "stack_frame_vars" {
                        self.vars_to = to;
                    }
                    if to == Side::Ours {
                        self.events.push_back(ProxyEvent::Withheld {
                            name: message.name,
                            offset: self.held_at,
                            len: self.held.len(),
                        });
                    }
                    to
                }
            },
        };
        let held = std::mem::take(&mut self.held);
        if to == Side::Editor {
            self.forward(&held);
        }
    }

    fn forward(&mut self, bytes: &[u8]) {
        if self.editor_open {
            self.to_editor.extend_from_slice(bytes);
        }
    }

    fn remember(&mut self, command: &str, side: Side) {
        let Some(protocol) = self.protocol() else {
            return;
        };
        if let Some(answer) = answer_of(protocol, command) {
            if self.pending.len() >= MAX_PENDING {
                self.pending.pop_front();
            }
            self.pending.push_back((answer, side));
        }
    }

    /// Bytes received from the editor: each whole frame is forwarded to the game as it is.
    /// A frame over [`Limits::max_frame_size`] closes the editor's side
    /// ([`ProxyEvent::EditorClosed`]); the game runs on.
    pub fn receive_editor(&mut self, bytes: &[u8]) {
        if !self.editor_open {
            return;
        }
        if let Err(e) = self.editor_frames.try_feed(bytes) {
            self.editor_closed(Some(format!("the editor's stream: {e}")));
            return;
        }
        let protocol = self.protocol();
        loop {
            let (frame, name) = match self.editor_frames.next_frame() {
                Ok(Some(payload)) => {
                    let name = protocol.and_then(|p| {
                        match p.config(self.limits.max_depth).variant_from_bytes(payload) {
                            Ok(Variant::Array(a)) => match a.items.into_iter().next() {
                                Some(Variant::String(s)) => Some(s.to_string()),
                                _ => None,
                            },
                            _ => None,
                        }
                    });
                    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
                    let mut frame = Vec::with_capacity(payload.len() + 4);
                    frame.extend_from_slice(&len.to_le_bytes());
                    frame.extend_from_slice(payload);
                    (frame, name)
                }
                Ok(None) => return,
                Err(e) => {
                    self.editor_closed(Some(format!("the editor's stream: {e}")));
                    return;
                }
            };
            if let Some(name) = name {
                self.remember(&name, Side::Editor);
            }
            if !self.game_ended {
                self.to_game.extend_from_slice(&frame);
            }
        }
    }

    /// The editor's side closed (`error`: why, when it failed). Nothing more is forwarded to
    /// it; answers to its requests still pending are dropped when they come.
    pub fn editor_closed(&mut self, error: Option<String>) {
        if self.editor_open {
            self.editor_open = false;
            self.to_editor.clear();
            self.events.push_back(ProxyEvent::EditorClosed { error });
        }
    }

    /// The game's side closed (`error`: why, when it failed).
    pub fn game_closed(&mut self, error: Option<String>) {
        if self.game_ended {
            return;
        }
        let held = std::mem::take(&mut self.held);
        self.forward(&held);
        match self.route.as_mut() {
            Some(route) => route.session.close(error),
            None => {
                let mut session = Session::new(Protocol::Godot4, self.limits);
                session.close(error);
                self.route = Some(Route {
                    session,
                    names: Decoder::new(Protocol::Godot4, self.limits),
                });
            }
        }
        self.drain_session();
    }

    /// Queues a command of ours for the game, after the editor's frames already queued; its
    /// answer comes to us and not to the editor.
    ///
    /// # Errors
    ///
    /// [`SendError`]; [`SendError::Io`] before the dialect is known.
    pub fn send(&mut self, command: Command) -> Result<(), SendError> {
        let Some(route) = self.route.as_mut() else {
            return Err(SendError::Io(std::io::Error::new(
                ErrorKind::NotConnected,
                "the game has not sent its first message yet",
            )));
        };
        let names: Vec<String> = command
            .clone()
            .to_messages(route.session.protocol(), wire::MAIN_THREAD)
            .map_err(SendError::Unsupported)?
            .into_iter()
            .map(|m| m.name)
            .collect();
        route.session.send(command)?;
        let bytes = route.session.take_outgoing();
        for name in names {
            self.remember(&name, Side::Ours);
        }
        if !self.game_ended {
            self.to_game.extend(bytes);
        }
        Ok(())
    }

    /// The next event, `None` when none is queued.
    pub fn poll_event(&mut self) -> Option<ProxyEvent> {
        self.events.pop_front()
    }

    /// The bytes queued for the editor, taken.
    pub fn take_to_editor(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.to_editor)
    }

    /// The bytes queued for the game, taken.
    pub fn take_to_game(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.to_game)
    }
}

/// How long one wait on one side lasts while the other is idle: 2 ms.
const POLL: Duration = Duration::from_millis(2);

/// A listening proxy: games connect here, and each is joined to the editor at `editor`.
#[derive(Debug)]
pub struct ProxyListener {
    listener: TcpListener,
    editor: Vec<SocketAddr>,
    limits: Limits,
}

impl ProxyListener {
    /// Listens on `addr` for games, to join them to the editor listening at `editor`.
    ///
    /// # Errors
    ///
    /// The bind's error, or `editor` not resolving.
    pub fn listen(addr: impl ToSocketAddrs, editor: impl ToSocketAddrs) -> std::io::Result<Self> {
        Ok(ProxyListener {
            listener: TcpListener::bind(addr)?,
            editor: editor.to_socket_addrs()?.collect(),
            limits: Limits::default(),
        })
    }

    /// Returns this proxy with `limits` for both sides of its connections.
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

    /// Waits up to `timeout` for a game, then connects to the editor (up to `timeout` too).
    /// An editor that cannot be reached is [`ProxyEvent::EditorClosed`], the first event:
    /// the game is debugged by our side alone.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TimedOut`] when no game connected, or the socket's error.
    pub fn accept(&self, timeout: Duration) -> std::io::Result<ProxyConnection> {
        let game = crate::blocking::accept_game(&self.listener, timeout)?;
        let mut core = ProxySession::new(self.limits);
        let mut failure = String::from("no editor address");
        let mut editor = None;
        for addr in &self.editor {
            match TcpStream::connect_timeout(addr, timeout) {
                Ok(stream) => {
                    editor = Some(stream);
                    break;
                }
                Err(e) => failure = format!("cannot connect to the editor at {addr}: {e}"),
            }
        }
        let editor = editor.and_then(|s| {
            (s.set_nodelay(true).is_ok() && s.set_write_timeout(Some(WRITE_TIMEOUT)).is_ok())
                .then_some(s)
        });
        if editor.is_none() {
            core.editor_closed(Some(failure));
        }
        Ok(ProxyConnection {
            game,
            editor,
            core,
            buf: vec![0; READ_SIZE],
            game_closed: false,
            tap: Vec::new(),
            tap_limit: 0,
        })
    }
}

/// One proxied game and its editor connection.
#[derive(Debug)]
pub struct ProxyConnection {
    game: TcpStream,
    editor: Option<TcpStream>,
    core: ProxySession,
    buf: Vec<u8>,
    game_closed: bool,
    tap: Vec<u8>,
    tap_limit: usize,
}

impl ProxyConnection {
    /// The sans-IO core: the game's session, the dialect, whether the editor is open.
    #[must_use]
    pub fn core(&self) -> &ProxySession {
        &self.core
    }

    /// Keeps a copy of the first `max_bytes` read from the game (for tests and logs; see
    /// [`tapped`](Self::tapped)).
    pub fn tap(&mut self, max_bytes: usize) {
        self.tap_limit = max_bytes;
    }

    /// The bytes read from the game so far, up to the [`tap`](Self::tap) limit.
    #[must_use]
    pub fn tapped(&self) -> &[u8] {
        &self.tap
    }

    /// The next event, waiting up to `timeout` while forwarding both ways; `None` on timeout,
    /// and for good once the game's side ended and its events were taken.
    pub fn next_event(&mut self, timeout: Duration) -> Option<ProxyEvent> {
        let deadline = Instant::now() + timeout;
        loop {
            self.flush();
            if let Some(event) = self.core.poll_event() {
                return Some(event);
            }
            if self.game_closed {
                return None;
            }
            if Instant::now() >= deadline {
                return None;
            }
            self.read_game();
            self.read_editor();
        }
    }

    fn read_game(&mut self) {
        if self.game.set_read_timeout(Some(POLL)).is_err() {
            return self.close_game(Some("cannot set the read timeout".into()));
        }
        match self.game.read(&mut self.buf) {
            Ok(0) => self.close_game(None),
            Ok(n) => {
                let bytes = self.buf.get(..n).unwrap_or_default();
                let room = self.tap_limit.saturating_sub(self.tap.len()).min(n);
                self.tap
                    .extend_from_slice(bytes.get(..room).unwrap_or_default());
                self.core.receive_game(bytes);
                if self.core.game_ended() {
                    self.game_closed = true;
                    let _ = self.game.shutdown(Shutdown::Both);
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => self.close_game(Some(e.to_string())),
        }
    }

    fn read_editor(&mut self) {
        let Some(editor) = self.editor.as_mut() else {
            return;
        };
        if editor.set_read_timeout(Some(POLL)).is_err() {
            return self.close_editor(Some("cannot set the read timeout".into()));
        }
        match editor.read(&mut self.buf) {
            Ok(0) => self.close_editor(None),
            Ok(n) => {
                let bytes = self.buf.get(..n).unwrap_or_default();
                self.core.receive_editor(bytes);
                if !self.core.editor_open() {
                    self.close_editor(None);
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => self.close_editor(Some(e.to_string())),
        }
    }

    fn close_game(&mut self, error: Option<String>) {
        self.game_closed = true;
        self.core.game_closed(error);
        let _ = self.game.shutdown(Shutdown::Both);
    }

    fn close_editor(&mut self, error: Option<String>) {
        if let Some(editor) = self.editor.take() {
            let _ = editor.shutdown(Shutdown::Both);
        }
        self.core.editor_closed(error);
    }

    /// Writes what is queued for each side; once the game ended, closes the editor's side.
    fn flush(&mut self) {
        let to_game = self.core.take_to_game();
        if !to_game.is_empty() && !self.game_closed {
            if let Err(e) = self.game.write_all(&to_game) {
                self.close_game(Some(e.to_string()));
            }
        }
        let to_editor = self.core.take_to_editor();
        if let Some(editor) = self.editor.as_mut() {
            if !to_editor.is_empty() {
                if let Err(e) = editor.write_all(&to_editor) {
                    self.close_editor(Some(e.to_string()));
                }
            }
        }
        if self.game_closed && self.editor.is_some() {
            self.close_editor(None);
        }
    }

    /// Sends a command of ours to the game, between whole frames of the editor's; its answer
    /// comes to us only.
    ///
    /// # Errors
    ///
    /// [`SendError`].
    pub fn send(&mut self, command: Command) -> Result<(), SendError> {
        self.core.send(command)?;
        self.flush();
        Ok(())
    }
}
