//! Live: three headless Godot 4 clients (`tests/godot/rooms_client.gd`) join a Rust server of
//! two rooms on two threads (`rooms::RoomsHost` over ENet). Each room has the chat node and
//! one spawned node of its own (A one more, by another spawner, first). "ann" stays in room A; "bob" joins A and is moved to B by
//! A's logic when he says hello; "cat" joins A and asks to move to B at once. Each client
//! sees only its room's node and chat, a moved client sees the old room's node despawned and
//! its mates leave (`peer_disconnected`), then the new room's node and mates, and the engine
//! logs no error (a path-cache id announced twice would be "Duplicate remote cache ID").

use crate::dialect::free_udp_port;
use crate::engine;
use crate::world::{Log, close_and_log, say_done, script, serve_until_line, serve_while_running};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use godot_serde_multiplayer::enet::EnetTransport;
use godot_serde_multiplayer::rooms::{Room, RoomId, RoomsEvent, RoomsHost};
use godot_serde_multiplayer::{Event, RpcMethod, RpcTable, Settings, SpawnScene, Spawner};

const A: RoomId = RoomId(1);
const B: RoomId = RoomId(2);

/// A room's logic: `say(text)` is answered with `said(from, text)` to the room (target 0),
/// logged as "ROOM said TEXT"; "/move N" moves the caller; bob's hello moves him to B.
fn logic(log: Log) -> impl FnMut(&mut Room<'_>, Event) + Send + 'static {
    move |room, event| {
        let name = room.id().0;
        match event {
            Event::Rpc(call) => {
                let Some((text,)) = room.session().args_of::<(String,)>(&call) else {
                    return;
                };
                if let Some(to) = text.strip_prefix("/move ") {
                    room.move_peer(call.from, RoomId(to.parse().unwrap_or(0)));
                    return;
                }
                room.session()
                    .rpc(0, "Chat", "said", &(call.from, text.as_str()))
                    .unwrap();
                log.lock().unwrap().push(format!("{name} said {text}"));
                if text == "hello from bob" {
                    room.move_peer(call.from, B);
                }
            }
            Event::Error { peer, error } => {
                log.lock()
                    .unwrap()
                    .push(format!("{name} ERROR {peer}: {error}"));
            }
            _ => {}
        }
    }
}

/// A client in a project of its own, run on a thread: its stdout and stderr.
fn client(
    engine: &Path,
    port: u16,
    name: &'static str,
) -> std::thread::JoinHandle<(String, String, Option<i32>)> {
    let engine = engine.to_path_buf();
    std::thread::spawn(move || {
        let scripts = [script("rooms_client.gd"), script("rooms_chat.gd")];
        let project = engine::Godot4Project::new(
            &format!("rooms_{name}"),
            &scripts.each_ref().map(PathBuf::as_path),
        );
        let out = project.run(
            &engine,
            "rooms_client.gd",
            &[&port.to_string(), name],
            Duration::from_secs(50),
        );
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    })
}

fn id_of(stdout: &str) -> i64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("ID "))
        .and_then(|id| id.trim().parse().ok())
        .unwrap_or_else(|| panic!("no ID line in {stdout}"))
}

fn at(lines: &[&str], want: &str) -> usize {
    lines
        .iter()
        .position(|l| *l == want)
        .unwrap_or_else(|| panic!("{want:?} not in {lines:?}"))
}

#[test]
fn godot4_clients_see_only_their_room_and_a_move() {
    let Some(engine) = engine::godot4_or_skip("godot4_clients_see_only_their_room_and_a_move")
    else {
        return;
    };
    let settings = Settings::default();
    let mut host = RoomsHost::new(settings.clone(), 2);
    let log: Log = Arc::default();
    for (id, thing) in [(A, "ThingA"), (B, "ThingB")] {
        host.rooms().add_room(id, logic(log.clone())).unwrap();
        host.rooms()
            .run_in(id, move |room| {
                let s = room.session();
                if thing == "ThingA" {
                    // Spawned first, so that A's first path-cache id names another path than
                    // B's first (a client holding A's ids would refuse B's otherwise).
                    s.declare_spawner(
                        Spawner::new("World/Extra", "World/Extras").scene("res://thing.tscn"),
                    );
                    s.spawn("World/Extra", SpawnScene::Index(0), "ExtraA", Vec::new())
                        .unwrap();
                }
                s.declare(
                    RpcTable::new("/root/Chat")
                        .with(RpcMethod::any_peer("say"))
                        .with(RpcMethod::authority("said")),
                );
                s.declare_spawner(
                    Spawner::new("World/Spawner", "World/Things").scene("res://thing.tscn"),
                );
                s.spawn("World/Spawner", SpawnScene::Index(0), thing, Vec::new())
                    .unwrap();
            })
            .unwrap();
    }
    host.rooms().set_lobby(A);
    assert!(!host.is_ready(), "no transport yet");
    let port = free_udp_port();
    let addr = format!("127.0.0.1:{port}").parse().unwrap();
    host.add(EnetTransport::server(addr, 8, &settings.limits).unwrap());
    assert!(host.is_ready());
    let health = host.health();
    assert!(!health.is_healthy(Duration::from_secs(5)), "never serviced");

    let mut events = Vec::new();
    let ann = client(&engine, port, "ann");
    serve_until_line(&mut host, &log, "1 said hello from ann", &mut events);
    let bob = client(&engine, port, "bob");
    serve_until_line(&mut host, &log, "2 said moved bob", &mut events);
    let cat = client(&engine, port, "cat");
    serve_until_line(&mut host, &log, "2 said moved cat", &mut events);
    assert!(health.is_healthy(Duration::from_secs(5)));
    let stats = host.rooms().stats();
    let per_room: Vec<(RoomId, usize)> = stats.rooms.iter().map(|r| (r.id, r.peers)).collect();
    assert_eq!((stats.peers, per_room), (3, vec![(A, 1), (B, 2)]));
    say_done(&mut host, &[A, B]);
    let mut outs = Vec::new();
    for (name, handle) in [("ann", ann), ("bob", bob), ("cat", cat)] {
        let (stdout, stderr, code) =
            serve_while_running(&mut host, handle, Duration::from_secs(55));
        println!("--- {name}\n{stdout}\n--- {name} stderr\n{stderr}");
        outs.push((stdout, stderr, code));
    }
    close_and_log(host, &log, &events);
    for (stdout, stderr, code) in &outs {
        let engine_errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("ERROR:") && !l.contains("global script cache"))
            .collect();
        assert!(engine_errors.is_empty(), "engine errors: {engine_errors:?}");
        assert_eq!(*code, Some(0), "client failed: {stdout}");
    }
    let (a, b, c) = (id_of(&outs[0].0), id_of(&outs[1].0), id_of(&outs[2].0));
    assert!(events.contains(&RoomsEvent::Moved {
        peer: i32::try_from(b).unwrap(),
        from: A,
        to: B
    }));
    let lines = |i: usize| outs[i].0.lines().collect::<Vec<&str>>();

    // ann: room A only.
    let ann = lines(0);
    at(&ann, "SPAWNED ThingA");
    at(&ann, &format!("SAID {a} hello from ann"));
    let bob_hello = at(&ann, &format!("SAID {b} hello from bob"));
    assert!(at(&ann, &format!("PEER- {b}")) > bob_hello);
    at(&ann, "SPAWNED ExtraA");
    assert!(
        !ann.iter()
            .any(|l| l.contains("ThingB") || l.contains("moved")),
        "ann saw room B: {ann:?}"
    );
    // cat was ann's mate until its move.
    assert!(at(&ann, &format!("PEER+ {c}")) < at(&ann, &format!("PEER- {c}")));

    // bob: A, then B — ThingA despawned and ann gone before ThingB and cat.
    let bob = lines(1);
    let gone = at(&bob, "DESPAWNED ThingA").max(at(&bob, "DESPAWNED ExtraA"));
    let ann_left = at(&bob, &format!("PEER- {a}"));
    let thing_b = at(&bob, "SPAWNED ThingB");
    assert!(gone < thing_b && ann_left < thing_b, "{bob:?}");
    at(&bob, &format!("SAID {b} moved bob"));
    assert!(at(&bob, &format!("PEER+ {c}")) > thing_b);
    at(&bob, &format!("SAID {c} moved cat"));

    // cat: moved at once; hears B only.
    let cat = lines(2);
    assert!(at(&cat, "DESPAWNED ThingA") < at(&cat, "SPAWNED ThingB"));
    assert!(at(&cat, "DESPAWNED ExtraA") < at(&cat, "SPAWNED ThingB"));
    assert!(at(&cat, &format!("PEER- {a}")) < at(&cat, &format!("PEER+ {b}")));
    at(&cat, &format!("PEER+ {b}"));
    at(&cat, &format!("SAID {c} moved cat"));
    assert!(
        !cat.iter().any(|l| l.contains("hello from")),
        "cat heard room A: {cat:?}"
    );
}
