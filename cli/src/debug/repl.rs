//! `debug run --repl`: commands read from stdin, one a line, applied to the running game in
//! order, each after the previous one's answer: `tree`, `inspect TARGET`, `set TARGET
//! PROPERTY VALUE`, `monitors`, `wait TEXT` (until the game prints a line containing TEXT). TARGET is an instance id or a node path (`/root/Player`, looked
//! up in a fresh scene tree); VALUE is in Godot's text form (`Vector2(10, 20)`, `true`,
//! `"text"`).

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use godot_serde::Variant;
use godot_serde_debugger::{Command, Event, InspectedObject, Monitors, SceneTree};
use serde_json::json;

use super::{Game, Report};
use crate::input::Failure;

/// How long a command waits for the game's answer before it is given up: 10 s (`wait` has
/// no limit but `--timeout`).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug)]
enum Target {
    Id(u64),
    Path(String),
}

#[derive(Debug)]
enum Op {
    Tree,
    Inspect(Target),
    Set(Target, String, Variant),
    Monitors,
    Wait(String),
}

/// What the command at the head of the queue waits for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Waiting {
    Nothing,
    Tree,
    Objects,
    Monitors,
    Output,
}

/// The command queue and the stdin reader.
pub(super) struct Repl {
    lines: Receiver<String>,
    stdin_open: bool,
    queue: VecDeque<Op>,
    waiting: Waiting,
    since: Instant,
}

fn parse(line: &str) -> Result<Option<Op>, String> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim_start();
    let target = |t: &str| -> Result<Target, String> {
        if t.starts_with('/') {
            Ok(Target::Path(t.to_owned()))
        } else {
            t.parse()
                .map(Target::Id)
                .map_err(|_| format!("{t:?} is neither an instance id nor a node path"))
        }
    };
    match word {
        "" => Ok(None),
        "tree" if rest.is_empty() => Ok(Some(Op::Tree)),
        "monitors" if rest.is_empty() => Ok(Some(Op::Monitors)),
        "wait" if !rest.is_empty() => Ok(Some(Op::Wait(rest.to_owned()))),
        "inspect" if !rest.is_empty() && !rest.contains(char::is_whitespace) => {
            Ok(Some(Op::Inspect(target(rest)?)))
        }
        "set" => {
            let (t, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let rest = rest.trim_start();
            let (property, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if property.is_empty() || value.trim().is_empty() {
                return Err("usage: set TARGET PROPERTY VALUE".into());
            }
            let value = godot_serde::text::parse_variant(value.trim())
                .map_err(|e| format!("the value is not in Godot's text form: {e}"))?;
            Ok(Some(Op::Set(target(t)?, property.to_owned(), value)))
        }
        _ => Err(format!(
            "unknown command {line:?} (tree, inspect TARGET, set TARGET PROPERTY VALUE, \
             monitors, wait TEXT)"
        )),
    }
}

impl Repl {
    /// Starts the stdin reader thread.
    pub(super) fn start() -> Repl {
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Repl {
            lines,
            stdin_open: true,
            queue: VecDeque::new(),
            waiting: Waiting::Nothing,
            since: Instant::now(),
        }
    }

    /// Takes the lines typed so far and runs the commands that can run.
    pub(super) fn poll<W: Write>(
        &mut self,
        game: &mut dyn Game,
        report: &mut Report<'_, W>,
    ) -> Result<(), Failure> {
        while self.stdin_open {
            match self.lines.try_recv() {
                Ok(line) => match parse(&line) {
                    Ok(Some(op)) => self.queue.push_back(op),
                    Ok(None) => {}
                    Err(e) => report.note("repl", &e)?,
                },
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => self.stdin_open = false,
            }
        }
        let bounded = !matches!(self.waiting, Waiting::Nothing | Waiting::Output);
        if bounded && self.since.elapsed() > ANSWER_TIMEOUT {
            report.note(
                "repl",
                &format!("no answer within {ANSWER_TIMEOUT:?}; skipped"),
            )?;
            self.queue.pop_front();
            self.waiting = Waiting::Nothing;
        }
        // Commands go out once the game's first message told its dialect.
        if game.protocol().is_none() {
            return Ok(());
        }
        self.start_next(game, report)
    }

    fn wait(&mut self, what: Waiting) {
        self.waiting = what;
        self.since = Instant::now();
    }

    /// Sends what the head command needs, while nothing is awaited.
    fn start_next<W: Write>(
        &mut self,
        game: &mut dyn Game,
        report: &mut Report<'_, W>,
    ) -> Result<(), Failure> {
        while self.waiting == Waiting::Nothing {
            let Some(op) = self.queue.front() else {
                return Ok(());
            };
            let command = match op {
                Op::Tree | Op::Inspect(Target::Path(_)) | Op::Set(Target::Path(_), _, _) => {
                    Some((Command::RequestSceneTree, Waiting::Tree))
                }
                Op::Inspect(Target::Id(id)) => {
                    Some((Command::InspectObjects(vec![*id]), Waiting::Objects))
                }
                Op::Monitors => {
                    self.wait(Waiting::Monitors);
                    None
                }
                Op::Wait(_) => {
                    self.wait(Waiting::Output);
                    None
                }
                Op::Set(Target::Id(id), property, value) => {
                    let command = Command::SetObjectProperty {
                        id: *id,
                        property: property.clone(),
                        value: value.clone(),
                    };
                    self.set_done(game, report, command)?;
                    continue;
                }
            };
            if let Some((command, waiting)) = command {
                match game.send(command) {
                    Ok(()) => self.wait(waiting),
                    Err(e) => {
                        report.note("repl", &e.to_string())?;
                        self.queue.pop_front();
                    }
                }
            }
        }
        Ok(())
    }

    fn set_done<W: Write>(
        &mut self,
        game: &mut dyn Game,
        report: &mut Report<'_, W>,
        command: Command,
    ) -> Result<(), Failure> {
        self.queue.pop_front();
        let Command::SetObjectProperty {
            id,
            property,
            value,
        } = &command
        else {
            return Ok(());
        };
        let text = godot_serde::text::variant_to_string(value);
        let line = if report.json {
            json!({"event": "set", "id": id, "property": property, "value": crate::json::to_json(value)})
                .to_string()
        } else {
            format!("set {id} {property} = {text}")
        };
        match game.send(command) {
            Ok(()) => report.repl_line(&line),
            Err(e) => report.note("repl", &e.to_string()),
        }
    }

    /// An event from the game: the answer the head command waits for, if it is one.
    pub(super) fn event<W: Write>(
        &mut self,
        event: &Event,
        game: &mut dyn Game,
        report: &mut Report<'_, W>,
    ) -> Result<(), Failure> {
        // The first event tells the dialect: commands typed before it start now, so that a
        // `wait` sees the lines of this very event (Godot 3 sends its first lines in one).
        if self.waiting == Waiting::Nothing && game.protocol().is_some() {
            self.start_next(game, report)?;
        }
        match (self.waiting, event) {
            (Waiting::Tree, Event::SceneTree(tree)) => {
                self.waiting = Waiting::Nothing;
                self.tree(tree, report)?;
            }
            (Waiting::Objects, Event::Objects(objects)) => {
                self.waiting = Waiting::Nothing;
                self.queue.pop_front();
                for object in objects {
                    report.repl_line(&object_text(object, report.json))?;
                }
            }
            (Waiting::Monitors, Event::Monitors(monitors)) => {
                self.waiting = Waiting::Nothing;
                self.queue.pop_front();
                report.repl_line(&monitors_text(monitors, report.json))?;
            }
            (Waiting::Output, Event::Output(lines)) => {
                let Some(Op::Wait(text)) = self.queue.front() else {
                    return Ok(());
                };
                if !lines.iter().any(|l| l.text.contains(text.as_str())) {
                    return Ok(());
                }
                self.waiting = Waiting::Nothing;
                self.queue.pop_front();
            }
            _ => return Ok(()),
        }
        self.start_next(game, report)
    }

    /// The tree arrived: printed for `tree`, or a path resolved to an id.
    fn tree<W: Write>(
        &mut self,
        tree: &SceneTree,
        report: &mut Report<'_, W>,
    ) -> Result<(), Failure> {
        let Some(op) = self.queue.pop_front() else {
            return Ok(());
        };
        let resolve = |path: &str| tree.get(path).map(|node| node.id);
        match op {
            Op::Tree => report.repl_line(&tree_text(tree, report.json)),
            Op::Inspect(Target::Path(path)) => match resolve(&path) {
                Some(id) => {
                    self.queue.push_front(Op::Inspect(Target::Id(id)));
                    Ok(())
                }
                None => report.note("repl", &format!("no node {path} in the scene tree")),
            },
            Op::Set(Target::Path(path), property, value) => match resolve(&path) {
                Some(id) => {
                    self.queue
                        .push_front(Op::Set(Target::Id(id), property, value));
                    Ok(())
                }
                None => report.note("repl", &format!("no node {path} in the scene tree")),
            },
            other => {
                self.queue.push_front(other);
                Ok(())
            }
        }
    }
}

fn tree_text(tree: &SceneTree, json: bool) -> String {
    let nodes: Vec<_> = tree
        .paths()
        .into_iter()
        .filter_map(|path| tree.get(&path).map(|node| (path.clone(), node)))
        .collect();
    if json {
        let nodes: Vec<_> = nodes
            .iter()
            .map(|(path, n)| json!({"path": path, "class": n.class, "id": n.id}))
            .collect();
        return json!({"event": "tree", "nodes": nodes}).to_string();
    }
    nodes
        .iter()
        .map(|(path, n)| format!("{path} {} {}", n.class, n.id))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Categories and groups (type 0, no value) are left out.
fn object_text(object: &InspectedObject, json: bool) -> String {
    let properties = object
        .properties
        .iter()
        .filter(|p| !(p.type_id == 0 && p.value == Variant::Nil));
    if json {
        let map: serde_json::Map<String, serde_json::Value> = properties
            .map(|p| (p.name.clone(), crate::json::to_json(&p.value)))
            .collect();
        return json!({"event": "object", "id": object.id, "class": object.class, "properties": map})
            .to_string();
    }
    let mut text = format!("object {} {}", object.id, object.class);
    for p in properties {
        text.push_str(&format!(
            "\n  {} = {}",
            p.name,
            godot_serde::text::variant_to_string(&p.value)
        ));
    }
    text
}

fn monitors_text(monitors: &Monitors, json: bool) -> String {
    let named = monitors.named();
    if json {
        let map: serde_json::Map<String, serde_json::Value> = named
            .iter()
            .map(|(name, value)| ((*name).to_owned(), json!(value)))
            .collect();
        return json!({"event": "monitors", "values": map}).to_string();
    }
    named
        .iter()
        .map(|(name, value)| match value {
            Some(v) => format!("{name} {v}"),
            None => format!("{name} null"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert!(matches!(parse("tree"), Ok(Some(Op::Tree))));
        assert!(matches!(parse("  "), Ok(None)));
        assert!(matches!(
            parse("inspect /root/Player"),
            Ok(Some(Op::Inspect(Target::Path(p)))) if p == "/root/Player"
        ));
        assert!(matches!(
            parse("inspect 123"),
            Ok(Some(Op::Inspect(Target::Id(123))))
        ));
        match parse("set /root/P position Vector2(10, 20)") {
            Ok(Some(Op::Set(Target::Path(p), prop, v))) => {
                assert_eq!((p.as_str(), prop.as_str()), ("/root/P", "position"));
                assert_eq!(v, Variant::Vector2(godot_serde::Vector2::new(10.0, 20.0)));
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            "inspect",
            "inspect x",
            "set 1 position",
            "set 1 p Vector2(",
            "frobnicate",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
