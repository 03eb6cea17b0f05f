//! What the live replication tests share (`live_replication`, `live_interest`, `live_world`):
//! the player and input state `tests/godot/replication_world.gd` builds its player with, their
//! synchronizers and spawner, the Godot 4 project of a client script with the GDScript
//! generated from them, the report of an `interest_client.gd` run, and the serve loop of a
//! [`RoomsHost`] until its log shows a line.
#![allow(dead_code)]

use crate::engine;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use godot_serde::{Variant, Vector2};
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::rooms::{RoomId, RoomsEvent, RoomsHost};
use godot_serde_multiplayer::{NodeId, Session, SpawnScene, TransferMode};
use godot_serde_multiplayer::{ReplicationConfig, ReplicationMode, Spawner, Synchronizer};
use serde::{Deserialize, Serialize};

/// The player's synchronized state, in the config's order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub position: Vector2,
    pub rotation: f64,
    pub z_index: i64,
}

/// The client-owned input.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub skew: f64,
}

/// The player's synchronizer: position always, rotation on change, z_index spawn-only.
pub fn player_sync() -> Synchronizer {
    let config = ReplicationConfig::for_struct::<Player>(ReplicationMode::Always)
        .unwrap()
        .set(".:rotation", true, ReplicationMode::OnChange)
        .set(".:z_index", true, ReplicationMode::Never);
    Synchronizer::new("Sync", config)
}

/// The input's synchronizer (its authority set where a client owns it).
pub fn input_sync() -> Synchronizer {
    let config = ReplicationConfig::for_struct::<Input>(ReplicationMode::Always).unwrap();
    Synchronizer::new("Input", config)
}

/// The spawner of `res://player.tscn` under `World/Players`.
pub fn spawner() -> Spawner {
    Spawner::new("World/Spawner", "World/Players").scene("res://player.tscn")
}

/// `tests/godot/{name}`.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/godot")
        .join(name)
}

/// The Godot 4 project `name` of the client script `main`: with `replication_world.gd` and the
/// declarations generated from [`spawner`], [`player_sync`] and [`input_sync`] as
/// `res://replication.gd`.
pub fn project(name: &str, main: &str) -> engine::Godot4Project {
    let scripts = [script(main), script("replication_world.gd")];
    let project = engine::Godot4Project::new(name, &scripts.each_ref().map(PathBuf::as_path));
    let generated = gdscript::script(
        &[("players", &spawner())],
        &[("player", &player_sync()), ("input", &input_sync())],
    );
    std::fs::write(project.dir.join("replication.gd"), generated).unwrap();
    project
}

/// The state of a player at (`x`, 0), rotation and z_index 0.
pub fn at(x: f32) -> Vec<Variant> {
    let p = Player {
        position: Vector2::new(godot_serde::Real::from(x), 0.0),
        rotation: 0.0,
        z_index: 0,
    };
    godot_serde_multiplayer::args::to_arguments(&p).unwrap()
}

/// Spawns the player `name` (scene 0 of [`spawner`]) with its state at (`x`, 0) and places the
/// node there for the interest rule.
pub fn spawn_player_at(s: &mut Session, name: &str, x: f32) -> NodeId {
    let node = s
        .spawn(
            "World/Spawner",
            SpawnScene::Index(0),
            name,
            vec![(player_sync(), at(x))],
        )
        .unwrap();
    s.set_node_position(node, [x, 0.0]).unwrap();
    node
}

/// What an `interest_client.gd` run reports: its id, its SPAWNED/DESPAWNED names in order,
/// its final HAS line, its whole stdout.
pub struct InterestClient {
    pub id: i32,
    pub events: Vec<String>,
    pub has: String,
    pub stdout: String,
}

/// Prints the run's output and reads its report; asserts that the engine refused nothing we
/// sent (its only error line is the harmless script cache) and that the client exited 0.
pub fn interest_client(out: &std::process::Output) -> InterestClient {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    println!("{stdout}\n--- stderr\n{stderr}");
    let engine_errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("ERROR:") && !l.contains("global script cache"))
        .collect();
    assert!(engine_errors.is_empty(), "engine errors: {engine_errors:?}");
    assert_eq!(out.status.code(), Some(0), "client failed: {stdout}");
    let id = stdout
        .lines()
        .find_map(|l| l.strip_prefix("ID "))
        .and_then(|id| id.trim().parse().ok())
        .expect("the client's id");
    let events = stdout
        .lines()
        .filter(|l| l.starts_with("SPAWNED") || l.starts_with("DESPAWNED"))
        .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    let has = stdout
        .lines()
        .find_map(|l| l.strip_prefix("HAS "))
        .unwrap_or("(none)")
        .to_owned();
    InterestClient {
        id,
        events,
        has,
        stdout,
    }
}

/// A rooms test's log, written by the rooms' logic on their threads.
pub type Log = Arc<Mutex<Vec<String>>>;

/// Serves `host` until `log` holds the line `line`; see [`serve_until`].
pub fn serve_until_line(host: &mut RoomsHost, log: &Log, line: &str, events: &mut Vec<RoomsEvent>) {
    serve_until(host, log, line, |l| l == line, events);
}

/// Serves `host` until `log` holds a line starting with `prefix`; see [`serve_until`].
pub fn serve_until_prefix(
    host: &mut RoomsHost,
    log: &Log,
    prefix: &str,
    events: &mut Vec<RoomsEvent>,
) {
    serve_until(host, log, prefix, |l| l.starts_with(prefix), events);
}

/// Serves `host` until a line of `log` satisfies `until` (60 s at most, then panics naming
/// `what`); the rooms' events are kept in `events`.
fn serve_until(
    host: &mut RoomsHost,
    log: &Log,
    what: &str,
    until: impl Fn(&str) -> bool,
    events: &mut Vec<RoomsEvent>,
) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        host.service().unwrap();
        while let Some(e) = host.rooms().poll_event() {
            events.push(e);
        }
        if log.lock().unwrap().iter().any(|l| until(l)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("not seen: {what:?}; log {:?}", log.lock().unwrap());
}

/// Sends "done" (reliable, channel 0) to every peer of each of `rooms`: the clients' cue to
/// report and quit.
pub fn say_done(host: &mut RoomsHost, rooms: &[RoomId]) {
    for &room in rooms {
        host.rooms()
            .run_in(room, |room| {
                let s = room.session();
                for peer in s.peers().collect::<Vec<_>>() {
                    s.send_bytes(peer, b"done", TransferMode::Reliable, 0)
                        .unwrap();
                }
            })
            .unwrap();
    }
}

/// Serves `host` until the client thread `handle` ends (or `patience` passes), then joins it.
pub fn serve_while_running<T>(
    host: &mut RoomsHost,
    handle: std::thread::JoinHandle<T>,
    patience: Duration,
) -> T {
    let deadline = Instant::now() + patience;
    while !handle.is_finished() && Instant::now() < deadline {
        host.service().unwrap();
        std::thread::sleep(Duration::from_millis(2));
    }
    handle.join().unwrap()
}

/// Closes `host` and returns its rooms' log, printed with `events`; asserts that no room
/// logged an error.
pub fn close_and_log(mut host: RoomsHost, log: &Log, events: &[RoomsEvent]) -> Vec<String> {
    host.close();
    let log = log.lock().unwrap().clone();
    println!("server log: {log:?}\nrooms events: {events:?}");
    assert!(
        !log.iter().any(|l| l.contains("ERROR")),
        "server errors: {log:?}"
    );
    log
}
