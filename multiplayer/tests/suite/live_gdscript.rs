//! The GDScript generated from the Rust tables, loaded in the live engines: a headless Godot 4.6
//! client and a Godot 3.2.3 client put it on their Lobby node and exchange calls (and, in
//! Godot 3, remote sets) with a Rust server that declares the same tables. A wrong name, mode
//! or (Godot 4) checksum would show as a refused call or a `ChecksumMismatch`.

use crate::dialect::serve_engine;
use crate::engine;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::thread::JoinHandle;
use std::time::Duration;

use godot_serde::{Variant, Vector2};
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::gdscript::{Signature, Stubs};
use godot_serde_multiplayer::godot3::enet::Enet3Peer;
use godot_serde_multiplayer::godot3::{NodeTable, RemoteMode};
use godot_serde_multiplayer::transport::{Dialect, Peer, SocketTransport};
use godot_serde_multiplayer::{Event, Limits, RpcMethod, RpcTable, Settings, TransferMode};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Default, Debug, PartialEq)]
struct Chat {
    text: String,
    volume: i64,
}

fn dir(sub: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(sub)
        .join(name)
}

fn stubs() -> Stubs {
    Stubs::new()
        .signature("chat", Signature::of(&Chat::default()).unwrap())
        .signature("said", Signature::of(&(0_i64, String::new())).unwrap())
}

fn table4() -> RpcTable {
    RpcTable::new("/root/Lobby")
        .with(RpcMethod::any_peer("chat"))
        .with(RpcMethod::authority("said"))
        .with(
            RpcMethod::any_peer("move")
                .transfer(TransferMode::UnreliableOrdered)
                .channel(1),
        )
        .with(RpcMethod::authority("tick").call_local())
}

fn table3() -> NodeTable {
    NodeTable::new("/root/Lobby")
        .method("chat", RemoteMode::Remote)
        .method("said", RemoteMode::Puppet)
        .method("shout", RemoteMode::RemoteSync)
        .property("score", RemoteMode::Remote)
        .property("hp", RemoteMode::Puppet)
}

fn check(name: &str, out: &std::process::Output) -> usize {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let ok = stdout
        .lines()
        .filter(|l| l.starts_with("CASE ") && l.ends_with(" ok"))
        .count();
    assert!(
        out.status.success() && !stdout.contains("FAIL"),
        "{name}: {}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    ok
}

/// Writes a generated script to `{name}` in a fresh temporary directory `{tag}_{pid}`;
/// returns the directory (the caller removes it) and the file.
fn write_generated(tag: &str, name: &str, script: &str) -> (PathBuf, PathBuf) {
    let tmp = std::env::temp_dir().join(format!("{tag}_{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let generated = tmp.join(name);
    std::fs::write(&generated, script).unwrap();
    (tmp, generated)
}

/// What both engines' generated clients must give: no error on our side, `cases` engine
/// cases passed, and the one chat the client script sends (`"hi"`, volume 3).
fn assert_chat_outcome(ok: usize, cases: usize, errors: &[String], chats: &[Chat]) {
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(ok, cases);
    assert_eq!(
        chats,
        [Chat {
            text: "hi".into(),
            volume: 3
        }]
    );
}

/// The Godot 4 project `tag` of a client of a generated script: `client` (of `tests/godot`,
/// which extends `lobby_client4.gd`, copied beside it) and the generated `script` as
/// `res://{name}`. Returns the temporary directory of the generated file (the caller removes
/// it) and the project.
fn client_project4(
    tag: &str,
    client: &str,
    name: &str,
    script: &str,
) -> (PathBuf, engine::Godot4Project) {
    let (tmp, generated) = write_generated(tag, name, script);
    let scripts = [
        dir("godot", client),
        dir("godot", "lobby_client4.gd"),
        generated,
    ];
    let scripts: Vec<&Path> = scripts.iter().map(PathBuf::as_path).collect();
    (tmp, engine::Godot4Project::new(tag, &scripts))
}

/// A Rust ENet server for up to 4 clients on a free port of 127.0.0.1, declaring `table`.
fn server4(table: RpcTable) -> (EnetPeer, u16) {
    let mut server =
        EnetPeer::server("127.0.0.1:0".parse().unwrap(), 4, Settings::default()).unwrap();
    server.session().declare(table);
    let port = server.local_addr().unwrap().port();
    (server, port)
}

/// Runs `script` of `project` in Godot 4 (its one argument the server's `port`) on a thread.
fn spawn4(
    engine: &Path,
    project: engine::Godot4Project,
    script: &'static str,
    port: u16,
) -> JoinHandle<Output> {
    let engine = engine.to_owned();
    std::thread::spawn(move || {
        project.run(
            &engine,
            script,
            &[&port.to_string()],
            Duration::from_secs(60),
        )
    })
}

/// Services `server` until the engine's `client` has exited (at most 70 s), handing each
/// event but the errors to `on_event`, then 20 times more so that the last answers go out;
/// returns the engine cases passed ([`check`] of `name`) and the errors' text.
fn serve<T: SocketTransport, S: Dialect>(
    name: &str,
    server: &mut Peer<T, S>,
    client: JoinHandle<Output>,
    on_event: impl FnMut(&mut Peer<T, S>, Event),
) -> (usize, Vec<String>) {
    let (out, errors) = serve_engine(server, client, on_event);
    (check(name, &out), errors)
}

#[test]
fn generated_godot4_script_talks_to_the_rust_server() {
    let Some(engine) = engine::godot4_or_skip("generated_godot4_script_talks_to_the_rust_server")
    else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let script = stubs()
        .signature(
            "move",
            Signature::of(&(Vector2 { x: 0.0, y: 0.0 },)).unwrap(),
        )
        .godot4(&table4())
        .unwrap();
    let (tmp, project) = client_project4("gen4", "gen_client4.gd", "generated4.gd", &script);
    let (mut server, port) = server4(table4());
    let client = spawn4(&engine, project, "gen_client4.gd", port);
    let mut chats = Vec::new();
    let mut moves = Vec::new();
    let on_event = |server: &mut EnetPeer, event| match event {
        Event::Rpc(call) if call.method == "chat" => {
            chats.push(call.args_as::<Chat>().unwrap());
            let id = i64::from(call.from);
            server
                .session()
                .rpc(call.from, "Lobby", "said", &(id, "hi back"))
                .unwrap();
        }
        Event::Rpc(call) if call.method == "move" => {
            moves.push((call.variants().unwrap(), call.channel))
        }
        _ => {}
    };
    let (ok, errors) = serve("gen_client4", &mut server, client, on_event);
    let _ = std::fs::remove_dir_all(&tmp);
    println!(
        "Godot 4 with the generated script: {ok} engine cases ok, {} chat, {} move",
        chats.len(),
        moves.len()
    );
    assert_chat_outcome(ok, 2, &errors, &chats);
    assert_eq!(
        moves,
        [(vec![Variant::Vector2(Vector2 { x: 1.0, y: 2.0 })], 1)]
    );
}

#[test]
fn generated_godot3_script_talks_to_the_rust_server() {
    let Some(engine) = engine::godot3_or_skip("generated_godot3_script_talks_to_the_rust_server")
    else {
        return;
    };
    let script = stubs()
        .property_type("score", &0_i64)
        .unwrap()
        .property_type("hp", &0_i64)
        .unwrap()
        .godot3(&table3())
        .unwrap();
    let (tmp, generated) = write_generated("gen3", "generated3.gd", &script);
    let project = engine::Godot3Project::new(
        "gdscript3",
        &[
            dir("godot3", "gen_client3.gd"),
            dir("godot3", "lobby_client3.gd"),
            generated,
        ],
    );
    let mut server =
        Enet3Peer::server("127.0.0.1:0".parse().unwrap(), 4, Limits::default()).unwrap();
    server.session().declare(table3());
    let port = server.local_addr().unwrap().port();
    let client = project.spawn(
        &engine,
        "gen_client3.gd",
        &[port.to_string()],
        Duration::from_secs(60),
    );
    let mut chats = Vec::new();
    let mut scores = Vec::new();
    let on_event = |server: &mut Enet3Peer, event| match event {
        Event::Rpc(call) if call.method == "chat" => {
            chats.push(call.args_as::<Chat>().unwrap());
            let s = server.session();
            let said = (i64::from(call.from), "hi back");
            s.rpc(call.from, "Lobby", "said", &said).unwrap();
            s.rset(call.from, "Lobby", "hp", &77).unwrap();
        }
        Event::Rset(set) => scores.push((set.method.clone(), set.value_as::<i64>().unwrap())),
        _ => {}
    };
    let (ok, errors) = serve("gen_client3", &mut server, client, on_event);
    let _ = std::fs::remove_dir_all(&tmp);
    println!(
        "Godot 3 with the generated script: {ok} engine cases ok, {} chat, {} rset",
        chats.len(),
        scores.len()
    );
    assert_chat_outcome(ok, 3, &errors, &chats);
    assert_eq!(scores, [("score".to_owned(), 5)]);
}

/// The typed flow: the script generated from an RPC set (`Stubs::typed4`), typed calls both
/// ways. Expected values are written out here and in `typed_client4.gd`.
#[cfg(feature = "derive")]
mod typed {
    use super::*;
    use godot_serde_multiplayer::Rpcs;
    use godot_serde_multiplayer::typed::RpcSet;

    #[derive(Serialize, Deserialize, Rpcs, Debug, PartialEq)]
    #[serde(rename_all = "snake_case")]
    #[rpcs(node = "Lobby")]
    enum Typed {
        #[rpc(any_peer)]
        Hello {
            name: String,
            team: u8,
        },
        #[rpc(any_peer, unreliable_ordered, channel = 1)]
        Move(Vector2),
        #[rpc(any_peer)]
        Input {
            name: String,
            dir: Vector2,
            seq: i64,
            jump: bool,
            keys: Vec<i64>,
        },
        Welcome {
            players: Vec<String>,
            seed: i64,
            spawn: Vector2,
        },
        Empty {
            keys: Vec<i64>,
        },
        Tick,
    }

    #[test]
    fn typed_godot4_script_and_calls_both_ways() {
        let Some(engine) = engine::godot4_or_skip("typed_godot4_script_and_calls_both_ways") else {
            return;
        };
        let script = Stubs::new().typed4::<Typed>().unwrap();
        let (tmp, project) = client_project4("typed4", "typed_client4.gd", "typed4.gd", &script);
        let (mut server, port) = server4(Typed::table());
        let client = spawn4(&engine, project, "typed_client4.gd", port);
        let mut calls = Vec::new();
        let on_event = |server: &mut EnetPeer, event| {
            if let Event::Rpc(call) = event {
                let Some(value) = server.session().call_of::<Typed>(&call) else {
                    return;
                };
                if let Typed::Hello { .. } = value {
                    let s = server.session();
                    let welcome = Typed::Welcome {
                        players: vec!["Ann".into(), "Bo".into()],
                        seed: 1 << 40,
                        spawn: Vector2::new(3.0, 4.0),
                    };
                    s.rpc_to(call.from, &welcome).unwrap();
                    s.rpc_to(call.from, &Typed::Empty { keys: vec![] }).unwrap();
                    s.rpc_to(call.from, &Typed::Tick).unwrap();
                }
                calls.push((value, call.channel));
            }
        };
        let (ok, errors) = serve("typed_client4", &mut server, client, on_event);
        let _ = std::fs::remove_dir_all(&tmp);
        println!(
            "Godot 4 with the typed script: {ok} engine cases ok, {} calls",
            calls.len()
        );
        assert!(errors.is_empty(), "{errors:?}");
        // connected, send, welcome, empty, tick.
        assert_eq!(ok, 5);
        assert_eq!(
            calls,
            [
                (
                    Typed::Hello {
                        name: "Ann".into(),
                        team: 2
                    },
                    0
                ),
                (Typed::Move(Vector2::new(1.5, -2.0)), 1),
                (
                    Typed::Input {
                        name: "p1".into(),
                        dir: Vector2::new(0.5, -0.25),
                        seq: 1 << 40,
                        jump: true,
                        keys: vec![87, 65, 83],
                    },
                    0
                ),
            ]
        );
    }
}

/// An editor-made `SceneReplicationConfig` that differs from the Rust declaration is reported
/// at `_ready` by the generated check (Godot 4.6), naming the difference; the declared one
/// passes. The messages are written out here.
#[test]
fn replication_config_check_reports_the_difference() {
    use godot_serde_multiplayer::replication::gdscript as rep_gdscript;
    use godot_serde_multiplayer::replication::{ReplicationMode, typed::TypedSync};

    #[derive(Serialize, Deserialize, Default)]
    struct Player {
        name: String,
        position: Vector2,
    }

    let Some(engine) = engine::godot4_or_skip("replication_config_check_reports_the_difference")
    else {
        return;
    };
    let player = TypedSync::<Player>::new("Sync", ReplicationMode::Always).unwrap();
    let decl = rep_gdscript::script(&[], &[("player", player.synchronizer())]);
    let checked = rep_gdscript::checked_synchronizer_script("player", "res://decl.gd");
    let (tmp, decl_file) = write_generated("repcheck4", "decl.gd", &decl);
    let (_, checked_file) = write_generated("repcheck4", "checked_sync.gd", &checked);
    let project = engine::Godot4Project::new(
        "repcheck4",
        &[
            &dir("godot", "replication_check4.gd"),
            &decl_file,
            &checked_file,
        ],
    );
    let out = project.run(
        &engine,
        "replication_check4.gd",
        &[],
        Duration::from_secs(60),
    );
    let _ = std::fs::remove_dir_all(&tmp);
    let ok = check("replication_check4", &out);
    assert_eq!(ok, 2, "declared accepted, done");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("MultiplayerSynchronizer /root/"))
        .collect();
    assert_eq!(
        errors,
        [
            "ERROR: MultiplayerSynchronizer /root/Swapped (declared as player): property 0 is \
             .:position in the scene, .:name in the Rust declaration; the declared order is \
             .:name, .:position",
            "ERROR: MultiplayerSynchronizer /root/Mode (declared as player): property .:name \
             has mode ON_CHANGE in the scene, ALWAYS in the Rust declaration",
        ],
        "stderr:\n{stderr}"
    );
}
