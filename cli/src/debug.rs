//! `godot-serde debug run`: runs a Godot debug build with its remote debugger pointed at us,
//! prints what the game prints and every error as it arrives (text or JSON Lines), continues
//! after script errors, and exits with the game's status (or 1 with `--fail-on-error` when a
//! script error occurred in a game that exited 0); with `--repl`, commands on stdin (tree,
//! inspect, set, monitors, wait) are applied to the running game (`repl`). With `--proxy
//! HOST:PORT` the game is joined to the Godot editor's debugger at that address as well
//! (`godot_serde_debugger::proxy`): the editor sees and drives the game as usual, and breaks
//! are left to it while it is connected.

use std::ffi::OsString;
use std::io::Write;
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use godot_serde_debugger::{
    Command, Connection, Debugger, Event, OutputKind, Protocol, ProxyConnection, ProxyEvent,
    ProxyListener, ScriptError, SendError, StackFrame,
};
use serde_json::json;

use crate::input::Failure;

mod repl;

/// `godot-serde debug ...`
#[derive(Subcommand, Debug)]
pub enum DebugCommand {
    /// Run a Godot debug build under the remote debugger: print its output and errors, continue
    /// after script errors, exit with its status.
    Run(RunArgs),
    /// Join a game started elsewhere (`--remote-debug tcp://127.0.0.1:PORT`) to the Godot
    /// editor's debugger, and report its output and errors as `debug run` does.
    Proxy(ProxyArgs),
}

/// `godot-serde debug proxy`
#[derive(Args, Debug)]
pub struct ProxyArgs {
    /// The port on 127.0.0.1 the game connects to.
    #[arg(long, value_name = "PORT")]
    pub listen: u16,
    /// The editor's debugger address.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:6007")]
    pub editor: String,
    /// Print one JSON object per event (JSON Lines) on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Exit with 1 when a script error occurred.
    #[arg(long)]
    pub fail_on_error: bool,
    /// Give up after this many seconds (exit code 124); 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    pub timeout: u64,
}

/// Serves one game started by someone else through the proxy; `Ok(code)` is the exit code:
/// 0, or 1 with `--fail-on-error` after a script error.
pub fn proxy<W: Write>(args: &ProxyArgs, out: &mut W) -> Result<u8, Failure> {
    let listener = Listener::Proxy(
        ProxyListener::listen(("127.0.0.1", args.listen), args.editor.as_str()).map_err(|e| {
            Failure::input(format!(
                "cannot listen on 127.0.0.1:{}, or resolve the editor {:?}: {e}",
                args.listen, args.editor
            ))
        })?,
    );
    let deadline = deadline(args.timeout);
    let mut report = Report::new(out, args.json);
    let code = match serve(&listener, None, deadline, &mut report, None) {
        Ok(()) => 0,
        Err(Stop::TimedOut) => {
            report.note("timeout", &format!("gave up after {} s", args.timeout))?;
            124
        }
        Err(Stop::Failed(f)) => return Err(f),
    };
    let failed = args.fail_on_error && report.script_errors > 0 && code == 0;
    let exit = if failed { 1 } else { code };
    if report.json {
        report.line(&json!({
            "event": "exit",
            "script_errors": report.script_errors,
            "warnings": report.warnings,
            "exit_code": exit,
        }))?;
    }
    Ok(exit)
}

/// `godot-serde debug run`
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Print one JSON object per event (JSON Lines) on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Exit with 1 when a script error occurred (a runtime error, push_error) and the game
    /// exited with 0.
    #[arg(long)]
    pub fail_on_error: bool,
    /// The engine is Godot 3 (its flag is `--remote-debug HOST:PORT`, without `tcp://`).
    #[arg(long)]
    pub godot3: bool,
    /// Also pass the engine's own stdout and stderr through (they repeat what the debugger
    /// reports, and show what happens before it connects).
    #[arg(long)]
    pub engine_output: bool,
    /// Read commands from stdin, one a line, and apply them to the running game in order:
    /// `tree`, `inspect TARGET`, `set TARGET PROPERTY VALUE`, `monitors` (TARGET: an instance
    /// id or a node path such as `/root/Player`; VALUE in Godot's text form, e.g.
    /// `Vector2(10, 20)`). Their answers go to stdout.
    #[arg(long)]
    pub repl: bool,
    /// Also join the game to the Godot editor's debugger listening at HOST:PORT (the editor's
    /// default is 127.0.0.1:6007): both see its output and errors, the editor continues its
    /// breaks while connected (we do once it is gone), and answers go to the side that asked.
    #[arg(long, value_name = "HOST:PORT")]
    pub proxy: Option<String>,
    /// Kill the game after this many seconds (exit code 124); 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    pub timeout: u64,
    /// The Godot command and its arguments (after `--`), e.g. `godot --headless --path game`.
    #[arg(required = true, last = true, value_name = "GODOT_COMMAND")]
    pub command: Vec<OsString>,
}

/// What the event loop and the REPL need of a game's connection: direct, or through the
/// proxy to the editor.
pub(crate) trait Game {
    /// The dialect, once known.
    fn protocol(&self) -> Option<Protocol>;
    /// Sends a command of ours.
    fn send(&mut self, command: Command) -> Result<(), SendError>;
    /// The next event, or a note (`event`, `message`) about the editor's side.
    fn next(&mut self, timeout: Duration) -> Option<Result<Event, (&'static str, String)>>;
    /// Whether we answer breaks (false while an editor is connected and does).
    fn continues_breaks(&self) -> bool;
}

impl Game for Connection {
    fn protocol(&self) -> Option<Protocol> {
        Connection::protocol(self)
    }
    fn send(&mut self, command: Command) -> Result<(), SendError> {
        Connection::send(self, command)
    }
    fn next(&mut self, timeout: Duration) -> Option<Result<Event, (&'static str, String)>> {
        self.next_event(timeout).map(Ok)
    }
    fn continues_breaks(&self) -> bool {
        true
    }
}

impl Game for ProxyConnection {
    fn protocol(&self) -> Option<Protocol> {
        self.core().protocol()
    }
    fn send(&mut self, command: Command) -> Result<(), SendError> {
        ProxyConnection::send(self, command)
    }
    fn next(&mut self, timeout: Duration) -> Option<Result<Event, (&'static str, String)>> {
        loop {
            match self.next_event(timeout)? {
                ProxyEvent::Game(event) => return Some(Ok(event)),
                ProxyEvent::EditorClosed { error } if !self.core().game_ended() => {
                    let why = error.map(|e| format!(": {e}")).unwrap_or_default();
                    return Some(Err((
                        "editor_closed",
                        format!("the editor's debugger is gone{why}; the game runs on with us"),
                    )));
                }
                ProxyEvent::EditorClosed { .. } | ProxyEvent::Withheld { .. } => {}
            }
        }
    }
    fn continues_breaks(&self) -> bool {
        !self.core().editor_open()
    }
}

/// How long to wait for the game to connect after it started: 30 s.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// The poll interval of the event loop (the game's exit and the timeout are checked in it).
const POLL: Duration = Duration::from_millis(100);

struct Report<'a, W: Write> {
    out: &'a mut W,
    json: bool,
    /// Script errors seen (breaks, and errors raised from a script).
    script_errors: usize,
    warnings: usize,
    /// The reason of the last break, so that Godot 4's `error` message repeating it is not
    /// printed twice in text mode.
    last_break: Option<String>,
}

fn io(e: std::io::Error) -> Failure {
    Failure::input(format!("cannot write the output: {e}"))
}

fn frame_json(f: &StackFrame) -> serde_json::Value {
    json!({"file": f.file, "function": f.function, "line": f.line})
}

fn frame_text(f: &StackFrame) -> String {
    format!("{} ({}:{})", f.function, f.file, f.line)
}

/// When `--timeout` seconds (0: never) from now have passed.
fn deadline(timeout: u64) -> Option<Instant> {
    (timeout > 0).then(|| Instant::now() + Duration::from_secs(timeout))
}

impl<'a, W: Write> Report<'a, W> {
    /// A report to `out` (`json`: one JSON object a line), with nothing counted yet.
    fn new(out: &'a mut W, json: bool) -> Self {
        Report {
            out,
            json,
            script_errors: 0,
            warnings: 0,
            last_break: None,
        }
    }

    fn line(&mut self, value: &serde_json::Value) -> Result<(), Failure> {
        writeln!(self.out, "{value}").map_err(io)?;
        self.out.flush().map_err(io)
    }

    fn output(&mut self, text: &str, kind: OutputKind) -> Result<(), Failure> {
        if self.json {
            return self.line(&json!({"event": "output", "kind": kind.name(), "text": text}));
        }
        if kind == OutputKind::Error {
            eprintln!("{text}");
            Ok(())
        } else {
            writeln!(self.out, "{text}").map_err(io)?;
            self.out.flush().map_err(io)
        }
    }

    fn error(&mut self, e: &ScriptError) -> Result<(), Failure> {
        let from_script = !e.callstack.is_empty();
        let repeat = self.last_break.as_deref() == Some(e.message.as_str());
        if e.warning {
            self.warnings += 1;
        } else if from_script && !repeat {
            self.script_errors += 1;
        }
        if self.json {
            return self.line(&json!({
                "event": "error",
                "warning": e.warning,
                "message": e.message,
                "description": e.description,
                "source": {"file": e.source_file, "function": e.source_function, "line": e.source_line},
                "callstack": e.callstack.iter().map(frame_json).collect::<Vec<_>>(),
            }));
        }
        if repeat {
            self.last_break = None;
            return Ok(());
        }
        let label = if e.warning { "WARNING" } else { "ERROR" };
        let text = if e.description.is_empty() {
            &e.message
        } else {
            &e.description
        };
        eprintln!("{label}: {text}");
        eprintln!(
            "   at: {} ({}:{})",
            e.source_function, e.source_file, e.source_line
        );
        for (i, f) in e.callstack.iter().enumerate() {
            eprintln!("   [{i}] {}", frame_text(f));
        }
        Ok(())
    }

    /// A break begins: counted, and remembered so that Godot 4's `error` message repeating
    /// it (sent during the break, before the stack dump) is neither counted nor printed twice.
    fn enter_break(&mut self, reason: &str) {
        self.script_errors += 1;
        self.last_break = Some(reason.to_owned());
    }

    fn script_break(&mut self, reason: &str, stack: &[StackFrame]) -> Result<(), Failure> {
        if self.json {
            return self.line(&json!({
                "event": "break",
                "reason": reason,
                "stack": stack.iter().map(frame_json).collect::<Vec<_>>(),
            }));
        }
        eprintln!("SCRIPT ERROR: {reason}");
        for (i, f) in stack.iter().enumerate() {
            eprintln!("   [{i}] {}", frame_text(f));
        }
        Ok(())
    }

    /// An answer to a `--repl` command: text lines or one JSON line, on stdout.
    fn repl_line(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.out, "{text}").map_err(io)?;
        self.out.flush().map_err(io)
    }

    fn note(&mut self, event: &str, message: &str) -> Result<(), Failure> {
        if self.json {
            return self.line(&json!({"event": event, "message": message}));
        }
        eprintln!("debugger: {message}");
        Ok(())
    }
}

/// The engine's arguments with `--remote-debug` inserted first (before any `--`).
fn engine_process(args: &RunArgs, port: u16) -> Result<Process, Failure> {
    let (program, rest) = args
        .command
        .split_first()
        .ok_or_else(|| Failure::input("no Godot command given after --"))?;
    let target = if args.godot3 {
        format!("127.0.0.1:{port}")
    } else {
        format!("tcp://127.0.0.1:{port}")
    };
    let mut process = Process::new(program);
    process.arg("--remote-debug").arg(target).args(rest);
    process.stdin(Stdio::null());
    if !args.engine_output {
        process.stdout(Stdio::null()).stderr(Stdio::null());
    }
    Ok(process)
}

/// The exit code for the game's status.
fn status_code(child: &mut Child) -> Result<u8, Failure> {
    let status = child
        .wait()
        .map_err(|e| Failure::input(format!("cannot wait for the game: {e}")))?;
    Ok(match status.code() {
        Some(code) => u8::try_from(code & 0xff).unwrap_or(1),
        // Killed by a signal: 128 + the signal, as shells report it.
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt as _;
                status
                    .signal()
                    .and_then(|s| u8::try_from(128 + s).ok())
                    .unwrap_or(1)
            }
            #[cfg(not(unix))]
            {
                1
            }
        }
    })
}

/// Runs the game; `Ok(code)` is the process exit code.
pub fn run<W: Write>(args: &RunArgs, out: &mut W) -> Result<u8, Failure> {
    let listener = match &args.proxy {
        None => Listener::Direct(
            Debugger::listen("127.0.0.1:0")
                .map_err(|e| Failure::input(format!("cannot listen on 127.0.0.1: {e}")))?,
        ),
        Some(editor) => Listener::Proxy(
            ProxyListener::listen("127.0.0.1:0", editor.as_str()).map_err(|e| {
                Failure::input(format!(
                    "cannot listen, or resolve the editor {editor:?}: {e}"
                ))
            })?,
        ),
    };
    let port = listener
        .local_addr()
        .map_err(|e| Failure::input(format!("cannot read the listening port: {e}")))?
        .port();
    let mut child = engine_process(args, port)?.spawn().map_err(|e| {
        Failure::input(format!(
            "cannot start {}: {e}",
            args.command
                .first()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default()
        ))
    })?;
    let deadline = deadline(args.timeout);
    let mut report = Report::new(out, args.json);
    let mut repl = args.repl.then(repl::Repl::start);
    let result = serve(
        &listener,
        Some(&mut child),
        deadline,
        &mut report,
        repl.as_mut(),
    );
    let code = match result {
        Ok(()) => status_code(&mut child)?,
        Err(Stop::TimedOut) => {
            let _ = child.kill();
            let _ = child.wait();
            report.note(
                "timeout",
                &format!("killed the game after {} s", args.timeout),
            )?;
            124
        }
        Err(Stop::Failed(f)) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(f);
        }
    };
    let failed = args.fail_on_error && report.script_errors > 0 && code == 0;
    let exit = if failed { 1 } else { code };
    if report.json {
        report.line(&json!({
            "event": "exit",
            "status": code,
            "script_errors": report.script_errors,
            "warnings": report.warnings,
            "exit_code": exit,
        }))?;
    } else if failed {
        eprintln!(
            "debugger: {} script error(s); exiting with 1 (--fail-on-error)",
            report.script_errors
        );
    }
    Ok(exit)
}

enum Stop {
    TimedOut,
    Failed(Failure),
}

impl From<Failure> for Stop {
    fn from(f: Failure) -> Self {
        Stop::Failed(f)
    }
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// Where the game connects: to us, or to the proxy to the editor.
enum Listener {
    Direct(Debugger),
    Proxy(ProxyListener),
}

impl Listener {
    fn local_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        match self {
            Listener::Direct(d) => d.local_addr(),
            Listener::Proxy(p) => p.local_addr(),
        }
    }

    fn accept(&self, timeout: Duration) -> std::io::Result<Box<dyn Game>> {
        Ok(match self {
            Listener::Direct(d) => Box::new(d.accept(timeout)?),
            Listener::Proxy(p) => Box::new(p.accept(timeout)?),
        })
    }
}

/// Accepts the game and reports its events until it disconnects.
fn serve<W: Write>(
    debugger: &Listener,
    mut child: Option<&mut Child>,
    deadline: Option<Instant>,
    report: &mut Report<'_, W>,
    mut repl: Option<&mut repl::Repl>,
) -> Result<(), Stop> {
    let connect_by = Instant::now() + CONNECT_TIMEOUT;
    let mut game: Box<dyn Game> = loop {
        match debugger.accept(POLL) {
            Ok(game) => break game,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(e) => return Err(Failure::input(format!("cannot accept the game: {e}")).into()),
        }
        if let Some(Ok(Some(status))) = child.as_mut().map(|c| c.try_wait()) {
            return Err(Failure::input(format!(
                "the game exited ({status}) without connecting to the debugger: is it a \
                 debug build, and is the command a Godot engine?"
            ))
            .into());
        }
        if past(deadline) {
            return Err(Stop::TimedOut);
        }
        if child.is_some() && Instant::now() >= connect_by {
            return Err(Failure::input(format!(
                "the game did not connect to the debugger within {CONNECT_TIMEOUT:?}"
            ))
            .into());
        }
    };
    // The break waiting for its stack dump before it is reported and continued.
    let mut pending_break: Option<String> = None;
    loop {
        if past(deadline) {
            return Err(Stop::TimedOut);
        }
        if let Some(repl) = repl.as_deref_mut() {
            repl.poll(game.as_mut(), report)?;
        }
        let event = match game.next(POLL) {
            None => continue,
            Some(Ok(event)) => event,
            Some(Err((event, message))) => {
                report.note(event, &message)?;
                continue;
            }
        };
        if let Some(repl) = repl.as_deref_mut() {
            repl.event(&event, game.as_mut(), report)?;
        }
        match event {
            Event::Output(lines) => {
                for line in lines {
                    report.output(&line.text, line.kind)?;
                }
            }
            Event::Error(e) => report.error(&e)?,
            Event::DebugEnter(b) => {
                report.enter_break(&b.reason);
                if b.has_stack && game.send(Command::GetStackDump).is_ok() {
                    pending_break = Some(b.reason);
                } else {
                    report.script_break(&b.reason, &[])?;
                    if game.continues_breaks() {
                        let _ = game.send(Command::Continue);
                    }
                }
            }
            Event::StackDump(stack) => {
                if let Some(reason) = pending_break.take() {
                    report.script_break(&reason, &stack)?;
                    if game.continues_breaks() {
                        let _ = game.send(Command::Continue);
                    }
                }
            }
            Event::BadFrame(e) => report.note("bad_frame", &e.to_string())?,
            Event::Malformed { name, reason } => {
                report.note("malformed", &format!("message {name:?}: {reason}"))?;
            }
            Event::Disconnected { error } => {
                if let Some(error) = error {
                    report.note("disconnected", &error)?;
                }
                return Ok(());
            }
            _ => {}
        }
    }
}
