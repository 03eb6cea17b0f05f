//! A client for Godot's remote debugger: every debug build of a game started with
//! `--remote-debug tcp://HOST:PORT` (Godot 4) or `--remote-debug HOST:PORT` (Godot 3.2)
//! connects to it, and its printed output, errors, breaks, scene tree and objects arrive as
//! typed [`Event`]s; [`Command`]s continue a break, read the tree, inspect and set properties.
//!
//! - [`Session`]: the protocol core, sans IO (bytes in, events out; commands in, bytes out)
//!   and the connection's state (break, stack, counts).
//! - [`Debugger`] / [`Connection`]: a blocking TCP adapter that accepts one game.
//! - [`proxy`]: a proxy between a game and the Godot editor, so that both debug it at once.
//! - [`wire`]: the framing of both dialects, [`Limits`] and their defaults.
//! - `tokio::AsyncConnection` (feature `tokio`): the same connection with `async` reads and
//!   writes.
//!
//! ```no_run
//! use godot_serde_debugger::{Command, Debugger, Event};
//! use std::time::Duration;
//!
//! let debugger = Debugger::listen("127.0.0.1:0")?;
//! // start: godot --headless --path game --remote-debug tcp://127.0.0.1:<port>
//! let mut game = debugger.accept(Duration::from_secs(30))?;
//! while let Some(event) = game.next_event(Duration::from_secs(30)) {
//!     match event {
//!         Event::Output(lines) => lines.iter().for_each(|l| println!("{}", l.text)),
//!         Event::DebugEnter(_) => game.send(Command::Continue)?,
//!         Event::Disconnected { .. } => break,
//!         _ => {}
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod blocking;
mod command;
mod event;
mod link;
mod profiler;
pub mod proxy;
mod scene;
mod session;
#[cfg(feature = "tokio")]
pub mod tokio;
pub mod wire;

pub use blocking::{Connection, Debugger};
pub use command::{Command, Profiler, Unsupported};
pub use event::{
    Break, Dropped, DroppedKind, Event, OUTPUT_OVERFLOW, OutputKind, OutputLine, Scope,
    ScriptError, StackFrame, Variable,
};
pub use profiler::{Bandwidth, Monitors, RpcNodeStats, SyncStats};
pub use proxy::{ProxyConnection, ProxyEvent, ProxyListener, ProxySession, Side};
pub use scene::{
    InspectedObject, OBJECT_TOO_BIG_3, OBJECT_TOO_BIG_4, Property, SceneNode, SceneTree,
};
pub use session::{SendError, Session};
pub use wire::{Limits, Protocol, RawMessage, WireError};
