//! The protocol core without IO: bytes from the game in, [`Event`]s out; [`Command`]s in,
//! bytes to the game out; the state of the connection in between.

use std::collections::VecDeque;

use crate::command::{Command, Unsupported};
use crate::event::{self, Break, Event, StackFrame, Variable};
use crate::wire::{self, Decoder, Limits, MAIN_THREAD, Protocol};

/// Why a command could not be queued.
#[derive(Debug)]
pub enum SendError {
    /// The engine has no such message.
    Unsupported(Unsupported),
    /// A value cannot be written in the engine's layout.
    Encode(godot_serde::Error),
    /// Writing to the game failed (blocking adapter).
    Io(std::io::Error),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Unsupported(e) => e.fmt(f),
            SendError::Encode(e) => write!(f, "cannot encode the command: {e}"),
            SendError::Io(e) => write!(f, "cannot send the command: {e}"),
        }
    }
}

impl std::error::Error for SendError {}

/// One debugging connection's protocol state.
#[derive(Debug)]
pub struct Session {
    protocol: Protocol,
    limits: Limits,
    decoder: Decoder,
    events: VecDeque<Event>,
    outgoing: Vec<u8>,
    pid: Option<i64>,
    broken: Option<Break>,
    stack: Vec<StackFrame>,
    /// Godot 4's `stack_frame_vars` count, the `stack_frame_var`s so far and their bytes.
    variables: Option<(usize, Vec<Variable>, usize)>,
    errors: usize,
    warnings: usize,
    /// Godot 4's custom monitor names, as last announced.
    custom_monitors: Vec<String>,
    ended: bool,
}

impl Session {
    /// A session speaking `protocol`, bounded by `limits`.
    #[must_use]
    pub fn new(protocol: Protocol, limits: Limits) -> Self {
        Session {
            protocol,
            limits,
            decoder: Decoder::new(protocol, limits),
            events: VecDeque::new(),
            outgoing: Vec::new(),
            pid: None,
            broken: None,
            stack: Vec::new(),
            variables: None,
            errors: 0,
            warnings: 0,
            custom_monitors: Vec::new(),
            ended: false,
        }
    }

    /// The dialect.
    #[must_use]
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The limits.
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Bytes still needed for the frame being received.
    #[must_use]
    pub fn missing_bytes(&self) -> usize {
        self.decoder.missing_bytes()
    }

    /// Bytes received from the game. A frame over the size limit ends the session with
    /// [`Event::BadFrame`] and [`Event::Disconnected`].
    pub fn receive(&mut self, bytes: &[u8]) {
        if self.ended {
            return;
        }
        if let Err(e) = self.decoder.feed(bytes) {
            self.lose(e);
        }
    }

    /// The game closed the connection (`error`: why, when it failed). A frame cut short by
    /// the close is reported first, as a fatal [`Event::BadFrame`].
    pub fn close(&mut self, error: Option<String>) {
        if !self.ended {
            self.ended = true;
            let missing = self.decoder.missing_bytes();
            if missing > 0 {
                self.events.push_back(Event::BadFrame(wire::WireError {
                    message: format!("the connection closed inside a frame, {missing} bytes short"),
                    offset: None,
                    fatal: true,
                }));
            }
            self.events.push_back(Event::Disconnected { error });
        }
    }

    /// Whether [`Event::Disconnected`] was queued: nothing more will come.
    #[must_use]
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    fn lose(&mut self, e: wire::WireError) {
        let reason = e.to_string();
        self.events.push_back(Event::BadFrame(e));
        if !self.ended {
            self.ended = true;
            self.events.push_back(Event::Disconnected {
                error: Some(reason),
            });
        }
    }

    /// The next event, `None` when the bytes received so far hold no more.
    pub fn poll_event(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.events.pop_front() {
                return Some(event);
            }
            if self.ended {
                return None;
            }
            match self.decoder.next_message() {
                Ok(None) => return None,
                Ok(Some(raw)) => self.handle(raw),
                Err(e) if e.fatal => self.lose(e),
                Err(e) => self.events.push_back(Event::BadFrame(e)),
            }
        }
    }

    fn handle(&mut self, raw: wire::RawMessage) {
        if self.protocol == Protocol::Godot4 {
            match raw.name.as_str() {
                "stack_frame_vars" => {
                    let mut it = event::Items::new(raw.data);
                    match it
                        .count(self.limits.max_items)
                        .and_then(|n| it.end().map(|()| n))
                    {
                        Ok(0) => self.events.push_back(Event::Variables(Vec::new())),
                        Ok(n) => self.variables = Some((n, Vec::new(), raw.size)),
                        Err(reason) => self.malformed(raw.name, reason),
                    }
                    return;
                }
                "stack_frame_var" => {
                    let size = raw.size;
                    match (event::variable4(raw.data), self.variables.take()) {
                        (Ok(_), Some((_, _, bytes)))
                            if bytes.saturating_add(size) > self.limits.max_message_size =>
                        {
                            let reason = format!(
                                "the frame's variables are over the limit of {} bytes; \
                                 those gathered are dropped",
                                self.limits.max_message_size
                            );
                            self.malformed(raw.name, reason);
                        }
                        (Ok(var), Some((n, mut vars, bytes))) => {
                            vars.push(var);
                            if vars.len() == n {
                                self.events.push_back(Event::Variables(vars));
                            } else {
                                self.variables = Some((n, vars, bytes + size));
                            }
                        }
                        (Ok(_), None) => {
                            self.malformed(raw.name, "no stack_frame_vars before it".into());
                        }
                        (Err(reason), _) => self.malformed(raw.name, reason),
                    }
                    return;
                }
                _ => {}
            }
        }
        match event::parse(self.protocol, raw, &self.custom_monitors) {
            Ok(event) => {
                match &event {
                    Event::Pid(pid) => self.pid = Some(*pid),
                    Event::DebugEnter(b) => {
                        self.broken = Some(b.clone());
                        self.stack.clear();
                    }
                    Event::DebugExit => {
                        self.broken = None;
                        self.stack.clear();
                    }
                    Event::StackDump(frames) => self.stack.clone_from(frames),
                    Event::MonitorNames(names) => self.custom_monitors.clone_from(names),
                    Event::Error(e) if e.warning => self.warnings += 1,
                    Event::Error(_) => self.errors += 1,
                    _ => {}
                }
                self.events.push_back(event);
            }
            Err((name, reason)) => self.malformed(name, reason),
        }
    }

    fn malformed(&mut self, name: String, reason: String) {
        self.events.push_back(Event::Malformed { name, reason });
    }

    /// Queues a command; its bytes come out of [`take_outgoing`](Self::take_outgoing).
    /// During a break, Godot 4 commands go to the thread that stopped; otherwise to the main
    /// thread.
    ///
    /// # Errors
    ///
    /// [`SendError::Unsupported`] or [`SendError::Encode`]; nothing is queued then.
    pub fn send(&mut self, command: Command) -> Result<(), SendError> {
        let thread = self
            .broken
            .as_ref()
            .and_then(|b| b.thread)
            .unwrap_or(MAIN_THREAD);
        let messages = command
            .to_messages(self.protocol, thread)
            .map_err(SendError::Unsupported)?;
        let mut bytes = Vec::new();
        for message in messages {
            bytes.extend(wire::encode(self.protocol, message).map_err(SendError::Encode)?);
        }
        self.outgoing.extend(bytes);
        Ok(())
    }

    /// The bytes queued for the game, taken.
    pub fn take_outgoing(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.outgoing)
    }

    /// The game's process id, once `set_pid` arrived (Godot 4).
    #[must_use]
    pub fn pid(&self) -> Option<i64> {
        self.pid
    }

    /// The current break, between [`Event::DebugEnter`] and [`Event::DebugExit`].
    #[must_use]
    pub fn current_break(&self) -> Option<&Break> {
        self.broken.as_ref()
    }

    /// The call stack of the current break, once [`Event::StackDump`] arrived.
    #[must_use]
    pub fn stack(&self) -> &[StackFrame] {
        &self.stack
    }

    /// How many errors (not warnings) arrived.
    #[must_use]
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// How many warnings arrived.
    #[must_use]
    pub fn warning_count(&self) -> usize {
        self.warnings
    }
}
