//! Commands to the game, and their names and data in each dialect.

use crate::wire::{Protocol, RawMessage};
use godot_serde::Variant;

/// Something the debugger asks of the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Leave the break and run on.
    Continue,
    /// Step into the next line (during a break).
    Step,
    /// Step over to the next line (during a break).
    Next,
    /// Stop the running game in the debugger (answered by [`Event::DebugEnter`](crate::Event)).
    Break,
    /// Ask for the break's call stack ([`Event::StackDump`](crate::Event::StackDump)).
    GetStackDump,
    /// Ask for the variables of stack frame `n`, 0 the innermost
    /// ([`Event::Variables`](crate::Event::Variables)).
    GetStackFrameVars(u32),
    /// Evaluate an expression in stack frame `frame` during a break (Godot 4;
    /// [`Event::Evaluation`](crate::Event::Evaluation)).
    Evaluate {
        /// The expression, e.g. `"x + 1"`.
        expression: String,
        /// The stack frame, 0 the innermost.
        frame: u32,
    },
    /// Set or clear a breakpoint.
    Breakpoint {
        /// The script, e.g. `res://main.gd`.
        file: String,
        /// The line (1-based).
        line: u32,
        /// Set (true) or clear (false).
        enabled: bool,
    },
    /// Ignore (true) or honour (false) every breakpoint.
    SetSkipBreakpoints(bool),
    /// Reload these scripts (Godot 4: by path, every script when the list is empty, sent as
    /// `reload_all_scripts`; Godot 3 reloads every script).
    ReloadScripts(Vec<String>),
    /// Stop (false) or do not stop (true) the game in the debugger on a script error
    /// (Godot 4's `set_ignore_error_breaks`).
    SetIgnoreErrorBreaks(bool),
    /// Ask for the scene tree ([`Event::SceneTree`](crate::Event::SceneTree)).
    RequestSceneTree,
    /// Ask for these objects' properties ([`Event::Objects`](crate::Event::Objects); Godot 3
    /// answers one message per object).
    InspectObjects(Vec<u64>),
    /// Set a property of an object in the running game.
    SetObjectProperty {
        /// The object's instance id.
        id: u64,
        /// The property, e.g. `"position"`.
        property: String,
        /// The new value.
        value: Variant,
    },
    /// Suspend (true) or resume (false) the game's main loop (Godot 4.4+).
    Suspend(bool),
    /// Run one frame while suspended (Godot 4.4+): exactly one `_process` runs, then the game
    /// is suspended again.
    NextFrame,
    /// Scale the game's time by this factor on top of its own `Engine.time_scale` (Godot
    /// 4.5+'s `scene:speed_changed`, the editor's game speed; 1.0 is normal speed).
    TimeScale(f64),
    /// Start (true) or stop (false) a profiler. Its samples arrive as events
    /// ([`Event::Bandwidth`](crate::Event::Bandwidth), ...).
    Profile {
        /// Which.
        profiler: Profiler,
        /// Start or stop.
        enable: bool,
    },
    /// Any other message, by its name and data.
    Raw {
        /// The message name, e.g. `"profiler:servers"`.
        name: String,
        /// The data items.
        data: Vec<Variant>,
    },
}

/// A profiler of the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Profiler {
    /// The network profiler: bandwidth and remote calls per node
    /// ([`Event::Bandwidth`](crate::Event::Bandwidth),
    /// [`Event::RpcProfile`](crate::Event::RpcProfile)), on Godot 4 also synchronizer traffic
    /// ([`Event::SyncProfile`](crate::Event::SyncProfile)). Godot 4: `profiler:multiplayer:bandwidth`,
    /// `profiler:multiplayer:rpc` and `profiler:multiplayer:replication`; Godot 3.2:
    /// `start_network_profiling` / `stop_network_profiling`.
    Network,
    /// A Godot 4 profiler by name (`profiler:<name>`, e.g. `"scripts"`, `"servers"`,
    /// `"visual"`), with its options; its samples arrive as [`Event::Other`](crate::Event::Other).
    Named {
        /// The name after `profiler:`.
        name: String,
        /// The options array (empty: none sent).
        options: Vec<Variant>,
    },
}

/// A command the connected engine has no message for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    /// The command's name here.
    pub command: &'static str,
    /// The engine connected.
    pub protocol: Protocol,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is not supported by {:?}",
            self.command, self.protocol
        )
    }
}

impl std::error::Error for Unsupported {}

fn int(n: impl Into<i64>) -> Variant {
    Variant::Int(n.into())
}

fn id(n: u64) -> Variant {
    Variant::Int(n as i64)
}

impl Command {
    /// The message(s) for `protocol`, addressed to `thread` (Godot 4).
    ///
    /// # Errors
    ///
    /// [`Unsupported`] when the engine has no such message.
    pub fn to_messages(
        self,
        protocol: Protocol,
        thread: i64,
    ) -> Result<Vec<RawMessage>, Unsupported> {
        let g4 = protocol == Protocol::Godot4;
        let unsupported = |command| Err(Unsupported { command, protocol });
        let one = |name: &str, data: Vec<Variant>| {
            Ok(vec![RawMessage {
                name: name.to_owned(),
                thread: g4.then_some(thread),
                data,
                size: 0,
            }])
        };
        match self {
            Command::Continue => one("continue", vec![]),
            Command::Step => one("step", vec![]),
            Command::Next => one("next", vec![]),
            Command::Break => one("break", vec![]),
            Command::GetStackDump => one("get_stack_dump", vec![]),
            Command::GetStackFrameVars(level) => one("get_stack_frame_vars", vec![int(level)]),
            Command::Evaluate { expression, frame } if g4 => {
                one("evaluate", vec![expression.as_str().into(), int(frame)])
            }
            Command::Evaluate { .. } => unsupported("Evaluate"),
            Command::Breakpoint {
                file,
                line,
                enabled,
            } => one(
                "breakpoint",
                vec![file.as_str().into(), int(line), Variant::Bool(enabled)],
            ),
            Command::SetSkipBreakpoints(skip) => {
                one("set_skip_breakpoints", vec![Variant::Bool(skip)])
            }
            Command::ReloadScripts(paths) if g4 && paths.is_empty() => {
                one("reload_all_scripts", vec![])
            }
            Command::ReloadScripts(paths) if g4 => one(
                "reload_scripts",
                paths.iter().map(|p| Variant::from(p.as_str())).collect(),
            ),
            Command::ReloadScripts(_) => one("reload_scripts", vec![]),
            Command::SetIgnoreErrorBreaks(ignore) if g4 => {
                one("set_ignore_error_breaks", vec![Variant::Bool(ignore)])
            }
            Command::SetIgnoreErrorBreaks(_) => unsupported("SetIgnoreErrorBreaks"),
            Command::RequestSceneTree if g4 => one("scene:request_scene_tree", vec![]),
            Command::RequestSceneTree => one("request_scene_tree", vec![]),
            Command::InspectObjects(ids) if g4 => one(
                "scene:inspect_objects",
                vec![
                    Variant::from(ids.into_iter().map(id).collect::<Vec<_>>()),
                    Variant::Bool(false),
                ],
            ),
            Command::InspectObjects(ids) => Ok(ids
                .into_iter()
                .map(|n| RawMessage {
                    name: "inspect_object".into(),
                    thread: None,
                    data: vec![id(n)],
                    size: 0,
                })
                .collect()),
            Command::SetObjectProperty {
                id: object,
                property,
                value,
            } => one(
                if g4 {
                    "scene:set_object_property"
                } else {
                    "set_object_property"
                },
                vec![id(object), property.as_str().into(), value],
            ),
            Command::Suspend(on) if g4 => one("scene:suspend_changed", vec![Variant::Bool(on)]),
            Command::Suspend(_) => unsupported("Suspend"),
            Command::NextFrame if g4 => one("scene:next_frame", vec![]),
            Command::NextFrame => unsupported("NextFrame"),
            Command::TimeScale(scale) if g4 => {
                one("scene:speed_changed", vec![Variant::Float(scale)])
            }
            Command::TimeScale(_) => unsupported("TimeScale"),
            Command::Profile {
                profiler: Profiler::Network,
                enable,
            } if g4 => Ok(["bandwidth", "rpc", "replication"]
                .into_iter()
                .map(|p| RawMessage {
                    name: format!("profiler:multiplayer:{p}"),
                    thread: Some(thread),
                    data: vec![Variant::Bool(enable)],
                    size: 0,
                })
                .collect()),
            Command::Profile {
                profiler: Profiler::Network,
                enable,
            } => one(
                if enable {
                    "start_network_profiling"
                } else {
                    "stop_network_profiling"
                },
                vec![],
            ),
            Command::Profile {
                profiler: Profiler::Named { name, options },
                enable,
            } if g4 => {
                let mut data = vec![Variant::Bool(enable)];
                if !options.is_empty() {
                    data.push(Variant::from(options));
                }
                one(&format!("profiler:{name}"), data)
            }
            Command::Profile { .. } => unsupported("Profile"),
            Command::Raw { name, data } => one(&name, data),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(command: Command, protocol: Protocol) -> Vec<(String, Vec<Variant>)> {
        command
            .to_messages(protocol, 1)
            .unwrap()
            .into_iter()
            .map(|m| (m.name, m.data))
            .collect()
    }

    /// Godot 4's `reload_scripts` reloads the paths it is given, none for an empty list;
    /// every script is `reload_all_scripts` (core/debugger/remote_debugger.cpp).
    #[test]
    fn reloading_every_script_on_godot4_is_reload_all_scripts() {
        assert_eq!(
            names(Command::ReloadScripts(vec![]), Protocol::Godot4),
            [("reload_all_scripts".to_owned(), vec![])]
        );
        assert_eq!(
            names(
                Command::ReloadScripts(vec!["res://a.gd".into()]),
                Protocol::Godot4
            ),
            [(
                "reload_scripts".to_owned(),
                vec![Variant::from("res://a.gd")]
            )]
        );
        // Godot 3.2's `reload_scripts` takes no data and reloads every script.
        assert_eq!(
            names(
                Command::ReloadScripts(vec!["res://a.gd".into()]),
                Protocol::Godot3
            ),
            [("reload_scripts".to_owned(), vec![])]
        );
    }

    /// scene_debugger.cpp (4.5+): `speed_changed` reads `p_args[0]` as a double.
    #[test]
    fn time_scale_is_scene_speed_changed_with_a_float() {
        assert_eq!(
            names(Command::TimeScale(0.25), Protocol::Godot4),
            [("scene:speed_changed".to_owned(), vec![Variant::Float(0.25)])]
        );
        assert!(
            Command::TimeScale(0.25)
                .to_messages(Protocol::Godot3, 1)
                .is_err()
        );
        assert!(
            Command::Suspend(true)
                .to_messages(Protocol::Godot3, 1)
                .is_err()
        );
    }
}
