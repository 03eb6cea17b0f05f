//! Typed messages from the game. Each known message is read into its own type; any other
//! message is kept whole as [`Event::Other`], and a known message of the wrong shape becomes
//! [`Event::Malformed`]: neither is fatal.

use crate::profiler::{self, Bandwidth, Monitors, RpcNodeStats, SyncStats};
use crate::scene::{InspectedObject, Property, SceneTree};
use crate::wire::{Protocol, RawMessage, WireError};
use godot_serde::Variant;

/// Something that happened on a debugging connection.
#[derive(Debug, PartialEq)]
pub enum Event {
    /// The game's process id (Godot 4's `set_pid`, its first message).
    Pid(i64),
    /// Printed lines (`print`, `print_rich`, `printerr`), in order.
    Output(Vec<OutputLine>),
    /// An engine or script error or warning (`push_error`, `push_warning`, runtime errors,
    /// engine `ERR_*` macros).
    Error(ScriptError),
    /// The game stopped in the debugger (a script error, a breakpoint, `breakpoint` or a
    /// `break` command) and waits for [`Command::Continue`](crate::Command::Continue) or a step.
    DebugEnter(Break),
    /// The game left the break and runs again.
    DebugExit,
    /// The call stack of the break (answer to `get_stack_dump`), innermost frame first.
    StackDump(Vec<StackFrame>),
    /// The variables of one stack frame (answer to `get_stack_frame_vars`): locals, then
    /// members, then globals.
    Variables(Vec<Variable>),
    /// The result of an `evaluate` command (Godot 4).
    Evaluation(Variable),
    /// The game's scene tree (answer to `request_scene_tree`).
    SceneTree(SceneTree),
    /// Objects and their properties (answer to `inspect_objects` / `inspect_object`).
    Objects(Vec<InspectedObject>),
    /// A sample of the performance monitors (about once a second while the game runs).
    Monitors(Monitors),
    /// The custom monitors' names changed (Godot 4's `performance:profile_names`); later
    /// [`Event::Monitors`] carry them.
    MonitorNames(Vec<String>),
    /// Multiplayer bandwidth over the last second (network profiler).
    Bandwidth(Bandwidth),
    /// Remote calls per node since the previous sample (network profiler); empty when none.
    RpcProfile(Vec<RpcNodeStats>),
    /// `MultiplayerSynchronizer` traffic since the previous sample (Godot 4's replication
    /// profiler); empty when none.
    SyncProfile(Vec<SyncStats>),
    /// The engine stopped sending errors or warnings for up to a second because the game
    /// raised more than its per-second limit, or dropped messages its queue could not hold
    /// (the engine's `TOO_MANY_*` notices, sent as `error` messages; never counted as a
    /// script error). See [`OutputKind::Overflow`] for printed text.
    Dropped(Dropped),
    /// A message this crate has no type for (the script and servers profilers'
    /// frames, `window:title`, ...), whole.
    Other(RawMessage),
    /// A known message whose data has the wrong shape; `reason` says what was wrong.
    Malformed {
        /// The message name.
        name: String,
        /// What did not match.
        reason: String,
    },
    /// A frame that could not be read. Not fatal unless [`WireError::fatal`], after which
    /// [`Event::Disconnected`] follows.
    BadFrame(WireError),
    /// The game closed the connection (or it failed, with the reason). The last event.
    Disconnected {
        /// Why, when the connection failed rather than closed.
        error: Option<String>,
    },
}

/// What kind of printed line an [`OutputLine`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputKind {
    /// `print` (type 0).
    Log,
    /// `printerr` and other standard-error output (type 1).
    Error,
    /// `print_rich` (Godot 4, type 2), BBCode kept. Godot 4 also gives this kind to plain
    /// lines it joined in front of a rich one in the same flush.
    Rich,
    /// A type this crate does not know.
    Other(i64),
    /// The engine's notice `[output overflow, print less text!]`: the game printed more
    /// than the engine's per-second character limit; the line before it was cut (the
    /// engine ends it with `[...]`) and the rest of that second's output is dropped.
    Overflow,
}

/// The engine's text for [`OutputKind::Overflow`] (both engines).
pub const OUTPUT_OVERFLOW: &str = "[output overflow, print less text!]";

/// What the engine dropped, in an [`Event::Dropped`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DroppedKind {
    /// Errors beyond `max_errors_per_second` (`TOO_MANY_ERRORS`).
    Errors,
    /// Warnings beyond `max_warnings_per_second` (`TOO_MANY_WARNINGS`).
    Warnings,
    /// Messages the engine could not queue (Godot 4's `TOO_MANY_MESSAGES`, beyond
    /// `max_queued_messages`).
    Messages,
}

/// An engine notice that it dropped errors, warnings or messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// What was dropped.
    pub what: DroppedKind,
    /// The engine's text, e.g. `"Too many errors! Ignoring errors for up to 1 second."`
    /// (Godot 4's `TOO_MANY_MESSAGES` says how many were dropped).
    pub description: String,
    /// When, since the engine started: hours, minutes, seconds, milliseconds.
    pub time: [i64; 4],
}

impl Dropped {
    /// The notice an `error` message is, if it is one: a `TOO_MANY_*` code with no source
    /// and no call stack (what the engine's own notices carry; a script's `push_error`
    /// always has a source).
    fn from_error(e: &ScriptError) -> Option<Dropped> {
        let what = match e.message.as_str() {
            "TOO_MANY_ERRORS" => DroppedKind::Errors,
            "TOO_MANY_WARNINGS" => DroppedKind::Warnings,
            "TOO_MANY_MESSAGES" => DroppedKind::Messages,
            _ => return None,
        };
        let bare = e.source_file.is_empty() && e.source_function.is_empty();
        (bare && e.callstack.is_empty()).then(|| Dropped {
            what,
            description: e.description.clone(),
            time: e.time,
        })
    }
}

impl OutputKind {
    fn of_line(text: &str, code: i64) -> Self {
        if text == OUTPUT_OVERFLOW && (code == 0 || code == 1) {
            OutputKind::Overflow
        } else {
            OutputKind::from_code(code)
        }
    }

    fn from_code(code: i64) -> Self {
        match code {
            0 => OutputKind::Log,
            1 => OutputKind::Error,
            2 => OutputKind::Rich,
            other => OutputKind::Other(other),
        }
    }

    /// A lowercase name: `log`, `error`, `rich`, `other` or `overflow`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            OutputKind::Log => "log",
            OutputKind::Error => "error",
            OutputKind::Rich => "rich",
            OutputKind::Other(_) => "other",
            OutputKind::Overflow => "overflow",
        }
    }
}

/// One printed text. Godot 4 joins consecutive `print` lines of one frame with `\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputLine {
    /// The text, without a trailing newline.
    pub text: String,
    /// Its kind.
    pub kind: OutputKind,
}

/// One frame of a call stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackFrame {
    /// The script, e.g. `res://main.gd`.
    pub file: String,
    /// The function.
    pub function: String,
    /// The line (1-based).
    pub line: i64,
}

/// An `error` message: an error or warning with where it was raised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// When, since the engine started: hours, minutes, seconds, milliseconds.
    pub time: [i64; 4],
    /// The error text, e.g. `"bad thing"` for `push_error("bad thing")`, or a warning code
    /// such as `UNUSED_VARIABLE` for GDScript's parser warnings.
    pub message: String,
    /// The longer description (may be empty).
    pub description: String,
    /// Whether this is a warning (`push_warning`, parser warnings) rather than an error.
    pub warning: bool,
    /// The C++ (or script) source that raised it: for `push_error` the engine's own
    /// `variant_utility.cpp`, for a runtime script error the script.
    pub source_file: String,
    /// The function in [`source_file`](Self::source_file).
    pub source_function: String,
    /// The line in [`source_file`](Self::source_file).
    pub source_line: i64,
    /// The script call stack when it was raised, innermost first (empty outside scripts).
    pub callstack: Vec<StackFrame>,
}

impl ScriptError {
    /// The innermost script frame, where a script raised it: `callstack[0]`, if any.
    #[must_use]
    pub fn script_frame(&self) -> Option<&StackFrame> {
        self.callstack.first()
    }
}

/// A `debug_enter`: why the game stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Break {
    /// Whether the game can go on from here (false after a script error).
    pub can_continue: bool,
    /// The reason: the script error's text, or `"Breakpoint"`.
    pub reason: String,
    /// Whether a script stack is available (Godot 4; always true for Godot 3).
    pub has_stack: bool,
    /// The thread that stopped (Godot 4); commands during the break go to it.
    pub thread: Option<i64>,
}

/// Where a [`Variable`] lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// A local of the frame (0).
    Local,
    /// A member of `self` (1).
    Member,
    /// A global (2).
    Global,
    /// An `evaluate` result (3, Godot 4).
    Evaluation,
    /// A code this crate does not know.
    Other(i64),
}

impl Scope {
    fn from_code(code: i64) -> Self {
        match code {
            0 => Scope::Local,
            1 => Scope::Member,
            2 => Scope::Global,
            3 => Scope::Evaluation,
            other => Scope::Other(other),
        }
    }
}

/// A named value of a stack frame, or an evaluation result.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// The name (for an evaluation, the expression).
    pub name: String,
    /// Where it lives.
    pub scope: Scope,
    /// The value; objects arrive as `EncodedObjectAsID` objects holding `object_id`, and values
    /// the engine found too large to send as `null`.
    pub value: Variant,
}

/// The reading of a message's data items, one after another.
pub(crate) struct Items {
    items: std::vec::IntoIter<Variant>,
    at: usize,
}

impl Items {
    pub(crate) fn new(data: Vec<Variant>) -> Self {
        Items {
            items: data.into_iter(),
            at: 0,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.items.len() == 0
    }

    pub(crate) fn any(&mut self) -> Result<Variant, String> {
        let at = self.at;
        self.at += 1;
        self.items
            .next()
            .ok_or_else(|| format!("item {at} missing"))
    }

    fn wrong(&self, what: &str, got: &Variant) -> String {
        format!(
            "item {}: expected {what}, got {:?}",
            self.at.saturating_sub(1),
            got.variant_type()
        )
    }

    pub(crate) fn string(&mut self) -> Result<String, String> {
        let value = self.any()?;
        match &value {
            Variant::String(s) => Ok(s.to_string()),
            Variant::StringName(_) => Ok(value.as_str().unwrap_or_default().to_owned()),
            other => Err(self.wrong("a String", other)),
        }
    }

    pub(crate) fn int(&mut self) -> Result<i64, String> {
        let value = self.any()?;
        match value {
            Variant::Int(n) => Ok(n),
            other => Err(self.wrong("an int", &other)),
        }
    }

    pub(crate) fn count(&mut self, limit: usize) -> Result<usize, String> {
        let n = self.int()?;
        match usize::try_from(n) {
            Ok(n) if n <= limit => Ok(n),
            _ => Err(format!(
                "item {}: count {n} is negative or over {limit}",
                self.at - 1
            )),
        }
    }

    pub(crate) fn bool(&mut self) -> Result<bool, String> {
        let value = self.any()?;
        match value {
            Variant::Bool(b) => Ok(b),
            other => Err(self.wrong("a bool", &other)),
        }
    }

    pub(crate) fn array(&mut self) -> Result<Vec<Variant>, String> {
        let value = self.any()?;
        match value {
            Variant::Array(a) => Ok(a.items),
            other => Err(self.wrong("an Array", &other)),
        }
    }

    pub(crate) fn end(&self) -> Result<(), String> {
        match self.items.len() {
            0 => Ok(()),
            n => Err(format!("{n} unexpected items after item {}", self.at)),
        }
    }
}

/// One `stack_frame_var` of Godot 4: `[name, scope, type, value]`.
pub(crate) fn variable4(data: Vec<Variant>) -> Result<Variable, String> {
    let mut it = Items::new(data);
    let name = it.string()?;
    let scope = Scope::from_code(it.int()?);
    let _type = it.int()?;
    let value = it.any()?;
    it.end()?;
    Ok(Variable { name, scope, value })
}

/// Parsing of the messages that stand alone (every one but Godot 4's `stack_frame_var`s,
/// which the session gathers). `Ok(None)`: the name is not one of them.
pub(crate) fn parse(
    protocol: Protocol,
    raw: RawMessage,
    custom_monitors: &[String],
) -> Result<Event, (String, String)> {
    let name = raw.name.clone();
    let result = match (protocol, raw.name.as_str()) {
        (Protocol::Godot4, "set_pid") => one_int(raw.data).map(Event::Pid),
        (Protocol::Godot4, "output") => output4(raw.data).map(Event::Output),
        (Protocol::Godot3, "output") => output3(raw.data).map(Event::Output),
        (Protocol::Godot4, "error") => error4(raw.data).map(error_event),
        (Protocol::Godot3, "error") => error3(raw.data).map(error_event),
        (_, "debug_enter") => debug_enter(protocol, raw.data).map(Event::DebugEnter),
        (_, "debug_exit") => Ok(Event::DebugExit),
        (Protocol::Godot4, "stack_dump") => stack_dump4(raw.data).map(Event::StackDump),
        (Protocol::Godot3, "stack_dump") => stack_dump3(raw.data).map(Event::StackDump),
        (Protocol::Godot3, "stack_frame_vars") => variables3(raw.data).map(Event::Variables),
        (Protocol::Godot4, "evaluation_return") => variable4(raw.data).map(Event::Evaluation),
        (Protocol::Godot4, "scene:scene_tree") => {
            SceneTree::parse(raw.data, 6).map(Event::SceneTree)
        }
        (Protocol::Godot3, "message:scene_tree") => {
            SceneTree::parse(raw.data, 4).map(Event::SceneTree)
        }
        (Protocol::Godot4, "scene:inspect_objects") => {
            objects(protocol, raw.data).map(Event::Objects)
        }
        (Protocol::Godot4, "scene:inspect_object")
        | (Protocol::Godot3, "message:inspect_object") => {
            InspectedObject::parse(protocol, raw.data).map(|o| Event::Objects(vec![o]))
        }
        (Protocol::Godot4, "performance:profile_frame") | (Protocol::Godot3, "performance") => {
            profiler::monitors(protocol, raw.data, custom_monitors).map(Event::Monitors)
        }
        (Protocol::Godot4, "performance:profile_names") => {
            profiler::monitor_names(raw.data).map(Event::MonitorNames)
        }
        (Protocol::Godot4, "multiplayer:bandwidth") | (Protocol::Godot3, "network_bandwidth") => {
            profiler::bandwidth(raw.data).map(Event::Bandwidth)
        }
        (Protocol::Godot4, "multiplayer:rpc") | (Protocol::Godot3, "network_profile") => {
            profiler::rpc_profile(protocol, raw.data).map(Event::RpcProfile)
        }
        (Protocol::Godot4, "multiplayer:syncs") => {
            profiler::sync_profile(raw.data).map(Event::SyncProfile)
        }
        _ => return Ok(Event::Other(raw)),
    };
    result.map_err(|reason| (name, reason))
}

fn one_int(data: Vec<Variant>) -> Result<i64, String> {
    let mut it = Items::new(data);
    let n = it.int()?;
    it.end()?;
    Ok(n)
}

fn output4(data: Vec<Variant>) -> Result<Vec<OutputLine>, String> {
    let mut it = Items::new(data);
    let texts = match it.any()? {
        Variant::PackedStringArray(texts) => texts,
        other => return Err(it.wrong("a PackedStringArray", &other)),
    };
    let kinds = match it.any()? {
        Variant::PackedInt32Array(kinds) => kinds,
        other => return Err(it.wrong("a PackedInt32Array", &other)),
    };
    it.end()?;
    let texts: Vec<String> = texts.into_iter().collect();
    let kinds: Vec<i32> = kinds.into_iter().collect();
    if texts.len() != kinds.len() {
        return Err(format!("{} texts but {} types", texts.len(), kinds.len()));
    }
    Ok(texts
        .into_iter()
        .zip(kinds)
        .map(|(text, kind)| OutputLine {
            kind: OutputKind::of_line(&text, i64::from(kind)),
            text,
        })
        .collect())
}

fn output3(data: Vec<Variant>) -> Result<Vec<OutputLine>, String> {
    data.into_iter()
        .map(|line| {
            let Variant::Array(line) = line else {
                return Err(format!(
                    "expected [text, type], got {:?}",
                    line.variant_type()
                ));
            };
            let mut it = Items::new(line.items);
            let text = it.string()?;
            let kind = OutputKind::of_line(&text, it.int()?);
            it.end()?;
            Ok(OutputLine { text, kind })
        })
        .collect()
}

/// An `error` message as an event: the engine's `TOO_MANY_*` notices are [`Event::Dropped`].
fn error_event(e: ScriptError) -> Event {
    match Dropped::from_error(&e) {
        Some(dropped) => Event::Dropped(dropped),
        None => Event::Error(e),
    }
}

/// The call stack tail of an error: `3 * n`, then `file, function, line` n times.
fn callstack(it: &mut Items, limit: usize) -> Result<Vec<StackFrame>, String> {
    triples(it, limit.saturating_mul(3), "call stack", false)
}

/// A count `3 * n` (at most `limit`), then n frames of three items: `file, function, line`,
/// or with `line_first` `file, line, function`. `what` names the list in the error.
fn triples(
    it: &mut Items,
    limit: usize,
    what: &str,
    line_first: bool,
) -> Result<Vec<StackFrame>, String> {
    let size = it.count(limit)?;
    if size % 3 != 0 {
        return Err(format!("{what} size {size} is not a multiple of 3"));
    }
    let mut frames = Vec::new();
    for _ in 0..size / 3 {
        let file = it.string()?;
        let (function, line) = if line_first {
            let line = it.int()?;
            (it.string()?, line)
        } else {
            (it.string()?, it.int()?)
        };
        frames.push(StackFrame {
            file,
            function,
            line,
        });
    }
    Ok(frames)
}

/// An error's own fields: `hr, min, sec, msec`, the source (`file, function, line`, or with
/// `function_first` `function, file, line`), then `error, description, warning`; its call
/// stack is left empty.
fn error_fields(it: &mut Items, function_first: bool) -> Result<ScriptError, String> {
    let time = [it.int()?, it.int()?, it.int()?, it.int()?];
    let (source_file, source_function) = if function_first {
        let function = it.string()?;
        (it.string()?, function)
    } else {
        (it.string()?, it.string()?)
    };
    Ok(ScriptError {
        time,
        source_file,
        source_function,
        source_line: it.int()?,
        message: it.string()?,
        description: it.string()?,
        warning: it.bool()?,
        callstack: Vec::new(),
    })
}

/// Godot 4: `[hr, min, sec, msec, file, function, line, error, description, warning,
/// 3 * n, (file, function, line) * n]`.
fn error4(data: Vec<Variant>) -> Result<ScriptError, String> {
    let limit = data.len();
    let mut it = Items::new(data);
    let mut error = error_fields(&mut it, false)?;
    error.callstack = callstack(&mut it, limit)?;
    it.end()?;
    Ok(error)
}

/// Godot 3.2: `[[hr, min, sec, msec, function, file, line, error, description, warning],
/// 3 * n, (file, function, line) * n]` (the function before the file).
fn error3(data: Vec<Variant>) -> Result<ScriptError, String> {
    let limit = data.len();
    let mut it = Items::new(data);
    let mut head = Items::new(it.array()?);
    let mut error = error_fields(&mut head, true)?;
    head.end()?;
    error.callstack = callstack(&mut it, limit)?;
    it.end()?;
    Ok(error)
}

fn debug_enter(protocol: Protocol, data: Vec<Variant>) -> Result<Break, String> {
    let mut it = Items::new(data);
    let can_continue = it.bool()?;
    let reason = it.string()?;
    let (has_stack, thread) = match protocol {
        Protocol::Godot4 => (it.bool()?, Some(it.int()?)),
        Protocol::Godot3 => (true, None),
    };
    it.end()?;
    Ok(Break {
        can_continue,
        reason,
        has_stack,
        thread,
    })
}

/// Godot 4: `[3 * n, (file, line, function) * n]` (line before function here).
fn stack_dump4(data: Vec<Variant>) -> Result<Vec<StackFrame>, String> {
    let limit = data.len();
    let mut it = Items::new(data);
    let frames = triples(&mut it, limit, "stack", true)?;
    it.end()?;
    Ok(frames)
}

/// Godot 3.2: one Dictionary per frame, `{file, function, id, line}`.
fn stack_dump3(data: Vec<Variant>) -> Result<Vec<StackFrame>, String> {
    data.into_iter()
        .map(|frame| {
            let Variant::Dictionary(d) = frame else {
                return Err(format!(
                    "expected a Dictionary, got {:?}",
                    frame.variant_type()
                ));
            };
            let text = |key: &str| {
                d.get(key)
                    .and_then(Variant::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| format!("frame without a String {key:?}"))
            };
            Ok(StackFrame {
                file: text("file")?,
                function: text("function")?,
                line: d
                    .get("line")
                    .and_then(Variant::as_int)
                    .ok_or("frame without an int \"line\"")?,
            })
        })
        .collect()
}

/// Godot 3.2: `[n, (name, value) * n]` for locals, then members, then globals.
fn variables3(data: Vec<Variant>) -> Result<Vec<Variable>, String> {
    let limit = data.len();
    let mut it = Items::new(data);
    let mut all = Vec::new();
    for scope in [Scope::Local, Scope::Member, Scope::Global] {
        let n = it.count(limit)?;
        for _ in 0..n {
            let name = it.string()?;
            let value = it.any()?;
            all.push(Variable { name, scope, value });
        }
    }
    it.end()?;
    Ok(all)
}

/// Godot 4.4+: one `[id, class, properties]` per object.
fn objects(protocol: Protocol, data: Vec<Variant>) -> Result<Vec<InspectedObject>, String> {
    data.into_iter()
        .map(|object| match object {
            Variant::Array(a) => InspectedObject::parse(protocol, a.items),
            other => Err(format!(
                "expected an object Array, got {:?}",
                other.variant_type()
            )),
        })
        .collect()
}

/// A property entry: `[name, type, hint, hint_string, usage, value]`; with the protocol's
/// `PROPERTY_HINT_OBJECT_TOO_BIG`, an empty hint string and a `null` value it is
/// [`Property::too_big`].
pub(crate) fn property(protocol: Protocol, entry: Variant) -> Result<Property, String> {
    let Variant::Array(entry) = entry else {
        return Err(format!(
            "expected a property Array, got {:?}",
            entry.variant_type()
        ));
    };
    let mut it = Items::new(entry.items);
    let property = Property {
        name: it.string()?,
        type_id: it.int()?,
        hint: it.int()?,
        hint_string: it.string()?,
        usage: it.int()?,
        value: it.any()?,
        too_big: false,
    };
    it.end()?;
    let too_big_hint = match protocol {
        Protocol::Godot4 => crate::scene::OBJECT_TOO_BIG_4,
        Protocol::Godot3 => crate::scene::OBJECT_TOO_BIG_3,
    };
    Ok(Property {
        too_big: property.hint == too_big_hint
            && property.hint_string.is_empty()
            && property.value == Variant::Nil,
        ..property
    })
}
